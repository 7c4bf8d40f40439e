//! GitHub Copilot's hooks files (`.github/hooks/**/*.json`), read by the
//! Copilot CLI and the cloud agent (and VS Code, which takes the same
//! files): each file's events and the commands, HTTP requests or prompts
//! each runs. Shaped as the Copilot CLI 1.0.102 reads them
//! (`docs/formats.md`, "Copilot hooks"): one file is dropped whole when
//! its `version` is not 1, its `hooks` is not a mapping or an event's value
//! is not a list; one entry the CLI cannot read is skipped alone.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::span::Spanned;

/// # Copilot hooks file
///
/// A `.github/hooks/<name>.json` file: the hooks the Copilot CLI and cloud
/// agent run at each event of a session.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "GitHub Copilot hooks file",
    extend("$id" = "https://agentc.dev/schemas/copilot-hooks.schema.json")
)]
pub struct CopilotHooksFile {
    /// # Version
    ///
    /// The format's version: `1`, the only one. A file with another
    /// version is not loaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1), example = &1)]
    pub version: Option<Spanned<u64>>,

    /// # Disable all hooks
    ///
    /// `true` turns every hook off.
    #[serde(rename = "disableAllHooks", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &false)]
    pub disable_all_hooks: Option<bool>,

    /// # Hooks
    ///
    /// By event (`sessionStart`, `userPromptSubmitted`, `preToolUse`,
    /// `postToolUse`, … or Claude Code's names, `PreToolUse`, `Stop`, …):
    /// what runs, in order.
    #[schemars(example = serde_json::json!({"preToolUse": [{"type": "command", "bash": "./.github/hooks/scripts/check.sh", "powershell": "./.github/hooks/scripts/check.ps1", "timeoutSec": 10}]}))]
    pub hooks: BTreeMap<Spanned<String>, Vec<Spanned<CopilotHook>>>,
}

/// # Copilot hook
///
/// One command, HTTP request or prompt; or, as Claude Code writes it, a
/// `matcher` with the `hooks` it runs (one level deep).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
pub struct CopilotHook {
    /// # Type
    ///
    /// `command` (when absent), `http`, or `prompt` (only at `sessionStart`).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"command")]
    pub kind: Option<Spanned<String>>,

    /// # Bash
    ///
    /// The command run by `bash` on Linux and macOS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./.github/hooks/scripts/check.sh")]
    pub bash: Option<Spanned<String>>,

    /// # PowerShell
    ///
    /// The command run by PowerShell on Windows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./.github/hooks/scripts/check.ps1")]
    pub powershell: Option<Spanned<String>>,

    /// # Command
    ///
    /// A command for every platform (VS Code's and Claude Code's key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Spanned<String>>,

    /// # Executable
    ///
    /// A program run directly, with no shell (instead of the shell keys).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec: Option<Spanned<String>>,

    /// # Linux command
    ///
    /// VS Code's command for Linux.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linux: Option<Spanned<String>>,

    /// # macOS command
    ///
    /// VS Code's command for macOS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub osx: Option<Spanned<String>>,

    /// # Windows command
    ///
    /// VS Code's command for Windows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub windows: Option<Spanned<String>>,

    /// # Working directory
    ///
    /// Where the command runs: relative to the repository's top, or
    /// absolute; the repository's top when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &".")]
    pub cwd: Option<Spanned<String>>,

    /// # Environment
    ///
    /// Variables set for the command; each value a string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<BTreeMap<String, String>>,

    /// # Timeout
    ///
    /// Seconds before the command is stopped (more than 0); 30 when absent.
    #[serde(rename = "timeoutSec", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &30)]
    pub timeout_sec: Option<Spanned<f64>>,

    /// # Timeout (VS Code)
    ///
    /// VS Code's name for `timeoutSec`, read by the Copilot CLI too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Spanned<f64>>,

    /// # Matcher
    ///
    /// For tool events: a regular expression the tool's name must match
    /// whole (`bash|edit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"bash|edit")]
    pub matcher: Option<Spanned<String>>,

    /// # URL
    ///
    /// For `http` hooks: where the event is posted (`https://`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Spanned<String>>,

    /// # Headers
    ///
    /// For `http` hooks: request headers; `$VAR` is taken from
    /// `allowedEnvVars`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<BTreeMap<String, String>>,

    /// # Allowed environment variables
    ///
    /// For `http` hooks: the variables headers may name.
    #[serde(rename = "allowedEnvVars", default, skip_serializing_if = "Option::is_none")]
    pub allowed_env_vars: Option<Vec<String>>,

    /// # Prompt
    ///
    /// For `prompt` hooks: the text sent as if the user typed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Spanned<String>>,

    /// # Hooks
    ///
    /// Claude Code's form: the hooks this `matcher` runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hooks: Option<Vec<Spanned<CopilotHook>>>,
}

impl CopilotHook {
    /// The keys that give a command hook its command.
    pub fn commands(&self) -> [(&'static str, Option<&Spanned<String>>); 7] {
        [
            ("bash", self.bash.as_ref()),
            ("powershell", self.powershell.as_ref()),
            ("command", self.command.as_ref()),
            ("exec", self.exec.as_ref()),
            ("linux", self.linux.as_ref()),
            ("osx", self.osx.as_ref()),
            ("windows", self.windows.as_ref()),
        ]
    }
}

/// The events the Copilot CLI 1.0.102 runs hooks at, by its own names (its
/// settings' `hooks.<event>` keys).
pub const COPILOT_HOOK_EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "userPromptTransformed",
    "preToolUse",
    "preMcpToolCall",
    "postToolUse",
    "postToolUseFailure",
    "permissionRequest",
    "notification",
    "errorOccurred",
    "agentStop",
    "subagentStart",
    "subagentStop",
    "preCompact",
];

/// Claude Code's event names the Copilot CLI 1.0.102 also takes, run at its
/// own events (`Stop` at `agentStop`, `UserPromptSubmit` at
/// `userPromptSubmitted`).
pub const COPILOT_CLAUDE_EVENTS: &[&str] = &[
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PreMcpToolCall",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "Notification",
    "ErrorOccurred",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
];

/// The events whose `matcher` the Copilot CLI compiles as a regular
/// expression, skipping the hook when it is empty or does not compile —
/// under Claude Code's names too, where only `*` means every tool.
pub const COPILOT_MATCHER_EVENTS: &[&str] = &[
    "preToolUse",
    "postToolUse",
    "permissionRequest",
    "preMcpToolCall",
    "notification",
    "subagentStart",
    "preCompact",
    "PreToolUse",
    "PostToolUse",
    "PermissionRequest",
    "PreMcpToolCall",
    "Notification",
    "SubagentStart",
    "PreCompact",
];
