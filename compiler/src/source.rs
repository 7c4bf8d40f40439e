//! Source text and the mapping from byte offsets to lines and columns.

use std::sync::Arc;

use agentc_schema::Span;
use agentc_schema::lockfile::sha256_hex;

use crate::diagnostic::RelPath;

/// A file's text, as read (a leading BOM already removed).
#[derive(Clone, Debug)]
pub struct Source {
    pub path: RelPath,
    pub text: Arc<str>,
    /// sha256 of the file's bytes as they are on disk (BOM included).
    pub sha256: String,
    line_starts: Vec<usize>,
}

/// A 1-based line and column; columns count Unicode scalar values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl Source {
    /// A source whose bytes on disk are exactly `text`.
    pub fn new(path: RelPath, text: impl Into<Arc<str>>) -> Source {
        let text = text.into();
        let sha256 = sha256_hex(text.as_bytes());
        Source::with_digest(path, text, sha256)
    }

    /// A source whose bytes on disk have the digest `sha256`.
    pub fn with_digest(path: RelPath, text: impl Into<Arc<str>>, sha256: String) -> Source {
        let text = text.into();
        let line_starts =
            std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Source { path, text, sha256, line_starts }
    }

    /// The 0-based line holding byte `offset`.
    pub fn line_index(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset).saturating_sub(1)
    }

    /// The byte range of 0-based line `index`, without its line end (`\n` or `\r\n`).
    pub fn line_range(&self, index: usize) -> std::ops::Range<usize> {
        let start = self.line_starts.get(index).copied().unwrap_or(self.text.len());
        let mut end = self.line_starts.get(index + 1).map_or(self.text.len(), |next| next - 1);
        if end > start && self.text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        start..end.max(start)
    }

    /// The line and column of byte `offset`, clamped into the text.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let column = self.text[start..offset].chars().count() + 1;
        LineCol { line: line + 1, column }
    }

    /// Where a span starts and ends.
    pub fn span_bounds(&self, span: Span) -> (LineCol, LineCol) {
        (self.line_col(span.start), self.line_col(span.end.max(span.start)))
    }

    fn floor_char_boundary(&self, mut offset: usize) -> usize {
        while offset > 0 && !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
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
}
