//! Cursor's project files besides its rules: `.cursor/hooks.json` (agent
//! hooks), `.cursor/environment.json` (the cloud agents' machine) and
//! `.cursor/cli.json` (the Cursor CLI's permissions). Cursor is closed
//! source: the shapes are its documentation's (cursor.com/docs/agent/hooks,
//! cursor.com/docs/cloud-agent/setup and the schema it publishes at
//! cursor.com/schemas/environment.schema.json, cursor.com/docs/cli/reference/
//! permissions), read 2026-12-05 (`docs/formats.md`, "Cursor hooks,
//! environment and CLI permissions").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::span::Spanned;

/// The events Cursor runs hooks on (cursor.com/docs/agent/hooks, read
/// 2026-12-05): the agent's, Tab's and the application's.
pub const CURSOR_HOOK_EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "subagentStop",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "preCompact",
    "stop",
    "afterAgentResponse",
    "afterAgentThought",
    "beforeTabFileRead",
    "afterTabFileEdit",
    "workspaceOpen",
];

/// # Cursor hooks file
///
/// `.cursor/hooks.json`: the commands (or prompts) Cursor runs at each
/// event of an agent session, Tab and the editor.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Cursor hooks file",
    extend("$id" = "https://agentc.dev/schemas/cursor-hooks.schema.json")
)]
pub struct CursorHooksFile {
    /// # Schema
    ///
    /// A JSON Schema for editors; Cursor does not read it.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://agentc.dev/schemas/cursor-hooks.schema.json")]
    pub schema: Option<String>,

    /// # Version
    ///
    /// The format's version: `1`, the only one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1), example = &1)]
    pub version: Option<Spanned<u64>>,

    /// # Hooks
    ///
    /// By event (`beforeShellExecution`, `afterFileEdit`, `stop`, …): the
    /// hooks run, in order.
    #[schemars(example = serde_json::json!({"afterFileEdit": [{"command": ".cursor/hooks/format.sh", "timeout": 30}]}))]
    pub hooks: BTreeMap<Spanned<String>, Vec<Spanned<CursorHook>>>,
}

/// # Cursor hook
///
/// A command Cursor runs (the default), or a prompt a model answers.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
pub struct CursorHook {
    /// # Type
    ///
    /// `command` (when absent) or `prompt`.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["command", "prompt"]), example = &"command")]
    pub kind: Option<Spanned<String>>,

    /// # Command
    ///
    /// The command run, from the project's top (a script such as
    /// `.cursor/hooks/format.sh`, or a command line). Its JSON input comes
    /// on standard input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &".cursor/hooks/format.sh")]
    pub command: Option<Spanned<String>>,

    /// # Prompt
    ///
    /// A `prompt` hook's question to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Spanned<String>>,

    /// # Model
    ///
    /// The model a `prompt` hook asks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<Spanned<String>>,

    /// # Timeout
    ///
    /// Seconds before the hook is stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &30)]
    pub timeout: Option<Spanned<f64>>,

    /// # Fail closed
    ///
    /// `true` blocks the action when the hook fails or times out; by
    /// default a failing hook lets it through.
    #[serde(rename = "failClosed", default, skip_serializing_if = "Option::is_none")]
    pub fail_closed: Option<bool>,

    /// # Matcher
    ///
    /// A regular expression over the tool (or the command) the hook is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Shell|Write")]
    pub matcher: Option<Spanned<String>>,

    /// # Loop limit
    ///
    /// How many follow-up messages a `stop` or `subagentStop` hook may
    /// send in a row; `null` for no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_limit: Option<Spanned<f64>>,

    /// Claude Code's nested hooks, written here by mistake (not Cursor's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub hooks: Option<serde_json::Value>,
}

