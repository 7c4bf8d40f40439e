//! Source text and the mapping from byte offsets to lines and columns.

use std::sync::{Arc, OnceLock};

use agentc_schema::{SharedStr, Span};

use crate::diagnostic::RelPath;

/// A file's text, as read (a leading BOM already removed). A cheap handle:
/// a source is cloned into every part of a compile that reports on it (the
/// sources table, each skill and agent, the editor's index), and a clone
/// shares the text, the line index and the column marks.
#[derive(Clone, Debug)]
pub struct Source(Arc<SourceData>);

/// What a [`Source`] holds.
#[derive(Debug)]
pub struct SourceData {
    pub path: RelPath,
    pub text: Arc<str>,
    /// sha256 of the file's bytes as they are on disk (BOM included), made
    /// the first time it is asked for ([`Source::sha256`]): only a lockfile,
    /// a fix and copies compared read it, and it was 4% of a check's time.
    sha256: OnceLock<String>,
    /// Whether the bytes on disk began with a BOM the text is without.
    bom: bool,
    /// The content rules its compile runs over the text; the others are
    /// never run on it.
    pub content_rules: ContentRules,
    /// Where each line starts, made the first time a position is asked
    /// for: most files of a compile are never shown.
    line_starts: OnceLock<Box<[usize]>>,
    /// Characters before each multiple of [`MARK_STRIDE`] bytes, made the first
    /// time a column is asked far into a line: thousands of diagnostics on one
    /// long line then cost a bounded count each, not a scan from the line's start.
    char_marks: OnceLock<Box<[usize]>>,
    /// The secrets in the text, found the first time they are asked for
    /// (when the file is read, in the compile's parallel pass); never when
    /// the `secret` rule is not run.
    secrets: OnceLock<Box<[crate::secrets::Found]>>,
    /// [`Source::masked`], made once: every diagnostic in the file shows it.
    masked: OnceLock<Option<Source>>,
}

const MARK_STRIDE: usize = 4096;

/// Characters in `bytes`, which start and end on character boundaries.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

/// A 1-based line and column; columns count Unicode scalar values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl std::ops::Deref for Source {
    type Target = SourceData;

    fn deref(&self) -> &SourceData {
        &self.0
    }
}

impl Source {
    /// A source whose bytes on disk are exactly `text`, with every content
    /// rule.
    pub fn new(path: RelPath, text: impl Into<Arc<str>>) -> Source {
        Source::read(path, text, false, ContentRules::ALL)
    }

    /// A source read from bytes that are `text`, after a BOM when `bom`,
    /// for a compile running `content_rules`.
    pub fn read(
        path: RelPath,
        text: impl Into<Arc<str>>,
        bom: bool,
        content_rules: ContentRules,
    ) -> Source {
        Source::made(path, text.into(), OnceLock::new(), bom, content_rules)
    }

    /// A source whose bytes on disk have the digest `sha256`, read for a
    /// compile running `content_rules`.
    pub fn with_digest(
        path: RelPath,
        text: impl Into<Arc<str>>,
        sha256: String,
        content_rules: ContentRules,
    ) -> Source {
        Source::made(path, text.into(), OnceLock::from(sha256), false, content_rules)
    }

    fn made(
        path: RelPath,
        text: Arc<str>,
        sha256: OnceLock<String>,
        bom: bool,
        content_rules: ContentRules,
    ) -> Source {
        Source(Arc::new(SourceData {
            path,
            text,
            sha256,
            bom,
            content_rules,
            line_starts: OnceLock::new(),
            char_marks: OnceLock::new(),
            secrets: OnceLock::new(),
            masked: OnceLock::new(),
        }))
    }

    /// sha256 of the file's bytes as they are on disk, in lowercase hex.
    pub fn sha256(&self) -> &str {
        self.sha256.get_or_init(|| self.hash())
    }

    /// [`Source::sha256`] for a caller that keeps it: made and handed over,
    /// not kept here too. The lockfile holds every file's digest, and a copy
    /// in each source as well was 0.7 MB of a 10,000-skill lock's peak.
    pub fn digest(&self) -> String {
        self.sha256.get().cloned().unwrap_or_else(|| self.hash())
    }

    fn hash(&self) -> String {
        let bom: &[u8] = if self.bom { "\u{feff}".as_bytes() } else { &[] };
        agentc_schema::lockfile::sha256_hex_of(&[bom, self.text.as_bytes()])
    }

