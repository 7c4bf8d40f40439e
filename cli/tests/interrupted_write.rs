//! A `lock` stopped while it writes leaves the old lockfile and no temporary
//! file: SIGINT and SIGTERM remove it at once, and the leftover of a SIGKILL
//! is swept by the next write once it is old enough.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// A project whose lockfile is tens of megabytes, so writing it takes a while.
fn big_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let line = "Answer the billing question with the customer's own order history.\n";
    let body = line.repeat(512 * 1024 / line.len());
    for i in 0..24 {
        let skill = dir.path().join(format!("agents/skills/s{i}/SKILL.md"));
        std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
        let text = format!("---\nname: s{i}\ndescription: Billing, part {i}.\n---\n{body}");
        std::fs::write(skill, text).unwrap();
    }
    dir
}

fn lock(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_agentc"))
        .arg("lock")
        .arg("agents")
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("agentc runs")
}

fn temporaries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(".agentc-"))
        .collect()
}

/// Runs `lock` and sends `signal` once its temporary file appears; returns
/// whether the signal was sent while the write was in progress, and how the
/// run ended.
fn interrupt(dir: &Path, signal: &str) -> (bool, ExitStatus) {
    let mut child = lock(dir, &[]);
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (false, status);
        }
        if !temporaries(dir).is_empty() {
            let pid = child.id().to_string();
            let sent = Command::new("kill").args(["-s", signal, &pid]).status().unwrap();
            assert!(sent.success(), "kill -s {signal} failed");
            return (true, child.wait().unwrap());
        }
        assert!(start.elapsed() < Duration::from_secs(120), "agentc lock did not finish");
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// A lockfile an older agentc wrote: agentc's own, so `lock` replaces it.
const OLD: &[u8] = b"{\"lockfile_version\": 0}\n";

/// The lockfile a finished run writes.
fn reference(dir: &Path) -> Vec<u8> {
    let status = lock(dir, &["-o", "reference.lock"]).wait().unwrap();
    assert!(status.success());
    let bytes = std::fs::read(dir.join("reference.lock")).unwrap();
    std::fs::remove_file(dir.join("reference.lock")).unwrap();
    bytes
}

#[test]
fn sigint_and_sigterm_remove_the_temporary_file_and_keep_the_old_lockfile() {
    let dir = big_project();
    let fresh = reference(dir.path());
    let lockfile = dir.path().join("agentc.lock");
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let mut caught = false;
        // The write window is long, but a loaded machine may let a run finish
        // before it is seen: try a few times, and check every run regardless.
        for _ in 0..5 {
            std::fs::write(&lockfile, OLD).unwrap();
            let (sent, status) = interrupt(dir.path(), signal);
            assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new(), "SIG{signal} left litter");
            let now = std::fs::read(&lockfile).unwrap();
            assert!(now == OLD || now == fresh, "SIG{signal} left a damaged lockfile");
            if sent {
                assert_eq!(status.code(), Some(code), "SIG{signal}: {status:?}");
                caught = true;
                break;
            }
        }
        assert!(caught, "no run was caught writing, so SIG{signal} was never tested");
    }
}

#[test]
fn the_next_write_sweeps_what_a_sigkill_left_once_it_is_old() {
    let dir = big_project();
    let fresh = reference(dir.path());
    let lockfile = dir.path().join("agentc.lock");
    let mut left = Vec::new();
    for _ in 0..5 {
        std::fs::write(&lockfile, OLD).unwrap();
        let (sent, _) = interrupt(dir.path(), "KILL");
        left = temporaries(dir.path());
        if sent && !left.is_empty() {
            break;
        }
    }
    assert_eq!(left.len(), 1, "no run was caught writing, so nothing was left to sweep");
    assert_eq!(std::fs::read(&lockfile).unwrap(), OLD);
    // Old enough that no run could still be writing it.
    let hour_ago = SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options().write(true).open(&left[0]).unwrap().set_modified(hour_ago).unwrap();

    assert!(lock(dir.path(), &[]).wait().unwrap().success());
    assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new(), "the leftover was not swept");
    assert!(std::fs::read(&lockfile).unwrap() == fresh);
}
