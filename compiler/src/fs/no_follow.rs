//! Opening, inspecting, listing and writing paths with no symbolic link
//! followed in any component.
//!
//! Every path given here is canonical: whoever chose it resolved its links and
//! checked where they lead ([`super::Bounds`]). A link found on the way now was
//! put there after that check, and following it could lead anywhere, so it is
//! refused (ELOOP). On Linux one `openat2(RESOLVE_NO_SYMLINKS)` call does the
//! walk; where that is missing or denied (kernels before 5.6, container
//! sandboxes), each component is opened with `O_NOFOLLOW` relative to the one
//! before. Writes go through a [`Dir`] opened this way, so a rename lands in
//! the folder that was opened, whatever is renamed or linked in its place.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Path, PathBuf};

use super::EntryKind;

/// Which file a path named when it was looked at: device and inode, so a
/// file replaced under the same name is told apart from the file itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    dev: u64,
    ino: u64,
}

/// What a path is, and which file it is.
#[derive(Clone, Copy, Debug)]
pub struct Stat {
    pub kind: EntryKind,
    pub identity: Identity,
    pub len: u64,
}

#[cfg(unix)]
pub use unix::*;

#[cfg(unix)]
mod unix {
    use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Component;

    use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags};
    use rustix::io::Errno;

    use super::*;

    /// Read-only, never blocking (a FIFO swapped in must not wait for a
    /// writer), never becoming the controlling terminal.
    fn file_flags() -> OFlags {
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC | OFlags::NOFOLLOW
    }

    /// A folder opened only to look things up in it: Linux can open one it
    /// may only search (`x` without `r`).
    fn search_flags() -> OFlags {
        #[cfg(target_os = "linux")]
        return OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        #[cfg(not(target_os = "linux"))]
        return list_flags();
    }

    /// A folder opened to list, sync or write in.
    fn list_flags() -> OFlags {
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
    }

    fn kind_of(mode: u32) -> EntryKind {
        match FileType::from_raw_mode(mode) {
            FileType::RegularFile => EntryKind::File,
            FileType::Directory => EntryKind::Dir,
            FileType::Symlink => EntryKind::Symlink,
            FileType::Fifo => EntryKind::Special("a FIFO"),
            FileType::Socket => EntryKind::Special("a socket"),
            FileType::CharacterDevice | FileType::BlockDevice => EntryKind::Special("a device"),
            FileType::Unknown => EntryKind::Special("not a regular file"),
        }
    }

    // The fields' types differ between systems (`st_mode` is 16 bits on
    // macOS, `st_dev` signed on some BSDs): the casts are for them.
    #[allow(clippy::unnecessary_cast)]
    fn stat_of(st: &rustix::fs::Stat) -> Stat {
        Stat {
            kind: kind_of(st.st_mode as u32),
            identity: Identity { dev: st.st_dev as u64, ino: st.st_ino as u64 },
            len: st.st_size as u64,
        }
    }

    /// Opens `path` with `flags` for its last component, refusing a symlink
    /// at any component.
    fn open_with(path: &Path, flags: OFlags) -> io::Result<OwnedFd> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::ResolveFlags;
            let resolve = ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
            match rustix::fs::openat2(CWD, path, flags, Mode::empty(), resolve) {
                Ok(fd) => return Ok(fd),
                Err(err) if err == Errno::NOSYS || err == Errno::PERM => {}
                Err(err) => return Err(err.into()),
            }
        }
        walk(path, flags)
    }

    /// Opens `path` one component at a time from its start, each folder with
    /// `O_NOFOLLOW` relative to the one before, so no link is followed and no
    /// component can be swapped between a check and its use.
    pub fn walk(path: &Path, last_flags: OFlags) -> io::Result<OwnedFd> {
        let mut components = path.components().peekable();
        let mut dir: Option<OwnedFd> = None;
        while let Some(component) = components.next() {
            let last = components.peek().is_none();
            let flags = if last { last_flags } else { search_flags() };
            let name: &OsStr = match component {
                Component::RootDir if last => {
                    return Ok(rustix::fs::open("/", flags, Mode::empty())?);
                }
                Component::RootDir => {
                    dir = Some(rustix::fs::open("/", search_flags(), Mode::empty())?);
                    continue;
                }
                Component::CurDir => ".".as_ref(),
                Component::ParentDir => "..".as_ref(),
                Component::Normal(name) => name,
                Component::Prefix(_) => {
                    return Err(io::Error::other("a path prefix has no meaning here"));
                }
            };
            let at = dir.as_ref().map_or(CWD, |dir| dir.as_fd());
            let opened = open_at(at, name, flags)?;
            if last {
                return Ok(opened);
            }
            dir = Some(opened);
        }
        Err(io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))
    }

    /// `openat`, saying "a link" where `O_DIRECTORY` refused a link to a
    /// folder as "not a directory", as `O_NOFOLLOW` says for the last one.
    fn open_at(at: BorrowedFd<'_>, name: &OsStr, flags: OFlags) -> io::Result<OwnedFd> {
        rustix::fs::openat(at, name, flags, Mode::empty()).map_err(|err| {
            let link = err == Errno::NOTDIR
                && rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)
                    .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Symlink);
            io::Error::from(if link { Errno::LOOP } else { err })
        })
    }

    /// The folder holding `path` (opened to look up in) and the last name.
    fn parent_of(path: &Path) -> io::Result<(OwnedFd, &OsStr)> {
        let name = path.file_name().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "the path does not end in a name")
        })?;
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        Ok((open_with(parent, search_flags())?, name))
    }

    /// What the open `file` is.
    pub fn stat_of_file(file: &std::fs::File) -> io::Result<Stat> {
        Ok(stat_of(&rustix::fs::fstat(file)?))
    }

    /// Opens the regular file at `path` for reading.
    pub fn open_file(path: &Path) -> io::Result<std::fs::File> {
        open_with(path, file_flags()).map(Into::into)
    }

    /// What `path` is, its last component not followed either.
    pub fn stat(path: &Path) -> io::Result<Stat> {
        if path.file_name().is_none() {
            return rustix::fs::fstat(open_with(path, search_flags())?)
                .map(|st| stat_of(&st))
                .map_err(Into::into);
        }
        let (dir, name) = parent_of(path)?;
        Ok(stat_of(&rustix::fs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW)?))
    }

    /// Where the symlink at `path` points, as written in it.
    pub fn read_link(path: &Path) -> io::Result<PathBuf> {
        let (dir, name) = parent_of(path)?;
        let target = rustix::fs::readlinkat(&dir, name, Vec::new())?;
        Ok(PathBuf::from(OsStr::from_bytes(target.as_bytes())))
    }

    /// The entries of the folder at `path`, with what each is.
    pub fn list(path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        // The stream takes the folder opened for it: `Dir::read_from` would
        // open it a second time (three more calls for each folder listed).
        entries(rustix::fs::Dir::new(open_with(path, list_flags())?)?)
    }

    /// The entries of the stream `dir`, with what each is, from the listing
    /// where it says.
    fn entries(mut dir: rustix::fs::Dir) -> io::Result<Vec<(OsString, EntryKind)>> {
        let mut out = Vec::new();
        while let Some(entry) = dir.read() {
            let entry = entry?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let name = OsStr::from_bytes(name);
            let kind = match entry.file_type() {
                FileType::Unknown => {
                    stat_of(&rustix::fs::statat(dir.fd()?, name, AtFlags::SYMLINK_NOFOLLOW)?).kind
                }
                known => kind_of(known.as_raw_mode()),
            };
            out.push((name.to_os_string(), kind));
        }
        Ok(out)
    }

    /// A folder opened with no link followed: what is done in it stays in it.
    #[derive(Debug)]
    pub struct Dir {
        fd: OwnedFd,
        path: PathBuf,
    }

    impl Dir {
        pub fn open(path: &Path) -> io::Result<Dir> {
            Ok(Dir { fd: open_with(path, list_flags())?, path: path.to_path_buf() })
        }

        /// The path it was opened at (where it may no longer be).
        pub fn path(&self) -> &Path {
            &self.path
        }

        /// The folder itself.
        pub fn identity(&self) -> io::Result<Identity> {
            Ok(stat_of(&rustix::fs::fstat(&self.fd)?).identity)
        }

        /// The subfolder `name`, created if missing.
        pub fn create_dir(&self, name: &OsStr) -> io::Result<Dir> {
            match rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777)) {
                Ok(()) | Err(Errno::EXIST) => {}
                Err(err) => return Err(err.into()),
            }
            let fd = open_at(self.fd.as_fd(), name, list_flags())?;
            Ok(Dir { fd, path: self.path.join(name) })
        }

        /// What `name` is, a link not followed.
        pub fn stat(&self, name: &OsStr) -> io::Result<Stat> {
            Ok(stat_of(&rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)?))
        }

        /// `name` opened for reading, a link refused.
        pub fn open_file(&self, name: &OsStr) -> io::Result<std::fs::File> {
            open_at(self.fd.as_fd(), name, file_flags()).map(Into::into)
        }

        /// A new file `name` with `mode` (less the umask), failing if
        /// anything, a dangling link included, is there.
        pub fn create_new(&self, name: &OsStr, mode: u32) -> io::Result<std::fs::File> {
            let flags = OFlags::WRONLY
                | OFlags::CREATE
                | OFlags::EXCL
                | OFlags::NOFOLLOW
                | OFlags::NOCTTY
                | OFlags::CLOEXEC;
            let fd = rustix::fs::openat(&self.fd, name, flags, Mode::from_raw_mode(mode))?;
            Ok(fd.into())
        }

        /// Renames `from` over `to`, both in this folder.
        pub fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
            Ok(rustix::fs::renameat(&self.fd, from, &self.fd, to)?)
        }

        /// Renames `from` to `to` only if nothing is at `to`, atomically: a
        /// file created there meanwhile is never replaced.
        pub fn rename_new(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            {
                use rustix::fs::RenameFlags;
                match rustix::fs::renameat_with(
                    &self.fd,
                    from,
                    &self.fd,
                    to,
                    RenameFlags::NOREPLACE,
                ) {
                    // File systems without RENAME_NOREPLACE: the link below
                    // is as exclusive.
                    Err(err) if err == Errno::INVAL || err == Errno::NOSYS => {}
                    other => return Ok(other?),
                }
            }
            rustix::fs::linkat(&self.fd, from, &self.fd, to, AtFlags::empty())?;
            self.remove(from)
        }

        pub fn remove(&self, name: &OsStr) -> io::Result<()> {
            Ok(rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?)
        }

        /// The entries with what each is.
        pub fn list(&self) -> io::Result<Vec<(OsString, EntryKind)>> {
            entries(rustix::fs::Dir::read_from(&self.fd)?)
        }

        /// Makes the entries' changes durable; some file systems cannot sync
        /// a folder, and then the change stands as made.
        pub fn sync(&self) -> io::Result<()> {
            match rustix::fs::fsync(&self.fd) {
                Err(err) if err == Errno::INVAL || err == Errno::NOTSUP => Ok(()),
                other => Ok(other?),
            }
        }
    }
}

