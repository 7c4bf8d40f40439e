//! Each file kind from text to its schema type, with every syntax and schema
//! problem as a [`Diagnostic`] and the file-local checks (names, bodies).

use agentc_schema::names::{NameKind, check_name};
use agentc_schema::{AgentFrontmatter, AgentManifest, Registry, Span, ToolManifest};
use serde::de::DeserializeOwned;

use super::decode::{Problem, decode, one_of};
use super::frontmatter::{self, Broken};
use super::misspelt::Keys;
use super::tree::{Again, Entry, Node, Rebuild, Tree, Value};
use super::{json, lenient, toml, yaml};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Edit, Fix, Severity};
use crate::source::Source;
use crate::suggest::did_you_mean;

/// The repeated keys of one file reported one by one; one more diagnostic
/// counts the rest.
pub const MAX_DUPLICATES_REPORTED: usize = 64;

/// Which syntax a text is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Yaml,
    Json,
    /// JSON with comments and trailing commas (VS Code's files).
    Jsonc,
    /// JSON with comments, no trailing comma (Gemini CLI's settings).
    JsonComments,
    Toml,
}

/// A decoded document with what the typed value does not carry.
#[derive(Clone, Debug)]
pub struct Document<T> {
    pub value: T,
    /// Its located tree, let go and built again on demand ([`Tree`]).
    pub tree: Tree,
    /// Top-level keys the type does not declare, with their values.
    pub extra: Vec<(String, serde_json::Value)>,
    /// Top-level keys whose values had problems and were set aside.
    pub recovered: Vec<String>,
}

impl<T> Document<T> {
    /// Whether `key`'s value had a problem (already reported) and was set aside.
    pub fn recovered(&self, key: &str) -> bool {
        self.recovered.iter().any(|k| k == key)
    }
}

/// How a document is read: its syntax and what its dialect allows.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    pub syntax: Syntax,
    /// The severity of an unknown key.
    pub unknown: Severity,
    /// The top-level keys this dialect reads, where it reads fewer than the
    /// type declares (one type serves several skill dialects).
    pub fields: Option<&'static [&'static str]>,
    /// Read YAML as this host's reader does (the formats of the wild), not
    /// only as strict YAML 1.2 allows.
    pub lenient: Option<lenient::Reader>,
    /// Keys the host knows but ignores in this dialect: for an unknown key of
    /// the file, what to say instead of "unknown" (message, help), if it is
    /// one of them.
    pub ignored: Option<Ignored>,
    /// Top-level keys the host reads that agentc takes as written, without
    /// a type of its own (most of Claude Code's settings): not unknown.
    pub taken: fn(&str) -> bool,
    /// Top-level keys whose value the host drops, loading the rest, when it
    /// has the wrong type: why a problem in one is a warning.
    pub dropped: fn(&str) -> Option<&'static str>,
    /// Required fields the host fills in itself when they are absent (a
    /// plugin's subagent is named after its file): not reported missing.
    pub defaulted: &'static [&'static str],
    /// Top-level keys the host takes as absent when their value is empty
    /// (null, blank, an empty list) or a mapping, loading the file all the
    /// same (a command's blank `description` is its body's first line):
    /// left out before decoding, not reported.
    pub absent_when_empty: &'static [&'static str],
    /// The host loads a file holding keys it does not know, ignoring them:
    /// such a key, unless a near miss of one it reads, is `pedantic`.
    pub ignores_unknown: bool,
    /// Hosts other than the dialect's read the file too (the Copilot CLI and
    /// VS Code read `.claude/skills/`): YAML only the dialect's host reads
    /// is then a likely mistake, not a matter of portability.
    pub read_by_others: bool,
}

/// For a key of a file the host ignores: what to say (message, help).
/// Given the key and its text, when it is a string.
pub type Ignored = fn(&Source, &str, Option<&str>) -> Option<(String, String)>;

impl Reading {
    pub const JSON: Reading = Reading {
        syntax: Syntax::Json,
        unknown: Severity::Error,
        fields: None,
        lenient: None,
        ignored: None,
        taken: |_| false,
        dropped: |_| None,
        defaulted: &[],
        absent_when_empty: &[],
        ignores_unknown: false,
        read_by_others: false,
    };
    pub const FRONTMATTER: Reading = Reading {
        syntax: Syntax::Yaml,
        unknown: Severity::Warning,
        fields: None,
        lenient: None,
        ignored: None,
        taken: |_| false,
        dropped: |_| None,
        defaulted: &[],
        absent_when_empty: &[],
        ignores_unknown: false,
        read_by_others: false,
    };
    /// Frontmatter of a coding assistant's format.
    pub const HOST_FRONTMATTER: Reading = Reading {
        lenient: Some(lenient::Reader::Hosts),
        ignores_unknown: true,
        ..Reading::FRONTMATTER
    };
    /// Frontmatter that Claude Code reads.
    pub const CLAUDE_FRONTMATTER: Reading = Reading {
        lenient: Some(lenient::Reader::ClaudeCode),
        ignores_unknown: true,
        ..Reading::FRONTMATTER
    };
}

/// Whether a host reading `node` as a key's text finds none in it
/// (`argument-hint: [optional: x]` is a list holding a mapping to YAML).
fn empty(node: &Node) -> bool {
    match &node.value {
        Value::Null | Value::Map(_) => true,
        Value::Str(text) => text.trim().is_empty(),
        Value::Seq(items) => {
            items.is_empty()
                || items.iter().any(|i| matches!(i.value, Value::Map(_) | Value::Seq(_)))
        }
        _ => false,
    }
}

