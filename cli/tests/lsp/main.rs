//! `agentc lsp` driven over stdio as an editor drives it: initialize, open,
//! change, hover, completion, definition, references, rename, code action,
//! outline, shutdown — on a copy of the bundled example.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

mod actions;
mod agents;
mod client;
#[path = "../common/mod.rs"]
mod common;
mod completion;
mod folders;
mod globs;
mod links;
mod progress;
mod symbols;

use client::{Client, PATIENCE, doc, position, url};

#[test]
fn an_editor_session_on_the_example() {
    let (_dir, root) = common::example_project();
    let mut client = Client::start(&root);
    let root_url = url(&root);
    let intake_path = root.join("agents/skills/intake/SKILL.md");
    let intake = url(&intake_path);
    let text = std::fs::read_to_string(&intake_path).unwrap();
    client.open(&intake, &text);

    // A typo in a route target: the diagnostic appears as typed, with its fix.
    let typo = text.replace("- classify-request:", "- classify-requst:");
    client.change(&intake, 2, &typo);
    let diagnostics = client.diagnostics(&intake, Some(2));
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?} {:?}", client.pending);
    let d = &diagnostics[0];
    assert_eq!(d["code"], "unknown-route-target");
    assert_eq!(d["source"], "agentc");
    assert_eq!(d["severity"], 1);
    assert_eq!(
        d["range"],
        json!({ "start": { "line": 11, "character": 4 }, "end": { "line": 11, "character": 19 } })
    );
    assert!(
        d["message"].as_str().unwrap().starts_with(
            "the route leads to `classify-requst`, which is not a skill visible here\nhelp: did you mean `classify-request`?"
        ),
        "{d}"
    );
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": intake }, "range": d["range"], "context": { "diagnostics": [d] } }),
    );
    assert_eq!(actions.as_array().unwrap().len(), 1, "{actions}");
    assert_eq!(actions[0]["title"], "replace `classify-requst` with `classify-request`");
    assert_eq!(actions[0]["kind"], "quickfix");
    assert_eq!(
        actions[0]["edit"]["changes"][&intake],
        json!([{ "range": d["range"], "newText": "classify-request" }])
    );

    // Healed: the file's diagnostics are cleared.
    client.change(&intake, 3, &text);
    assert_eq!(client.diagnostics(&intake, Some(3)), Vec::<Value>::new());

    // An edit in one file breaks another, and undoing it heals it.
    let wrap_up_path = root.join("agents/skills/wrap-up/SKILL.md");
    let wrap_up = url(&wrap_up_path);
    let case_summary = url(&root.join("agents/skills/case-summary/SKILL.md"));
    let original = std::fs::read_to_string(&wrap_up_path).unwrap();
    client.open(&wrap_up, &original);
    let renamed = original.replace("name: wrap-up", "name: wrap-up-call");
    client.change(&wrap_up, 2, &renamed);
    let broken = client.diagnostics(&case_summary, None);
    let codes: Vec<&str> = broken.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["unknown-route-target"], "{broken:?}");
    client.change(&wrap_up, 3, &original);
    assert_eq!(client.diagnostics(&case_summary, None), Vec::<Value>::new());

    // Hover: a tool name shows its descriptor; a key what the schema says.
    let hover =
        client.request("textDocument/hover", doc(&intake, position(&text, "update_ticket", 0)));
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.starts_with("**tool** `update_ticket`\n\n"), "{shown}");
    assert!(shown.contains("*defined in* `tools/update_ticket/manifest.json`"), "{shown}");
    let hover = client.request("textDocument/hover", doc(&intake, position(&text, "onSkip", 0)));
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.starts_with("**On skip** (`onSkip`)"), "{shown}");
    assert!(shown.contains("- `hold`: Stay on the skipped step."), "{shown}");
    let hover =
        client.request("textDocument/hover", doc(&intake, position(&text, "status=absent", 0)));
    assert_eq!(
        hover["contents"]["value"],
        "**guard**: goes to `verify-identity` when the tool `lookup_customer` returns `absent` or `denied`"
    );

    // Completion: skills where a route's target goes, statuses in a guard.
    let completion = client
        .request("textDocument/completion", doc(&intake, position(&text, "classify-request", 0)));
    let labels: Vec<&str> = completion["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"wrap-up") && labels.contains(&"verify-identity"), "{labels:?}");
    assert!(
        !labels.contains(&"charge-lookup"),
        "billing's private skill is not visible: {labels:?}"
    );
    let mut at = position(&text, "status=success", 0);
    at["character"] = json!(at["character"].as_u64().unwrap() + "status=".len() as u64);
    let completion = client.request("textDocument/completion", doc(&intake, at));
    let labels: Vec<&str> = completion["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"success") && labels.contains(&"pending"), "{labels:?}");

    // Definition: from a route target to the skill's `name`.
    let definition = client
        .request("textDocument/definition", doc(&intake, position(&text, "classify-request", 0)));
    assert_eq!(
        definition,
        json!({
            "uri": url(&root.join("agents/skills/classify-request/SKILL.md")),
            "range": { "start": { "line": 1, "character": 6 }, "end": { "line": 1, "character": 22 } },
        })
    );

    // References: every skill, agent and guard naming a tool.
    let mut params = doc(&intake, position(&text, "lookup_customer", 0));
    params["context"] = json!({ "includeDeclaration": true });
    let references = client.request("textDocument/references", params);
    let references = references.as_array().unwrap();
    let first = references[0]["uri"].as_str().unwrap();
    assert!(
        first.ends_with("/agents/tools/lookup_customer/manifest.json"),
        "the definition first: {first}"
    );
    let mut files: Vec<&str> = references
        .iter()
        .map(|l| l["uri"].as_str().unwrap().strip_prefix(root_url.as_str()).unwrap())
        .collect();
    files.sort_unstable();
    files.dedup();
    assert_eq!(
        files,
        [
            "/agents/billing/AGENT.md",
            "/agents/billing/skills/charge-lookup/SKILL.md",
            "/agents/escalations/agent.json",
            "/agents/skills/case-summary/SKILL.md",
            "/agents/skills/intake/SKILL.md",
            "/agents/skills/verify-identity/SKILL.md",
            "/agents/tools/lookup_customer/manifest.json",
            "/agents/triage/AGENT.md",
        ]
    );
    // Each file's `tools` entry, its steps and its guards: here, two of each
    // in intake, with the definition and the other files.
    let in_intake = references.iter().filter(|l| l["uri"] == intake).count();
    assert_eq!(in_intake, 4, "{references:?}");

    // Outline: the frontmatter's keys, with the routes as children.
    let symbols =
        client.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": intake } }));
    let names: Vec<&str> =
        symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["name", "description", "tools", "steps", "onSkip", "routes"]);
    let routes: Vec<&str> = symbols[5]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(routes, ["classify-request", "verify-identity"]);

    // Rename: the skill's name, every route and agent naming it, and its folder.
    let prepared = client
        .request("textDocument/prepareRename", doc(&intake, position(&text, "verify-identity", 0)));
    assert_eq!(prepared["placeholder"], "verify-identity");
    let mut params = doc(&intake, position(&text, "verify-identity", 0));
    params["newName"] = json!("confirm-identity");
    let edit = client.request("textDocument/rename", params);
    let operations = edit["documentChanges"].as_array().unwrap();
    let renamed = operations.last().unwrap();
    assert_eq!(renamed["kind"], "rename");
    assert_eq!(renamed["oldUri"], url(&root.join("agents/skills/verify-identity")));
    assert_eq!(renamed["newUri"], url(&root.join("agents/skills/confirm-identity")));
    let edited: Vec<&str> = operations[..operations.len() - 1]
        .iter()
        .map(|op| op["textDocument"]["uri"].as_str().unwrap())
        .collect();
    assert!(edited.contains(&intake.as_str()), "{edited:?}");
    for op in &operations[..operations.len() - 1] {
        for e in op["edits"].as_array().unwrap() {
            assert_eq!(e["newText"], "confirm-identity", "{op}");
        }
    }
    let bad = {
        let mut params = doc(&intake, position(&text, "verify-identity", 0));
        params["newName"] = json!("Not A Name");
        client.next_id += 1;
        let id = client.next_id;
        client.send(json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/rename", "params": params }));
        loop {
            let message = client.next();
            if message["id"] == id {
                break message;
            }
            client.pending.push(message);
        }
    };
    assert!(bad["error"]["message"].as_str().unwrap().contains("Not A Name"), "{bad}");

    // A file changed on disk (not open, no editor involved) is read again.
    let summary_path = root.join("agents/skills/case-summary/SKILL.md");
    let summary_text = std::fs::read_to_string(&summary_path).unwrap();
    std::fs::write(&summary_path, summary_text.replace("- wrap-up:", "- wrap-upp:")).unwrap();
    let empty = |d: &[Value]| {
        d.len() == 1 && d[0]["message"].as_str().unwrap().starts_with("the file has no frontmatter")
    };
    let changed = client.diagnostics_once(&case_summary, |d| !empty(d));
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0]["message"].as_str().unwrap().contains("`wrap-upp`"), "{changed:?}");
    std::fs::write(&summary_path, &summary_text).unwrap();
    assert_eq!(client.diagnostics_once(&case_summary, |d| !empty(d)), Vec::<Value>::new());

    client.shutdown();
}

