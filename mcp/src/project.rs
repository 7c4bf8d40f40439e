//! What the tools do, apart from the protocol: the server's project compiled
//! as `agentc check` compiles it in the server's folder
//! ([`agentc_compiler::folder::compile_folder`]), with a request's text laid
//! over the file at its path, and the diagnostics as `--message-format json`
//! writes them.
//!
//! A request names paths, and a request is the agent's, not the user's: every
//! path is resolved inside the project ([`Bounds`]), links and `..` included,
//! and one that leaves it is refused before anything there is looked at.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use agentc_compiler::catalog::Code;
use agentc_compiler::compile::Compilation;
use agentc_compiler::diagnostic::{Diagnostic, Origin};
use agentc_compiler::emit::{self, Bases, Sources};
use agentc_compiler::fs::{Bounds, EntryKind, Fs, RealFs, Refused, Resolved};
use agentc_compiler::overlay::Overlay;
use agentc_compiler::suggest::did_you_mean;
use agentc_compiler::{folder, project_file, repository};
use agentc_schema::Kind;
use agentc_schema::message::{self, Message};
use schemars::JsonSchema;
use serde::Serialize;

use crate::planted::Planted;

/// The project the server answers for: the one `agentc check` finds in the
/// folder it was started in.
#[derive(Clone, Debug)]
pub struct Project {
    /// That folder, canonical: relative paths in requests, and every path
    /// shown, are from here.
    folder: PathBuf,
}

/// What `check` found. (Descriptions that run over a line are given as
/// `schemars(description)`: a doc comment's line breaks would stay in them.)
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Checked {
    /// Every problem found, as `--message-format json` writes it.
    #[schemars(description = "Every problem found (at or under `path` when one was given), in \
        report order, each with the fields of a line of `agentc check --message-format json` \
        (`agentc schema message`): `code`, `severity`, `message`, `file` (from the server's \
        folder), `line`, `column`, `end_line`, `end_column`, `help`, `labels` and, when there \
        is one, the mechanical `fix`.")]
    pub diagnostics: Vec<message::Diagnostic>,
    /// How many of them are errors and warnings.
    pub summary: message::Summary,
}

/// What `fixes` found.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Fixes {
    /// The fixes `agentc check --fix` would apply.
    #[schemars(description = "The fixes `agentc check --fix` would apply (at or under `path` \
        when one was given), in order: none overlap, and nothing is written.")]
    pub fixes: Vec<PlannedFix>,
}

/// One fix and the problem it resolves.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PlannedFix {
    /// The diagnostic's code.
    pub code: String,
    /// The diagnostic's message: what is wrong.
    pub problem: String,
    /// What the fix does, and its edits.
    #[schemars(description = "What the fix does, and its edits: each replaces the text from \
        `line`:`column` to `end_line`:`end_column` (1-based, in Unicode scalar values; `start` \
        and `end` are byte offsets) of `file` with `replacement`.")]
    pub fix: message::Fix,
}

/// A path a request names, resolved inside the project.
enum Place {
    /// Something is there: its canonical path and what it is.
    Found(PathBuf, EntryKind),
    /// Nothing is there yet: where a file of that name would be written.
    New(PathBuf),
}

impl Place {
    fn path(&self) -> &Path {
        match self {
            Place::Found(path, _) | Place::New(path) => path,
        }
    }
}

/// A compile made for a request, with what it is to report on.
struct Compiled {
    compilation: Compilation,
    /// What masks the secrets found in the project in what is shown.
    redactor: agentc_compiler::secrets::Redactor,
    /// The server's folder, canonical.
    folder: PathBuf,
    /// The place the request named, when it is not the whole project.
    under: Option<PathBuf>,
    bases: Bases,
}

impl Project {
    /// The project of `folder`, which must be a folder.
    pub fn new(folder: &Path) -> Result<Project, String> {
        let shown = folder.display();
        let canonical = RealFs
            .canonicalize(folder)
            .map_err(|err| format!("the folder `{shown}` cannot be opened: {err}"))?;
        if RealFs.kind(&canonical).ok() != Some(EntryKind::Dir) {
            return Err(format!("`{shown}` is not a folder"));
        }
        Ok(Project { folder: canonical })
    }

