//! Writing output files so that nothing is ever half-written.
//!
//! A file is written to a temporary file in the same directory, flushed and
//! synced, then renamed over the old one: readers see the old file or the new
//! one, never a mix, and a failure leaves the old file as it was.

use std::io::{self, Write};
use std::path::Path;

/// Replaces `path` with `bytes` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, bytes, || Ok(()))
}

/// [`write_atomic`], running `before_rename` once the new content is on disk
/// but not yet in place; an error there abandons the write (tests use it to
/// simulate a crash at the worst moment).
pub fn write_atomic_with(
    path: &Path,
    bytes: &[u8],
    before_rename: impl FnOnce() -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".agentc-").suffix(".tmp");
    // A temporary file is private (0600); the file it becomes is not: keep the
    // replaced file's mode, or give a new one the usual 0666 less the umask.
    match std::fs::metadata(path) {
        Ok(old) => {
            builder.permissions(old.permissions());
        }
        Err(_) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                builder.permissions(std::fs::Permissions::from_mode(0o666));
            }
        }
    }
    let mut temp = builder.tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    before_rename()?;
    temp.persist(path).map_err(|err| err.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn written_files_are_readable_like_any_other_and_keep_their_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agents.lock");
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
    fn a_failure_before_the_rename_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agents.lock");
        write_atomic(&path, b"old").unwrap();
        let crash = write_atomic_with(&path, b"new", || Err(io::Error::other("power cut")));
        assert!(crash.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "a temporary file was left behind"
        );
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
