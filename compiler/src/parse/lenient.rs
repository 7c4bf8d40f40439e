//! Repairs of frontmatter that strict YAML 1.2 refuses but the parsers agent
//! hosts use (PyYAML `safe_load`, the npm `yaml` and `js-yaml` packages) read.
//!
//! Only constructs that PyYAML *and* at least one of the JavaScript parsers
//! were measured to accept, with the same meaning, are repaired:
//!
//! - a byte order mark (U+FEFF) inside the document, outside a quoted scalar
//!   (all three accept it and keep it as an invisible part of the text);
//! - a flow mapping key whose `:` is followed directly by `[` or `{`, as in
//!   `{tags:[a, b]}` (all three read `{tags: [a, b]}`);
//! - the closing `]` or `}` of a flow collection written over several lines,
//!   on a line of its own no deeper than the key it belongs to (`args: [` …
//!   `]` under `args`): PyYAML, the npm `yaml` package (the Copilot CLI's
//!   reader) and VS Code's own frontmatter parser, which ignores indentation
//!   inside brackets, read it; js-yaml refuses it. Items so indented are not
//!   repaired: the npm `yaml` package refuses them too.
//!
//! Everything else stays an error for them, in particular an unquoted `: `
//! inside a plain value (`description: Use when: x`), which PyYAML, js-yaml and
//! `yaml` all refuse, and `tools: *`, which every one of them reads as a broken
//! alias. Claude Code is the exception: it reads frontmatter line by line, so
//! under [`Reader::ClaudeCode`] a one-line top-level value strict YAML refuses
//! is read as its text.

use agentc_schema::Span;
use saphyr_parser::Parser;

use crate::catalog::Code;
use crate::diagnostic::{self, Diagnostic, Fix};
use crate::source::Source;

/// Whose reader a host's frontmatter is read with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// The constructs PyYAML and the JavaScript parsers agree on
    /// (this module).
    Hosts,
    /// Claude Code's: besides those, a top-level `key: value` line whose
    /// value strict YAML refuses (`description: Use when: x`,
    /// `argument-hint: [pr] [priority]`) is read as the text after the
    /// first `:`. Claude Code 1.0 and 2.0 read frontmatter line by line that
    /// way (`docs/formats.md`, "YAML as the hosts read it").
    ClaudeCode,
    /// OpenCode's: gray-matter, and on its error a "fallback sanitization"
    /// for frontmatter written for Claude Code that reads the same lines
    /// Claude Code does (OpenCode 1.18.33 loads `description: Usar cuando
    /// el usuario pida: x` whole).
    OpenCode,
    /// Cursor's: besides those, the `globs` line is taken as written
    /// (`globs: *.ts, src/**/*.tsx`), as Cursor's own editor writes it; YAML
    /// reads `*` there as an alias, and a quoted form is matched quotes and
    /// all, against no file.
    Cursor,
}

/// What Claude Code 2.1 does with frontmatter its reader cannot repair.
pub const CLAUDE_UNREADABLE: &str = "Claude Code 2.1 cannot read this frontmatter either: it skips a \
    project subagent silently, and loads a plugin's subagent, a skill or a command with none of \
    its fields (no `tools` limit, no model, no description)";

/// A value only Claude Code's quoting retry reads (`message` says which), in
/// a file with CRLF line endings: the retry cannot see a line ending's `\r`
/// (anthropics/claude-code#80890), so Claude Code 2.1 does not read the file.
/// `line` is the line written as strict YAML, `edits` the fix.
pub fn claude_crlf_unreadable(
    source: &Source,
    at: Span,
    message: &str,
    line: &str,
    edits: Vec<diagnostic::Edit>,
) -> Diagnostic {
    let mut diagnostic = Diagnostic::at(
        Code::YamlSyntax,
        &source.path,
        at,
        format!(
            "{message}, but not in a file with CRLF line endings: Claude Code 2.1 cannot read \
             this frontmatter"
        ),
    )
    .with_help(format!(
        "Claude Code 2.1 skips a subagent with this frontmatter silently (only its debug log \
         says so), and loads a skill or command with none of its fields \
         (anthropics/claude-code#80890); write it as `{line}`, or save the file with LF line \
         endings"
    ));
    diagnostic.fix = Some(Fix { message: "quote the value".into(), edits });
    diagnostic
}

