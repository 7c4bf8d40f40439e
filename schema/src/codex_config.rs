//! Codex's project files besides its skills: `.codex/config.toml` (the
//! project's configuration layer), `.codex/hooks.json` (lifecycle hooks)
//! and `.codex/agents/*.toml` (custom agents). What each key takes was read
//! off Codex 0.171.0 itself (`docs/formats.md`, "Codex configuration"): a
//! value it cannot deserialize stops it ("failed to load bootstrap
//! configuration"), a key it does not know it ignores with a start-up
//! warning. Keys agentc has no rule for are taken as written.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::span::Spanned;

/// # Codex configuration
///
/// `.codex/config.toml`, the project's layer over `~/.codex/config.toml`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Codex .codex/config.toml",
    extend("$id" = "https://agentc.dev/schemas/codex-config.schema.json")
)]
pub struct CodexConfig {
    /// # Model
    ///
    /// The model Codex uses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"gpt-5.5")]
    pub model: Option<Spanned<String>>,

    /// # Approval policy
    ///
    /// When Codex asks before running a command: `untrusted`, `on-failure`,
    /// `on-request`, `never`, or `{ granular = { … } }`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"on-request")]
    pub approval_policy: Option<Spanned<serde_json::Value>>,

    /// # Approvals reviewer
    ///
    /// `user`, `auto_review` or `guardian_subagent`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["user", "auto_review", "guardian_subagent"]), example = &"user")]
    pub approvals_reviewer: Option<Spanned<String>>,

    /// # Sandbox mode
    ///
    /// What commands may touch: `read-only`, `workspace-write` or `danger-full-access`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["read-only", "workspace-write", "danger-full-access"]), example = &"workspace-write")]
    pub sandbox_mode: Option<Spanned<String>>,

    /// # Workspace-write sandbox
    ///
    /// What the `workspace-write` sandbox allows besides the workspace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"network_access": false}))]
    pub sandbox_workspace_write: Option<CodexSandboxWorkspaceWrite>,

    /// # Reasoning effort
    ///
    /// An effort the model advertises (`low`, `medium`, `high`, `xhigh`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"high")]
    pub model_reasoning_effort: Option<Spanned<String>>,

    /// # Plan-mode reasoning effort
    ///
    /// The effort in plan mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"high")]
    pub plan_mode_reasoning_effort: Option<Spanned<String>>,

    /// # Reasoning summary
    ///
    /// `auto`, `concise`, `detailed` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["auto", "concise", "detailed", "none"]), example = &"concise")]
    pub model_reasoning_summary: Option<Spanned<String>>,

    /// # Verbosity
    ///
    /// `low`, `medium` or `high`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["low", "medium", "high"]), example = &"medium")]
    pub model_verbosity: Option<Spanned<String>>,

    /// # Web search
    ///
    /// `disabled`, `cached`, `indexed` or `live`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["disabled", "cached", "indexed", "live"]), example = &"cached")]
    pub web_search: Option<Spanned<String>>,

    /// # Feature flags
    ///
    /// Feature name to `true`/`false` (a few take a table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"hooks": true}))]
    pub features: Option<BTreeMap<Spanned<String>, Spanned<serde_json::Value>>>,

    /// # MCP servers
    ///
    /// By name: a local server (`command`) or a remote one (`url`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"docs": {"command": "npx", "args": ["-y", "docs-mcp"]}}))]
    pub mcp_servers: Option<BTreeMap<Spanned<String>, Spanned<CodexMcpServer>>>,

    /// # Hooks
    ///
    /// By event, the matcher groups and their hooks, as in
    /// `.codex/hooks.json` (`[[hooks.PreToolUse]]`, then
    /// `[[hooks.PreToolUse.hooks]]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        with = "Option<BTreeMap<String, Vec<CodexHookGroup>>>",
        example = serde_json::json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .codex/hooks/check.py", "timeout": 30}]}]})
    )]
    pub hooks: Option<BTreeMap<Spanned<String>, Spanned<serde_json::Value>>>,
}

/// # Workspace-write sandbox
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct CodexSandboxWorkspaceWrite {
    /// # Writable roots
    ///
    /// Writable roots, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writable_roots: Option<Vec<Spanned<String>>>,
    /// # Network access
    ///
    /// Network access, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_access: Option<bool>,
    /// # Keep `$TMPDIR` read-only
    ///
    /// Keep `$TMPDIR` read-only, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_tmpdir_env_var: Option<bool>,
    /// # Keep `/tmp` read-only
    ///
    /// Keep `/tmp` read-only, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_slash_tmp: Option<bool>,
}

