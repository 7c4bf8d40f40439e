//! Writing output files so that nothing is ever half-written, and nothing
//! outside the project is written because of what the project says.
//!
//! A file is written to a temporary file in the same directory, flushed and
//! synced, then renamed over the old one and the directory synced: readers see
//! the old file or the new one, never a mix, and a failure leaves the old file
//! as it was. The directory is opened once with no symlink followed
//! ([`no_follow::Dir`]) and every step is made relative to it, so the rename
//! lands in the folder that was checked, whatever is swapped in on the way. A
//! temporary file left by a run that was killed is swept by a later write to
//! the same directory.

use std::ffi::{OsStr, OsString};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use crate::fs::no_follow::{self, Dir};
use crate::fs::{Bounds, EntryKind, RealFs, Refused, Resolved, is_loop_error};

/// agentc's temporary files are `.agentc-` + this many letters and digits + `.tmp`.
const TEMP_PREFIX: &str = ".agentc-";
const TEMP_SUFFIX: &str = ".tmp";
const TEMP_RANDOM_LEN: usize = 6;

/// A temporary file untouched for this long is left from a run that was
/// killed. A write in progress touches its file at every block, and none takes
/// minutes between two of them, so a concurrent run's file is never this old.
const STALE_AFTER: Duration = Duration::from_secs(10 * 60);

/// Temporary files being written, so that a signal can remove them.
static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn in_flight() -> MutexGuard<'static, Vec<PathBuf>> {
    // The list stays valid whatever a panicking holder was doing.
    IN_FLIGHT.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Replaces `path` with `bytes` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes), |_, _| Ok(()))
}

/// Replaces `path` atomically with what `content` writes, streamed to the
/// disk: a lockfile of hundreds of megabytes is never held in memory.
pub fn write_atomic_streamed(
    path: &Path,
    content: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write_atomic_with(path, content, |_, _| Ok(()))
}

/// Whether the file at `path` holds exactly what `content` writes, compared
/// as it is written (nothing is buffered but a read block), stopping at the
/// first difference. An error is the file's: missing, unreadable.
pub fn same_as(
    path: &Path,
    content: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<bool> {
    let Some(file) = open_regular(path)? else {
        return Ok(false);
    };
    let mut compare = Compare { old: io::BufReader::new(file), differs: false };
    // A serializer writes a token at a time; compared a buffer at a time,
    // `lock` of 10,000 skills (a 65 MB lockfile, up to date) took 575 ms, not 600.
    let mut buffered = io::BufWriter::with_capacity(1 << 16, &mut compare);
    let written = content(&mut buffered).and_then(|()| buffered.flush());
    drop(buffered);
    match written {
        Ok(()) => {}
        Err(_) if compare.differs => return Ok(false),
        Err(err) => return Err(err),
    }
    // Equal so far: the old file must also end here.
    Ok(compare.old.fill_buf()?.is_empty())
}

/// `path` opened for reading if it is a regular file (`None` otherwise).
/// `path` is a destination ([`destination`]): canonical, and opened with no
/// link followed and without waiting, so a FIFO swapped in cannot block.
pub fn open_regular(path: &Path) -> io::Result<Option<std::fs::File>> {
    let file = match no_follow::open_file(path) {
        Err(err) if is_loop_error(&err) => return Ok(None),
        other => other?,
    };
    Ok(file.metadata()?.is_file().then_some(file))
}

/// A writer that checks what it is given against a file's next bytes.
struct Compare<R> {
    old: R,
    differs: bool,
}

impl<R: BufRead> Write for Compare<R> {
    fn write(&mut self, mut bytes: &[u8]) -> io::Result<usize> {
        let given = bytes.len();
        while !bytes.is_empty() {
            let old = self.old.fill_buf()?;
            let n = old.len().min(bytes.len());
            if n == 0 || old[..n] != bytes[..n] {
                self.differs = true;
                // Stops the writer: the rest need not be made.
                return Err(io::Error::other("the file differs"));
            }
            self.old.consume(n);
            bytes = &bytes[n..];
        }
        Ok(given)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The file that writing `path` replaces, canonical: `path` itself, or, when
/// `path` is a symlink, the file the link leads to.
///
/// A link is followed rather than replaced: a linked output is deliberate (a
/// lockfile kept elsewhere and linked in), and replacing the link with a file
/// would break it and leave its target stale. Where the path comes from the
/// repository (its `agentc.toml`, or the default lockfile's name in a folder
/// the repository holds), `bounds` are the project's folders and the path and
/// its links must stay inside them; a path the user typed (`-o`) goes where
/// the user says. Anything but a regular file is refused: renaming over a
/// FIFO, socket, device or folder destroys what another program relies on.
pub fn destination(path: &Path, bounds: Option<&Bounds>) -> io::Result<PathBuf> {
    let absolute = match path.is_absolute() {
        true => path.to_path_buf(),
        false => std::env::current_dir()?.join(path),
    };
    match bounds {
        Some(bounds) => contained_destination(&absolute, bounds),
        None => user_destination(&absolute),
    }
}

fn user_destination(path: &Path) -> io::Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            // A new file: its folder, links and all, is the user's.
            let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
                return Err(io::Error::other("the path names no file"));
            };
            let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
            match std::fs::canonicalize(parent) {
                Ok(parent) => Ok(parent.join(name)),
                Err(err) if err.kind() == io::ErrorKind::NotFound => Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("the folder `{}` does not exist", parent.display()),
                )),
                Err(err) => Err(err),
            }
        }
        Err(err) => Err(err),
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(target) => regular(target, true),
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                let written = std::fs::read_link(path)?;
                Err(io::Error::other(format!(
                    "it is a symbolic link to `{}`, which does not exist; agentc writes \
                     the file a link leads to: create it, or remove the link",
                    written.display()
                )))
            }
            Err(err) if is_loop_error(&err) => Err(io::Error::other(
                "it is a symbolic link that leads back to itself; remove the link",
            )),
            Err(err) => Err(err),
        },
        Ok(_) => regular(std::fs::canonicalize(path)?, false),
    }
}