/// A rewrite of frontmatter that strict YAML refuses into the form it accepts,
/// with what changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// The whole repaired YAML text.
    pub text: String,
    /// The changes, against the original text, sorted and disjoint.
    pub edits: Vec<Edit>,
    /// What was wrong, in words.
    pub message: String,
    /// Whether a construct only Claude Code's (or OpenCode's) line reading
    /// takes was repaired (which
    /// PyYAML and the JavaScript parsers refuse).
    pub claude_only: bool,
}

/// One change: replace bytes `start..end` of the ORIGINAL yaml text with
/// `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

/// How many constructs one repair may fix; each costs one strict parse, so the
/// work stays linear in the text.
const MAX_REPAIRS: usize = 32;

/// Rewrites `yaml`, which the strict parser refused at byte `error_offset`,
/// into text it accepts, if every error is a construct `reader` reads.
/// `None` when any error is not.
pub fn repair(yaml: &str, error_offset: usize, reader: Reader) -> Option<Repair> {
    let mut current = yaml.to_owned();
    let mut edits: Vec<Edit> = Vec::new();
    let mut messages: Vec<String> = Vec::new();
    let mut at = error_offset;
    let mut claude_only = false;
    for _ in 0..MAX_REPAIRS {
        let (cur_edit, message) = match repair_one(&current, at) {
            Some(found) => found,
            None if matches!(reader, Reader::ClaudeCode | Reader::OpenCode) => {
                claude_only = true;
                quote_line(&current, at, reader)?
            }
            None if reader == Reader::Cursor => globs_as_written(&current, at)?,
            None => return None,
        };
        let orig = to_original(&edits, &cur_edit)?;
        current.replace_range(cur_edit.start..cur_edit.end, &cur_edit.replacement);
        let pos = edits.partition_point(|e| e.start < orig.start);
        edits.insert(pos, orig);
        if !messages.contains(&message) {
            messages.push(message);
        }
        match strict_error(&current) {
            None => {
                debug_assert_eq!(apply(yaml, &edits), current);
                return Some(Repair {
                    text: current,
                    edits,
                    message: messages.join("; "),
                    claude_only,
                });
            }
            Some(next) => at = next,
        }
    }
    None
}

/// The one construct at `at`, as an edit of `text` and a message.
fn repair_one(text: &str, at: usize) -> Option<(Edit, String)> {
    if !text.is_char_boundary(at) {
        return None;
    }
    let rest = &text[at..];
    if rest.starts_with('\u{feff}') && at > 0 {
        let line = text[..at].bytes().filter(|&b| b == b'\n').count() + 1;
        let message = format!(
            "line {line} holds an invisible byte order mark (U+FEFF), which strict YAML allows \
             only at the very start; other parsers keep it as part of the text (a key \
             `\u{feff}name` is then not `name`), so delete it"
        );
        return Some((Edit { start: at, end: at + 3, replacement: String::new() }, message));
    }
    let bytes = rest.as_bytes();
    if let Some(found) = indent_closing_bracket(text, at) {
        return Some(found);
    }
    if bytes.first() == Some(&b':') && matches!(bytes.get(1), Some(b'[' | b'{')) {
        let key = key_before(text, at);
        let open = bytes[1] as char;
        let message = if key.is_empty() {
            format!("inside `{{…}}` or `[…]`, the `:` must be followed by a space before `{open}`")
        } else {
            format!("inside `{{…}}` or `[…]`, `{key}:` must be followed by a space before `{open}`")
        };
        return Some((Edit { start: at + 1, end: at + 1, replacement: " ".into() }, message));
    }
    None
}

