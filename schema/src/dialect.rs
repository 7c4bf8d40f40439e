//! The formats agentc reads, each a *dialect*: a schema type plus rules,
//! chosen by where a file lives (never by what it contains).
//!
//! agentc's own formats are the runbook `SKILL.md`, the `AGENT.md` bundle and
//! the `agent.json` package. The formats of the wild are the Agent Skills
//! `SKILL.md` (agentskills.io), Claude Code's skills, subagents, slash
//! commands and plugins, GitHub Copilot's custom agents, and the rules,
//! agents, commands and configuration of Cursor, Cline, OpenCode, Gemini CLI
//! and Kiro. `docs/formats.md`
//! says where each rule comes from.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserialize, Deserializer};
use serde::{Deserialize as DeserializeDerive, Serialize, Serializer};
use std::fmt;

use crate::span::{Spanned, error_at};
use crate::values::{Expecting, Text, Written, trim_blanks};

/// Which format a file is written in.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    DeserializeDerive,
    Serialize,
    JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// agentc's runbook `SKILL.md`: an Agent Skill whose `tools`, `steps`
    /// and `routes` are checked references.
    #[default]
    Runbook,
    /// An Agent Skills `SKILL.md` read by the specification alone: skill
    /// collections (`skills/`, `.agents/skills/`) under `--layout agent-skills`.
    AgentSkill,
    /// A Claude Code skill (`.claude/skills/`, a plugin's `skills/`): Agent
    /// Skills plus Claude Code's own fields.
    ClaudeSkill,
    /// A Codex skill (`.agents/skills/` at a repository's top that has none
    /// of agentc's own layout): Agent Skills as Codex reads them.
    CodexSkill,
    /// A GitHub Copilot skill (`.github/skills/`): Agent Skills plus VS Code's
    /// own fields, read by VS Code and the Copilot CLI and cloud agent.
    CopilotSkill,
    /// A Claude Code subagent (`.claude/agents/**/*.md`, a plugin's `agents/`).
    ClaudeSubagent,
    /// A Claude Code slash command (`.claude/commands/**/*.md`).
    ClaudeCommand,
    /// A GitHub Copilot custom agent (`.github/agents/*.agent.md`, or the older
    /// `.github/chatmodes/*.chatmode.md`).
    CopilotAgent,
    /// A Claude Code plugin manifest (`.claude-plugin/plugin.json`).
    ClaudePlugin,
    /// A Claude Code plugin marketplace (`.claude-plugin/marketplace.json`).
    ClaudeMarketplace,
    /// Claude Code hooks (a plugin's `hooks/hooks.json`, or a file its
    /// manifest names).
    ClaudeHooks,
    /// Claude Code project settings (`.claude/settings.json`,
    /// `.claude/settings.local.json`).
    ClaudeSettings,
    /// Claude Code MCP servers (`.mcp.json` at the project's top or a
    /// plugin's root, or a file a plugin's manifest names).
    McpJson,
    /// VS Code MCP servers (`.vscode/mcp.json`).
    VscodeMcp,
    /// A Codex skill's metadata (`<skill>/agents/openai.yaml`).
    CodexMetadata,
    /// A VS Code prompt file (`.github/prompts/<name>.prompt.md`).
    CopilotPrompt,
    /// A VS Code instructions file (`.github/instructions/**/<name>.instructions.md`).
    CopilotInstructions,
    /// Copilot's repository instructions (`.github/copilot-instructions.md`),
    /// plain Markdown.
    CopilotRepoInstructions,
    /// An `AGENTS.md` in any folder (agents.md; Codex, VS Code, OpenCode and others).
    AgentsMd,
    /// Claude Code's memory file (`CLAUDE.md`, `.claude/CLAUDE.md`, nested
    /// folders' `CLAUDE.md`), with its `@path` imports.
    ClaudeMd,
    /// Gemini CLI's memory file (`GEMINI.md` in any folder), with its
    /// `@path` imports.
    GeminiMd,
    /// A Cursor project rule (`.cursor/rules/**/*.mdc`).
    CursorRule,
    /// A Cline rule (`.clinerules` as a file, or the `.md` and `.txt` files
    /// of the `.clinerules/` folder).
    ClineRule,
    /// An OpenCode agent (`.opencode/agent/**/*.md`, `.opencode/agents/`).
    OpencodeAgent,
    /// An OpenCode command (`.opencode/command/**/*.md`, `.opencode/commands/`).
    OpencodeCommand,
    /// OpenCode's configuration (`opencode.json`, `opencode.jsonc`).
    OpencodeConfig,
    /// A Gemini CLI custom command (`.gemini/commands/**/*.toml`).
    GeminiCommand,
    /// A Gemini CLI extension's manifest (`gemini-extension.json`).
    GeminiExtension,
    /// A Kiro steering file (`.kiro/steering/*.md`).
    KiroSteering,
    /// GitHub Copilot hooks (`.github/hooks/**/*.json`), read by the Copilot
    /// CLI, the cloud agent and VS Code.
    CopilotHooks,
    /// The Copilot cloud agent's setup workflow
    /// (`.github/workflows/copilot-setup-steps.yml`).
    CopilotSetupSteps,
    /// A Claude Code rule (`.claude/rules/**/*.md`).
    ClaudeRule,
    /// A Claude Code output style (`.claude/output-styles/*.md`).
    ClaudeOutputStyle,
    /// Codex's project configuration (`.codex/config.toml`).
    CodexConfig,
    /// Codex's project hooks (`.codex/hooks.json`).
    CodexHooks,
    /// A Codex custom agent (`.codex/agents/*.toml`).
    CodexAgent,
    /// Gemini CLI's project settings (`.gemini/settings.json`).
    GeminiSettings,
    /// A Gemini CLI subagent (`.gemini/agents/*.md`).
    GeminiAgent,
    /// A Codex plugin's manifest (`.codex-plugin/plugin.json`).
    CodexPlugin,
    /// A Gemini CLI extension's hooks (`hooks/hooks.json` beside
    /// `gemini-extension.json`).
    GeminiHooks,
    /// Cursor's project hooks (`.cursor/hooks.json`).
    CursorHooks,
    /// Cursor's cloud agent environment (`.cursor/environment.json`).
    CursorEnvironment,
    /// The Cursor CLI's project permissions (`.cursor/cli.json`).
    CursorCli,
    /// A Cursor subagent (`.cursor/agents/<name>.md`).
    CursorAgent,
}

