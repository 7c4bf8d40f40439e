//! Parse: text into typed values with spans.
//!
//! YAML frontmatter and JSON are both read into one located tree
//! ([`tree::Node`]), then decoded into the `agentc-schema` types by one decoder
//! ([`decode`]) that reports every problem with the position of the value.

pub mod decode;
pub mod files;
pub mod frontmatter;
pub mod json;
pub mod lenient;
pub mod links;
pub mod markup;
pub mod misspelt;
pub mod toml;
pub mod tree;
pub mod yaml;
