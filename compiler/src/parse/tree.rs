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

/// A document's located tree, as its [`Document`](super::files::Document)
/// keeps it. The parse builds it and decodes the typed value from it; the
/// owner of a parse that holds many documents (a project's skills, agents,
/// tools) lets it go once the parse's own checks are done
/// ([`Tree::release`]), keeping only the names of its top-level keys. It is
/// built again from the file's text when it is asked for after that: kept
/// again by a check that reports on a key or by the editor ([`Tree::node`]),
/// or only for the moment by a look at a key's value ([`Tree::with`]). A
/// project of 10,000 skills kept 30 MB of trees nobody read again.
#[derive(Clone)]
pub struct Tree {
    /// Boxed: most trees are let go, and an empty box is a word.
    node: std::sync::OnceLock<Box<Node>>,
    /// How to build the same tree again; none when it cannot be (the text
    /// is not the file's), and then it is never let go.
    again: Option<std::sync::Arc<dyn Fn() -> Node + Send + Sync>>,
    /// Once let go: the top-level keys, in order, each followed by `\n`
    /// (none when the root is not a mapping). A key holding a line break
    /// reads as more keys than it is: [`Tree::has_key`] may then say yes
    /// where the tree says no, never the other way round.
    keys: Box<str>,
}

impl Tree {
    /// A tree built, kept for good.
    pub fn kept(node: Node) -> Tree {
        Tree { node: std::sync::OnceLock::from(Box::new(node)), again: None, keys: Box::default() }
    }

    /// A tree built, and `again` to build the same one when it was let go.
    pub fn rebuildable(node: Node, again: impl Fn() -> Node + Send + Sync + 'static) -> Tree {
        let again: std::sync::Arc<dyn Fn() -> Node + Send + Sync> = std::sync::Arc::new(again);
        let node = std::sync::OnceLock::from(Box::new(node));
        Tree { node, again: Some(again), keys: Box::default() }
    }

    /// Lets the tree go when it can be built again, keeping its top-level keys.
    pub fn release(&mut self) {
        if self.again.is_none() {
            return;
        }
        let Some(node) = self.node.take() else {
            return;
        };
        let mut keys = String::new();
        if let Value::Map(entries) = &node.value {
            for entry in entries {
                keys.push_str(&entry.key);
                keys.push('\n');
            }
        }
        self.keys = keys.into_boxed_str();
    }

    /// Whether the tree is held now: never let go, or built again and kept.
    pub fn is_held(&self) -> bool {
        self.node.get().is_some()
    }

    /// The tree, built again and kept if it was let go.
    pub fn node(&self) -> &Node {
        self.node.get_or_init(|| Box::new(self.build()))
    }

    /// `f` of the tree; one that was let go is built for `f` alone.
    pub fn with<R>(&self, f: impl FnOnce(&Node) -> R) -> R {
        match self.node.get() {
            Some(node) => f(node),
            None => f(&self.build()),
        }
    }

    /// The top-level keys, in order, without building the tree again.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        let held = self.node.get().map(|node| match &node.value {
            Value::Map(entries) => entries.iter().map(|e| e.key.as_str()).collect(),
            _ => Vec::new(),
        });
        let released = held.is_none().then(|| self.keys.split_terminator('\n'));
        held.into_iter().flatten().chain(released.into_iter().flatten())
    }

    /// Whether the root is a mapping with the top-level key `key`.
    pub fn has_key(&self, key: &str) -> bool {
        self.keys().any(|k| k == key)
    }

    fn build(&self) -> Node {
        match &self.again {
            Some(again) => again(),
            // Unreachable: only a tree that can be built again is let go.
            None => Node::new(Span::new(0, 0), Value::Null),
        }
    }
}

impl std::ops::Deref for Tree {
    type Target = Node;

    fn deref(&self) -> &Node {
        self.node()
    }
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.with(|node| node.fmt(f))
    }
}