/// A closing bracket at `at`, alone at the start of its line, indented no
/// deeper than the line that opened its collection: indented one space past
/// that line, as strict YAML requires.
fn indent_closing_bracket(text: &str, at: usize) -> Option<(Edit, String)> {
    let close = *text.as_bytes().get(at)?;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    if !matches!(close, b']' | b'}') || !text[line_start..at].bytes().all(|b| b == b' ') {
        return None;
    }
    let open = opener(text, at)?;
    if (text.as_bytes()[open], close) != (b'[', b']')
        && (text.as_bytes()[open], close) != (b'{', b'}')
    {
        return None;
    }
    let open_line = text[..open].rfind('\n').map_or(0, |i| i + 1);
    let indent = text[open_line..].bytes().take_while(|&b| b == b' ').count();
    let have = at - line_start;
    if have > indent {
        return None;
    }
    let key = text[open_line..open].trim().trim_end_matches(':').trim();
    let key =
        if key.is_empty() || key.len() > 40 { "its key".to_owned() } else { format!("`{key}`") };
    let message = format!(
        "the closing `{}` is indented no deeper than {key}; PyYAML, the npm `yaml` package and \
         VS Code read it, but strict YAML and js-yaml refuse it",
        close as char
    );
    Some((Edit { start: at, end: at, replacement: " ".repeat(indent + 1 - have) }, message))
}

/// The offset of the flow collection's opening bracket that is still open at
/// `at`, reading brackets outside quotes and comments from the start.
fn opener(text: &str, at: usize) -> Option<usize> {
    let mut open: Vec<usize> = Vec::new();
    let mut quote: Option<u8> = None;
    let mut comment = false;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate().take(at) {
        match (quote, b) {
            (_, b'\n') => {
                comment = false;
                // A plain multi-line value may hold an apostrophe; quotes
                // never span lines in frontmatter the hosts write.
                quote = quote.filter(|_| !open.is_empty());
            }
            _ if comment => {}
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"')
                if i == 0 || matches!(bytes[i - 1], b' ' | b'[' | b'{' | b',' | b'\n') =>
            {
                quote = Some(b)
            }
            (None, b'#') if i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'\n') => {
                comment = true
            }
            (None, b'[' | b'{') => open.push(i),
            (None, b']' | b'}') => drop(open.pop()),
            _ => {}
        }
    }
    open.pop()
}

/// Claude Code's reading of the top-level line holding `at`: `key: value`
/// with an unquoted value on one line becomes `key: "value"`. Lines that are
/// indented, continued on the next line, quoted or block scalars are not
/// this construct.
fn quote_line(text: &str, at: usize, reader: Reader) -> Option<(Edit, String)> {
    let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text.get(at..)?.find('\n').map_or(text.len(), |i| at + i);
    let line = text[line_start..line_end].trim_end_matches('\r');
    let (key, value) = line.split_once(':')?;
    let plain_key = !key.is_empty()
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
    let value_start = line_start + key.len() + 1 + (value.len() - value.trim_start().len());
    let value = value.trim();
    let continued = text[line_end..]
        .trim_start_matches(['\r', '\n'])
        .lines()
        .next()
        .is_some_and(|next| next.starts_with([' ', '\t']));
    if !plain_key || value.is_empty() || value.starts_with(['"', '\'', '|', '>', '#']) || continued
    {
        return None;
    }
    let quoted = double_quoted(value);
    let host = if reader == Reader::OpenCode { "OpenCode" } else { "Claude Code" };
    let message = format!(
        "the value of `{key}` is not valid YAML as written; {host} reads it as the text after \
         the first `:`"
    );
    Some((
        Edit { start: value_start, end: value_start + value.len(), replacement: quoted },
        message,
    ))
}

/// Cursor's reading of a `globs:` line holding `at`: its value as written,
/// quotes included, whatever YAML would make of it.
fn globs_as_written(text: &str, at: usize) -> Option<(Edit, String)> {
    let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text.get(at..)?.find('\n').map_or(text.len(), |i| at + i);
    let line = text[line_start..line_end].trim_end_matches('\r');
    let value = line.strip_prefix("globs:")?;
    let value_start = line_start + "globs:".len() + (value.len() - value.trim_start().len());
    let value = value.trim();
    if value.is_empty() || value.starts_with(['|', '>']) {
        return None;
    }
    let message =
        "Cursor reads `globs` as written, globs separated by commas; strict YAML does not"
            .to_owned();
    let edit = Edit {
        start: value_start,
        end: value_start + value.len(),
        replacement: double_quoted(value),
    };
    Some((edit, message))
}

