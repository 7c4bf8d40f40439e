//! Codex's per-skill metadata, `<skill>/agents/openai.yaml`: how the skill
//! looks in Codex's apps, what it depends on, and when the model may invoke
//! it. Codex reads it fail-open — a bad field is dropped, an unreadable file
//! ignored — so every rule about it is a warning (`docs/formats.md`, "Codex
//! skills").

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::span::Spanned;

/// # Codex skill metadata
///
/// `<skill>/agents/openai.yaml` beside a Codex skill's `SKILL.md`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Codex agents/openai.yaml",
    extend("$id" = "https://agentc.dev/schemas/codex-metadata.schema.json")
)]
pub struct CodexMetadata {
    /// # Interface
    ///
    /// How the skill is shown in Codex's apps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"display_name": "Release notes", "brand_color": "#0A84FF"}))]
    pub interface: Option<CodexInterface>,

    /// # Dependencies
    ///
    /// The tools the skill needs (MCP servers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"tools": [{"type": "mcp", "value": "github"}]}))]
    pub dependencies: Option<CodexDependencies>,

    /// # Policy
    ///
    /// When the skill may be used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"allow_implicit_invocation": false}))]
    pub policy: Option<serde_json::Value>,
}

/// # Interface
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct CodexInterface {
    /// # Display name
    ///
    /// The name people see, at most 64 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<Spanned<String>>,
    /// # Short description
    ///
    /// One line people see, at most 1,024 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_description: Option<Spanned<String>>,
    /// # Small icon
    ///
    /// A path under the skill's `assets/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon_small: Option<Spanned<String>>,
    /// # Large icon
    ///
    /// A path under the skill's `assets/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon_large: Option<Spanned<String>>,
    /// # Brand color
    ///
    /// `#RRGGBB`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9A-Fa-f]{6}$"))]
    pub brand_color: Option<Spanned<String>>,
    /// # Default prompt
    ///
    /// The prompt offered with the skill, at most 1,024 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_prompt: Option<Spanned<String>>,
}

/// # Dependencies
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct CodexDependencies {
    /// # Tools
    ///
    /// Each tool the skill needs.
    #[serde(default)]
    pub tools: Vec<Spanned<CodexTool>>,
}

/// # Tool dependency
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct CodexTool {
    /// # Type
    ///
    /// What the dependency is (`mcp`).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Spanned<String>>,
    /// # Value
    ///
    /// Which one: an MCP server's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Spanned<String>>,
    /// # Description
    ///
    /// Why the skill needs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// # Transport
    ///
    /// How it is reached (`streamable_http`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<String>,
    /// # Command
    ///
    /// A local server's command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// # URL
    ///
    /// A remote server's address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}