    /// Where each line starts, at the size it needs.
    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let bytes = self.text.as_bytes();
            let mut starts = Vec::with_capacity(memchr::memchr_iter(b'\n', bytes).count() + 1);
            starts.push(0);
            starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
            starts.into_boxed_slice()
        })
    }

    /// The 0-based line holding byte `offset`.
    pub fn line_index(&self, offset: usize) -> usize {
        self.line_starts().partition_point(|&start| start <= offset).saturating_sub(1)
    }

    /// The byte range of 0-based line `index`, without its line end (`\n` or `\r\n`).
    pub fn line_range(&self, index: usize) -> std::ops::Range<usize> {
        let line_starts = self.line_starts();
        let start = line_starts.get(index).copied().unwrap_or(self.text.len());
        let mut end = line_starts.get(index + 1).map_or(self.text.len(), |next| next - 1);
        if end > start && self.text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        start..end.max(start)
    }

    /// The line and column of byte `offset`, clamped into the text.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let line = self.line_index(offset);
        let start = self.line_starts().get(line).copied().unwrap_or(0);
        let column = if offset - start <= MARK_STRIDE {
            count_chars(&self.text.as_bytes()[start..offset])
        } else {
            self.chars_before(offset) - self.chars_before(start)
        };
        LineCol { line: line + 1, column: column + 1 }
    }

    /// Characters in the text before byte `offset`, a character boundary.
    fn chars_before(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let marks = self.char_marks.get_or_init(|| {
            let mut marks = Vec::with_capacity(bytes.len() / MARK_STRIDE + 2);
            let mut count = 0;
            marks.push(0);
            for chunk in bytes.chunks(MARK_STRIDE) {
                count += count_chars(chunk);
                marks.push(count);
            }
            marks.into_boxed_slice()
        });
        let mark = offset / MARK_STRIDE;
        let from = mark * MARK_STRIDE;
        marks.get(mark).copied().unwrap_or(0) + count_chars(&bytes[from.min(offset)..offset])
    }

    /// The text `span` covers (a span of this file, on character boundaries).
    pub fn slice(&self, span: Span) -> &str {
        &self.text[span.start..span.end]
    }

    /// [`Source::slice`], sharing the file's text rather than copying it.
    pub fn shared(&self, span: Span) -> SharedStr {
        SharedStr::slice(self.text.clone(), span.start..span.end)
    }

    /// Where a span starts and ends.
    pub fn span_bounds(&self, span: Span) -> (LineCol, LineCol) {
        (self.line_col(span.start), self.line_col(span.end.max(span.start)))
    }

    /// The secrets committed in this file; none looked for when the
    /// `secret` rule is not run.
    pub fn secrets(&self) -> &[crate::secrets::Found] {
        if !self.content_rules.secret {
            return &[];
        }
        self.secrets
            .get_or_init(|| crate::secrets::scan(&self.path.path, &self.text).into_boxed_slice())
    }

    /// Whether the file's text has been scanned for secrets.
    #[cfg(test)]
    pub(crate) fn secrets_scanned(&self) -> bool {
        self.secrets.get().is_some()
    }

    /// The file as it may be shown, its secrets masked byte for byte (every
    /// span of the file still points where it did); `None` when it holds none.
    pub fn masked(&self) -> Option<Source> {
        self.masked.get_or_init(|| self.mask()).clone()
    }

    fn mask(&self) -> Option<Source> {
        let secrets = self.secrets();
        if secrets.is_empty() {
            return None;
        }
        let mut hidden: Vec<Span> = secrets.iter().flat_map(|f| f.hidden.iter().copied()).collect();
        hidden.sort_by_key(|s| s.start);
        let text = crate::secrets::mask(&self.text, hidden.into_iter());
        let sha256 = self.sha256().to_owned();
        Some(Source::with_digest(self.path.clone(), text, sha256, self.content_rules))
    }

    fn floor_char_boundary(&self, mut offset: usize) -> usize {
        while offset > 0 && !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }
}

impl crate::secrets::Scanned for Source {
    fn path(&self) -> &RelPath {
        &self.path
    }

    fn text(&self) -> &str {
        &self.text
    }

    fn secrets(&self) -> &[crate::secrets::Found] {
        Source::secrets(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_scalar_values_and_skip_cr() {
        let src = Source::new(RelPath::root("a.md"), "é: x\r\nname: b\r\n");
        assert_eq!(src.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(src.line_col(4), LineCol { line: 1, column: 4 });
        assert_eq!(src.line_col(7), LineCol { line: 2, column: 1 });
        assert_eq!(src.line_range(0), 0..5);
        assert_eq!(&src.text[src.line_range(1)], "name: b");
    }

    #[test]
    fn columns_far_into_a_long_line_count_every_character() {
        let line = "é".repeat(10_000) + "x" + &"a".repeat(9_000);
        let src = Source::new(RelPath::root("a.md"), format!("key: v\n{line}\nend"));
        let x = 7 + 20_000;
        assert_eq!(&src.text[x..x + 1], "x");
        assert_eq!(src.line_col(x), LineCol { line: 2, column: 10_001 });
        let end = 7 + line.len();
        assert_eq!(src.line_col(end), LineCol { line: 2, column: 19_002 });
        assert_eq!(src.line_col(end + 1), LineCol { line: 3, column: 1 });
    }
}

/// The rules that read a file's text rather than what it declares: each
/// costs time in proportion to the input. A [`Source`]
/// is read with the ones its compile runs, and each scan asks its source
/// first, so a rule `[lints]` allows costs nothing: the parse, the language
/// server's updates and the rendering all see the same answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContentRules {
    /// `secret`: gitleaks' rules over the text. Without it nothing is
    /// masked either, as nothing is known to be a secret.
    pub secret: bool,
    /// `hidden-character`: invisible and bidirectional Unicode.
    pub hidden_character: bool,
    /// `unclosed-markup`: fences and XML-style tags a Markdown body opens.
    pub unclosed_markup: bool,
    /// `hidden-instruction`: directives in a Markdown file's HTML comments.
    pub hidden_instruction: bool,
}

impl ContentRules {
    pub const ALL: ContentRules = ContentRules {
        secret: true,
        hidden_character: true,
        unclosed_markup: true,
        hidden_instruction: true,
    };
}

impl Default for ContentRules {
    fn default() -> ContentRules {
        ContentRules::ALL
    }
}
