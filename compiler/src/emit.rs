//! Emit: diagnostics rendered for people (rustc style) and for machines (JSON lines,
//! GitHub workflow commands, SARIF).

pub mod sarif;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use annotate_snippets::renderer::DecorStyle;
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use serde_json::Value;

use agentc_schema::Span;

use crate::diagnostic::{Counts, Diagnostic, Location, RelPath, Severity};
use crate::source::Source;

pub mod graph;
pub mod typescript;

/// The sources diagnostics point into.
pub type Sources = BTreeMap<RelPath, Source>;

/// Where paths are shown from: without bases, relative to the root (and
/// `@workspace/` for the workspace); the command line shows them from the
/// current folder, code generation from the crate.
#[derive(Clone, Debug, Default)]
pub struct Bases {
    pub root: Option<String>,
    pub workspace: Option<String>,
}

impl Bases {
    /// The root and workspace of `opts` as seen from the current folder, so
    /// a terminal or an editor opens every path a diagnostic shows.
    pub fn from_cwd(opts: &crate::Options) -> Bases {
        Bases {
            root: Some(relative_to_cwd(&opts.root)),
            workspace: opts.workspace.as_deref().map(relative_to_cwd),
        }
    }

    pub fn show(&self, path: &RelPath) -> String {
        let base = match path.origin {
            crate::diagnostic::Origin::Root => &self.root,
            crate::diagnostic::Origin::Workspace => &self.workspace,
            crate::diagnostic::Origin::Given => &None,
        };
        match base {
            // The current folder itself.
            Some(base) if (base.is_empty() || base == ".") && path.path.is_empty() => ".".into(),
            Some(base) if base.is_empty() || base == "." => path.path.to_string(),
            Some(base) if path.path.is_empty() => base.clone(),
            Some(base) => format!("{}/{}", base.trim_end_matches('/'), path.path),
            None => path.to_string(),
        }
    }
}

/// Whether `c`, written as itself, could steer a terminal or a log: the C0
/// controls (line breaks and tabs too), DEL and the C1 controls (`U+009B`
/// is a CSI to some terminals). Names and values come from the repository,
/// so every output format writes these escaped, each in its own way.
pub fn is_control(c: char) -> bool {
    c.is_control()
}

