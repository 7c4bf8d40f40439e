//! Claude Code hooks: commands, prompts and requests Claude Code runs at
//! points of a session. The same shape is written in a plugin's
//! `hooks/hooks.json`, inline in `plugin.json`, under `hooks` in
//! `.claude/settings.json`, and in a skill's or subagent's frontmatter.
//!
//! Which events exist and what each hook type takes are Claude Code's, cited
//! in `docs/formats.md` ("Claude Code hooks"); the event names are checked
//! against [`HOOK_EVENTS`] by the Claude Code host, with "did you mean".

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::span::Spanned;
use crate::values::Text;

/// # Claude Code hooks file
///
/// A plugin's `hooks/hooks.json` (or a file its `plugin.json` names under
/// `hooks`): the events and what runs at each.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Claude Code hooks.json",
    extend("$id" = "https://agentc.dev/schemas/claude-hooks.schema.json")
)]
pub struct HooksFile {
    /// # Schema
    ///
    /// The JSON Schema the file follows, for editors.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://agentc.dev/schemas/claude-hooks.schema.json")]
    pub schema: Option<String>,

    /// # Description
    ///
    /// What the hooks do, shown in `/hooks`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Format files after every edit")]
    pub description: Option<Spanned<Text>>,

    /// # Hooks
    ///
    /// By event name (`PreToolUse`, `SessionStart`, …): the matchers and the
    /// hooks each runs.
    #[serde(default)]
    #[schemars(example = serde_json::json!({"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/format.sh"}]}]}))]
    pub hooks: Hooks,

    /// # Modules
    ///
    /// A module of hooks to load (at most one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["./hooks/index.js"]))]
    pub modules: Option<Vec<String>>,
}

/// Hooks by event name.
pub type Hooks = BTreeMap<Spanned<String>, Vec<HookMatcher>>;

/// # Hook matcher
///
/// Which occurrences of the event the hooks run for, and the hooks.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct HookMatcher {
    /// # Matcher
    ///
    /// For tool events the tool's name: exact (`Write`), alternatives
    /// (`Edit|Write`), a regular expression (`Notebook.*`, `mcp__github__.*`),
    /// or `*` / empty for every tool. Other events match their own values
    /// (`SessionStart`: `startup`, `resume`, …); events without values ignore it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Edit|Write")]
    pub matcher: Option<Spanned<String>>,

    /// # Hooks
    ///
    /// What runs, in order.
    pub hooks: Vec<Spanned<Hook>>,
}

