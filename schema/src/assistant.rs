//! The coding assistants' agent files: Claude Code subagents, slash commands
//! and plugin manifests, and GitHub Copilot custom agents.
//!
//! Each type follows its host's published reference (cited in
//! `docs/formats.md`); the catalogues below are what the hosts document, so
//! the checks built on them say "did you mean" in the host's own words.

use std::collections::BTreeMap;
use std::num::NonZeroU32;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::dialect::{OneOrMany, ToolRules};
use crate::span::Spanned;
use crate::values::{NameList, Text};

/// # Claude Code subagent
///
/// The YAML frontmatter of `.claude/agents/<name>.md` (or a plugin's
/// `agents/`); the Markdown after it is the subagent's system prompt.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Claude Code subagent frontmatter",
    extend("$id" = "https://agentc.dev/schemas/claude-subagent.schema.json")
)]
pub struct ClaudeSubagentFrontmatter {
    /// # Name
    ///
    /// The subagent's identifier; the file's name need not match it. No `:`,
    /// no leading `-`, at most 256 characters.
    #[schemars(example = &"code-reviewer")]
    pub name: Spanned<Text>,

    /// # Description
    ///
    /// When Claude should delegate to this subagent.
    #[schemars(example = &"Reviews code for quality. Use after every change.")]
    pub description: Spanned<Text>,

    /// # Tools
    ///
    /// The tools the subagent may use (all of the main thread's when absent):
    /// built-in tool names, `mcp__<server>__<tool>`, or permission rules such as
    /// `Bash(git log:*)`, as a list or separated by commas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Read, Grep, Glob, Bash(git diff:*)")]
    pub tools: Option<ToolRules>,

    /// # Disallowed tools
    ///
    /// Tools removed from the subagent, written like `tools`.
    #[serde(rename = "disallowedTools", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Write, Edit")]
    pub disallowed_tools: Option<ToolRules>,

    /// # Model
    ///
    /// An alias (`sonnet`, `opus`, `haiku`, `fable`, `inherit`) or a full model id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"sonnet")]
    pub model: Option<Spanned<Text>>,

    /// # Permission mode
    ///
    /// How the subagent asks for permission.
    #[serde(rename = "permissionMode", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"acceptEdits")]
    pub permission_mode: Option<Spanned<PermissionMode>>,

    /// # Maximum turns
    ///
    /// How many turns the subagent may take before it stops.
    #[serde(rename = "maxTurns", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = 20)]
    pub max_turns: Option<Spanned<NonZeroU32>>,

    /// # Skills
    ///
    /// Skills loaded into the subagent's context at start, by name; each must
    /// be a skill of the project (or of the subagent's plugin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("api-conventions error-handling"))]
    pub skills: Option<NameList>,

    /// # MCP servers
    ///
    /// MCP servers available to the subagent: names of configured servers, or
    /// inline definitions.
    #[serde(rename = "mcpServers", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["github"]))]
    pub mcp_servers: Option<serde_json::Value>,

    /// # Hooks
    ///
    /// Hooks scoped to the subagent, in Claude Code's hooks format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"PreToolUse": []}))]
    pub hooks: Option<serde_json::Value>,

    /// # Memory
    ///
    /// Where the subagent's persistent memory lives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"project")]
    pub memory: Option<Spanned<ClaudeMemory>>,

    /// # Background
    ///
    /// Always run the subagent as a background task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = true)]
    pub background: Option<bool>,

    /// # Omit CLAUDE.md
    ///
    /// Start the subagent without the project's CLAUDE.md.
    #[serde(rename = "omitClaudeMd", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = true)]
    pub omit_claude_md: Option<bool>,

    /// # Effort
    ///
    /// How hard the model thinks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"high")]
    pub effort: Option<Spanned<ClaudeEffort>>,

    /// # Isolation
    ///
    /// `worktree` runs the subagent in a temporary git worktree, `remote`
    /// in a remote environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"worktree")]
    pub isolation: Option<Spanned<Isolation>>,