/// `value` as a YAML double-quoted scalar: `\` and `"` escaped.
pub fn double_quoted(value: &str) -> String {
    format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The plain key that ends at `colon`, for messages (at most 40 bytes back).
fn key_before(text: &str, colon: usize) -> &str {
    let head = &text[..colon];
    let start = head
        .char_indices()
        .rev()
        .take_while(|&(i, c)| {
            colon - i <= 40 && !matches!(c, '{' | '[' | ',' | ' ' | '\t' | '\n' | '\r')
        })
        .last()
        .map_or(colon, |(i, _)| i);
    let key = &head[start..];
    if key.len() > 40 { "" } else { key }
}

/// Maps an edit of the current text to the original text, given the edits
/// already made (sorted by start). `None` if it would touch one of them.
fn to_original(done: &[Edit], edit: &Edit) -> Option<Edit> {
    let mut shift = 0isize;
    for e in done {
        let cur_start = e.start.checked_add_signed(shift)?;
        let cur_end = cur_start + e.replacement.len();
        if edit.end < cur_start {
            break;
        }
        if edit.start <= cur_end {
            return None;
        }
        shift += e.replacement.len() as isize - (e.end - e.start) as isize;
    }
    Some(Edit {
        start: edit.start.checked_add_signed(-shift)?,
        end: edit.end.checked_add_signed(-shift)?,
        replacement: edit.replacement.clone(),
    })
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(text.len() + edits.len());
    let mut last = 0;
    for e in edits {
        out.push_str(&text[last..e.start]);
        out.push_str(&e.replacement);
        last = e.end;
    }
    out.push_str(&text[last..]);
    out
}

/// Where the strict parser refuses `text`, as a byte offset; `None` if it
/// reads the whole text.
fn strict_error(text: &str) -> Option<usize> {
    let mut parser = Parser::new_from_str(text);
    while let Some(next) = parser.next_event() {
        if let Err(err) = next {
            let index = err.marker().index();
            return Some(text.char_indices().nth(index).map_or(text.len(), |(i, _)| i));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::yaml::parse;

    fn error_at(text: &str) -> usize {
        parse(text, 0).unwrap_err().span.start
    }

    fn repaired(text: &str) -> Repair {
        let r = repair(text, error_at(text), Reader::Hosts).expect("repairable");
        assert!(parse(&r.text, 0).is_ok(), "still refused: {:?}", r.text);
        assert_eq!(apply(text, &r.edits), r.text);
        r
    }

    #[test]
    fn byte_order_mark_inside_is_deleted() {
        let text = "name: a\n\u{feff}description: b\n";
        let r = repaired(text);
        assert_eq!(r.text, "name: a\ndescription: b\n");
        assert_eq!(r.edits, [Edit { start: 8, end: 11, replacement: String::new() }]);
        assert!(r.message.contains("line 2"), "{}", r.message);
    }

    #[test]
    fn byte_order_marks_in_values_comments_and_block_scalars() {
        for text in [
            "name: a\ndescription: x\u{feff}y\n",
            "name: a # x\u{feff}y\n",
            "description: |\n  x\u{feff}y\n",
            "tools: [a, \u{feff}b]\n",
            "m:\n  \u{feff}a: 1\n",
        ] {
            let r = repaired(text);
            assert!(!r.text.contains('\u{feff}'));
        }
    }

    #[test]
    fn colon_before_flow_collection_gets_a_space() {
        let text = "meta: {a: 1, tags:[x, y], sub:{c: 2}}\n";
        let r = repaired(text);
        assert_eq!(r.text, "meta: {a: 1, tags: [x, y], sub: {c: 2}}\n");
        assert_eq!(r.edits.len(), 2);
        assert_eq!(r.edits[0], Edit { start: 18, end: 18, replacement: " ".into() });
        assert_eq!(r.edits[1], Edit { start: 30, end: 30, replacement: " ".into() });
        assert!(r.message.contains("`tags:`"), "{}", r.message);
        assert!(repaired("t: [b:[x]]\n").text == "t: [b: [x]]\n");
    }

    #[test]
    fn several_classes_at_once_map_to_original_offsets() {
        let text = "\u{e9}: 1\nm: {k:[\u{feff}x]}\n";
        let r = repaired(text);
        assert_eq!(r.text, "\u{e9}: 1\nm: {k: [x]}\n");
        assert_eq!(apply(text, &r.edits), r.text);
    }

    #[test]
    fn colon_space_in_plain_value_stays_an_error() {
        let text = "name: a\ndescription: Verify: confirm x\n";
        assert_eq!(repair(text, error_at(text), Reader::Hosts), None);
        // Also when another error could be repaired.
        let text = "\u{e9}: 1\n\u{feff}description: Verify: confirm x\n";
        assert_eq!(repair(text, error_at(text), Reader::Hosts), None);
    }

    #[test]
    fn what_the_hosts_refuse_stays_an_error() {
        for text in [
            "tools: *\n",
            "name:\ta\n",
            "description: \"foo\rbar\"\n",
            "description: `foo`\n",
            "tools: [\nRead\n]\n",
            "a:\n  b: [\n  x\n  ]\n",
        ] {
            assert_eq!(repair(text, error_at(text), Reader::Hosts), None, "{text:?}");
        }
    }

    #[test]
    fn an_under_indented_closing_bracket_is_indented() {
        let text =
            "m:\n  db:\n    args: [\n      \"-y\",\n      \"srv\"\n    ]\n    tools: [\"*\"]\n";
        let r = repaired(text);
        assert_eq!(r.text, text.replace("\n    ]", "\n     ]"));
        assert!(r.message.contains("`args`"), "{}", r.message);
        let text = "m:\n  db:\n    args: [\n      'it''s', \"]\", # ]\n      \"srv\"\n    ]\n    tools: [\"*\"]\n";
        assert_eq!(repaired(text).text, text.replace("\n    ]", "\n     ]"));
    }

    #[test]
    fn claude_code_reads_a_refused_top_level_value_as_text() {
        let text = "name: a\ndescription: Use when: the user asks\n";
        let r = repair(text, error_at(text), Reader::ClaudeCode).expect("repairable");
        assert_eq!(r.text, "name: a\ndescription: \"Use when: the user asks\"\n");
        let text = "argument-hint: [pr-number] [priority] [assignee]\r\n";
        let r = repair(text, error_at(text), Reader::ClaudeCode).expect("repairable");
        assert_eq!(r.text, "argument-hint: \"[pr-number] [priority] [assignee]\"\r\n");
        let text = "description: say \"hi\": \\o/\n";
        let r = repair(text, error_at(text), Reader::ClaudeCode).expect("repairable");
        assert_eq!(r.text, "description: \"say \\\"hi\\\": \\\\o/\"\n");
    }

    #[test]
    fn claude_code_does_not_rescue_what_it_does_not_read_as_one_line() {
        for text in [
            "description: Use when: x\n  and more\n",
            "  nested: Use when: x\n",
            "description: Use when: x # note\n",
            "tools: *\n",
        ] {
            assert_eq!(repair(text, error_at(text), Reader::Hosts), None, "{text:?}");
        }
        // Claude Code's line reader keeps a ` #` as text.
        let text = "description: Use when: x, as in #12\n";
        let r = repair(text, error_at(text), Reader::ClaudeCode).expect("repairable");
        assert_eq!(r.text, "description: \"Use when: x, as in #12\"\n");
        for text in ["description: Use when: x\n  and more\n", "m:\n  nested: Use when: x\n"] {
            assert_eq!(repair(text, error_at(text), Reader::ClaudeCode), None, "{text:?}");
        }
    }

    #[test]
    fn never_panics_on_odd_offsets() {
        let text = "é: \u{feff}x: y\n";
        for at in 0..=text.len() + 2 {
            let _ = repair(text, at, Reader::ClaudeCode);
        }
        assert_eq!(repair("", 5, Reader::ClaudeCode), None);
    }
}