/// Elsewhere paths are used as named: a link swapped in after the check is
/// followed, and only the kind of what was opened is checked.
#[cfg(not(unix))]
pub use portable::*;

#[cfg(not(unix))]
mod portable {
    use super::*;

    fn stat_of(meta: &std::fs::Metadata) -> Stat {
        // No inode here: the length and modification time stand in for it.
        let modified =
            meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
        Stat {
            kind: super::super::kind_of(meta),
            identity: Identity { dev: 0, ino: modified.map_or(0, |d| d.as_nanos() as u64) },
            len: meta.len(),
        }
    }

    pub fn open_file(path: &Path) -> io::Result<std::fs::File> {
        std::fs::File::open(path)
    }

    pub fn stat_of_file(file: &std::fs::File) -> io::Result<Stat> {
        file.metadata().map(|m| stat_of(&m))
    }

    pub fn stat(path: &Path) -> io::Result<Stat> {
        std::fs::symlink_metadata(path).map(|m| stat_of(&m))
    }

    pub fn read_link(path: &Path) -> io::Result<PathBuf> {
        std::fs::read_link(path)
    }

    pub fn list(path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        Dir::open(path)?.list()
    }

    #[derive(Debug)]
    pub struct Dir {
        path: PathBuf,
    }

    impl Dir {
        pub fn open(path: &Path) -> io::Result<Dir> {
            if !std::fs::symlink_metadata(path)?.is_dir() {
                return Err(io::Error::other("not a folder"));
            }
            Ok(Dir { path: path.to_path_buf() })
        }