/// A document's tree as the parse builds it, and the top-level keys the
/// dialect does not read, set aside.
struct Built {
    tree: Node,
    outside: Vec<(Entry, &'static [&'static str])>,
}

/// Parses `text` (at byte `base` of `source`) into the tree [`decode_text`]
/// decodes: the same every time for the same text, so a [`Tree`] let go is
/// built again by it. Syntax problems go to `out`.
fn build_tree(
    source: &Source,
    text: &str,
    base: usize,
    reading: Reading,
    out: &mut Vec<Diagnostic>,
) -> Option<Built> {
    let file = &source.path;
    let (mut tree, duplicates, bad_keys) = match reading.syntax {
        Syntax::Yaml => match yaml::parse(text, base)
            .or_else(|err| read_as_hosts_do(source, text, base, reading, &err, out).ok_or(err))
        {
            Ok(parsed) => {
                let root =
                    parsed.root.unwrap_or(Node::new(Span::new(base, base), Value::Map(Vec::new())));
                (root, parsed.duplicates, parsed.bad_keys)
            }
            Err(err) => {
                let diagnostic = Diagnostic::at(
                    Code::YamlSyntax,
                    file,
                    err.span,
                    format!("invalid YAML: {}", err.message),
                );
                if let Some(diagnostic) = bracket_or_tab(source, text, base, &err) {
                    out.push(diagnostic);
                    return None;
                }
                // What Claude Code's reader cannot repair, Claude Code 2.1 cannot read.
                let diagnostic = match reading.lenient {
                    Some(lenient::Reader::ClaudeCode) => {
                        diagnostic.with_label(file, Some(err.span), lenient::CLAUDE_UNREADABLE)
                    }
                    _ => diagnostic,
                };
                out.push(match quote_value(text, base, &err) {
                    Some((span, quoted, line)) => diagnostic
                        .with_help(format!(
                            "a value containing `: ` must be quoted: `{}`",
                            line.trim()
                        ))
                        .with_fix("quote the value", file, Some(span), quoted),
                    None => diagnostic.with_help(yaml_help(&err.message)),
                });
                return None;
            }
        },
        Syntax::Toml => match toml::parse(text) {
            Ok(root) => (root, Vec::new(), Vec::new()),
            Err(err) => {
                out.push(Diagnostic::at(
                    Code::TomlSyntax,
                    file,
                    err.span,
                    format!("invalid TOML: {}", err.message),
                ));
                return None;
            }
        },
        Syntax::Json | Syntax::Jsonc | Syntax::JsonComments => match match reading.syntax {
            Syntax::Jsonc => json::parse_jsonc(text),
            Syntax::JsonComments => json::parse_with_comments(text),
            _ => json::parse(text),
        } {
            Ok(parsed) => (parsed.root, parsed.duplicates, Vec::new()),
            Err(err) => {
                out.push(Diagnostic::at(
                    Code::JsonSyntax,
                    file,
                    err.span,
                    format!("invalid JSON: {}", err.message),
                ));
                return None;
            }
        },
    };
    // A file of thousands of repeated keys is one more line, not thousands,
    // as `secret` and `hidden-character` count theirs.
    if let Some(next) = duplicates.get(MAX_DUPLICATES_REPORTED) {
        let more = duplicates.len() - MAX_DUPLICATES_REPORTED;
        out.push(
            Diagnostic::at(
                Code::DuplicateKey,
                file,
                next.second,
                format!("{more} more keys appear twice in this file, from here on"),
            )
            .with_help("keep one of each; agentc never lets a later key silently win"),
        );
    }
    for dup in duplicates.into_iter().take(MAX_DUPLICATES_REPORTED) {
        out.push(
            Diagnostic::at(
                Code::DuplicateKey,
                file,
                dup.second,
                format!("the key `{}` appears twice", dup.key),
            )
            .with_label(file, Some(dup.first), "first defined here")
            .with_help("keep one of them; agentc never lets a later key silently win"),
        );
    }
    for span in bad_keys {
        out.push(Diagnostic::at(
            Code::InvalidValue,
            file,
            span,
            "a mapping key must be a plain string",
        ));
    }
    if let Value::Map(entries) = &mut tree.value
        && !reading.absent_when_empty.is_empty()
    {
        entries
            .retain(|e| !(reading.absent_when_empty.contains(&e.key.as_str()) && empty(&e.value)));
    }
    let outside = reading.fields.map(|fields| set_aside(&mut tree, fields)).unwrap_or_default();
    Some(Built { tree, outside })
}

/// `tree`, which [`build_tree`] built from `text`, as a [`Tree`]: one that
/// is built again from the source when `text` is a part of its text.
fn tree_of(source: &Source, text: &str, base: usize, reading: Reading, tree: Node) -> Tree {
    let whole = source.text.as_ptr() as usize;
    let at = text.as_ptr() as usize;
    if at.checked_sub(whole) != Some(base) || base + text.len() > source.text.len() {
        return Tree::kept(tree);
    }
    let again = Again { source: source.clone(), base, len: text.len(), reader: reader(reading) };
    Tree::rebuildable(tree, again)
}

impl Rebuild for Reading {
    fn rebuild(&self, source: &Source, base: usize, len: usize) -> Node {
        let text = &source.text[base..base + len];
        match build_tree(source, text, base, *self, &mut Vec::new()) {
            Some(built) => built.tree,
            // The same text parsed once: it parses again.
            None => Node::new(Span::new(base, base), Value::Map(Vec::new())),
        }
    }
}