/// # Hook
///
/// One command, prompt, agent or HTTP request.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct Hook {
    /// # Type
    ///
    /// What the hook is: `command`, `prompt`, `agent`, `http` or `mcp_tool`.
    /// Decoded as text, so a type Claude Code does not have is reported by
    /// the host's rules (it skips the hook, or — under a guard event — the
    /// whole plugin), not refused by the decoder.
    #[serde(rename = "type")]
    #[schemars(with = "HookType")]
    pub kind: Spanned<Text>,

    /// # Command
    ///
    /// For `command` hooks: the shell command. `${CLAUDE_PLUGIN_ROOT}` is the
    /// plugin's folder, `$CLAUDE_PROJECT_DIR` the project's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"${CLAUDE_PLUGIN_ROOT}/scripts/format.sh")]
    pub command: Option<Spanned<Text>>,

    /// # Prompt
    ///
    /// For `prompt` and `agent` hooks: what the model is asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Spanned<Text>>,

    /// # URL
    ///
    /// For `http` hooks: where the event is posted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Spanned<Text>>,

    /// # Timeout
    ///
    /// Seconds before the hook is cancelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub timeout: Option<Spanned<f64>>,

    /// # Model
    ///
    /// For `prompt` and `agent` hooks: the model that answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<Spanned<Text>>,

    /// # Run in the background
    ///
    /// For `command` hooks: run without blocking the session.
    #[serde(rename = "async", default, skip_serializing_if = "Option::is_none")]
    pub background: Option<bool>,

    /// # Status message
    ///
    /// What the spinner says while the hook runs.
    #[serde(rename = "statusMessage", default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<Spanned<Text>>,

    /// # Once
    ///
    /// Run once per session, then remove the hook (skills' hooks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub once: Option<bool>,

    /// # Headers
    ///
    /// For `http` hooks: request headers; `$VAR` references are expanded
    /// from `allowedEnvVars`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<BTreeMap<String, String>>,

    /// # Arguments
    ///
    /// For `command` hooks: run the command with these arguments, no shell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,

    /// # If
    ///
    /// Run only for tool uses this permission rule matches (`Bash(git *)`).
    #[serde(rename = "if", default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Spanned<String>>,

    /// # Shell
    ///
    /// For `command` hooks: `bash` or `powershell`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shell: Option<String>,

    /// # On failure
    ///
    /// `continue` or `block`.
    #[serde(rename = "onFailure", default, skip_serializing_if = "Option::is_none")]
    pub on_failure: Option<String>,

    /// # Continue on block
    ///
    /// For `prompt` hooks: let the session go on after the hook blocks.
    #[serde(rename = "continueOnBlock", default, skip_serializing_if = "Option::is_none")]
    pub continue_on_block: Option<bool>,

    /// # Wake the session
    ///
    /// For background `command` hooks: an exit code 2 wakes the session.
    #[serde(rename = "asyncRewake", default, skip_serializing_if = "Option::is_none")]
    pub async_rewake: Option<bool>,

    /// # Wake message
    ///
    /// For background hooks: what the model is told when the hook wakes the session.
    #[serde(rename = "rewakeMessage", default, skip_serializing_if = "Option::is_none")]
    pub rewake_message: Option<String>,

    /// # Wake summary
    ///
    /// For background hooks: the one line people see when the hook wakes the session.
    #[serde(rename = "rewakeSummary", default, skip_serializing_if = "Option::is_none")]
    pub rewake_summary: Option<String>,

    /// # MCP server
    ///
    /// For `mcp_tool` hooks: the server whose tool is called.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<Spanned<Text>>,

    /// # MCP tool
    ///
    /// For `mcp_tool` hooks: the tool called.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<Spanned<Text>>,

    /// # Input
    ///
    /// For `mcp_tool` hooks: the tool's arguments; `${tool_input.file_path}`
    /// takes a value from the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<serde_json::Value>,

    /// # Allowed environment variables
    ///
    /// For `http` hooks: the variables headers may reference.
    #[serde(rename = "allowedEnvVars", default, skip_serializing_if = "Option::is_none")]
    pub allowed_env_vars: Option<Vec<String>>,
}

impl Hook {
    /// The hook's type, when Claude Code has it.
    pub fn hook_type(&self) -> Option<HookType> {
        HookType::ALL.iter().copied().find(|t| t.name() == self.kind.value.as_str())
    }
}

/// What a hook is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HookType {
    /// A shell command.
    Command,
    /// A question to a model, answered yes or no.
    Prompt,
    /// A subagent that checks the event with tools.
    Agent,
    /// A request posted to a URL.
    Http,
    /// A tool of an MCP server, called with the event.
    #[serde(rename = "mcp_tool")]
    McpTool,
}

impl HookType {
    pub const ALL: [HookType; 5] =
        [HookType::Command, HookType::Prompt, HookType::Agent, HookType::Http, HookType::McpTool];

    /// As written in a hooks file.
    pub const fn name(self) -> &'static str {
        match self {
            HookType::Command => "command",
            HookType::Prompt => "prompt",
            HookType::Agent => "agent",
            HookType::Http => "http",
            HookType::McpTool => "mcp_tool",
        }
    }
}

/// The events Claude Code runs hooks at (its `hooks` reference, and the event
/// list in its bundled code; `docs/formats.md` cites both).
pub const HOOK_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
    "PreSkillShellCommand",
];

/// The events whose matcher is a tool name.
pub const TOOL_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionDenied",
    "PreSkillShellCommand",
];

/// The guard events: a hook entry under one of them that Claude Code cannot
/// load makes the plugin, subagent or skill holding it not load at all (for
/// other events, the entry alone is skipped).
pub const GUARD_EVENTS: &[&str] = &["PreToolUse", "PermissionRequest", "PreSkillShellCommand"];
