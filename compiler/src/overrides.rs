//! `[[overrides]]` in `agentc.toml`: lint levels for some paths only, as
//! ruff's `per-file-ignores` and ESLint's `overrides` set them. Each table's
//! `paths` are globs relative to the folder holding `agentc.toml`; its
//! `lints` is the same map as `[lints]`. A diagnostic's level is its
//! check's, then `[lints]`'s, then each matching table's in the file's
//! order: the last that names the diagnostic's code (or its group) wins.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use agentc_schema::{LintLevel, Span, Spanned};
use globset::GlobSet;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Origin, RelPath};
use crate::repo_files;
use crate::source::Source;

/// One `[[overrides]]` table, read.
#[derive(Clone, Debug)]
pub struct Override {
    /// The globs as written (leading `./` and `/` removed), with where.
    pub globs: Vec<Spanned<String>>,
    /// Each glob compiled, and again as a folder (`glob/**`).
    matchers: Vec<(GlobSet, GlobSet)>,
    /// The level of each code it names.
    pub lints: BTreeMap<Code, LintLevel>,
    /// The level of the `pedantic` group, when it names it.
    pub pedantic: Option<LintLevel>,
}

impl PartialEq for Override {
    fn eq(&self, other: &Override) -> bool {
        let texts = |o: &Override| o.globs.iter().map(|g| g.value.clone()).collect::<Vec<_>>();
        texts(self) == texts(other) && self.lints == other.lints && self.pedantic == other.pedantic
    }
}

impl Override {
    /// An override for `globs` (text and span), or the first glob that
    /// cannot be read with why.
    pub fn new(
        globs: Vec<Spanned<String>>,
        lints: BTreeMap<Code, LintLevel>,
        pedantic: Option<LintLevel>,
    ) -> Result<Override, (Span, String)> {
        let strict = |b: &mut globset::GlobBuilder| {
            b.literal_separator(true);
        };
        let mut matchers = Vec::new();
        for glob in &globs {
            let text = glob.value.as_str();
            let compiled = repo_files::compile(text, strict)
                .and_then(|file| {
                    let folder = format!("{}/**", text.trim_end_matches('/'));
                    Ok((file, repo_files::compile(&folder, strict)?))
                })
                .map_err(|err| (glob.span, repo_files::unreadable(text, &err)))?;
            matchers.push(compiled);
        }
        Ok(Override { globs, matchers, lints, pedantic })
    }

    /// Whether a glob matches `path` (relative to the project's folder).
    pub fn matches(&self, path: &str) -> bool {
        self.matchers.iter().any(|(file, folder)| file.is_match(path) || folder.is_match(path))
    }

    /// The level it sets for `diagnostic`: its code's, else its group's.
    fn level(&self, diagnostic: &Diagnostic) -> Option<LintLevel> {
        self.lints.get(&diagnostic.code).copied().or(if diagnostic.pedantic {
            self.pedantic
        } else {
            None
        })
    }
}

/// Every `[[overrides]]` table of a project file, in its order.
#[derive(Clone, Debug)]
pub struct Overrides {
    /// The folder holding `agentc.toml`, absolute and without `.` or `..`:
    /// the globs are relative to it.
    pub base: PathBuf,
    /// `agentc.toml`, as its diagnostics name it.
    pub file: RelPath,
    /// Its text, which a glob that matches nothing is shown in.
    pub source: Source,
    pub list: Vec<Override>,
}

impl PartialEq for Overrides {
    fn eq(&self, other: &Overrides) -> bool {
        (&self.base, &self.file, &self.list) == (&other.base, &other.file, &other.list)
    }
}

impl Overrides {
    /// Whether any table sets `code` to be reported.
    pub fn reports(&self, code: Code) -> bool {
        self.list.iter().any(|o| o.lints.get(&code).is_some_and(|l| *l != LintLevel::Allow))
    }

    /// Where the files of a compile from `root` (and `workspace`) are from
    /// the project's folder.
    pub fn locator(&self, root: &Path, workspace: Option<&Path>) -> Locator<'_> {
        let from = |dir: &Path| relative(&absolute(dir)?, &self.base);
        Locator { root: from(root), workspace: workspace.and_then(from), base: &self.base }
    }

    /// The level the tables matching `path` set for `diagnostic`, last
    /// match winning, or None when none names its code or group.
    pub fn level(&self, path: &str, diagnostic: &Diagnostic) -> Option<LintLevel> {
        let matching = self.list.iter().rev().filter(|o| o.matches(path));
        matching.filter_map(|o| o.level(diagnostic)).next()
    }

    /// A warning for each glob that matches none of `files` (the files the
    /// compile read): its levels apply to nothing.
    pub fn unmatched<'a>(
        &self,
        locator: &Locator<'_>,
        files: impl Iterator<Item = &'a RelPath>,
    ) -> Vec<Diagnostic> {
        let paths: Vec<String> = files.filter_map(|file| locator.path(file)).collect();
        let mut out = Vec::new();
        for o in &self.list {
            for (glob, (file, folder)) in o.globs.iter().zip(&o.matchers) {
                if paths.iter().any(|p| file.is_match(p) || folder.is_match(p)) {
                    continue;
                }
                let message = format!(
                    "the glob `{}` of `[[overrides]]` matches no file agentc reads, so its \
                     levels apply to nothing",
                    glob.value
                );
                let help = "globs are relative to the folder holding agentc.toml; `*` stays \
                            within a folder, `**/` matches any folders, and a folder's path \
                            matches everything under it";
                out.push(
                    Diagnostic::at(Code::UnmatchedGlob, &self.file, glob.span, message)
                        .with_help(help),
                );
            }
        }
        out
    }
}