/// `reading`, kept for the whole run: one of each (a few dozen kinds of
/// file, each read one way), where a copy in every document let go was
/// 100 bytes more of it.
fn reader(reading: Reading) -> &'static Reading {
    static READINGS: std::sync::Mutex<Vec<&'static Reading>> = std::sync::Mutex::new(Vec::new());
    let Ok(mut readings) = READINGS.lock() else {
        return Box::leak(Box::new(reading));
    };
    if let Some(found) = readings.iter().find(|r| r.same_as(&reading)) {
        return found;
    }
    let kept: &'static Reading = Box::leak(Box::new(reading));
    readings.push(kept);
    kept
}

impl Reading {
    /// Whether `other` reads as this does (functions compared by address:
    /// two copies of one function may compare unequal, which costs only a
    /// second entry).
    fn same_as(&self, other: &Reading) -> bool {
        use std::ptr::fn_addr_eq;
        // Every field named: one added must be compared too.
        let Reading {
            syntax,
            unknown,
            fields,
            lenient,
            ignored,
            taken,
            dropped,
            defaulted,
            absent_when_empty,
            ignores_unknown,
            read_by_others,
        } = *self;
        let same_list = |a: &[&str], b: &[&str]| std::ptr::eq(a, b) || a == b;
        syntax == other.syntax
            && unknown == other.unknown
            && match (fields, other.fields) {
                (Some(a), Some(b)) => same_list(a, b),
                (None, None) => true,
                _ => false,
            }
            && lenient == other.lenient
            && match (ignored, other.ignored) {
                (Some(a), Some(b)) => fn_addr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
            && fn_addr_eq(taken, other.taken)
            && fn_addr_eq(dropped, other.dropped)
            && same_list(defaulted, other.defaulted)
            && same_list(absent_when_empty, other.absent_when_empty)
            && ignores_unknown == other.ignores_unknown
            && read_by_others == other.read_by_others
    }
}

/// Parses and decodes `text` (at byte `base` of `source`) as `T`.
///
/// Every problem goes to `out`; the value comes back when the text parsed and
/// every decode problem could be stepped around.
pub fn decode_text<T: DeserializeOwned>(
    source: &Source,
    text: &str,
    base: usize,
    reading: Reading,
    out: &mut Vec<Diagnostic>,
) -> Option<Document<T>> {
    let file = &source.path;
    let unknown = reading.unknown;
    let Built { tree, outside } = build_tree(source, text, base, reading, out)?;
    let mut decoded = decode::<T>(&tree);
    decoded.problems.extend(outside.iter().map(|(entry, fields)| Problem::UnknownField {
        key: entry.key.clone(),
        span: entry.key_span,
        expected: fields,
    }));
    decoded
        .extra
        .extend(outside.iter().map(|(entry, _)| (entry.key.clone(), entry.value.to_json())));
    // A misspelt required key is one problem. Where unknown keys are errors,
    // report the key (its help names the field); where they are only warnings
    // (frontmatter), report the field as missing, pointing at the misspelling,
    // so the problem stays an error.
    let missing: Vec<&'static str> = decoded
        .problems
        .iter()
        .filter_map(|p| match p {
            Problem::MissingField { field, .. } => Some(*field),
            _ => None,
        })
        .collect();
    let misspelling = |key: &str, expected: &[&'static str]| {
        did_you_mean(key, expected.iter().copied()).filter(|field| missing.contains(field))
    };
    let mut misspelt: Vec<(&'static str, String, Span, &[&'static str])> = Vec::new();
    for problem in &decoded.problems {
        if let Problem::UnknownField { key, span, expected } = problem
            && let Some(field) = misspelling(key, expected)
        {
            misspelt.push((field, key.clone(), *span, expected));
        }
    }
    let top_keys: Vec<Span> = match &tree.value {
        Value::Map(entries) => entries.iter().map(|e| e.key_span).collect(),
        _ => Vec::new(),
    };
    decoded.problems.retain(|problem| match problem {
        Problem::UnknownField { key, span, .. } => {
            !((reading.taken)(key) && top_keys.contains(span))
        }
        _ => true,
    });
    decoded.extra.retain(|(key, _)| !(reading.taken)(key));
    let keys = Keys { tree: &tree, aside: &outside };
    for problem in decoded.problems {
        let is_misspelt = |key: &str| misspelt.iter().any(|(_, k, ..)| k == key);
        match &problem {
            // A near miss (`Name:`) is still reported: the host does not read it.
            Problem::MissingField { field, .. }
                if reading.defaulted.contains(field)
                    && !misspelt.iter().any(|(f, ..)| f == field) => {}
            Problem::UnknownField { key, .. }
                if unknown == Severity::Warning && is_misspelt(key) => {}
            Problem::MissingField { field, .. } if unknown == Severity::Error => {
                if !misspelt.iter().any(|(f, ..)| f == field) {
                    out.push(problem_diagnostic(source, problem, reading, &keys));
                }
            }
            Problem::MissingField { field, .. } => match misspelt.iter().find(|(f, ..)| f == field)
            {
                Some((_, key, span, expected)) => {
                    let rename = (keys.rename(source, *span, key, expected))
                        .filter(|(meant, _)| meant == field)
                        .map(|(_, at)| at);
                    out.push(
                        Diagnostic::on_path(
                            Code::MissingField,
                            file,
                            format!("the required field `{field}` is missing"),
                        )
                        .with_label(file, Some(*span), format!("`{key}` is not `{field}`"))
                        .with_help(if key.to_lowercase() == *field {
                            format!("rename `{key}` to `{field}`; keys are case-sensitive")
                        } else {
                            format!("did you mean `{field}`? rename `{key}` to `{field}`")
                        })
                        .with_fix(
                            format!("rename `{key}` to `{field}`"),
                            file,
                            rename,
                            *field,
                        ),
                    );
                }
                None => out.push(problem_diagnostic(source, problem, reading, &keys)),
            },
            _ => out.push(problem_diagnostic(source, problem, reading, &keys)),
        }
    }
    decoded.value.map(|value| Document {
        value,
        tree: tree_of(source, text, base, reading, tree),
        extra: decoded.extra,
        recovered: decoded.recovered,
    })
}

