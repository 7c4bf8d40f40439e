//! The `SKILL.md` frontmatter: a skill and its runbook (tools, steps, routes).

use std::collections::BTreeMap;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::{Serialize, Serializer};

use crate::dialect::ToolRules;
use crate::guard::GUARD_PATTERN;
use crate::span::{Span, Spanned};
use crate::values::{NameList, NonEmpty, Text};

/// # SKILL.md — the frontmatter of a skill
///
/// The YAML block at the top of `SKILL.md`; the Markdown after it is the skill's
/// body. One type serves every skill dialect: the Agent Skills fields, Claude
/// Code's additions, and agentc's runbook fields. Each dialect reads the subset
/// [`crate::Dialect::skill_fields`] names; keys outside it are kept as metadata
/// (with a warning).
// The fields few skills write are boxed: a project holds the frontmatter of
// every skill it has (880 bytes each unboxed, 10 MB at 10,000 skills).
#[derive(Clone, Debug, serde::Deserialize, Serialize, JsonSchema)]
#[schemars(title = "SKILL.md frontmatter", extend("$id" = "https://agentc.dev/schemas/skill.schema.json"))]
pub struct SkillFrontmatter {
    /// # Name
    ///
    /// The skill's id, in lowercase kebab-case; it must equal the folder name.
    #[schemars(example = &"refund-review", pattern(crate::names::NAME_PATTERN))]
    pub name: Spanned<Text>,

    /// # Description
    ///
    /// When to use the skill: all the model sees before it opens the skill.
    #[schemars(example = &"Use when a customer disputes a charge.", length(max = 1024))]
    pub description: Spanned<Text>,

    /// # License
    ///
    /// The license the skill is offered under: a name or a bundled file (Agent Skills).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Apache-2.0")]
    pub license: Option<Box<Spanned<Text>>>,

    /// # Compatibility
    ///
    /// The environment the skill needs (products, packages, network), at most 500
    /// characters (Agent Skills).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Needs git and network access", length(max = 500))]
    pub compatibility: Option<Box<Spanned<Text>>>,

    /// # Metadata
    ///
    /// Further properties, string keys to string values (Agent Skills).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"author": "support-team", "version": "1.0"}))]
    pub metadata: Option<BTreeMap<String, String>>,

    /// # Allowed tools
    ///
    /// Tools the skill is pre-approved to use, in the host's own names: a list, or
    /// one string separated by spaces (Agent Skills, experimental). Not checked
    /// against agentc's registry.
    #[serde(rename = "allowed-tools", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Read Bash(git log:*)")]
    pub allowed_tools: Option<ToolRules>,

    /// # When to use
    ///
    /// More about when to use the skill, appended to the description (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"When the user asks to cut a release.")]
    pub when_to_use: Option<Box<Spanned<Text>>>,

    /// # Argument hint
    ///
    /// What arguments the slash command takes, shown while typing (Claude Code).
    #[serde(rename = "argument-hint", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"[issue-number]")]
    pub argument_hint: Option<Box<Spanned<crate::values::Hint>>>,

    /// # Arguments
    ///
    /// Named arguments for `$name` substitution in the body: a list or one
    /// string separated by spaces (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"issue branch")]
    pub arguments: Option<ToolRules>,

    /// # Disable model invocation
    ///
    /// When true, only a person can start the skill, never the model (Claude Code).
    #[serde(rename = "disable-model-invocation", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = true)]
    pub disable_model_invocation: Option<bool>,

    /// # User invocable
    ///
    /// When false, the skill is hidden from the slash-command menu (Claude Code).
    #[serde(rename = "user-invocable", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = false)]
    pub user_invocable: Option<bool>,

    /// # Disallowed tools
    ///
    /// Tools removed while the skill is active (Claude Code).
    #[serde(rename = "disallowed-tools", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"WebFetch")]
    pub disallowed_tools: Option<ToolRules>,

    /// # Model
    ///
    /// The model while the skill runs: an alias (`sonnet`, `opus`, `haiku`,
    /// `inherit`) or a full model id (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"sonnet")]
    pub model: Option<Box<Spanned<Text>>>,

    /// # Effort
    ///
    /// How hard the model thinks while the skill runs (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"high")]
    pub effort: Option<Box<Spanned<crate::assistant::ClaudeEffort>>>,

    /// # Context
    ///
    /// `fork` runs the skill in a subagent of its own (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"fork")]
    pub context: Option<Box<Spanned<crate::assistant::SkillContext>>>,

    /// # Agent
    ///
    /// The subagent type a forked skill runs in (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Explore")]
    pub agent: Option<Box<Spanned<Text>>>,

    /// # Hooks
    ///
    /// Hooks active while the skill runs, in Claude Code's hooks format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"PostToolUse": []}))]
    pub hooks: Option<Box<serde_json::Value>>,

    /// # Paths
    ///
    /// Glob patterns of files that make the skill relevant (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"src/**/*.rs")]
    pub paths: Option<NameList>,

    /// # Shell
    ///
    /// The shell for the skill's inline commands (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"bash")]
    pub shell: Option<Box<Spanned<crate::assistant::Shell>>>,

    /// # Tools
    ///
    /// Tools the skill uses, by name: a list, or names separated by commas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"lookup_order, issue_refund")]
    pub tools: Option<NameList>,