fn contained_destination(path: &Path, bounds: &Bounds) -> io::Result<PathBuf> {
    let outside = |why: String| {
        io::Error::other(format!(
            "{why}; a path the repository names is written only inside the project \
             (give `-o PATH` to write elsewhere)"
        ))
    };
    match bounds.resolve(&RealFs, path) {
        Ok(Resolved::Found(target, _)) => {
            let linked = target != path;
            regular(target, linked)
        }
        Ok(Resolved::Missing { existing, missing, last }) => {
            let target = existing.join(&missing);
            // Only the file itself may be missing, not a folder on the way.
            if last {
                Ok(target)
            } else {
                Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("the folder `{}` does not exist", target.display()),
                ))
            }
        }
        Err(Refused::Outside { through: None, .. }) => {
            Err(outside(format!("`{}` is outside the project", path.display())))
        }
        Err(refused @ Refused::Outside { .. }) => Err(outside(refused.to_string())),
        Err(Refused::Loop(_)) => Err(io::Error::other(
            "it is a symbolic link that leads back to itself; remove the link",
        )),
        Err(Refused::Io(_, err)) => Err(err),
    }
}

/// `target` if it is a regular file or missing; `linked` says a link led there.
fn regular(target: PathBuf, linked: bool) -> io::Result<PathBuf> {
    let kind = match no_follow::stat(&target) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(target),
        other => other?.kind,
    };
    if kind == EntryKind::File {
        return Ok(target);
    }
    let what = match kind {
        EntryKind::Dir => "a folder",
        EntryKind::Special(what) => what,
        EntryKind::File | EntryKind::Symlink => "something else",
    };
    let it = match linked {
        true => format!("the file its link leads to, `{}`,", target.display()),
        false => "it".to_owned(),
    };
    Err(io::Error::other(format!(
        "{it} is {what}, not a regular file; agentc replaces only a regular file: remove \
         it, or write somewhere else"
    )))
}

/// The folder holding `path` opened with no link followed, and the name.
fn folder_of(path: &Path) -> io::Result<(Dir, OsString)> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(io::Error::other("the path names no file"));
    };
    let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
    Ok((Dir::open(parent)?, name.to_os_string()))
}

/// [`write_atomic`] to the destination of `path` (a user's path), running
/// `before_rename` once the new content is on disk but not yet in place; an
/// error there abandons the write (tests use it to simulate a crash at the
/// worst moment, the fixer to check the file is still what it read).
pub fn write_atomic_with(
    path: &Path,
    content: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    before_rename: impl FnOnce(&Dir, &OsStr) -> io::Result<()>,
) -> io::Result<()> {
    let (dir, name) = folder_of(&destination(path, None)?)?;
    write_in(&dir, &name, Replace::Over, content, before_rename)
}

