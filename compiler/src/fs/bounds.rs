//! Where repository content may lead: a path a file names (a link in a body,
//! a path in `agentc.toml`, a symlink in the tree) is resolved here, one
//! component at a time, following symlinks only while they stay inside the
//! project's folders. Nothing outside is ever stat'ed, listed or read, not
//! even to say what is there: the walk stops at the first step that would
//! leave, as `openat2(RESOLVE_BENEATH)` does, but over the [`Fs`] seam, so
//! a project in memory resolves the same way.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Component, Path, PathBuf};

use super::{EntryKind, Fs};

/// How many symlinks one resolution follows before calling it a loop, as
/// Linux's `MAXSYMLINKS`.
const MAX_LINKS: usize = 40;

/// The folders repository content may lead to, canonical: the project's root
/// and workspace, or the folder holding `agentc.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    trees: Vec<PathBuf>,
}

/// Where a path inside the bounds leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// Something is there: its canonical path and what it is (never a symlink).
    Found(PathBuf, EntryKind),
    /// Nothing is there. `existing` is the deepest folder that exists on the
    /// way, canonical and inside; `missing` the first name not in it, and
    /// `last` whether it is the last name of the path (then `existing` is the
    /// folder a file of that name would be created in).
    Missing { existing: PathBuf, missing: OsString, last: bool },
}

/// Why a path was not resolved.
#[derive(Debug)]
pub enum Refused {
    /// The path leaves the bounds at `at`, itself or through the symlink
    /// `through` (the link's path, and what it says).
    Outside { at: PathBuf, through: Option<(PathBuf, PathBuf)> },
    /// Symlinks lead to symlinks more than [`MAX_LINKS`] times.
    Loop(PathBuf),
    /// The disk said no.
    Io(PathBuf, io::Error),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Outside { through: Some((link, target)), .. } => write!(
                f,
                "the symbolic link `{}` leads outside the project (to `{}`)",
                link.display(),
                target.display()
            ),
            Refused::Outside { at, through: None } => {
                write!(f, "`{}` is outside the project", at.display())
            }
            Refused::Loop(at) => {
                write!(f, "the symbolic links at `{}` lead in a loop", at.display())
            }
            Refused::Io(at, err) => write!(f, "`{}` cannot be inspected: {err}", at.display()),
        }
    }
}

impl Bounds {
    /// The bounds made of `trees`, each canonical.
    pub fn new(trees: impl IntoIterator<Item = PathBuf>) -> Bounds {
        let mut trees: Vec<PathBuf> = trees.into_iter().collect();
        trees.sort();
        trees.dedup();
        Bounds { trees }
    }

    /// The trees, canonical, in byte order.
    pub fn trees(&self) -> &[PathBuf] {
        &self.trees
    }

    /// Whether the canonical `path` is in one of the trees.
    pub fn contains(&self, path: &Path) -> bool {
        self.trees.iter().any(|tree| path.starts_with(tree))
    }

    /// Where `path` (absolute) leads, following symlinks that stay inside.
    pub fn resolve(&self, fs: &dyn Fs, path: &Path) -> Result<Resolved, Refused> {
        let mut pending: VecDeque<OsString> = VecDeque::new();
        let Some(done) = push_front(&mut pending, path) else {
            // A relative path has no place to start from.
            return Err(Refused::Outside { at: path.to_path_buf(), through: None });
        };
        self.walk(fs, done, pending)
    }

    /// Where `name` leads in `folder`, a folder inside the bounds already
    /// resolved (canonical): as [`Bounds::resolve`] of the path that led to
    /// `folder` and then `name`, with no look at the folders on the way.
    pub fn resolve_in(
        &self,
        fs: &dyn Fs,
        folder: &Path,
        name: &OsStr,
    ) -> Result<Resolved, Refused> {
        self.walk(fs, folder.to_path_buf(), VecDeque::from([name.to_os_string()]))
    }