impl Dialect {
    /// Every dialect a `SKILL.md` can be read in.
    pub const SKILLS: [Dialect; 5] = [
        Dialect::Runbook,
        Dialect::AgentSkill,
        Dialect::ClaudeSkill,
        Dialect::CodexSkill,
        Dialect::CopilotSkill,
    ];

    /// The name used in `--layout`, the lockfile and the docs.
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Runbook => "runbook",
            Dialect::AgentSkill => "agent-skill",
            Dialect::ClaudeSkill => "claude-skill",
            Dialect::CodexSkill => "codex-skill",
            Dialect::CopilotSkill => "copilot-skill",
            Dialect::ClaudeSubagent => "claude-subagent",
            Dialect::ClaudeCommand => "claude-command",
            Dialect::CopilotAgent => "copilot-agent",
            Dialect::ClaudePlugin => "claude-plugin",
            Dialect::ClaudeMarketplace => "claude-marketplace",
            Dialect::ClaudeHooks => "claude-hooks",
            Dialect::ClaudeSettings => "claude-settings",
            Dialect::McpJson => "mcp-json",
            Dialect::VscodeMcp => "vscode-mcp",
            Dialect::CodexMetadata => "codex-metadata",
            Dialect::CopilotPrompt => "copilot-prompt",
            Dialect::CopilotInstructions => "copilot-instructions",
            Dialect::CopilotRepoInstructions => "copilot-repo-instructions",
            Dialect::AgentsMd => "agents-md",
            Dialect::ClaudeMd => "claude-md",
            Dialect::GeminiMd => "gemini-md",
            Dialect::CursorRule => "cursor-rule",
            Dialect::ClineRule => "cline-rule",
            Dialect::OpencodeAgent => "opencode-agent",
            Dialect::OpencodeCommand => "opencode-command",
            Dialect::OpencodeConfig => "opencode-config",
            Dialect::GeminiCommand => "gemini-command",
            Dialect::GeminiExtension => "gemini-extension",
            Dialect::KiroSteering => "kiro-steering",
            Dialect::CopilotHooks => "copilot-hooks",
            Dialect::CopilotSetupSteps => "copilot-setup-steps",
            Dialect::ClaudeRule => "claude-rule",
            Dialect::ClaudeOutputStyle => "claude-output-style",
            Dialect::CodexConfig => "codex-config",
            Dialect::CodexHooks => "codex-hooks",
            Dialect::CodexAgent => "codex-agent",
            Dialect::GeminiSettings => "gemini-settings",
            Dialect::GeminiAgent => "gemini-agent",
            Dialect::CodexPlugin => "codex-plugin",
            Dialect::GeminiHooks => "gemini-hooks",
            Dialect::CursorHooks => "cursor-hooks",
            Dialect::CursorEnvironment => "cursor-environment",
            Dialect::CursorCli => "cursor-cli",
            Dialect::CursorAgent => "cursor-agent",
        }
    }

    /// The frontmatter keys of a `SKILL.md` in this dialect: what
    /// [`crate::SkillFrontmatter`] decodes, narrowed to the dialect. Keys
    /// outside it are `unknown-field` warnings, kept as metadata.
    pub const fn skill_fields(self) -> &'static [&'static str] {
        match self {
            Dialect::Runbook => RUNBOOK_SKILL_FIELDS,
            Dialect::ClaudeSkill => CLAUDE_SKILL_FIELDS,
            Dialect::CopilotSkill => COPILOT_SKILL_FIELDS,
            _ => AGENT_SKILLS_FIELDS,
        }
    }

    /// For serde: a runbook is what a skill is unless it says otherwise.
    pub fn is_runbook(&self) -> bool {
        *self == Dialect::Runbook
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The fields the Agent Skills specification defines.
pub const AGENT_SKILLS_FIELDS: &[&str] =
    &["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

/// Agent Skills plus the fields Claude Code documents for its skills.
pub const CLAUDE_SKILL_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "disallowed-tools",
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "model",
    "effort",
    "context",
    "agent",
    "hooks",
    "paths",
    "shell",
];

/// Agent Skills plus the fields VS Code reads for its skills (its
/// `promptValidator.ts` and the Agent Skills reference).
pub const COPILOT_SKILL_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "argument-hint",
    "user-invocable",
    "disable-model-invocation",
];