/// Issue #26: the registry is an input like any other. Deleting an entry
/// in the editor, then on the disk (the document closed), reports the tool
/// unknown where it is used; putting it back clears that.
#[test]
fn the_registry_is_checked_again_when_it_changes() {
    let (_dir, root) = common::example_project();
    let mut client = Client::start(&root);
    let registry_path = root.join("registry.yaml");
    let registry = url(&registry_path);
    let agent = url(&root.join("agents/billing/AGENT.md"));
    let text = std::fs::read_to_string(&registry_path).unwrap();
    let without = text.replace("  - fetch_invoice\n", "");
    let unknown = |d: &[Value]| {
        d.len() == 1
            && d[0]["code"] == "unknown-tool"
            && d[0]["message"].as_str().unwrap().contains("`fetch_invoice`")
    };
    client.open(&registry, &text);
    client.change(&registry, 2, &without);
    assert!(unknown(&client.diagnostics(&agent, None)), "{:?}", client.pending);
    client.change(&registry, 3, &text);
    assert_eq!(client.diagnostics(&agent, None), Vec::<Value>::new());

    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": registry } }));
    std::fs::write(&registry_path, &without).unwrap();
    client.diagnostics_once(&agent, unknown);
    std::fs::write(&registry_path, &text).unwrap();
    client.diagnostics_once(&agent, |d| d.is_empty());
    client.shutdown();
}

