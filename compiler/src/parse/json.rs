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

/// What VS Code reads in its own JSON files (`.vscode/mcp.json`): comments
/// and trailing commas, nothing else.
const JSONC: ParseOptions =
    ParseOptions { allow_comments: true, allow_trailing_commas: true, ..STRICT };

/// What Gemini CLI reads in its settings (`strip-json-comments`, then
/// `JSON.parse`): comments, and no trailing comma.
const COMMENTS: ParseOptions = ParseOptions { allow_comments: true, ..STRICT };

/// Parses JSON with comments and no trailing comma, as Gemini CLI does.
pub fn parse_with_comments(text: &str) -> Result<Parsed, SyntaxError> {
    parse_with(text, &COMMENTS)
}

/// Parses a JSON text; spans are byte offsets into `text`.
pub fn parse(text: &str) -> Result<Parsed, SyntaxError> {
    parse_with(text, &STRICT)
}

/// Parses JSON with comments and trailing commas, as VS Code does.
pub fn parse_jsonc(text: &str) -> Result<Parsed, SyntaxError> {
    parse_with(text, &JSONC)
}

fn parse_with(text: &str, options: &ParseOptions) -> Result<Parsed, SyntaxError> {
    check_depth(text, options.allow_comments)?;
    let collect = CollectOptions { comments: CommentCollectionStrategy::Off, tokens: false };
    let result = jsonc_parser::parse_to_ast(text, &collect, options).map_err(|err| {
        let range = err.range();
        let end = if range.end > range.start {
            range.end
        } else {
            text[range.start..].chars().next().map_or(range.start, |c| range.start + c.len_utf8())
        };
        SyntaxError {
            span: Span::new(range.start, end),
            message: err.kind().to_string(),
            scanned: true,
        }
    })?;
    let Some(value) = result.value else {
        return Err(SyntaxError {
            span: Span::new(0, 0),
            message: "the file is empty; a JSON object was expected".into(),
            scanned: false,
        });
    };
    let mut duplicates = Vec::new();
    let root = convert(text, &value, &mut duplicates);
    if let Some(span) = first_overflow(&root) {
        return Err(SyntaxError {
            span,
            message: "the number is too large to represent".into(),
            scanned: false,
        });
    }
    Ok(Parsed { root, duplicates })
}

/// Refuses nesting deeper than [`MAX_DEPTH`] before the recursive parser
/// sees it; with `comments`, brackets and quotes inside comments are not counted.
fn check_depth(text: &str, comments: bool) -> Result<(), SyntaxError> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let bytes = text.as_bytes();
    let mut skip_to = 0usize;
    for (i, b) in text.bytes().enumerate() {
        if i < skip_to {
            continue;
        }
        if comments && !in_string && b == b'/' {
            let rest = &text[i..];
            if rest.starts_with("//") {
                skip_to = rest.find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            if let Some(inside) = rest.strip_prefix("/*") {
                skip_to = inside.find("*/").map_or(bytes.len(), |n| i + 2 + n + 2);
                continue;
            }
        }
        if in_string {
            match (escaped, b) {
                (_, 0..=0x1f) => {
                    return Err(SyntaxError {
                        span: Span::new(i, i + 1),
                        message: format!(
                            "a control character (U+{b:04X}) inside a string; JSON needs it escaped, e.g. `\\t` or `\\n`"
                        ),
                        scanned: false,
                    });
                }
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
                        scanned: false,
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

fn convert(text: &str, value: &ast::Value<'_>, duplicates: &mut Vec<DuplicateKey>) -> Node {
    match value {
        ast::Value::StringLit(s) => Node::string(span(s.range), s.value.to_string(), text, 0),
        ast::Value::NumberLit(n) => Node::new(span(n.range), number(n.value)),
        ast::Value::BooleanLit(b) => Node::new(span(b.range), Value::Bool(b.value)),
        ast::Value::NullKeyword(n) => Node::new(span(n.range), Value::Null),
        ast::Value::Array(a) => Node::new(
            span(a.range),
            Value::Seq(a.elements.iter().map(|v| convert(text, v, duplicates)).collect()),
        ),
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
                entries.push(Entry {
                    key,
                    key_span,
                    value: convert(text, &prop.value, duplicates),
                });
            }
            Node::new(span(o.range), Value::Map(entries))
        }
    }
}

/// A number literal too large for a float (`1e999`), which would otherwise
/// silently become infinity.
fn first_overflow(node: &Node) -> Option<Span> {
    match &node.value {
        Value::Float(f) if f.is_infinite() => Some(node.span),
        Value::Seq(items) => items.iter().find_map(first_overflow),
        Value::Map(entries) => entries.iter().find_map(|e| first_overflow(&e.value)),
        _ => None,
    }
}

fn number(text: &str) -> Value {
    if let Ok(i) = text.parse::<i64>() {
        return Value::Int(i);
    }
    if let Ok(u) = text.parse::<u64>() {
        return Value::UInt(u);
    }
    if text.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
        return Value::BigInt(text.to_owned());
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
    fn raw_control_characters_and_overflowing_numbers_are_refused() {
        assert!(parse("{\"a\": \"x\ty\"}").unwrap_err().message.contains("U+0009"));
        assert!(parse("{\"a\": 1e999}").unwrap_err().message.contains("too large"));
        assert!(parse("{\"a\": \"x\\ty\"}").is_ok());
    }

    #[test]
    fn deep_nesting_is_refused() {
        assert!(parse(&"[".repeat(100_000)).is_err());
    }

    #[test]
    fn jsonc_reads_comments_and_trailing_commas_only() {
        let parsed = parse_jsonc("{\n  // \"a [ quote\n  \"a\": [1, 2,], /* { */\n}").unwrap();
        let Value::Map(entries) = &parsed.root.value else { panic!() };
        assert_eq!(entries[0].key, "a");
        assert!(parse_jsonc("{'a': 1}").is_err());
        assert!(parse("{// c\n}").is_err());
    }
}
