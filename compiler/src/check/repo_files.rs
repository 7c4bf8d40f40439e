//! The repository's files, listed once per run for the rules that ask
//! whether a glob matches anything (an instructions file's `applyTo`, a
//! Cursor rule's `globs`): a pattern that matches no file never applies.
//!
//! The walk goes through the contained seam and follows no symbolic link,
//! so it never leaves the project. It is bounded — [`MAX_FILES`] files,
//! [`MAX_DEPTH`] folders deep — and skips `.git` and `node_modules`; when a
//! bound is reached the listing is incomplete, and a glob that matches
//! nothing in it is not reported, since it may match what was not listed.

use std::path::Path;
use std::sync::OnceLock;

use globset::GlobMatcher;

use crate::fs::{EntryKind, Fs};

/// How many files the walk lists at most.
pub const MAX_FILES: usize = 200_000;
/// How many folders deep the walk goes.
pub const MAX_DEPTH: usize = 32;

/// Folders whose contents no instructions file means to match.
const SKIPPED: &[&str] = &[".git", "node_modules"];

/// The files under one folder, `/`-separated, relative to it, in name order.
#[derive(Debug, Default)]
pub struct RepoFiles {
    paths: Vec<String>,
    complete: bool,
}

impl RepoFiles {
    /// Lists the files under the canonical folder `top`.
    pub fn list(fs: &dyn Fs, top: &Path) -> RepoFiles {
        let mut files = RepoFiles { paths: Vec::new(), complete: true };
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
    /// the listing is incomplete (it may match a file not listed).
    pub fn any_match(&self, glob: &GlobMatcher) -> Option<bool> {
        match self.paths.iter().any(|path| glob.is_match(path)) {
            true => Some(true),
            false if self.complete => Some(false),
            false => None,
        }
    }

    /// [`RepoFiles::any_match`], with each path written after `prefix`
    /// (the folder's own path, for globs matched against full paths).
    pub fn any_match_under(&self, prefix: &str, glob: &GlobMatcher) -> Option<bool> {
        match self.paths.iter().any(|path| glob.is_match(format!("{prefix}{path}"))) {
            true => Some(true),
            false if self.complete => Some(false),
            false => None,
        }
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

    fn glob(pattern: &str) -> GlobMatcher {
        globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .unwrap()
            .compile_matcher()
    }

    #[test]
    fn files_are_listed_without_git_and_node_modules() {
        let mut fs = MemFs::new();
        for path in ["src/a.ts", "src/b/c.ts", ".git/HEAD", "node_modules/x/y.ts", "README.md"] {
            fs.insert(path, "x").unwrap();
        }
        let files = RepoFiles::list(&fs, Path::new("/"));
        assert_eq!(files.paths, ["README.md", "src/a.ts", "src/b/c.ts"]);
        assert_eq!(files.any_match(&glob("**/*.ts")), Some(true));
        assert_eq!(files.any_match(&glob("**/*.py")), Some(false));
        assert_eq!(files.any_match(&glob("node_modules/**")), Some(false));
    }
}
