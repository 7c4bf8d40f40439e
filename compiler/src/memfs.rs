//! A file system held in memory, behind the [`Fs`] seam.
//!
//! A project can be compiled without touching the disk: tests build one from
//! literals, the fuzz targets from random bytes, and an editor could lay its
//! unsaved buffers over what it read. Files are bytes under `/`-separated
//! relative paths; folders exist because files are in them. Every listing
//! comes in byte order, so a compile over a `MemFs` is reproducible.
//!
//! ```
//! use agentc_compiler::memfs::MemFs;
//! use agentc_compiler::{Options, compile};
//!
//! let mut fs = MemFs::new();
//! fs.insert("skills/greet/SKILL.md", "---\nname: greet\ndescription: Say hello.\n---\nHello.\n")
//!     .unwrap();
//! let compilation = compile(&fs, &Options::new(fs.root())).unwrap();
//! assert!(!compilation.has_errors());
//! ```

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::fs::{EntryKind, Fs, ReadOutcome};

/// Files in memory, mounted at [`MemFs::root`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemFs {
    /// Normalized relative path (`a/b/c`) → contents.
    files: BTreeMap<String, Vec<u8>>,
}

/// Why a path cannot name a file of a [`MemFs`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    /// No component at all (`""`, `"/"`, `"./"`).
    Empty,
    /// A `..` component: the tree has nothing above its root.
    Parent,
    /// The path runs through a file, or is a folder that holds files.
    Conflict(String),
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::Empty => f.write_str("the path names no file"),
            PathError::Parent => f.write_str("the path climbs out of the tree with `..`"),
            PathError::Conflict(at) => write!(f, "`{at}` would be both a file and a folder"),
        }
    }
}

impl std::error::Error for PathError {}

/// Where the tree is mounted; absolute, so it canonicalizes to itself.
const ROOT: &str = "/";

impl MemFs {
    /// An empty tree.
    pub fn new() -> MemFs {
        MemFs::default()
    }

    /// The folder the tree is mounted at: give it (or a folder below it) as
    /// the root of a compile.
    pub fn root(&self) -> &'static Path {
        Path::new(ROOT)
    }

    /// Puts `contents` at `path` (relative, `/`-separated; empty and `.`
    /// components are ignored), replacing a file already there. Returns the
    /// replaced contents.
    pub fn insert(
        &mut self,
        path: &str,
        contents: impl Into<Vec<u8>>,
    ) -> Result<Option<Vec<u8>>, PathError> {
        let key = normalize(path)?;
        // A file may not sit where a folder is, nor inside another file.
        let folder = format!("{key}/");
        if self.files.range(folder.clone()..).next().is_some_and(|(k, _)| k.starts_with(&folder)) {
            return Err(PathError::Conflict(key));
        }
        let mut end = 0;
        while let Some(slash) = key[end..].find('/') {
            end += slash;
            if self.files.contains_key(&key[..end]) {
                return Err(PathError::Conflict(key[..end].to_owned()));
            }
            end += 1;
        }
        Ok(self.files.insert(key, contents.into()))
    }

    /// Removes the file at `path`, returning its contents.
    pub fn remove(&mut self, path: &str) -> Option<Vec<u8>> {
        self.files.remove(&normalize(path).ok()?)
    }

    /// The contents of the file at `path`.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(&normalize(path).ok()?).map(Vec::as_slice)
    }

    /// Every file with its contents, in byte order of the paths.
    pub fn files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.files.iter().map(|(path, bytes)| (path.as_str(), bytes.as_slice()))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    fn kind_of_key(&self, key: &str) -> Option<EntryKind> {
        if key.is_empty() {
            return Some(EntryKind::Dir);
        }
        if self.files.contains_key(key) {
            return Some(EntryKind::File);
        }
        let folder = format!("{key}/");
        let inside = self.files.range(folder.clone()..).next();
        inside.is_some_and(|(k, _)| k.starts_with(&folder)).then_some(EntryKind::Dir)
    }
}

/// The tree-relative key of an absolute `path` under the root (`""` for the
/// root itself), `..` resolved lexically as the tree holds no links.
fn key(path: &Path) -> io::Result<String> {
    let mut parts: Vec<&str> = Vec::new();
    let mut components = path.components();
    if components.next() != Some(Component::RootDir) {
        return Err(not_found(path));
    }
    for component in components {
        match component {
            Component::Normal(name) => parts.push(name.to_str().ok_or_else(|| not_found(path))?),
            Component::ParentDir => {
                parts.pop();
            }
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return Err(not_found(path)),
        }
    }
    Ok(parts.join("/"))
}

