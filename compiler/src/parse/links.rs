//! Finding the relative links and images in a Markdown body.
//!
//! pulldown-cmark decides what is a link (so code spans, code blocks and
//! escaped brackets are handled as CommonMark says); this module only filters
//! the destinations down to file paths and locates each one in the source so a
//! diagnostic can underline exactly the path. It never panics and runs in time
//! linear in the body.

use std::collections::HashSet;

use agentc_schema::Span;
use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

/// A relative link or image target in a Markdown body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// Byte range of the destination as written in the body (inside `(...)` or
    /// the reference definition), offset by `base`. For `<dest>` the angle
    /// brackets are left out, so the span covers the path text alone. When the
    /// destination cannot be located exactly (say it is split across lines
    /// inside a block quote), the span covers the whole link or definition.
    pub span: Span,
    /// The path part: percent-decoded, with any `#fragment` or `?query`
    /// removed; never empty.
    pub path: String,
    pub image: bool,
}

/// Relative links in `body`, which starts at byte `base` of its file, in order
/// of appearance.
///
/// A reference-style link (`[text][label]`, `[label][]`, `[label]`) is reported
/// once per definition actually used, at the first use, with the span of the
/// definition's destination: that is where the path is written and where a
/// fix goes, so repeating it per use would only repeat the same diagnostic,
/// and an unused definition renders nothing a reader could follow. A link and
/// an image sharing one definition are reported separately because callers may
/// hold images to different rules.
pub fn relative_links(body: &str, base: usize) -> Vec<Link> {
    if !may_link(body) {
        return Vec::new();
    }
    parse_links(body, base)
}

/// [`relative_links`] by the Markdown parser, whatever the text.
fn parse_links(body: &str, base: usize) -> Vec<Link> {
    // GitHub-flavoured constructs change what counts as a link: a footnote
    // `[^1]: x` is not a reference definition, and `|` splits table cells.
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS;
    let mut events = Parser::new_ext(body, options).into_offset_iter();
    let mut links = Vec::new();
    // Open links and images, with where their text has reached so far: the
    // destination follows the `](` after the text, which cannot be found by
    // scanning the text itself (it may hold brackets in code spans or images).
    let mut open: Vec<Open> = Vec::new();
    let mut used_definitions = HashSet::new();

    while let Some((event, range)) = events.next() {
        let image = matches!(event, Event::Start(Tag::Image { .. }));
        match event {
            Event::Start(Tag::Link { link_type, dest_url, id, .. })
            | Event::Start(Tag::Image { link_type, dest_url, id, .. }) => {
                let target = match link_type {
                    LinkType::Inline | LinkType::Autolink => {
                        relative_path(&dest_url).map(|path| (path, Target::Inline(dest_url)))
                    }
                    LinkType::Reference | LinkType::Collapsed | LinkType::Shortcut => {
                        relative_path(&dest_url).and_then(|path| {
                            let def = events.reference_definitions().get(&id)?;
                            // Checked before locating, so a long definition used
                            // many times is scanned once, keeping this linear.
                            if !used_definitions.insert((def.span.start, image)) {
                                return None;
                            }
                            let whole = def.span.clone();
                            let span = locate_definition_dest(body, whole.clone(), &def.dest)
                                .unwrap_or(whole);
                            Some((path, Target::Definition(span)))
                        })
                    }
                    // Emails are `mailto:` targets; the others need options not enabled.
                    _ => None,
                };
                open.push(Open { start: range.start, text_end: range.start + 1, target, image });
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if let Some(link) = open.pop()
                    && let Some((path, target)) = link.target
                {
                    let span = match target {
                        Target::Definition(span) => span,
                        Target::Inline(dest) => {
                            locate_inline_dest(body, link.text_end, range.end, &dest)
                                .unwrap_or(range.clone())
                        }
                    };
                    let span = Span::new(base + span.start, base + span.end);
                    links.push((link.start, Link { span, path, image: link.image }));
                }
                if let Some(outer) = open.last_mut() {
                    outer.text_end = outer.text_end.max(range.end);
                }
            }
            _ => {
                if let Some(outer) = open.last_mut() {
                    outer.text_end = outer.text_end.max(range.end);
                }
            }
        }
    }
    // Links are pushed when they close, so an image inside a link would come
    // out before the link that opened first. Sorting by where the link starts,
    // not by span, keeps a reference link at its first use.
    links.sort_by_key(|&(start, _)| start);
    links.into_iter().map(|(_, link)| link).collect()
}

