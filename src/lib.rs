//! agentc: compile AI-agent definition directories at build time.
//!
//! This facade is the one dependency a user adds:
//!
//! - [`agents!`] turns an agents directory into typed Rust items at compile
//!   time; every mistake in the directory is a compile error pointing at the
//!   file, line and column that caused it;
//! - [`build::Config`] does the same from a `build.rs`;
//! - [`Lockfile`] loads `agentc.lock` in a service, with no compiler involved;
//! - [`runtime`] holds the types the generated items are made of.
//!
//! # The macro
//!
//! ```ignore
//! mod desk {
//!     agentc::agents!(
//!         "agents",                                 // the agents directory
//!         workspace = ".",                          // AGENTS.md and .agents/ (optional)
//!         registry = "registry.yaml",               // models, context providers, host tools (optional)
//!         tools = [crate::tools::lookup_order],     // host tools, by their implementation
//!         exclude = ["repo-skills"],                // scopes switched off (optional)
//!     );
//! }
//!
//! let triage = desk::Agent::Triage.def();
//! assert!(triage.activates(desk::Skill::Intake));
//! ```
//!
//! Invoke it where items go — in a module of its own, as above, not inside a
//! function body: the definitions live in hidden submodules that name their
//! parent's `Skill` and `Tool`.
//!
//! Paths are relative to the crate's `Cargo.toml` (or, when not found there,
//! to the file invoking the macro). With `lock = "agentc.lock"` the directory
//! must compile to exactly that committed lockfile (as `agentc lock --check`
//! requires), so a stale lockfile is a compile error listing what changed.
//!
//! Each entry of `tools = [...]` is a path to the host's implementation of a
//! tool named like the path's last segment (`"name" = path` for other names):
//! a function `fn(serde_json::Value) -> Result<serde_json::Value, E>` or any
//! value implementing [`runtime::HostTool`]. The generated `Tool::host()`
//! refers to each, so rustc checks that every declared tool is implemented,
//! and agentc checks that every tool the agents use is declared.
//!
//! Cargo rebuilds when an input file changes (each is included: a skill's
//! file with `include_str!`, its body a slice of that text, so the expansion
//! never repeats it; the others with `include_bytes!`). To also rebuild when
//! a file is *added* or *removed*, a `build.rs` has cargo watch the folders
//! and tells the macro so (it asks for these lines when they are missing):
//! `println!("cargo:rerun-if-changed=agents");` and
//! `println!("cargo:rustc-env=AGENTC_TRACKED=agents");`.
//!
//! # Features
//!
//! `macros` (default) is `agents!`; `build` is [`build::Config`] for a build
//! script, asked for in `[build-dependencies]` only, so the application
//! never links the compiler.

pub use agentc_schema as schema;
pub use agentc_schema::Lockfile;
pub use agentc_schema::runtime;
pub use agentc_schema::runtime::HostTool;
/// The JSON library tool implementations receive their input in.
pub use serde_json;

/// What generated code names; not an API.
#[doc(hidden)]
pub mod __private {
    pub use regress;
    pub use serde;
    pub use serde_json;
}

#[cfg(feature = "macros")]
pub use agentc_macros::agents;

/// Code generation from a build script (the `build` feature).
///
/// ```no_run
/// // in build.rs's `main`:
/// agentc::build::Config::new("agents")
///     .workspace(".")
///     .registry("registry.yaml")
///     .tool("lookup_order", "crate::tools::lookup_order")
///     .compile()
///     .expect("the agents directory has errors");
/// ```
///
/// and in the crate: `include!(concat!(env!("OUT_DIR"), "/agents.rs"));`
#[cfg(feature = "build")]
pub mod build {
    pub use agentc_compiler::build_api::Config;
    pub use agentc_compiler::embed::Failure;
}
