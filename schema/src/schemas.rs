//! The published JSON Schemas, one per file kind, generated from the types.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};

use crate::dialect::Dialect;
use crate::{
    AgentFrontmatter, AgentManifest, ClaudeCommandFrontmatter, ClaudeSettings,
    ClaudeSubagentFrontmatter, ClineRuleFrontmatter, CopilotAgentFrontmatter,
    CopilotInstructionsFrontmatter, CopilotPromptFrontmatter, CursorRuleFrontmatter,
    GeminiAgentFrontmatter, GeminiCommand, GeminiExtension, GeminiSettings, HooksFile,
    KiroSteeringFrontmatter, Lockfile, Marketplace, McpJson, OpencodeAgentFrontmatter,
    OpencodeCommandFrontmatter, OpencodeConfig, PluginManifest, ProjectFile, Registry,
    SkillFrontmatter, ToolManifest, VscodeMcp,
};

/// A kind of file agentc reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Agent,
    AgentMd,
    Skill,
    Tool,
    Registry,
    Lockfile,
    AgentSkill,
    ClaudeSkill,
    CodexSkill,
    CopilotSkill,
    ClaudeSubagent,
    ClaudeCommand,
    ClaudePlugin,
    ClaudeMarketplace,
    ClaudeHooks,
    ClaudeSettings,
    McpJson,
    VscodeMcp,
    CodexMetadata,
    CopilotAgent,
    CopilotPrompt,
    CopilotInstructions,
    CursorRule,
    ClineRule,
    OpencodeAgent,
    OpencodeCommand,
    OpencodeConfig,
    GeminiCommand,
    GeminiExtension,
    GeminiSettings,
    GeminiAgent,
    KiroSteering,
    CopilotHooks,
    CopilotSetupSteps,
    ClaudeRule,
    ClaudeOutputStyle,
    CodexConfig,
    CodexHooks,
    CodexAgent,
    CodexPlugin,
    GeminiHooks,
    CursorHooks,
    CursorEnvironment,
    CursorCli,
    CursorAgent,
    Project,
    Message,
}

impl Kind {
    pub const ALL: [Kind; 47] = [
        Kind::Agent,
        Kind::AgentMd,
        Kind::Skill,
        Kind::Tool,
        Kind::Registry,
        Kind::Lockfile,
        Kind::AgentSkill,
        Kind::ClaudeSkill,
        Kind::CodexSkill,
        Kind::CopilotSkill,
        Kind::ClaudeSubagent,
        Kind::ClaudeCommand,
        Kind::ClaudePlugin,
        Kind::ClaudeMarketplace,
        Kind::ClaudeHooks,
        Kind::ClaudeSettings,
        Kind::McpJson,
        Kind::VscodeMcp,
        Kind::CodexMetadata,
        Kind::CopilotAgent,
        Kind::CopilotPrompt,
        Kind::CopilotInstructions,
        Kind::CursorRule,
        Kind::ClineRule,
        Kind::OpencodeAgent,
        Kind::OpencodeCommand,
        Kind::OpencodeConfig,
        Kind::GeminiCommand,
        Kind::GeminiExtension,
        Kind::GeminiSettings,
        Kind::GeminiAgent,
        Kind::KiroSteering,
        Kind::CopilotHooks,
        Kind::CopilotSetupSteps,
        Kind::ClaudeRule,
        Kind::ClaudeOutputStyle,
        Kind::CodexConfig,
        Kind::CodexHooks,
        Kind::CodexAgent,
        Kind::CodexPlugin,
        Kind::GeminiHooks,
        Kind::CursorHooks,
        Kind::CursorEnvironment,
        Kind::CursorCli,
        Kind::CursorAgent,
        Kind::Project,
        Kind::Message,
    ];

