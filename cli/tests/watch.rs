//! `agentc check --watch`: a check at once, and again after each change.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

#[test]
fn a_change_is_checked_again_and_a_fix_heals_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("agents");
    let skill = |name: &str, routes: &str| {
        let text =
            format!("---\nname: {name}\ndescription: Say {name}.\n{routes}---\nSay {name}.\n");
        std::fs::create_dir_all(root.join("skills").join(name)).unwrap();
        std::fs::write(root.join("skills").join(name).join("SKILL.md"), text).unwrap();
    };
    skill("farewell", "");
    skill("greet", "routes:\n  - farewell\n");
    let greet = root.join("skills/greet/SKILL.md");
    let clean = std::fs::read_to_string(&greet).unwrap();

    let mut child = Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(["check", "--watch"])
        .arg(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, lines) = channel();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut seen = Vec::new();
    let mut wait_for = |needle: &str| {
        loop {
            let Ok(line) = lines.recv_timeout(Duration::from_secs(60)) else {
                let _ = child.kill();
                panic!("no `{needle}` in time; saw:\n{}", seen.join("\n"));
            };
            seen.push(line.clone());
            if line.contains(needle) {
                return seen.join("\n");
            }
        }
    };
    let first = wait_for("[watching for changes");
    assert!(first.contains("no problems found"), "{first}");

    // What git and editors write beside a save is not checked again: were
    // it, the next check would name it rather than the skill saved after.
    let noise = [
        ".git/index.lock",
        "skills/greet/.SKILL.md.swp",
        "skills/greet/4913",
        "skills/greet/SKILL.md~",
        "skills/greet/.#SKILL.md",
        "skills/greet/SKILL.md.tmp",
    ];
    for file in noise {
        std::fs::create_dir_all(root.join(file).parent().unwrap()).unwrap();
        std::fs::write(root.join(file), "x").unwrap();
    }
    for file in noise {
        std::fs::remove_file(root.join(file)).unwrap();
    }
    // A `.git` left at the root would make it a repository's top, where a
    // collection of skills alone is Agent Skills, not runbooks.
    std::fs::remove_dir(root.join(".git")).unwrap();
    std::thread::sleep(Duration::from_millis(800));
    std::fs::write(&greet, clean.replace("- farewell", "- farewel")).unwrap();
    let broken = wait_for("[watching for changes");
    let again: Vec<&str> = broken.lines().filter(|l| l.contains("checking again")).collect();
    assert_eq!(again.len(), 1, "{broken}");
    assert!(again[0].ends_with("skills/greet/SKILL.md changed; checking again]"), "{broken}");
    assert!(broken.contains("error[unknown-route-target]"), "{broken}");

    std::fs::write(&greet, &clean).unwrap();
    let healed = wait_for("[watching for changes");
    let last = healed.rsplit("checking again]").next().unwrap();
    assert!(last.contains("no problems found") && !last.contains("error"), "{healed}");
    child.kill().unwrap();
    child.wait().unwrap();
}