/// `text` with every control character escaped (`\n`, `\u{1b}`): a name or a
/// value from the input can never start a line of its own or steer the
/// terminal. Line breaks in human output come from the renderer alone.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_control(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// JSON text with DEL and the C1 controls written as `\u` escapes as well
/// (serde_json escapes only C0): the same value to every reader, and nothing
/// a terminal showing the text acts on. Outside its strings JSON text is
/// ASCII punctuation and spaces, so every such character is inside a string.
pub fn escape_json(text: String) -> String {
    // Raw line breaks and tabs are the text's own whitespace: serde_json
    // escapes them inside strings.
    let raw = |c: char| is_control(c) && !matches!(c, '\n' | '\t' | '\r');
    if !text.chars().any(raw) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if raw(c) {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// `path` as a person in the current folder would type it: relative when it
/// lies below the current folder, as given otherwise.
pub fn relative_to_cwd(path: &std::path::Path) -> String {
    let cwd = std::env::current_dir().ok().and_then(|d| d.canonicalize().ok());
    // The folder is resolved and the name kept: a symlink is shown by its own
    // name, not its target's, and a file not written yet by where it will be.
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    let absolute = match (parent, path.file_name()) {
        (Some(parent), Some(name)) => parent.canonicalize().ok().map(|p| p.join(name)),
        (None, Some(name)) => cwd.as_ref().map(|cwd| cwd.join(name)),
        _ => path.canonicalize().ok(),
    };
    let shown = match (cwd, absolute) {
        (Some(cwd), Some(absolute)) => match absolute.strip_prefix(&cwd) {
            Ok(inside) => inside.to_path_buf(),
            Err(_) => path.to_path_buf(),
        },
        _ => path.to_path_buf(),
    };
    shown.to_string_lossy().replace('\\', "/")
}

/// Renders one diagnostic the way rustc does.
pub fn human(diagnostic: &Diagnostic, sources: &Sources, color: bool) -> String {
    human_from(diagnostic, sources, color, &Bases::default())
}

/// [`human`], with paths shown from `bases`.
pub fn human_from(
    diagnostic: &Diagnostic,
    sources: &Sources,
    color: bool,
    bases: &Bases,
) -> String {
    let level = match diagnostic.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    // Names and values from the input are in every text below: none may
    // reach the terminal as a control character.
    let message = escape_controls(&diagnostic.message);
    let labels: Vec<std::borrow::Cow<'_, str>> =
        diagnostic.labels.iter().map(|l| escape_controls(&l.message)).collect();
    let show = |file: &RelPath| escape_controls(&bases.show(file)).into_owned();
    let title = level.primary_title(message.as_ref()).id(diagnostic.code.as_str());
    let mut group = Group::with_title(title);

    // One snippet per file: the primary location first, then labels elsewhere.
    let primary = &diagnostic.location;
    let mut files: Vec<&RelPath> = vec![&primary.file];
    for label in &diagnostic.labels {
        if !files.contains(&&label.location.file) {
            files.push(&label.location.file);
        }
    }
    let mut notes = Vec::new();
    let mut headers = Vec::new();
    for file in files {
        let mut marks: Vec<(&Location, Option<&str>, bool)> = Vec::new();
        if &primary.file == file {
            marks.push((primary, None, true));
        }
        for (label, text) in diagnostic.labels.iter().zip(&labels) {
            if &label.location.file == file {
                marks.push((&label.location, Some(text.as_ref()), false));
            }
        }
        // A file holding a secret is shown with it masked.
        let masked = sources.get(file).and_then(Source::masked);
        let source = masked.as_ref().or_else(|| sources.get(file));
        let spanned: Vec<_> = marks.iter().filter(|(loc, ..)| loc.span.is_some()).collect();
        match source {
            Some(source) if !spanned.is_empty() => {
                let spans: Vec<(Span, bool)> = spanned
                    .iter()
                    .filter_map(|(loc, _, is_primary)| Some((loc.span?, *is_primary)))
                    .collect();
                for cluster in clusters(source, &spans) {
                    let window = Window::new(source, &cluster);
                    let shown = show(file);
                    if let Some(header) = window.header(source, &cluster) {
                        headers.push((shown.clone(), header));
                    }
                    let mut snippet = Snippet::source(window.text.clone())
                        .line_start(window.first_line + 1)
                        .path(shown)
                        .fold(true);
                    for (loc, label, is_primary) in &spanned {
                        let Some(span) = loc.span else { continue };
                        if !cluster.contains(&(span, *is_primary)) {
                            continue;
                        }
                        let kind = if *is_primary {
                            AnnotationKind::Primary
                        } else {
                            AnnotationKind::Context
                        };
                        let annotation = kind.span(window.map(source, span));
                        snippet = snippet.annotation(match label {
                            Some(label) => annotation.label(*label),
                            None => annotation,
                        });
                    }
                    group = group.element(snippet);
                }
                for (loc, label, _) in marks.iter().filter(|(loc, ..)| loc.span.is_none()) {
                    if let Some(label) = label {
                        notes.push(format!("{}: {label}", show(&loc.file)));
                    }
                }
            }
            _ => {
                group = group.element(Origin::path(show(file)));
                for (_, label, _) in &marks {
                    if let Some(label) = label {
                        notes.push(format!("{}: {label}", show(file)));
                    }
                }
            }
        }
    }
    for note in &notes {
        group = group.element(Level::NOTE.message(note.as_str()));
    }
    let help = diagnostic.help.as_deref().map(escape_controls);
    if let Some(help) = &help {
        group = group.element(Level::HELP.message(help.as_ref()));
    }
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    correct_columns(renderer.decor_style(DecorStyle::Ascii).render(&[group]), &headers)
}

/// The closing line of a human report.
pub fn human_summary(counts: Counts, color: bool) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let (level, text) = match (counts.errors, counts.warnings) {
        (0, 0) => return "no problems found".to_owned(),
        (0, w) => (Level::WARNING, format!("{} emitted", plural(w, "warning"))),
        (e, 0) => (Level::ERROR, format!("could not compile due to {}", plural(e, "error"))),
        (e, w) => (
            Level::ERROR,
            format!(
                "could not compile due to {}; {} emitted",
                plural(e, "error"),
                plural(w, "warning")
            ),
        ),
    };
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    renderer.render(&[Group::with_title(level.primary_title(text))])
}

/// One diagnostic as a JSON object (CONTRACT §3), paths shown from `bases`:
/// an [`agentc_schema::message::Message`], whose schema is the one published,
/// its keys in the contract's order.
pub fn json(diagnostic: &Diagnostic, sources: &Sources, bases: &Bases) -> Value {
    use agentc_schema::message as m;
    let at = |location: &Location| {
        let file = bases.show(&location.file);
        let bounds = location
            .span
            .zip(sources.get(&location.file))
            .map(|(span, source)| source.span_bounds(span));
        (file, bounds)
    };
    let (file, bounds) = at(&diagnostic.location);
    let labels = (diagnostic.labels.iter())
        .map(|label| {
            let (file, bounds) = at(&label.location);
            m::Label {
                file,
                line: bounds.map(|(start, _)| start.line),
                column: bounds.map(|(start, _)| start.column),
                message: label.message.clone(),
            }
        })
        .collect();
    let fix = diagnostic.fix.as_ref().map(|fix| m::Fix {
        message: fix.message.clone(),
        edits: (fix.edits.iter())
            .map(|edit| {
                let (file, bounds) =
                    at(&Location { file: edit.file.clone(), span: Some(edit.span) });
                m::Edit {
                    file,
                    line: bounds.map(|(start, _)| start.line),
                    column: bounds.map(|(start, _)| start.column),
                    end_line: bounds.map(|(_, end)| end.line),
                    end_column: bounds.map(|(_, end)| end.column),
                    start: edit.span.start,
                    end: edit.span.end,
                    replacement: edit.replacement.clone(),
                }
            })
            .collect(),
    });
    message_json(m::Message::Diagnostic(Box::new(m::Diagnostic {
        code: diagnostic.code.as_str().to_owned(),
        severity: match diagnostic.severity {
            Severity::Error => m::Severity::Error,
            Severity::Warning => m::Severity::Warning,
        },
        message: diagnostic.message.clone(),
        file: Some(file),
        line: bounds.map(|(start, _)| start.line),
        column: bounds.map(|(start, _)| start.column),
        end_line: bounds.map(|(_, end)| end.line),
        end_column: bounds.map(|(_, end)| end.column),
        help: diagnostic.help.clone(),
        labels,
        fix,
    })))
}

/// A line of `--message-format json` as a JSON value.
pub fn message_json(message: agentc_schema::message::Message) -> Value {
    // Plain strings, numbers and lists serialize without fail.
    serde_json::to_value(message).unwrap_or_default()
}

/// A diagnostic as a GitHub Actions workflow command (`::error file=…,line=…::message`):
/// printed by a step, it becomes an annotation on the pull request's line.
/// The message carries the help, each label and the fix on lines of their own.
pub fn github(diagnostic: &Diagnostic, sources: &Sources, bases: &Bases) -> String {
    let level = match diagnostic.severity {
        crate::diagnostic::Severity::Error => "error",
        crate::diagnostic::Severity::Warning => "warning",
    };
    let location = &diagnostic.location;
    // In the order @actions/core writes them, so its output and ours compare.
    // Every text from the input has its control characters escaped as the
    // human report shows them; the line breaks left are the message's own,
    // which the runner reads as `%0A`.
    let show = |file: &RelPath| escape_controls(&bases.show(file)).into_owned();
    let mut properties = vec![
        ("title", format!("agentc {}", diagnostic.code.as_str())),
        ("file", show(&location.file)),
    ];
    if let (Some(span), Some(source)) = (location.span, sources.get(&location.file)) {
        let (start, end) = source.span_bounds(span);
        properties.extend([
            ("line", start.line.to_string()),
            ("endLine", end.line.to_string()),
            ("col", start.column.to_string()),
            ("endColumn", end.column.to_string()),
        ]);
    }
    let properties: Vec<String> = (properties.iter())
        .map(|(key, value)| format!("{key}={}", github_property(value)))
        .collect();
    let mut message = escape_controls(&diagnostic.message).into_owned();
    for label in &diagnostic.labels {
        let at = match (label.location.span, sources.get(&label.location.file)) {
            (Some(span), Some(source)) => {
                let start = source.span_bounds(span).0;
                format!("{}:{}:{}", show(&label.location.file), start.line, start.column)
            }
            _ => show(&label.location.file),
        };
        message.push_str(&format!("\n{at}: {}", escape_controls(&label.message)));
    }
    if let Some(help) = &diagnostic.help {
        message.push_str(&format!("\nhelp: {}", escape_controls(help)));
    }
    if let Some(fix) = &diagnostic.fix {
        message
            .push_str(&format!("\nfix (`agentc check --fix`): {}", escape_controls(&fix.message)));
    }
    format!("::{level} {}::{}", properties.join(","), github_data(&message))
}

/// Why agentc could not run, as a workflow command.
pub fn github_cannot_run(message: &str) -> String {
    format!("::error title=agentc cannot-run::{}", github_data(&escape_controls(message)))
}

/// A workflow command's message, escaped as the Actions runner reads it
/// (actions/toolkit `escapeData`).
fn github_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value (actions/toolkit `escapeProperty`).
fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The last line of JSON output.
pub fn json_summary(counts: Counts) -> Value {
    message_json(agentc_schema::message::Message::Summary(agentc_schema::message::Summary {
        errors: counts.errors,
        warnings: counts.warnings,
    }))
}

// What a snippet copies is bounded, so rendering costs what is shown, not the
// size of the file: thousands of diagnostics on one long line, or labels far
// apart in a long file, each render in constant work.

/// Bytes of a long line kept on each side of a span's ends: more than any
/// terminal shows (the renderer trims a line to its width around the span),
/// so the cut is never visible.
const REACH: usize = 400;
/// Lines longer than this are cut around their spans.
const LONG_LINE: usize = 4 * REACH;
/// Lines kept in full around an annotated line; the renderer folds the rest.
const CONTEXT: usize = 3;
/// Annotated lines farther apart than this are shown as separate snippets.
const GAP: usize = 200;

/// Groups the spans of one file into those whose lines are shown together,
/// the primary span's group first.
fn clusters(source: &Source, spans: &[(Span, bool)]) -> Vec<Vec<(Span, bool)>> {
    let mut by_line: Vec<(usize, usize, (Span, bool))> = spans
        .iter()
        .map(|&(span, primary)| {
            let first = source.line_index(span.start);
            (first, source.line_index(span.end.max(span.start)), (span, primary))
        })
        .collect();
    by_line.sort_by_key(|&(first, last, (span, _))| (first, last, span.start, span.end));
    let mut clusters: Vec<(usize, Vec<(Span, bool)>)> = Vec::new();
    for (first, last, span) in by_line {
        match clusters.last_mut() {
            Some((end, cluster)) if first <= *end + GAP => {
                *end = (*end).max(last);
                cluster.push(span);
            }
            _ => clusters.push((last, vec![span])),
        }
    }
    let mut clusters: Vec<Vec<(Span, bool)>> = clusters.into_iter().map(|(_, c)| c).collect();
    if let Some(at) = clusters.iter().position(|c| c.iter().any(|(_, primary)| *primary)) {
        let primary = clusters.remove(at);
        clusters.insert(0, primary);
    }
    clusters
}

/// One line of a window: the pieces of the source line it shows, each a
/// source range and where it starts in the window's text.
struct Shown {
    text_start: usize,
    pieces: Vec<(std::ops::Range<usize>, usize)>,
}

/// The lines a snippet shows, with `\r` line ends removed so they render cleanly.
struct Window {
    text: String,
    first_line: usize,
    lines: Vec<Shown>,
}

impl Window {
    fn new(source: &Source, spans: &[(Span, bool)]) -> Window {
        let mut anchors: Vec<usize> = Vec::new();
        for (span, _) in spans {
            anchors.push(source.line_index(span.start));
            anchors.push(source.line_index(span.end.max(span.start)));
        }
        anchors.sort_unstable();
        anchors.dedup();
        let first_line = anchors.first().copied().unwrap_or(0);
        let last_line = anchors.last().copied().unwrap_or(0);
        let near = |line: usize| {
            let at = anchors.partition_point(|&a| a < line.saturating_sub(CONTEXT));
            anchors.get(at).is_some_and(|&a| a <= line + CONTEXT)
        };
        let mut text = String::new();
        let mut lines = Vec::new();
        for index in first_line..=last_line {
            let range = source.line_range(index);
            let text_start = text.len();
            let mut pieces = Vec::new();
            if near(index) {
                for piece in cut(source, range.clone(), spans) {
                    if piece.start > range.start || !pieces.is_empty() {
                        text.push_str("...");
                    }
                    show_piece(&mut text, &mut pieces, source, piece);
                }
                if pieces.last().is_some_and(|(piece, _)| piece.end < range.end) {
                    text.push_str("...");
                }
            }
            text.push('\n');
            lines.push(Shown { text_start, pieces });
        }
        Window { text, first_line, lines }
    }

    /// Maps a source span into the window's text.
    fn map(&self, source: &Source, span: Span) -> std::ops::Range<usize> {
        let at = |offset: usize| {
            let line = source.line_index(offset).saturating_sub(self.first_line);
            let Some(shown) = self.lines.get(line) else { return self.text.len() };
            let mut position = shown.text_start;
            for (piece, start) in &shown.pieces {
                if offset < piece.start {
                    break;
                }
                position = start + (offset - piece.start).min(piece.len());
            }
            position
        };
        // Spans come from the parsers and land on character boundaries; should
        // one not, widen it to the nearest ones rather than fail to render.
        let floor = |mut i: usize| {
            while i > 0 && !self.text.is_char_boundary(i.min(self.text.len())) {
                i -= 1;
            }
            i.min(self.text.len())
        };
        let ceil = |mut i: usize| {
            while i < self.text.len() && !self.text.is_char_boundary(i) {
                i += 1;
            }
            i.min(self.text.len())
        };
        let start = floor(at(span.start));
        let end = ceil(at(span.end.max(span.start))).max(start);
        start..end
    }

    /// The position the renderer's `-->` line will give, and the true one,
    /// when a cut line makes them differ: the renderer counts columns in the
    /// window's text. It places the header at the primary span, or else at
    /// the first span of the first annotated line.
    fn header(&self, source: &Source, spans: &[(Span, bool)]) -> Option<Header> {
        let (span, _) = spans
            .iter()
            .copied()
            .min_by_key(|&(span, primary)| (!primary, source.line_index(span.start), span.start))?;
        let line = source.line_index(span.start);
        let shown = self.lines.get(line.saturating_sub(self.first_line))?;
        let mapped = self.map(source, span).start;
        let rendered = self.text.get(shown.text_start..mapped)?.chars().count() + 1;
        let actual = source.line_col(span.start).column;
        (rendered != actual).then_some(Header { line: line + 1, rendered, actual })
    }
}

/// Adds the source text of `piece` to a window. The renderer shows C0
/// controls and DEL as control pictures (`␛`) but passes the C1 controls
/// through, so each of those is shown as `�`, a piece of its own that maps
/// back to the character it stands for; so is each hidden character
/// (`hidden-character`), which would reorder the snippet on the terminal or
/// leave its caret under nothing.
fn show_piece(
    text: &mut String,
    pieces: &mut Vec<(std::ops::Range<usize>, usize)>,
    source: &Source,
    piece: std::ops::Range<usize>,
) {
    let mut from = piece.start;
    let c1 = source.text[piece.clone()]
        .char_indices()
        .filter(|&(_, c)| !c.is_ascii() && (is_control(c) || crate::check::hidden::is_hidden(c)))
        .map(|(at, c)| (piece.start + at, c.len_utf8()));
    for (at, len) in c1 {
        if from < at {
            pieces.push((from..at, text.len()));
            text.push_str(&source.text[from..at]);
        }
        pieces.push((at..at + len, text.len()));
        text.push(char::REPLACEMENT_CHARACTER);
        from = at + len;
    }
    if from < piece.end || from == piece.start {
        pieces.push((from..piece.end, text.len()));
        text.push_str(&source.text[from..piece.end]);
    }
}

/// The parts of the line at `range` a snippet shows: all of a short line; on
/// a long one, a reach around each span end that falls on it.
fn cut(
    source: &Source,
    range: std::ops::Range<usize>,
    spans: &[(Span, bool)],
) -> Vec<std::ops::Range<usize>> {
    if range.len() <= LONG_LINE {
        return vec![range];
    }
    let mut points = Vec::new();
    for (span, _) in spans {
        let end = span.end.max(span.start);
        if range.contains(&span.start) || span.start == range.end {
            points.push(span.start);
            points.push(end.min(span.start + REACH));
        } else if range.contains(&end) || end == range.end {
            points.push(end);
        } else if span.start < range.start && end > range.end {
            points.push(range.start);
        }
    }
    if points.is_empty() {
        points.push(range.start);
    }
    points.sort_unstable();
    let text = &source.text;
    let floor = |mut i: usize| {
        while i > range.start && !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let ceil = |mut i: usize| {
        while i < range.end && !text.is_char_boundary(i) {
            i += 1;
        }
        i
    };
    let mut pieces: Vec<std::ops::Range<usize>> = Vec::new();
    for point in points {
        let piece = floor(point.saturating_sub(REACH).max(range.start))
            ..ceil((point + REACH).min(range.end));
        match pieces.last_mut() {
            Some(last) if piece.start <= last.end => last.end = last.end.max(piece.end),
            _ => pieces.push(piece),
        }
    }
    pieces
}

/// Where a snippet's header points, as rendered and as it should read.
struct Header {
    line: usize,
    rendered: usize,
    actual: usize,
}

/// Puts the true column into each header a cut line made the renderer
/// miscount; `headers` are in the order the snippets are rendered.
fn correct_columns(rendered: String, headers: &[(String, Header)]) -> String {
    if headers.is_empty() {
        return rendered;
    }
    let mut pending = headers.iter().peekable();
    let mut out = String::with_capacity(rendered.len());
    for line in rendered.split_inclusive('\n') {
        let Some((path, header)) = pending.peek() else {
            out.push_str(line);
            continue;
        };
        let plain = strip_styles(line);
        let wrong = format!(":{}:{}", header.line, header.rendered);
        let target = format!("{path}{wrong}");
        let trimmed = plain.trim();
        let is_header = trimmed.strip_prefix("-->").or_else(|| trimmed.strip_prefix(":::"));
        match (is_header.map(str::trim), line.rfind(&wrong)) {
            (Some(found), Some(at)) if found == target => {
                out.push_str(&line[..at]);
                out.push_str(&format!(":{}:{}", header.line, header.actual));
                out.push_str(&line[at + wrong.len()..]);
                pending.next();
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// `line` without its ANSI style sequences.
fn strip_styles(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Code;

    /// Every character the runner treats specially is escaped: a message
    /// or a path can neither end the command nor add a property.
    #[test]
    fn github_commands_escape_what_the_runner_reads() {
        assert_eq!(github_data("50% done\r\nnext: a, b"), "50%25 done%0D%0Anext: a, b");
        assert_eq!(github_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        let text = "---\nname: x\ntools:\n  - lookup_tickt\n---\n";
        let diagnostic = tool_at(text, "lookup_tickt")
            .with_help("did you mean `lookup_ticket`? the tools, visible: a, b");
        let mut sources = Sources::new();
        sources.insert(
            diagnostic.location.file.clone(),
            Source::new(diagnostic.location.file.clone(), text),
        );
        let bases = Bases { root: Some("agents".into()), workspace: None };
        assert_eq!(
            github(&diagnostic, &sources, &bases),
            "::error title=agentc unknown-tool,file=agents/skills/x/SKILL.md,line=4,endLine=4,\
             col=5,endColumn=17::unknown%0Ahelp: did you mean \
             `lookup_ticket`? the tools, visible: a, b"
        );
    }

    fn render(text: &str, diagnostic: &Diagnostic, color: bool) -> String {
        let path = RelPath::root("skills/x/SKILL.md");
        let sources = Sources::from([(path.clone(), Source::new(path, text))]);
        human(diagnostic, &sources, color)
    }

    fn tool_at(text: &str, name: &str) -> Diagnostic {
        let start = text.find(name).unwrap();
        let span = Span::new(start, start + name.len());
        Diagnostic::at(Code::UnknownTool, &RelPath::root("skills/x/SKILL.md"), span, "unknown")
    }

    #[test]
    fn a_long_line_is_shown_around_the_span_with_its_true_column() {
        let tools: Vec<String> = (0..20_000).map(|i| format!("t{i}")).collect();
        let text = format!("---\ntools: [{}]\n---\n", tools.join(", "));
        let column = text.find("t15000,").unwrap() - text.find("tools").unwrap() + 1;
        for color in [false, true] {
            let out = render(&text, &tool_at(&text, "t15000,"), color);
            assert!(out.contains(&format!("skills/x/SKILL.md:2:{column}")), "{out}");
            assert!(out.contains("t15000"), "{out}");
            assert!(out.lines().all(|line| line.len() < 300), "{out}");
        }
        // At the line's start nothing is cut before the span.
        let out = render(&text, &tool_at(&text, "t0,"), false);
        assert!(out.contains("skills/x/SKILL.md:2:9\n"), "{out}");
        assert!(out.contains("2 | tools: [t0, t1,"), "{out}");
    }

    /// The source line of a snippet holds no raw control character: the
    /// renderer shows C0 and DEL as control pictures, C1 is shown as `�`,
    /// and the marks stay under what they mark, on a long line too.
    #[test]
    fn a_snippet_shows_no_control_character_raw() {
        let text = "See \u{1b}]0;T\u{7} \u{9b}\u{85}[x](lookup_tickt) \u{7f}\u{9b}\n";
        for color in [false, true] {
            let out = render(text, &tool_at(text, "lookup_tickt"), color);
            // The styles are the renderer's own escapes.
            let unstyled: String = out.lines().map(strip_styles).collect();
            assert!(!unstyled.chars().any(is_control), "{out:?}");
        }
        assert_eq!(
            render(text, &tool_at(text, "lookup_tickt"), false),
            "error[unknown-tool]: unknown\n --> skills/x/SKILL.md:1:18\n  |\n\
             1 | See \u{241b}]0;T\u{2407} \u{fffd}\u{fffd}[x](lookup_tickt) \u{2421}\u{fffd}\n  \
             |                  ^^^^^^^^^^^^"
        );
        let long = format!("{}\u{9b}lookup_tickt{}\n", "a\u{9b}".repeat(300), "b".repeat(300));
        let out = render(&long, &tool_at(&long, "lookup_tickt"), false);
        assert!(out.contains("a\u{fffd}\u{fffd}lookup_tickt"), "{out}");
        assert!(out.contains("skills/x/SKILL.md:1:602\n"), "{out}");
    }

    /// A diagnostic at `second`, labelled at `first`.
    fn second_points_at_first(text: &str) -> Diagnostic {
        let file = RelPath::root("skills/x/SKILL.md");
        let second = text.find("second").unwrap();
        let first = text.find("first").unwrap();
        Diagnostic::at(Code::UnknownTool, &file, Span::new(second, second + 6), "twice").with_label(
            &file,
            Some(Span::new(first, first + 5)),
            "first here",
        )
    }

    #[test]
    fn labels_far_apart_are_shown_as_two_snippets_without_the_lines_between() {
        let mut text = String::from("name: first\n");
        for i in 0..1_000 {
            text.push_str(&format!("filler line {i}\n"));
        }
        text.push_str("name: second\n");
        let diagnostic = second_points_at_first(&text);
        let out = render(&text, &diagnostic, false);
        assert!(out.contains("--> skills/x/SKILL.md:1002:7"), "{out}");
        assert!(out.contains("::: skills/x/SKILL.md:1:7"), "{out}");
        assert!(out.contains("first here"), "{out}");
        assert!(!out.contains("filler line 500"), "{out}");
    }

    #[test]
    fn labels_near_each_other_share_one_snippet() {
        let text = "name: first\nother: x\nname: second\n";
        let diagnostic = second_points_at_first(text);
        let out = render(text, &diagnostic, false);
        assert!(!out.contains(":::"), "{out}");
        assert!(out.contains("2 | other: x"), "{out}");
    }
}
