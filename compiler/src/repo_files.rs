//! The repository's files, listed once per run for the rules that ask
//! whether a glob matches anything (an instructions file's `applyTo`, a
//! Cursor rule's `globs`): a pattern that matches no file never applies.
//!
//! The walk goes through the contained seam and follows no symbolic link,
//! so it never leaves the project. It is bounded — [`MAX_FILES`] files,
//! [`MAX_DEPTH`] folders deep — and skips `.git` and `node_modules`; when a
//! bound is reached the listing is incomplete, and a glob that matches
//! nothing in it is not reported, since it may match what was not listed.
//!
//! Matching is bounded too: globs times files is quadratic, so at most
//! [`MAX_GLOB_TESTS`] glob-against-path tests are made per run. The first
//! glob the bound stops is told so, once ([`RepoFiles::stopped`]); it and
//! those after it are not reported.

use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use agentc_schema::Span;

use crate::catalog::Code;
use crate::diagnostic::Diagnostic;
use crate::fs::{EntryKind, Fs};
use crate::source::Source;

/// How many files the walk lists at most.
pub const MAX_FILES: usize = 200_000;
/// How many folders deep the walk goes.
pub const MAX_DEPTH: usize = 32;

/// How many glob-against-path tests a run makes at most: a hundred globs
/// that match nothing in a repository of 20,000 files; a glob that matches
/// stops at its first file, and a literal start narrows the files tried.
pub const MAX_GLOB_TESTS: usize = 2_000_000;

/// The longest glob agentc compiles. globset 0.4 panics, rather than
/// returning an error, when a glob's program outgrows its size limit (from
/// about 87,000 `*`); the longest glob in real rules is a few hundred.
pub const MAX_GLOB_LEN: usize = 4096;

/// `glob` compiled with the options `configure` sets, or why it cannot be:
/// too long, or not a glob globset reads. Never panics.
pub fn compile(glob: &str, configure: impl FnOnce(&mut GlobBuilder)) -> Result<GlobSet, String> {
    if glob.len() > MAX_GLOB_LEN {
        return Err(format!(
            "it is {} bytes long, and agentc reads globs of at most {MAX_GLOB_LEN}",
            glob.len()
        ));
    }
    let mut builder = GlobBuilder::new(glob);
    configure(&mut builder);
    let glob = builder.build().map_err(|e| e.to_string())?;
    // A set, not `compile_matcher`: a set's build returns the regex's size
    // error where the single matcher's panics.
    GlobSetBuilder::new().add(glob).build().map_err(|e| e.to_string())
}

/// What a diagnostic says of a glob `compile` refused with `err`; a glob
/// over the length bound is not repeated.
pub fn unreadable(glob: &str, err: &str) -> String {
    if glob.len() > MAX_GLOB_LEN {
        format!("the glob is not read: {err}")
    } else {
        format!("`{glob}` is not a valid glob: {err}")
    }
}

/// The one diagnostic of a run that says where the tests' bound stopped
/// the matching: at the first glob left unchecked.
pub fn stopped_here(source: &Source, span: Span) -> Diagnostic {
    Diagnostic::at(
        Code::UnmatchedGlob,
        &source.path,
        span,
        format!(
            "agentc stopped matching globs against the repository's files here, after \
             {MAX_GLOB_TESTS} tests: this glob and those checked after it are not reported \
             even if they match nothing"
        ),
    )
    .with_help(
        "the bound keeps the check's time in proportion to the repository; a glob with a \
         literal start (`src/**/*.ts`) tries only the files under it, and one that matches \
         stops at its first file",
    )
}

/// Folders whose contents no instructions file means to match.
const SKIPPED: &[&str] = &[".git", "node_modules"];

/// The files under one folder, `/`-separated, relative to it, in name order.
#[derive(Debug, Default)]
pub struct RepoFiles {
    paths: Vec<String>,
    complete: bool,
    /// Tests made so far, against [`MAX_GLOB_TESTS`].
    tests: AtomicUsize,
    /// Whether a glob has been told the matching stopped.
    told: AtomicBool,
}

impl RepoFiles {
    /// Lists the files under the canonical folder `top`.
    pub fn list(fs: &dyn Fs, top: &Path) -> RepoFiles {
        let mut files = RepoFiles { paths: Vec::new(), complete: true, ..RepoFiles::default() };
        files.walk(fs, top, "", 0);
        files.paths.sort();
        files
    }

    fn walk(&mut self, fs: &dyn Fs, dir: &Path, prefix: &str, depth: usize) {
        if depth > MAX_DEPTH {
            self.complete = false;
            return;
        }
        let Ok(mut entries) = fs.read_dir(dir) else {
            self.complete = false;
            return;
        };
        entries.sort_by(|(a, _), (b, _)| a.as_encoded_bytes().cmp(b.as_encoded_bytes()));
        for (name, kind) in entries {
            let Some(name) = name.to_str() else {
                continue;
            };
            let path = format!("{prefix}{name}");
            match kind {
                EntryKind::Dir if SKIPPED.contains(&name) => {}
                EntryKind::Dir => self.walk(fs, &dir.join(name), &format!("{path}/"), depth + 1),
                EntryKind::File => {
                    if self.paths.len() == MAX_FILES {
                        self.complete = false;
                        return;
                    }
                    self.paths.push(path);
                }
                // A link is not followed: what it leads to may be outside.
                _ => {}
            }
        }
    }

