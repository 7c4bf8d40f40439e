//! YAML 1.2 (the core schema) into a [`Node`] tree, on `saphyr-parser` events.
//!
//! Plain scalars resolve by the YAML 1.2 core schema, so `no`, `on` and `NO`
//! stay strings. Aliases are expanded against a node budget, so a
//! "billion laughs" document fails fast instead of exhausting memory.

use std::collections::HashMap;

use agentc_schema::Span;
use saphyr_parser::{Event, Parser, ScalarStyle, Span as YamlSpan};

use super::tree::{DuplicateKey, Entry, MAX_DEPTH, Node, Value};

/// How many nodes a document may expand to, aliases included.
pub const NODE_BUDGET: usize = 100_000;
/// How many bytes of text aliases may copy, so one long string repeated by
/// aliases cannot exhaust memory either.
pub const ALIAS_BYTE_BUDGET: usize = 1 << 20;

/// A YAML document that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
    /// The scanner refused the text (rather than a limit or a rule agentc
    /// enforces on text that scans): only then may the real mistake lie
    /// earlier, at a bracket left open.
    pub scanned: bool,
}

/// What reading a YAML text produced.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The document; `None` for an empty text.
    pub root: Option<Node>,
    pub duplicates: Vec<DuplicateKey>,
    /// Mapping keys that are not strings (`[a]: x`, `1: x` is fine as "1").
    pub bad_keys: Vec<Span>,
}

/// Converts character indices (what the parser reports) into byte offsets.
struct Offsets<'a> {
    text: &'a str,
    base: usize,
    /// Byte offset of each character, built only for non-ASCII text.
    table: Option<Vec<usize>>,
}

impl<'a> Offsets<'a> {
    fn new(text: &'a str, base: usize) -> Self {
        let table = (!text.is_ascii())
            .then(|| text.char_indices().map(|(i, _)| i).chain([text.len()]).collect());
        Offsets { text, base, table }
    }

    fn byte(&self, char_index: usize) -> usize {
        let local = match &self.table {
            None => char_index.min(self.text.len()),
            Some(table) => table.get(char_index).copied().unwrap_or(self.text.len()),
        };
        self.base + local
    }

    fn span(&self, span: &YamlSpan) -> Span {
        let start = self.byte(span.start.index());
        Span::new(start, self.byte(span.end.index()).max(start))
    }
}

enum Frame {
    Seq {
        span: Span,
        anchor: usize,
        items: Vec<Node>,
    },
    Map {
        span: Span,
        anchor: usize,
        entries: Vec<Entry>,
        pending_key: Option<Node>,
        seen: HashMap<String, Span>,
    },
}

