//! The file-system seam: everything agentc asks of the disk goes through [`Fs`].
//!
//! Keeping it this small lets tests replace the disk (a shuffled directory
//! order, injected failures) and keeps the safety rules in one place: entries
//! are classified without being opened, and files are read with a size bound.

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// What a directory entry is, symlinks not followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Dir,
    Symlink,
    /// A FIFO, socket or device: never opened.
    Special(&'static str),
}

/// What a bounded read found.
#[derive(Debug)]
pub enum ReadOutcome {
    Bytes(Vec<u8>),
    /// The file is larger than the bound; its size.
    TooLarge(u64),
}

/// The file-system operations the compiler uses.
pub trait Fs: Sync {
    /// The entries of a directory with what each is (symlinks not followed),
    /// in whatever order the system gives.
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>>;
    /// What `path` is, without following a final symlink.
    fn kind(&self, path: &Path) -> io::Result<EntryKind>;
    /// What `path` is after following symlinks.
    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind>;
    /// The absolute path with every symlink resolved.
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf>;
    /// Where a symlink points, as written in the link.
    fn read_link(&self, path: &Path) -> io::Result<PathBuf>;
    /// Reads a regular file, refusing more than `max` bytes.
    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome>;
}

/// Opens for reading without blocking: should a FIFO have replaced the file
/// since it was classified, opening it must not wait for a writer.
fn open_nonblocking(path: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(0o4000); // O_NONBLOCK
    }
    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(0x0004); // O_NONBLOCK
    }
    options.open(path)
}

/// Whether an error means a chain of symlinks loops (ELOOP).
pub fn is_loop_error(err: &io::Error) -> bool {
    #[cfg(target_os = "linux")]
    const ELOOP: i32 = 40;
    #[cfg(not(target_os = "linux"))]
    const ELOOP: i32 = 62;
    err.raw_os_error() == Some(ELOOP)
}

/// The real disk.
#[derive(Clone, Copy, Debug, Default)]
pub struct RealFs;

fn kind_of(meta: &std::fs::Metadata) -> EntryKind {
    let ft = meta.file_type();
    if ft.is_symlink() {
        return EntryKind::Symlink;
    }
    if ft.is_dir() {
        return EntryKind::Dir;
    }
    if ft.is_file() {
        return EntryKind::File;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return EntryKind::Special("a FIFO");
        }
        if ft.is_socket() {
            return EntryKind::Special("a socket");
        }
        if ft.is_block_device() || ft.is_char_device() {
            return EntryKind::Special("a device");
        }
    }
    EntryKind::Special("not a regular file")
}

impl Fs for RealFs {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        std::fs::read_dir(path)?
            .map(|entry| {
                let entry = entry?;
                // The directory listing usually carries the type: no extra system call.
                let kind = match entry.file_type() {
                    Ok(ft) if ft.is_symlink() => EntryKind::Symlink,
                    Ok(ft) if ft.is_dir() => EntryKind::Dir,
                    Ok(ft) if ft.is_file() => EntryKind::File,
                    _ => self.kind(&entry.path())?,
                };
                Ok((entry.file_name(), kind))
            })
            .collect()
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        std::fs::symlink_metadata(path).map(|m| kind_of(&m))
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        std::fs::metadata(path).map(|m| kind_of(&m))
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::read_link(path)
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        let file = open_nonblocking(path)?;
        let meta = file.metadata()?;
        // Re-checked on the open handle: the entry may have been swapped since discovery.
        if !meta.is_file() {
            return Err(io::Error::other("not a regular file"));
        }
        if meta.len() > max {
            return Ok(ReadOutcome::TooLarge(meta.len()));
        }
        // The declared size is only a hint (a sparse file may claim a terabyte):
        // the buffer grows as bytes actually arrive.
        let mut bytes = Vec::with_capacity(meta.len().min(1 << 20) as usize);
        file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > max {
            return Ok(ReadOutcome::TooLarge(bytes.len() as u64));
        }
        Ok(ReadOutcome::Bytes(bytes))
    }
}