/// Issue #36: on the example with a Claude Code subagent and two Copilot
/// agents (one handing off to the other), a registry tool a skill uses is
/// deleted in the editor and saved, restored and saved, then renamed in
/// the skill's `tools:`. The save's update kept an empty model and no
/// references, and the skill's edit then panicked: no request was answered
/// again. Now the edit is checked, nothing panics, and every request is
/// answered.
#[test]
fn a_registry_edit_saved_then_a_skill_edit_leaves_the_server_answering() {
    let (_dir, root) = common::example_project();
    let assistants = [
        (
            ".claude/agents/desk-helper.md",
            "---\nname: desk-helper\ndescription: Answers questions at the desk.\nskills:\n  - intake\n---\nHelp.\n",
        ),
        (
            ".github/agents/triage.agent.md",
            "---\nname: triage\ndescription: Sorts what comes in.\nhandoffs:\n  - label: Review\n    agent: review\n    prompt: Review it.\n---\nSort.\n",
        ),
        (
            ".github/agents/review.agent.md",
            "---\nname: review\ndescription: Reviews.\n---\nReview.\n",
        ),
    ];
    for (path, text) in assistants {
        common::write(&root.join(path), text);
    }
    let mut client = Client::start(&root);
    let registry_path = root.join("registry.yaml");
    let registry = url(&registry_path);
    let agent = url(&root.join("agents/billing/AGENT.md"));
    let text = std::fs::read_to_string(&registry_path).unwrap();
    let without = text.replace("  - fetch_invoice\n", "");
    client.open(&registry, &text);
    for (version, edited) in [(2, &without), (3, &text)] {
        client.change(&registry, version, edited);
        let unknown = client.diagnostics(&agent, None).iter().any(|d| d["code"] == "unknown-tool");
        assert_eq!(unknown, version == 2, "{:?}", client.pending);
        std::fs::write(&registry_path, edited).unwrap();
        client.notify("textDocument/didSave", json!({ "textDocument": { "uri": registry } }));
        // The save's update, and the disk watcher's, are made meanwhile.
        std::thread::sleep(Duration::from_millis(500));
    }
    let skill_path = root.join("agents/billing/skills/charge-lookup/SKILL.md");
    let skill = url(&skill_path);
    let original = std::fs::read_to_string(&skill_path).unwrap();
    let renamed = original.replacen("  - fetch_invoice\n", "  - fetch_invoices\n", 1);
    client.open(&skill, &original);
    client.change(&skill, 2, &renamed);
    let diagnostics = client.diagnostics(&skill, Some(2));
    assert!(diagnostics.iter().any(|d| d["code"] == "unknown-tool"), "{diagnostics:?}");
    let at = position(&renamed, "fetch_invoices", 0);
    let definition = client.request("textDocument/definition", doc(&skill, at.clone()));
    assert!(definition.is_null(), "a tool no one defines: {definition}");
    let completion = client.request("textDocument/completion", doc(&skill, at.clone()));
    assert!(completion["items"].as_array().is_some_and(|i| !i.is_empty()), "{completion}");
    let range = json!({ "start": at, "end": at });
    let context = json!({ "diagnostics": diagnostics });
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": skill }, "range": range, "context": context }),
    );
    assert!(actions.is_array(), "{actions}");
    let symbols = client.request("workspace/symbol", json!({ "query": "charge" }));
    assert!(symbols.as_array().is_some_and(|s| !s.is_empty()), "{symbols}");
    let links =
        client.request("textDocument/documentLink", json!({ "textDocument": { "uri": skill } }));
    assert!(links.is_array(), "{links}");
    let panics: Vec<&Value> =
        client.pending.iter().filter(|m| m["method"] == "window/showMessage").collect();
    assert!(panics.is_empty(), "{panics:?}");
    client.shutdown();
}

