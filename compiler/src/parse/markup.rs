//! Markdown a body opens and never closes: a code fence that runs to the end
//! of the file (everything after it reaches the model as code), and an
//! XML-style tag a line opens (`<example>`, `<instructions>`) that nothing
//! closes (the model cannot tell where the section ends). The model reads
//! the raw text, not rendered Markdown, so the body is read line by line as
//! a writer of such prompts means it: fences by their markers, tags outside
//! fences and code spans. Guidance, not a host's rule: each is an
//! `unclosed-markup` warning.

use std::collections::HashMap;

use agentc_schema::Span;

use crate::catalog::Code;
use crate::diagnostic::Diagnostic;
use crate::source::Source;

/// Elements HTML never closes.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// An open code fence: its marker, how many, and where its line is.
struct Fence {
    marker: char,
    count: usize,
    line: Span,
}

/// The unclosed fences and tags of the body at `body` in `source`; none
/// looked for where the compile does not run `unclosed-markup`.
pub fn unclosed(source: &Source, body: Span, out: &mut Vec<Diagnostic>) {
    if !source.content_rules.unclosed_markup {
        return;
    }
    let text = source.slice(body);
    if !may_hold_markup(text.as_bytes()) {
        return;
    }
    let mut fence: Option<Fence> = None;
    // Each open tag not closed yet, by its name in lowercase: where each is
    // written (a map, so a line of many closing tags stays linear).
    let mut open: HashMap<String, Vec<(&str, Span)>> = HashMap::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        // Block quotes and list items indent a fence; the markers are what count.
        let inner = content.trim_start_matches([' ', '\t', '>']);
        let lead = content.len() - inner.len();
        let marker = inner.chars().next().filter(|c| *c == '`' || *c == '~');
        let count = marker.map_or(0, |m| inner.chars().take_while(|&c| c == m).count());
        match (&fence, marker) {
            (None, Some(m)) if count >= 3 && !(m == '`' && inner[count..].contains('`')) => {
                let line = Span::new(body.start + start + lead, body.start + start + content.len());
                fence = Some(Fence { marker: m, count, line });
                continue;
            }
            (Some(f), Some(m))
                if m == f.marker && count >= f.count && inner[count..].trim().is_empty() =>
            {
                fence = None;
                continue;
            }
            (Some(_), _) => continue,
            _ => {}
        }
        let starts_line = inner.starts_with('<');
        for (name, closing, range) in tags(content) {
            let span = Span::new(body.start + start + range.start, body.start + start + range.end);
            let opens_section = !closing && starts_line && range.start == lead;
            if closing {
                open.get_mut(&name.to_ascii_lowercase()).and_then(Vec::pop);
            } else if opens_section {
                open.entry(name.to_ascii_lowercase()).or_default().push((name, span));
            }
        }
    }
    if let Some(fence) = fence {
        let marks = match fence.marker {
            '`' => "backticks",
            _ => "tildes",
        };
        out.push(
            Diagnostic::at(
                Code::UnclosedMarkup,
                &source.path,
                fence.line,
                "this code fence is never closed",
            )
            .with_help(format!(
                "everything after this line reaches the model as code; close the block with a \
                 line of {} {marks} where the code ends",
                fence.count
            )),
        );
    }
    let mut open: Vec<(&str, Span)> = open.into_values().flatten().collect();
    open.sort_by_key(|(_, span)| span.start);
    for (name, span) in open {
        out.push(
            Diagnostic::at(
                Code::UnclosedMarkup,
                &source.path,
                span,
                format!("`<{name}>` is opened here and never closed"),
            )
            .with_help(format!(
                "close it with `</{name}>` where the section ends; the model cannot tell where \
                 it stops"
            )),
        );
    }
}

/// Whether `text` holds a `<`, a "```" or a `~~~`: one SIMD pass over a
/// body that holds none (most), where three searches for the strings were
/// 3% of a check.
fn may_hold_markup(text: &[u8]) -> bool {
    memchr::memchr3_iter(b'<', b'`', b'~', text).any(|at| match text[at] {
        b'<' => true,
        mark => text.get(at + 1..at + 3) == Some(&[mark, mark][..]),
    })
}

