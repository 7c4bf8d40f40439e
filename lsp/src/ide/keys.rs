//! What the published JSON Schemas say about each key of a file kind: hover
//! text and completions read the same schema the types generate, so an editor
//! never says anything the schemas do not.

use std::collections::HashMap;
use std::sync::OnceLock;

use agentc_schema::Kind;
use serde_json::Value;

/// One key of a file kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyDoc {
    pub key: String,
    pub title: Option<String>,
    pub description: String,
    /// The values it allows, when they are a fixed set, with what each means.
    pub values: Vec<(String, Option<String>)>,
    pub required: bool,
}

/// The keys of `kind`, in the schema's order.
pub fn keys(kind: Kind) -> &'static [KeyDoc] {
    static ALL: OnceLock<HashMap<Kind, Vec<KeyDoc>>> = OnceLock::new();
    let all = ALL.get_or_init(|| Kind::ALL.into_iter().map(|k| (k, read(&k.schema()))).collect());
    all.get(&kind).map_or(&[], Vec::as_slice)
}

/// The key `name` of `kind`.
pub fn key(kind: Kind, name: &str) -> Option<&'static KeyDoc> {
    keys(kind).iter().find(|k| k.key == name)
}

fn read(schema: &Value) -> Vec<KeyDoc> {
    let required: Vec<&str> = (schema.get("required").and_then(Value::as_array))
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(key, property)| {
            let text = |field: &str| property.get(field).and_then(Value::as_str).map(str::to_owned);
            let mut values = Vec::new();
            collect_values(schema, property, 0, &mut values);
            KeyDoc {
                key: key.clone(),
                title: text("title"),
                description: text("description").unwrap_or_default(),
                values,
                required: required.contains(&key.as_str()),
            }
        })
        .collect()
}

/// The fixed values `node` allows, following `$ref`s, unions and list items.
fn collect_values(
    root: &Value,
    node: &Value,
    depth: usize,
    out: &mut Vec<(String, Option<String>)>,
) {
    // Schemas here nest a few levels; a bound keeps a cyclic `$ref` finite.
    if depth > 6 {
        return;
    }
    let description = node.get("description").and_then(Value::as_str).map(str::to_owned);
    if let Some(value) = node.get("const").and_then(Value::as_str) {
        out.push((value.to_owned(), description));
    }
    for value in node.get("enum").and_then(Value::as_array).into_iter().flatten() {
        if let Some(value) = value.as_str() {
            out.push((value.to_owned(), None));
        }
    }
    for union in ["oneOf", "anyOf"] {
        for branch in node.get(union).and_then(Value::as_array).into_iter().flatten() {
            collect_values(root, branch, depth + 1, out);
        }
    }
    if let Some(items) = node.get("items") {
        collect_values(root, items, depth + 1, out);
    }
    let target = (node.get("$ref").and_then(Value::as_str))
        .and_then(|r| r.strip_prefix("#/definitions/"))
        .and_then(|name| root.get("definitions")?.get(name));
    if let Some(target) = target {
        collect_values(root, target, depth + 1, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_carry_the_schema_text_and_fixed_values() {
        let on_skip = key(Kind::Skill, "onSkip").unwrap();
        assert!(on_skip.description.contains("advance"), "{on_skip:?}");
        let values: Vec<&str> = on_skip.values.iter().map(|(v, _)| v.as_str()).collect();
        assert_eq!(values, ["advance", "hold"]);
        assert!(key(Kind::Skill, "name").unwrap().required);
        // A runbook's keys are not an Agent Skill's.
        assert!(key(Kind::AgentSkill, "routes").is_none());
    }
}
