//! OpenCode's files: agents (`.opencode/agent/*.md`), commands
//! (`.opencode/command/*.md`) and the project's `opencode.json`, as its V1
//! configuration schema (`Config` in `packages/opencode/src/config/config.ts`)
//! reads them (`docs/formats.md`, "OpenCode").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::span::Spanned;

/// # OpenCode agent
///
/// The YAML frontmatter of `.opencode/agent/<name>.md` (or `agents/`); the
/// Markdown after it is the agent's prompt. Every key is optional.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "OpenCode agent frontmatter",
    extend("$id" = "https://agentc.dev/schemas/opencode-agent.schema.json")
)]
pub struct OpencodeAgentFrontmatter {
    /// # Description
    ///
    /// What the agent does and when to use it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Reviews code for quality and best practices")]
    pub description: Option<Spanned<String>>,

    /// # Mode
    ///
    /// `primary` (chosen by the user), `subagent` (called by other agents)
    /// or `all` (both, the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["primary", "subagent", "all"]), example = &"subagent")]
    pub mode: Option<Spanned<String>>,

    /// # Model
    ///
    /// The model, as `<provider>/<model>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"anthropic/claude-sonnet-4-5")]
    pub model: Option<Spanned<String>>,

    /// # Temperature
    ///
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = 0.1)]
    pub temperature: Option<f64>,

    /// # Top P
    ///
    /// Nucleus sampling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = 0.9)]
    pub top_p: Option<f64>,

    /// # Prompt
    ///
    /// The system prompt (in a Markdown file, the body is the prompt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"You are a careful reviewer.")]
    pub prompt: Option<String>,

    /// # Tools
    ///
    /// Deprecated for `permission`: tools by name, on or off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"write": false, "bash": false}))]
    pub tools: Option<BTreeMap<String, bool>>,

    /// # Disable
    ///
    /// Turn the agent off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = false)]
    pub disable: Option<bool>,

    /// # Hidden
    ///
    /// Hide a subagent from the `@` menu.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = true)]
    pub hidden: Option<bool>,

    /// # Options
    ///
    /// Options passed to the model provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({}))]
    pub options: Option<BTreeMap<String, serde_json::Value>>,

    /// # Color
    ///
    /// The agent's color in the interface, `#RRGGBB`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"), example = &"#38A3EE")]
    pub color: Option<Spanned<String>>,

    /// # Steps
    ///
    /// The most agentic iterations before the agent must answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1), example = 20)]
    pub steps: Option<u64>,

    /// # Maximum steps
    ///
    /// Deprecated for `steps`.
    #[serde(rename = "maxSteps", default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1), example = 20)]
    pub max_steps: Option<u64>,

    /// # Permission
    ///
    /// `ask`, `allow` or `deny` for every tool, or by tool (`edit`, `bash`,
    /// `webfetch`, …), `bash` also by command pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"edit": "deny", "bash": {"git diff": "allow", "*": "ask"}}))]
    pub permission: Option<serde_json::Value>,
}

/// # OpenCode command
///
/// The YAML frontmatter of `.opencode/command/<name>.md` (or `commands/`);
/// the Markdown after it is the prompt template.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "OpenCode command frontmatter",
    extend("$id" = "https://agentc.dev/schemas/opencode-command.schema.json")
)]
pub struct OpencodeCommandFrontmatter {
    /// # Description
    ///
    /// What the command does, shown in the command list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Run the tests with coverage")]
    pub description: Option<Spanned<String>>,

    /// # Agent
    ///
    /// The agent that runs the command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"build")]
    pub agent: Option<Spanned<String>>,

    /// # Model
    ///
    /// The model for this command, as `<provider>/<model>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"anthropic/claude-haiku-4-5")]
    pub model: Option<Spanned<String>>,

    /// # Subtask
    ///
    /// Run the command as a subagent, keeping the main context clean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = true)]
    pub subtask: Option<bool>,
}

/// # OpenCode configuration
///
/// `opencode.json` or `opencode.jsonc` at a project's top (or in `.opencode/`).
/// OpenCode refuses a key it does not know at the top level (its V1 schema,
/// `Config.Info`, is strict). The values agentc does not check are taken as
/// written.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "OpenCode opencode.json",
    extend("$id" = "https://agentc.dev/schemas/opencode-config.schema.json")
)]
pub struct OpencodeConfig {
    /// # Schema
    ///
    /// The JSON Schema the file follows (OpenCode writes it when absent).
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://opencode.ai/config.json")]
    pub schema: Option<String>,

    /// # Model
    ///
    /// The default model, as `<provider>/<model>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"anthropic/claude-sonnet-4-5")]
    pub model: Option<Spanned<String>>,

    /// # Small model
    ///
    /// The model for small tasks such as titles, as `<provider>/<model>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"anthropic/claude-haiku-4-5")]
    pub small_model: Option<Spanned<String>>,

    /// # Agents
    ///
    /// Agents by name, each with the keys of an agent file's frontmatter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"reviewer": {"description": "Reviews code", "mode": "subagent"}}))]
    pub agent: Option<BTreeMap<String, serde_json::Value>>,

