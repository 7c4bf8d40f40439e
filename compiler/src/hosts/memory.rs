//! The memory files: `AGENTS.md` (agents.md; Codex, VS Code, OpenCode),
//! Claude Code's `CLAUDE.md` and Gemini CLI's `GEMINI.md`, in any folder of
//! the repository. Plain Markdown; Claude Code and Gemini CLI also expand
//! `@path` imports, each with its own syntax (`docs/research/other-formats.md`
//! §3). Which imports lead somewhere is checked in `check::memory`.

use std::ops::Range;

use agentc_schema::{Dialect, Span};
use pulldown_cmark::{Event, Options, Parser, Tag};

use super::Declared;

/// The memory files, in every folder of the repository (the discovery walk
/// is bounded and skips hidden folders and `node_modules`), and Claude
/// Code's `.claude/CLAUDE.md`.
pub const PROJECT_FILES: &[Declared] = &[
    Declared { path: "**/AGENTS.md", dialect: Dialect::AgentsMd },
    Declared { path: "**/CLAUDE.md", dialect: Dialect::ClaudeMd },
    Declared { path: ".claude/CLAUDE.md", dialect: Dialect::ClaudeMd },
    Declared { path: "**/GEMINI.md", dialect: Dialect::GeminiMd },
];

/// How many hops of imports both hosts follow: Claude Code's documented
/// five, and Gemini CLI's `maxDepth: 5` (a file reached at depth 5 is read,
/// its own imports are not).
pub const MAX_HOPS: usize = 5;

/// One `@path` import, as the host reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    pub path: String,
    /// Where `@path` is written.
    pub span: Span,
    /// A home (`~/`) or absolute path: outside what agentc looks at.
    pub outside: bool,
}

/// The imports of `text`, a file of `dialect` (a `CLAUDE.md`, a `GEMINI.md`,
/// or a file one of them imports); none for other dialects.
pub fn imports(dialect: Dialect, text: &str) -> Vec<Import> {
    match dialect {
        Dialect::ClaudeMd => scan(text, &claude_code_regions(text), claude_code_path),
        Dialect::GeminiMd => scan(text, &gemini_regions(text), gemini_path),
        _ => Vec::new(),
    }
}

/// Every `@` at the start of the text or after whitespace, with the path
/// up to the next whitespace, outside `code` (regions in order, apart), as
/// `path` reads it.
fn scan(
    text: &str,
    code: &[Range<usize>],
    path: fn(&str) -> Option<(String, bool)>,
) -> Vec<Import> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    // The `@`s come in order too: one walk over the regions, not one per `@`.
    let mut regions = code.iter().peekable();
    for (at, _) in text.match_indices('@') {
        if at > 0 && !matches!(bytes[at - 1], b' ' | b'\t' | b'\r' | b'\n') {
            continue;
        }
        while regions.next_if(|r| r.end <= at).is_some() {}
        if regions.peek().is_some_and(|r| r.contains(&at)) {
            continue;
        }
        let rest = &text[at + 1..];
        let mut end = 0;
        let mut chars = rest.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            // Claude Code reads `\ ` as a space inside the path.
            if c == '\\' && chars.peek().is_some_and(|(_, n)| *n == ' ') {
                chars.next();
                end = i + 2;
                continue;
            }
            if c.is_whitespace() {
                break;
            }
            end = i + c.len_utf8();
        }
        if let Some((written, outside)) = path(&rest[..end]) {
            found.push(Import { path: written, span: Span::new(at, at + 1 + end), outside });
        }
    }
    found
}

/// Claude Code's reading of the text after `@`: a fragment after `#` is
/// dropped and `\ ` is a space; a path starts with `./`, `~/`, `/`, or a
/// letter, digit, `.`, `_` or `-` (so `@@x` and `@#x` are not imports).
fn claude_code_path(raw: &str) -> Option<(String, bool)> {
    let raw = raw.split('#').next().unwrap_or_default().replace("\\ ", " ");
    let first = raw.chars().next()?;
    let outside = raw.starts_with("~/") || (raw.starts_with('/') && raw != "/");
    let relative = first.is_ascii_alphanumeric() || matches!(first, '.' | '_' | '-');
    (outside || relative).then_some((raw, outside))
}

/// Gemini CLI's `findImports`: a path starts with `.`, `/` or an ASCII
/// letter (so `@~/x` is no import); URLs are refused.
fn gemini_path(raw: &str) -> Option<(String, bool)> {
    let first = raw.chars().next()?;
    if !(first == '.' || first == '/' || first.is_ascii_alphabetic()) || raw.contains("://") {
        return None;
    }
    Some((raw.to_owned(), first == '/'))
}

/// Where Claude Code evaluates no import: Markdown code spans and code
/// blocks.
fn claude_code_regions(text: &str) -> Vec<Range<usize>> {
    let mut regions = Vec::new();
    for (event, range) in Parser::new_ext(text, Options::empty()).into_offset_iter() {
        match event {
            Event::Code(_) | Event::Start(Tag::CodeBlock(_)) => regions.push(range),
            _ => {}
        }
    }
    regions
}