/// Parses `text`, which sits at byte `base` of its file; spans are file offsets.
pub fn parse(text: &str, base: usize) -> Result<Parsed, SyntaxError> {
    let offsets = Offsets::new(text, base);
    let mut parser = Parser::new_from_str(text);
    let mut out = Parsed::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut budget = NODE_BUDGET;
    let mut copied_bytes = 0usize;
    let mut documents = 0;

    let error = |span: Span, message: String| SyntaxError { span, message, scanned: false };

    while let Some(next) = parser.next_event() {
        let (event, yspan) = match next {
            Ok(ev) => ev,
            Err(err) => {
                let at = offsets.byte(err.marker().index());
                let end = text[at - base..].chars().next().map_or(at, |c| at + c.len_utf8());
                // The scanner's own depth guard: the same limit as ours, not a
                // bracket left open.
                if err.info().contains("recursion limit") {
                    let message = format!("collections nest deeper than {MAX_DEPTH} levels");
                    return Err(error(Span::new(at, end), message));
                }
                let message = err.info().to_owned();
                return Err(SyntaxError { span: Span::new(at, end), message, scanned: true });
            }
        };
        let span = offsets.span(&yspan);
        let node = match event {
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(error(
                        span,
                        "the frontmatter holds more than one YAML document".into(),
                    ));
                }
                continue;
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => continue,
            Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                check_tag(tag.as_deref(), span, false)?;
                if stack.len() >= MAX_DEPTH {
                    return Err(error(
                        span,
                        format!("collections nest deeper than {MAX_DEPTH} levels"),
                    ));
                }
                budget = budget.checked_sub(1).ok_or_else(|| budget_error(span, false))?;
                stack.push(if matches!(event, Event::SequenceStart(..)) {
                    Frame::Seq { span, anchor, items: Vec::new() }
                } else {
                    Frame::Map {
                        span,
                        anchor,
                        entries: Vec::new(),
                        pending_key: None,
                        seen: HashMap::new(),
                    }
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = stack.pop() else { continue };
                let (node, anchor) = match frame {
                    Frame::Seq { span: start, anchor, items } => (
                        Node::new(
                            Span::new(start.start, span.end.max(start.start)),
                            Value::Seq(items),
                        ),
                        anchor,
                    ),
                    Frame::Map { span: start, anchor, entries, .. } => (
                        Node::new(
                            Span::new(start.start, span.end.max(start.start)),
                            Value::Map(entries),
                        ),
                        anchor,
                    ),
                };
                if anchor != 0 {
                    anchors.insert(anchor, node.clone());
                }
                node
            }
            Event::Scalar(value, style, anchor, tag) => {
                budget = budget.checked_sub(1).ok_or_else(|| budget_error(span, false))?;
                check_tag(tag.as_deref(), span, true)?;
                let is_str_tag = tag.is_some();
                let node = match style {
                    ScalarStyle::Plain if !is_str_tag => match resolve_plain(&value) {
                        Value::Str(s) => Node::string(span, s, text, base),
                        other => Node::new(span, other),
                    },
                    _ => Node::string(span, value.into_owned(), text, base),
                };
                if anchor != 0 {
                    anchors.insert(anchor, node.clone());
                }
                node
            }
            Event::Alias(id) => {
                let Some(target) = anchors.get(&id) else {
                    return Err(error(
                        span,
                        "an alias refers to an anchor that is not defined".into(),
                    ));
                };
                let size = target.size();
                budget = budget.checked_sub(size).ok_or_else(|| budget_error(span, true))?;
                copied_bytes += target.text_bytes();
                if copied_bytes > ALIAS_BYTE_BUDGET {
                    return Err(budget_error(span, true));
                }
                target.clone()
            }
        };
        push(&mut stack, &mut out, node);
    }
    Ok(out)
}

/// Only `!!str` is accepted: agent files hold plain values, and a tag such as
/// `!!binary` would make a value mean something other than what it says.
fn check_tag(
    tag: Option<&saphyr_parser::Tag>,
    span: Span,
    scalar: bool,
) -> Result<(), SyntaxError> {
    let Some(tag) = tag else { return Ok(()) };
    // The parser expands the `!!` shorthand to the core schema's prefix.
    let core = tag.handle == "!!" || tag.handle == "tag:yaml.org,2002:";
    if scalar && core && tag.suffix == "str" {
        return Ok(());
    }
    let shown =
        if core { format!("!!{}", tag.suffix) } else { format!("{}{}", tag.handle, tag.suffix) };
    Err(SyntaxError {
        span,
        message: format!(
            "the tag `{shown}` is not supported; agent files hold plain values (only `!!str` is allowed)"
        ),
        scanned: false,
    })
}

/// The node budget ran out: by aliases copying what they name, or by the
/// values as written. Each says which, so the help names the right cause.
fn budget_error(span: Span, by_aliases: bool) -> SyntaxError {
    let message = if by_aliases {
        format!(
            "aliases expand the document to more than {NODE_BUDGET} values or \
             {ALIAS_BYTE_BUDGET} bytes of copied text; a frontmatter block never needs that much"
        )
    } else {
        format!(
            "the frontmatter holds more than {NODE_BUDGET} values; a frontmatter block never \
             needs that many"
        )
    };
    SyntaxError { span, message, scanned: false }
}

