//! `agentc budget` as a user runs it: the table the README shows, the JSON
//! document, and the refusal to share stdout with the diagnostics.

mod common;

use std::path::{Path, PathBuf};

use common::{agentc, text};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures").join(name).join("root")
}

#[test]
fn the_readme_shows_what_budget_prints() {
    let root = fixture("context-budget-claude");
    let out = agentc(&["budget", "."], &root);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/pictures.md"))
            .unwrap();
    let start = readme.find("$ agentc budget .\n").expect("docs/pictures.md shows `agentc budget`");
    let block = &readme[start + "$ agentc budget .\n".len()..];
    let shown = &block[..block.find("…\n").expect("the README's block ends with …")];
    assert!(
        printed.starts_with(shown),
        "the README's `agentc budget` block is stale; it prints:\n{printed}"
    );
    // Every limit Claude Code acts on is over in this fixture: `check`
    // reports each as a warning; `budget`, whose output is the table, only
    // counts them (issue #40: it repeated every warning).
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("warning["), "{stderr}");
    assert_eq!(stderr, "note: 4 warnings not shown here; `agentc check` shows them\n");
    assert!(printed.contains("largest at start\n        8,521  memory  CLAUDE.md\n"), "{printed}");
}

#[test]
fn json_gives_every_set_limit_and_largest_item() {
    let root = fixture("context-budget-codex");
    let out = agentc(&["budget", ".", "--format", "json", "--top", "2"], &root);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(document["tokenizer"], "o200k_base");
    let sets = document["sets"].as_array().unwrap();
    assert_eq!(sets.len(), 1);
    let codex = &sets[0];
    assert_eq!(codex["host"], "Codex");
    assert_eq!(codex["set"], "the project");
    // The top AGENTS.md and the skill's listing are read at start; the
    // nested AGENTS.md files and the skill's body when used.
    assert_eq!(codex["start"]["items"], 2);
    assert_eq!(codex["on_demand"]["items"], 3);
    assert_eq!(codex["start"]["largest"][0]["file"], "AGENTS.md");
    assert_eq!(codex["on_demand"]["largest"].as_array().unwrap().len(), 2);
    let limit = &codex["limits"][0];
    assert_eq!(limit["what"], "project instructions");
    assert_eq!(limit["unit"], "bytes");
    assert_eq!(limit["max"], 32768);
    assert_eq!(limit["value"], 22687 + 12089);
    assert_eq!(limit["over"], true);
    assert_eq!(limit["diagnostic"], "warning");
    assert_eq!(limit["largest"][0]["file"], "web/AGENTS.md");
    let tokens = codex["start"]["tokens"].as_u64().unwrap();
    assert!(tokens > 1000 && tokens < 22687, "{tokens} tokens for 22,687 bytes of English");
}

#[test]
fn the_budget_does_not_share_stdout_with_diagnostics() {
    let root = fixture("context-budget-codex");
    let out = agentc(&["budget", ".", "--message-format", "json"], &root);
    assert_eq!(out.status.code(), Some(2));
    // The refusal itself is reported in the format asked for, and no table follows.
    let stdout = text(&out.stdout);
    assert!(stdout.contains(r#""code":"cannot-run""#), "{stdout}");
    assert!(stdout.contains("give the budget's own --format json"), "{stdout}");
    assert!(!stdout.contains("Tokens counted"), "{stdout}");
}

#[test]
fn a_project_no_host_loads_says_so() {
    let dir = tempfile::tempdir().unwrap();
    common::write(
        &dir.path().join("agents/skills/lookup/SKILL.md"),
        "---\nname: lookup\ndescription: Look an order up.\n---\n\nCall the tool.\n",
    );
    let out = agentc(&["budget", "agents"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("No host loads anything"), "{}", text(&out.stdout));
}
