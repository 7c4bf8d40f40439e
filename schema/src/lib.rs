//! The agentc data model.
//!
//! One set of types describes every file agentc reads and the lockfile it
//! writes. The same definitions drive three things, so a field is described
//! exactly once:
//!
//! - decoding, through serde (the compiler's decoder adds a span to every
//!   [`Spanned`] value, so diagnostics point at the value itself);
//! - the lockfile a runtime loads ([`lockfile`]);
//! - the JSON Schemas editors use ([`schemas::Kind::schema`]).
//!
//! The only I/O here is the runtime side of the lockfile — [`Lockfile::load`]
//! and [`Lockfile::verify`] — so a service needs this crate alone.

pub mod agent;
pub mod assistant;
pub mod codex;
pub mod codex_config;
pub mod codex_plugin;
pub mod copilot_files;
pub mod copilot_hooks;
pub mod copilot_setup;
pub mod cursor_files;
pub mod dialect;
pub mod gemini;
pub mod guard;
pub mod hooks;
pub mod lockfile;
pub mod marketplace;
pub mod mcp;
pub mod message;
pub mod names;
pub mod opencode;
pub mod project;
pub mod rules;
pub mod runtime;
pub mod schemas;
pub mod settings;
pub mod shared;
pub mod skill;
pub mod span;
pub mod tool;
pub mod values;

pub use agent::{AgentFrontmatter, AgentManifest, ContextMode, Effort, Memory, TriggerRules};
pub use assistant::{
    ClaudeCommandFrontmatter, ClaudeSubagentFrontmatter, CopilotAgentFrontmatter, Handoff,
    PluginManifest,
};
pub use codex_config::{CodexAgent, CodexConfig, CodexHooksFile};
pub use codex_plugin::CodexPlugin;
pub use copilot_files::{CopilotInstructionsFrontmatter, CopilotPromptFrontmatter};
pub use copilot_hooks::CopilotHooksFile;
pub use copilot_setup::CopilotSetupSteps;
pub use cursor_files::{CursorCli, CursorEnvironment, CursorHooksFile};
pub use dialect::{Dialect, OneOrMany, ToolRules};
pub use gemini::{
    GeminiAgentFrontmatter, GeminiCommand, GeminiExtension, GeminiHooksFile, GeminiSettings,
};
pub use guard::{Guard, GuardError, Status, parse_guard};
pub use hooks::{HookMatcher, HookType, HooksFile};
pub use lockfile::Lockfile;
pub use marketplace::{Marketplace, MarketplacePlugin, Paths, PathsOr};
pub use mcp::{McpJson, McpServer, VscodeMcp};
pub use names::{NameError, NameKind, check_name};
pub use opencode::{OpencodeAgentFrontmatter, OpencodeCommandFrontmatter, OpencodeConfig};
pub use project::{LintLevel, Override, PROJECT_FILE, ProjectFile};
pub use rules::{
    ClaudeOutputStyleFrontmatter, ClaudeRuleFrontmatter, ClineRuleFrontmatter,
    CursorAgentFrontmatter, CursorRuleFrontmatter, KiroSteeringFrontmatter,
};
pub use schemas::Kind;
pub use settings::ClaudeSettings;
pub use shared::SharedStr;
pub use skill::{OnSkip, Route, SkillFrontmatter, Step};
pub use span::{Span, Spanned};
pub use tool::{Registry, RegistryTool, ToolManifest};
pub use values::{List, NameList, NonEmpty, Text, Version};
