//! The rule files of the editors' assistants — Cursor's `.cursor/rules/*.mdc`
//! (and its subagents, `.cursor/agents/*.md`), Cline's `.clinerules`, Kiro's
//! `.kiro/steering/*.md`: Markdown whose
//! frontmatter says when the rule applies. Cursor and Kiro publish no schema
//! or parser; what is here is what their documentation states
//! (`docs/formats.md`, "Cursor rules", "Cline rules", "Kiro steering").

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use crate::span::Spanned;
use crate::values::Text;

/// One glob, or a list of them.
fn patterns(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "anyOf": [
            { "type": "string" },
            { "type": "array", "items": { "type": "string" } }
        ]
    })
}

/// Text, or nothing after the key (`description:`), as Cursor writes it.
fn blank_or_text(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "anyOf": [{ "type": "string" }, { "const": null }] })
}

/// Globs as Cursor writes them: comma-separated text, a list, or nothing.
fn cursor_globs(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "anyOf": [
            { "type": "string" },
            { "type": "array", "items": { "type": "string" } },
            { "const": null }
        ]
    })
}

/// # Cursor rule
///
/// The YAML frontmatter of `.cursor/rules/<name>.mdc`; the Markdown after it
/// is the rule. No key is required: a rule with none is applied only when
/// mentioned (`@rule-name`).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Cursor rule frontmatter",
    extend("$id" = "https://agentc.dev/schemas/cursor-rule.schema.json")
)]
pub struct CursorRuleFrontmatter {
    /// # Description
    ///
    /// When the rule helps: the agent reads it to decide whether to apply
    /// the rule (an "Agent Requested" rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "blank_or_text", example = &"Conventions for the public API")]
    pub description: Option<serde_json::Value>,

    /// # Globs
    ///
    /// The files that attach the rule ("Auto Attached"), separated by commas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "cursor_globs", example = &"src/**/*.ts, src/**/*.tsx")]
    pub globs: Option<serde_json::Value>,

    /// # Always apply
    ///
    /// Whether the rule is in every request ("Always").
    #[serde(rename = "alwaysApply", default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "bool", example = false)]
    pub always_apply: Option<serde_json::Value>,
}

/// # Cursor subagent
///
/// The YAML frontmatter of `.cursor/agents/<name>.md`; the Markdown after it
/// is the subagent's prompt (cursor.com/docs/agent/subagents).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Cursor subagent frontmatter",
    extend("$id" = "https://agentc.dev/schemas/cursor-agent.schema.json")
)]
pub struct CursorAgentFrontmatter {
    /// # Name
    ///
    /// How the subagent is called (`/name`); the file's name when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"security-reviewer")]
    pub name: Option<Spanned<Text>>,

    /// # Description
    ///
    /// When to use the subagent: Cursor's agent reads it to decide what to
    /// delegate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Reviews a change for security problems; use after editing auth code")]
    pub description: Option<Spanned<Text>>,

    /// # Model
    ///
    /// `inherit` (the default: the parent's model), `fast`, or a model's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"inherit")]
    pub model: Option<Spanned<Text>>,

    /// # Read-only
    ///
    /// Whether the subagent runs without write permissions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = true)]
    pub readonly: Option<Spanned<bool>>,

    /// # In the background
    ///
    /// Whether the parent goes on without waiting for the subagent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = false)]
    pub is_background: Option<Spanned<bool>>,
}

/// # Cline rule
///
/// The YAML frontmatter of a Cline rule (`.clinerules`, or a `.md` or `.txt`
/// file in the `.clinerules/` folder). A rule without it is always active.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Cline rule frontmatter",
    extend("$id" = "https://agentc.dev/schemas/cline-rule.schema.json")
)]
pub struct ClineRuleFrontmatter {
    /// # Paths
    ///
    /// Globs of workspace paths: the rule is active when one of them matches
    /// a file in the conversation (open, mentioned or edited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<String>", example = serde_json::json!(["src/**/*.ts", "tests/**"]))]
    pub paths: Option<serde_json::Value>,
}

/// # Kiro steering file
///
/// The YAML frontmatter of `.kiro/steering/<name>.md`. Without it the file is
/// included in every interaction.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Kiro steering frontmatter",
    extend("$id" = "https://agentc.dev/schemas/kiro-steering.schema.json")
)]
pub struct KiroSteeringFrontmatter {
    /// # Inclusion
    ///
    /// When Kiro includes the file: `always`, `fileMatch` (with
    /// `fileMatchPattern`), `manual` (as `#<file-name>` in chat) or `auto`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        extend("enum" = ["always", "fileMatch", "manual", "auto"]),
        example = &"fileMatch"
    )]
    pub inclusion: Option<Spanned<Text>>,

    /// # File match pattern
    ///
    /// For `fileMatch`: one glob, or a list of globs.
    #[serde(rename = "fileMatchPattern", default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "patterns", example = serde_json::json!(["**/*.ts", "**/*.tsx"]))]
    pub file_match_pattern: Option<serde_json::Value>,

    /// # Name
    ///
    /// For `auto`: the file's name as Kiro shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"api-standards")]
    pub name: Option<Spanned<Text>>,

    /// # Description
    ///
    /// For `auto`: what the file is for, which Kiro matches against requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"REST conventions for the API handlers")]
    pub description: Option<Spanned<Text>>,
}

/// # Claude Code rule
///
/// The YAML frontmatter of a Claude Code rule (`.claude/rules/**/*.md`). A
/// rule without `paths` is loaded in every session.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Claude Code rule frontmatter",
    extend("$id" = "https://agentc.dev/schemas/claude-rule.schema.json")
)]
pub struct ClaudeRuleFrontmatter {
    /// # Paths
    ///
    /// Globs of the files the rule is for: Claude Code loads it when the
    /// model works on a file one of them matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<String>", example = serde_json::json!(["src/api/**/*.ts"]))]
    pub paths: Option<serde_json::Value>,
}

/// # Claude Code output style
///
/// The YAML frontmatter of a Claude Code output style
/// (`.claude/output-styles/<name>.md`).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Claude Code output style frontmatter",
    extend("$id" = "https://agentc.dev/schemas/claude-output-style.schema.json")
)]
pub struct ClaudeOutputStyleFrontmatter {
    /// # Name
    ///
    /// The style's name in `/output-style` and `outputStyle`; the file's name
    /// without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Terse Reviewer")]
    pub name: Option<String>,

    /// # Description
    ///
    /// What `/output-style` shows beside the name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"One-line answers, findings first")]
    pub description: Option<String>,

    /// # Keep coding instructions
    ///
    /// Keep Claude Code's coding instructions in the system prompt.
    #[serde(rename = "keep-coding-instructions", default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "bool", example = true)]
    pub keep_coding_instructions: Option<serde_json::Value>,
}
