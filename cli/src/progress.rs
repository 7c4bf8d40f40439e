//! Progress: one line on stderr, redrawn in place, while a long compile lists
//! folders and reads files — for someone watching a terminal wait on tens of
//! thousands of files. It counts at the file-system seam, so no stage of the
//! pipeline knows it is there, and it clears itself before anything else is
//! printed. Off a terminal it is never started.

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use agentc_compiler::fs::{EntryKind, Fs, ReadOutcome};

/// A run shorter than this shows nothing: a line flashing by is noise.
pub const DELAY: Duration = Duration::from_millis(300);
const EVERY: Duration = Duration::from_millis(100);

/// Runs `work` on `fs`; with `out`, draws the progress line there after
/// `delay` until `work` is done, then erases it.
pub fn with_progress<T>(
    fs: &dyn Fs,
    out: Option<Box<dyn Write + Send>>,
    delay: Duration,
    work: impl FnOnce(&dyn Fs) -> T,
) -> T {
    let Some(mut out) = out else { return work(fs) };
    let counting = Counting { inner: fs, listed: AtomicUsize::new(0), read: AtomicUsize::new(0) };
    let (done, finished) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let counts = &counting;
        scope.spawn(move || {
            let mut drawn = false;
            let mut last = String::new();
            let mut wait = delay;
            while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(wait) {
                wait = EVERY;
                let line = format!(
                    "\r\x1b[2Kagentc: {} folders listed, {} files read…",
                    thousands(counts.listed.load(Ordering::Relaxed)),
                    thousands(counts.read.load(Ordering::Relaxed)),
                );
                if line == last {
                    continue;
                }
                // A terminal that stopped taking output must not stop the compile.
                drawn |= out.write_all(line.as_bytes()).and_then(|()| out.flush()).is_ok();
                last = line;
            }
            if drawn {
                let _ = out.write_all(b"\r\x1b[2K").and_then(|()| out.flush());
            }
        });
        let result = work(&counting);
        drop(done);
        result
    })
}

/// `12345` as `12,345`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The file system, counting what it is asked.
struct Counting<'f> {
    inner: &'f dyn Fs,
    listed: AtomicUsize,
    read: AtomicUsize,
}

impl Fs for Counting<'_> {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        self.listed.fetch_add(1, Ordering::Relaxed);
        self.inner.read_dir(path)
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        self.inner.kind(path)
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        self.inner.kind_followed(path)
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        self.inner.canonicalize(path)
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        self.inner.read_link(path)
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        self.read.fetch_add(1, Ordering::Relaxed);
        self.inner.read(path, max)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use agentc_compiler::memfs::MemFs;

    /// A writer the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().map_err(|_| io::Error::other("poisoned"))?.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn root() -> PathBuf {
        MemFs::new().root().join("agents")
    }

    fn example() -> MemFs {
        let mut fs = MemFs::new();
        for i in 0..3 {
            let skill = format!("---\nname: s{i}\ndescription: d\n---\nbody\n");
            fs.insert(&format!("agents/skills/s{i}/SKILL.md"), skill.into_bytes()).unwrap();
        }
        fs
    }

    #[test]
    fn a_long_run_draws_the_counts_and_erases_the_line() {
        let fs = example();
        let shared = Shared::default();
        let seen = shared.clone();
        let compiled = with_progress(&fs, Some(Box::new(shared)), Duration::ZERO, |fs| {
            let compilation = agentc_compiler::compile(fs, &agentc_compiler::Options::new(root()));
            // The work lasts until the line has been drawn with every file read.
            while !String::from_utf8_lossy(&seen.0.lock().unwrap()).contains(" 3 files read…") {
                std::thread::sleep(Duration::from_millis(1));
            }
            compilation
        });
        assert_eq!(compiled.map(|c| c.diagnostics.len()).ok(), Some(0));
        let drawn = String::from_utf8(seen.0.lock().unwrap().clone()).unwrap();
        assert!(drawn.starts_with("\r\x1b[2Kagentc: "), "{drawn:?}");
        assert!(drawn.contains(" files read…"), "{drawn:?}");
        assert!(drawn.ends_with("\r\x1b[2K"), "the line is erased at the end: {drawn:?}");
        let last = drawn.trim_end_matches("\r\x1b[2K").rsplit("\r\x1b[2K").next().unwrap();
        assert!(
            last.starts_with("agentc: ") && last.ends_with(" folders listed, 3 files read…"),
            "{last:?}"
        );
    }

    #[test]
    fn a_short_run_and_no_terminal_draw_nothing() {
        let fs = example();
        let shared = Shared::default();
        let seen = shared.clone();
        let result = with_progress(&fs, Some(Box::new(shared)), Duration::from_secs(3600), |fs| {
            agentc_compiler::compile(fs, &agentc_compiler::Options::new(root())).is_ok()
        });
        assert!(result);
        assert!(seen.0.lock().unwrap().is_empty());
        assert!(with_progress(&fs, None, Duration::ZERO, |_| true));
    }

    #[test]
    fn counts_read_with_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(12_345_678), "12,345,678");
    }
}
