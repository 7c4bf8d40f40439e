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
    /// Reads the regular file at `path`, refusing more than `max` bytes.
    ///
    /// `path` is canonical (discovery resolved and checked every link on the
    /// way to it), so an implementation must follow no symlink in any of its
    /// components: one found there was put in after the check, and following
    /// it could lead outside the agents directory.
    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome>;
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

/// Opening a file with no symlink followed on the way.
#[cfg(unix)]
mod no_follow {
    use std::io;
    use std::os::fd::{AsFd, OwnedFd};
    use std::path::{Component, Path};

    use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags};
    use rustix::io::Errno;

    /// Read-only, never blocking (a FIFO swapped in must not wait for a
    /// writer), never becoming the controlling terminal.
    fn file_flags() -> OFlags {
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC
    }

    /// Opens `path` as a file, refusing a symlink at any component.
    pub fn open(path: &Path) -> io::Result<std::fs::File> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::ResolveFlags;
            // One system call that refuses every symlink, including the
            // /proc magic links. Kernels before 5.6 lack it, and container
            // sandboxes often deny it (EPERM): the walk below does the same.
            let resolve = ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
            match rustix::fs::openat2(CWD, path, file_flags(), Mode::empty(), resolve) {
                Ok(fd) => return Ok(fd.into()),
                Err(err) if err == Errno::NOSYS || err == Errno::PERM => {}
                Err(err) => return Err(err.into()),
            }
        }
        walk(path).map(Into::into)
    }

    /// Opens `path` one component at a time from its start, each directory
    /// with `O_NOFOLLOW` relative to the one before, so no link is followed
    /// and no component can be swapped between a check and its use.
    pub fn walk(path: &Path) -> io::Result<OwnedFd> {
        // Linux can open a directory it may only search (`x` without `r`).
        #[cfg(target_os = "linux")]
        let dir_flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        #[cfg(not(target_os = "linux"))]
        let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mut components = path.components().peekable();
        let mut dir: Option<OwnedFd> = None;
        while let Some(component) = components.next() {
            let name = match component {
                Component::RootDir => {
                    dir = Some(rustix::fs::open("/", dir_flags, Mode::empty())?);
                    continue;
                }
                Component::CurDir => continue,
                Component::ParentDir => "..".as_ref(),
                Component::Normal(name) => name,
                Component::Prefix(_) => {
                    return Err(io::Error::other("a path prefix has no meaning here"));
                }
            };
            let last = components.peek().is_none();
            let flags = if last { file_flags() | OFlags::NOFOLLOW } else { dir_flags };
            let at = dir.as_ref().map_or(CWD, |dir| dir.as_fd());
            let opened = rustix::fs::openat(at, name, flags, Mode::empty()).map_err(|err| {
                // `O_DIRECTORY` refuses a link to a folder as "not a
                // directory": say it was a link, as the last component does.
                let link = err == Errno::NOTDIR
                    && rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)
                        .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Symlink);
                if link { Errno::LOOP } else { err }
            })?;
            if last {
                return Ok(opened);
            }
            dir = Some(opened);
        }
        Err(io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))
    }
}

/// Elsewhere the file is opened as named: a link swapped in after discovery
/// is followed, and only the kind of what was opened is checked.
#[cfg(not(unix))]
mod no_follow {
    use std::io;
    use std::path::Path;

    pub fn open(path: &Path) -> io::Result<std::fs::File> {
        std::fs::File::open(path)
    }
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
        let file = no_follow::open(path).map_err(|err| {
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
        std::fs::File::from(no_follow::walk(&file).unwrap()).read_to_string(&mut text).unwrap();
        assert_eq!(text, "text");
        for linked in [through_folder, file_link] {
            let err = no_follow::walk(&linked).unwrap_err();
            assert!(is_symlink_refused(&err), "{}: {err}", linked.display());
        }
    }
}
