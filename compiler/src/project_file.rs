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
use crate::fs::{Bounds, EntryKind, Fs, Refused, Resolved};
use crate::options::{ContentRules, LayoutKind, LintLevel, Options, Scope};
use crate::parse::files::{Reading, Syntax, decode_text};
use crate::read::{ReadFailure, read_one};
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// A project file that read and checked clean.
#[derive(Clone, Debug)]
pub struct Project {
    /// The `agentc.toml` itself.
    pub path: PathBuf,
    /// What to compile, every path resolved from the file's folder.
    pub options: Options,
    /// Where `agentc lock` writes.
    pub lockfile: PathBuf,
    /// The folder holding the file, canonical: the project, which every path
    /// the file names must stay inside.
    pub bounds: Bounds,
    /// Its text, for an editor that shows it.
    pub source: Source,
}

/// The nearest `agentc.toml` in `start` or a folder above it.
pub fn find(fs: &dyn Fs, start: &Path) -> Option<PathBuf> {
    let start = fs.canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    start
        .ancestors()
        .map(|dir| dir.join(PROJECT_FILE))
        // A link there is repository content: `load` says where it may lead.
        .find(|file| {
            fs.kind(file).is_ok_and(|kind| matches!(kind, EntryKind::File | EntryKind::Symlink))
        })
}

/// Reads and checks the project file at `path`, shown in diagnostics as
/// `shown`. Every problem is reported, as a compile reports them.
pub fn load(fs: &dyn Fs, path: &Path, shown: &str) -> Result<Project, Box<Compilation>> {
    // The folder it is in is the user's (they named it, or ran agentc there),
    // links and all. The file is the repository's: a link at its name may lead
    // only inside that folder, which is the project.
    let given = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let folder = fs.canonicalize(given).unwrap_or_else(|_| given.to_path_buf());
    let bounds = Bounds::new([folder.clone()]);
    let rel = RelPath::given(shown);
    let mut failed = Compilation::default();
    let refuse = |mut failed: Compilation, code, message: String| {
        failed.diagnostics.push(Diagnostic::on_path(code, &rel, message).with_help(
            "the project file must be a regular file in the project's folder, or a link to one there",
        ));
        Err(Box::new(failed))
    };
    let name = path.file_name().unwrap_or(PROJECT_FILE.as_ref());
    let canonical = match bounds.resolve(fs, &folder.join(name)) {
        Ok(Resolved::Found(found, EntryKind::File)) => found,
        Ok(Resolved::Found(_, EntryKind::Special(what))) => {
            return refuse(
                failed,
                Code::SpecialFile,
                format!("`{PROJECT_FILE}` is {what}, not a file"),
            );
        }
        Ok(Resolved::Found(..)) => {
            return refuse(failed, Code::IoError, format!("`{PROJECT_FILE}` is not a file"));
        }
        // Left for the read to report.
        Ok(Resolved::Missing { .. }) => folder.join(name),
        Err(refused @ Refused::Outside { .. }) => {
            return refuse(
                failed,
                Code::PathEscape,
                format!("`{PROJECT_FILE}` is not read: {refused}"),
            );
        }
        Err(Refused::Loop(_)) => {
            let why = format!("`{PROJECT_FILE}` is a symbolic link that leads back to itself");
            return refuse(failed, Code::SymlinkLoop, why);
        }
        Err(refused @ Refused::Io(..)) => {
            return refuse(failed, Code::IoError, refused.to_string());
        }
    };
    let file = FileRef { rel: rel.clone(), path: canonical.clone() };
    let source = match read_one(fs, &file, crate::options::DEFAULT_MAX_FILE_SIZE, ContentRules::ALL)
    {
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
    // Its paths are relative to the folder really holding it (where a link
    // there leads), and held inside the project. Shown from the folder as the
    // user reached it when that is the same one.
    let base = canonical.parent().unwrap_or(&folder).to_path_buf();
    let dir = if base == folder { given.to_path_buf() } else { base.clone() };
    let at = Base { shown: &dir, real: &base };
    let project = doc.map(|doc| options(fs, at, bounds, &source, &doc.value, &mut out));
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
    at: Base<'_>,
    bounds: Bounds,
    source: &Source,
    project: &ProjectFile,
    out: &mut Vec<Diagnostic>,
) -> Project {
    let file = &source.path;
    let mut path = |value: &Option<Spanned<Text>>, want: Option<EntryKind>, what: &str| {
        let value = value.as_ref()?;
        let (resolved, problem) = contained(fs, &bounds, at, value.value.as_str(), want, what);
        if let Some((problem, help)) = problem {
            out.push(Diagnostic::at(Code::InvalidValue, file, value.span, problem).with_help(help));
        }
        Some(resolved)
    };
    let dir = at.shown;
    let root = path(&project.root, Some(EntryKind::Dir), "root").unwrap_or_else(|| dir.into());
    let workspace = path(&project.workspace, Some(EntryKind::Dir), "workspace");
    let registry = path(&project.registry, Some(EntryKind::File), "registry");
    let lockfile = path(&project.lockfile, None, "lockfile");
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
            Err(_) => out.push(unknown_name(file, scope, "scope", names)),
        }
    }
    for layout in project.layouts.iter().flatten() {
        let names = LayoutKind::ALL.iter().map(|k| k.name());
        match LayoutKind::parse(layout.value.as_str()) {
            Some(kind) => {
                options.layouts.insert(kind);
            }
            None => out.push(unknown_name(file, layout, "layout", names)),
        }
    }
    let (lints, pedantic) = read_lints(file, project.lints.iter().flatten(), out);
    options.lints = lints;
    if let Some(level) = pedantic {
        options.pedantic = level;
    }
    if let Some(tables) = &project.overrides
        && let Some(base) = crate::overrides::absolute(dir)
    {
        let list = tables.iter().filter_map(|table| read_override(file, table, out)).collect();
        options.overrides = Some(crate::overrides::Overrides {
            base,
            file: file.clone(),
            source: source.clone(),
            list,
        });
    }
    // Beside the root folder, as `Cargo.lock` sits beside `Cargo.toml`; in the
    // project's own folder when that is the root.
    let lockfile = lockfile.unwrap_or_else(|| match project.root {
        Some(_) => default_lockfile(fs, &root),
        None => dir.join("agentc.lock"),
    });
    Project { path: PathBuf::new(), options, lockfile, bounds, source: source.clone() }
}