/// Attaches a finished node to the collection being built, or makes it the root.
fn push(stack: &mut [Frame], out: &mut Parsed, node: Node) {
    match stack.last_mut() {
        None => out.root = Some(node),
        Some(Frame::Seq { items, .. }) => items.push(node),
        Some(Frame::Map { entries, pending_key, seen, .. }) => match pending_key.take() {
            None => *pending_key = Some(node),
            Some(key) => {
                let key_text = match key.value {
                    Value::Str(s) | Value::BigInt(s) => s,
                    Value::Null => String::new(),
                    Value::Bool(b) => b.to_string(),
                    Value::Int(i) => i.to_string(),
                    Value::UInt(u) => u.to_string(),
                    Value::Float(f) => f.to_string(),
                    Value::Seq(_) | Value::Map(_) => {
                        out.bad_keys.push(key.span);
                        return;
                    }
                };
                if let Some(first) = seen.get(&key_text) {
                    out.duplicates.push(DuplicateKey {
                        key: key_text,
                        first: *first,
                        second: key.span,
                    });
                    return;
                }
                seen.insert(key_text.clone(), key.span);
                entries.push(Entry { key: key_text, key_span: key.span, value: node });
            }
        },
    }
}

/// Resolves a plain scalar by the YAML 1.2 core schema.
fn resolve_plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Value::Float(f64::INFINITY);
        }
        "-.inf" | "-.Inf" | "-.INF" => return Value::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Value::Float(f64::NAN),
        _ => {}
    }
    let bytes = text.as_bytes();
    let digits = |s: &str, radix: u32| !s.is_empty() && s.chars().all(|c| c.is_digit(radix));
    if let Some(oct) = text.strip_prefix("0o").filter(|s| digits(s, 8)) {
        return int_or_str(u64::from_str_radix(oct, 8).ok(), text);
    }
    if let Some(hex) = text.strip_prefix("0x").filter(|s| digits(s, 16)) {
        return int_or_str(u64::from_str_radix(hex, 16).ok(), text);
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits(unsigned, 10) {
        if let Ok(i) = text.parse::<i64>() {
            return Value::Int(i);
        }
        if let Ok(u) = text.strip_prefix('+').unwrap_or(text).parse::<u64>() {
            return Value::UInt(u);
        }
        return Value::BigInt(text.to_owned());
    }
    if is_core_float(unsigned)
        && bytes.iter().any(u8::is_ascii_digit)
        && let Ok(f) = text.parse::<f64>()
    {
        return Value::Float(f);
    }
    Value::Str(text.to_owned())
}

