//! agentc: compile AI-agent definition directories at build time.
//!
//! This facade is the one dependency a user adds. It re-exports the data model
//! ([`schema`]), including the [`Lockfile`] a runtime loads.

pub use agentc_schema as schema;
pub use agentc_schema::Lockfile;
