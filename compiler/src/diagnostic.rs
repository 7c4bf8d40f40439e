//! The one type for everything a user is told: [`Diagnostic`].

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use agentc_schema::Span;

use crate::catalog::Code;
pub use crate::catalog::Severity;

/// Which tree a path belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// The agents directory being compiled.
    Root,
    /// The `--workspace` directory.
    Workspace,
    /// A file named on the command line or in the project file (the
    /// registry, `agentc.toml`): shown as given.
    Given,
}

/// A path as users see it: relative to the root, or to the workspace
/// (shown with the prefix `@workspace/`), with `/` separators.
///
/// Paths order root first, then workspace, then component by component,
/// bytewise — never by the file system's order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RelPath {
    pub origin: Origin,
    /// `/`-separated, no leading `/`; a folder ends with `/`. Shared: a path
    /// is cloned into every reference, diagnostic and label that names it.
    pub path: Arc<str>,
}

impl RelPath {
    pub fn root(path: impl Into<String>) -> RelPath {
        RelPath { origin: Origin::Root, path: path.into().into() }
    }

    /// A file shown as the user named it.
    pub fn given(path: impl Into<String>) -> RelPath {
        RelPath { origin: Origin::Given, path: path.into().into() }
    }

    pub fn workspace(path: impl Into<String>) -> RelPath {
        RelPath { origin: Origin::Workspace, path: path.into().into() }
    }

    /// `self/name`.
    pub fn join(&self, name: &str) -> RelPath {
        let base = self.path.trim_end_matches('/');
        let path = if base.is_empty() { name.to_owned() } else { format!("{base}/{name}") };
        RelPath { origin: self.origin, path: path.into() }
    }

    /// The same path marked as a folder (trailing `/`). The top stays the
    /// empty path: `/` would be the file system's root, and a path joined to
    /// it (a plugin's `./skills/x`) would climb out of the project.
    pub fn as_folder(&self) -> RelPath {
        let mut path = self.path.trim_end_matches('/').to_owned();
        if !path.is_empty() {
            path.push('/');
        }
        RelPath { origin: self.origin, path: path.into() }
    }
}

/// Paths in the order of their components, as a folder lists its entries
/// (`a/b` before `a-c`, a folder `a/` right after the file `a`): for paths
/// without empty components that is byte order with `/` below every other
/// byte, compared in one pass with no splitting (sorting paths is a hot step
/// at 100,000 files).
fn path_order(a: &str, b: &str) -> Ordering {
    let key = |byte: u8| if byte == b'/' { 0 } else { u16::from(byte) + 1 };
    let (a, b) = (a.as_bytes(), b.as_bytes());
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => key(a[i]).cmp(&key(b[i])),
        None => a.len().cmp(&b.len()),
    }
}

impl Ord for RelPath {
    fn cmp(&self, other: &Self) -> Ordering {
        self.origin.cmp(&other.origin).then_with(|| path_order(&self.path, &other.path))
    }
}

impl PartialOrd for RelPath {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl RelPath {
    /// The path as it is shown ([`fmt::Display`]), sharing its text where
    /// that is the path itself.
    pub fn shared(&self) -> agentc_schema::SharedStr {
        let shown_as_is = match self.origin {
            Origin::Root => !self.path.is_empty(),
            Origin::Given => true,
            Origin::Workspace => false,
        };
        if shown_as_is {
            agentc_schema::SharedStr::slice(self.path.clone(), 0..self.path.len())
        } else {
            self.to_string().into()
        }
    }
}

impl fmt::Display for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.origin {
            // The root itself.
            Origin::Root if self.path.is_empty() => f.write_str("."),
            Origin::Root => f.write_str(&self.path),
            Origin::Workspace => write!(f, "@workspace/{}", self.path),
            Origin::Given => f.write_str(&self.path),
        }
    }
}

/// A place in a file; without a span it is the file (or folder) itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: RelPath,
    pub span: Option<Span>,
}

/// A secondary place with a note ("first defined here").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub location: Location,
    pub message: String,
}