/// The tags of a line: (name, closing, byte range). Comments,
/// declarations, void elements, self-closing tags and tags in code spans
/// are left out.
fn tags(html: &str) -> Vec<(&str, bool, std::ops::Range<usize>)> {
    let bytes = html.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    // Backticks before `counted`, counted once each: a long line stays linear.
    let (mut ticks, mut counted) = (0usize, 0usize);
    while let Some(at) = html[from..].find('<').map(|i| from + i) {
        from = at + 1;
        ticks += bytes[counted..at].iter().filter(|&&b| b == b'`').count();
        counted = at;
        // Inside a code span (an odd number of backticks before it): code.
        if ticks % 2 == 1 {
            continue;
        }
        let mut i = at + 1;
        let closing = bytes.get(i) == Some(&b'/');
        if closing {
            i += 1;
        }
        let name_start = i;
        if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        while bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric() || b"_.:-".contains(b)) {
            i += 1;
        }
        let name = &html[name_start..i];
        // No `>` after this `<` means none after any later one either.
        let Some(end) = html[i..].find('>').map(|j| i + j) else {
            break;
        };
        let self_closing = html[..end].ends_with('/');
        if self_closing || VOID.iter().any(|v| v.eq_ignore_ascii_case(name)) {
            continue;
        }
        found.push((name, closing, at..end + 1));
        from = end + 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::RelPath;
    use crate::options::ContentRules;

    /// The first pass says yes wherever the strings are, as the searches did.
    #[test]
    fn the_first_pass_finds_a_tag_or_three_fence_marks() {
        for (text, holds) in [
            ("plain prose", false),
            ("a `code` span and ~tilde~ ``two``", false),
            ("ends with ``", false),
            ("```rust", true),
            ("x ~~~", true),
            ("a <tag>", true),
            ("`` ` ``` ", true),
        ] {
            let expected = text.contains("```") || text.contains("~~~") || text.contains('<');
            assert_eq!(expected, holds, "{text}");
            assert_eq!(may_hold_markup(text.as_bytes()), holds, "{text}");
        }
    }

    fn found(text: &str) -> Vec<String> {
        let source = Source::new(RelPath::root("a.md"), text);
        let mut out = Vec::new();
        unclosed(&source, Span::new(0, text.len()), &mut out);
        out.into_iter().map(|d| d.message).collect()
    }

    /// A source read without the rule is not read for markup.
    #[test]
    fn a_source_without_the_rule_is_not_scanned() {
        let text = "<example>\n```sh\nrun\n";
        assert_eq!(found(text).len(), 2);
        let rules = ContentRules { unclosed_markup: false, ..ContentRules::ALL };
        let source = Source::with_digest(RelPath::root("a.md"), text, String::new(), rules);
        let mut out = Vec::new();
        unclosed(&source, Span::new(0, text.len()), &mut out);
        assert_eq!(out, Vec::new());
    }

    #[test]
    fn closed_markup_passes() {
        assert!(found("```sh\nls\n```\n").is_empty());
        assert!(found("~~~~\n```\nnot a close\n~~~~\n").is_empty());
        assert!(found("<example>\nuser: hi\n</example>\n").is_empty());
        assert!(found("<example>\n\nContext: x\n\n</example>\n").is_empty());
        assert!(found("Returns List<String> values.\n").is_empty());
        assert!(found("<br>\n<img src=\"a.png\">\n<hr/>\n").is_empty());
        assert!(found("`<example>` in code\n\n```\n<example>\n```\n").is_empty());
        assert!(found("> ```\n> code\n> ```\n").is_empty());
    }

    #[test]
    fn unclosed_markup_is_found() {
        assert_eq!(found("Run:\n\n```bash\nnpm test\n"), ["this code fence is never closed"]);
        assert_eq!(
            found("<example>\nuser: hi\n\nassistant: hello\n"),
            ["`<example>` is opened here and never closed"]
        );
        assert_eq!(
            found("<rules>\n<rule>\none\n</rule>\n"),
            ["`<rules>` is opened here and never closed"]
        );
    }
}
