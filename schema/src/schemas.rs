//! The published JSON Schemas, one per file kind, generated from the types.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};

use crate::{AgentFrontmatter, AgentManifest, Lockfile, Registry, SkillFrontmatter, ToolManifest};

/// A kind of file agentc reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Agent,
    AgentMd,
    Skill,
    Tool,
    Registry,
    Lockfile,
}

impl Kind {
    pub const ALL: [Kind; 6] =
        [Kind::Agent, Kind::AgentMd, Kind::Skill, Kind::Tool, Kind::Registry, Kind::Lockfile];

    /// The name used on the command line (`agentc schema agent`).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Agent => "agent",
            Kind::AgentMd => "agent-md",
            Kind::Skill => "skill",
            Kind::Tool => "tool",
            Kind::Registry => "registry",
            Kind::Lockfile => "lockfile",
        }
    }

    /// What files the schema is for.
    pub const fn describes(self) -> &'static str {
        match self {
            Kind::Agent => "<agent>/agent.json package manifests",
            Kind::AgentMd => "the YAML frontmatter of <agent>/AGENT.md",
            Kind::Skill => "the YAML frontmatter of SKILL.md",
            Kind::Tool => "tools/<tool>/manifest.json descriptors",
            Kind::Registry => "the --registry file (JSON or YAML)",
            Kind::Lockfile => "agents.lock",
        }
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
            Kind::Skill => draft07::<SkillFrontmatter>(),
            Kind::Tool => draft07::<ToolManifest>(),
            Kind::Registry => draft07::<Registry>(),
            Kind::Lockfile => draft07::<Lockfile>(),
        }
    }

    /// The schema as published: pretty JSON with a trailing newline.
    pub fn schema_text(self) -> String {
        let mut text = serde_json::to_string_pretty(&self.schema()).unwrap_or_default();
        text.push('\n');
        text
    }
}

fn draft07<T: JsonSchema>() -> serde_json::Value {
    let schema: Schema = SchemaSettings::draft07().into_generator().into_root_schema_for::<T>();
    let mut value = serde_json::Value::from(schema);
    strip_null(&mut value);
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