/// # Cursor cloud agent environment
///
/// `.cursor/environment.json`: how Cursor's cloud (background) agents set
/// up their machine. Shaped as Cursor's published schema
/// (cursor.com/schemas/environment.schema.json, retrieved 2026-07-21 in
/// zhupanov/agent-lint) with the keys its cloud agent documentation adds.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Cursor cloud agent environment",
    extend("$id" = "https://agentc.dev/schemas/cursor-environment.schema.json")
)]
pub struct CursorEnvironment {
    /// # Schema
    ///
    /// A JSON Schema for editors.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://cursor.com/schemas/environment.schema.json")]
    pub schema: Option<String>,
    /// # Name
    ///
    /// The environment's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"web")]
    pub name: Option<String>,
    /// # User
    ///
    /// The user the environment runs as.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"ubuntu")]
    pub user: Option<String>,
    /// # Install
    ///
    /// The command run when the machine starts (after the latest changes
    /// are pulled), to refresh dependencies; from the project's top.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"npm ci")]
    pub install: Option<Spanned<String>>,
    /// # Start
    ///
    /// The command run when the environment starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"sudo service docker start")]
    pub start: Option<Spanned<String>>,
    /// # Repository dependencies
    ///
    /// Repositories the environment needs (`github.com/org/repo`).
    #[serde(rename = "repositoryDependencies", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["github.com/acme/shared-config"]))]
    pub repository_dependencies: Option<Vec<String>>,
    /// # Ports
    ///
    /// Ports of the machine to expose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!([{"port": 3000, "name": "web"}]))]
    pub ports: Option<Vec<CursorPort>>,
    /// # Terminals
    ///
    /// Terminals started with the environment: each a terminal, or a list
    /// of terminals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        with = "Option<Vec<CursorTerminals>>",
        example = serde_json::json!([{"name": "dev", "command": "npm run dev"}])
    )]
    pub terminals: Option<Vec<serde_json::Value>>,
    /// # Build
    ///
    /// The Docker image to build.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"dockerfile": "Dockerfile", "context": ".."}))]
    pub build: Option<CursorBuild>,
    /// # Snapshot
    ///
    /// The snapshot the machine starts from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"snapshot-20260101-0123456789abcdef")]
    pub snapshot: Option<String>,
    /// # Agent can update the snapshot
    ///
    /// Whether the agent may update the snapshot.
    #[serde(rename = "agentCanUpdateSnapshot", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &false)]
    pub agent_can_update_snapshot: Option<bool>,
    /// # Image
    ///
    /// A container image to start from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"node:22")]
    pub image: Option<String>,
    /// # Egress mode
    ///
    /// Which network the machine may reach.
    #[serde(rename = "egressMode", default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        extend("enum" = ["allow_all", "parent_plus_network_settings", "default_with_network_settings", "network_settings_only"]),
        example = &"parent_plus_network_settings"
    )]
    pub egress_mode: Option<Spanned<String>>,
    /// # Egress allowlist
    ///
    /// Hosts the machine may reach.
    #[serde(rename = "egressAllowlist", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["registry.npmjs.org"]))]
    pub egress_allowlist: Option<Vec<String>>,
    /// # Disable all MCP servers
    ///
    /// `true` gives the cloud agent no MCP server.
    #[serde(rename = "disableAllMcpServers", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &false)]
    pub disable_all_mcp_servers: Option<bool>,
    /// # MCP server allowlist
    ///
    /// The MCP servers (and their tools) the cloud agent may use.
    #[serde(rename = "mcpServerAllowlist", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!([{"server": "github"}]))]
    pub mcp_server_allowlist: Option<Vec<serde_json::Value>>,
    /// # Chrome executable
    ///
    /// The Chrome the cloud agent's browser runs.
    #[serde(rename = "chromeExecutablePath", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"/usr/bin/google-chrome")]
    pub chrome_executable_path: Option<String>,
}

/// # Port
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct CursorPort {
    /// # Port
    ///
    /// The port inside the machine, 1 to 65535.
    #[schemars(range(min = 1, max = 65535), example = &3000)]
    pub port: Spanned<u64>,
    /// # Name
    ///
    /// What the port serves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// # Terminal, or a list of terminals
///
/// For the JSON Schema; a file's terminals are read from its tree.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum CursorTerminals {
    One(CursorTerminal),
    Group(Vec<CursorTerminal>),
}

/// # Terminal
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CursorTerminal {
    /// # Command
    ///
    /// The command run in the terminal.
    pub command: String,
    /// # Name
    ///
    /// The terminal's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// # Description
    ///
    /// What the terminal does, shown to the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// # Build
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct CursorBuild {
    /// # Dockerfile
    ///
    /// The Dockerfile, relative to `.cursor/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Dockerfile")]
    pub dockerfile: Option<Spanned<String>>,
    /// # Dockerfile contents
    ///
    /// The Dockerfile itself, instead of a path.
    #[serde(rename = "dockerfileContents", default, skip_serializing_if = "Option::is_none")]
    pub dockerfile_contents: Option<String>,
    /// # Context
    ///
    /// The build's context folder, relative to `.cursor/` (`.`, `./` and
    /// `..` mean the project's top).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Spanned<String>>,
}

/// # Cursor CLI project configuration
///
/// `.cursor/cli.json`: at a project's level the Cursor CLI reads only its
/// permissions (cursor.com/docs/cli/reference/configuration).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Cursor CLI project configuration",
    extend("$id" = "https://agentc.dev/schemas/cursor-cli.schema.json")
)]
pub struct CursorCli {
    /// # Schema
    ///
    /// A JSON Schema for editors; the Cursor CLI does not read it.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://agentc.dev/schemas/cursor-cli.schema.json")]
    pub schema: Option<String>,
    /// # Version
    ///
    /// The configuration's version, `1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &1)]
    pub version: Option<Spanned<u64>>,
    /// # Permissions
    ///
    /// What the agent may do without asking, and what it may never do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"allow": ["Shell(git)"], "deny": ["Shell(rm)"]}))]
    pub permissions: Option<CursorPermissions>,
}

/// # Permissions
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
pub struct CursorPermissions {
    /// # Allow
    ///
    /// Rules such as `Shell(git)`, `Read(src/**)`, `Write(docs/**)`,
    /// `WebFetch(docs.github.com)`, `Mcp(server:tool)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["Shell(git)", "Read(src/**)"]))]
    pub allow: Option<Vec<Spanned<String>>>,
    /// # Deny
    ///
    /// Rules of the same grammar; a deny rule wins over an allow rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["Read(.env*)", "Shell(rm)"]))]
    pub deny: Option<Vec<Spanned<String>>>,
}