    /// # Modes
    ///
    /// Deprecated for `agent`: primary agents by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"build": {"model": "anthropic/claude-sonnet-4-5"}}))]
    pub mode: Option<BTreeMap<String, serde_json::Value>>,

    /// # Commands
    ///
    /// Commands by name, each with `template` and a command file's keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"test": {"template": "Run the tests.", "description": "Run tests"}}))]
    pub command: Option<BTreeMap<String, serde_json::Value>>,

    /// # Default agent
    ///
    /// The primary agent used when none is chosen (`build` otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"plan")]
    pub default_agent: Option<Spanned<String>>,

    /// # MCP servers
    ///
    /// By name: `{"type": "local", "command": [...]}` or
    /// `{"type": "remote", "url": ...}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"docs": {"type": "remote", "url": "https://example.com/mcp"}}))]
    pub mcp: Option<BTreeMap<String, serde_json::Value>>,

    /// # Instructions
    ///
    /// Instruction files or globs added to every agent's context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["CONTRIBUTING.md", "docs/*.md"]))]
    pub instructions: Option<Vec<Spanned<String>>>,

    /// # Permission
    ///
    /// `ask`, `allow` or `deny`, for every tool or by tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"edit": "ask"}))]
    pub permission: Option<serde_json::Value>,

    /// # Tools
    ///
    /// Deprecated for `permission`: tools by name, on or off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"webfetch": false}))]
    pub tools: Option<BTreeMap<String, bool>>,

    /// # Plugins
    ///
    /// Plugin packages or files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["opencode-helicone-session"]))]
    pub plugin: Option<Vec<String>>,

    /// # Theme
    ///
    /// The interface's theme.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"opencode")]
    pub theme: Option<String>,

    /// # Share
    ///
    /// `manual`, `auto` or `disabled`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["manual", "auto", "disabled"]), example = &"manual")]
    pub share: Option<Spanned<String>>,
    /// # Keybinds
    ///
    /// Key bindings, by action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"leader": "ctrl+x"}))]
    pub keybinds: Option<serde_json::Value>,

    /// # Log level
    ///
    /// `DEBUG`, `INFO`, `WARN` or `ERROR`.
    #[serde(rename = "logLevel", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"INFO")]
    pub log_level: Option<serde_json::Value>,

    /// # Interface
    ///
    /// Settings of the terminal interface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"scroll_speed": 3}))]
    pub tui: Option<serde_json::Value>,

    /// # Server
    ///
    /// Settings of `opencode serve` and `opencode web`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"port": 4096}))]
    pub server: Option<serde_json::Value>,

    /// # Skills
    ///
    /// More folders of skills (`paths`, relative to the file) and skills to
    /// fetch (`urls`), beside the folders OpenCode searches anyway. OpenCode
    /// 1.18.33 reads it (`opencode debug config` lists it as written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"paths": ["../skills"]}))]
    pub skills: Option<serde_json::Value>,

    /// # Watcher
    ///
    /// Files the watcher ignores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"ignore": ["dist/**"]}))]
    pub watcher: Option<serde_json::Value>,

    /// # Snapshots
    ///
    /// Whether to take snapshots of the working tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = true)]
    pub snapshot: Option<serde_json::Value>,

    /// # Share automatically
    ///
    /// Deprecated for `share`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = false)]
    pub autoshare: Option<serde_json::Value>,

    /// # Update automatically
    ///
    /// `true`, `false` or `notify`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"notify")]
    pub autoupdate: Option<serde_json::Value>,

    /// # Disabled providers
    ///
    /// Providers not loaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["openai"]))]
    pub disabled_providers: Option<serde_json::Value>,

    /// # Enabled providers
    ///
    /// The only providers loaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["anthropic"]))]
    pub enabled_providers: Option<serde_json::Value>,

    /// # User name
    ///
    /// The name shown in conversations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"ada")]
    pub username: Option<serde_json::Value>,

    /// # Providers
    ///
    /// Provider settings and model overrides, by provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"anthropic": {"options": {"timeout": 600000}}}))]
    pub provider: Option<serde_json::Value>,

    /// # Fallbacks
    ///
    /// Providers and models to try when one fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"provider": {"anthropic": ["openai"]}}))]
    pub fallbacks: Option<serde_json::Value>,

    /// # Formatters
    ///
    /// Formatters by name, or `false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = false)]
    pub formatter: Option<serde_json::Value>,

    /// # Language servers
    ///
    /// Language servers by name, or `false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = false)]
    pub lsp: Option<serde_json::Value>,

    /// # Layout
    ///
    /// Deprecated: the layout is always `stretch`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"stretch")]
    pub layout: Option<serde_json::Value>,

    /// # Enterprise
    ///
    /// Enterprise settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"url": "https://opencode.example.com"}))]
    pub enterprise: Option<serde_json::Value>,

    /// # Compaction
    ///
    /// Automatic compaction and pruning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"auto": true}))]
    pub compaction: Option<serde_json::Value>,

    /// # Experimental
    ///
    /// Experimental settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"batch_tool": true}))]
    pub experimental: Option<serde_json::Value>,
}

/// Keys of an agent's frontmatter OpenCode's V2 documentation writes, read
/// by V2 and moved into `options` by V1: not unknown.
pub const OPENCODE_AGENT_V2: &[&str] = &["system", "permissions"];
