//! The `agentc` command line: parses the arguments ([`cli`]), runs the core
//! compiler (`agentc-compiler`) for `check`, `lock`, `graph`, `schema` and
//! `explain`, the language server (`agentc-lsp`) for `lsp`, the MCP server
//! (`agentc-mcp`) for `mcp`, and owns what
//! only a command line does: counting tokens for `budget` ([`budget`]),
//! writing a new project ([`init`]), baselines ([`baseline`]), the progress line ([`progress`]),
//! `check --watch` ([`watch`]) and removing temporary files on Ctrl-C
//! ([`signals`]). The binary (`src/main.rs`) is [`run`] on the process's
//! arguments and streams.

pub mod baseline;
pub mod budget;
pub mod cli;
pub mod dts;
pub mod init;
pub mod progress;
pub mod signals;
pub mod watch;

pub use cli::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, Io, auto_color, run};
