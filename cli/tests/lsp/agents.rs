//! Copilot custom agents and Claude Code subagents as names, through a real
//! client: hover, definition, references, prepareRename and rename (applied
//! to the disk, then checked), and completion where an agent is named — in a
//! Copilot agent's `agents:` and handoffs, and in a prompt file's `agent`.

use std::path::Path;

use serde_json::{Value, json};

use super::client::{Client, doc, position, url};
use super::common;

const SWE: &str = ".github/agents/swe-subagent.agent.md";
const DOCS: &str = ".github/agents/docs.agent.md";
const LEAD: &str = ".github/agents/lead.agent.md";
const REVIEWER: &str = ".claude/agents/reviewer.md";
const SHIP: &str = ".github/prompts/ship.prompt.md";

/// A lead Copilot agent naming an agent with a `name` (`SWE`), one without
/// (`docs`) and a Claude Code subagent; a prompt running with `SWE`; and a
/// skill, which no agent slot may offer.
fn team() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for (path, text) in [
        (".git/HEAD", "ref: refs/heads/main\n"),
        (SWE, "---\nname: 'SWE'\ndescription: Builds the feature.\n---\nBuild it.\n"),
        (DOCS, "---\ndescription: Writes the docs.\n---\nWrite them.\n"),
        (
            LEAD,
            "---\nname: Lead\ndescription: Leads the work.\ntools: ['agent']\nagents: ['SWE', docs, reviewer]\nhandoffs:\n  - label: Build\n    agent: SWE\n  - label: Write\n    agent: docs\n---\nLead.\n",
        ),
        (REVIEWER, "---\nname: reviewer\ndescription: Reviews the change.\n---\nReview it.\n"),
        (SHIP, "---\ndescription: Ships it.\nagent: swe\n---\nShip.\n"),
        (
            ".claude/skills/release/SKILL.md",
            "---\nname: release\ndescription: Cuts a release.\n---\nRelease.\n",
        ),
    ] {
        common::write(&root.join(path), text);
    }
    (dir, root)
}

pub fn text(root: &Path, path: &str) -> String {
    std::fs::read_to_string(root.join(path)).unwrap()
}

/// The range of the `nth` `needle` in `text`.
pub fn range(text: &str, needle: &str, nth: usize) -> Value {
    let start = position(text, needle, nth);
    let mut end = start.clone();
    end["character"] = json!(start["character"].as_u64().unwrap() + needle.len() as u64);
    json!({ "start": start, "end": end })
}

fn location(root: &Path, path: &str, range: Value) -> Value {
    json!({ "uri": url(&root.join(path)), "range": range })
}

fn labels(completion: &Value) -> Vec<&str> {
    let items = completion.get("items").unwrap_or(completion);
    items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect()
}

/// Completion where the cursor is just after `needle` (its `nth`) in `path`.
fn complete_after(client: &mut Client, root: &Path, path: &str, needle: &str) -> Value {
    let text = text(root, path);
    let mut at = position(&text, needle, 0);
    at["character"] = json!(at["character"].as_u64().unwrap() + needle.len() as u64);
    client.request("textDocument/completion", doc(&url(&root.join(path)), at))
}

