//! The outline of a file: its top-level keys, and the items of its lists
//! (tools, steps, routes, handoffs) as their children.

use agentc_schema::Span;

use super::Analysis;
use agentc_compiler::diagnostic::RelPath;
use agentc_compiler::parse::tree::{Node, Value};

/// One entry of the outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutlineItem {
    pub name: String,
    /// The value, shortened, beside the name.
    pub detail: Option<String>,
    pub kind: OutlineKind,
    /// The whole entry, and the part to select (the key, or the item's name).
    pub span: Span,
    pub selection: Span,
    pub children: Vec<OutlineItem>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutlineKind {
    Key,
    Item,
}

/// The longest value shown beside a name.
const DETAIL_CHARS: usize = 60;

pub(super) fn outline(analysis: &Analysis<'_>, file: &RelPath) -> Vec<OutlineItem> {
    let Some(Value::Map(entries)) = analysis.tree(file).map(|tree| &tree.value) else {
        return Vec::new();
    };
    entries
        .iter()
        .map(|entry| OutlineItem {
            name: entry.key.clone(),
            detail: scalar(&entry.value).map(shorten),
            kind: OutlineKind::Key,
            span: Span::new(entry.key_span.start, entry.value.span.end.max(entry.key_span.end)),
            selection: entry.key_span,
            children: items(&entry.value),
        })
        .collect()
}

/// The items of a list: a name, or a one-entry mapping `name: detail`.
fn items(node: &Node) -> Vec<OutlineItem> {
    let Value::Seq(items) = &node.value else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let (name, detail, selection) = match &item.value {
                Value::Str(name) => (name.clone(), None, item.span),
                Value::Map(entries) => {
                    let first = entries.first()?;
                    let detail = scalar(&first.value).map(shorten);
                    (first.key.clone(), detail, first.key_span)
                }
                _ => return None,
            };
            Some(OutlineItem {
                name,
                detail,
                kind: OutlineKind::Item,
                span: item.span,
                selection,
                children: Vec::new(),
            })
        })
        .collect()
}

fn scalar(node: &Node) -> Option<&str> {
    match &node.value {
        Value::Str(text) => Some(text),
        _ => None,
    }
}

fn shorten(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    match line.char_indices().nth(DETAIL_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}