/// Where Gemini CLI evaluates no import: what the regex
/// `` /(`+)([\s\S]*?)\1/g `` matches — a run of backticks up to the next
/// run of as many, the opening run shortened when none follows, as a
/// backtracking regex does. `~~~` fences are not code to it.
///
/// Done as the regex would be, trying each shorter opening against the
/// rest of the text, this is quadratic in a run's length; instead, from
/// the runs of backticks and the longest run after each: the opening the
/// regex keeps is the longest that either fits twice in its own run or is
/// no longer than a later run, and it closes at the first place it fits.
fn gemini_regions(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut runs: Vec<Range<usize>> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let run = bytes[at..].iter().take_while(|b| **b == b'`').count();
        if run > 0 {
            runs.push(at..at + run);
        }
        at += run.max(1);
    }
    let mut longest_after = vec![0; runs.len() + 1];
    for (i, run) in runs.iter().enumerate().rev() {
        longest_after[i] = longest_after[i + 1].max(run.len());
    }
    let mut regions = Vec::new();
    let (mut r, mut at) = (0, 0);
    while r < runs.len() {
        let start = at.max(runs[r].start);
        let own = runs[r].end - start;
        let n = (own / 2).max(own.min(longest_after[r + 1]));
        if n == 0 {
            // A lone backtick with none after it: no match.
            r += 1;
            continue;
        }
        let end = if 2 * n <= own {
            start + 2 * n
        } else {
            // The regions between are inside this one: each run is walked
            // past once in all.
            r += 1;
            while runs[r].len() < n {
                r += 1;
            }
            runs[r].start + n
        };
        regions.push(start..end);
        at = end;
        if at >= runs[r].end {
            r += 1;
        }
    }
    regions
}

/// Whether an import that leads nowhere is worth a word: one whose last
/// name has an extension, or that starts with `./` or `../`. `@alice`,
/// `@types/node` and `@Override` are handles, npm scopes and decorators in
/// prose far more often than imports of extension-less files.
pub fn looks_like_file(path: &str) -> bool {
    path.starts_with("./")
        || path.starts_with("../")
        || path
            .rsplit('/')
            .next()
            .is_some_and(|name| name.trim_start_matches('.').contains('.') && !name.ends_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(dialect: Dialect, text: &str) -> Vec<String> {
        imports(dialect, text).into_iter().map(|i| i.path).collect()
    }

    #[test]
    fn claude_code_imports_skip_code_and_emails() {
        let text =
            "See @docs/a.md and mail me@x.com.\n`@b.md` here\n\n```\n@c.md\n```\n@~/x.md @@y\n";
        assert_eq!(paths(Dialect::ClaudeMd, text), ["docs/a.md", "~/x.md"]);
        assert!(imports(Dialect::ClaudeMd, "@~/x.md")[0].outside);
    }

    #[test]
    fn gemini_imports_follow_its_regex() {
        let text = "@./a.md @b.md @~/c.md ~~~\n@d.md\n~~~\n`@e.md` @http://x";
        assert_eq!(paths(Dialect::GeminiMd, text), ["./a.md", "b.md", "d.md"]);
        // An unclosed run of three backticks: the regex still matches ``.
        assert_eq!(gemini_regions("```x"), vec![Range { start: 0, end: 2 }]);
    }

    /// The regex of [`gemini_regions`], run as a backtracking engine does.
    fn gemini_regions_by_regex(text: &str) -> Vec<Range<usize>> {
        let bytes = text.as_bytes();
        let mut regions = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at] != b'`' {
                at += 1;
                continue;
            }
            let run = bytes[at..].iter().take_while(|b| **b == b'`').count();
            let closed = (1..=run).rev().find_map(|n| {
                let fence = "`".repeat(n);
                text[at + n..].find(&fence).map(|i| at + n + i + n)
            });
            match closed {
                Some(end) => {
                    regions.push(at..end);
                    at = end;
                }
                None => at += 1,
            }
        }
        regions
    }

    #[test]
    fn gemini_regions_are_the_regex_matches() {
        // Every text of up to 9 characters of backticks and `x`.
        for len in 0..=9 {
            for bits in 0..1u32 << len {
                let text: String =
                    (0..len).map(|i| if bits >> i & 1 == 1 { '`' } else { 'x' }).collect();
                assert_eq!(gemini_regions(&text), gemini_regions_by_regex(&text), "{text:?}");
            }
        }
        let text = "a ``` b `` c ```` d ` e ````` f";
        assert_eq!(gemini_regions(text), gemini_regions_by_regex(text));
    }

    #[test]
    fn imports_in_and_out_of_many_code_spans() {
        let text = "`@a.md` @b.md ".repeat(3);
        for dialect in [Dialect::ClaudeMd, Dialect::GeminiMd] {
            let found = imports(dialect, &text);
            let spans: Vec<Span> = found.iter().map(|i| i.span).collect();
            assert_eq!(spans, [Span::new(8, 13), Span::new(22, 27), Span::new(36, 41)]);
        }
    }

    #[test]
    fn handles_and_scopes_are_not_files() {
        assert!(looks_like_file("docs/a.md"));
        assert!(looks_like_file("./notes"));
        assert!(!looks_like_file("types/node"));
        assert!(!looks_like_file("alice"));
        assert!(!looks_like_file(".env"));
    }
}