    /// Resolves the names `pending` one by one from the canonical `done`.
    fn walk(
        &self,
        fs: &dyn Fs,
        mut done: PathBuf,
        mut pending: VecDeque<OsString>,
    ) -> Result<Resolved, Refused> {
        let mut kind = EntryKind::Dir;
        let mut through: Option<(PathBuf, PathBuf)> = None;
        let mut links = 0;
        while let Some(part) = pending.pop_front() {
            if part == ".." {
                done.pop();
                kind = EntryKind::Dir;
                continue;
            }
            let next = done.join(&part);
            if !self.contains(&next) {
                // A folder above a tree is on the way in: the tree's own
                // path, canonical, says what it is without a look.
                if self.trees.iter().any(|tree| tree.starts_with(&next)) {
                    done = next;
                    continue;
                }
                let at = pending.iter().fold(next, |at, rest| at.join(rest));
                return Err(Refused::Outside { at, through });
            }
            if kind != EntryKind::Dir {
                // `file.md/x`: the system says "not a directory"; nothing is there.
                return Ok(Resolved::Missing { existing: done, missing: part, last: false });
            }
            match fs.kind(&next) {
                Ok(EntryKind::Symlink) => {
                    links += 1;
                    if links > MAX_LINKS {
                        return Err(Refused::Loop(next));
                    }
                    let target =
                        fs.read_link(&next).map_err(|err| Refused::Io(next.clone(), err))?;
                    if let Some(anchor) = push_front(&mut pending, &target) {
                        done = anchor;
                    }
                    through = Some((next, target));
                }
                Ok(found) => {
                    done = next;
                    kind = found;
                }
                Err(err)
                    if matches!(
                        err.kind(),
                        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                    ) =>
                {
                    let last = pending.is_empty();
                    return Ok(Resolved::Missing { existing: done, missing: part, last });
                }
                Err(err) => return Err(Refused::Io(next, err)),
            }
        }
        if !self.contains(&done) {
            return Err(Refused::Outside { at: done, through });
        }
        Ok(Resolved::Found(done, kind))
    }
}

/// Puts the names of `path` before the pending ones; returns where an
/// absolute path starts (`/`, or `C:\` with its prefix), `None` for a
/// relative one.
fn push_front(pending: &mut VecDeque<OsString>, path: &Path) -> Option<PathBuf> {
    let mut anchor = PathBuf::new();
    let mut parts = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(name) => parts.push(name.to_os_string()),
            Component::ParentDir => parts.push("..".into()),
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => anchor.push(component),
        }
    }
    for part in parts.into_iter().rev() {
        pending.push_front(part);
    }
    super::is_absolute(path).then_some(anchor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::RealFs;

    /// Every path the resolution looked at, through a recording seam.
    struct Recording<'a> {
        inner: &'a dyn Fs,
        seen: std::sync::Mutex<Vec<PathBuf>>,
    }

    impl Fs for Recording<'_> {
        fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
            self.seen.lock().unwrap().push(path.into());
            self.inner.read_dir(path)
        }
        fn kind(&self, path: &Path) -> io::Result<EntryKind> {
            self.seen.lock().unwrap().push(path.into());
            self.inner.kind(path)
        }
        fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
            panic!("followed a link at {}", path.display())
        }
        fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
            panic!("canonicalized {}", path.display())
        }
        fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
            self.seen.lock().unwrap().push(path.into());
            self.inner.read_link(path)
        }
        fn read(&self, path: &Path, max: u64) -> io::Result<super::super::ReadOutcome> {
            self.seen.lock().unwrap().push(path.into());
            self.inner.read(path, max)
        }
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_inside_and_nothing_outside_is_looked_at() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        let (root, outside) = (top.join("root"), top.join("outside"));
        for folder in [root.join("skills/a"), root.join("shared"), outside.clone()] {
            std::fs::create_dir_all(folder).unwrap();
        }
        std::fs::write(root.join("shared/forms.md"), "x").unwrap();
        std::fs::write(outside.join("secret-token.txt"), "x").unwrap();
        symlink("../../shared", root.join("skills/a/refs")).unwrap();
        symlink(&outside, root.join("skills/a/out")).unwrap();
        symlink("../../../outside/secret-token.txt", root.join("skills/a/token")).unwrap();
        symlink("loop", root.join("skills/a/loop")).unwrap();
        let fs = Recording { inner: &RealFs, seen: Default::default() };
        let bounds = Bounds::new([root.clone()]);
        let at = |p: &str| bounds.resolve(&fs, &root.join(p));

        assert_eq!(
            at("skills/a/refs/forms.md").unwrap(),
            Resolved::Found(root.join("shared/forms.md"), EntryKind::File)
        );
        assert_eq!(
            at("skills/a/refs/nope/x.md").unwrap(),
            Resolved::Missing {
                existing: root.join("shared"),
                missing: "nope".into(),
                last: false
            }
        );
        assert_eq!(
            at("shared/forms.md/x").unwrap(),
            Resolved::Missing {
                existing: root.join("shared/forms.md"),
                missing: "x".into(),
                last: false
            }
        );
        for escaping in [
            "skills/a/out/secret-token.txt",
            "skills/a/out/secret-tokn.txt",
            "skills/a/token",
            "../outside/secret-token.txt",
        ] {
            assert!(matches!(at(escaping), Err(Refused::Outside { .. })), "{escaping}");
        }
        assert!(matches!(at("skills/a/loop"), Err(Refused::Loop(_))));
        let seen = fs.seen.lock().unwrap();
        assert!(seen.iter().all(|p| p.starts_with(&root)), "looked outside: {seen:?}");
    }
}