    /// The folder the server runs in, canonical.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The folders requests may name: the one holding the `agentc.toml`
    /// found from the server's folder, else the repository's top.
    fn bounds(&self) -> Bounds {
        let top = match project_file::find(&RealFs, &self.folder) {
            Some(file) => file.parent().map(Path::to_path_buf),
            None => None,
        };
        Bounds::new([top.unwrap_or_else(|| repository::default_target(&RealFs, &self.folder).top)])
    }

    /// Where `path` is in the project; with `new`, a file not written yet is
    /// taken too.
    fn place(&self, bounds: &Bounds, path: &str, new: bool) -> Result<Place, String> {
        let joined = self.folder.join(path);
        match bounds.resolve(&RealFs, &joined) {
            Ok(Resolved::Found(found, kind)) => Ok(Place::Found(found, kind)),
            Ok(Resolved::Missing { .. }) if new => self.new_file(bounds, &joined, path),
            Ok(Resolved::Missing { .. }) => Err(format!(
                "`{}` does not exist in the project (paths are relative to `{}`); to check a \
                 file before writing it, give its text as `text`",
                escape(path),
                self.folder.display()
            )),
            Err(refused) => Err(self.refused(path, bounds, refused)),
        }
    }

    /// The canonical path `joined` would be written at: the deepest folder
    /// on the way that exists, resolved, and the names after it.
    fn new_file(&self, bounds: &Bounds, joined: &Path, path: &str) -> Result<Place, String> {
        let (Some(parent), Some(Component::Normal(name))) =
            (joined.parent(), joined.components().next_back())
        else {
            return Err(format!(
                "`{}` names no file: give the path of the file the text is for",
                escape(path)
            ));
        };
        match bounds.resolve(&RealFs, parent) {
            Ok(Resolved::Found(folder, EntryKind::Dir)) => Ok(Place::New(folder.join(name))),
            Ok(Resolved::Found(found, _)) => Err(format!(
                "`{}` cannot be written: `{}` is not a folder",
                escape(path),
                escape(&shown_from(&self.folder, &found))
            )),
            Ok(Resolved::Missing { .. }) => match self.new_file(bounds, parent, path)? {
                Place::New(folder) => Ok(Place::New(folder.join(name))),
                found => Ok(found),
            },
            Err(refused) => Err(self.refused(path, bounds, refused)),
        }
    }

    fn refused(&self, path: &str, bounds: &Bounds, refused: Refused) -> String {
        let top = bounds.trees().first().map(|top| top.display().to_string()).unwrap_or_default();
        match refused {
            Refused::Outside { through: None, .. } => format!(
                "`{}` is outside the project (`{top}`): this server reads only the project it \
                 was started in",
                escape(path)
            ),
            refused => format!("`{}` is not read: {}", escape(path), escape(&refused.to_string())),
        }
    }

    /// Compiles the project for a request: with `text` laid over the file at
    /// `path` (written there or not), reporting on `path` only when given.
    fn compile(&self, path: Option<&str>, text: Option<&str>) -> Result<Compiled, String> {
        if text.is_some() && path.is_none() {
            return Err("`text` is checked as the file at `path`: give `path` too".to_owned());
        }
        let bounds = self.bounds();
        let place = path.map(|path| self.place(&bounds, path, text.is_some())).transpose()?;
        let compilation = match (&place, text) {
            (Some(Place::Found(_, kind)), Some(_)) if *kind != EntryKind::File => {
                return Err(format!(
                    "`{}` is not a file: `text` is the text of the file at `path`",
                    escape(path.unwrap_or_default())
                ));
            }
            (Some(place), Some(text)) => {
                let file = place.path();
                let planted = Planted { base: &RealFs, file };
                let buffers = HashMap::from([(file.to_path_buf(), Arc::<str>::from(text))]);
                folder::compile_folder(
                    &Overlay { base: &planted, buffers: &buffers },
                    &self.folder,
                    None,
                )
            }
            _ => folder::compile_folder(&RealFs, &self.folder, None),
        };
        // The project's top is all of it.
        let under = place
            .map(|place| place.path().to_path_buf())
            .filter(|path| !bounds.trees().contains(path));
        if let Some(file) = &under
            && !path_is_folder(file, text.is_some())
            && !reads(&compilation, file)
        {
            return Err(format!(
                "`{}` is not a file a host agentc knows reads at this place, so nothing checks \
                 it; the places each host reads are listed by `agentc check --verbose` and in \
                 agentc's docs/formats.md",
                escape(path.unwrap_or_default())
            ));
        }
        let show = |path: &Path| shown_from(&self.folder, path);
        let bases = Bases {
            root: Some(show(&compilation.root)),
            workspace: compilation.workspace.as_deref().map(show),
        };
        let redactor = compilation.redactor();
        Ok(Compiled { compilation, redactor, folder: self.folder.clone(), under, bases })
    }

