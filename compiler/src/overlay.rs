//! Unsaved buffers laid over a file system, behind the [`Fs`] seam: an
//! editor's open documents are the contents of their files, and everything
//! else — listings, kinds, links, other files — comes from beneath.
//!
//! A buffer only replaces a file's contents: one for a file not yet saved to
//! disk is not part of the project until it is (discovery lists what exists).

use std::collections::HashMap;
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::fs::{EntryKind, Fs, ReadOutcome};

/// `base` with the texts of `buffers` (by canonical path) read in place of
/// the files.
pub struct Overlay<'a> {
    pub base: &'a dyn Fs,
    pub buffers: &'a HashMap<PathBuf, Arc<str>>,
}

impl Fs for Overlay<'_> {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        self.base.read_dir(path)
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        self.base.kind(path)
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        self.base.kind_followed(path)
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        self.base.canonicalize(path)
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        self.base.read_link(path)
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        match self.buffers.get(path) {
            // The same bound as a file on disk: a buffer is no way around it.
            Some(text) if text.len() as u64 > max => Ok(ReadOutcome::TooLarge(text.len() as u64)),
            Some(text) => Ok(ReadOutcome::Bytes(text.as_bytes().to_vec())),
            None => self.base.read(path, max),
        }
    }

    /// An open document's text is compared, never assumed.
    fn unchanged(&self, path: &Path) -> bool {
        !self.buffers.contains_key(path) && self.base.unchanged(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memfs::MemFs;

    #[test]
    fn buffers_replace_contents_and_nothing_else() {
        let mut fs = MemFs::new();
        fs.insert("a.md", "disk").unwrap();
        fs.insert("b.md", "disk b").unwrap();
        let buffers = HashMap::from([
            (PathBuf::from("/a.md"), Arc::from("buffer")),
            (PathBuf::from("/new.md"), Arc::from("unsaved")),
        ]);
        let overlay = Overlay { base: &fs, buffers: &buffers };
        let read = |path: &str| match overlay.read(Path::new(path), 100) {
            Ok(ReadOutcome::Bytes(bytes)) => String::from_utf8(bytes).unwrap(),
            other => format!("{other:?}"),
        };
        assert_eq!(read("/a.md"), "buffer");
        assert_eq!(read("/b.md"), "disk b");
        let names: Vec<_> = overlay.read_dir(Path::new("/")).unwrap();
        assert_eq!(names.len(), 2, "an unsaved buffer is not listed: {names:?}");
        assert!(matches!(overlay.read(Path::new("/a.md"), 3), Ok(ReadOutcome::TooLarge(6))));
    }
}
