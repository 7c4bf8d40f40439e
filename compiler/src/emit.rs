//! Emit: diagnostics rendered for people (rustc style) and for machines (JSON lines).

use std::collections::BTreeMap;

use annotate_snippets::renderer::DecorStyle;
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use serde_json::{Map, Value, json};

use crate::diagnostic::{Counts, Diagnostic, Location, RelPath, Severity};
use crate::source::Source;

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
            Some(base) if base.is_empty() || base == "." => path.path.clone(),
            Some(base) if path.path.is_empty() => base.clone(),
            Some(base) => format!("{}/{}", base.trim_end_matches('/'), path.path),
            None => path.to_string(),
        }
    }
}

/// `text` with every control character escaped (`\n`, `\u{1b}`): a name or a
/// value from the input can never start a line of its own or steer the
/// terminal. Line breaks in human output come from the renderer alone.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
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
        let source = sources.get(file);
        let spanned: Vec<_> = marks.iter().filter(|(loc, ..)| loc.span.is_some()).collect();
        match source {
            Some(source) if !spanned.is_empty() => {
                let window = Window::new(source, spanned.iter().filter_map(|(loc, ..)| loc.span));
                let mut snippet = Snippet::source(window.text.clone())
                    .line_start(window.first_line + 1)
                    .path(show(file))
                    .fold(true);
                for (loc, label, is_primary) in &spanned {
                    let Some(span) = loc.span else { continue };
                    let kind =
                        if *is_primary { AnnotationKind::Primary } else { AnnotationKind::Context };
                    let annotation = kind.span(window.map(source, span));
                    snippet = snippet.annotation(match label {
                        Some(label) => annotation.label(*label),
                        None => annotation,
                    });
                }
                group = group.element(snippet);
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
    renderer.decor_style(DecorStyle::Ascii).render(&[group])
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

/// One diagnostic as a JSON object (CONTRACT §3), keys in the contract's
/// order, paths shown from `bases`.
pub fn json(diagnostic: &Diagnostic, sources: &Sources, bases: &Bases) -> Value {
    let mut object = Map::new();
    object.insert("type".into(), json!("diagnostic"));
    object.insert("code".into(), json!(diagnostic.code.as_str()));
    object.insert("severity".into(), json!(diagnostic.severity.as_str()));
    object.insert("message".into(), json!(diagnostic.message));
    position(&mut object, &diagnostic.location, sources, bases, true);
    if let Some(help) = &diagnostic.help {
        object.insert("help".into(), json!(help));
    }
    let labels: Vec<Value> = diagnostic
        .labels
        .iter()
        .map(|label| {
            let mut entry = Map::new();
            position(&mut entry, &label.location, sources, bases, false);
            entry.insert("message".into(), json!(label.message));
            Value::Object(entry)
        })
        .collect();
    object.insert("labels".into(), Value::Array(labels));
    if let Some(fix) = &diagnostic.fix {
        let edits: Vec<Value> = fix
            .edits
            .iter()
            .map(|edit| {
                let mut entry = Map::new();
                let location = Location { file: edit.file.clone(), span: Some(edit.span) };
                position(&mut entry, &location, sources, bases, true);
                entry.insert("start".into(), json!(edit.span.start));
                entry.insert("end".into(), json!(edit.span.end));
                entry.insert("replacement".into(), json!(edit.replacement));
                Value::Object(entry)
            })
            .collect();
        object.insert("fix".into(), json!({ "message": fix.message, "edits": edits }));
    }
    Value::Object(object)
}

fn position(
    object: &mut Map<String, Value>,
    location: &Location,
    sources: &Sources,
    bases: &Bases,
    with_end: bool,
) {
    object.insert("file".into(), json!(bases.show(&location.file)));
    let (Some(span), Some(source)) = (location.span, sources.get(&location.file)) else {
        return;
    };
    let (start, end) = source.span_bounds(span);
    object.insert("line".into(), json!(start.line));
    object.insert("column".into(), json!(start.column));
    if with_end {
        object.insert("end_line".into(), json!(end.line));
        object.insert("end_column".into(), json!(end.column));
    }
}

/// The last line of JSON output.
pub fn json_summary(counts: Counts) -> Value {
    json!({ "type": "summary", "errors": counts.errors, "warnings": counts.warnings })
}

/// The lines a snippet shows, with `\r` line ends removed so they render cleanly.
struct Window {
    text: String,
    first_line: usize,
    /// For each shown line: its start in the source and in `text`.
    starts: Vec<(usize, usize)>,
}

impl Window {
    fn new(source: &Source, spans: impl Iterator<Item = agentc_schema::Span>) -> Window {
        let mut lines: Vec<usize> = Vec::new();
        for span in spans {
            let first = source.line_index(span.start);
            let last = source.line_index(span.end.max(span.start));
            lines.extend(first..=last);
        }
        lines.sort_unstable();
        lines.dedup();
        let first_line = lines.first().copied().unwrap_or(0);
        let last_line = lines.last().copied().unwrap_or(0);
        let mut text = String::new();
        let mut starts = Vec::new();
        for index in first_line..=last_line {
            let range = source.line_range(index);
            starts.push((range.start, text.len()));
            text.push_str(&source.text[range]);
            text.push('\n');
        }
        Window { text, first_line, starts }
    }

    /// Maps a source span into the window's text.
    fn map(&self, source: &Source, span: agentc_schema::Span) -> std::ops::Range<usize> {
        let at = |offset: usize| {
            let line = source.line_index(offset).saturating_sub(self.first_line);
            let (source_start, text_start) = self.starts.get(line).copied().unwrap_or((0, 0));
            let line_len = source.line_range(line + self.first_line).len();
            let column = offset.saturating_sub(source_start).min(line_len);
            text_start + column
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
}