/// Turns the paths of a compile's files into paths from the project's
/// folder, which the globs match.
pub struct Locator<'a> {
    root: Option<String>,
    workspace: Option<String>,
    base: &'a Path,
}

impl Locator<'_> {
    /// `file` from the project's folder, `/`-separated; None when it is
    /// outside it.
    pub fn path(&self, file: &RelPath) -> Option<String> {
        let join = |prefix: &Option<String>| {
            let prefix = prefix.as_deref()?;
            let path = file.path.trim_end_matches('/');
            Some(match (prefix.is_empty(), path.is_empty()) {
                (true, _) => path.to_owned(),
                (false, true) => prefix.to_owned(),
                (false, false) => format!("{prefix}/{path}"),
            })
        };
        match file.origin {
            Origin::Root => join(&self.root),
            Origin::Workspace => join(&self.workspace),
            Origin::Given => relative(&absolute(Path::new(&*file.path))?, self.base),
        }
    }
}

/// `path` made absolute (from the current folder when relative) with its
/// `.` and `..` taken out, without reading the file system.
pub fn absolute(path: &Path) -> Option<PathBuf> {
    let path = if path.as_os_str().is_empty() { Path::new(".") } else { path };
    let absolute = std::path::absolute(path).ok()?;
    let mut out = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// `path` from `base` (both from [`absolute`]), `/`-separated; None when it
/// is not under it.
fn relative(path: &Path, base: &Path) -> Option<String> {
    let rest = path.strip_prefix(base).ok()?;
    let parts: Option<Vec<&str>> = rest.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(globs: &[&str], lints: &[(Code, LintLevel)]) -> Override {
        let globs = globs.iter().map(|g| Spanned::new((*g).to_owned(), Span::new(0, 0))).collect();
        Override::new(globs, lints.iter().copied().collect(), None).unwrap()
    }

    #[test]
    fn globs_match_files_and_folders_from_the_project_folder() {
        let o = table(&["skills/legacy", "*.md", "docs/**/*.mdc"], &[]);
        for yes in ["skills/legacy/SKILL.md", "skills/legacy/a/b.md", "AGENTS.md", "docs/a/b/c.mdc"]
        {
            assert!(o.matches(yes), "{yes}");
        }
        for no in ["skills/legacy2/SKILL.md", "sub/AGENTS.md", "docs/a.md", "skills/leg"] {
            assert!(!o.matches(no), "{no}");
        }
    }

    #[test]
    fn the_last_table_naming_a_code_wins() {
        use agentc_schema::LintLevel::{Allow, Deny};
        let overrides = Overrides {
            base: PathBuf::from("/p"),
            file: RelPath::given("agentc.toml"),
            source: Source::new(RelPath::given("agentc.toml"), ""),
            list: vec![
                table(&["a/**"], &[(Code::UnknownField, Allow)]),
                table(&["a/b/**"], &[(Code::UnknownField, Deny)]),
                table(&["a/**"], &[(Code::StrayEntry, Allow)]),
            ],
        };
        let d = |code| Diagnostic::on_path(code, &RelPath::root("a/b/c.md"), "m");
        assert_eq!(overrides.level("a/b/c.md", &d(Code::UnknownField)), Some(Deny));
        assert_eq!(overrides.level("a/c.md", &d(Code::UnknownField)), Some(Allow));
        assert_eq!(overrides.level("a/b/c.md", &d(Code::StrayEntry)), Some(Allow));
        assert_eq!(overrides.level("x.md", &d(Code::UnknownField)), None);
    }

    #[test]
    fn paths_are_made_absolute_without_dots() {
        let made = absolute(Path::new("/a/./b/../c")).unwrap();
        assert_eq!(made, PathBuf::from("/a/c"));
        assert_eq!(relative(&made, Path::new("/a")), Some("c".to_owned()));
        assert_eq!(relative(&made, Path::new("/b")), None);
    }
}
