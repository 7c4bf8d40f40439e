//! The Copilot CLI as the judge of `.github/hooks/*.json`. Each file of
//! `tests/hosts/hooks/` is put alone in a trusted project and the CLI is
//! started on it offline, with a custom model provider that needs no login
//! (`COPILOT_PROVIDER_BASE_URL` at a closed port): the session starts and
//! loads the repository's hooks, and its log (`--log-level all`) says what it
//! did with the file — `Invalid hook configuration in …` (none of its hooks
//! load), `… — hook will be skipped` or `Ignoring unknown hook event(s)` (some
//! do not), or neither. The CLI is stopped as soon as the hooks are loaded.
//! A file the CLI loads whole gets no error from agentc; one it drops gets
//! an error; one it loads in part gets a diagnostic. What a hook does when it
//! runs (a script that is not there) is not judged here.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::copilot::{command, copilot};
use super::{Host, Tally, agentc_verdicts, copy};

/// What the Copilot CLI's log says of the hooks of the project at `top`.
fn verdict(copilot: &Path, home: &Path, top: &Path) -> (Host, String) {
    let logs = tempfile::tempdir().unwrap();
    let mut child = command(copilot, home)
        .env("COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:9/v1")
        .env("COPILOT_MODEL", "gpt-4.1")
        .args(["-p", "hi", "--trust-folder", "--log-level", "all", "--log-dir"])
        .arg(logs.path())
        .current_dir(top)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the Copilot CLI starts");
    let started = Instant::now();
    let mut log = String::new();
    while started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(200));
        log = std::fs::read_dir(logs.path())
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| std::fs::read_to_string(e.path()).ok())
            .collect();
        if log.contains("loaded repo hooks (hookCount=")
            || child.try_wait().ok().flatten().is_some()
        {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        log.contains("loaded repo hooks (hookCount="),
        "the Copilot CLI did not load the hooks of {}:\n{log}",
        top.display()
    );
    let said = |needle: &str| log.lines().find(|l| l.contains(needle)).map(str::to_owned);
    if let Some(line) = said("Invalid hook configuration in ") {
        return (Host::Refuses, line);
    }
    if let Some(line) = said("hook will be skipped").or_else(|| said("Ignoring unknown hook event"))
    {
        return (Host::LeavesOut, line);
    }
    let count = said("loaded repo hooks (hookCount=").unwrap_or_default();
    (Host::Loads, count)
}

#[test]
fn the_copilot_cli_and_agentc_agree_on_hooks() {
    let Some(copilot) = copilot() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hosts/hooks");
    let mut names: Vec<String> = std::fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    let mut tally = Tally::new(format!("Copilot CLI {}", super::copilot::COPILOT_CLI));
    let known = BTreeMap::new();
    let mut judged = BTreeMap::new();
    for name in &names {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("project");
        let folder = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(folder.path().join(".github/hooks")).unwrap();
        std::fs::copy(cases.join(name), folder.path().join(".github/hooks").join(name)).unwrap();
        copy(folder.path(), &top, true);
        let host = verdict(&copilot, home.path(), &top);
        let file = format!(".github/hooks/{name}");
        judged.insert(name.clone(), host.0);
        let (said, _) = agentc_verdicts(&top);
        tally.add("hooks", BTreeMap::from([(file, host)]), &said, &known);
    }
    let (wrong, table) = tally.finish(&known);
    eprintln!("{table}{} hooks files judged", judged.len());
    assert!(wrong.is_empty(), "the Copilot CLI and agentc disagree:\n{}", wrong.join("\n"));
    for host in [Host::Loads, Host::Refuses, Host::LeavesOut] {
        assert!(judged.values().any(|h| *h == host), "no case the CLI {host}");
    }
}