/// `agentc lsp` fed `input`, then `meanwhile` run, then its stdin closed
/// (unless `held_open`, until it exits or `PATIENCE` runs out): its exit
/// code and what it wrote on stderr.
fn run_raw(input: &[u8], held_open: bool, meanwhile: impl FnOnce(&Child)) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agentc"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agentc lsp starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    stdin.flush().unwrap();
    meanwhile(&child);
    let stdin = held_open.then_some(stdin);
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < PATIENCE, "agentc lsp still waits on its input");
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    (status.code(), stderr)
}

/// A `Content-Length` past 64 MiB is refused as soon as it is read, before
/// any of the body arrives; the server ends with an error (once a panic on
/// `capacity overflow`, an abort, or 4 GB committed).
#[test]
fn a_content_length_past_the_bound_ends_the_server_with_an_error() {
    for length in ["18446744073709551615", "100000000000", "4000000000"] {
        let (code, stderr) =
            run_raw(format!("Content-Length: {length}\r\n\r\n").as_bytes(), true, |_| {});
        assert_eq!(
            (code, stderr.as_str()),
            (
                Some(2),
                format!(
                    "error: refused a message of {length} bytes: the most accepted is 67108864 bytes (64 MiB)\n"
                )
                .as_str()
            )
        );
    }
}

/// What the kernel says `pid` holds in memory, in KiB.
#[cfg(target_os = "linux")]
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("a VmRSS line");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A length within the bound costs memory only as its bytes arrive: 64 MiB
/// declared and one byte sent leave the server small, and the input ending
/// there ends it with an error saying so.
#[cfg(target_os = "linux")]
#[test]
fn a_declared_length_is_not_allocated_ahead_of_its_bytes() {
    let (code, stderr) = run_raw(b"Content-Length: 67108864\r\n\r\n{", false, |child| {
        std::thread::sleep(Duration::from_millis(500));
        let kib = resident_kib(child.id());
        assert!(kib < 32 * 1024, "{kib} KiB resident, waiting for the body");
    });
    assert_eq!(
        (code, stderr.as_str()),
        (
            Some(2),
            "error: the input ended inside a message: 1 of the 67108864 bytes its `Content-Length` declares arrived\n"
        )
    );
}

