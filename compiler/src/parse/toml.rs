//! TOML (the project file, `agentc.toml`) into a [`Node`] tree, on
//! `toml_edit`'s parser, which keeps the span of every key and value: Cargo's
//! own reader, so the file reads as `Cargo.toml` does.

use agentc_schema::Span;
use toml_edit::{Item, Value as TomlValue};

use super::tree::{Node, Value};
use super::yaml::SyntaxError;

/// Reads `text` into a tree. TOML refuses a repeated key itself, so the tree
/// never holds one.
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    let document = toml_edit::Document::parse(text).map_err(|err| {
        let span = err.span().map_or(Span::new(0, 0), |r| Span::new(r.start, r.end));
        SyntaxError { span, message: err.message().trim().to_owned(), scanned: true }
    })?;
    Ok(table(document.as_table(), Span::new(0, text.len()), text))
}

fn span(range: Option<std::ops::Range<usize>>, fallback: Span) -> Span {
    range.map_or(fallback, |r| Span::new(r.start, r.end))
}

fn table(table: &toml_edit::Table, at: Span, text: &str) -> Node {
    let entries = table
        .iter()
        .map(|(key, item)| {
            let key_span = span(table.key(key).and_then(|k| k.span()), at);
            entry(key, key_span, item, text)
        })
        .collect();
    Node::new(at, Value::Map(entries))
}

fn entry(key: &str, key_span: Span, item: &Item, text: &str) -> super::tree::Entry {
    let at = span(item.span(), key_span);
    let value = match item {
        Item::Value(value) => self::value(value, text),
        Item::Table(inner) => table(inner, at, text),
        Item::ArrayOfTables(tables) => Node::new(
            at,
            Value::Seq(tables.iter().map(|t| table(t, span(t.span(), at), text)).collect()),
        ),
        Item::None => Node::new(at, Value::Null),
    };
    super::tree::Entry { key: key.to_owned(), key_span, value }
}

fn value(value: &TomlValue, text: &str) -> Node {
    let at = span(value.span(), Span::new(0, 0));
    match value {
        TomlValue::String(s) => Node::string(at, s.value().clone(), text, 0),
        TomlValue::Integer(i) => Node::new(at, Value::Int(*i.value())),
        TomlValue::Float(f) => Node::new(at, Value::Float(*f.value())),
        TomlValue::Boolean(b) => Node::new(at, Value::Bool(*b.value())),
        // No field of the project file is a date: it is refused as a string would be.
        TomlValue::Datetime(d) => Node::new(at, Value::Str(d.value().to_string())),
        TomlValue::Array(items) => {
            Node::new(at, Value::Seq(items.iter().map(|v| self::value(v, text)).collect()))
        }
        TomlValue::InlineTable(inline) => {
            let entries = inline
                .iter()
                .map(|(key, v)| {
                    let key_span = span(inline.key(key).and_then(|k| k.span()), at);
                    super::tree::Entry {
                        key: key.to_owned(),
                        key_span,
                        value: self::value(v, text),
                    }
                })
                .collect();
            Node::new(at, Value::Map(entries))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_values_keep_their_spans() {
        let text = "root = \"agents\"\nexclude = [\"repo-skills\"]\n";
        let tree = parse(text).unwrap();
        let Value::Map(entries) = &tree.value else { panic!("{tree:?}") };
        assert_eq!(&text[entries[0].key_span.start..entries[0].key_span.end], "root");
        let value = entries[0].value.span;
        assert_eq!(&text[value.start..value.end], "\"agents\"");
        assert_eq!(entries[0].value.text_at, Some(8));
        let Value::Seq(items) = &entries[1].value.value else { panic!() };
        assert_eq!(&text[items[0].span.start..items[0].span.end], "\"repo-skills\"");
    }

    #[test]
    fn syntax_errors_have_a_position() {
        let err = parse("root = \n").unwrap_err();
        assert!(err.span.start <= 8, "{err:?}");
        assert!(parse("a = 1\na = 2\n").is_err());
    }
}
