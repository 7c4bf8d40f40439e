//! The located value tree both YAML and JSON are read into.
//!
//! Every node keeps the byte range it was written at, so the decoder can point a
//! diagnostic at the value itself. Duplicate keys never reach the tree: the
//! readers report them and keep the first occurrence.

use agentc_schema::Span;

/// A value with its source range.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub span: Span,
    pub value: Value,
    /// For a string: where its characters appear verbatim in the file (after
    /// an opening quote), when they do — no escapes, no folded lines. Tokens
    /// inside the string (a comma list, a guard) get exact spans from it.
    pub text_at: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    /// An integer beyond 64 bits, as written: as a float it would change its
    /// digits, and such a scalar is more often a name or a key than a quantity.
    BigInt(String),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

/// A mapping entry; the key is a string scalar with its own span.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_span: Span,
    pub value: Node,
}

impl Node {
    pub fn new(span: Span, value: Value) -> Node {
        Node { span, value, text_at: None }
    }

    /// A string node; `source` is the text `span` is an offset into (from `base`).
    pub fn string(span: Span, value: String, source: &str, base: usize) -> Node {
        let written = |start: usize, end: usize| source.get(start - base..end - base);
        let text_at = if span.end >= span.start + value.len() && span.start >= base {
            if written(span.start, span.end) == Some(value.as_str()) {
                Some(span.start)
            } else if span.len() == value.len() + 2
                && written(span.start + 1, span.end - 1) == Some(value.as_str())
            {
                Some(span.start + 1)
            } else {
                None
            }
        } else {
            None
        };
        Node { span, value: Value::Str(value), text_at }
    }
    /// A list's items, or the value itself: for keys that take one value or
    /// a list of them (`paths`, a plugin's component paths).
    pub fn one_or_many(&self) -> Vec<&Node> {
        match &self.value {
            Value::Seq(items) => items.iter().collect(),
            _ => vec![self],
        }
    }

    /// What kind of value this is, for messages ("found a list").
    pub fn describe(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) | Value::UInt(_) | Value::BigInt(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// Counts the nodes in this subtree (used to bound alias expansion).
    pub fn size(&self) -> usize {
        1 + match &self.value {
            Value::Seq(items) => items.iter().map(Node::size).sum(),
            Value::Map(entries) => entries.iter().map(|e| 1 + e.value.size()).sum(),
            _ => 0,
        }
    }

    /// The bytes of text in this subtree (to bound what aliases copy).
    pub fn text_bytes(&self) -> usize {
        match &self.value {
            Value::Str(s) | Value::BigInt(s) => s.len(),
            Value::Seq(items) => items.iter().map(Node::text_bytes).sum(),
            Value::Map(entries) => entries.iter().map(|e| e.key.len() + e.value.text_bytes()).sum(),
            _ => 0,
        }
    }

    /// The value as plain JSON (for metadata kept as written).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::UInt(u) => J::from(*u),
            Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
            Value::Str(s) | Value::BigInt(s) => J::String(s.clone()),
            Value::Seq(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => {
                J::Object(entries.iter().map(|e| (e.key.clone(), e.value.to_json())).collect())
            }
        }
    }
}

/// A duplicate key found while building a mapping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateKey {
    pub key: String,
    pub first: Span,
    pub second: Span,
}

/// How deep collections may nest; deeper input is refused before it can
/// exhaust the stack.
pub const MAX_DEPTH: usize = 128;