    /// # Color
    ///
    /// The subagent's colour in the interface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"blue")]
    pub color: Option<Spanned<ClaudeColor>>,

    /// # Initial prompt
    ///
    /// The first user turn when the subagent runs as the main session.
    #[serde(rename = "initialPrompt", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Review the staged changes.")]
    pub initial_prompt: Option<Spanned<Text>>,

    /// # Experimental
    ///
    /// Experimental settings (`cacheTtl`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"cacheTtl": "1h"}))]
    pub experimental: Option<serde_json::Value>,
}

/// # Claude Code slash command
///
/// The YAML frontmatter of `.claude/commands/<name>.md` (or a plugin's
/// `commands/`); the Markdown after it is the prompt. Every key is optional.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Claude Code slash command frontmatter",
    extend("$id" = "https://agentc.dev/schemas/claude-command.schema.json")
)]
pub struct ClaudeCommandFrontmatter {
    /// # Description
    ///
    /// What the command does (the prompt's first line when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Create a git commit")]
    pub description: Option<Spanned<Text>>,

    /// # Allowed tools
    ///
    /// Tools the command may use without asking, as permission rules.
    #[serde(rename = "allowed-tools", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Bash(git add:*), Bash(git commit:*)")]
    pub allowed_tools: Option<ToolRules>,

    /// # Argument hint
    ///
    /// The arguments the command expects, shown while typing.
    #[serde(rename = "argument-hint", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"[message]")]
    pub argument_hint: Option<Spanned<crate::values::Hint>>,

    /// # Model
    ///
    /// The model for this command: an alias or a full model id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"haiku")]
    pub model: Option<Spanned<Text>>,

    /// # Disable model invocation
    ///
    /// When true, the model cannot run the command by itself.
    #[serde(rename = "disable-model-invocation", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = true)]
    pub disable_model_invocation: Option<bool>,

    /// # When to use
    ///
    /// More about when to use the command, appended to the description. (Commands read the fields of skills since Claude Code merged the two.)
    #[serde(rename = "when_to_use", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"When the user asks to cut a release.")]
    pub when_to_use: Option<serde_json::Value>,

    /// # Arguments
    ///
    /// Named arguments for `$name` substitution, a list or one string separated by spaces. (Commands read the fields of skills since Claude Code merged the two.)
    #[serde(rename = "arguments", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"issue branch")]
    pub arguments: Option<serde_json::Value>,

    /// # User invocable
    ///
    /// When false, the command is hidden from the slash-command menu. (Commands read the fields of skills since Claude Code merged the two.)
    #[serde(rename = "user-invocable", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = false)]
    pub user_invocable: Option<serde_json::Value>,

    /// # Disallowed tools
    ///
    /// Tools removed while the command runs. (Commands read the fields of skills since Claude Code merged the two.)
    #[serde(rename = "disallowed-tools", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"WebFetch")]
    pub disallowed_tools: Option<serde_json::Value>,

    /// # Effort
    ///
    /// How hard the model thinks while the command runs. (Commands read the fields of skills since Claude Code merged the two.)
    #[serde(rename = "effort", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"high")]
    pub effort: Option<serde_json::Value>,

    /// # Context
    ///
    /// `fork` runs the command in a subagent of its own. (Commands read the fields of skills since Claude Code merged the two.)
    #[serde(rename = "context", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"fork")]
    pub context: Option<serde_json::Value>,

    /// # Agent
    ///
    /// The subagent type a forked command runs in. (Commands read the fields of skills since Claude Code merged the two.)
    #[serde(rename = "agent", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Explore")]
    pub agent: Option<serde_json::Value>,

    /// # Hooks
    ///
    /// Hooks active while the command runs, in Claude Code's hooks format. (Commands read the fields of skills since Claude Code merged the two.)
    #[serde(rename = "hooks", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"PostToolUse": []}))]
    pub hooks: Option<serde_json::Value>,