/// LSP's ids are strings and 32-bit integers; a request with another id is
/// answered with an error carrying its id as written (`null` when there is
/// none to tell), and the session goes on.
#[test]
fn a_request_whose_id_is_outside_lsp_is_answered_with_an_error() {
    let (_dir, root) = common::example_project();
    let mut client = Client::start(&root);
    let range = "an LSP id is a string or an integer from -2147483648 to 2147483647";
    let cases = [
        (json!(4294967296_i64), json!(4294967296_i64), "is out of range"),
        (json!(1.5), json!(1.5), "is out of range"),
        (json!(-1099511627776_i64), json!(-1099511627776_i64), "is out of range"),
        (json!({ "n": 1 }), Value::Null, "is not an LSP id"),
    ];
    for (id, answered, why) in cases {
        client.send(
            json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {} }),
        );
        let reply = loop {
            let message = client.next();
            if message.get("method").is_none() {
                break message;
            }
            client.pending.push(message);
        };
        assert_eq!(
            reply,
            json!({
                "jsonrpc": "2.0",
                "id": answered,
                "error": { "code": -32600, "message": format!("the id {id} {why}: {range}") },
            })
        );
    }
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": url(&root.join("agents/skills/intake/SKILL.md")) } }),
    );
    assert_eq!(symbols[0]["name"], "name", "{symbols}");
    client.shutdown();
}

/// The language server reads the project as `agentc check` does, through the
/// same contained seam: a link out of the project is reported, never looked
/// through, and no name outside is suggested; an `agents` link out of the
/// workspace folder is not taken as the root.
#[cfg(unix)]
#[test]
fn the_server_looks_at_nothing_outside_the_project() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().canonicalize().unwrap();
    let (root, outside) = (top.join("project"), top.join("outside"));
    common::write(&outside.join("secret-token.txt"), "x");
    common::write(&outside.join("skills/leak/SKILL.md"), "---\nname: leak\n---\n");
    std::fs::create_dir_all(&root).unwrap();
    symlink(&outside, root.join("agents")).unwrap();
    let skill_path = root.join(".claude/skills/billing/SKILL.md");
    let text =
        "---\nname: billing\ndescription: Billing questions.\n---\nSee [x](out/secret-tokn.txt).\n";
    common::write(&skill_path, text);
    symlink(&outside, root.join(".claude/skills/billing/out")).unwrap();
    let mut client = Client::start(&root);
    let skill = url(&skill_path);
    client.open(&skill, text);
    let diagnostics = client.diagnostics(&skill, None);
    let messages: Vec<&str> = diagnostics.iter().filter_map(|d| d["message"].as_str()).collect();
    assert!(
        messages.iter().any(|m| m.starts_with(
            "the link `out/secret-tokn.txt` leads outside the project through the symbolic link `.claude/skills/billing/out`"
        )),
        "{messages:?}"
    );
    assert!(messages.iter().all(|m| !m.contains("did you mean")), "{messages:?}");
    let published: Vec<_> =
        client.pending.iter().filter_map(|m| m["params"]["uri"].as_str()).collect();
    assert!(published.iter().all(|uri| !uri.contains("leak")), "{published:?}");
    client.shutdown();
}

/// A token typed into a skill, where a route's target quotes it: the editor
/// is told of the secret, and no message, related note or code action it
/// receives holds the token.
#[test]
fn the_server_never_sends_a_secret() {
    let (_dir, root) = common::example_project();
    let mut client = Client::start(&root);
    let intake_path = root.join("agents/skills/intake/SKILL.md");
    let intake = url(&intake_path);
    let text = std::fs::read_to_string(&intake_path).unwrap();
    client.open(&intake, &text);
    // A fake of the format, put together here so no line of this file is one.
    let token = ["ghp_", "FAKEagentcLspTestN0tARealT0ken9x8y7z"].concat();
    let edited = text.replace("- classify-request:", &format!("- {token}:"));
    assert_ne!(edited, text);
    client.change(&intake, 2, &edited);
    let diagnostics = client.diagnostics(&intake, Some(2));
    let codes: Vec<&str> = diagnostics.iter().filter_map(|d| d["code"].as_str()).collect();
    assert!(codes.contains(&"secret"), "{diagnostics:?}");
    assert!(codes.contains(&"unknown-route-target"), "{diagnostics:?}");
    let mut sent = serde_json::to_string(&diagnostics).unwrap();
    for d in &diagnostics {
        let actions = client.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": intake }, "range": d["range"], "context": { "diagnostics": [d] } }),
        );
        sent.push_str(&actions.to_string());
    }
    assert!(!sent.contains(&token[4..]), "{sent}");
    client.shutdown();
}