        pub fn path(&self) -> &Path {
            &self.path
        }

        pub fn identity(&self) -> io::Result<Identity> {
            stat(&self.path).map(|s| s.identity)
        }

        pub fn create_dir(&self, name: &OsStr) -> io::Result<Dir> {
            let path = self.path.join(name);
            match std::fs::create_dir(&path) {
                Err(err) if err.kind() != io::ErrorKind::AlreadyExists => return Err(err),
                _ => {}
            }
            Dir::open(&path)
        }

        pub fn stat(&self, name: &OsStr) -> io::Result<Stat> {
            stat(&self.path.join(name))
        }

        pub fn open_file(&self, name: &OsStr) -> io::Result<std::fs::File> {
            std::fs::File::open(self.path.join(name))
        }

        pub fn create_new(&self, name: &OsStr, _mode: u32) -> io::Result<std::fs::File> {
            std::fs::OpenOptions::new().write(true).create_new(true).open(self.path.join(name))
        }

        pub fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
            std::fs::rename(self.path.join(from), self.path.join(to))
        }

        pub fn rename_new(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
            std::fs::hard_link(self.path.join(from), self.path.join(to))?;
            self.remove(from)
        }

        pub fn remove(&self, name: &OsStr) -> io::Result<()> {
            std::fs::remove_file(self.path.join(name))
        }

        pub fn list(&self) -> io::Result<Vec<(OsString, EntryKind)>> {
            std::fs::read_dir(&self.path)?
                .map(|entry| {
                    let entry = entry?;
                    Ok((entry.file_name(), stat(&entry.path())?.kind))
                })
                .collect()
        }

        pub fn sync(&self) -> io::Result<()> {
            Ok(())
        }
    }
}
