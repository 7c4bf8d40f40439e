//! MCP server configuration, as the coding assistants read it: Claude Code's
//! `.mcp.json` (and a plugin's `mcpServers`), VS Code's `.vscode/mcp.json`,
//! and a Copilot custom agent's `mcp-servers`. One server type serves all
//! three; which `type` values each host takes is the host's rule
//! (`docs/formats.md`, "MCP configuration").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::span::Spanned;
use crate::values::Text;

/// Servers by name.
pub type McpServers = BTreeMap<Spanned<String>, Spanned<McpServer>>;

/// # Claude Code MCP configuration
///
/// `.mcp.json` at a project's top or a plugin's root (or a file a plugin's
/// `plugin.json` names under `mcpServers`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Claude Code .mcp.json",
    extend("$id" = "https://agentc.dev/schemas/mcp.schema.json")
)]
pub struct McpJson {
    /// # MCP servers
    ///
    /// By name: the name is the `<server>` of `mcp__<server>__<tool>`.
    #[serde(rename = "mcpServers")]
    #[schemars(example = serde_json::json!({"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"}}))]
    pub mcp_servers: McpServers,
}

/// # VS Code MCP configuration
///
/// `.vscode/mcp.json`: a workspace's MCP servers, and the inputs they ask for.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "VS Code mcp.json",
    extend("$id" = "https://agentc.dev/schemas/vscode-mcp.schema.json")
)]
pub struct VscodeMcp {
    /// # Servers
    ///
    /// By name.
    #[serde(default)]
    #[schemars(example = serde_json::json!({"fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"]}}))]
    pub servers: McpServers,

    /// # Inputs
    ///
    /// Values VS Code asks for when a server starts, referenced as
    /// `${input:<id>}`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = serde_json::json!([{"type": "promptString", "id": "token", "password": true}]))]
    pub inputs: Vec<Spanned<McpInput>>,
}

/// # Input
///
/// A value VS Code asks for: `${input:<id>}` in a server's fields.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct McpInput {
    /// # Type
    ///
    /// `promptString` or `pickString`.
    #[serde(rename = "type")]
    pub kind: Spanned<Text>,
    /// # Id
    ///
    /// What `${input:<id>}` names.
    pub id: Spanned<Text>,
    /// # Description
    ///
    /// What the value is for, shown when it is asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Spanned<Text>>,
    /// # Password
    ///
    /// Hide what is typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<bool>,
    /// # Default
    ///
    /// The value offered first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// # Options
    ///
    /// For `pickString`: the choices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<serde_json::Value>,
}

/// # MCP server
///
/// A local server (`command`, run with `args` and `env`) or a remote one
/// (`url`, with `headers`). `${VAR}` and `${VAR:-default}` (Claude Code),
/// `${env:VAR}` and `${input:id}` (VS Code) are expanded by the host.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct McpServer {
    /// # Type
    ///
    /// How the server is reached: `stdio` (the default where `command` is
    /// given), `http`, `sse`; Copilot also writes `local`.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"stdio")]
    pub kind: Option<Spanned<Text>>,

    /// # Command
    ///
    /// The program a local server runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"npx")]
    pub command: Option<Spanned<Text>>,

    /// # Arguments
    ///
    /// The arguments the command runs with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<Spanned<String>>>,

    /// # Environment
    ///
    /// Variables set for the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<BTreeMap<String, Spanned<String>>>,

    /// # Environment file
    ///
    /// VS Code: a file of variables to load.
    #[serde(rename = "envFile", default, skip_serializing_if = "Option::is_none")]
    pub env_file: Option<Spanned<Text>>,

    /// # Working folder
    ///
    /// The folder the server runs in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<Spanned<Text>>,

    /// # URL
    ///
    /// Where a remote server listens. Blank is a placeholder the user fills
    /// in: the hosts load the file, and the server fails to connect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://api.example.com/mcp")]
    pub url: Option<Spanned<String>>,

    /// # Headers
    ///
    /// Request headers sent to the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<BTreeMap<String, Spanned<String>>>,

    /// # Headers helper
    ///
    /// Claude Code: a command that prints headers.
    #[serde(rename = "headersHelper", default, skip_serializing_if = "Option::is_none")]
    pub headers_helper: Option<Spanned<Text>>,

    /// # OAuth
    ///
    /// Claude Code: OAuth client settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth: Option<serde_json::Value>,

    /// # Tools
    ///
    /// Copilot: the server's tools the agent may use (`*` for all). The
    /// cloud agent requires it; an empty list enables none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Spanned<String>>>,

    /// # Timeout
    ///
    /// How long to wait for the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<serde_json::Value>,

    /// # Development
    ///
    /// VS Code: watch and debug settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dev: Option<serde_json::Value>,

    /// # Sandbox
    ///
    /// VS Code: run the server sandboxed.
    #[serde(rename = "sandboxEnabled", default, skip_serializing_if = "Option::is_none")]
    pub sandbox_enabled: Option<bool>,

    /// # Sandbox settings
    ///
    /// Sandbox settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<serde_json::Value>,

    /// # Gallery
    ///
    /// VS Code: where the server was installed from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gallery: Option<serde_json::Value>,

    /// # Version
    ///
    /// The version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<serde_json::Value>,
    /// # Streamable HTTP URL
    ///
    /// Gemini CLI: where a remote server listens over streamable HTTP
    /// (`url` being for SSE).
    #[serde(rename = "httpUrl", default, skip_serializing_if = "Option::is_none")]
    pub http_url: Option<Spanned<Text>>,

    /// # Trust
    ///
    /// Gemini CLI: run the server's tools without asking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trust: Option<bool>,

    /// # Included tools
    ///
    /// Gemini CLI: the only tools of the server to use.
    #[serde(rename = "includeTools", default, skip_serializing_if = "Option::is_none")]
    pub include_tools: Option<Vec<String>>,

    /// # Excluded tools
    ///
    /// Gemini CLI: tools of the server not to use.
    #[serde(rename = "excludeTools", default, skip_serializing_if = "Option::is_none")]
    pub exclude_tools: Option<Vec<String>>,

    /// # Description
    ///
    /// Gemini CLI: what the server provides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}