/// Decodes `node`, a part of a document already parsed (a table of a TOML
/// file), as `T`: each problem is reported as [`decode_text`] reports it, a
/// missing field at the mapping that lacks it.
pub fn decode_node<T: DeserializeOwned>(
    source: &Source,
    node: &Node,
    reading: Reading,
    out: &mut Vec<Diagnostic>,
) -> Option<T> {
    let decoded = decode::<T>(node);
    let keys = Keys { tree: node, aside: &[] };
    for problem in decoded.problems {
        out.push(match problem {
            Problem::MissingField { field, span } => Diagnostic::at(
                Code::MissingField,
                &source.path,
                span,
                format!("the required field `{field}` is missing"),
            )
            .with_help(format!("add `{field}`")),
            problem => problem_diagnostic(source, problem, reading, &keys),
        });
    }
    decoded.value
}

/// In the hosts' formats, YAML that strict YAML refuses but the hosts' parsers
/// read (see [`lenient`]) is read as they read it, with a `yaml-compat`
/// warning that carries the strict form as a fix. Positions are mapped back to
/// the text as written, so every later diagnostic points into the file.
fn read_as_hosts_do(
    source: &Source,
    text: &str,
    base: usize,
    reading: Reading,
    err: &yaml::SyntaxError,
    out: &mut Vec<Diagnostic>,
) -> Option<yaml::Parsed> {
    let reader = reading.lenient?;
    let repair = lenient::repair(text, err.span.start.checked_sub(base)?, reader)?;
    let mut parsed = yaml::parse(&repair.text, base).ok()?;
    let to_original = |offset: usize| original_offset(&repair.edits, offset - base) + base;
    if let Some(root) = &mut parsed.root {
        remap(root, &to_original);
    }
    for duplicate in &mut parsed.duplicates {
        duplicate.first = remap_span(duplicate.first, &to_original);
        duplicate.second = remap_span(duplicate.second, &to_original);
    }
    for span in &mut parsed.bad_keys {
        *span = remap_span(*span, &to_original);
    }
    let first = repair.edits.first()?;
    let at = Span::new(base + first.start, base + first.end.max(first.start + 1).min(text.len()));
    let edits = repair
        .edits
        .iter()
        .map(|edit| Edit {
            file: source.path.clone(),
            span: Span::new(base + edit.start, base + edit.end),
            replacement: edit.replacement.clone(),
        })
        .collect();
    let line = strict_line(&repair, first.start);
    if repair.claude_only && reader == lenient::Reader::ClaudeCode && text.contains("\r\n") {
        out.push(lenient::claude_crlf_unreadable(source, at, &repair.message, &line, edits));
        return Some(parsed);
    }
    // The host reads it: only strict YAML readers, other tools, do not —
    // unless other hosts read the file too.
    let others = repair.claude_only && reading.read_by_others;
    let mut diagnostic = Diagnostic::at(Code::YamlCompat, &source.path, at, repair.message);
    if !others {
        diagnostic = diagnostic.pedantic();
    }
    diagnostic = diagnostic.with_help(match reader {
        _ if others => format!(
            "Claude Code loads this file, but the Copilot CLI 1.0.102 and VS Code, which \
                 read `.claude/skills/` too, drop it, as strict YAML readers refuse it; write it \
                 as `{line}`"
        ),
        _ if line.len() == 1 => format!(
            "the host's YAML parser reads this, strict YAML does not; indent the `{line}` \
                 deeper than the line that opens the list, as the fix does"
        ),
        _ if !repair.claude_only => {
            format!("the host's YAML parser reads this, strict YAML does not; write it as `{line}`")
        }
        lenient::Reader::OpenCode => format!(
            "OpenCode 1.18.33 loads this file (its fallback for frontmatter written for Claude \
             Code reads the line so), but strict YAML readers (PyYAML, js-yaml, the npm `yaml` \
             package, and the tools and hosts built on them) refuse it; write it as `{line}`"
        ),
        _ => format!(
            "Claude Code loads this file, but strict YAML readers (PyYAML, js-yaml, the npm \
                 `yaml` package, and the tools and hosts built on them) refuse it; write it as \
                 `{line}`"
        ),
    });
    if reader == lenient::Reader::Cursor {
        // Cursor matches a quoted glob quotes and all: the strict form would
        // apply the rule to no file.
        diagnostic.help = Some(
            "Cursor applies the rule to the globs as written; keep them so (a quoted glob \
             matches no file in Cursor), and strict YAML readers will not read them"
                .into(),
        );
    } else {
        diagnostic.fix = Some(Fix { message: "write the strict YAML form".into(), edits });
    }
    out.push(diagnostic);
    Some(parsed)
}

