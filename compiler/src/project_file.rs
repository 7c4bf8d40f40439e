//! The project file, `agentc.toml`: found by walking up from a folder (as
//! Cargo finds `Cargo.toml`), checked like any input, and turned into the
//! options of a compile. The command line, `agents!()` and `build.rs` all
//! read it through here, so they cannot disagree.

use std::path::{Path, PathBuf};

pub use agentc_schema::PROJECT_FILE;
use agentc_schema::{ProjectFile, Span, Spanned, Text};

use crate::catalog::Code;
use crate::compile::Compilation;
use crate::diagnostic::{self, Diagnostic, RelPath};
use crate::discover::FileRef;
use crate::fs::{EntryKind, Fs};
use crate::options::{LayoutKind, Options, Scope};
use crate::parse::files::{Reading, Syntax, decode_text};
use crate::read::{ReadFailure, read_one};
use crate::suggest::did_you_mean;

/// A project file that read and checked clean.
#[derive(Clone, Debug)]
pub struct Project {
    /// The `agentc.toml` itself.
    pub path: PathBuf,
    /// What to compile, every path resolved from the file's folder.
    pub options: Options,
    /// Where `agentc lock` writes.
    pub lockfile: PathBuf,
}

/// The nearest `agentc.toml` in `start` or a folder above it.
pub fn find(fs: &dyn Fs, start: &Path) -> Option<PathBuf> {
    let start = fs.canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    start
        .ancestors()
        .map(|dir| dir.join(PROJECT_FILE))
        .find(|file| fs.kind_followed(file).is_ok_and(|kind| kind == EntryKind::File))
}

/// Reads and checks the project file at `path`, shown in diagnostics as
/// `shown`. Every problem is reported, as a compile reports them.
pub fn load(fs: &dyn Fs, path: &Path, shown: &str) -> Result<Project, Box<Compilation>> {
    // The user named this file, links and all: they are resolved here, and the
    // read follows none. A path that cannot be resolved is left for the read to
    // report.
    let canonical = fs.canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let file = FileRef { rel: RelPath::given(shown), path: canonical };
    let mut failed = Compilation::default();
    let source = match read_one(fs, &file, crate::options::DEFAULT_MAX_FILE_SIZE) {
        Ok(source) => source,
        Err(failure) => {
            // A file that is not UTF-8 comes with a lossy copy: without it the
            // diagnostic's position could not be shown.
            let ReadFailure { diagnostic, lossy } = *failure;
            failed.sources.extend(lossy.map(|source| (source.path.clone(), source)));
            failed.diagnostics.push(diagnostic);
            return Err(Box::new(failed));
        }
    };
    let mut out = Vec::new();
    let reading = Reading { syntax: Syntax::Toml, ..Reading::JSON };
    let doc = decode_text::<ProjectFile>(&source, &source.text, 0, reading, &mut out);
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let project = doc.map(|doc| options(fs, &dir, &source.path, &doc.value, &mut out));
    failed.sources.insert(source.path.clone(), source);
    match project {
        Some(project) if out.is_empty() => Ok(Project { path: path.to_path_buf(), ..project }),
        _ => {
            diagnostic::sort(&mut out);
            failed.diagnostics = out;
            Err(Box::new(failed))
        }
    }
}

