//! Gemini CLI's files: custom commands (`.gemini/commands/**/*.toml`) and an
//! extension's manifest (`gemini-extension.json`), as gemini-cli's
//! `FileCommandLoader.ts` and `ExtensionConfig` read them (`docs/formats.md`,
//! "Gemini CLI").

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use crate::mcp::McpServers;
use crate::span::Spanned;
use crate::values::Text;

/// # Gemini CLI command
///
/// `.gemini/commands/<name>.toml`: the command `/<name>`, a folder adding a
/// `<folder>:` namespace.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Gemini CLI custom command",
    extend("$id" = "https://agentc.dev/schemas/gemini-command.schema.json")
)]
pub struct GeminiCommand {
    /// # Prompt
    ///
    /// What is sent to the model: `{{args}}` is replaced by what follows the
    /// command, `!{…}` by a shell command's output, `@{path}` by a file.
    #[schemars(example = &"Review the staged changes: !{git diff --staged}")]
    pub prompt: Spanned<String>,

    /// # Description
    ///
    /// One line shown in `/help`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Reviews the staged changes")]
    pub description: Option<Spanned<String>>,
}

/// One file name, or a list of them.
fn names(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "anyOf": [
            { "type": "string" },
            { "type": "array", "items": { "type": "string" } }
        ]
    })
}

/// # Gemini CLI extension
///
/// `gemini-extension.json`, at the top of an extension's folder.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Gemini CLI gemini-extension.json",
    extend("$id" = "https://agentc.dev/schemas/gemini-extension.schema.json")
)]
pub struct GeminiExtension {
    /// # Name
    ///
    /// Letters, digits and dashes; by convention the extension's folder name.
    #[schemars(regex(pattern = r"^[a-zA-Z0-9-]+$"), example = &"my-extension")]
    pub name: Spanned<Text>,

    /// # Version
    ///
    /// The extension's version.
    #[schemars(example = &"1.0.0")]
    pub version: Spanned<Text>,

    /// # Description
    ///
    /// What the extension does, shown in the extension gallery.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Tools for working with the example API")]
    pub description: Option<String>,

    /// # MCP servers
    ///
    /// By name: a local server (`command`) or a remote one (`url` for SSE,
    /// `httpUrl` for streamable HTTP).
    #[serde(rename = "mcpServers", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"example": {"command": "node", "args": ["${extensionPath}${/}server.js"]}}))]
    pub mcp_servers: Option<McpServers>,

    /// # Context file name
    ///
    /// The file (or files) of the extension loaded as context; `GEMINI.md`
    /// when absent and present.
    #[serde(rename = "contextFileName", default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "names", example = &"GEMINI.md")]
    pub context_file_name: Option<serde_json::Value>,

    /// # Excluded tools
    ///
    /// Built-in tools the extension turns off, optionally with a command
    /// (`run_shell_command(rm -rf)`).
    #[serde(rename = "excludeTools", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["run_shell_command(rm -rf)"]))]
    pub exclude_tools: Option<Vec<String>>,

    /// # Settings
    ///
    /// Values the user is asked for at install: `name`, `description`,
    /// `envVar`, and `sensitive`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!([{"name": "API key", "description": "Your key", "envVar": "EXAMPLE_API_KEY", "sensitive": true}]))]
    pub settings: Option<serde_json::Value>,

    /// # Themes
    ///
    /// Custom themes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!([]))]
    pub themes: Option<serde_json::Value>,

    /// # Plan
    ///
    /// Planning settings: `directory` for the planning artifacts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"directory": "plans"}))]
    pub plan: Option<serde_json::Value>,

    /// # Migrated to
    ///
    /// Where the extension moved (a URL).
    #[serde(rename = "migratedTo", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://github.com/example/new-extension")]
    pub migrated_to: Option<String>,
}

/// # Gemini CLI settings
///
/// `.gemini/settings.json`, the project's settings (read in a trusted
/// folder). JSON with comments. The keys agentc types are below; every other
/// key of Gemini CLI's own settings schema (0.61.0) is checked against that
/// schema as Gemini CLI checks it.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Gemini CLI settings.json",
    extend("$id" = "https://agentc.dev/schemas/gemini-settings.schema.json")
)]
pub struct GeminiSettings {
    /// # MCP servers
    ///
    /// By name: a local server (`command`) or a remote one (`url` for SSE,
    /// `httpUrl` for streamable HTTP).
    #[serde(rename = "mcpServers", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"github": {"httpUrl": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer $GITHUB_TOKEN"}}}))]
    pub mcp_servers: Option<McpServers>,