/// `path` as a key: its components joined with `/`.
fn normalize(path: &str) -> Result<String, PathError> {
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err(PathError::Parent),
            part => parts.push(part),
        }
    }
    if parts.is_empty() {
        return Err(PathError::Empty);
    }
    Ok(parts.join("/"))
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("`{}` is not in the tree", path.display()))
}

impl Fs for MemFs {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        let key = key(path)?;
        match self.kind_of_key(&key) {
            Some(EntryKind::Dir) => {}
            Some(_) => return Err(io::Error::other("not a directory")),
            None => return Err(not_found(path)),
        }
        let prefix = if key.is_empty() { String::new() } else { format!("{key}/") };
        let mut entries: Vec<(OsString, EntryKind)> = Vec::new();
        for (file, _) in self.files.range(prefix.clone()..) {
            let Some(rest) = file.strip_prefix(&prefix) else { break };
            let (name, kind) = match rest.split_once('/') {
                Some((folder, _)) => (folder, EntryKind::Dir),
                None => (rest, EntryKind::File),
            };
            // The files of one folder are adjacent in the map: a repeat is the last entry.
            if entries.last().is_none_or(|(last, _)| last.as_os_str() != name) {
                entries.push((name.into(), kind));
            }
        }
        // The map orders `a.md` before the files of `a/` (`.` < `/`); names alone decide.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(entries)
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        self.kind_of_key(&key(path)?).ok_or_else(|| not_found(path))
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        self.kind(path)
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        let key = key(path)?;
        self.kind_of_key(&key).ok_or_else(|| not_found(path))?;
        Ok(Path::new(ROOT).join(key))
    }

    fn read_link(&self, _path: &Path) -> io::Result<PathBuf> {
        Err(io::Error::new(io::ErrorKind::InvalidInput, "a MemFs holds no symbolic links"))
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        let key = key(path)?;
        match self.files.get(&key) {
            Some(bytes) if bytes.len() as u64 > max => {
                Ok(ReadOutcome::TooLarge(bytes.len() as u64))
            }
            Some(bytes) => Ok(ReadOutcome::Bytes(bytes.clone())),
            None if self.kind_of_key(&key).is_some() => Err(io::Error::other("is a directory")),
            None => Err(not_found(path)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> MemFs {
        let mut fs = MemFs::new();
        fs.insert("skills/b/SKILL.md", "b").unwrap();
        fs.insert("./skills//a/SKILL.md", "a").unwrap();
        fs.insert("skills/a/notes.md", "n").unwrap();
        fs.insert("agent.json", "{}").unwrap();
        fs
    }

    #[test]
    fn folders_are_implied_and_listed_in_byte_order() {
        let fs = tree();
        let names = |path: &str| -> Vec<(String, EntryKind)> {
            fs.read_dir(Path::new(path))
                .unwrap()
                .into_iter()
                .map(|(name, kind)| (name.into_string().unwrap(), kind))
                .collect()
        };
        assert_eq!(
            names("/"),
            [("agent.json".into(), EntryKind::File), ("skills".into(), EntryKind::Dir)]
        );
        assert_eq!(names("/skills"), [("a".into(), EntryKind::Dir), ("b".into(), EntryKind::Dir)]);
        assert_eq!(fs.kind(Path::new("/skills/a/../b/SKILL.md")).unwrap(), EntryKind::File);
        assert_eq!(fs.kind(Path::new("/skill")).unwrap_err().kind(), io::ErrorKind::NotFound);
        assert_eq!(fs.canonicalize(Path::new("/skills/./a")).unwrap(), Path::new("/skills/a"));
    }

    #[test]
    fn reads_are_bounded() {
        let fs = tree();
        assert!(
            matches!(fs.read(Path::new("/agent.json"), 2), Ok(ReadOutcome::Bytes(b)) if b == b"{}")
        );
        assert!(matches!(fs.read(Path::new("/agent.json"), 1), Ok(ReadOutcome::TooLarge(2))));
        assert!(fs.read(Path::new("/skills"), 10).is_err());
        assert_eq!(fs.read(Path::new("/nope"), 10).unwrap_err().kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn a_path_is_never_both_a_file_and_a_folder() {
        let mut fs = tree();
        assert_eq!(fs.insert("skills", "x"), Err(PathError::Conflict("skills".into())));
        assert_eq!(fs.insert("agent.json/x", "x"), Err(PathError::Conflict("agent.json".into())));
        assert_eq!(fs.insert("../x", "x"), Err(PathError::Parent));
        assert_eq!(fs.insert("/./", "x"), Err(PathError::Empty));
        assert_eq!(fs.insert("agent.json", "[]"), Ok(Some(b"{}".to_vec())));
        assert_eq!(fs.get("agent.json"), Some(&b"[]"[..]));
        assert_eq!(fs.remove("skills/a/notes.md"), Some(b"n".to_vec()));
        assert_eq!(fs.len(), 3);
    }
}
