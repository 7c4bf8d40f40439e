//! agentc's Zed extension: it starts `agentc lsp` for the language server
//! `extension.toml` declares, with the binary Zed's settings name
//! (`"lsp": {"agentc": {"binary": {"path": "...", "arguments": [...]}}}`) or
//! else the `agentc` found on the worktree's PATH, and says how to get one
//! when there is none.

use zed_extension_api::settings::LspSettings;
use zed_extension_api::{self as zed, LanguageServerId, Result, Worktree};

/// The language server of `extension.toml` (`[language_servers.agentc]`),
/// and the binary's name on PATH.
pub const SERVER: &str = "agentc";

/// Why there is no server to start: `agentc` is not on PATH.
pub const NOT_FOUND: &str = "agentc is not on the PATH Zed sees. Install it (from a clone of \
     agentc's repository: `cargo install --locked --path cli`) or name it in Zed's settings: \
     \"lsp\": {\"agentc\": {\"binary\": {\"path\": \"/path/to/agentc\"}}}; then restart the \
     language server";

struct Agentc;

impl zed::Extension for Agentc {
    fn new() -> Self {
        Agentc
    }

    fn language_server_command(
        &mut self,
        id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<zed::Command> {
        if id.as_ref() != SERVER {
            return Err(format!("agentc's extension starts no language server named `{id}`"));
        }
        let binary = LspSettings::for_worktree(SERVER, worktree).ok().and_then(|s| s.binary);
        let (path, arguments, env) = match binary {
            Some(binary) => (binary.path, binary.arguments, binary.env),
            None => (None, None, None),
        };
        let command = match path {
            Some(path) => path,
            None => worktree.which(SERVER).ok_or_else(|| NOT_FOUND.to_owned())?,
        };
        let mut environment = worktree.shell_env();
        environment.extend(env.into_iter().flatten());
        Ok(zed::Command {
            command,
            args: arguments.unwrap_or_else(|| vec!["lsp".to_owned()]),
            env: environment,
        })
    }
}

zed::register_extension!(Agentc);
