//! What a compilation depends on in the file system, so that a change there
//! — and only there — is compiled again. Every question a compile asks goes
//! through the [`Fs`] seam; [`Recording`] notes each path asked and each
//! folder listed. A change at one of those paths, or below a folder the
//! compile listed, may change what compiling gives: the registry and the
//! project file wherever they are, a file arriving in a folder discovery
//! walks (a tool's manifest, a subagent, `.mcp.json`), a link's target. A
//! change anywhere else (`.git/`, a build's `target/` when nothing walks it)
//! cannot.

use std::collections::HashSet;
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use agentc_compiler::fs::{EntryKind, Fs, ReadOutcome};

/// The paths a compile asked about, those of them that were not there, and
/// the folders it listed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Inputs {
    asked: HashSet<PathBuf>,
    absent: HashSet<PathBuf>,
    listed: HashSet<PathBuf>,
}

impl Inputs {
    /// Whether a change at `path` (made, changed, removed, renamed) may
    /// change what the compile gives: it asked about `path`, or the nearest
    /// folder above `path` that it asked about was listed or was not there
    /// (`.claude/` appearing with a subagent in it). What is inside a folder
    /// it only looked at (`.git/`) is not its input.
    pub(crate) fn depend_on(&self, path: &Path) -> bool {
        if self.asked.contains(path) || self.listed.contains(path) {
            return true;
        }
        for folder in path.ancestors().skip(1) {
            if self.listed.contains(folder) || self.absent.contains(folder) {
                return true;
            }
            if self.asked.contains(folder) {
                return false;
            }
        }
        false
    }

    /// Adds what an update of the compilation asked.
    pub(crate) fn extend(&mut self, more: Inputs) {
        self.asked.extend(more.asked);
        self.absent.extend(more.absent);
        self.listed.extend(more.listed);
    }
}

/// `base`, noting every path asked of it.
pub(crate) struct Recording<'a> {
    base: &'a dyn Fs,
    inputs: Mutex<Inputs>,
}

impl<'a> Recording<'a> {
    pub(crate) fn new(base: &'a dyn Fs) -> Recording<'a> {
        Recording { base, inputs: Mutex::default() }
    }

    pub(crate) fn into_inputs(self) -> Inputs {
        self.inputs.into_inner().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes that `path` was asked about (listed, when `listing`) and
    /// whether it was there; returns the answer.
    fn note<T>(&self, path: &Path, listing: bool, answer: io::Result<T>) -> io::Result<T> {
        let missing = matches!(&answer, Err(err) if err.kind() == io::ErrorKind::NotFound);
        // A thread that panicked while noting left a path out at most.
        let mut inputs = self.inputs.lock().unwrap_or_else(PoisonError::into_inner);
        let Inputs { asked, absent, listed } = &mut *inputs;
        let add = |set: &mut HashSet<PathBuf>| {
            if !set.contains(path) {
                set.insert(path.to_path_buf());
            }
        };
        add(if listing { listed } else { asked });
        if missing {
            add(absent);
        }
        answer
    }
}

impl Fs for Recording<'_> {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        self.note(path, true, self.base.read_dir(path))
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        self.note(path, false, self.base.kind(path))
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        self.note(path, false, self.base.kind_followed(path))
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        self.note(path, false, self.base.canonicalize(path))
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        self.note(path, false, self.base.read_link(path))
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        self.note(path, false, self.base.read(path, max))
    }

    /// A text kept instead of read is an input all the same.
    fn unchanged(&self, path: &Path) -> bool {
        self.note(path, false, Ok::<_, io::Error>(self.base.unchanged(path))).unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agentc_compiler::memfs::MemFs;

    /// A file in a listed folder, a file asked about, a file in a folder
    /// that was not there, and nothing inside a folder only looked at.
    #[test]
    fn a_compile_depends_on_what_it_asked_and_what_it_listed() {
        let mut fs = MemFs::new();
        fs.insert("skills/a/SKILL.md", "x").unwrap();
        fs.insert(".git/HEAD", "x").unwrap();
        let recording = Recording::new(&fs);
        recording.read_dir(Path::new("/skills")).unwrap();
        let _ = recording.kind(Path::new("/.git"));
        let _ = recording.kind(Path::new("/agentc.toml"));
        let _ = recording.kind(Path::new("/.claude"));
        let inputs = recording.into_inputs();
        let inputs_of = ["/skills", "/skills/b", "/skills/a/SKILL.md", "/agentc.toml", "/.git"];
        for path in inputs_of.into_iter().chain(["/.claude/agents/r.md"]) {
            assert!(inputs.depend_on(Path::new(path)), "{path}");
        }
        for path in ["/.git/index", "/target/debug/x", "/other.md"] {
            assert!(!inputs.depend_on(Path::new(path)), "{path}");
        }
    }
}
