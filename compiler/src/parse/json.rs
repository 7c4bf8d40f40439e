//! Strict JSON into a [`Node`] tree, on `jsonc-parser`'s AST.
//!
//! Every JSON5/JSONC extension is switched off, so only RFC 8259 JSON is
//! accepted; the AST keeps duplicate keys, which are reported here.

use std::collections::HashMap;

use agentc_schema::Span;
use jsonc_parser::ast::{self, ObjectPropName};
use jsonc_parser::{CollectOptions, CommentCollectionStrategy, ParseOptions};

use super::tree::{DuplicateKey, Entry, MAX_DEPTH, Node, Value};
use super::yaml::SyntaxError;

/// What reading a JSON text produced.
#[derive(Debug)]
pub struct Parsed {
    pub root: Node,
    pub duplicates: Vec<DuplicateKey>,
}

const STRICT: ParseOptions = ParseOptions {
    allow_comments: false,
    allow_loose_object_property_names: false,
    allow_trailing_commas: false,
    allow_missing_commas: false,
    allow_single_quoted_strings: false,
    allow_hexadecimal_numbers: false,
    allow_unary_plus_numbers: false,
    allow_bare_decimal_point_numbers: false,
    allow_non_finite_numbers: false,
    allow_extended_string_escapes: false,
};

/// Parses a JSON text; spans are byte offsets into `text`.
pub fn parse(text: &str) -> Result<Parsed, SyntaxError> {
    check_depth(text)?;
    let collect = CollectOptions { comments: CommentCollectionStrategy::Off, tokens: false };
    let result = jsonc_parser::parse_to_ast(text, &collect, &STRICT).map_err(|err| {
        let range = err.range();
        let end = if range.end > range.start {
            range.end
        } else {
            text[range.start..].chars().next().map_or(range.start, |c| range.start + c.len_utf8())
        };
        SyntaxError { span: Span::new(range.start, end), message: err.kind().to_string() }
    })?;
    let Some(value) = result.value else {
        return Err(SyntaxError {
            span: Span::new(0, 0),
            message: "the file is empty; a JSON object was expected".into(),
        });
    };
    let mut duplicates = Vec::new();
    let root = convert(&value, &mut duplicates);
    Ok(Parsed { root, duplicates })
}

/// Refuses nesting deeper than [`MAX_DEPTH`] before the recursive parser sees it.
fn check_depth(text: &str) -> Result<(), SyntaxError> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, b) in text.bytes().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(SyntaxError {
                        span: Span::new(i, i + 1),
                        message: format!("arrays and objects nest deeper than {MAX_DEPTH} levels"),
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn span(range: jsonc_parser::common::Range) -> Span {
    Span::new(range.start, range.end)
}

fn convert(value: &ast::Value<'_>, duplicates: &mut Vec<DuplicateKey>) -> Node {
    match value {
        ast::Value::StringLit(s) => {
            Node { span: span(s.range), value: Value::Str(s.value.to_string()) }
        }
        ast::Value::NumberLit(n) => Node { span: span(n.range), value: number(n.value) },
        ast::Value::BooleanLit(b) => Node { span: span(b.range), value: Value::Bool(b.value) },
        ast::Value::NullKeyword(n) => Node { span: span(n.range), value: Value::Null },
        ast::Value::Array(a) => Node {
            span: span(a.range),
            value: Value::Seq(a.elements.iter().map(|v| convert(v, duplicates)).collect()),
        },
        ast::Value::Object(o) => {
            let mut seen: HashMap<String, Span> = HashMap::new();
            let mut entries = Vec::with_capacity(o.properties.len());
            for prop in &o.properties {
                let (key, key_span) = match &prop.name {
                    ObjectPropName::String(s) => (s.value.to_string(), span(s.range)),
                    ObjectPropName::Word(w) => (w.value.to_string(), span(w.range)),
                };
                if let Some(first) = seen.get(&key) {
                    duplicates.push(DuplicateKey { key, first: *first, second: key_span });
                    continue;
                }
                seen.insert(key.clone(), key_span);
                entries.push(Entry { key, key_span, value: convert(&prop.value, duplicates) });
            }
            Node { span: span(o.range), value: Value::Map(entries) }
        }
    }
}

fn number(text: &str) -> Value {
    if let Ok(i) = text.parse::<i64>() {
        return Value::Int(i);
    }
    if let Ok(u) = text.parse::<u64>() {
        return Value::UInt(u);
    }
    text.parse::<f64>().map_or_else(|_| Value::Str(text.to_owned()), Value::Float)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_keep_their_spans() {
        let parsed = parse("{\n  \"tools\": [\"a\", \"bc\"]\n}").unwrap();
        let Value::Map(entries) = &parsed.root.value else { panic!() };
        assert_eq!(entries[0].key_span, Span::new(4, 11));
        let Value::Seq(items) = &entries[0].value.value else { panic!() };
        assert_eq!(items[1].span, Span::new(19, 23));
    }

    #[test]
    fn extensions_are_refused_at_the_offending_character() {
        let err = parse("{\"a\": 1,}").unwrap_err();
        assert_eq!(err.span.start, 7, "{err:?}");
        assert!(parse("{// c\n}").is_err());
        assert!(parse("{'a': 1}").is_err());
        assert!(parse("").is_err());
    }

    #[test]
    fn duplicates_are_reported() {
        let parsed = parse(r#"{"a": 1, "a": 2}"#).unwrap();
        assert_eq!(parsed.duplicates.len(), 1);
        assert_eq!(parsed.duplicates[0].second, Span::new(9, 12));
    }

    #[test]
    fn deep_nesting_is_refused() {
        assert!(parse(&"[".repeat(100_000)).is_err());
    }
}