/// The levels a `[lints]` map (or an override's `lints`) sets, and the
/// `pedantic` group's when it names it; each unknown code or level goes to
/// `out`.
fn read_lints<'a>(
    file: &RelPath,
    map: impl Iterator<Item = (&'a Spanned<String>, &'a Spanned<Text>)>,
    out: &mut Vec<Diagnostic>,
) -> (std::collections::BTreeMap<Code, LintLevel>, Option<LintLevel>) {
    let mut lints = std::collections::BTreeMap::new();
    let mut pedantic = None;
    for (code, level) in map {
        let levels = LintLevel::ALL.iter().map(|l| l.as_str());
        let level = match LintLevel::parse(level.value.as_str()) {
            Some(known) => Some(known),
            None => {
                out.push(unknown_name(file, level, "level", levels));
                None
            }
        };
        // The group of what the hosts tolerate and of portability rules.
        if code.value == PEDANTIC {
            pedantic = level.or(pedantic);
            continue;
        }
        let code = match Code::parse(&code.value) {
            Some(known) => Some(known),
            None => {
                out.push(unknown_code(file, code));
                None
            }
        };
        if let (Some(code), Some(level)) = (code, level) {
            lints.insert(code, level);
        }
    }
    (lints, pedantic)
}

/// One `[[overrides]]` table, read; its problems go to `out`.
fn read_override(
    file: &RelPath,
    table: &agentc_schema::Override,
    out: &mut Vec<Diagnostic>,
) -> Option<crate::overrides::Override> {
    let before = out.len();
    let (lints, pedantic) = read_lints(file, table.lints.iter(), out);
    let mut globs = Vec::new();
    for glob in &table.paths {
        let written = glob.value.as_str();
        let text = written.trim().trim_start_matches("./").trim_start_matches('/');
        let why = if text.is_empty() {
            Some("the glob is empty".to_owned())
        } else if text.split('/').any(|part| part == "..") {
            Some(format!("the glob `{written}` climbs out of the project with `..`"))
        } else {
            None
        };
        match why {
            Some(why) => {
                out.push(Diagnostic::at(Code::InvalidValue, file, glob.span, why).with_help(
                    "globs in `[[overrides]]` are paths relative to the folder holding \
                     agentc.toml, such as `.claude/skills/legacy/**` or `**/*.mdc`",
                ))
            }
            None => globs.push(Spanned::new(text.to_owned(), glob.span)),
        }
    }
    let made = crate::overrides::Override::new(globs, lints, pedantic);
    let made = made
        .map_err(|(span, why)| {
            out.push(Diagnostic::at(Code::InvalidValue, file, span, why).with_help(
                "globs use `*` and `?` within a folder, `**` across folders, `{a,b}` and `[...]`",
            ));
        })
        .ok()?;
    (out.len() == before).then_some(made)
}