    /// # Paths
    ///
    /// Glob patterns of files that make the command relevant. (Commands read the fields of skills since Claude Code merged the two.)
    #[serde(rename = "paths", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"src/**/*.rs")]
    pub paths: Option<serde_json::Value>,

    /// # Shell
    ///
    /// The shell for the command's inline commands: `bash` or `powershell`. (Commands read the fields of skills since Claude Code merged the two.)
    #[serde(rename = "shell", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"bash")]
    pub shell: Option<serde_json::Value>,
}

/// # GitHub Copilot custom agent
///
/// The YAML frontmatter of `.github/agents/<name>.agent.md` (or the older
/// `.github/chatmodes/<name>.chatmode.md`); the Markdown after it is the
/// agent's prompt.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Copilot custom agent frontmatter",
    extend("$id" = "https://agentc.dev/schemas/copilot-agent.schema.json")
)]
pub struct CopilotAgentFrontmatter {
    /// # Name
    ///
    /// The agent's display name, free text: its id, and what `agents:` and
    /// handoffs name it by (its file's name names it only when it has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Planner")]
    pub name: Option<Spanned<Text>>,

    /// # Description
    ///
    /// What the agent does and when to use it.
    #[schemars(example = &"Plans a feature before any code is written.")]
    pub description: Spanned<Text>,

    /// # Target
    ///
    /// Where the agent runs: `vscode` or `github-copilot` (both when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"vscode")]
    pub target: Option<Spanned<CopilotTarget>>,

    /// # Tools
    ///
    /// Tool names, aliases (`read`, `edit`, `search`, `execute`, `web`, `agent`,
    /// `todo`) or `<server>/*`, as a list or separated by commas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("read search github/*"))]
    pub tools: Option<ToolRules>,

    /// # Model
    ///
    /// The model, or a list of models in order of preference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Claude Sonnet 4.5")]
    pub model: Option<OneOrMany>,

    /// # Disable model invocation
    ///
    /// When true, no other agent may start this one as a subagent.
    #[serde(rename = "disable-model-invocation", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = true)]
    pub disable_model_invocation: Option<bool>,

    /// # User invocable
    ///
    /// When false, the agent is not offered in the agents menu.
    #[serde(rename = "user-invocable", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = false)]
    pub user_invocable: Option<bool>,

    /// # User invokable (deprecated spelling)
    ///
    /// The older spelling of `user-invocable`.
    #[serde(rename = "user-invokable", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = false)]
    pub user_invokable: Option<Spanned<bool>>,

    /// # Infer (retired)
    ///
    /// Replaced by `disable-model-invocation` and `user-invocable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = false)]
    pub infer: Option<Spanned<bool>>,

    /// # Argument hint
    ///
    /// What to type after the agent's name.
    #[serde(rename = "argument-hint", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"the feature to plan")]
    pub argument_hint: Option<Spanned<Text>>,

    /// # Agents
    ///
    /// The agents this one may start as subagents, by name (`*` for all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("planner reviewer"))]
    pub agents: Option<NameList>,

    /// # Handoffs
    ///
    /// Buttons offered after a response, each moving the work to another agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!([{"label": "Start implementation", "agent": "implementer", "prompt": "Implement the plan above.", "send": false}]))]
    pub handoffs: Option<Vec<Spanned<Handoff>>>,

    /// # MCP servers
    ///
    /// MCP server definitions for the agent (GitHub Copilot only).
    #[serde(rename = "mcp-servers", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"docs": {"type": "local", "command": "docs-mcp", "tools": ["*"]}}))]
    pub mcp_servers: Option<serde_json::Value>,

    /// # Metadata
    ///
    /// Further properties, string keys to string values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"owner": "platform-team"}))]
    pub metadata: Option<BTreeMap<String, String>>,