/// A link or image whose end has not been seen yet.
struct Open<'a> {
    start: usize,
    /// The end of the text seen so far (just past the `[` while there is none).
    text_end: usize,
    /// The relative path and where its destination is written, or `None` for
    /// a link that is not reported.
    target: Option<(String, Target<'a>)>,
    image: bool,
}

enum Target<'a> {
    /// Written after the text; located when the link closes. Holds the
    /// destination as pulldown-cmark read it, to check the location against.
    Inline(pulldown_cmark::CowStr<'a>),
    /// Written in a reference definition, already located.
    Definition(std::ops::Range<usize>),
}

/// Whether `body` can hold a relative link: a reference definition (`]:`,
/// which every reference link needs), or an inline link or image (`](`)
/// whose destination, as written, does not start with a scheme, `#` or `/`
/// and is not empty — those [`relative_path`] refuses whatever their escapes
/// decode to. An autolink always has a scheme. Most bodies and bundled files
/// link only to the web or to nothing (three in four Markdown bytes of the
/// wide corpus), and skip the Markdown parser; a test holds that the parser
/// finds nothing in what this passes over.
fn may_link(body: &str) -> bool {
    let bytes = body.as_bytes();
    if memchr::memmem::find(bytes, b"]:").is_some() {
        return true;
    }
    memchr::memmem::find_iter(bytes, b"](").any(|at| {
        let rest = body[at + 2..].trim_start_matches(|c: char| c.is_ascii_whitespace());
        let rest = rest.strip_prefix('<').unwrap_or(rest);
        !(rest.starts_with(['#', '/', ')']) || has_scheme(rest))
    })
}

/// The path of `dest` if it names a file relative to the linking document.
fn relative_path(dest: &str) -> Option<String> {
    // Placeholders of templates are filled in later, so the text is no path
    // yet: `{{x}}`, `${x}`, `<x>`, and a format string's `{x}` (a Python
    // f-string in a command's example, `[Guide]({guide_url(name)})`).
    let braced = dest.find('{').is_some_and(|open| dest[open..].contains('}'));
    if braced || dest.contains("${") || dest.contains(['<', '>']) {
        return None;
    }
    if has_scheme(dest) {
        return None;
    }
    let end = dest.find(['?', '#']).unwrap_or(dest.len());
    let path = percent_decode(&dest[..end]);
    // `/x` and `//host/x` leave the document's directory; a leading `\` is the
    // Windows spelling of the same. A decoded `%2F` counts too, since the
    // caller joins the decoded path onto a directory.
    if path.is_empty() || path.starts_with(['/', '\\']) {
        return None;
    }
    Some(path)
}

/// Does `dest` start with an RFC 3986 scheme (`ALPHA *( ALPHA / DIGIT / "+" /
/// "-" / "." ) ":"`)? A drive letter such as `C:` matches too, which is wanted:
/// an absolute Windows path is no more relative than a URL. Only the scheme
/// is looked at, so `dest` may be the rest of a whole body ([`may_link`]).
fn has_scheme(dest: &str) -> bool {
    let scheme = dest
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
        .unwrap_or(dest.len());
    dest.starts_with(|c: char| c.is_ascii_alphabetic()) && dest[scheme..].starts_with(':')
}

/// `%XX` escapes decoded; text whose escapes do not decode to UTF-8 is kept as
/// written, since such a name cannot be a `String` path anyway.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i..i + 3) {
            Some([b'%', hi, lo]) => hex(*hi).zip(hex(*lo)).map(|(hi, lo)| hi << 4 | lo),
            _ => None,
        };
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

fn hex(digit: u8) -> Option<u8> {
    (digit as char).to_digit(16).map(|d| d as u8)
}

/// The destination of an inline link whose text ends at `text_end` and which
/// ends at `end`: it follows the first `](` after the text.
fn locate_inline_dest(
    body: &str,
    text_end: usize,
    end: usize,
    dest: &str,
) -> Option<std::ops::Range<usize>> {
    let open = body.get(text_end..end)?.find("](")? + text_end + 2;
    locate_dest(body, open, end, dest)
}

