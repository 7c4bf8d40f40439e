//! The fix for a misspelt key: renaming it to the field it was meant to be.

use agentc_schema::Span;

use super::tree::{Entry, Node, Value};
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// Where `value` is written at `span` of `text` character for character:
/// the span itself (a plain scalar), or inside one pair of quotes. `None`
/// when it is written with escapes or folded, which a fix leaves alone.
pub fn written_span(text: &str, span: Span, value: &str) -> Option<Span> {
    let written = text.get(span.start..span.end)?;
    if written == value {
        return Some(span);
    }
    let inner = written
        .strip_prefix('"')
        .and_then(|w| w.strip_suffix('"'))
        .or_else(|| written.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')))?;
    (inner == value).then(|| Span::new(span.start + 1, span.end - 1))
}

/// The keys of one document, to tell whether renaming a key would collide.
pub struct Keys<'t> {
    pub tree: &'t Node,
    /// The top-level entries set aside as outside the dialect's fields (no
    /// longer in `tree`).
    pub aside: &'t [(Entry, &'static [&'static str])],
}

impl Keys<'_> {
    /// The field `key` (written at `span`) is a typo of, with the span of its
    /// text, when `--fix` may rename it: the one field one edit (or a case
    /// difference) away, which is also the suggestion shown, written in
    /// neither of the key's mapping already, and a key written as read.
    pub fn rename(
        &self,
        source: &Source,
        span: Span,
        key: &str,
        expected: &[&'static str],
    ) -> Option<(&'static str, Span)> {
        let field = confident(key, expected.iter().copied())?;
        if did_you_mean(key, expected.iter().copied()) != Some(field) || field == key {
            return None;
        }
        let top = match &self.tree.value {
            Value::Map(entries) => entries.as_slice(),
            _ => &[],
        };
        let has = |entries: &[Entry]| entries.iter().any(|e| e.key == field);
        let taken = match siblings(self.tree, span) {
            Some(entries) if !std::ptr::eq(entries, top) => has(entries),
            _ => has(top) || self.aside.iter().any(|(e, _)| e.key == field),
        };
        if taken {
            return None;
        }
        Some((field, written_span(&source.text, span, key)?))
    }
}

/// The entries of the mapping holding the key written at `span`.
fn siblings(node: &Node, span: Span) -> Option<&[Entry]> {
    match &node.value {
        Value::Map(entries) => {
            if entries.iter().any(|e| e.key_span == span) {
                return Some(entries);
            }
            entries.iter().find_map(|e| siblings(&e.value, span))
        }
        Value::Seq(items) => items.iter().find_map(|item| siblings(item, span)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::RelPath;

    /// The fixes of the diagnostics about a tool manifest of `text`.
    fn fixes(text: &str) -> Vec<Option<String>> {
        let source = Source::new(RelPath::root("tools/x/manifest.json"), text);
        let mut out = Vec::new();
        crate::parse::files::tool_manifest(&source, "x", &mut out);
        out.iter().map(|d| d.fix.as_ref().map(|f| f.message.clone())).collect()
    }

    #[test]
    fn a_key_is_renamed_only_where_its_new_name_is_free() {
        let fixed = fixes(r#"{"descripton": "Looks it up.", "nested": 1}"#);
        assert!(fixed.contains(&Some("rename `descripton` to `description`".into())), "{fixed:?}");
        // Renaming would write a second `description`: the help says it, no fix does.
        let both = fixes(r#"{"description": "Looks it up.", "descripton": "Again."}"#);
        assert_eq!(both, [None], "{both:?}");
    }

    #[test]
    fn a_key_is_replaced_inside_its_quotes_and_never_through_escapes() {
        let text = r#"{"descripton": 1, "na\u006de": 2}"#;
        assert_eq!(written_span(text, Span::new(1, 13), "descripton"), Some(Span::new(2, 12)));
        assert_eq!(written_span(text, Span::new(18, 29), "name"), None);
        assert_eq!(written_span("onSkp: hold", Span::new(0, 5), "onSkp"), Some(Span::new(0, 5)));
    }
}