/// The paths the project file at `path` (canonical), whose text is `text`,
/// names that lead to something inside the project — `root`, `workspace`,
/// `registry`, `lockfile` — each with where it is written and where it
/// leads, resolved as [`load`] resolves them. A file that does not decode
/// names none.
pub fn paths(fs: &dyn Fs, path: &Path, text: &str) -> Vec<(Span, PathBuf, EntryKind)> {
    let Some(folder) = path.parent() else {
        return Vec::new();
    };
    let source = crate::source::Source::new(RelPath::given(PROJECT_FILE), text);
    let reading = Reading { syntax: Syntax::Toml, ..Reading::JSON };
    let Some(doc) = decode_text::<ProjectFile>(&source, text, 0, reading, &mut Vec::new()) else {
        return Vec::new();
    };
    let bounds = Bounds::new([folder.to_path_buf()]);
    let file = &doc.value;
    [&file.root, &file.workspace, &file.registry, &file.lockfile]
        .into_iter()
        .flatten()
        .filter_map(|value| match bounds.resolve(fs, &folder.join(value.value.as_str())) {
            Ok(Resolved::Found(found, kind)) => {
                let span = value.verbatim(0..value.value.as_str().len()).unwrap_or(value.span);
                Some((span, found, kind))
            }
            _ => None,
        })
        .collect()
}

/// The folder a project file's paths are relative to: as shown, and canonical.
#[derive(Clone, Copy)]
struct Base<'a> {
    shown: &'a Path,
    real: &'a Path,
}

/// `written`, a path in the project file in `dir`, resolved inside the
/// project: the path (joined to `dir` as given, so it is shown as the user
/// reached it) and what is wrong with it.
fn contained(
    fs: &dyn Fs,
    bounds: &Bounds,
    at: Base<'_>,
    written: &str,
    want: Option<EntryKind>,
    what: &str,
) -> (PathBuf, Option<(String, String)>) {
    let dir = at.shown;
    let relative = format!(
        "paths in {PROJECT_FILE} are relative to the folder holding it, `{}`",
        dir.display()
    );
    let flag = match what {
        "root" => "give the folder as `agentc check DIR`",
        "workspace" => "give it as `--workspace DIR`",
        "registry" => "give it as `--registry FILE`",
        _ => "give it as `agentc lock -o FILE`",
    };
    let outside = |why: String| {
        let help = format!(
            "{PROJECT_FILE} is part of the repository, so the paths it names must stay inside \
             the project, `{}`, links included; to use a {what} elsewhere, {flag} on the \
             command line",
            dir.display()
        );
        (format!("the {what} `{written}` {why}"), help)
    };
    let joined = dir.join(written);
    let noun = |kind| if kind == EntryKind::Dir { "folder" } else { "file" };
    let project = bounds.trees().first().map_or(at.real, PathBuf::as_path);
    match bounds.resolve(fs, &at.real.join(written)) {
        Ok(Resolved::Found(_, kind)) => {
            let problem = match (want, kind) {
                (Some(want), kind) if kind != want => match kind {
                    EntryKind::Special(is) => Some((
                        format!("the {what} `{written}` is {is}, not a {}", noun(want)),
                        "agentc opens only regular files and folders".to_owned(),
                    )),
                    _ => {
                        Some((format!("the {what} `{written}` is not a {}", noun(want)), relative))
                    }
                },
                (None, EntryKind::File) | (Some(_), _) => None,
                (None, EntryKind::Special(is)) => Some((
                    format!("the {what} `{written}` is {is}, not a file"),
                    "agentc replaces only a regular file".to_owned(),
                )),
                (None, _) => Some((format!("the {what} `{written}` is not a file"), relative)),
            };
            (joined, problem)
        }
        Ok(Resolved::Missing { last, .. }) => {
            let problem = match (want, last) {
                // A lockfile not yet written; its folder must be there.
                (None, true) => None,
                (None, false) => Some((
                    format!("the folder of the {what} `{written}` does not exist"),
                    "create the folder, or write the lockfile beside the root".to_owned(),
                )),
                (Some(_), _) => Some((format!("the {what} `{written}` does not exist"), relative)),
            };
            (joined, problem)
        }
        Err(Refused::Outside { through: Some((link, _)), .. }) => {
            let link = link.strip_prefix(project).unwrap_or(&link).display().to_string();
            (
                joined,
                Some(outside(format!(
                    "leads outside the project through the symbolic link `{link}`"
                ))),
            )
        }
        Err(Refused::Outside { through: None, .. }) => {
            (joined, Some(outside("is outside the project".to_owned())))
        }
        Err(refused) => (joined, Some((format!("the {what} `{written}`: {refused}"), relative))),
    }
}