/// The repaired line holding original offset `start`.
fn strict_line(repair: &lenient::Repair, start: usize) -> String {
    let delta: isize = repair
        .edits
        .iter()
        .take_while(|e| e.start < start)
        .map(|e| e.replacement.len() as isize - (e.end - e.start) as isize)
        .sum();
    let at = (start as isize + delta).clamp(0, repair.text.len() as isize) as usize;
    let (Some(before), Some(after)) = (repair.text.get(..at), repair.text.get(at..)) else {
        return String::new();
    };
    let begin = before.rfind('\n').map_or(0, |i| i + 1);
    let end = after.find('\n').map_or(repair.text.len(), |i| at + i);
    repair.text[begin..end].trim().to_owned()
}

/// Where `offset` of the repaired text was in the original one.
fn original_offset(edits: &[lenient::Edit], offset: usize) -> usize {
    let mut delta: isize = 0;
    for edit in edits {
        let start = (edit.start as isize + delta) as usize;
        if offset < start {
            break;
        }
        if offset < start + edit.replacement.len() {
            return edit.start;
        }
        delta += edit.replacement.len() as isize - (edit.end - edit.start) as isize;
    }
    (offset as isize - delta).max(0) as usize
}

fn remap_span(span: Span, to_original: &impl Fn(usize) -> usize) -> Span {
    Span::new(to_original(span.start), to_original(span.end))
}

fn remap(node: &mut Node, to_original: &impl Fn(usize) -> usize) {
    let span = remap_span(node.span, to_original);
    // Text that an edit touched is no longer written verbatim.
    if node.text_at.is_some() && span.len() != node.span.len() {
        node.text_at = None;
    }
    node.text_at = node.text_at.map(to_original);
    node.span = span;
    match &mut node.value {
        Value::Seq(items) => items.iter_mut().for_each(|item| remap(item, to_original)),
        Value::Map(entries) => {
            for entry in entries {
                entry.key_span = remap_span(entry.key_span, to_original);
                remap(&mut entry.value, to_original);
            }
        }
        _ => {}
    }
}

/// Takes the top-level entries outside `fields` out of `tree`, so the type's
/// other fields stay unread in this dialect (reported as unknown, kept as metadata).
fn set_aside(
    tree: &mut Node,
    fields: &'static [&'static str],
) -> Vec<(Entry, &'static [&'static str])> {
    let Value::Map(entries) = &mut tree.value else {
        return Vec::new();
    };
    let (kept, outside): (Vec<Entry>, Vec<Entry>) =
        std::mem::take(entries).into_iter().partition(|e| fields.contains(&e.key.as_str()));
    *entries = kept;
    outside.into_iter().map(|entry| (entry, fields)).collect()
}

/// For "mapping values are not allowed" — an unquoted `: ` inside a plain
/// value, which every host's parser refuses too — the value quoted: its
/// span, the quoted text, and the line as it would read. Only a one-line
/// `key: value` whose quoting moves the first error past this line.
fn quote_value(text: &str, base: usize, err: &yaml::SyntaxError) -> Option<(Span, String, String)> {
    if !err.message.contains("mapping values are not allowed") {
        return None;
    }
    let at = err.span.start.checked_sub(base)?;
    let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text.get(at..)?.find('\n').map_or(text.len(), |i| at + i);
    let line = text[line_start..line_end].trim_end_matches('\r');
    let indent = line.len() - line.trim_start_matches([' ', '-']).len();
    let (key, value) = line[indent..].split_once(": ")?;
    // A comment starts at a `#` after a space or a tab (the one behind `: `
    // counts): it stays after the closing quote.
    let comment = value
        .match_indices('#')
        .map(|(i, _)| i)
        .find(|&i| i == 0 || value[..i].ends_with([' ', '\t']))
        .unwrap_or(value.len());
    let value = value[..comment].trim_end();
    let plain_key = !key.is_empty() && !key.contains(['"', '\'', '#', '{', '[']);
    let plain_value = !value.is_empty()
        && !value.starts_with(['"', '\'', '[', '{', '|', '>', '&', '*', '!', '%', '@', '`']);
    // A plain value continued on the next lines cannot be quoted on one line.
    let next_indent = text[line_end..]
        .trim_start_matches(['\r', '\n'])
        .lines()
        .next()
        .map(|next| next.len() - next.trim_start().len());
    if !plain_key || !plain_value || next_indent.is_some_and(|n| n > indent) {
        return None;
    }
    let start = line_start + indent + key.len() + 2;
    let quoted = lenient::double_quoted(value);
    let mut fixed = text.to_owned();
    fixed.replace_range(start..start + value.len(), &quoted);
    let still = yaml::parse(&fixed, base).err();
    if still.is_some_and(|e| e.span.start < base + start + quoted.len()) {
        return None;
    }
    let shown = format!("{}{}", &line[..indent + key.len() + 2], quoted);
    Some((Span::new(base + start, base + start + value.len()), quoted, shown))
}