/// # MCP server
///
/// A local server is started with `command`; a remote one is reached at
/// `url` (streamable HTTP). Codex refuses a server with both, or with
/// neither, and the fields of the other kind.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct CodexMcpServer {
    /// # Command
    ///
    /// Command, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Spanned<String>>,
    /// # Arguments
    ///
    /// Arguments, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<Spanned<String>>>,
    /// # Environment
    ///
    /// Variables set for the server, as written (Codex expands nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
    /// # Forwarded variables
    ///
    /// Variables of Codex's own environment passed on to the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env_vars: Option<Vec<Spanned<String>>>,
    /// # Working folder
    ///
    /// Working folder, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<Spanned<String>>,
    /// # URL
    ///
    /// URL, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Spanned<String>>,
    /// # Bearer token
    ///
    /// Refused by Codex: a token is read from `bearer_token_env_var`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bearer_token: Option<Spanned<String>>,
    /// # Bearer token variable
    ///
    /// Bearer token variable, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bearer_token_env_var: Option<Spanned<String>>,
    /// # HTTP headers
    ///
    /// HTTP headers, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_headers: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
    /// # HTTP headers from variables
    ///
    /// Header name to the variable holding its value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env_http_headers: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
    /// # Start-up timeout (seconds)
    ///
    /// Start-up timeout (seconds), as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_timeout_sec: Option<Spanned<f64>>,
    /// # Start-up timeout (milliseconds)
    ///
    /// Start-up timeout (milliseconds), as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_timeout_ms: Option<Spanned<f64>>,
    /// # Tool timeout (seconds)
    ///
    /// Tool timeout (seconds), as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_timeout_sec: Option<Spanned<f64>>,
    /// # Enabled
    ///
    /// Enabled, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// # Required
    ///
    /// Required, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// # Enabled tools
    ///
    /// Enabled tools, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled_tools: Option<Vec<Spanned<String>>>,
    /// # Disabled tools
    ///
    /// Disabled tools, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled_tools: Option<Vec<Spanned<String>>>,
    /// # Default tool approval
    ///
    /// Default tool approval, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["auto", "prompt", "approve"]))]
    pub default_tools_approval_mode: Option<Spanned<String>>,
    /// # Parallel tool calls
    ///
    /// Parallel tool calls, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_parallel_tool_calls: Option<bool>,
    /// # Environment
    ///
    /// Environment, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment_id: Option<Spanned<String>>,
    /// # Per-tool settings
    ///
    /// Per-tool settings, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<serde_json::Value>,
    /// # OAuth
    ///
    /// OAuth, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth: Option<serde_json::Value>,
    /// # OAuth scopes
    ///
    /// OAuth scopes, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes: Option<Vec<Spanned<String>>>,
    /// # OAuth resource
    ///
    /// OAuth resource, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth_resource: Option<Spanned<String>>,
}

/// # Codex hooks
///
/// `.codex/hooks.json`: by event, the matcher groups and their hooks.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Codex .codex/hooks.json",
    extend("$id" = "https://agentc.dev/schemas/codex-hooks.schema.json")
)]
pub struct CodexHooksFile {
    /// # Description
    ///
    /// What the hooks are for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Project guards")]
    pub description: Option<String>,
    /// # Hooks
    ///
    /// Event name (`PreToolUse`, `SessionStart`, …) to its matcher groups.
    #[schemars(example = serde_json::json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .codex/hooks/check.py", "timeout": 30}]}]}))]
    pub hooks: BTreeMap<Spanned<String>, Vec<CodexHookGroup>>,
}

/// # Matcher group
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct CodexHookGroup {
    /// # Matcher
    ///
    /// A regular expression over the tool name (or the event's subject).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matcher: Option<Spanned<String>>,
    /// # Hooks
    ///
    /// Hooks, as Codex reads it.
    pub hooks: Vec<Spanned<CodexHook>>,
}

/// # Hook
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct CodexHook {
    /// # Type
    ///
    /// `command` or `mcp_tool` (Codex 0.171 skips `prompt` and `agent`).
    #[serde(rename = "type")]
    #[schemars(extend("enum" = ["command", "mcp_tool", "prompt", "agent"]))]
    pub kind: Spanned<String>,
    /// # Command
    ///
    /// Command, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Spanned<String>>,
    /// # Timeout (seconds)
    ///
    /// Timeout (seconds), as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Spanned<f64>>,
    /// # Run in the background
    ///
    /// Run in the background, as Codex reads it.
    #[serde(rename = "async", default, skip_serializing_if = "Option::is_none")]
    pub run_async: Option<bool>,
    /// # Status message
    ///
    /// Status message, as Codex reads it.
    #[serde(rename = "statusMessage", default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// # MCP server
    ///
    /// MCP server, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<Spanned<String>>,
    /// # MCP tool
    ///
    /// MCP tool, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<Spanned<String>>,
    /// # Prompt
    ///
    /// Prompt, as Codex reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
}

/// # Codex custom agent
///
/// `.codex/agents/<name>.toml`: a role Codex may spawn, with the
/// configuration keys of `config.toml` it overrides.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Codex custom agent",
    extend("$id" = "https://agentc.dev/schemas/codex-agent.schema.json")
)]
pub struct CodexAgent {
    /// # Name
    ///
    /// The name Codex spawns it by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"reviewer")]
    pub name: Option<Spanned<String>>,
    /// # Description
    ///
    /// When to spawn it, shown to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Reviews the diff for correctness and missing tests.")]
    pub description: Option<Spanned<String>>,
    /// # Instructions
    ///
    /// What the agent is told to do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Review the diff against the base branch.")]
    pub developer_instructions: Option<Spanned<String>>,
    /// # Nicknames
    ///
    /// Names shown for the agents spawned in this role.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["Scout"]))]
    pub nickname_candidates: Option<Vec<Spanned<String>>>,
    /// # Model
    ///
    /// The model it runs on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"gpt-5.5")]
    pub model: Option<Spanned<String>>,
    /// # Reasoning effort
    ///
    /// Its reasoning effort.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"medium")]
    pub model_reasoning_effort: Option<Spanned<String>>,
    /// # Sandbox mode
    ///
    /// Its sandbox.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["read-only", "workspace-write", "danger-full-access"]), example = &"read-only")]
    pub sandbox_mode: Option<Spanned<String>>,
    /// # MCP servers
    ///
    /// MCP servers of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"docs": {"command": "npx", "args": ["-y", "docs-mcp"]}}))]
    pub mcp_servers: Option<BTreeMap<Spanned<String>, Spanned<CodexMcpServer>>>,
}