    /// The name used on the command line (`agentc schema agent`).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Agent => "agent",
            Kind::AgentMd => "agent-md",
            Kind::Skill => "skill",
            Kind::Tool => "tool",
            Kind::Registry => "registry",
            Kind::Lockfile => "lockfile",
            Kind::AgentSkill => "agent-skill",
            Kind::ClaudeSkill => "claude-skill",
            Kind::CodexSkill => "codex-skill",
            Kind::CopilotSkill => "copilot-skill",
            Kind::ClaudeSubagent => "claude-subagent",
            Kind::ClaudeCommand => "claude-command",
            Kind::ClaudePlugin => "claude-plugin",
            Kind::ClaudeMarketplace => "claude-marketplace",
            Kind::ClaudeHooks => "claude-hooks",
            Kind::ClaudeSettings => "claude-settings",
            Kind::McpJson => "mcp-json",
            Kind::VscodeMcp => "vscode-mcp",
            Kind::CodexMetadata => "codex-metadata",
            Kind::CopilotAgent => "copilot-agent",
            Kind::CopilotPrompt => "copilot-prompt",
            Kind::CopilotInstructions => "copilot-instructions",
            Kind::CursorRule => "cursor-rule",
            Kind::ClineRule => "cline-rule",
            Kind::OpencodeAgent => "opencode-agent",
            Kind::OpencodeCommand => "opencode-command",
            Kind::OpencodeConfig => "opencode-config",
            Kind::GeminiCommand => "gemini-command",
            Kind::GeminiExtension => "gemini-extension",
            Kind::GeminiSettings => "gemini-settings",
            Kind::GeminiAgent => "gemini-agent",
            Kind::KiroSteering => "kiro-steering",
            Kind::CopilotHooks => "copilot-hooks",
            Kind::CopilotSetupSteps => "copilot-setup-steps",
            Kind::ClaudeRule => "claude-rule",
            Kind::ClaudeOutputStyle => "claude-output-style",
            Kind::CodexConfig => "codex-config",
            Kind::CodexHooks => "codex-hooks",
            Kind::CodexAgent => "codex-agent",
            Kind::CodexPlugin => "codex-plugin",
            Kind::GeminiHooks => "gemini-hooks",
            Kind::CursorHooks => "cursor-hooks",
            Kind::CursorEnvironment => "cursor-environment",
            Kind::CursorCli => "cursor-cli",
            Kind::CursorAgent => "cursor-agent",
            Kind::Project => "project",
            Kind::Message => "message",
        }
    }

    /// What files the schema is for.
    pub const fn describes(self) -> &'static str {
        match self {
            Kind::Agent => "<agent>/agent.json package manifests",
            Kind::AgentMd => "the YAML frontmatter of <agent>/AGENT.md",
            Kind::Skill => "the YAML frontmatter of a runbook SKILL.md (agentc's layout)",
            Kind::Tool => "tools/<tool>/manifest.json descriptors",
            Kind::Registry => "the --registry file (JSON or YAML)",
            Kind::Lockfile => "agentc.lock",
            Kind::AgentSkill => "the YAML frontmatter of an Agent Skills SKILL.md",
            Kind::ClaudeSkill => "the YAML frontmatter of .claude/skills/<skill>/SKILL.md",
            Kind::CodexSkill => {
                "the YAML frontmatter of .agents/skills/<skill>/SKILL.md, as Codex reads it"
            }
            Kind::CopilotSkill => "the YAML frontmatter of .github/skills/<skill>/SKILL.md",
            Kind::ClaudeSubagent => "the YAML frontmatter of .claude/agents/<name>.md",
            Kind::ClaudeCommand => "the YAML frontmatter of .claude/commands/<name>.md",
            Kind::ClaudePlugin => ".claude-plugin/plugin.json",
            Kind::ClaudeMarketplace => ".claude-plugin/marketplace.json",
            Kind::ClaudeHooks => "a Claude Code plugin's hooks/hooks.json",
            Kind::ClaudeSettings => ".claude/settings.json and .claude/settings.local.json",
            Kind::McpJson => ".mcp.json, Claude Code's MCP servers",
            Kind::VscodeMcp => ".vscode/mcp.json, VS Code's MCP servers",
            Kind::CodexMetadata => "a Codex skill's agents/openai.yaml",
            Kind::CopilotAgent => "the YAML frontmatter of .github/agents/<name>.agent.md",
            Kind::CopilotPrompt => "the YAML frontmatter of .github/prompts/<name>.prompt.md",
            Kind::CopilotInstructions => {
                "the YAML frontmatter of .github/instructions/**/<name>.instructions.md"
            }
            Kind::CursorRule => "the YAML frontmatter of .cursor/rules/<name>.mdc",
            Kind::ClineRule => "the YAML frontmatter of a Cline rule (.clinerules)",
            Kind::OpencodeAgent => "the YAML frontmatter of .opencode/agent/<name>.md",
            Kind::OpencodeCommand => "the YAML frontmatter of .opencode/command/<name>.md",
            Kind::OpencodeConfig => "opencode.json and opencode.jsonc, OpenCode's configuration",
            Kind::GeminiCommand => ".gemini/commands/<name>.toml, Gemini CLI's custom commands",
            Kind::GeminiExtension => "gemini-extension.json, a Gemini CLI extension's manifest",
            Kind::GeminiSettings => ".gemini/settings.json, Gemini CLI's project settings",
            Kind::GeminiAgent => {
                "the YAML frontmatter of .gemini/agents/<name>.md, a Gemini CLI subagent"
            }
            Kind::KiroSteering => "the YAML frontmatter of .kiro/steering/<name>.md",
            Kind::CopilotHooks => ".github/hooks/<name>.json, GitHub Copilot's hooks",
            Kind::CopilotSetupSteps => {
                ".github/workflows/copilot-setup-steps.yml, the Copilot cloud agent's setup"
            }
            Kind::ClaudeRule => "the YAML frontmatter of .claude/rules/<name>.md",
            Kind::ClaudeOutputStyle => "the YAML frontmatter of .claude/output-styles/<name>.md",
            Kind::CodexConfig => ".codex/config.toml, Codex's project configuration",
            Kind::CodexHooks => ".codex/hooks.json, Codex's project hooks",
            Kind::CodexAgent => ".codex/agents/<name>.toml, a Codex custom agent",
            Kind::CodexPlugin => ".codex-plugin/plugin.json, a Codex plugin's manifest",
            Kind::GeminiHooks => "hooks/hooks.json, a Gemini CLI extension's hooks",
            Kind::CursorHooks => ".cursor/hooks.json, Cursor's project hooks",
            Kind::CursorEnvironment => ".cursor/environment.json, Cursor's cloud agent environment",
            Kind::CursorCli => ".cursor/cli.json, the Cursor CLI's project permissions",
            Kind::CursorAgent => {
                "the YAML frontmatter of .cursor/agents/<name>.md, a Cursor subagent"
            }
            Kind::Project => "agentc.toml, the project file",
            Kind::Message => "a line of --message-format json: a diagnostic or the summary",
        }
    }

    /// The schema of a dialect's files; `None` for plain Markdown (the
    /// memory files and Copilot's repository instructions), which has none.
    pub const fn of(dialect: Dialect) -> Option<Kind> {
        Some(match dialect {
            Dialect::Runbook => Kind::Skill,
            Dialect::AgentSkill => Kind::AgentSkill,
            Dialect::ClaudeSkill => Kind::ClaudeSkill,
            Dialect::CodexSkill => Kind::CodexSkill,
            Dialect::CopilotSkill => Kind::CopilotSkill,
            Dialect::ClaudeSubagent => Kind::ClaudeSubagent,
            Dialect::ClaudeCommand => Kind::ClaudeCommand,
            Dialect::CopilotAgent => Kind::CopilotAgent,
            Dialect::ClaudePlugin => Kind::ClaudePlugin,
            Dialect::ClaudeMarketplace => Kind::ClaudeMarketplace,
            Dialect::ClaudeHooks => Kind::ClaudeHooks,
            Dialect::ClaudeSettings => Kind::ClaudeSettings,
            Dialect::McpJson => Kind::McpJson,
            Dialect::VscodeMcp => Kind::VscodeMcp,
            Dialect::CodexMetadata => Kind::CodexMetadata,
            Dialect::CopilotPrompt => Kind::CopilotPrompt,
            Dialect::CopilotInstructions => Kind::CopilotInstructions,
            Dialect::CursorRule => Kind::CursorRule,
            Dialect::ClineRule => Kind::ClineRule,
            Dialect::OpencodeAgent => Kind::OpencodeAgent,
            Dialect::OpencodeCommand => Kind::OpencodeCommand,
            Dialect::OpencodeConfig => Kind::OpencodeConfig,
            Dialect::GeminiCommand => Kind::GeminiCommand,
            Dialect::GeminiExtension => Kind::GeminiExtension,
            Dialect::GeminiSettings => Kind::GeminiSettings,
            Dialect::GeminiAgent => Kind::GeminiAgent,
            Dialect::KiroSteering => Kind::KiroSteering,
            Dialect::CopilotHooks => Kind::CopilotHooks,
            Dialect::CopilotSetupSteps => Kind::CopilotSetupSteps,
            Dialect::ClaudeRule => Kind::ClaudeRule,
            Dialect::ClaudeOutputStyle => Kind::ClaudeOutputStyle,
            Dialect::CodexConfig => Kind::CodexConfig,
            Dialect::CodexHooks => Kind::CodexHooks,
            Dialect::CodexAgent => Kind::CodexAgent,
            Dialect::CodexPlugin => Kind::CodexPlugin,
            Dialect::GeminiHooks => Kind::GeminiHooks,
            Dialect::CursorHooks => Kind::CursorHooks,
            Dialect::CursorEnvironment => Kind::CursorEnvironment,
            Dialect::CursorCli => Kind::CursorCli,
            Dialect::CursorAgent => Kind::CursorAgent,
            Dialect::CopilotRepoInstructions
            | Dialect::AgentsMd
            | Dialect::ClaudeMd
            | Dialect::GeminiMd => return None,
        })
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The file the schema is published as.
    pub fn file_name(self) -> String {
        format!("{}.schema.json", self.name())
    }

    /// The draft-07 schema, which every editor supports fully.
    pub fn schema(self) -> serde_json::Value {
        match self {
            Kind::Agent => draft07::<AgentManifest>(),
            Kind::AgentMd => draft07::<AgentFrontmatter>(),
            Kind::Skill => skill_dialect(Dialect::Runbook, "SKILL.md frontmatter", "skill"),
            Kind::Tool => draft07::<ToolManifest>(),
            Kind::Registry => draft07::<Registry>(),
            Kind::Lockfile => draft07::<Lockfile>(),
            Kind::AgentSkill => skill_dialect(
                Dialect::AgentSkill,
                "Agent Skills SKILL.md frontmatter",
                "agent-skill",
            ),
            Kind::ClaudeSkill => skill_dialect(
                Dialect::ClaudeSkill,
                "Claude Code SKILL.md frontmatter",
                "claude-skill",
            ),
            Kind::CodexSkill => {
                skill_dialect(Dialect::CodexSkill, "Codex SKILL.md frontmatter", "codex-skill")
            }
            Kind::CopilotSkill => skill_dialect(
                Dialect::CopilotSkill,
                "GitHub Copilot SKILL.md frontmatter",
                "copilot-skill",
            ),
            Kind::ClaudeSubagent => draft07::<ClaudeSubagentFrontmatter>(),
            Kind::ClaudeCommand => draft07::<ClaudeCommandFrontmatter>(),
            Kind::ClaudePlugin => draft07::<PluginManifest>(),
            Kind::ClaudeMarketplace => draft07::<Marketplace>(),
            Kind::ClaudeHooks => draft07::<HooksFile>(),
            Kind::ClaudeSettings => draft07::<ClaudeSettings>(),
            Kind::McpJson => draft07::<McpJson>(),
            Kind::VscodeMcp => draft07::<VscodeMcp>(),
            Kind::CodexMetadata => draft07::<crate::codex::CodexMetadata>(),
            Kind::CopilotAgent => draft07::<CopilotAgentFrontmatter>(),
            Kind::CopilotPrompt => draft07::<CopilotPromptFrontmatter>(),
            Kind::CopilotInstructions => draft07::<CopilotInstructionsFrontmatter>(),
            Kind::CursorRule => draft07::<CursorRuleFrontmatter>(),
            Kind::ClineRule => draft07::<ClineRuleFrontmatter>(),
            Kind::OpencodeAgent => draft07::<OpencodeAgentFrontmatter>(),
            Kind::OpencodeCommand => draft07::<OpencodeCommandFrontmatter>(),
            Kind::OpencodeConfig => draft07::<OpencodeConfig>(),
            Kind::GeminiCommand => draft07::<GeminiCommand>(),
            Kind::GeminiExtension => draft07::<GeminiExtension>(),
            Kind::GeminiSettings => draft07::<GeminiSettings>(),
            Kind::GeminiAgent => draft07::<GeminiAgentFrontmatter>(),
            Kind::KiroSteering => draft07::<KiroSteeringFrontmatter>(),
            Kind::CopilotHooks => draft07::<crate::CopilotHooksFile>(),
            Kind::CopilotSetupSteps => draft07::<crate::CopilotSetupSteps>(),
            Kind::ClaudeRule => draft07::<crate::ClaudeRuleFrontmatter>(),
            Kind::ClaudeOutputStyle => draft07::<crate::ClaudeOutputStyleFrontmatter>(),
            Kind::CodexConfig => draft07::<crate::CodexConfig>(),
            Kind::CodexHooks => draft07::<crate::CodexHooksFile>(),
            Kind::CodexAgent => draft07::<crate::CodexAgent>(),
            Kind::CodexPlugin => draft07::<crate::CodexPlugin>(),
            Kind::GeminiHooks => draft07::<crate::GeminiHooksFile>(),
            Kind::CursorHooks => draft07::<crate::CursorHooksFile>(),
            Kind::CursorEnvironment => draft07::<crate::CursorEnvironment>(),
            Kind::CursorCli => draft07::<crate::CursorCli>(),
            Kind::CursorAgent => draft07::<crate::CursorAgentFrontmatter>(),
            Kind::Project => draft07::<ProjectFile>(),
            Kind::Message => draft07::<crate::message::Message>(),
        }
    }

    /// The schema as published: pretty JSON with a trailing newline.
    pub fn schema_text(self) -> String {
        let mut text = serde_json::to_string_pretty(&self.schema()).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// One dialect's view of [`SkillFrontmatter`]: the fields it reads, and no
/// others (the one type describes each field once for every dialect).
fn skill_dialect(dialect: Dialect, title: &str, name: &str) -> serde_json::Value {
    let mut schema = draft07::<SkillFrontmatter>();
    let fields = dialect.skill_fields();
    if let Some(serde_json::Value::Object(properties)) = schema.get_mut("properties") {
        properties.retain(|key, _| fields.contains(&key.as_str()));
    }
    if let Some(serde_json::Value::Array(required)) = schema.get_mut("required") {
        required.retain(|key| key.as_str().is_some_and(|k| fields.contains(&k)));
    }
    if dialect != Dialect::Runbook {
        schema["properties"]["name"]["pattern"] = crate::names::SPEC_NAME_PATTERN.into();
    }
    schema["title"] = title.into();
    schema["$id"] = format!("https://agentc.dev/schemas/{name}.schema.json").into();
    prune_definitions(&mut schema);
    schema
}

/// Drops the definitions no property refers to any more.
fn prune_definitions(schema: &mut serde_json::Value) {
    let Some(serde_json::Value::Object(definitions)) = schema.get("definitions").cloned() else {
        return;
    };
    let mut used = std::collections::BTreeSet::new();
    let mut pending = vec![schema["properties"].to_string()];
    while let Some(text) = pending.pop() {
        for (name, definition) in &definitions {
            if text.contains(&format!("#/definitions/{name}\"")) && used.insert(name.clone()) {
                pending.push(definition.to_string());
            }
        }
    }
    if let Some(serde_json::Value::Object(kept)) = schema.get_mut("definitions") {
        kept.retain(|name, _| used.contains(name));
        if kept.is_empty()
            && let Some(object) = schema.as_object_mut()
        {
            object.remove("definitions");
        }
    }
}

fn draft07<T: JsonSchema>() -> serde_json::Value {
    let schema: Schema = SchemaSettings::draft07().into_generator().into_root_schema_for::<T>();
    let mut value = serde_json::Value::from(schema);
    strip_null(&mut value);
    // A type published as a schema of its own (the hooks file, inside the
    // plugin manifest) keeps its `$id` as a definition, which would make
    // the references inside it resolve against that other document.
    if let Some(serde_json::Value::Object(definitions)) = value.get_mut("definitions") {
        for definition in definitions.values_mut() {
            if let serde_json::Value::Object(fields) = definition {
                fields.remove("$id");
            }
        }
    }
    value
}

/// Removes the `null` schemars allows for `Option` fields.
///
/// An absent key is how a file leaves an optional field out; an explicit `null`
/// is refused by the decoder, so the schema must refuse it too.
fn strip_null(value: &mut serde_json::Value) {
    use serde_json::Value;
    let Value::Object(map) = value else {
        if let Value::Array(items) = value {
            items.iter_mut().for_each(strip_null);
        }
        return;
    };
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            map.insert("type".into(), only);
        }
    }
    let is_null = |v: &Value| {
        v.get("type").is_some_and(|t| t == "null") && v.as_object().is_some_and(|o| o.len() == 1)
    };
    if let Some(Value::Array(any)) = map.get_mut("anyOf") {
        any.retain(|v| !is_null(v));
        if any.len() == 1 {
            let only = any.remove(0);
            map.remove("anyOf");
            if let Value::Object(inner) = only {
                for (k, v) in inner {
                    map.entry(k).or_insert(v);
                }
            }
        }
    }
    map.values_mut().for_each(strip_null);
}