/// Two YAML errors whose position misleads: after a `[` or `{` left open the
/// parser stops lines later, so the error points at the bracket (the place
/// it stopped becomes a label); a tab in indentation gets a help about tabs
/// and, as its fix, the tabs as spaces.
fn bracket_or_tab(
    source: &Source,
    text: &str,
    base: usize,
    err: &yaml::SyntaxError,
) -> Option<Diagnostic> {
    let file = &source.path;
    let at = err.span.start.checked_sub(base)?;
    if err.message.contains("tab") {
        let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
        let line = &text[line_start..];
        let tabs = line.len() - line.trim_start_matches(['\t', ' ']).len();
        let indent = &line[..tabs];
        let diagnostic = Diagnostic::at(
            Code::YamlSyntax,
            file,
            err.span,
            format!("invalid YAML: {}", err.message),
        )
        .with_help("YAML indents with spaces, never tabs; replace the tabs with spaces");
        let spaces = indent.replace('\t', "  ");
        let span =
            indent.contains('\t').then(|| Span::new(base + line_start, base + line_start + tabs));
        return Some(diagnostic.with_fix("indent with spaces", file, span, spaces));
    }
    if !err.scanned || err.message.contains("mapping values are not allowed") {
        return None;
    }
    let open = yaml::unclosed_bracket(text, at)?;
    let bracket = &text[open..open + 1];
    let close = if bracket == "[" { "]" } else { "}" };
    Some(
        Diagnostic::at(
            Code::YamlSyntax,
            file,
            Span::new(base + open, base + open + 1),
            format!("invalid YAML: this `{bracket}` is never closed"),
        )
        .with_label(file, Some(err.span), format!("the parser stopped here: {}", err.message))
        .with_help(format!("close the list with `{close}` before the next key")),
    )
}

/// The help for a YAML error: what to change, naming the limit that was hit.
fn yaml_help(message: &str) -> String {
    if message.contains("mapping values are not allowed") {
        "a value containing `: ` must be quoted, e.g. `description: \"Use when: …\"`".into()
    } else if message.contains("anchor or alias") {
        "`*` starts a YAML alias; quote the value, e.g. `tools: \"*\"`".into()
    } else if message.starts_with("aliases expand") {
        "remove the aliases that multiply the document".into()
    } else if message.contains("more than one YAML document") {
        "the frontmatter is one YAML document: remove the `...` or `---` line and what follows it before the closing `---`".into()
    } else if message.contains("values; a frontmatter block") {
        format!(
            "the limit is {} values per frontmatter block; move long lists out of the frontmatter",
            yaml::NODE_BUDGET
        )
    } else if message.contains("nest deeper") {
        format!("the limit is {} levels of nesting; flatten the structure", super::tree::MAX_DEPTH)
    } else {
        "fix the YAML syntax at this position".into()
    }
}

fn problem_diagnostic(
    source: &Source,
    problem: Problem,
    reading: Reading,
    keys: &Keys<'_>,
) -> Diagnostic {
    let (file, unknown) = (&source.path, reading.unknown);
    match problem {
        // Inside the document, the mapping that lacks it; at the top, the file.
        Problem::MissingField { field, span } => {
            let message = format!("the required field `{field}` is missing");
            let diagnostic = if span == keys.tree.span || span.is_unknown() {
                Diagnostic::on_path(Code::MissingField, file, message)
            } else {
                Diagnostic::at(Code::MissingField, file, span, message)
            };
            diagnostic.with_help(format!("add `{field}`"))
        }
        Problem::Invalid { span, message } => {
            let diagnostic = Diagnostic::at(Code::InvalidValue, file, span, message);
            let dropped = match &keys.tree.value {
                Value::Map(entries) => entries
                    .iter()
                    .find(|e| e.value.span.start <= span.start && span.end <= e.value.span.end)
                    .and_then(|e| (reading.dropped)(&e.key)),
                _ => None,
            };
            match dropped {
                Some(why) => diagnostic.with_severity(Severity::Warning).with_help(why),
                None => diagnostic,
            }
        }
        Problem::UnknownField { key, span, .. }
            if let Some((message, help)) = reading.ignored.and_then(|f| {
                let text = entry_value(keys.tree, &key).and_then(|v| match &v.value {
                    Value::Str(text) => Some(text.as_str()),
                    _ => None,
                });
                f(source, &key, text)
            }) =>
        {
            Diagnostic::at(Code::UnknownField, file, span, message)
                .with_severity(unknown)
                .with_help(help)
        }
        Problem::UnknownField { key, span, expected } => {
            let help = match (
                meant_elsewhere(&key, expected),
                did_you_mean(&key, expected.iter().copied()),
            ) {
                (Some(field), _) => format!(
                    "`{key}` is how skills and commands write it; here the field is `{field}`"
                ),
                (None, Some(close)) => format!("did you mean `{close}`?"),
                (None, None) => format!("the known fields are {}", one_of(expected)),
            };
            let tail = if unknown == Severity::Warning { " (kept as metadata)" } else { "" };
            let rename = (meant_elsewhere(&key, expected).is_none())
                .then(|| keys.rename(source, span, &key, expected))
                .flatten();
            let mut diagnostic = Diagnostic::at(
                Code::UnknownField,
                file,
                span,
                format!("unknown field `{key}`{tail}"),
            )
            .with_severity(unknown)
            .with_help(help);
            // A host's reader ignores a key it does not know: only a near miss
            // of one it reads is a likely mistake.
            if reading.ignores_unknown
                && unknown == Severity::Warning
                && meant_elsewhere(&key, expected).is_none()
                && did_you_mean(&key, expected.iter().copied()).is_none()
            {
                diagnostic = diagnostic.pedantic();
            }
            match rename {
                Some((field, at)) => diagnostic.with_fix(
                    format!("rename `{key}` to `{field}`"),
                    file,
                    Some(at),
                    field,
                ),
                None => diagnostic,
            }
        }
    }
}