/// One change to a file: replace the bytes of `span` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub file: RelPath,
    pub span: Span,
    pub replacement: String,
}

/// The one mechanical change that resolves a diagnostic: `agentc check --fix`
/// applies it, and an editor offers it as a quick fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, as a person would say it ("quote the value").
    pub message: String,
    pub edits: Vec<Edit>,
}

/// A problem found in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub location: Location,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    pub fix: Option<Fix>,
    /// In the opt-in `pedantic` group: what the host tolerates (a key it
    /// ignores, YAML only its reader takes) and portability rules it does
    /// not enforce. Reported only when `[lints] pedantic` asks.
    pub pedantic: bool,
}

impl Diagnostic {
    /// A diagnostic at `span` in `file`, with the code's default severity.
    pub fn new(code: Code, file: &RelPath, span: Option<Span>, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message: message.into(),
            location: Location { file: file.clone(), span },
            labels: Vec::new(),
            help: None,
            fix: None,
            pedantic: false,
        }
    }

    pub fn at(code: Code, file: &RelPath, span: Span, message: impl Into<String>) -> Self {
        Diagnostic::new(code, file, Some(span), message)
    }

    /// A diagnostic about a whole file or folder.
    pub fn on_path(code: Code, path: &RelPath, message: impl Into<String>) -> Self {
        Diagnostic::new(code, path, None, message)
    }

    pub fn with_label(
        mut self,
        file: &RelPath,
        span: Option<Span>,
        message: impl Into<String>,
    ) -> Self {
        self.labels.push(Label {
            location: Location { file: file.clone(), span },
            message: message.into(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Attaches the fix: one edit replacing `span` of `file` — when the text
    /// to replace is known exactly (`None`, say, for text with escapes).
    pub fn with_fix(
        mut self,
        message: impl Into<String>,
        file: &RelPath,
        span: Option<Span>,
        replacement: impl Into<String>,
    ) -> Self {
        if let Some(span) = span {
            let edit = Edit { file: file.clone(), span, replacement: replacement.into() };
            self.fix = Some(Fix { message: message.into(), edits: vec![edit] });
        }
        self
    }

    /// This diagnostic in the opt-in `pedantic` group.
    pub fn pedantic(mut self) -> Self {
        self.pedantic = true;
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// The order diagnostics are reported in: file, then position (no position first).
    pub fn sort_key(&self) -> (&RelPath, Option<usize>, Option<usize>, Code, &str) {
        let span = self.location.span;
        (&self.location.file, span.map(|s| s.start), span.map(|s| s.end), self.code, &self.message)
    }
}

/// Sorts diagnostics into report order and drops exact repeats.
pub fn sort(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup();
}

/// Errors and warnings in a set of diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
}

impl Counts {
    pub fn of(diagnostics: &[Diagnostic]) -> Counts {
        let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        Counts { errors, warnings: diagnostics.len() - errors }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass order is the order of components (then the text, for a
    /// folder and the file of its name) on every pair of sample paths.
    #[test]
    fn paths_order_by_components() {
        let by_components = |a: &str, b: &str| {
            let parts = |p: &str| -> Vec<Vec<u8>> {
                p.split('/').filter(|c| !c.is_empty()).map(|c| c.as_bytes().to_vec()).collect()
            };
            parts(a).cmp(&parts(b)).then_with(|| a.cmp(b))
        };
        let samples = [
            "",
            "a",
            "a/",
            "a/b",
            "a-c",
            "a.b",
            "a/b/c",
            "ab",
            "ab/",
            "a/b-c",
            "a/b/",
            "a b",
            "skills/x/SKILL.md",
            "skills/x-y/SKILL.md",
            "skills/x/y/SKILL.md",
            "skills-x",
            "é/a",
            "z",
            "A",
            "a0",
            "a/0",
        ];
        for a in samples {
            for b in samples {
                assert_eq!(path_order(a, b), by_components(a, b), "{a:?} vs {b:?}");
            }
        }
    }
}