    /// # Hooks
    ///
    /// By event (`BeforeTool`, `AfterTool`, `BeforeAgent`, `AfterAgent`,
    /// `Notification`, `SessionStart`, `SessionEnd`, `PreCompress`,
    /// `BeforeModel`, `AfterModel`, `BeforeToolSelection`): a list of
    /// `{ "matcher", "sequential", "hooks": [{ "type": "command", "command",
    /// "timeout" }] }`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"BeforeTool": [{"matcher": "write_file|replace", "hooks": [{"type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/check.sh", "timeout": 30000}]}]}))]
    pub hooks: Option<serde_json::Value>,

    /// # General
    ///
    /// `defaultApprovalMode` (`default`, `auto_edit`, `plan`), `vimMode`,
    /// `checkpointing`, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"defaultApprovalMode": "auto_edit"}))]
    pub general: Option<serde_json::Value>,

    /// # Tools
    ///
    /// `sandbox`, `allowed`, `exclude`, `core`, `shell`, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"allowed": ["run_shell_command(git status)"]}))]
    pub tools: Option<serde_json::Value>,
}

/// # Gemini CLI extension hooks
///
/// An extension's `hooks/hooks.json`, which Gemini CLI 0.61.0 loads beside
/// its `gemini-extension.json` (`${extensionPath}` and `${/}` are replaced
/// in its strings). Only `hooks` is read: the same events and hook shapes
/// as `hooks` in `.gemini/settings.json`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Gemini CLI extension hooks/hooks.json",
    extend("$id" = "https://agentc.dev/schemas/gemini-hooks.schema.json")
)]
pub struct GeminiHooksFile {
    /// # Description
    ///
    /// What the hooks are for (not read by Gemini CLI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Memory hooks")]
    pub description: Option<String>,

    /// # Hooks
    ///
    /// By event, as `hooks` in `.gemini/settings.json`.
    #[schemars(example = serde_json::json!({"BeforeAgent": [{"hooks": [{"type": "command", "command": "node ${extensionPath}/hooks/context.js", "timeout": 10000}]}]}))]
    pub hooks: serde_json::Map<String, serde_json::Value>,
}

/// # Gemini CLI subagent
///
/// The YAML frontmatter of `.gemini/agents/<name>.md` (a file whose name
/// starts with `_` is skipped); the body is the agent's system prompt.
/// Gemini CLI refuses an agent with any other key.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "Gemini CLI subagent frontmatter",
    extend("$id" = "https://agentc.dev/schemas/gemini-agent.schema.json")
)]
pub struct GeminiAgentFrontmatter {
    /// # Kind
    ///
    /// `local` (the default) or `remote` (an A2A agent, by
    /// `agent_card_url` or `agent_card_json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["local", "remote"]), example = &"local")]
    pub kind: Option<Spanned<Text>>,

    /// # Name
    ///
    /// Lower-case letters, digits, `-` and `_`.
    #[schemars(regex(pattern = r"^[a-z0-9-_]+$"), example = &"code-reviewer")]
    pub name: Spanned<Text>,

    /// # Description
    ///
    /// When to use the agent; required for a local agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Reviews a change for bugs and style")]
    pub description: Option<Spanned<Text>>,

    /// # Display name
    ///
    /// The name shown in the interface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Code Reviewer")]
    pub display_name: Option<String>,

    /// # Tools
    ///
    /// The tools the agent may use (`read_file`, `grep_search`, `*`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["read_file", "grep_search"]))]
    pub tools: Option<Vec<Spanned<String>>>,

    /// # MCP servers
    ///
    /// Servers of the agent's own, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"docs": {"command": "node", "args": ["docs-server.js"]}}))]
    pub mcp_servers: Option<serde_json::Value>,

    /// # Model
    ///
    /// The model the agent runs on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"gemini-2.5-flash")]
    pub model: Option<String>,

    /// # Temperature
    ///
    /// The model's sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = 0.2)]
    pub temperature: Option<f64>,

    /// # Maximum turns
    ///
    /// A whole number above 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1), example = 20)]
    pub max_turns: Option<Spanned<f64>>,

    /// # Timeout in minutes
    ///
    /// A whole number above 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1), example = 10)]
    pub timeout_mins: Option<Spanned<f64>>,

    /// # Agent card URL
    ///
    /// A remote agent's A2A card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://agents.example.com/reviewer/.well-known/agent.json")]
    pub agent_card_url: Option<String>,

    /// # Agent card JSON
    ///
    /// A remote agent's A2A card, inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"{\"name\": \"reviewer\"}")]
    pub agent_card_json: Option<String>,

    /// # Authentication
    ///
    /// A remote agent's: `apiKey`, `http`, `google-credentials` or `oauth`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"type": "apiKey", "key": "$REVIEWER_KEY"}))]
    pub auth: Option<serde_json::Value>,
}