/// Whether a write may replace a file already there.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    Over,
    /// Never: the write fails if anything is at the name, even a file created
    /// while it ran.
    Never,
}

/// Writes `name` in `dir` atomically; see [`write_atomic_with`].
pub fn write_in(
    dir: &Dir,
    name: &OsStr,
    replace: Replace,
    content: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    before_rename: impl FnOnce(&Dir, &OsStr) -> io::Result<()>,
) -> io::Result<()> {
    sweep_stale(dir, STALE_AFTER);
    // A temporary file is private until renamed; the file it becomes keeps the
    // replaced file's mode, or gets the usual 0666 less the umask.
    let old_mode = match dir.stat(name) {
        Ok(stat) if stat.kind == EntryKind::File && replace == Replace::Over => {
            dir.open_file(name).and_then(|f| f.metadata()).ok().map(|m| m.permissions())
        }
        _ => None,
    };
    // Created and listed under the lock, so a signal never finds it unlisted.
    let mut temp = {
        let mut in_flight = in_flight();
        let temp = Temp::create(dir)?;
        in_flight.push(dir.path().join(&temp.name));
        temp
    };
    if let Some(mode) = old_mode {
        temp.file.set_permissions(mode)?;
    }
    let written = {
        let mut buffered = io::BufWriter::new(&mut temp.file);
        content(&mut buffered).and_then(|()| buffered.flush())
    };
    let written =
        written.and_then(|()| temp.file.sync_all()).and_then(|()| before_rename(dir, name));
    // Renamed under the lock, so a signal handler that removes the listed
    // files either runs first (the old file stays) or finds nothing listed.
    let renamed = {
        let mut in_flight = in_flight();
        let listed = dir.path().join(&temp.name);
        in_flight.retain(|path| *path != listed);
        written.and_then(|()| match replace {
            Replace::Over => dir.rename(&temp.name, name),
            Replace::Never => dir.rename_new(&temp.name, name),
        })
    };
    renamed?;
    temp.kept = true;
    dir.sync()
}

/// A temporary file in a folder, removed unless it was renamed.
struct Temp<'a> {
    dir: &'a Dir,
    name: OsString,
    file: std::fs::File,
    kept: bool,
}