/// Applies a workspace edit to the disk as a client does: each file's
/// edits against its text before them, then the file renames.
pub fn apply(root: &Path, edit: &Value) {
    let path = |uri: &str| uri.strip_prefix("file://").unwrap().to_owned();
    let mut steps: Vec<Value> = (edit["changes"].as_object().into_iter().flatten())
        .map(|(uri, edits)| json!({ "textDocument": { "uri": uri }, "edits": edits }))
        .collect();
    steps.extend(edit["documentChanges"].as_array().into_iter().flatten().cloned());
    assert!(!steps.is_empty(), "an empty edit: {edit}");
    for step in steps {
        if step["kind"] == "rename" {
            let (from, to) =
                (path(step["oldUri"].as_str().unwrap()), path(step["newUri"].as_str().unwrap()));
            assert!(Path::new(&from).starts_with(root) && !Path::new(&to).exists(), "{step}");
            std::fs::rename(from, to).unwrap();
            continue;
        }
        let file = path(step["textDocument"]["uri"].as_str().unwrap());
        let text = std::fs::read_to_string(&file).unwrap();
        let offset = |at: &Value| {
            let line = at["line"].as_u64().unwrap() as usize;
            let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
            start + at["character"].as_u64().unwrap() as usize
        };
        let mut edits: Vec<(usize, usize, String)> = (step["edits"].as_array().unwrap().iter())
            .map(|e| {
                let range = &e["range"];
                (
                    offset(&range["start"]),
                    offset(&range["end"]),
                    e["newText"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        edits.sort();
        let mut edited = text.clone();
        for (start, end, new_text) in edits.into_iter().rev() {
            edited.replace_range(start..end, &new_text);
        }
        std::fs::write(&file, edited).unwrap();
    }
}

/// Every file under `root` but `.git`, with its text, in path order.
pub fn files(root: &Path) -> Vec<(String, String)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if rel != ".git" {
                    walk(root, &path, out);
                }
            } else {
                out.push((rel, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

/// `agentc check`'s report on `root`, as JSON lines.
pub fn check(root: &Path) -> String {
    let output = common::agentc(&["check", "--message-format", "json"], root);
    String::from_utf8(output.stdout).unwrap()
}

/// A Copilot agent file: hover, definition, references and completion on
/// the agents its `agents:` and handoffs name.
#[test]
fn agents_named_in_a_copilot_agent() {
    let (_dir, root) = team();
    let mut client = Client::start(&root);
    let lead = url(&root.join(LEAD));
    let lead_text = text(&root, LEAD);
    let swe_text = text(&root, SWE);

    // By its `name`, which its file's name is not.
    let hover = client.request("textDocument/hover", doc(&lead, position(&lead_text, "SWE", 0)));
    assert_eq!(
        hover,
        json!({
            "contents": { "kind": "markdown", "value": format!("**Copilot agent** `SWE`\n\nBuilds the feature.\n\n*defined in* `{SWE}`") },
            "range": range(&lead_text, "SWE", 0),
        })
    );
    let definition =
        client.request("textDocument/definition", doc(&lead, position(&lead_text, "SWE", 1)));
    assert_eq!(definition, location(&root, SWE, range(&swe_text, "SWE", 0)));
    let mut params = doc(&lead, position(&lead_text, "SWE", 1));
    params["context"] = json!({ "includeDeclaration": true });
    let references = client.request("textDocument/references", params);
    let ship_text = text(&root, SHIP);
    assert_eq!(
        references,
        json!([
            location(&root, SWE, range(&swe_text, "SWE", 0)),
            location(&root, LEAD, range(&lead_text, "SWE", 0)),
            location(&root, LEAD, range(&lead_text, "SWE", 1)),
            location(&root, SHIP, range(&ship_text, "swe", 0)),
        ])
    );

    // An agent without `name`: its file, from the start.
    let definition =
        client.request("textDocument/definition", doc(&lead, position(&lead_text, "docs", 1)));
    let start = json!({ "line": 0, "character": 0 });
    assert_eq!(definition, location(&root, DOCS, json!({ "start": start, "end": start })));

    // Completion: the agents VS Code reads and its own, never a skill.
    let expected = ["SWE", "docs", "Lead", "reviewer", "agent", "ask", "edit", "explore", "plan"];
    let mut sorted = expected;
    sorted.sort_unstable();
    // What is typed filters: `S` begins one agent's name.
    let in_handoff = complete_after(&mut client, &root, LEAD, "agent: S");
    assert_eq!(labels(&in_handoff), ["SWE"], "{in_handoff}");
    assert_eq!(in_handoff["items"][0]["kind"], 7, "a class: {in_handoff}");
    let in_list = complete_after(&mut client, &root, LEAD, "'SWE', ");
    let mut found = labels(&in_list);
    found.sort_unstable();
    assert_eq!(found, sorted, "{in_list}");
    client.shutdown();
}

/// A prompt file: its `agent` leads to the Copilot agent it names (by name,
/// ignoring case, as the compiler finds it), and completion there offers
/// the Copilot agents and VS Code's built-in ones, never a skill or subagent.
#[test]
fn the_agent_a_prompt_file_runs_with() {
    let (_dir, root) = team();
    let mut client = Client::start(&root);
    let ship = url(&root.join(SHIP));
    let ship_text = text(&root, SHIP);
    let swe_text = text(&root, SWE);
    let definition =
        client.request("textDocument/definition", doc(&ship, position(&ship_text, "swe", 0)));
    assert_eq!(definition, location(&root, SWE, range(&swe_text, "SWE", 0)));
    let hover = client.request("textDocument/hover", doc(&ship, position(&ship_text, "swe", 0)));
    assert_eq!(
        hover["contents"]["value"],
        format!("**Copilot agent** `SWE`\n\nBuilds the feature.\n\n*defined in* `{SWE}`")
    );
    let completion = complete_after(&mut client, &root, SHIP, "agent: ");
    let mut found = labels(&completion);
    found.sort_unstable();
    assert_eq!(found, ["Lead", "SWE", "agent", "ask", "docs", "edit", "plan"], "{completion}");
    let prepared =
        client.request("textDocument/prepareRename", doc(&ship, position(&ship_text, "swe", 0)));
    assert_eq!(prepared, json!({ "range": range(&ship_text, "swe", 0), "placeholder": "SWE" }));
    client.shutdown();
}

/// A Claude Code subagent that a Copilot agent names: hover, references
/// from its own `name`, and a rename applied to the disk that checks as the
/// same rename done by hand.
#[test]
fn a_claude_subagent_named_by_a_copilot_agent() {
    let (_dir, root) = team();
    let mut client = Client::start(&root);
    let reviewer = url(&root.join(REVIEWER));
    let reviewer_text = text(&root, REVIEWER);
    let lead_text = text(&root, LEAD);
    let lead = url(&root.join(LEAD));
    let hover =
        client.request("textDocument/hover", doc(&lead, position(&lead_text, "reviewer", 0)));
    assert_eq!(
        hover["contents"]["value"],
        format!(
            "**Claude Code subagent** `reviewer`\n\nReviews the change.\n\n*defined in* `{REVIEWER}`"
        )
    );
    let mut params = doc(&reviewer, position(&reviewer_text, "reviewer", 0));
    params["context"] = json!({ "includeDeclaration": false });
    let references = client.request("textDocument/references", params);
    assert_eq!(references, json!([location(&root, LEAD, range(&lead_text, "reviewer", 0))]));

    let mut params = doc(&reviewer, position(&reviewer_text, "reviewer", 0));
    params["newName"] = json!("critic");
    let edit = client.request("textDocument/rename", params);
    client.shutdown();
    let before = check(&root);
    apply(&root, &edit);
    let renamed = (files(&root), check(&root));

    let (_dir, by_hand) = team();
    for (path, from, to) in
        [(LEAD, "reviewer]", "critic]"), (REVIEWER, "name: reviewer", "name: critic")]
    {
        common::write(&by_hand.join(path), text(&by_hand, path).replace(from, to));
    }
    assert_eq!(renamed, (files(&by_hand), check(&by_hand)));
    assert_eq!(before, renamed.1, "the project means what it meant");
}

/// A Copilot agent named by its file alone: renamed by moving the file,
/// with every handoff and `agents:` entry naming it; checked as by hand.
#[test]
fn a_copilot_agent_renamed_by_moving_its_file() {
    let (_dir, root) = team();
    let mut client = Client::start(&root);
    let lead = url(&root.join(LEAD));
    let lead_text = text(&root, LEAD);
    let mut params = doc(&lead, position(&lead_text, "docs", 1));
    params["newName"] = json!("writer");
    let edit = client.request("textDocument/rename", params);
    client.shutdown();
    let operations = edit["documentChanges"].as_array().unwrap();
    assert_eq!(
        operations.last().unwrap(),
        &json!({ "kind": "rename", "oldUri": url(&root.join(DOCS)), "newUri": url(&root.join(".github/agents/writer.agent.md")) })
    );
    apply(&root, &edit);
    let renamed = (files(&root), check(&root));

    let (_dir, by_hand) = team();
    let lead_path = by_hand.join(LEAD);
    common::write(&lead_path, text(&by_hand, LEAD).replace("docs", "writer"));
    std::fs::rename(by_hand.join(DOCS), by_hand.join(".github/agents/writer.agent.md")).unwrap();
    assert_eq!(renamed, (files(&by_hand), check(&by_hand)));
}
