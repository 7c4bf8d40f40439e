//! The file-system seam: everything agentc asks of the disk goes through [`Fs`].
//!
//! Keeping it this small lets tests replace the disk (a shuffled directory
//! order, injected failures) and keeps the safety rules in one place: entries
//! are classified without being opened, files are read with a size bound, a
//! path that repository content names is resolved by [`Bounds`] without
//! looking at anything outside the project, and the real disk follows no
//! symbolic link once a path has been resolved ([`no_follow`]).

mod bounds;
pub mod no_follow;

pub use bounds::{Bounds, Refused, Resolved};

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Whether `path` is absolute: [`Path::is_absolute`], but on
/// `wasm32-unknown-unknown` (the playground's build, over a [`crate::memfs::MemFs`]),
/// where the standard library knows no file system and calls a path absolute
/// only with a drive prefix, which no path there has: a path from the root is
/// absolute there, as on Unix.
pub fn is_absolute(path: &Path) -> bool {
    match cfg!(all(target_family = "wasm", target_os = "unknown")) {
        true => path.has_root(),
        false => path.is_absolute(),
    }
}

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
    ///
    /// This, [`Fs::kind`], [`Fs::read_link`] and [`Fs::read`] take canonical
    /// paths (resolved by [`Bounds::resolve`] or by discovery) and follow no
    /// symlink in any component: one found there was put in after the check.
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>>;
    /// What `path` is, no symlink followed.
    fn kind(&self, path: &Path) -> io::Result<EntryKind>;
    /// What `path` is after following symlinks: only for a path the user
    /// gave, never for one repository content names.
    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind>;
    /// The absolute path with every symlink resolved: only for a path the
    /// user gave, never for one repository content names.
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf>;
    /// Where a symlink points, as written in the link.
    fn read_link(&self, path: &Path) -> io::Result<PathBuf>;
    /// Reads the regular file at `path`, refusing more than `max` bytes.
    ///
    /// `path` is canonical (discovery resolved and checked every link on the
    /// way to it), so an implementation must follow no symlink in any of its
    /// components: one found there was put in after the check, and following
    /// it could lead outside the agents directory.
    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome>;

    /// Whether the file at `path` is known to hold what it held when it was
    /// last read through this file system: a cache told of every change on
    /// disk knows, and a compile then keeps the text it read before instead
    /// of reading it again. Without that knowledge, never.
    fn unchanged(&self, _path: &Path) -> bool {
        false
    }
}

/// A watcher on the system's own notifications that follows no symbolic
/// link: a link in the tree to `/usr` is neither walked nor watched, and a
/// change outside the project never triggers anything.
#[cfg(feature = "watch")]
pub fn watcher(handler: impl notify::EventHandler) -> notify::Result<notify::RecommendedWatcher> {
    use notify::Watcher;
    notify::RecommendedWatcher::new(handler, notify::Config::default().with_follow_symlinks(false))
}

/// Whether an error means a chain of symlinks loops (ELOOP).
pub fn is_loop_error(err: &io::Error) -> bool {
    #[cfg(target_os = "linux")]
    const ELOOP: i32 = 40;
    #[cfg(not(target_os = "linux"))]
    const ELOOP: i32 = 62;
    err.raw_os_error() == Some(ELOOP)
}

/// Whether opening failed because a component was a symbolic link: ELOOP
/// from `O_NOFOLLOW` and `RESOLVE_NO_SYMLINKS`, EMLINK from FreeBSD's `O_NOFOLLOW`.
fn is_symlink_refused(err: &io::Error) -> bool {
    #[cfg(target_os = "freebsd")]
    if err.raw_os_error() == Some(31) {
        return true;
    }
    is_loop_error(err)
}

/// The real disk.
#[derive(Clone, Copy, Debug, Default)]
pub struct RealFs;

pub(crate) fn kind_of(meta: &std::fs::Metadata) -> EntryKind {
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
        no_follow::list(path)
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        no_follow::stat(path).map(|stat| stat.kind)
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        std::fs::metadata(path).map(|m| kind_of(&m))
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        no_follow::read_link(path)
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        let file = no_follow::open_file(path).map_err(|err| {
            if is_symlink_refused(&err) {
                io::Error::other(
                    "a symbolic link took its place after agentc checked it, and agentc \
                     does not follow it; run again, and if it repeats, find what is \
                     changing the agents directory during the run",
                )
            } else {
                err
            }
        })?;
        let meta = file.metadata()?;
        // Checked on the open handle, so the file checked is the file read: a
        // FIFO or device may have been swapped in since discovery.
        if !meta.is_file() {
            return Err(io::Error::other(
                "it is no longer a regular file (it was replaced after agentc checked it)",
            ));
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A file reached through a folder link and through a file link, and
    /// the same file by its canonical path.
    fn linked() -> (tempfile::TempDir, PathBuf, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap().join("real");
        std::fs::create_dir(&real).unwrap();
        std::fs::write(real.join("file.md"), "text").unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("folder-link")).unwrap();
        std::os::unix::fs::symlink(real.join("file.md"), real.join("file-link")).unwrap();
        let through_folder = dir.path().canonicalize().unwrap().join("folder-link/file.md");
        let (file, file_link) = (real.join("file.md"), real.join("file-link"));
        (dir, file, through_folder, file_link)
    }

    #[test]
    fn reads_follow_no_link_at_any_component() {
        let (_dir, file, through_folder, file_link) = linked();
        assert!(matches!(RealFs.read(&file, 100).unwrap(), ReadOutcome::Bytes(b) if b == b"text"));
        for linked in [through_folder, file_link] {
            let err = RealFs.read(&linked, 100).unwrap_err();
            assert!(err.to_string().contains("symbolic link"), "{}: {err}", linked.display());
        }
    }

    /// The walk taken where `openat2` is missing or denied refuses the same links.
    #[test]
    fn the_component_walk_follows_no_link_either() {
        let (_dir, file, through_folder, file_link) = linked();
        let mut text = String::new();
        let flags = rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::NOFOLLOW;
        std::fs::File::from(no_follow::walk(&file, flags).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "text");
        for linked in [through_folder, file_link] {
            let err = no_follow::walk(&linked, flags).unwrap_err();
            assert!(is_symlink_refused(&err), "{}: {err}", linked.display());
        }
    }
}

/// Is `given` a URL or a network path rather than a local path? agentc
/// never fetches one, and no file of the project is named by it.
pub fn is_remote(given: &str) -> bool {
    let scheme = given.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    scheme || given.starts_with("\\\\") || given.starts_with("//")
}