/// Agent Skills plus agentc's runbook fields.
pub const RUNBOOK_SKILL_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "tools",
    "steps",
    "onSkip",
    "routes",
];

/// The longest Agent Skills `description`, in characters.
pub const MAX_DESCRIPTION_LEN: usize = 1024;
/// The longest Agent Skills `compatibility`, in characters.
pub const MAX_COMPATIBILITY_LEN: usize = 500;

/// Tool entries of the assistants' formats: a list, or one string whose
/// entries are separated by commas or blanks — but never inside parentheses,
/// so a permission rule such as `Bash(git log:*)` stays one entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolRules(pub Vec<Spanned<String>>);

impl ToolRules {
    pub fn iter(&self) -> std::slice::Iter<'_, Spanned<String>> {
        self.0.iter()
    }

    /// Splits `text` at commas and blanks outside parentheses.
    pub fn split<E: de::Error>(text: &Spanned<String>) -> Result<ToolRules, E> {
        let mut items = Vec::new();
        let mut depth = 0usize;
        let mut start = None;
        let bytes = text.value.as_bytes();
        let push = |from: usize, to: usize, items: &mut Vec<Spanned<String>>| {
            if !trim_blanks(&text.value[from..to]).is_empty() {
                items.push(text.token(from..to));
            }
        };
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'(' => depth += 1,
                b')' => depth = depth.saturating_sub(1),
                b',' | b' ' | b'\t' | b'\n' | b'\r' if depth == 0 => {
                    if let Some(from) = start.take() {
                        push(from, i, &mut items);
                    }
                    continue;
                }
                _ => {}
            }
            start.get_or_insert(i);
        }
        if let Some(from) = start {
            push(from, bytes.len(), &mut items);
        }
        if depth > 0 {
            return Err(error_at(text.span, "a `(` in this tool list is never closed"));
        }
        Ok(ToolRules(items))
    }
}