impl<'a> Temp<'a> {
    fn create(dir: &'a Dir) -> io::Result<Temp<'a>> {
        let mut last = None;
        for _ in 0..64 {
            let random: String =
                std::iter::repeat_with(fastrand::alphanumeric).take(TEMP_RANDOM_LEN).collect();
            let name = OsString::from(format!("{TEMP_PREFIX}{random}{TEMP_SUFFIX}"));
            match dir.create_new(&name, 0o666) {
                Ok(file) => return Ok(Temp { dir, name, file, kept: false }),
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last = Some(err),
                Err(err) => return Err(err),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no temporary name was free")))
    }
}

impl Drop for Temp<'_> {
    fn drop(&mut self) {
        if !self.kept {
            let _ = self.dir.remove(&self.name);
        }
    }
}

/// Whether `name` is one of agentc's temporary files, exactly as it names them.
fn is_temp_name(name: &str) -> bool {
    name.strip_prefix(TEMP_PREFIX).and_then(|rest| rest.strip_suffix(TEMP_SUFFIX)).is_some_and(
        |random| {
            random.len() == TEMP_RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric())
        },
    )
}

/// Removes agentc's temporary files in `dir` not modified for `older_than`:
/// leftovers of a run killed mid-write (SIGKILL cannot be caught). Only
/// regular files with agentc's exact naming are touched, never a link, and
/// a failure is ignored: sweeping is a courtesy, the write does not need it.
fn sweep_stale(dir: &Dir, older_than: Duration) {
    let Ok(entries) = dir.list() else {
        return;
    };
    let now = SystemTime::now();
    for (name, kind) in entries {
        if kind != EntryKind::File || !name.to_str().is_some_and(is_temp_name) {
            continue;
        }
        let Ok(meta) = dir.open_file(&name).and_then(|file| file.metadata()) else {
            continue;
        };
        let age = meta.modified().ok().and_then(|at| now.duration_since(at).ok());
        if meta.is_file() && age.is_some_and(|age| age > older_than) {
            let _ = dir.remove(&name);
        }
    }
}

/// Removes the temporary files being written, then exits with `code`. For a
/// handler of SIGINT or SIGTERM (the `agentc` binary's), which exits 130 or 143
/// (128 + the signal, as a shell reports a run it stopped); where signals
/// cannot be watched, a killed run's temporary file is left for
/// [`sweep_stale`]. The library installs no handler.
pub fn remove_temporaries_and_exit(code: i32) -> ! {
    // Held until the exit, so no rename can follow the removal.
    let in_flight = in_flight();
    for path in in_flight.iter() {
        let _ = std::fs::remove_file(path);
    }
    std::process::exit(code);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn written_files_are_readable_like_any_other_and_keep_their_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agentc.lock");
        write_atomic(&path, b"one").unwrap();
        // The same mode as a file created the ordinary way, under the same umask.
        let plain = dir.path().join("plain");
        std::fs::write(&plain, b"x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), mode(&plain));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(mode(&path), 0o640);
    }

    #[test]
    fn a_file_is_compared_with_what_is_being_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agentc.lock");
        std::fs::write(&path, "0123456789".repeat(2_000)).unwrap();
        let same = |text: String| same_as(&path, |out| out.write_all(text.as_bytes())).unwrap();
        assert!(same("0123456789".repeat(2_000)));
        assert!(!same("0123456789".repeat(1_999)), "the file is longer");
        assert!(!same("0123456789".repeat(2_001)), "the file is shorter");
        assert!(!same(format!("{}x", "0123456789".repeat(1_500))), "a byte differs");
        // Written a token at a time, past the comparison's buffer.
        let long = "0123456789".repeat(20_000);
        std::fs::write(&path, &long).unwrap();
        let tokens = |text: &str| {
            same_as(&path, |out| text.as_bytes().chunks(3).try_for_each(|t| out.write_all(t)))
                .unwrap()
        };
        assert!(tokens(&long));
        assert!(!tokens(&format!("{}x{}", &long[..150_000], &long[150_001..])));
        assert!(!tokens(&long[..199_999]), "the file is longer");
        let missing = same_as(&dir.path().join("none"), |out| out.write_all(b"x"));
        assert_eq!(missing.unwrap_err().kind(), io::ErrorKind::NotFound);
        write_atomic_streamed(&path, |out| (0..3).try_for_each(|i| write!(out, "{i},"))).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "0,1,2,");
    }

    #[test]
    fn a_failure_before_the_rename_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agentc.lock");
        write_atomic(&path, b"old").unwrap();
        let crash = write_atomic_with(
            &path,
            |out| out.write_all(b"new"),
            |_, _| Err(io::Error::other("power cut")),
        );
        assert!(crash.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "a temporary file was left behind"
        );
    }

    #[test]
    fn a_write_sweeps_only_agentcs_own_stale_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        let hour_ago = SystemTime::now() - Duration::from_secs(3600);
        let make = |name: &str, modified: SystemTime| {
            let file = std::fs::File::create(at(name)).unwrap();
            file.set_modified(modified).unwrap();
        };
        make(".agentc-Ab3xY9.tmp", hour_ago);
        // Written by a run that may still be going.
        make(".agentc-Fresh1.tmp", SystemTime::now());
        // Old, but not named as agentc names its temporaries.
        make(".agentc-notes.txt", hour_ago);
        make(".agentc-toolong7.tmp", hour_ago);
        make(".agentc-ab-cd.tmp", hour_ago);
        std::fs::create_dir(at(".agentc-Dir123.tmp")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(at(".agentc-notes.txt"), at(".agentc-Link12.tmp")).unwrap();

        write_atomic(&at("agentc.lock"), b"new").unwrap();
        assert!(!at(".agentc-Ab3xY9.tmp").exists(), "the stale temporary was left");
        for kept in [
            ".agentc-Fresh1.tmp",
            ".agentc-notes.txt",
            ".agentc-toolong7.tmp",
            ".agentc-ab-cd.tmp",
            ".agentc-Dir123.tmp",
        ] {
            assert!(at(kept).exists(), "{kept} was removed");
        }
        #[cfg(unix)]
        assert!(at(".agentc-Link12.tmp").symlink_metadata().is_ok(), "a link was removed");
        assert_eq!(std::fs::read(at("agentc.lock")).unwrap(), b"new");
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