    /// `check`: the diagnostics of the project, or of `path`.
    pub fn check(&self, path: Option<&str>, text: Option<&str>) -> Result<Checked, String> {
        let compiled = self.compile(path, text)?;
        let diagnostics: Vec<message::Diagnostic> = (compiled.compilation.diagnostics.iter())
            .filter(|d| compiled.reports(d))
            .map(|d| compiled.message(d))
            .collect::<Result<_, _>>()?;
        let errors = diagnostics.iter().filter(|d| d.severity == message::Severity::Error).count();
        let summary = message::Summary { errors, warnings: diagnostics.len() - errors };
        Ok(Checked { diagnostics, summary })
    }

    /// `fixes`: the fixes `check --fix` would apply to the project, or to
    /// `path`, as edits.
    pub fn fixes(&self, path: Option<&str>, text: Option<&str>) -> Result<Fixes, String> {
        let compiled = self.compile(path, text)?;
        let compilation = &compiled.compilation;
        // As `--fix` takes them: the project's own files, never the
        // registry or `agentc.toml`, which the user named.
        let writable = |d: &Diagnostic| {
            d.fix.as_ref().is_some_and(|fix| {
                fix.edits.iter().all(|edit| {
                    edit.file.origin != Origin::Given
                        && compilation.sources.contains_key(&edit.file)
                })
            })
        };
        let mut fixes = Vec::new();
        for diagnostic in agentc_compiler::fix::taken(compilation) {
            if !writable(diagnostic) || !compiled.reports(diagnostic) {
                continue;
            }
            let shown = compiled.message(diagnostic)?;
            if let Some(fix) = shown.fix {
                fixes.push(PlannedFix { code: shown.code, problem: shown.message, fix });
            }
        }
        Ok(Fixes { fixes })
    }
}

impl Compiled {
    /// Whether `diagnostic` is at or under the place asked about.
    fn reports(&self, diagnostic: &Diagnostic) -> bool {
        let Some(under) = &self.under else {
            return true;
        };
        let at = &diagnostic.location.file;
        let disk = match at.origin {
            // The project file, as the compile was given it.
            Origin::Given => Some(PathBuf::from(&*at.path)),
            _ => self.compilation.disk_path(at),
        };
        disk.is_some_and(|disk| disk.starts_with(under))
    }

