//! A file system remembered, behind the [`Fs`] seam: what was listed or
//! looked at once is served from memory until [`CachedFs::forget`] is told
//! it changed. The language server compiles on every change; without this
//! every compile would walk the whole project on the disk again. Files are
//! read from the disk each time: the compile memo keeps their texts, and
//! keeping their bytes here too would hold the project twice.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use crate::fs::{EntryKind, Fs, ReadOutcome};

/// `base`, with its answers kept.
pub struct CachedFs<F> {
    base: F,
    state: RwLock<State>,
    /// Only paths under these are kept (the folders watched, which change
    /// with an editor's workspace); none: every path.
    within: Option<RwLock<Vec<PathBuf>>>,
}

/// An answer kept: a value, or that the path was not there.
type Kept<T> = Result<T, io::ErrorKind>;

/// A folder's listing, shared.
type Listing = Arc<[(OsString, EntryKind)]>;

#[derive(Default)]
struct State {
    dirs: HashMap<PathBuf, Kept<Listing>>,
    kinds: HashMap<PathBuf, Kept<EntryKind>>,
    followed: HashMap<PathBuf, Kept<EntryKind>>,
    canonical: HashMap<PathBuf, Kept<PathBuf>>,
    links: HashMap<PathBuf, Kept<PathBuf>>,
    /// The files read since they last changed.
    read: HashSet<PathBuf>,
}

/// Only "not there" is kept of failures: anything else (a permission, a
/// transient error) is asked again next time.
fn keep<T: Clone>(result: &io::Result<T>) -> Option<Kept<T>> {
    match result {
        Ok(value) => Some(Ok(value.clone())),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Some(Err(err.kind())),
        Err(_) => None,
    }
}

fn answer<T: Clone>(kept: &Kept<T>) -> io::Result<T> {
    kept.clone().map_err(io::Error::from)
}

impl<F: Fs> CachedFs<F> {
    pub fn new(base: F) -> CachedFs<F> {
        CachedFs { base, state: RwLock::new(State::default()), within: None }
    }

    /// Keeps answers only about paths under `folders` (those watched for
    /// changes); the rest is asked of `base` every time.
    pub fn within(base: F, folders: Vec<PathBuf>) -> CachedFs<F> {
        CachedFs { within: Some(RwLock::new(folders)), ..CachedFs::new(base) }
    }

    /// Keeps answers about `folder` too from now on: it is watched.
    pub fn watch(&self, folder: PathBuf) {
        if let Some(Ok(mut within)) = self.within.as_ref().map(RwLock::write) {
            within.push(folder);
        }
    }

    /// Stops keeping answers about `folder` (unless a folder still watched
    /// holds it), and forgets those kept: nothing tells of its changes now.
    pub fn unwatch(&self, folder: &Path) {
        if let Some(Ok(mut within)) = self.within.as_ref().map(RwLock::write) {
            within.retain(|watched| watched != folder);
        }
        self.forget(folder);
    }

    /// The file system beneath, asked directly: what is read while nothing
    /// watches for changes.
    pub fn base(&self) -> &F {
        &self.base
    }

    fn keeps(&self, path: &Path) -> bool {
        match &self.within {
            None => true,
            Some(within) => {
                within.read().is_ok_and(|within| within.iter().any(|f| path.starts_with(f)))
            }
        }
    }

    /// Forgets everything about `path`, what is below it, and the folders
    /// above it: it was created, changed, removed or renamed, and a change
    /// reported for a file alone may have made (or removed) its folders
    /// too, which changes their listings and whether they are there.
    pub fn forget(&self, path: &Path) {
        let Ok(mut state) = self.state.write() else {
            return;
        };
        let gone = |key: &PathBuf| key.starts_with(path) || path.starts_with(key);
        state.dirs.retain(|key, _| !gone(key));
        state.kinds.retain(|key, _| !gone(key));
        state.followed.retain(|key, _| !gone(key));
        // A link anywhere may have pointed through it.
        state.canonical.clear();
        state.links.retain(|key, _| !gone(key));
        state.read.retain(|key| !gone(key));
    }

