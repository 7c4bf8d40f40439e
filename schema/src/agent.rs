//! The two agent formats: the `agent.json` package manifest and the `AGENT.md`
//! bundle frontmatter.

use std::num::NonZeroU32;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::span::Spanned;
use crate::values::{List, NameList, Text, Version};

/// # agent.json — an agent package manifest
///
/// The manifest of a package-style agent: the folder holding it is the agent's
/// id; its entry points, `workflows/` and `knowledge/` files make up its prompt.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "agent.json", extend("$id" = "https://agentc.dev/schemas/agent.schema.json"))]
pub struct AgentManifest {
    /// # Schema
    ///
    /// The JSON Schema this file follows, for editors. agentc ignores it.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"../../generated/agent.schema.json")]
    pub schema: Option<String>,

    /// # Display name
    ///
    /// The agent's name as people read it, free text. The agent's id is its folder name.
    #[schemars(example = &"Escalations desk")]
    pub name: Spanned<Text>,

    /// # Version
    ///
    /// The package's semantic version.
    #[schemars(example = &"1.2.0")]
    pub version: Spanned<Version>,

    /// # Description
    ///
    /// What the agent does, in a sentence or two; shown to whoever picks an agent.
    #[schemars(example = &"Takes over cases the front line could not resolve.")]
    pub description: Spanned<Text>,

    /// # Trigger rules
    ///
    /// When the host should bring this agent in: file patterns and keywords.
    #[schemars(example = serde_json::json!({"keywords": ["chargeback"]}))]
    pub trigger_rules: TriggerRules,

    /// # Entry points
    ///
    /// Markdown files at the agent's root, in prompt order. Must include
    /// `system.md`, `boundaries.md` and `conventions.md`.
    #[schemars(
        example = crate::values::example_list("system.md boundaries.md conventions.md"),
        schema_with = "entry_points_schema"
    )]
    pub entry_points: Spanned<List<Text, 1>>,

    /// # Tools
    ///
    /// Tools the agent may call, by name: descriptors on disk or names the host
    /// registers. The agent's private tools are active without being listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("lookup_order update_ticket"))]
    pub tools: Option<List<Text>>,

    /// # Skills
    ///
    /// Skills the agent activates, by name. The agent's private skills are active
    /// without being listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("case-summary wrap-up"))]
    pub skills: Option<List<Text>>,

    /// # Disallowed tools
    ///
    /// Tools the agent must never call. Each must name a known tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("apply_account_credit"))]
    pub disallowed_tools: Option<List<Text>>,

    /// # Tags
    ///
    /// Free labels for catalogues and search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("support tier-2"))]
    pub tags: Option<List<Text>>,

    /// # Role
    ///
    /// The agent's role in a team of agents, free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"specialist")]
    pub role: Option<Spanned<Text>>,

    /// # Context mode
    ///
    /// `fork` starts the agent with a copy of the caller's context; `fresh` with none.
    #[schemars(example = &"fork")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_mode: Option<Spanned<ContextMode>>,

    /// # Maximum iterations
    ///
    /// How many model turns the agent may take before it must stop; at least 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = 12)]
    pub max_iterations: Option<Spanned<NonZeroU32>>,

    /// # Model
    ///
    /// The model, as `<provider>/<model>`, or the model alone beside `provider`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"claude-sonnet-4-5")]
    pub model: Option<Spanned<Text>>,

    /// # Provider
    ///
    /// The model provider; combined with `model` as `<provider>/<model>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"anthropic")]
    pub provider: Option<Spanned<Text>>,

    /// # Effort
    ///
    /// How hard the model should think.
    #[schemars(example = &"medium")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<Spanned<Effort>>,

    /// # Memory
    ///
    /// How long what the agent remembers lives.
    #[schemars(example = &"session")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Spanned<Memory>>,

    /// # Platforms
    ///
    /// The chat platforms the agent serves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("slack web"))]
    pub platforms: Option<List<Text>>,

    /// # Scopes
    ///
    /// The conversation kinds the agent may join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("private channel"))]
    pub scopes: Option<List<ConversationScope>>,

    /// # Permissions
    ///
    /// Permission expressions a caller must satisfy, passed to the host as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("role(support-lead)"))]
    pub permissions: Option<List<Text>>,
}