fn unknown_name<'a>(
    file: &RelPath,
    name: &Spanned<Text>,
    what: &str,
    names: impl Iterator<Item = &'a str> + Clone,
) -> Diagnostic {
    let list: Vec<&str> = names.clone().collect();
    let written = name.value.as_str();
    let near = did_you_mean(written, names);
    let help = match near {
        Some(close) => format!("did you mean `{close}`? the {what}s are {}", list.join(", ")),
        None => format!("the {what}s are {}", list.join(", ")),
    };
    let diagnostic =
        Diagnostic::at(Code::InvalidValue, file, name.span, format!("`{written}` is not a {what}"))
            .with_help(help);
    replace_near(diagnostic, file, written, name.verbatim(0..written.len()), near, &list)
}

/// `diagnostic` with the fix writing `near` for `written` (at `at`), when
/// `near` is the one name of `known` a typo away.
fn replace_near(
    diagnostic: Diagnostic,
    file: &RelPath,
    written: &str,
    at: Option<Span>,
    near: Option<&str>,
    known: &[&str],
) -> Diagnostic {
    match confident(written, known.iter().copied()).filter(|f| near == Some(*f)) {
        Some(fix) => {
            diagnostic.with_fix(format!("replace `{written}` with `{fix}`"), file, at, fix)
        }
        None => diagnostic,
    }
}

/// The `[lints]` key of the opt-in group: keys the hosts ignore, YAML only
/// their readers take, the specification's rules where the host loads the
/// file all the same.
pub const PEDANTIC: &str = "pedantic";

/// A key of `[lints]` that is no diagnostic code. The codes are too many to
/// list in a help line: `agentc explain --list` prints them.
fn unknown_code(file: &RelPath, code: &Spanned<String>) -> Diagnostic {
    let names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    let list = "`agentc explain --list` prints the codes";
    let near = did_you_mean(&code.value, names.iter().copied());
    let help = match near {
        Some(close) => format!("did you mean `{close}`? {list}"),
        None => list.to_owned(),
    };
    let message = format!("`{}` is not a diagnostic code", code.value);
    let diagnostic = Diagnostic::at(Code::InvalidValue, file, code.span, message).with_help(help);
    let at = code.verbatim(0..code.value.len());
    replace_near(diagnostic, file, &code.value, at, near, &names)
}