fn int_or_str(value: Option<u64>, text: &str) -> Value {
    value.map_or_else(|| Value::Str(text.to_owned()), Value::UInt)
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
fn is_core_float(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => {
            int.chars().all(|c| c.is_ascii_digit())
                && frac.chars().all(|c| c.is_ascii_digit())
                && !(int.is_empty() && frac.is_empty())
        }
        None => !mantissa.is_empty() && mantissa.chars().all(|c| c.is_ascii_digit()),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(text: &str) -> Node {
        parse(text, 0).unwrap().root.unwrap()
    }

    fn get<'a>(node: &'a Node, key: &str) -> &'a Node {
        match &node.value {
            Value::Map(entries) => &entries.iter().find(|e| e.key == key).unwrap().value,
            _ => panic!("not a map"),
        }
    }

    #[test]
    fn core_schema_keeps_norway_a_string() {
        let doc = root("a: no\nb: NO\nc: on\nd: true\ne: 1.10\nf: 0o17\ng: ~\nh: '1'\ni: 1e3\n");
        assert_eq!(get(&doc, "a").value, Value::Str("no".into()));
        assert_eq!(get(&doc, "b").value, Value::Str("NO".into()));
        assert_eq!(get(&doc, "c").value, Value::Str("on".into()));
        assert_eq!(get(&doc, "d").value, Value::Bool(true));
        assert_eq!(get(&doc, "e").value, Value::Float(1.1));
        assert_eq!(get(&doc, "f").value, Value::UInt(15));
        assert_eq!(get(&doc, "g").value, Value::Null);
        assert_eq!(get(&doc, "h").value, Value::Str("1".into()));
        assert_eq!(get(&doc, "i").value, Value::Float(1000.0));
    }

    #[test]
    fn integers_beyond_64_bits_keep_their_digits() {
        let doc =
            root("a: 99999999999999999999\nb: -99999999999999999999\nc: 18446744073709551615\n");
        assert_eq!(get(&doc, "a").value, Value::BigInt("99999999999999999999".into()));
        assert_eq!(get(&doc, "b").value, Value::BigInt("-99999999999999999999".into()));
        assert_eq!(get(&doc, "c").value, Value::UInt(u64::MAX));
        let keys = parse("99999999999999999999: a\n100000000000000000000: b\n", 10).unwrap();
        assert!(keys.duplicates.is_empty());
    }

    #[test]
    fn spans_are_byte_offsets_of_the_value() {
        let doc = parse("é: x\ntools: [a, \"b\"]\n", 10).unwrap().root.unwrap();
        let Value::Seq(items) = &get(&doc, "tools").value else { panic!() };
        assert_eq!(items[1].span, Span::new(10 + 17, 10 + 20));
    }

    #[test]
    fn duplicate_keys_are_reported_and_the_first_kept() {
        let parsed = parse("name: a\nname: b\n", 0).unwrap();
        assert_eq!(
            parsed.duplicates,
            [DuplicateKey { key: "name".into(), first: Span::new(0, 4), second: Span::new(8, 12) }]
        );
        assert_eq!(get(&parsed.root.unwrap(), "name").value, Value::Str("a".into()));
    }

    #[test]
    fn alias_bombs_fail_fast() {
        let mut doc = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            doc.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let err = parse(&doc, 0).unwrap_err();
        assert!(err.message.contains("more than 100000 values"), "{}", err.message);
    }

    #[test]
    fn aliases_copying_long_text_fail_fast() {
        let long = "x".repeat(100_000);
        let aliases = vec!["*d"; 50].join(", ");
        let doc = format!("description: &d \"{long}\"\nextra: [{aliases}]\n");
        assert!(parse(&doc, 0).unwrap_err().message.contains("bytes of copied text"));
    }

    #[test]
    fn only_the_str_tag_is_accepted() {
        assert!(parse("a: !!str 1\n", 0).is_ok());
        assert!(parse("a: !!binary aGk=\n", 0).unwrap_err().message.contains("`!!binary`"));
    }

    #[test]
    fn deep_nesting_is_refused() {
        let doc = "[".repeat(10_000);
        assert!(parse(&doc, 0).is_err());
        let nested = format!("{}{}", "- ".repeat(200), "x");
        assert!(parse(&nested, 0).is_err());
    }
}

/// The offset of the innermost `[` or `{` still open at `upto`, outside
/// quotes and comments: where a parse error after an unclosed flow
/// collection really starts.
pub fn unclosed_bracket(text: &str, upto: usize) -> Option<usize> {
    let mut open: Vec<usize> = Vec::new();
    let mut quote: Option<char> = None;
    let mut comment = false;
    let mut previous = '\n';
    for (i, c) in text.char_indices().take_while(|(i, _)| *i < upto) {
        match (quote, c) {
            _ if comment => comment = c != '\n',
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '#') if previous.is_whitespace() => comment = true,
            (None, '[' | '{') => open.push(i),
            (None, ']' | '}') => {
                open.pop();
            }
            _ => {}
        }
        previous = c;
    }
    open.pop()
}

#[cfg(test)]
mod bracket_tests {
    use super::unclosed_bracket;

    #[test]
    fn finds_the_bracket_left_open() {
        let text = "tools: [a, b\nsteps:\n";
        assert_eq!(unclosed_bracket(text, text.len()), Some(7));
        assert_eq!(unclosed_bracket("a: [x] # [\nb: '['\n", 18), None);
        assert_eq!(unclosed_bracket("a: {b: [c]\n", 11), Some(3));
    }
}