/// The options a checked project file describes; problems go to `out`.
fn options(
    fs: &dyn Fs,
    dir: &Path,
    file: &RelPath,
    project: &ProjectFile,
    out: &mut Vec<Diagnostic>,
) -> Project {
    let mut path = |value: &Option<Spanned<Text>>, want: Option<EntryKind>, what: &str| {
        let value = value.as_ref()?;
        let resolved = dir.join(value.value.as_str());
        let found = fs.kind_followed(&resolved);
        let problem = match (want, found) {
            (Some(want), Ok(kind)) if kind != want => Some(format!(
                "the {what} `{}` is not a {}",
                value.value,
                if want == EntryKind::Dir { "folder" } else { "file" }
            )),
            (Some(_), Err(_)) => Some(format!("the {what} `{}` does not exist", value.value)),
            _ => None,
        };
        if let Some(problem) = problem {
            out.push(Diagnostic::at(Code::InvalidValue, file, value.span, problem).with_help(
                format!(
                    "paths in {PROJECT_FILE} are relative to the folder holding it, `{}`",
                    dir.display()
                ),
            ));
        }
        Some(resolved)
    };
    let root = path(&project.root, Some(EntryKind::Dir), "root").unwrap_or_else(|| dir.into());
    let workspace = path(&project.workspace, Some(EntryKind::Dir), "workspace");
    let registry = path(&project.registry, Some(EntryKind::File), "registry");
    let lockfile = path(&project.lockfile, None, "lockfile");
    if let (Some(written), Some(lockfile)) = (&project.lockfile, &lockfile) {
        let parent = lockfile.parent().filter(|p| !p.as_os_str().is_empty());
        if parent.is_some_and(|p| fs.kind_followed(p).map_or(true, |k| k != EntryKind::Dir)) {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    written.span,
                    format!("the folder of the lockfile `{}` does not exist", written.value),
                )
                .with_help("create the folder, or write the lockfile beside the root"),
            );
        }
    }
    let mut options = Options::new(root.clone());
    options.workspace = workspace;
    options.registry = registry;
    if let Some(max) = &project.max_file_size {
        options.max_file_size = max.value;
    }
    for scope in project.exclude.iter().flatten() {
        let names = Scope::ALL.iter().map(|s| s.as_str());
        match Scope::parse(scope.value.as_str()) {
            Ok(scope) => {
                options.exclude.insert(scope);
            }
            Err(_) => out.push(unknown_name(file, scope.span, &scope.value, "scope", names)),
        }
    }
    for layout in project.layouts.iter().flatten() {
        let names = LayoutKind::ALL.iter().map(|k| k.name());
        match LayoutKind::parse(layout.value.as_str()) {
            Some(kind) => {
                options.layouts.insert(kind);
            }
            None => out.push(unknown_name(file, layout.span, &layout.value, "layout", names)),
        }
    }
    // Beside the root folder, as `Cargo.lock` sits beside `Cargo.toml`; in the
    // project's own folder when that is the root.
    let lockfile = lockfile.unwrap_or_else(|| match project.root {
        Some(_) => default_lockfile(&root),
        None => dir.join("agents.lock"),
    });
    Project { path: PathBuf::new(), options, lockfile }
}

fn unknown_name<'a>(
    file: &RelPath,
    span: Span,
    name: &Text,
    what: &str,
    names: impl Iterator<Item = &'a str> + Clone,
) -> Diagnostic {
    let list: Vec<&str> = names.clone().collect();
    let help = match did_you_mean(name.as_str(), names) {
        Some(close) => format!("did you mean `{close}`? the {what}s are {}", list.join(", ")),
        None => format!("the {what}s are {}", list.join(", ")),
    };
    Diagnostic::at(Code::InvalidValue, file, span, format!("`{name}` is not a {what}"))
        .with_help(help)
}

/// `agents.lock` beside the root folder.
pub fn default_lockfile(root: &Path) -> PathBuf {
    match (root.file_name(), root.parent()) {
        (Some(_), Some(parent)) => parent.join("agents.lock"),
        // `.` or `..`: only the absolute path says where "beside" is.
        _ => {
            let absolute = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
            absolute.parent().unwrap_or(&absolute).join("agents.lock")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memfs::MemFs;

    #[test]
    fn a_project_file_not_in_utf8_is_shown_at_its_bad_byte() {
        let mut fs = MemFs::new();
        fs.insert(PROJECT_FILE, &b"root = \"a\"\n\xff\n"[..]).unwrap();
        let failed = load(&fs, &fs.root().join(PROJECT_FILE), PROJECT_FILE).unwrap_err();
        let json = crate::emit::json(&failed.diagnostics[0], &failed.sources, &Default::default());
        assert_eq!((json["code"].as_str(), json["line"].as_u64()), (Some("not-utf8"), Some(2)));
    }
}