    /// # Hooks
    ///
    /// Hooks scoped to the agent (VS Code, preview).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"PostToolUse": []}))]
    pub hooks: Option<serde_json::Value>,
}

/// A handoff: a button that moves the conversation to another agent.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct Handoff {
    /// The button's text.
    pub label: Spanned<Text>,
    /// The agent to hand off to, by its `name` (`Planner`), or by its file's
    /// name when it has none (`speckit.tasks` for `speckit.tasks.agent.md`).
    pub agent: Spanned<Text>,
    /// The prompt sent to the next agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Spanned<Text>>,
    /// Send the prompt at once instead of leaving it for the person to edit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send: Option<bool>,
    /// The model for the next agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<Spanned<Text>>,
}

/// # Claude Code plugin manifest
///
/// `.claude-plugin/plugin.json`: the plugin's name is the namespace of its
/// skills, subagents and commands.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Claude Code plugin.json",
    extend("$id" = "https://agentc.dev/schemas/claude-plugin.schema.json")
)]
pub struct PluginManifest {
    /// # Schema
    ///
    /// The JSON Schema the file follows, for editors.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://json.schemastore.org/claude-code-plugin-manifest.json")]
    pub schema: Option<String>,

    /// # Name
    ///
    /// The plugin's name in kebab-case: the namespace of its components.
    #[schemars(example = &"release-tools")]
    pub name: Spanned<Text>,

    /// # Version
    ///
    /// The plugin's semantic version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"1.2.0")]
    pub version: Option<Spanned<crate::values::Version>>,

    /// # Description
    ///
    /// What the plugin offers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Skills and agents for cutting releases.")]
    pub description: Option<Spanned<Text>>,

    /// # Display name
    ///
    /// The name people read.
    #[serde(rename = "displayName", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Release tools")]
    pub display_name: Option<serde_json::Value>,

    /// # Author
    ///
    /// Who wrote the plugin: `{name, email, url}`.
    #[serde(rename = "author", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"name": "Platform team"}))]
    pub author: Option<serde_json::Value>,

    /// # Homepage
    ///
    /// The plugin's documentation page.
    #[serde(rename = "homepage", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://example.com/release-tools")]
    pub homepage: Option<serde_json::Value>,

    /// # Repository
    ///
    /// Where the plugin's source lives.
    #[serde(rename = "repository", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://github.com/example/release-tools")]
    pub repository: Option<serde_json::Value>,

    /// # License
    ///
    /// The plugin's license.
    #[serde(rename = "license", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"MIT")]
    pub license: Option<serde_json::Value>,

    /// # Keywords
    ///
    /// Words for finding the plugin.
    #[serde(rename = "keywords", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["release", "git"]))]
    pub keywords: Option<serde_json::Value>,

    /// # Commands
    ///
    /// Command files or folders, replacing `commands/`.
    #[serde(rename = "commands", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./commands")]
    pub commands: Option<crate::marketplace::Paths>,

    /// # Agents
    ///
    /// Subagent files or folders, replacing `agents/`.
    #[serde(rename = "agents", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./agents")]
    pub agents: Option<crate::marketplace::Paths>,

    /// # Skills
    ///
    /// Further skill folders, besides `skills/`.
    #[serde(rename = "skills", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./extra-skills")]
    pub skills: Option<crate::marketplace::Paths>,

    /// # Hooks
    ///
    /// Hook configuration: a path, paths, or the hooks inline.
    #[serde(rename = "hooks", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./hooks/hooks.json")]
    #[schemars(with = "Option<crate::marketplace::PathsOr<crate::hooks::HooksFile>>")]
    pub hooks: Option<serde_json::Value>,

    /// # MCP servers
    ///
    /// MCP server configuration: a path, paths, or inline.
    #[serde(rename = "mcpServers", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./.mcp.json")]
    #[schemars(with = "Option<crate::marketplace::PathsOr<crate::mcp::McpServers>>")]
    pub mcp_servers: Option<serde_json::Value>,

