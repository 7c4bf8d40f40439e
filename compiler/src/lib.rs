//! The agentc compiler.
//!
//! The pipeline, one module per stage:
//!
//! 1. [`discover`] walks the layout and decides what each entry is;
//! 2. [`read`] reads those files safely and in parallel;
//! 3. [`parse`] turns text into located trees and the schema types, with spans,
//!    and [`dialects`] decodes each file in its dialect with its host's
//!    file-local rules;
//! 4. [`resolve`] looks every name up in its scope and builds the [`model::Model`];
//! 5. [`check`] checks the rules between resolved names;
//! 6. [`emit`] renders diagnostics for people and machines.
//!
//! [`compile`] runs the stages and collects every diagnostic in report order.
//! [`hosts`] holds what each host (Claude Code, Copilot, the Agent Skills
//! specification, agentc's runtimes) does with a file: its reader, how the
//! specification's rules stand there, its tool and model catalogues.
//!
//! [`Diagnostic`] is the one type for everything a user is told; [`catalog`]
//! declares every code. All disk access goes through [`fs::Fs`].
//!
//! This crate is the core: the language server (`agentc-lsp`, with the editor
//! analyses) and the command line (`agentc-cli`, the `agentc` binary) are
//! crates of their own built on it, so the macro and `build.rs` users compile
//! neither. Its one feature, `watch`, adds `fs::watcher` for those two.

pub mod baseline;
pub mod budget;
pub mod build_api;
pub mod catalog;
pub mod check;
pub mod codegen;
pub mod compile;
pub mod diagnostic;
pub mod dialects;
pub mod discover;
pub mod embed;
pub mod emit;
pub mod fix;
pub mod folder;
pub mod fs;
pub mod fscache;
#[doc(hidden)]
pub mod fuzzing;
pub mod hosts;
pub(crate) mod kept;
pub mod lock;
pub mod memfs;
pub mod model;
pub mod options;
pub mod overlay;
pub mod overrides;
pub mod parse;
pub mod project;
pub mod project_file;
pub mod read;
pub mod repo_files;
pub mod repository;
pub mod resolve;
pub mod runbook;
pub mod secrets;
pub mod shell;
pub mod source;
pub mod suggest;
pub mod update;
pub mod write;

pub use catalog::Code;
pub use compile::{Compilation, SetupError, compile};
pub use diagnostic::{Diagnostic, RelPath, Severity};
pub use options::{Options, Scope};
