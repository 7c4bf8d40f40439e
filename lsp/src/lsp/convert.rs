//! Between the compiler's byte offsets and the protocol's positions, and from
//! [`Diagnostic`]s to the protocol's diagnostics and edits.

use agentc_schema::Span;
use lsp_types as lsp;
use lsp_types::Url;

use agentc_compiler::compile::Compilation;
use agentc_compiler::diagnostic::{Diagnostic, Edit, RelPath, Severity};
use agentc_compiler::source::Source;

/// How the client counts characters in a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// Line starts of one text, for turning offsets into positions and back.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    encoding: Encoding,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str, encoding: Encoding) -> Lines<'a> {
        let starts =
            std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Lines { text, starts, encoding }
    }

    pub fn position(&self, offset: usize) -> lsp::Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let before = &self.text[self.starts[line]..offset];
        let character = match self.encoding {
            Encoding::Utf8 => before.len(),
            Encoding::Utf16 => before.encode_utf16().count(),
        };
        lsp::Position { line: line as u32, character: character as u32 }
    }

    pub fn range(&self, span: Span) -> lsp::Range {
        lsp::Range { start: self.position(span.start), end: self.position(span.end) }
    }

    /// The offset of `position`, clamped to its line (a position past a
    /// line's end is its end, as the protocol says).
    pub fn offset(&self, position: lsp::Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self.starts.get(position.line as usize + 1).map_or(self.text.len(), |&n| n - 1);
        let line = &self.text[start..end];
        let wanted = position.character as usize;
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= wanted {
                return start + i;
            }
            units += match self.encoding {
                Encoding::Utf8 => c.len_utf8(),
                Encoding::Utf16 => c.len_utf16(),
            };
        }
        end
    }
}

pub fn url(compilation: &Compilation, file: &RelPath) -> Option<Url> {
    compilation.disk_path(file).and_then(|path| Url::from_file_path(path).ok())
}

/// The range of `span` in `file`, or the file's start when there is none.
/// It uses the source's own line index: publishing a file's diagnostics
/// costs their lines, not the file once per diagnostic.
pub fn range(
    compilation: &Compilation,
    file: &RelPath,
    span: Option<Span>,
    encoding: Encoding,
) -> lsp::Range {
    match (span, compilation.source(file)) {
        (Some(span), Some(source)) => lsp::Range {
            start: position(source, span.start, encoding),
            end: position(source, span.end, encoding),
        },
        _ => lsp::Range::default(),
    }
}

fn position(source: &Source, offset: usize, encoding: Encoding) -> lsp::Position {
    let text = &*source.text;
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = source.line_index(offset);
    let before = &text[source.line_range(line).start..offset];
    let character = match encoding {
        Encoding::Utf8 => before.len(),
        Encoding::Utf16 => before.encode_utf16().count(),
    };
    lsp::Position { line: line as u32, character: character as u32 }
}

/// The protocol's diagnostic: the same code, message and related places as
/// the command line, with the help after the message.
pub fn diagnostic(
    compilation: &Compilation,
    d: &Diagnostic,
    encoding: Encoding,
) -> lsp::Diagnostic {
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .filter_map(|label| {
            let file = &label.location.file;
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location {
                    uri: url(compilation, file)?,
                    range: range(compilation, file, label.location.span, encoding),
                },
                message: label.message.clone(),
            })
        })
        .collect();
    lsp::Diagnostic {
        range: range(compilation, &d.location.file, d.location.span, encoding),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.code.as_str().to_owned())),
        source: Some("agentc".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp::Diagnostic::default()
    }
}

/// Edits as one workspace edit, grouped by file.
pub fn workspace_edit(
    compilation: &Compilation,
    edits: &[Edit],
    encoding: Encoding,
) -> std::collections::HashMap<Url, Vec<lsp::TextEdit>> {
    let mut changes: std::collections::HashMap<Url, Vec<lsp::TextEdit>> = Default::default();
    for edit in edits {
        let Some(uri) = url(compilation, &edit.file) else {
            continue;
        };
        changes.entry(uri).or_default().push(lsp::TextEdit {
            range: range(compilation, &edit.file, Some(edit.span), encoding),
            new_text: edit.replacement.clone(),
        });
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The source's line index gives the same positions as the lines made here.
    #[test]
    fn positions_from_the_source_agree() {
        let text = "ab\né😀x\r\nlast";
        let source = Source::new(RelPath::root("f"), text);
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            let lines = Lines::new(text, encoding);
            for offset in 0..=text.len() + 2 {
                assert_eq!(position(&source, offset, encoding), lines.position(offset), "{offset}");
            }
        }
    }

    #[test]
    fn positions_count_the_clients_units_and_round_trip() {
        let text = "ab\né😀x\r\nlast";
        let lines = Lines::new(text, Encoding::Utf16);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(x), lsp::Position { line: 1, character: 3 });
        assert_eq!(lines.offset(lines.position(x)), x);
        let utf8 = Lines::new(text, Encoding::Utf8);
        assert_eq!(utf8.position(x), lsp::Position { line: 1, character: 6 });
        assert_eq!(utf8.offset(utf8.position(x)), x);
        // Past the end of a line is its end; past the last line is the text's end.
        assert_eq!(lines.offset(lsp::Position { line: 0, character: 99 }), 2);
        assert_eq!(lines.offset(lsp::Position { line: 9, character: 0 }), text.len());
    }
}
