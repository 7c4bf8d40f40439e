//! A file that does not exist yet, laid into a file system: listed in its
//! folder (and the folders on the way to it, when they are missing too), so
//! discovery finds it where it would be written. Its text is read through
//! [`agentc_compiler::overlay::Overlay`], which replaces contents only.

use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

use agentc_compiler::fs::{EntryKind, Fs, ReadOutcome};

/// `base` with the file `file` (canonical, not on disk) in it.
pub struct Planted<'a> {
    pub base: &'a dyn Fs,
    pub file: &'a Path,
}

impl Planted<'_> {
    /// What `path` is because of the planted file: the file itself, or a
    /// folder on the way to it that the disk does not have.
    fn planted_kind(&self, path: &Path) -> Option<EntryKind> {
        if path == self.file {
            return Some(EntryKind::File);
        }
        let on_the_way = self.file.starts_with(path);
        let missing = || {
            self.base.kind(path).is_err_and(|err| {
                matches!(err.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory)
            })
        };
        (on_the_way && missing()).then_some(EntryKind::Dir)
    }

    /// The entry of `dir` on the way to the planted file, with what it is.
    fn child(&self, dir: &Path) -> Option<(OsString, EntryKind)> {
        let rest = self.file.strip_prefix(dir).ok()?;
        let Some(Component::Normal(name)) = rest.components().next() else {
            return None;
        };
        let kind = if rest.components().count() == 1 { EntryKind::File } else { EntryKind::Dir };
        Some((name.to_os_string(), kind))
    }
}

impl Fs for Planted<'_> {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        let mut entries = match self.base.read_dir(path) {
            Ok(entries) => entries,
            Err(_) if self.planted_kind(path) == Some(EntryKind::Dir) => Vec::new(),
            Err(err) => return Err(err),
        };
        if let Some((name, kind)) = self.child(path)
            && !entries.iter().any(|(listed, _)| *listed == name)
        {
            entries.push((name, kind));
        }
        Ok(entries)
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        match self.planted_kind(path) {
            Some(kind) => Ok(kind),
            None => self.base.kind(path),
        }
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        match self.planted_kind(path) {
            Some(kind) => Ok(kind),
            None => self.base.kind_followed(path),
        }
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        match self.planted_kind(path) {
            Some(_) => Ok(path.to_path_buf()),
            None => self.base.canonicalize(path),
        }
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        self.base.read_link(path)
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        match path == self.file {
            // The text is laid over by the overlay above this one.
            true => Err(io::Error::new(io::ErrorKind::NotFound, "a planted file has no text")),
            false => self.base.read(path, max),
        }
    }

    fn unchanged(&self, path: &Path) -> bool {
        path != self.file && self.base.unchanged(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agentc_compiler::memfs::MemFs;

    #[test]
    fn the_file_and_the_folders_to_it_are_listed() {
        let mut fs = MemFs::new();
        fs.insert(".claude/settings.json", "{}").unwrap();
        let file = Path::new("/.claude/agents/new/reviewer.md");
        let planted = Planted { base: &fs, file };
        let names = |dir: &str| -> Vec<String> {
            let mut names: Vec<String> = (planted.read_dir(Path::new(dir)).unwrap().into_iter())
                .map(|(name, kind)| format!("{}:{kind:?}", name.to_string_lossy()))
                .collect();
            names.sort();
            names
        };
        assert_eq!(names("/.claude"), ["agents:Dir", "settings.json:File"]);
        assert_eq!(names("/.claude/agents"), ["new:Dir"]);
        assert_eq!(names("/.claude/agents/new"), ["reviewer.md:File"]);
        assert_eq!(planted.kind(file).unwrap(), EntryKind::File);
        assert_eq!(planted.kind(Path::new("/.claude/agents")).unwrap(), EntryKind::Dir);
        assert!(planted.kind(Path::new("/.claude/skills")).is_err(), "nothing else appears");
        assert!(!planted.unchanged(file));
    }
}