    /// Whether `glob` matches a listed file; `None` when it matches none and
    /// the listing is incomplete (it may match a file not listed), or when
    /// the tests' bound stopped the matching. `literal` is a start every
    /// path `glob` matches has (empty when unknown): only the files with it
    /// are tried.
    pub fn any_match(&self, literal: &str, glob: &GlobSet) -> Option<bool> {
        let from = self.paths.partition_point(|p| p.as_str() < literal);
        let to = from + self.paths[from..].partition_point(|p| p.starts_with(literal));
        self.any_of(self.paths[from..to].iter().map(|p| glob.is_match(p)))
    }

    /// [`RepoFiles::any_match`], with each path written after `prefix`
    /// (the folder's own path, for globs matched against full paths).
    pub fn any_match_under(&self, prefix: &str, glob: &GlobSet) -> Option<bool> {
        self.any_of(self.paths.iter().map(|path| glob.is_match(format!("{prefix}{path}"))))
    }

    fn any_of(&self, tests: impl ExactSizeIterator<Item = bool>) -> Option<bool> {
        let left = MAX_GLOB_TESTS.saturating_sub(self.tests.load(Ordering::Relaxed));
        let cut = tests.len() > left;
        let (mut made, mut hit) = (0, false);
        for matched in tests.take(left) {
            made += 1;
            if matched {
                hit = true;
                break;
            }
        }
        self.tests.fetch_add(made, Ordering::Relaxed);
        match hit {
            true => Some(true),
            false if cut => None,
            false if self.complete => Some(false),
            false => None,
        }
    }

    /// Whether the tests' bound has stopped the matching and no glob has
    /// been told yet; the one that asks is told, and no other after it.
    pub fn stopped(&self) -> bool {
        self.tests.load(Ordering::Relaxed) >= MAX_GLOB_TESTS
            && !self.told.swap(true, Ordering::Relaxed)
    }

    pub fn len(&self) -> usize {
        self.paths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }
}

/// The listing of a folder, made the first time a rule asks for it.
#[derive(Debug, Default)]
pub struct Lazy(OnceLock<RepoFiles>);

impl Lazy {
    pub fn get(&self, fs: &dyn Fs, top: &Path) -> &RepoFiles {
        self.0.get_or_init(|| RepoFiles::list(fs, top))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memfs::MemFs;

    fn glob(pattern: &str) -> GlobSet {
        compile(pattern, |b| {
            b.literal_separator(true);
        })
        .unwrap()
    }

    #[test]
    fn files_are_listed_without_git_and_node_modules() {
        let mut fs = MemFs::new();
        for path in ["src/a.ts", "src/b/c.ts", ".git/HEAD", "node_modules/x/y.ts", "README.md"] {
            fs.insert(path, "x").unwrap();
        }
        let files = RepoFiles::list(&fs, Path::new("/"));
        assert_eq!(files.paths, ["README.md", "src/a.ts", "src/b/c.ts"]);
        assert_eq!(files.any_match("", &glob("**/*.ts")), Some(true));
        assert_eq!(files.any_match("", &glob("**/*.py")), Some(false));
        assert_eq!(files.any_match("", &glob("node_modules/**")), Some(false));
        // Only the paths with the literal start are tried.
        assert_eq!(files.any_match("src/b/", &glob("**/*.ts")), Some(true));
        assert_eq!(files.any_match("src/c", &glob("**/*.ts")), Some(false));
        // Two, three and three paths tried, then one under `src/b/`, none under `src/c`.
        assert_eq!(files.tests.load(Ordering::Relaxed), 9);
    }

    #[test]
    fn a_glob_longer_than_the_bound_is_an_error_not_a_panic() {
        let long = "*".repeat(100_000);
        assert_eq!(
            compile(&long, |_| {}).unwrap_err(),
            "it is 100000 bytes long, and agentc reads globs of at most 4096"
        );
        assert!(compile(&"*".repeat(MAX_GLOB_LEN), |_| {}).is_ok());
        assert_eq!(
            compile("src/[", |_| {}).unwrap_err(),
            "error parsing glob 'src/[': unclosed character class; missing ']'"
        );
    }

    #[test]
    fn matching_stops_at_the_bound_and_tells_one_glob() {
        let files = RepoFiles {
            paths: (0..100).map(|i| format!("f{i:03}")).collect(),
            complete: true,
            ..RepoFiles::default()
        };
        files.tests.store(MAX_GLOB_TESTS - 150, Ordering::Relaxed);
        assert_eq!(files.any_match("", &glob("nothing")), Some(false));
        assert!(!files.stopped());
        // 50 tests left: the last file is not reached.
        assert_eq!(files.any_match("", &glob("f099")), None);
        assert!(files.stopped());
        assert!(!files.stopped());
        assert_eq!(files.any_match("f00", &glob("*")), None);
        assert_eq!(files.any_match("g", &glob("*")), Some(false));
    }
}