    /// # LSP servers
    ///
    /// Language server configuration: a path, paths, or inline.
    #[serde(rename = "lspServers", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./.lsp.json")]
    pub lsp_servers: Option<serde_json::Value>,

    /// # Output styles
    ///
    /// Output style files or folders.
    #[serde(rename = "outputStyles", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./styles")]
    pub output_styles: Option<crate::marketplace::Paths>,

    /// # Workflows
    ///
    /// Workflow files or folders.
    #[serde(rename = "workflows", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./workflows")]
    pub workflows: Option<serde_json::Value>,

    /// # User configuration
    ///
    /// Settings the user is asked for when enabling the plugin.
    #[serde(rename = "userConfig", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({}))]
    pub user_config: Option<serde_json::Value>,

    /// # Channels
    ///
    /// Message channels the plugin's MCP servers provide.
    #[serde(rename = "channels", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!([]))]
    pub channels: Option<serde_json::Value>,

    /// # Dependencies
    ///
    /// Plugins this one needs.
    #[serde(rename = "dependencies", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["git-tools"]))]
    pub dependencies: Option<serde_json::Value>,

    /// # Metadata
    ///
    /// Further properties, never read by Claude Code.
    #[serde(rename = "metadata", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({}))]
    pub metadata: Option<serde_json::Value>,

    /// # Enabled by default
    ///
    /// Whether the plugin starts enabled.
    #[serde(rename = "defaultEnabled", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = true)]
    pub default_enabled: Option<serde_json::Value>,

    /// # Experimental
    ///
    /// Experimental components (themes, monitors, evals).
    #[serde(rename = "experimental", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({}))]
    pub experimental: Option<serde_json::Value>,
}

/// How a Claude Code subagent asks for permission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PermissionMode {
    Default,
    AcceptEdits,
    Auto,
    DontAsk,
    BypassPermissions,
    Plan,
    /// An alias of `default`.
    Manual,
}

/// Where a Claude Code subagent's memory lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ClaudeMemory {
    User,
    Project,
    Local,
}

/// How hard a Claude model thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ClaudeEffort {
    Low,
    Medium,
    High,
    Xhigh,
    Max,
}

/// How a Claude Code subagent is isolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Isolation {
    Worktree,
    /// In a remote environment (Claude Code 2.1.332 accepts it).
    Remote,
}

/// The colours Claude Code shows subagents in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ClaudeColor {
    Red,
    Blue,
    Green,
    Yellow,
    Purple,
    Orange,
    Pink,
    Cyan,
}

/// Where a Claude Code skill runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SkillContext {
    /// In a subagent of its own.
    Fork,
}

/// The shell for a Claude Code skill's inline commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Shell {
    Bash,
    Powershell,
}

/// Where a Copilot custom agent runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CopilotTarget {
    Vscode,
    GithubCopilot,
}

/// Claude Code's built-in tools, as its tools reference lists them.
pub const CLAUDE_TOOLS: &[&str] = &[
    "Agent",
    "Artifact",
    "AskUserQuestion",
    "Bash",
    "CronCreate",
    "CronDelete",
    "CronList",
    "Edit",
    "EndConversation",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "LSP",
    "ListAgents",
    "ListMcpResourcesTool",
    "Monitor",
    "NotebookEdit",
    "PowerShell",
    "PushNotification",
    "Read",
    "ReadMcpResourceTool",
    "RemoteTrigger",
    "ReportFindings",
    "ScheduleWakeup",
    "SendFeedback",
    "SendMessage",
    "SendUserFile",
    "ShareOnboardingGuide",
    "Skill",
    "SubagentHandback",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    // The agent-team tools, behind Claude Code's experimental agent teams.
    "TeamCreate",
    "TeamDelete",
    "TodoWrite",
    "ToolSearch",
    "WaitForMcpServers",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
];

