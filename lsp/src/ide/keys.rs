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

/// A step from a document's top into it: a key of a map, or an item of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Item,
}

/// The published schema of `kind`, made once.
fn schema(kind: Kind) -> &'static Value {
    static ALL: OnceLock<HashMap<Kind, Value>> = OnceLock::new();
    let all = ALL.get_or_init(|| Kind::ALL.into_iter().map(|k| (k, k.schema())).collect());
    &all[&kind]
}

/// The keys of `kind`, in the schema's order.
pub fn keys(kind: Kind) -> &'static [KeyDoc] {
    static ALL: OnceLock<HashMap<Kind, Vec<KeyDoc>>> = OnceLock::new();
    let all = ALL
        .get_or_init(|| Kind::ALL.into_iter().map(|k| (k, read(schema(k), schema(k)))).collect());
    all.get(&kind).map_or(&[], Vec::as_slice)
}

/// The key `name` of `kind`.
pub fn key(kind: Kind, name: &str) -> Option<&'static KeyDoc> {
    keys(kind).iter().find(|k| k.key == name)
}

/// The keys the schema of `kind` names for the map at `path`.
pub fn keys_at(kind: Kind, path: &[Step]) -> Vec<KeyDoc> {
    if path.is_empty() {
        return keys(kind).to_vec();
    }
    let root = schema(kind);
    let mut out: Vec<KeyDoc> = Vec::new();
    for node in nodes_at(root, path) {
        for doc in read(root, node) {
            if !out.iter().any(|k| k.key == doc.key) {
                out.push(doc);
            }
        }
    }
    out
}

/// The fixed values the schema of `kind` allows at `path`, with what each
/// means; `true` and `false` where it takes a boolean.
pub fn values_at(kind: Kind, path: &[Step]) -> Vec<(String, Option<String>)> {
    let root = schema(kind);
    let mut out = Vec::new();
    for node in nodes_at(root, path) {
        collect_values(root, node, 0, &mut out);
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|(value, _)| seen.insert(value.clone()));
    out
}

/// The schemas that may describe what is at `path`: every branch of a union
/// that has the step.
fn nodes_at<'s>(root: &'s Value, path: &[Step]) -> Vec<&'s Value> {
    let mut nodes = vec![root];
    for step in path {
        let mut next = Vec::new();
        for node in nodes.iter().flat_map(|n| branches(root, n, 0)) {
            let child = match step {
                Step::Key(key) => (node.get("properties").and_then(|p| p.get(key)))
                    .or_else(|| node.get("additionalProperties").filter(|v| v.is_object())),
                Step::Item => node.get("items"),
            };
            next.extend(child);
        }
        nodes = next;
    }
    nodes.into_iter().flat_map(|n| branches(root, n, 0)).collect()
}

/// `node` with its `$ref` followed and its unions spread.
fn branches<'s>(root: &'s Value, node: &'s Value, depth: usize) -> Vec<&'s Value> {
    // Schemas here nest a few levels; a bound keeps a cyclic `$ref` finite.
    if depth > 6 {
        return Vec::new();
    }
    if let Some(target) = reference(root, node) {
        return branches(root, target, depth + 1);
    }
    let mut out = vec![node];
    for union in ["oneOf", "anyOf", "allOf"] {
        for branch in node.get(union).and_then(Value::as_array).into_iter().flatten() {
            out.extend(branches(root, branch, depth + 1));
        }
    }
    out
}

fn reference<'s>(root: &'s Value, node: &Value) -> Option<&'s Value> {
    let name = node.get("$ref")?.as_str()?.strip_prefix("#/definitions/")?;
    root.get("definitions")?.get(name)
}

fn read(root: &Value, schema: &Value) -> Vec<KeyDoc> {
    let required: Vec<&str> = (schema.get("required").and_then(Value::as_array))
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(key, property)| {
            let text = |field: &str| {
                (property.get(field).or_else(|| reference(root, property)?.get(field)))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            };
            let mut values = Vec::new();
            collect_values(root, property, 0, &mut values);
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
    if node.get("type").and_then(Value::as_str) == Some("boolean") {
        out.extend(["true", "false"].map(|v| (v.to_owned(), None)));
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
    if let Some(target) = reference(root, node) {
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
