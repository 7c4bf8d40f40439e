//! What cannot be read is reported once, as `io-error`, and nothing else is
//! said about it. Permissions cannot make a folder unreadable to root (as CI
//! runs), so the failure is injected behind the file-system seam.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use agentc_compiler::fs::{EntryKind, Fs, ReadOutcome, RealFs};
use agentc_compiler::{Options, compile};

/// The real disk, except that one path refuses to be listed or read.
struct Denied {
    path: PathBuf,
}

impl Denied {
    fn check(&self, path: &Path) -> io::Result<()> {
        if path == self.path {
            return Err(io::Error::from(io::ErrorKind::PermissionDenied));
        }
        Ok(())
    }
}

impl Fs for Denied {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        self.check(path)?;
        RealFs.read_dir(path)
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        RealFs.kind(path)
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        RealFs.kind_followed(path)
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        RealFs.canonicalize(path)
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        RealFs.read_link(path)
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        self.check(path)?;
        RealFs.read(path, max)
    }
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["triage", "refund"] {
        let folder = dir.path().join("skills").join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Handles {name}.\n---\nBody.\n"),
        )
        .unwrap();
    }
    dir
}

/// Each diagnostic as `code path`.
fn report(denied: &Path, root: &Path) -> Vec<String> {
    let root = root.canonicalize().unwrap();
    let fs = Denied { path: root.join(denied) };
    let compilation = compile(&fs, &Options::new(&root)).unwrap();
    compilation
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code.as_str(), d.location.file))
        .collect()
}

#[test]
fn an_unreadable_skill_folder_is_one_io_error_and_not_a_stray_folder() {
    let dir = project();
    assert_eq!(report(Path::new("skills/refund"), dir.path()), ["io-error skills/refund/"]);
}

#[test]
fn an_unreadable_skill_file_is_one_io_error() {
    let dir = project();
    assert_eq!(
        report(Path::new("skills/refund/SKILL.md"), dir.path()),
        ["io-error skills/refund/SKILL.md"]
    );
}

#[test]
fn an_unreadable_skills_folder_is_one_io_error() {
    let dir = project();
    assert_eq!(report(Path::new("skills"), dir.path()), ["io-error skills/"]);
}