/// Names Claude Code used to have, with what replaced them: still accepted,
/// with a warning.
pub const CLAUDE_RENAMED_TOOLS: &[(&str, &str)] = &[
    ("Task", "Agent"),
    ("SlashCommand", "Skill"),
    ("BashOutput", "TaskOutput"),
    ("KillShell", "TaskStop"),
    ("KillBash", "TaskStop"),
    ("MultiEdit", "Edit"),
    ("NotebookRead", "Read"),
    ("LS", "Glob"),
];

/// Claude Code's model aliases (2.1.332's list, with `inherit` and
/// `default`); anything else must be a model id.
pub const CLAUDE_MODEL_ALIASES: &[&str] = &[
    "sonnet",
    "opus",
    "haiku",
    "fable",
    "best",
    "inherit",
    "default",
    "opusplan",
    "sonnet[1m]",
    "opus[1m]",
    "fable[1m]",
];

/// The Claude model families a model id names, without a date (`-20250929`),
/// a cloud provider's prefix or version (`us.anthropic.…-v1:0`, `…@20250929`)
/// or `[1m]`: Anthropic's models overview and deprecations pages, and the
/// families Claude Code 2.1.332 knows (`docs/research/claude-codex.md` §4).
pub const CLAUDE_MODEL_FAMILIES: &[&str] = &[
    "claude-3-5-haiku",
    "claude-3-5-sonnet",
    "claude-3-7-sonnet",
    "claude-3-haiku",
    "claude-3-opus",
    "claude-fable-5",
    "claude-fable-5-1",
    "claude-fable-5-2",
    "claude-haiku-4-5",
    "claude-haiku-5-5",
    "claude-mythos-5",
    "claude-mythos-preview",
    "claude-opus-4",
    "claude-opus-4-0",
    "claude-opus-4-1",
    "claude-opus-4-5",
    "claude-opus-4-6",
    "claude-opus-4-7",
    "claude-opus-4-8",
    "claude-opus-5",
    "claude-opus-5-5",
    "claude-sonnet-4",
    "claude-sonnet-4-0",
    "claude-sonnet-4-5",
    "claude-sonnet-4-6",
    "claude-sonnet-5",
    "claude-sonnet-5-5",
];

/// Copilot's tool aliases and VS Code's built-in tool sets (matched without
/// regard to case); `<server>/<tool>` and `<server>/*` name MCP tools.
pub const COPILOT_TOOLS: &[&str] = &[
    "*",
    "agent",
    "browser",
    "codebase",
    "custom-agent",
    "edit",
    "editFiles",
    "execute",
    "fetch",
    "githubRepo",
    "githubTextSearch",
    "newWorkspace",
    "read",
    "runCommands",
    "search",
    "shell",
    "terminalLastCommand",
    "todo",
    "todos",
    "usages",
    "vscode",
    "web",
    // VS Code's built-in tools by their unqualified reference names, which agents written
    // before the qualified forms (`read/problems`) still use and VS Code still resolves.
    "changes",
    "createAndRunTask",
    "extensions",
    "findTestFiles",
    "getProjectSetupInfo",
    "getPythonEnvironmentInfo",
    "getPythonExecutableCommand",
    "getTaskOutput",
    "getTerminalOutput",
    "installExtension",
    "installPythonPackage",
    "configurePythonEnvironment",
    "memory",
    "new",
    "newJupyterNotebook",
    "openSimpleBrowser",
    "problems",
    "runInTerminal",
    "runNotebooks",
    "runSubagent",
    "runTasks",
    "runTests",
    "runVscodeCommand",
    "searchResults",
    "terminalSelection",
    "testFailure",
    "think",
    "vscodeAPI",
    // The Claude Code names Copilot maps onto its aliases.
    "Bash",
    "powershell",
    "Read",
    "NotebookRead",
    "Edit",
    "MultiEdit",
    "Write",
    "NotebookEdit",
    "Grep",
    "Glob",
    "Task",
    "WebSearch",
    "WebFetch",
    "TodoWrite",
];