impl Serialize for ToolRules {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// [`ToolRules`]' forms.
pub(crate) struct Tools;

impl Expecting for Tools {
    const WHAT: &'static str = "a list of tools or one string of tools separated by commas";
}

impl<'de> Deserialize<'de> for ToolRules {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Spanned::<Written<Tools>>::deserialize(deserializer)?;
        match raw.value {
            Written::List(items, _) => Ok(ToolRules(
                items.into_iter().map(|t| t.map(|t| trim_blanks(&t.0).to_owned())).collect(),
            )),
            Written::One(text) => {
                ToolRules::split(&Spanned { value: text, span: raw.span, text_at: raw.text_at })
            }
        }
    }
}

impl JsonSchema for ToolRules {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ToolRules".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Tools as a list, or one string of tools separated by commas or spaces (a permission rule such as `Bash(git log:*)` is one entry).",
            "oneOf": [
                { "type": "array", "items": { "type": "string", "minLength": 1 } },
                { "type": "string" }
            ]
        })
    }
}

/// One text or a list of texts (Copilot's `model`, a preference order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OneOrMany(pub Vec<Spanned<Text>>);

impl OneOrMany {
    pub fn iter(&self) -> std::slice::Iter<'_, Spanned<Text>> {
        self.0.iter()
    }
}

impl Serialize for OneOrMany {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// [`OneOrMany`]'s forms.
pub(crate) struct Texts;

impl Expecting for Texts {
    const WHAT: &'static str = "a string or a list of strings";
}

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Spanned::<Written<Texts>>::deserialize(deserializer)?;
        match raw.value {
            Written::List(items, _) => Ok(OneOrMany(items)),
            Written::One(text) if text.trim().is_empty() => {
                Err(error_at(raw.span, "the value is blank; write some text or remove the key"))
            }
            Written::One(text) => Ok(OneOrMany(vec![Spanned {
                value: Text(text),
                span: raw.span,
                text_at: raw.text_at,
            }])),
        }
    }
}

impl JsonSchema for OneOrMany {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "OneOrMany".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "oneOf": [
                { "type": "string", "minLength": 1 },
                { "type": "array", "items": { "type": "string", "minLength": 1 } }
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<String> {
        let spanned = Spanned { value: text.to_owned(), span: Default::default(), text_at: None };
        ToolRules::split::<serde_json::Error>(&spanned)
            .unwrap()
            .0
            .into_iter()
            .map(|s| s.value)
            .collect()
    }

    #[test]
    fn permission_rules_stay_whole() {
        assert_eq!(split("Read, Bash(git log:*), Grep"), ["Read", "Bash(git log:*)", "Grep"]);
        assert_eq!(
            split("Read Grep  Bash(npm run test:*)"),
            ["Read", "Grep", "Bash(npm run test:*)"]
        );
        assert_eq!(split(" , "), Vec::<String>::new());
    }
}