    /// Forgets everything (the watch on the disk was lost).
    pub fn forget_all(&self) {
        if let Ok(mut state) = self.state.write() {
            *state = State::default();
        }
    }

    /// The kept answer about `path` in one of the maps (`get`, `get_mut`),
    /// or `ask`'s, kept.
    fn cached<T: Clone>(
        &self,
        path: &Path,
        get: impl Fn(&State) -> &HashMap<PathBuf, Kept<T>>,
        get_mut: impl Fn(&mut State) -> &mut HashMap<PathBuf, Kept<T>>,
        ask: impl FnOnce() -> io::Result<T>,
    ) -> io::Result<T> {
        if !self.keeps(path) {
            return ask();
        }
        // Most questions were asked before: a read lock, which the threads
        // reading in parallel share.
        if let Ok(state) = self.state.read()
            && let Some(kept) = get(&state).get(path)
        {
            return answer(kept);
        }
        let result = ask();
        if let (Some(kept), Ok(mut state)) = (keep(&result), self.state.write()) {
            get_mut(&mut state).insert(path.to_path_buf(), kept);
        }
        result
    }
}

impl<F: Fs> Fs for CachedFs<F> {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        let listed = self.cached(
            path,
            |s| &s.dirs,
            |s| &mut s.dirs,
            || self.base.read_dir(path).map(Arc::from),
        )?;
        Ok(listed.to_vec())
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        self.cached(path, |s| &s.kinds, |s| &mut s.kinds, || self.base.kind(path))
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        self.cached(path, |s| &s.followed, |s| &mut s.followed, || self.base.kind_followed(path))
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        self.cached(path, |s| &s.canonical, |s| &mut s.canonical, || self.base.canonicalize(path))
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        self.cached(path, |s| &s.links, |s| &mut s.links, || self.base.read_link(path))
    }

    /// Texts are not kept (a compile keeps what it decoded); which files
    /// were read is, until they change.
    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        if !self.keeps(path) {
            return self.base.read(path, max);
        }
        // Noted before reading: a change during the read forgets the note,
        // where one noted after could outlive it.
        if let Ok(mut state) = self.state.write() {
            state.read.insert(path.to_path_buf());
        }
        let result = self.base.read(path, max);
        if !matches!(result, Ok(ReadOutcome::Bytes(_)))
            && let Ok(mut state) = self.state.write()
        {
            state.read.remove(path);
        }
        result
    }

    fn unchanged(&self, path: &Path) -> bool {
        self.keeps(path) && self.state.read().is_ok_and(|state| state.read.contains(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memfs::MemFs;

    fn text(fs: &impl Fs, path: &str) -> String {
        match fs.read(Path::new(path), 100) {
            Ok(ReadOutcome::Bytes(bytes)) => String::from_utf8(bytes).unwrap(),
            other => format!("{other:?}"),
        }
    }

    /// The cache answers from memory until told; then it asks again. Texts
    /// always come from the disk.
    #[test]
    fn answers_are_kept_until_forgotten() {
        let mut disk = MemFs::new();
        disk.insert("a/one.md", "first").unwrap();
        let cache = CachedFs::new(disk.clone());
        assert_eq!(cache.read_dir(Path::new("/a")).unwrap().len(), 1);
        assert!(cache.kind(Path::new("/a/two.md")).is_err());

        // The disk changes behind the cache's back: it still says the old.
        disk.insert("a/one.md", "second").unwrap();
        disk.insert("a/two.md", "new").unwrap();
        let cache = CachedFs { base: disk, ..cache };
        assert_eq!(cache.read_dir(Path::new("/a")).unwrap().len(), 1);
        assert!(cache.kind(Path::new("/a/two.md")).is_err());
        assert_eq!(text(&cache, "/a/one.md"), "second");

        cache.forget(Path::new("/a/two.md"));
        assert_eq!(cache.read_dir(Path::new("/a")).unwrap().len(), 2);
        assert_eq!(cache.kind(Path::new("/a/two.md")).unwrap(), EntryKind::File);
    }

    /// A file read is known unchanged until a change to it, or to a folder
    /// above it, is told; one that could not be read never is.
    #[test]
    fn a_file_read_is_unchanged_until_told() {
        let mut disk = MemFs::new();
        disk.insert("a/one.md", "first").unwrap();
        let cache = CachedFs::new(disk.clone());
        let one = Path::new("/a/one.md");
        assert!(!cache.unchanged(one), "not read yet");
        assert_eq!(text(&cache, "/a/one.md"), "first");
        assert!(cache.unchanged(one));
        cache.forget(one);
        assert!(!cache.unchanged(one));
        assert_eq!(text(&cache, "/a/one.md"), "first");
        cache.forget(Path::new("/a"));
        assert!(!cache.unchanged(one), "its folder changed");
        assert!(cache.read(Path::new("/a/two.md"), 100).is_err());
        assert!(!cache.unchanged(Path::new("/a/two.md")));
        let outside = CachedFs::within(disk, vec![PathBuf::from("/b")]);
        assert_eq!(text(&outside, "/a/one.md"), "first");
        assert!(!outside.unchanged(one), "outside what is watched");
    }

    /// A file reported alone, in folders made with it: the folders are
    /// there now, and listed with it.
    #[test]
    fn a_file_forgotten_forgets_the_folders_above_it() {
        let mut disk = MemFs::new();
        disk.insert("a/one.md", "first").unwrap();
        let cache = CachedFs::new(disk.clone());
        assert_eq!(cache.read_dir(Path::new("/")).unwrap().len(), 1);
        assert!(cache.kind(Path::new("/b")).is_err());
        disk.insert("b/c/new.md", "new").unwrap();
        let cache = CachedFs { base: disk, ..cache };
        cache.forget(Path::new("/b/c/new.md"));
        assert_eq!(cache.read_dir(Path::new("/")).unwrap().len(), 2);
        assert_eq!(cache.kind(Path::new("/b")).unwrap(), EntryKind::Dir);
    }

    /// Paths outside the watched folders are never kept.
    #[test]
    fn only_what_is_watched_is_kept() {
        let mut disk = MemFs::new();
        disk.insert("in/a.md", "first").unwrap();
        disk.insert("out/b.md", "first").unwrap();
        let cache = CachedFs::within(disk.clone(), vec![PathBuf::from("/in")]);
        assert!(cache.kind(Path::new("/in/c.md")).is_err());
        assert!(cache.kind(Path::new("/out/c.md")).is_err());
        disk.insert("in/c.md", "new").unwrap();
        disk.insert("out/c.md", "new").unwrap();
        let cache = CachedFs { base: disk, ..cache };
        assert!(cache.kind(Path::new("/in/c.md")).is_err());
        assert_eq!(cache.kind(Path::new("/out/c.md")).unwrap(), EntryKind::File);
    }

    /// A folder added to the workspace is kept from then on; one removed
    /// is forgotten, and asked again every time.
    #[test]
    fn folders_watched_come_and_go() {
        let mut disk = MemFs::new();
        disk.insert("in/a.md", "first").unwrap();
        let cache = CachedFs::within(disk.clone(), vec![PathBuf::from("/in")]);
        cache.watch(PathBuf::from("/out"));
        assert!(cache.kind(Path::new("/out/c.md")).is_err());
        assert!(cache.kind(Path::new("/in/c.md")).is_err());
        disk.insert("in/c.md", "new").unwrap();
        disk.insert("out/c.md", "new").unwrap();
        let cache = CachedFs { base: disk, ..cache };
        assert!(cache.kind(Path::new("/out/c.md")).is_err(), "kept");
        cache.unwatch(Path::new("/in"));
        assert_eq!(cache.kind(Path::new("/in/c.md")).unwrap(), EntryKind::File);
        cache.unwatch(Path::new("/out"));
        assert_eq!(cache.kind(Path::new("/out/c.md")).unwrap(), EntryKind::File);
    }
}