    /// # Steps
    ///
    /// The runbook's steps in order, each `- <tool>: <why>` naming one of the skill's tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!([{"lookup_order": "look up the order before touching money"}]))]
    pub steps: Option<NonEmpty<Spanned<Step>>>,

    /// # On skip
    ///
    /// What happens when a step is skipped: `advance` to the next, or `hold`. Only with `steps`.
    #[schemars(example = &"hold")]
    #[serde(rename = "onSkip", default, skip_serializing_if = "Option::is_none")]
    pub on_skip: Option<Spanned<OnSkip>>,

    /// # Routes
    ///
    /// Where the work goes next: `- <skill>` or `- <skill>: <guard>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!([{"escalation": "on issue_refund status=denied"}, "wrap-up"]))]
    pub routes: Option<NonEmpty<Route>>,
}

/// What the runbook does when a step is skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OnSkip {
    /// Move on to the next step.
    Advance,
    /// Stay on the skipped step.
    Hold,
}

/// One step of a runbook: a tool and why it is called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub tool: Spanned<String>,
    pub why: Spanned<Text>,
}

/// Reads a one-entry mapping `key: value`, the shape of steps and guarded routes.
fn single_entry<'de, A, V>(mut map: A, what: &str) -> Result<(Spanned<String>, V), A::Error>
where
    A: MapAccess<'de>,
    V: Deserialize<'de>,
{
    let Some((key, value)) = map.next_entry::<Spanned<String>, V>()? else {
        return Err(de::Error::custom(format_args!("{what} is an empty mapping")));
    };
    if map.next_key::<de::IgnoredAny>()?.is_some() {
        return Err(de::Error::custom(format_args!(
            "{what} has more than one key; write one per list item"
        )));
    }
    if key.value.trim().is_empty() {
        return Err(crate::span::error_at(
            key.span,
            format_args!("{what} has an empty name before its `:`"),
        ));
    }
    Ok((key, value))
}

impl<'de> Deserialize<'de> for Step {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StepVisitor;

        impl<'de> Visitor<'de> for StepVisitor {
            type Value = Step;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a step written `- <tool>: <why>`")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Step, E> {
                Err(E::custom(format_args!(
                    "the step `{v}` gives no reason; write `- {v}: <why this step>`"
                )))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Step, A::Error> {
                let (tool, why) = single_entry(map, "a step")?;
                Ok(Step { tool, why })
            }
        }

        deserializer.deserialize_any(StepVisitor)
    }
}

impl Serialize for Step {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(&self.tool.value, &self.why.value)?;
        map.end()
    }
}

impl JsonSchema for Step {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Step".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A step: `<tool>: <why>`, one key naming one of the skill's tools.",
            "type": "object",
            "minProperties": 1,
            "maxProperties": 1,
            "additionalProperties": { "type": "string", "minLength": 1, "pattern": "\\S" }
        })
    }
}

/// A route to another skill, with an optional guard (see [`crate::guard`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub target: Spanned<String>,
    /// The guard as written; parse it with [`crate::guard::parse_guard`].
    pub guard: Option<Spanned<String>>,
}

impl<'de> Deserialize<'de> for Route {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        enum Raw {
            Plain(String),
            Guarded(Spanned<String>, Spanned<String>),
        }

        struct RawVisitor;

        impl<'de> Visitor<'de> for RawVisitor {
            type Value = Raw;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a route written `- <skill>` or `- <skill>: <guard>`")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Raw, E> {
                if v.trim().is_empty() {
                    return Err(E::custom("the route names no skill"));
                }
                Ok(Raw::Plain(v.to_owned()))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Raw, A::Error> {
                let (target, guard) = single_entry(map, "a route")?;
                Ok(Raw::Guarded(target, guard))
            }
        }

        impl<'de> Deserialize<'de> for Raw {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_any(RawVisitor)
            }
        }

        let raw = Spanned::<Raw>::deserialize(deserializer)?;
        Ok(match raw.value {
            // The plain target is the whole value: where its text is written
            // verbatim is where the target is, which a rename needs.
            Raw::Plain(target) => {
                let target = Spanned { value: target, span: raw.span, text_at: raw.text_at };
                Route { target, guard: None }
            }
            Raw::Guarded(target, guard) => Route { target, guard: Some(guard) },
        })
    }
}

impl Serialize for Route {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match &self.guard {
            None => self.target.serialize(serializer),
            Some(guard) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry(&self.target.value, &guard.value)?;
                map.end()
            }
        }
    }
}

impl JsonSchema for Route {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Route".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A route: `<skill>`, or `<skill>: <guard>` where the guard is `on <tool>`, `status=<s>[,<s>…]` or both.",
            "oneOf": [
                { "type": "string", "pattern": crate::names::NAME_PATTERN },
                {
                    "type": "object",
                    "minProperties": 1,
                    "maxProperties": 1,
                    "propertyNames": { "pattern": crate::names::NAME_PATTERN },
                    "additionalProperties": { "type": "string", "pattern": GUARD_PATTERN }
                }
            ]
        })
    }
}

/// Where a guard token sits in the file (see [`Spanned::token_span`]).
pub fn guard_token_span(guard: &Spanned<String>, range: std::ops::Range<usize>) -> Span {
    guard.token_span(range)
}