/// `agentc.lock` beside the root folder, as `Cargo.lock` sits beside
/// `Cargo.toml`; in it when the root is a repository's top or the folder
/// agentc runs in, so it is never written outside the repository.
pub fn default_lockfile(fs: &dyn Fs, root: &Path) -> PathBuf {
    match root.parent() {
        Some(parent) if crate::repository::lockfile_beside(fs, root) => parent.join("agentc.lock"),
        _ => root.join("agentc.lock"),
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

    /// Every code can be given a level, with every level, and is read as
    /// that code: `[lints]` reaches every diagnostic agentc has.
    #[test]
    fn every_code_can_be_named_in_lints() {
        for level in LintLevel::ALL {
            let mut fs = MemFs::new();
            let lines: String =
                Code::ALL.iter().map(|code| format!("{code} = \"{}\"\n", level.as_str())).collect();
            fs.insert(PROJECT_FILE, format!("[lints]\n{lines}")).unwrap();
            let project = load(&fs, &fs.root().join(PROJECT_FILE), PROJECT_FILE)
                .unwrap_or_else(|failed| panic!("{:#?}", failed.diagnostics));
            let expected = Code::ALL.iter().map(|&code| (code, level)).collect();
            assert_eq!(project.options.lints, expected);
        }
    }

    /// `allow` drops a code's diagnostics, `warn` and `deny` set their
    /// severity, whatever the check gave them.
    #[test]
    fn lint_levels_apply_to_a_compile() {
        use crate::catalog::Severity;
        let mut fs = MemFs::new();
        // A skill whose body links nowhere (`broken-link`, an error) in a
        // folder holding a stray file (`stray-entry`, a warning), and a
        // name that differs from its folder (`name-mismatch`, a warning).
        let skill = "---\nname: greet\ndescription: Greets.\n---\nSee [the notes](notes.md).\n";
        fs.insert("skills/greeting/SKILL.md", skill).unwrap();
        fs.insert("skills/greeting/stray/x.txt", "x").unwrap();
        let mut opts = Options::new(fs.root());
        let plain = crate::compile(&fs, &opts).unwrap().diagnostics;
        let codes = |diagnostics: &[Diagnostic]| -> Vec<(Code, Severity)> {
            diagnostics.iter().map(|d| (d.code, d.severity)).collect()
        };
        let before = codes(&plain);
        assert!(before.contains(&(Code::BrokenLink, Severity::Error)), "{before:?}");
        assert!(before.contains(&(Code::NameMismatch, Severity::Warning)), "{before:?}");
        opts.lints.insert(Code::BrokenLink, LintLevel::Warn);
        opts.lints.insert(Code::NameMismatch, LintLevel::Deny);
        opts.lints.insert(Code::StrayEntry, LintLevel::Allow);
        let after = codes(&crate::compile(&fs, &opts).unwrap().diagnostics);
        let expected: Vec<_> = before
            .iter()
            .filter(|(code, _)| *code != Code::StrayEntry)
            .map(|&(code, severity)| match code {
                Code::BrokenLink => (code, Severity::Warning),
                Code::NameMismatch => (code, Severity::Error),
                _ => (code, severity),
            })
            .collect();
        assert_eq!(after, expected);
    }

    /// A content rule `[lints]` allows is not run: no diagnostic of its code,
    /// and for `secret`, no file scanned and nothing masked.
    #[test]
    fn allowed_content_rules_are_not_run() {
        let mut fs = MemFs::new();
        let token = format!("ghp_{}", "Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo");
        let skill = format!(
            "---\nname: deploy\ndescription: Deploys.\n---\nUse {token}.\n\
             Ask\u{200B} twice.\n```sh\nrun\n"
        );
        fs.insert("skills/deploy/SKILL.md", skill).unwrap();
        fs.insert("SYSTEM.md", format!("The token is {token}.\n")).unwrap();
        let content = [Code::Secret, Code::HiddenCharacter, Code::UnclosedMarkup];
        let codes = |opts: &Options| {
            let compilation = crate::compile(&fs, opts).unwrap();
            let mut codes: Vec<Code> = compilation.diagnostics.iter().map(|d| d.code).collect();
            codes.dedup();
            (codes, compilation.sources)
        };
        let mut opts = Options::new(fs.root());
        let (all, sources) = codes(&opts);
        assert!(content.iter().all(|code| all.contains(code)), "{all:?}");
        assert!(sources.values().all(|s| s.secrets_scanned()));
        for code in content {
            opts.lints.insert(code, LintLevel::Allow);
            let (left, sources) = codes(&opts);
            assert!(!left.contains(&code), "{code} allowed: {left:?}");
            if code == Code::Secret {
                assert!(sources.values().all(|s| !s.secrets_scanned() && s.masked().is_none()));
            }
        }
        assert_eq!(codes(&opts).0, Vec::new());
    }
}