/// The destination in the reference definition `[label]: dest "title"` at `def`.
fn locate_definition_dest(
    body: &str,
    def: std::ops::Range<usize>,
    dest: &str,
) -> Option<std::ops::Range<usize>> {
    let bytes = body.as_bytes().get(def.clone())?;
    if bytes.first() != Some(&b'[') {
        return None;
    }
    // A label cannot hold an unescaped bracket, so the first one closes it.
    let mut i = 1;
    while i < bytes.len() && bytes[i] != b']' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    if bytes.get(i + 1) != Some(&b':') {
        return None;
    }
    locate_dest(body, def.start + i + 2, def.end, dest)
}

/// The destination starting after blanks (and at most one line end) at `from`,
/// checked against `dest`, the destination as pulldown-cmark read it, so that
/// a guess that went astray falls back to a coarser span instead of pointing
/// at the wrong text.
fn locate_dest(body: &str, from: usize, end: usize, dest: &str) -> Option<std::ops::Range<usize>> {
    let bytes = body.as_bytes().get(..end)?;
    let mut i = from;
    let skip_blanks = |mut i: usize| {
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    i = skip_blanks(i);
    if bytes.get(i) == Some(&b'\r') {
        i += 1;
    }
    if bytes.get(i) == Some(&b'\n') {
        i += 1;
    }
    i = skip_blanks(i);

    let range = if bytes.get(i) == Some(&b'<') {
        let start = i + 1;
        let mut j = start;
        loop {
            match bytes.get(j)? {
                b'>' => break start..j,
                b'<' | b'\n' | b'\r' => return None,
                b'\\' => j += 2,
                _ => j += 1,
            }
        }
    } else {
        let start = i;
        let mut j = start;
        let mut depth = 0usize;
        while let Some(&b) = bytes.get(j) {
            match b {
                b'(' => depth += 1,
                b')' if depth == 0 => break,
                b')' => depth -= 1,
                b'\\' if bytes.get(j + 1).is_some_and(u8::is_ascii_punctuation) => j += 1,
                _ if b.is_ascii_whitespace() || b.is_ascii_control() => break,
                _ => {}
            }
            j += 1;
        }
        start..j
    };
    let raw = body.get(range.clone())?;
    written_as(raw, dest).then_some(range)
}

/// Could `raw` be how `dest` was written? Backslash escapes are undone; text
/// with an entity (`&amp;`) is accepted as is, since decoding entities is the
/// parser's business and the location is right if the delimiters were.
fn written_as(raw: &str, dest: &str) -> bool {
    if raw.contains('&') {
        return !raw.is_empty();
    }
    let mut unescaped = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&next) if c == '\\' && next.is_ascii_punctuation() => {
                unescaped.push(next);
                chars.next();
            }
            _ => unescaped.push(c),
        }
    }
    unescaped == dest
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Each link as (text under its span, path, image), for readable asserts.
    fn found(body: &str) -> Vec<(&str, String, bool)> {
        relative_links(body, 0)
            .into_iter()
            .map(|l| (&body[l.span.start..l.span.end], l.path, l.image))
            .collect()
    }

    fn paths(body: &str) -> Vec<String> {
        relative_links(body, 0).into_iter().map(|l| l.path).collect()
    }

    #[test]
    fn bodies_without_brackets_hold_no_links() {
        for body in [
            "Plain prose (see docs/a.md) and http://example.com/b.md.",
            "    code block ./c.md\n\n* a list\n* of (x)(y) items",
            "",
        ] {
            assert!(!may_link(body));
            let options = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES;
            let links = Parser::new_ext(body, options)
                .filter(|e| matches!(e, Event::Start(Tag::Link { .. } | Tag::Image { .. })))
                .count();
            assert_eq!(links, 0, "{body}");
        }
        assert!(may_link("[a](b.md)") && may_link("[a]\n\n[a]: b.md") && may_link("[a]( <b.md>)"));
        assert!(may_link("[a](\\/b.md)") && may_link("[a](&#47;b.md)") && may_link("[a](C.md)"));
        for body in ["<https://x>", "[a](https://x) [b](#c) [d](/e) [f]()", "![i](\n <mailto:x>)"] {
            assert!(!may_link(body), "{body}");
        }
    }

    #[test]
    fn inline_links_and_images() {
        let body = "See [the guide](docs/guide.md) and ![logo](img/logo.png \"Logo\").\n";
        assert_eq!(
            found(body),
            vec![
                ("docs/guide.md", "docs/guide.md".into(), false),
                ("img/logo.png", "img/logo.png".into(), true),
            ]
        );
    }

    #[test]
    fn spans_are_offset_by_base() {
        let body = "[a](b.md)";
        let links = relative_links(body, 100);
        assert_eq!(links[0].span, Span::new(104, 108));
    }

    #[test]
    fn angle_destination_with_spaces() {
        assert_eq!(
            found("[a](<my file.md> 'title')"),
            vec![("my file.md", "my file.md".into(), false)]
        );
    }

    #[test]
    fn nested_brackets_in_text() {
        assert_eq!(found("[a [b] `](x)` c](real.md)"), vec![("real.md", "real.md".into(), false)]);
    }

    #[test]
    fn image_inside_link_keeps_source_order() {
        let links = relative_links("[![b](b.svg)](t.md)", 0);
        assert_eq!(links.iter().map(|l| l.path.as_str()).collect::<Vec<_>>(), ["t.md", "b.svg"]);
        assert_eq!(links[0].span, Span::new(14, 18));
        assert_eq!(links[1].span, Span::new(6, 11));
    }

    #[test]
    fn parentheses_and_escapes_in_destination() {
        assert_eq!(found("[a](dir/(x).md)"), vec![("dir/(x).md", "dir/(x).md".into(), false)]);
        assert_eq!(found(r"[a](a\_b.md)"), vec![(r"a\_b.md", "a_b.md".into(), false)]);
        assert_eq!(found("[a](a&amp;b.md)"), vec![("a&amp;b.md", "a&b.md".into(), false)]);
    }

    #[test]
    fn destination_on_next_line() {
        assert_eq!(found("[a](\n  b.md\n)"), vec![("b.md", "b.md".into(), false)]);
    }

    #[test]
    fn unlocatable_destination_falls_back_to_the_whole_link() {
        // The continuation line's `>` marker sits between `(` and the destination.
        let body = "> [a](\n> b.md)";
        let links = relative_links(body, 0);
        assert_eq!(links.len(), 1);
        assert_eq!(links[0].path, "b.md");
        assert_eq!(&body[links[0].span.start..links[0].span.end], "[a](\n> b.md)");
    }

    #[test]
    fn reference_links_point_at_the_definition_once() {
        let body =
            "[one][r] and [two][R] and [r][] and [r]\n\n[r]: ref.md \"t\"\n[unused]: unused.md\n";
        assert_eq!(found(body), vec![("ref.md", "ref.md".into(), false)]);
    }

    #[test]
    fn reference_definition_on_next_line_and_angled() {
        let body = "![i] [l]\n\n[i]:\n  <pic ture.png>\n[l]: <x.md>\n";
        assert_eq!(
            found(body),
            vec![("pic ture.png", "pic ture.png".into(), true), ("x.md", "x.md".into(), false)]
        );
    }

    #[test]
    fn link_and_image_sharing_a_definition_are_both_reported() {
        let body = "[a][x] ![b][x]\n\n[x]: x.png\n";
        assert_eq!(
            found(body),
            vec![("x.png", "x.png".into(), false), ("x.png", "x.png".into(), true)]
        );
    }

    #[test]
    fn schemes_are_excluded() {
        for dest in [
            "http://x.org",
            "https://x.org/a.md",
            "mailto:a@b.c",
            "data:image/png;base64,AAAA",
            "file:///etc/passwd",
            "vscode-insiders+x.y:open",
            "C:/Users/a.md",
            r"C:\\Users\\a.md",
        ] {
            assert_eq!(paths(&format!("[a]({dest})")), Vec::<String>::new(), "{dest}");
        }
    }

    #[test]
    fn colon_after_a_slash_is_no_scheme() {
        assert_eq!(paths("[a](./a:b.md)"), ["./a:b.md"]);
    }

    #[test]
    fn autolinks_are_excluded() {
        assert_eq!(paths("<https://x.org/a.md> <a@b.org>"), Vec::<String>::new());
    }

    #[test]
    fn absolute_protocol_relative_and_empty_are_excluded() {
        for body in ["[a](/abs.md)", "[a](//host/a.md)", "[a]()", "[a](<>)", "[a](%2Fetc)"] {
            assert_eq!(paths(body), Vec::<String>::new(), "{body}");
        }
    }

    #[test]
    fn fragments_and_queries() {
        assert_eq!(paths("[a](#section)"), Vec::<String>::new());
        assert_eq!(paths("[a](?q=1)"), Vec::<String>::new());
        assert_eq!(found("[a](b.md#sec)"), vec![("b.md#sec", "b.md".into(), false)]);
        assert_eq!(paths("[a](b.md?x=1#y)"), ["b.md"]);
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(paths("[a](my%20file.md)"), ["my file.md"]);
        assert_eq!(paths("[a](caf%C3%A9.md)"), ["café.md"]);
        assert_eq!(paths("[a](100%.md)"), ["100%.md"]);
        // Not UTF-8 once decoded: kept as written.
        assert_eq!(paths("[a](%FF.md)"), ["%FF.md"]);
    }

    #[test]
    fn templates_are_excluded() {
        for body in [
            "[a]({{dir}}/a.md)",
            "[a](${DIR}/a.md)",
            "[a](<<name>>.md)",
            "[a](a>b.md)",
            "[a]({guide_url(name)})",
            "[a](<{community_url(name)}>)",
            "[a](docs/{name}.md)",
        ] {
            assert_eq!(paths(body), Vec::<String>::new(), "{body}");
        }
    }

    #[test]
    fn code_is_ignored() {
        let body = "`[a](in-span.md)`\n\n```\n[b](in-block.md)\n```\n\n    [c](indented.md)\n";
        assert_eq!(paths(body), Vec::<String>::new());
    }

    #[test]
    fn footnotes_are_not_references() {
        assert_eq!(paths("Text[^1].\n\n[^1]: note.md\n"), Vec::<String>::new());
    }

    #[test]
    fn links_in_tables() {
        let body = "| a | b |\n|---|---|\n| [x](x.md) | ![y](y.png) |\n";
        assert_eq!(
            found(body),
            vec![("x.md", "x.md".into(), false), ("y.png", "y.png".into(), true)]
        );
    }

    #[test]
    fn multibyte_text_around_links() {
        let body = "é [ü ñ](ö/ä.md) 日本";
        assert_eq!(found(body), vec![("ö/ä.md", "ö/ä.md".into(), false)]);
    }

    proptest! {
        #[test]
        fn never_panics_and_spans_stay_in_the_body(
            body in r"([\[\]()<>!#:/\\`*_&%{}$ \n\t\r\x22'|^a-c.é日]|http|\]\(|\[\^|    ){0,60}",
            base in 0usize..1000,
        ) {
            check(&body, base)?;
        }

        #[test]
        fn never_panics_on_any_text(body in any::<String>(), base in 0usize..1000) {
            check(&body, base)?;
        }

        /// What the parser is spared holds no relative link.
        #[test]
        fn a_body_passed_over_has_no_relative_link(
            body in r"([\[\]()<>!#:/\\`&;{}$ \n\t|^a-c.]|https?:|mailto:|C:|&#35;|&#47;|\]\(|\]:|\[\^|    ){0,60}",
        ) {
            if !may_link(&body) {
                prop_assert_eq!(parse_links(&body, 0), Vec::new());
            }
        }
    }

    fn check(body: &str, base: usize) -> Result<(), TestCaseError> {
        for link in relative_links(body, base) {
            prop_assert!(base <= link.span.start && link.span.start <= link.span.end);
            prop_assert!(link.span.end <= base + body.len());
            prop_assert!(body.is_char_boundary(link.span.start - base));
            prop_assert!(body.is_char_boundary(link.span.end - base));
            prop_assert!(!link.path.is_empty());
        }
        Ok(())
    }
}
