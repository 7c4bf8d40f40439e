//! agentc's language server, `agentc lsp`: [`lsp`] speaks the Language
//! Server Protocol over stdio and keeps each workspace folder's compilation
//! up to date as documents change; [`ide`] answers an editor's questions
//! (what a position names, definition, references, hover, completion, rename,
//! outline) from a compilation. Both are built on the core compiler
//! (`agentc-compiler`) alone; the command line (`agentc-cli`) runs
//! [`run_stdio`].

pub mod ide;
pub mod lsp;

#[doc(hidden)]
pub mod fuzzing;

pub use lsp::run_stdio;