/// The entry points every package lists.
pub const REQUIRED_ENTRY_POINTS: [&str; 3] = ["system.md", "boundaries.md", "conventions.md"];

/// An entry point: a Markdown file name at the agent's root.
pub const ENTRY_POINT_PATTERN: &str = r"^[a-z0-9][a-z0-9._-]*\.md$";

/// Whether `name` is an entry point's file name ([`ENTRY_POINT_PATTERN`]).
pub fn is_entry_point_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".md") else {
        return false;
    };
    let mut chars = stem.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
}

/// `entry_points` as the compiler checks it: Markdown file names at the
/// agent's root, each once, the three required ones among them.
fn entry_points_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let contains: Vec<serde_json::Value> = REQUIRED_ENTRY_POINTS
        .iter()
        .map(|name| serde_json::json!({ "contains": { "const": name } }))
        .collect();
    schemars::json_schema!({
        "type": "array",
        "items": { "type": "string", "pattern": ENTRY_POINT_PATTERN },
        "uniqueItems": true,
        "minItems": 1,
        "allOf": contains
    })
}

/// # Trigger rules
///
/// When the host should bring the agent in.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TriggerRules {
    /// # File patterns
    ///
    /// Glob patterns of files that call for this agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("**/refunds/*.csv"))]
    pub file_patterns: Option<List<Text>>,

    /// # Keywords
    ///
    /// Words in a request that call for this agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("chargeback dispute"))]
    pub keywords: Option<List<Text>>,
}

/// How an agent's context starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ContextMode {
    /// A copy of the caller's context.
    Fork,
    /// An empty context.
    Fresh,
}

/// How hard the model should think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Effort {
    Low,
    Medium,
    High,
    Max,
}

/// How long an agent's memory lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Memory {
    /// Per user, across sessions.
    User,
    /// For one session.
    Session,
    /// Shared by every use of the agent.
    Agent,
}

/// A kind of conversation an agent may join.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ConversationScope {
    Private,
    Group,
    Channel,
}

impl std::fmt::Display for ConversationScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ConversationScope::Private => "private",
            ConversationScope::Group => "group",
            ConversationScope::Channel => "channel",
        })
    }
}

/// # AGENT.md — the frontmatter of a bundle-style agent
///
/// The YAML block at the top of `<agent>/AGENT.md`; the Markdown after it is the
/// agent's prompt. Every key is optional.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "AGENT.md frontmatter", extend("$id" = "https://agentc.dev/schemas/agent-md.schema.json"))]
pub struct AgentFrontmatter {
    /// # Name
    ///
    /// The agent's name; when given it must equal the folder name, which is the id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"triage")]
    pub name: Option<Spanned<Text>>,

    /// # Description
    ///
    /// What the agent does, in a sentence or two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"First contact: works out what the customer needs.")]
    pub description: Option<Spanned<Text>>,

    /// # Model
    ///
    /// The model, as `<provider>/<model>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"anthropic/claude-haiku-4-5")]
    pub model: Option<Spanned<Text>>,

    /// # Tools
    ///
    /// Tools the agent may call: a list, or names separated by commas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"lookup_customer, update_ticket")]
    pub tools: Option<NameList>,

    /// # Skills
    ///
    /// Skills the agent activates: a list, or names separated by commas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("intake wrap-up"))]
    pub skills: Option<NameList>,

    /// # Context providers
    ///
    /// Context providers the host injects, by the names its registry declares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("customer-profile"))]
    pub context: Option<NameList>,

    /// # Instructions
    ///
    /// A prompt layer placed before the system prompt and the body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Answer in the customer's language.")]
    pub instructions: Option<Spanned<Text>>,

    /// # Runbook start
    ///
    /// The skill the agent's runbook starts at; one of the skills it activates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"intake")]
    pub start: Option<Spanned<Text>>,
}
