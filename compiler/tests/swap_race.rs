//! A file swapped for a symlink between discovery and reading is never read
//! through the link: what is read is what discovery checked.
#![cfg(unix)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use agentc_compiler::fs::RealFs;
use agentc_compiler::lock::lockfile;
use agentc_compiler::{Options, compile};

/// Writes `path`, making its folders.
fn write(path: &std::path::Path, content: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

fn skill(body: &str) -> String {
    format!("---\nname: x\ndescription: Answer questions.\n---\n{body}\n")
}

#[test]
fn a_file_swapped_for_an_outside_link_is_never_read_through_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("agents");
    let target = root.join("skills/x/SKILL.md");
    write(&target, skill("Inside."));
    // A valid skill of the same name, so that reading it would compile cleanly
    // and its text would reach the lockfile.
    let marker = format!("OUTSIDE-MARKER-{}", std::process::id());
    let secret = dir.path().join("outside/SKILL.md");
    write(&secret, skill(&marker));
    // The swaps are prepared outside the root, so discovery never sees them.
    let stage = dir.path().join("stage");
    std::fs::create_dir(&stage).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let stop = Arc::clone(&stop);
        let (target, secret, stage) = (target.clone(), secret.clone(), stage.clone());
        std::thread::spawn(move || {
            let (link, file) = (stage.join("link"), stage.join("file"));
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                std::os::unix::fs::symlink(&secret, &link).unwrap();
                std::fs::rename(&link, &target).unwrap();
                std::fs::write(&file, skill("Inside.")).unwrap();
                std::fs::rename(&file, &target).unwrap();
                swaps += 1;
            }
            swaps
        })
    };

    let opts = Options::new(root);
    let (mut runs, mut clean, mut leaks) = (0, 0, 0);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(3) {
        let compilation = compile(&RealFs, &opts).unwrap();
        runs += 1;
        let read = compilation.sources.values().any(|s| s.text.contains(&marker));
        let locked = !compilation.has_errors() && {
            clean += 1;
            lockfile(&compilation).to_json().contains(&marker)
        };
        if read || locked {
            leaks += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert!(swaps > 0 && runs > 0, "the race never ran ({swaps} swaps, {runs} runs)");
    assert!(clean > 0, "no run compiled cleanly, so no lockfile was rendered ({runs} runs)");
    assert_eq!(leaks, 0, "the outside file was read in {leaks} of {runs} runs ({swaps} swaps)");
}

#[test]
fn links_that_stay_inside_the_root_are_followed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("agents");
    write(&root.join("shared/SYSTEM.md"), "Be brief.\n");
    write(&root.join("shared/skills/x/SKILL.md"), skill("Through a folder link."));
    std::fs::create_dir(root.join("skills")).unwrap();
    std::os::unix::fs::symlink("shared/SYSTEM.md", root.join("SYSTEM.md")).unwrap();
    std::os::unix::fs::symlink("../shared/skills/x", root.join("skills/x")).unwrap();

    let compilation = compile(&RealFs, &Options::new(root)).unwrap();
    let texts: Vec<&str> = compilation.sources.values().map(|s| &*s.text).collect();
    assert!(texts.contains(&"Be brief.\n"), "the linked SYSTEM.md was not read: {texts:?}");
    assert!(
        texts.iter().any(|t| t.contains("Through a folder link.")),
        "the skill behind a folder link was not read: {texts:?}"
    );
}