    /// `diagnostic` as `--message-format json` writes it, every secret
    /// found in the project masked.
    fn message(&self, diagnostic: &Diagnostic) -> Result<message::Diagnostic, String> {
        let compilation = &self.compilation;
        let sources: Cow<'_, Sources> = match &compilation.project_source {
            Some(project)
                if !compilation.sources.contains_key(&project.path)
                    && diagnostic.location.file == project.path =>
            {
                let mut sources = compilation.sources.clone();
                sources.insert(project.path.clone(), project.clone());
                Cow::Owned(sources)
            }
            _ => Cow::Borrowed(&compilation.sources),
        };
        let json = emit::escape_json(emit::json(diagnostic, &sources, &self.bases).to_string());
        let clean = self.redactor.clean(&json).into_owned();
        let mut shown: message::Diagnostic = match serde_json::from_str(&clean) {
            Ok(Message::Diagnostic(diagnostic)) => *diagnostic,
            Ok(Message::Summary(_)) | Err(_) => {
                return Err(format!("a diagnostic could not be written as JSON: {clean}"));
            }
        };
        // The project file is given to the compile by its absolute path:
        // shown from the server's folder, as every other file.
        let relative = |file: &mut String| {
            let path = Path::new(file.as_str());
            if path.is_absolute() && path.starts_with(&self.folder) {
                *file = shown_from(&self.folder, path);
            }
        };
        if let Some(file) = &mut shown.file {
            relative(file);
        }
        shown.labels.iter_mut().for_each(|label| relative(&mut label.file));
        if let Some(fix) = &mut shown.fix {
            fix.edits.iter_mut().for_each(|edit| relative(&mut edit.file));
        }
        Ok(shown)
    }
}

/// Whether the place a request named is taken as a folder: one on disk;
/// never a file given as text.
fn path_is_folder(path: &Path, text: bool) -> bool {
    !text && RealFs.kind(path).is_ok_and(|kind| kind == EntryKind::Dir)
}

/// Whether the compile read the file at `path` (canonical): a file of the
/// project, the registry or the project file.
fn reads(compilation: &Compilation, path: &Path) -> bool {
    let given = |file: &agentc_compiler::RelPath| {
        file.origin == Origin::Given && Path::new(&*file.path) == path
    };
    compilation.inputs.values().any(|input| input == path)
        || compilation.project_path.as_deref() == Some(path)
        // A project file with errors stops the compile at it.
        || compilation.diagnostics.iter().any(|d| given(&d.location.file))
}

/// `path` (canonical) as seen from `folder` (canonical): `.`, a relative
/// path below it, `..` steps up to a folder above it, else absolute.
fn shown_from(folder: &Path, path: &Path) -> String {
    let shown = if let Ok(inside) = path.strip_prefix(folder) {
        match inside.as_os_str().is_empty() {
            true => PathBuf::from("."),
            false => inside.to_path_buf(),
        }
    } else if let Ok(below) = folder.strip_prefix(path) {
        below.components().map(|_| Component::ParentDir).collect()
    } else {
        path.to_path_buf()
    };
    shown.to_string_lossy().replace('\\', "/")
}

/// `text` with its control characters escaped, as every name from a request
/// is shown.
fn escape(text: &str) -> Cow<'_, str> {
    emit::escape_controls(text)
}

/// `explain`: the page of a diagnostic code.
pub fn explain(code: &str) -> Result<String, String> {
    match Code::parse(code.trim()) {
        Some(code) => Ok(format!("{}{}", code.explanation(), code.level_help())),
        None => {
            let hint = match did_you_mean(code, Code::ALL.iter().map(|c| c.as_str())) {
                Some(close) => format!("did you mean `{close}`?"),
                None => "a diagnostic's `code` is one (`agentc explain --list` lists them all)"
                    .to_owned(),
            };
            Err(format!("`{}` is not a diagnostic code; {hint}", escape(code)))
        }
    }
}

/// `schema`: the JSON Schema of a format, as `agentc schema KIND` prints it.
pub fn schema(kind: &str) -> Result<String, String> {
    match Kind::from_name(kind.trim()) {
        Some(kind) => Ok(kind.schema_text()),
        None => {
            let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
            // `subagent` names no format; `claude-subagent` does.
            let holding: Vec<&str> =
                names.iter().copied().filter(|name| name.contains(kind.trim())).collect();
            let hint = match did_you_mean(kind, names.iter().copied()) {
                Some(close) => format!("did you mean `{close}`? "),
                None if kind.trim().is_empty() => String::new(),
                None => match holding.as_slice() {
                    [] => String::new(),
                    [one] => format!("did you mean `{one}`? "),
                    many => format!("did you mean one of `{}`? ", many.join("`, `")),
                },
            };
            Err(format!(
                "`{}` is not a format agentc has a schema for; {hint}the formats are: {}",
                escape(kind),
                names.join(", ")
            ))
        }
    }
}