/// The field a key written as another format of the same host spells it
/// stands for here: a subagent's `allowed-tools` is its `tools` (spelling
/// alone would suggest `disallowedTools`, the opposite).
fn meant_elsewhere(key: &str, expected: &[&'static str]) -> Option<&'static str> {
    const SPELLINGS: &[(&str, &str)] = &[
        ("allowed-tools", "tools"),
        ("allowed_tools", "tools"),
        ("allowedTools", "tools"),
        ("disallowed-tools", "disallowedTools"),
        ("disallowed_tools", "disallowedTools"),
    ];
    let (_, field) = SPELLINGS.iter().find(|(spelt, _)| *spelt == key)?;
    expected.iter().copied().find(|f| f == field)
}

/// The span of a top-level key, for diagnostics about a field as a whole.
pub fn key_span(tree: &Node, key: &str) -> Option<Span> {
    match &tree.value {
        Value::Map(entries) => entries.iter().find(|e| e.key == key).map(|e| e.key_span),
        _ => None,
    }
}

/// A parsed Markdown file with frontmatter.
#[derive(Clone, Debug)]
pub struct Markdown<T> {
    pub front: Document<T>,
    /// The body is this part of the source text, not a copy of it.
    pub body_span: Span,
}

impl<T> Markdown<T> {
    /// The body: the file's text after the frontmatter.
    pub fn body<'a>(&self, source: &'a Source) -> &'a str {
        source.slice(self.body_span)
    }
}

/// Whether a Markdown kind must open with frontmatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontmatter {
    /// `SKILL.md`: `name` and `description` live there.
    Required,
    /// `AGENT.md`: every key is optional, so a file may be all body.
    Optional,
}

/// Parses a Markdown file with YAML frontmatter; `example` shows what a
/// frontmatter block of this kind looks like, for help text.
pub fn markdown<T: DeserializeOwned>(
    source: &Source,
    frontmatter: Frontmatter,
    example: &str,
    reading: Reading,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<T>> {
    let text: &str = &source.text;
    let split = match frontmatter::split(text) {
        Ok(split) => split,
        // Where frontmatter is optional, a `---` after some text is a Markdown
        // thematic break, not frontmatter out of place: the file is all body.
        Err(err)
            if frontmatter == Frontmatter::Optional
                && (err.broken == Broken::Missing
                    || (err.broken == Broken::Misplaced
                        && !text[..err.span.start].trim().is_empty())) =>
        {
            frontmatter::Split { yaml: "", yaml_start: 0, body: text, body_start: 0 }
        }
        // A host's reader takes a fence after blank lines for none at all and
        // loads the file as all body (Claude Code 2.1.332): its keys unread.
        Err(err)
            if frontmatter == Frontmatter::Optional
                && reading.lenient.is_some()
                && err.broken == Broken::Misplaced =>
        {
            out.push(
                Diagnostic::at(Code::BadFrontmatter, &source.path, err.span, err.message)
                    .with_severity(Severity::Warning)
                    .with_help(format!(
                        "{}: the host reads the file as all body, its keys unread",
                        err.help
                    )),
            );
            frontmatter::Split { yaml: "", yaml_start: 0, body: text, body_start: 0 }
        }
        Err(err) => {
            let help = match err.broken {
                // One line: help text never carries a line break of its own.
                Broken::Missing => {
                    format!(
                        "{}, e.g. `---` / `{}` / `---`",
                        err.help,
                        example.replace('\n', "` / `")
                    )
                }
                _ => err.help,
            };
            out.push(
                Diagnostic::at(Code::BadFrontmatter, &source.path, err.span, err.message)
                    .with_help(help),
            );
            return None;
        }
    };
    let front = decode_text::<T>(source, split.yaml, split.yaml_start, reading, out)?;
    let body_span = Span::new(split.body_start, text.len());
    super::markup::unclosed(source, body_span, out);
    Some(Markdown { front, body_span })
}

/// Reports a declared name that differs from the folder it lives in.
pub fn name_mismatch(
    source: &Source,
    declared: &agentc_schema::Spanned<agentc_schema::Text>,
    folder: &str,
    what: &str,
) -> Option<Diagnostic> {
    (declared.value.as_str() != folder && !declared.span.is_unknown()).then(|| {
        Diagnostic::at(
            Code::NameMismatch,
            &source.path,
            declared.span,
            format!("the {what} is named `{}` but its folder is `{folder}`", declared.value),
        )
        .with_help(format!(
            "rename one so they match; the folder name `{folder}` is what agentc uses"
        ))
    })
}

/// The value of a top-level key.
pub fn entry_value<'t>(tree: &'t Node, key: &str) -> Option<&'t Node> {
    match &tree.value {
        Value::Map(entries) => entries.iter().find(|e| e.key == key).map(|e| &e.value),
        _ => None,
    }
}

/// The `invalid-value` diagnostics among `found` that lie in the value of
/// the top-level `key` of `tree`: for a host that drops a bad value of that
/// key and loads the file, to say so.
pub fn invalid_values_of<'d>(
    tree: &Node,
    key: &str,
    found: &'d mut [Diagnostic],
) -> impl Iterator<Item = &'d mut Diagnostic> {
    let within = entry_value(tree, key).map(|value| value.span);
    found.iter_mut().filter(move |d| {
        d.code == Code::InvalidValue
            && within.is_some_and(|w| {
                d.location.span.is_some_and(|s| w.start <= s.start && s.end <= w.end)
            })
    })
}

/// An `AGENT.md` bundle; a file without frontmatter is all prompt.
pub fn agent_md(
    source: &Source,
    id: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<AgentFrontmatter>> {
    let parsed = markdown::<AgentFrontmatter>(
        source,
        Frontmatter::Optional,
        "description: First contact for customers.\nmodel: anthropic/claude-sonnet-4-5",
        Reading::FRONTMATTER,
        out,
    )?;
    if let Some(name) = &parsed.front.value.name {
        out.extend(name_mismatch(source, name, id, "agent"));
    }
    Some(parsed)
}

/// An `agent.json` package manifest.
pub fn agent_json(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<AgentManifest>> {
    decode_text(source, &source.text, 0, Reading::JSON, out)
}

/// A tool's `manifest.json`.
pub fn tool_manifest(
    source: &Source,
    folder: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Document<ToolManifest>> {
    let mut doc = decode_text::<ToolManifest>(source, &source.text, 0, Reading::JSON, out)?;
    if let Some(name) = &doc.value.name {
        out.extend(name_mismatch(source, name, folder, "tool"));
    }
    // Its own checks are done: what reports on a key later builds the
    // tree again.
    doc.tree.release();
    Some(doc)
}

/// The host's registry, JSON or YAML by its extension (JSON when it starts with `{`).
pub fn registry(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Registry> {
    let path = &*source.path.path;
    let syntax = if path.ends_with(".json")
        || (!path.ends_with(".yaml")
            && !path.ends_with(".yml")
            && source.text.trim_start().starts_with('{'))
    {
        Syntax::Json
    } else {
        Syntax::Yaml
    };
    let registry =
        decode_text::<Registry>(source, &source.text, 0, Reading { syntax, ..Reading::JSON }, out)?
            .value;
    let file = &source.path;
    for tool in registry.tools.iter().flatten() {
        let name = &tool.value.name;
        // A name the decoder filled in for a missing one is reported as missing.
        if name.span.is_unknown() {
            continue;
        }
        if let Err(err) = check_name(NameKind::Tool, name.value.as_str()) {
            out.push(Diagnostic::at(
                Code::BadName,
                file,
                name.span,
                format!("the tool name `{}` breaks the naming rule: {err}", name.value),
            ));
        }
    }
    for context in registry.context.iter().flatten() {
        if let Err(err) = check_name(NameKind::Tool, context.value.as_str()) {
            out.push(Diagnostic::at(
                Code::BadName,
                file,
                context.span,
                format!(
                    "the context provider name `{}` breaks the naming rule: {err}",
                    context.value
                ),
            ));
        }
    }
    for model in registry.models.iter().flatten() {
        if !is_model(model.value.as_str()) {
            out.push(
                Diagnostic::at(
                    Code::BadModel,
                    file,
                    model.span,
                    format!("the model `{}` is not `<provider>/<model>`", model.value),
                )
                .with_help(
                    "list models as `<provider>/<model>`, e.g. `anthropic/claude-sonnet-4-5`",
                ),
            );
        }
    }
    Some(registry)
}

/// `<provider>/<model>`: both parts present, no whitespace.
pub fn is_model(text: &str) -> bool {
    text.split_once('/').is_some_and(|(p, m)| !p.is_empty() && !m.is_empty())
        && !text.chars().any(char::is_whitespace)
}

/// Where `key` is written in `parsed`'s frontmatter, else `fallback`.
pub(crate) fn key_or<T>(
    parsed: &Markdown<T>,
    key: &str,
    fallback: agentc_schema::Span,
) -> agentc_schema::Span {
    key_span(&parsed.front.tree, key).unwrap_or(fallback)
}

#[cfg(test)]
mod help_tests {
    use super::*;

    /// The fix `quote_value` offers for `text`: the replaced text, the
    /// replacement, and the line as the help shows it.
    fn quoted(text: &str) -> Option<(String, String, String)> {
        let err = yaml::parse(text, 0).unwrap_err();
        let (span, quoted, line) = quote_value(text, 0, &err)?;
        Some((text[span.start..span.end].to_owned(), quoted, line))
    }

    #[test]
    fn a_comment_after_a_space_or_a_tab_stays_outside_the_quotes() {
        let fixed = |value: &str, comment: &str| {
            let text = format!("name: x\ndescription: {value}{comment}\n");
            let line = format!("description: \"{value}\"");
            assert_eq!(
                quoted(&text),
                Some((value.to_owned(), format!("\"{value}\""), line)),
                "{text:?}"
            );
        };
        fixed("Reviews code. Use when: a diff is ready.", "\t# keep it short");
        fixed("Reviews code. Use when: a diff is ready.", " \t # keep it short");
        fixed("Reviews code. Use when: a diff is ready.", " # keep it short");
        // A `#` inside a word is part of the value.
        fixed("Use when: C# code changes.", "");
    }

    fn help_for(yaml_text: &str) -> String {
        let err = yaml::parse(yaml_text, 0).unwrap_err();
        yaml_help(&err.message)
    }

    #[test]
    fn each_limit_names_its_own_cause() {
        let second_document = "name: a\n...\ndescription: b\n";
        assert!(
            help_for(second_document).contains("one YAML document"),
            "{}",
            help_for(second_document)
        );
        let routes: String = (0..100_001).map(|i| format!("- r{i}\n")).collect();
        let many = format!("routes:\n{routes}");
        assert!(help_for(&many).contains("move long lists"), "{}", help_for(&many));
        let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n";
        assert!(help_for(bomb).contains("aliases"), "{}", help_for(bomb));
    }
}
