//! Every input of a compilation, changed in the editor or on the disk, is
//! checked again: the registry, the project file, tool manifests, subagents
//! and `.mcp.json` arriving and leaving. After each change, what the editor
//! shows is what compiling the files as they then are reports.

use std::collections::BTreeMap;

use super::*;
use crate::lsp::{compile_folder, convert};

impl Disk {
    fn files(&self) -> MemFs {
        self.0.read().unwrap().clone()
    }

    fn write(&self, path: &str, text: &str) {
        self.0.write().unwrap().insert(path, text).unwrap();
    }

    fn remove(&self, path: &str) {
        self.0.write().unwrap().remove(path);
    }
}

impl Client {
    /// Sends a notification; the diagnostics published after it, by URI.
    fn notify(&mut self, method: &str, params: Value) -> Vec<(String, Vec<Value>)> {
        let (_, sent) = self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
        published(&sent)
    }

    /// Initializes, which compiles the project: the diagnostics published.
    fn start(&mut self) -> Vec<(String, Vec<Value>)> {
        let params = json!({ "processId": null, "rootUri": "file:///", "capabilities": {} });
        let (_, sent) = self
            .send(json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params }));
        published(&sent)
    }

    /// Opens the disk's file `path` in the editor, at version 1.
    fn open(&mut self, path: &str) -> Vec<(String, Vec<Value>)> {
        let text = self.disk.text(path);
        let document =
            json!({ "uri": uri(path), "languageId": "yaml", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": document }))
    }

    /// Replaces an open document's text, as version `version`.
    fn change(&mut self, path: &str, version: i64, text: &str) -> Vec<(String, Vec<Value>)> {
        let document = json!({ "uri": uri(path), "version": version });
        let changes = json!([{ "text": text }]);
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": document, "contentChanges": changes }),
        )
    }

    /// Tells the server that files changed on the disk (1 made, 2 changed,
    /// 3 deleted).
    fn watched(&mut self, changes: &[(&str, u8)]) -> Vec<(String, Vec<Value>)> {
        let changes: Vec<Value> =
            changes.iter().map(|(path, kind)| json!({ "uri": uri(path), "type": kind })).collect();
        self.notify("workspace/didChangeWatchedFiles", json!({ "changes": changes }))
    }
}

/// The diagnostics published in `sent`, by URI (in URI order), as
/// `[code, severity]` of each.
fn published(sent: &[Value]) -> Vec<(String, Vec<Value>)> {
    let mut published: Vec<_> = sent
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .map(|m| {
            let diagnostics = m["params"]["diagnostics"].as_array().unwrap();
            let codes = diagnostics.iter().map(|d| json!([d["code"], d["severity"]])).collect();
            (m["params"]["uri"].as_str().unwrap().to_owned(), codes)
        })
        .collect();
    published.sort_by(|a, b| a.0.cmp(&b.0));
    published
}

/// What the editor shows: the last diagnostics published for each file.
#[derive(Default)]
struct Shown(BTreeMap<String, Vec<Value>>);

impl Shown {
    fn take(&mut self, published: Vec<(String, Vec<Value>)>) -> &Self {
        for (uri, diagnostics) in published {
            self.0.insert(uri, diagnostics);
        }
        self.0.retain(|_, diagnostics| !diagnostics.is_empty());
        self
    }

    /// The `[code, severity]` of the diagnostics shown.
    fn codes(&self) -> Vec<(&str, &Value)> {
        self.0.iter().flat_map(|(uri, ds)| ds.iter().map(move |d| (uri.as_str(), d))).collect()
    }
}

/// What compiling `fs` as `agentc check` does reports, by file, in the form
/// [`Shown`] keeps.
fn checked(fs: &MemFs) -> BTreeMap<String, Vec<Value>> {
    let compilation = compile_folder(fs, fs.root(), None);
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for d in &compilation.diagnostics {
        let shown = convert::diagnostic(&compilation, d, convert::Encoding::Utf16);
        let uri = convert::url(&compilation, &d.location.file).unwrap().to_string();
        out.entry(uri).or_default().push(json!([shown.code, shown.severity]));
    }
    out
}

/// `fs` with `path`'s text replaced, as an unsaved buffer shows it.
fn with(mut fs: MemFs, path: &str, text: &str) -> MemFs {
    fs.insert(path, text).unwrap();
    fs
}

const UNKNOWN_TOOL: (&str, i64) = ("unknown-tool", 1);

fn code(shown: &Value) -> (&str, i64) {
    (shown[0].as_str().unwrap(), shown[1].as_i64().unwrap())
}

/// Issue #26: deleting `- fetch_invoice` from the example's registry in the
/// editor published nothing; `agentc check` reports an unknown tool in
/// each file that uses it. Putting it back clears them.
#[test]
fn the_registry_edited_in_the_editor_is_checked_again() {
    let mut client = Client::on(example());
    let mut shown = Shown::default();
    assert!(shown.take(client.start()).0.is_empty(), "{:?}", shown.0);
    client.open("registry.yaml");
    let text = client.disk.text("registry.yaml");
    let without = text.replace("  - fetch_invoice\n", "");
    assert_ne!(without, text);
    shown.take(client.change("registry.yaml", 2, &without));
    assert_eq!(shown.0, checked(&with(client.disk.files(), "registry.yaml", &without)));
    let unknown: Vec<(&str, (&str, i64))> =
        shown.codes().into_iter().map(|(uri, d)| (uri, code(d))).collect();
    assert_eq!(
        unknown,
        [
            ("file:///agents/billing/AGENT.md", UNKNOWN_TOOL),
            ("file:///agents/billing/skills/charge-lookup/SKILL.md", UNKNOWN_TOOL),
        ]
    );
    shown.take(client.change("registry.yaml", 3, &text));
    assert!(shown.0.is_empty(), "{:?}", shown.0);
}

/// The same, written on the disk and announced by the client; and the
/// registry gone, which the project file's `registry` is then wrong about.
#[test]
fn the_registry_changed_on_disk_is_checked_again() {
    let mut client = Client::on(example());
    let mut shown = Shown::default();
    shown.take(client.start());
    let text = client.disk.text("registry.yaml");
    client.disk.write("registry.yaml", &text.replace("  - fetch_invoice\n", ""));
    shown.take(client.watched(&[("registry.yaml", 2)]));
    assert_eq!(shown.0, checked(&client.disk.files()));
    assert_eq!(shown.codes().len(), 2, "{:?}", shown.0);

    client.disk.remove("registry.yaml");
    shown.take(client.watched(&[("registry.yaml", 3)]));
    assert_eq!(shown.0, checked(&client.disk.files()));
    let codes: Vec<_> = shown.codes().into_iter().map(|(uri, d)| (uri, code(d))).collect();
    assert_eq!(codes, [("file:///agentc.toml", ("invalid-value", 1))]);

    client.disk.write("registry.yaml", &text);
    shown.take(client.watched(&[("registry.yaml", 1)]));
    assert!(shown.0.is_empty(), "{:?}", shown.0);
}

/// `[lints]` in `agentc.toml` set the levels the editor shows: a project
/// file that arrives, then one edited in the editor.
#[test]
fn lint_levels_follow_the_project_file() {
    let subagent = "---\nname: r\ndescription: R.\nmodel: sonet\n---\nDo\u{200B} it.\n";
    let mut files = MemFs::new();
    files.insert(".git/HEAD", "").unwrap();
    files.insert(".claude/agents/r.md", subagent).unwrap();
    let mut client = Client::on(files);
    let mut shown = Shown::default();
    let levels = |shown: &Shown| -> Vec<(String, i64)> {
        shown.codes().into_iter().map(|(_, d)| (code(d).0.to_owned(), code(d).1)).collect()
    };
    shown.take(client.start());
    assert_eq!(levels(&shown), [("bad-model".into(), 1), ("hidden-character".into(), 2)]);

    let project = "[lints]\nbad-model = \"allow\"\nhidden-character = \"deny\"\n";
    client.disk.write("agentc.toml", project);
    shown.take(client.watched(&[("agentc.toml", 1)]));
    assert_eq!(shown.0, checked(&client.disk.files()));
    assert_eq!(levels(&shown), [("hidden-character".into(), 1)]);

    client.open("agentc.toml");
    let edited = "[lints]\nhidden-character = \"allow\"\n";
    shown.take(client.change("agentc.toml", 2, edited));
    assert_eq!(shown.0, checked(&with(client.disk.files(), "agentc.toml", edited)));
    assert_eq!(levels(&shown), [("bad-model".into(), 1)]);

    // `[[overrides]]` for the subagent's path win over `[lints]` there.
    let edited = "[lints]\nhidden-character = \"allow\"\n\n[[overrides]]\n\
                  paths = [\".claude/agents/*.md\"]\n\
                  lints = { bad-model = \"allow\", hidden-character = \"deny\" }\n";
    shown.take(client.change("agentc.toml", 3, edited));
    assert_eq!(shown.0, checked(&with(client.disk.files(), "agentc.toml", edited)));
    assert_eq!(levels(&shown), [("hidden-character".into(), 1)]);

    // Tables for other paths leave the levels of `[lints]`, and their
    // globs, which match nothing, are shown in the project file.
    let edited = edited.replace(".claude/agents/*.md", "docs/**");
    shown.take(client.change("agentc.toml", 4, &edited));
    assert_eq!(shown.0, checked(&with(client.disk.files(), "agentc.toml", &edited)));
    let codes: Vec<_> = shown.codes().into_iter().map(|(uri, d)| (uri, code(d))).collect();
    assert_eq!(
        codes,
        [
            ("file:///.claude/agents/r.md", ("bad-model", 1)),
            ("file:///agentc.toml", ("unmatched-glob", 2))
        ]
    );
}

/// Files arriving where discovery looks and leaving again: a descriptor
/// for the tool the registry no longer declares, a subagent in a `.claude/`
/// that was not there, a broken `.mcp.json`. Each is announced alone, as a
/// client watching files announces them.
#[test]
fn files_arriving_and_leaving_are_checked() {
    let mut files = example();
    let registry = String::from_utf8(files.get("registry.yaml").unwrap().to_vec()).unwrap();
    files.insert("registry.yaml", registry.replace("  - fetch_invoice\n", "")).unwrap();
    let mut client = Client::on(files);
    let mut shown = Shown::default();
    shown.take(client.start());
    assert_eq!(shown.codes().len(), 2, "{:?}", shown.0);

    let manifest = "agents/tools/fetch_invoice/manifest.json";
    client.disk.write(manifest, r#"{"name": "fetch_invoice", "description": "An invoice."}"#);
    shown.take(client.watched(&[(manifest, 1)]));
    assert!(shown.0.is_empty(), "{:?}", shown.0);

    let subagent = ".claude/agents/helper.md";
    client
        .disk
        .write(subagent, "---\nname: helper\ndescription: Helps.\nmodel: sonet\n---\nHelp.\n");
    shown.take(client.watched(&[(subagent, 1)]));
    assert_eq!(shown.0, checked(&client.disk.files()));
    assert_eq!(shown.codes(), [("file:///.claude/agents/helper.md", &json!(["bad-model", 1]))]);

    client.disk.write(".mcp.json", "{\"mcpServers\": ");
    shown.take(client.watched(&[(".mcp.json", 1)]));
    assert_eq!(shown.0, checked(&client.disk.files()));
    assert!(shown.0.contains_key("file:///.mcp.json"), "{:?}", shown.0);

    for path in [subagent, ".mcp.json", manifest] {
        client.disk.remove(path);
        shown.take(client.watched(&[(path, 3)]));
        assert_eq!(shown.0, checked(&client.disk.files()), "{path} removed");
    }
    assert_eq!(shown.codes().len(), 2, "{:?}", shown.0);
}

impl Client {
    /// Saves an open document: its text written to the disk, then the
    /// editor's notice (the disk watcher's, of a file written in place, is
    /// the same: the file's text was edited).
    fn save(&mut self, path: &str, text: &str) -> Vec<(String, Vec<Value>)> {
        self.disk.write(path, text);
        self.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri(path) } }))
    }

    /// The messages the server showed the user (`window/showMessage`).
    fn shown_messages(sent: &[Value]) -> Vec<(i64, String)> {
        (sent.iter().filter(|m| m["method"] == "window/showMessage"))
            .map(|m| {
                let params = &m["params"];
                (params["type"].as_i64().unwrap(), params["message"].as_str().unwrap().to_owned())
            })
            .collect()
    }
}

/// The example with a Claude Code subagent and two Copilot agents, one
/// handing off to the other by `name`.
fn example_with_assistants() -> MemFs {
    let mut fs = example();
    let subagent = "---\nname: desk-helper\ndescription: Answers questions at the desk.\n\
        skills:\n  - intake\n---\nHelp the customer.\n";
    let triage = "---\nname: triage\ndescription: Sorts what comes in.\nhandoffs:\n\
        \x20 - label: Review\n    agent: review\n    prompt: Review the ticket.\n---\nSort it.\n";
    let review = "---\nname: review\ndescription: Reviews a sorted ticket.\n---\nReview it.\n";
    fs.insert(".claude/agents/desk-helper.md", subagent).unwrap();
    fs.insert(".github/agents/triage.agent.md", triage).unwrap();
    fs.insert(".github/agents/review.agent.md", review).unwrap();
    fs
}

/// Issue #36: a registry tool a skill uses deleted and restored in the
/// editor, each edit saved, then the tool renamed in the skill's `tools:`.
/// The save updated a copy of the compilation with the registry's text
/// unchanged, which kept an empty model and no references; the skill's
/// edit then panicked. Every step now shows what `agentc check` reports,
/// nothing panics, and requests are answered.
#[test]
fn a_registry_edit_saved_then_a_skill_edit_is_checked_again() {
    let mut client = Client::on(example_with_assistants());
    let mut shown = Shown::default();
    let mut sent = Vec::new();
    assert!(shown.take(client.start()).0.is_empty(), "{:?}", shown.0);
    client.open("registry.yaml");
    let original = client.disk.text("registry.yaml");
    let without = original.replace("  - fetch_invoice\n", "");
    for (version, text) in [(2, &without), (3, &original)] {
        let (_, out) = client.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": { "textDocument": { "uri": uri("registry.yaml"), "version": version },
                "contentChanges": [{ "text": text }] } }));
        shown.take(published(&out));
        sent.extend(out);
        shown.take(client.save("registry.yaml", text));
        assert_eq!(shown.0, checked(&client.disk.files()), "registry at version {version}");
    }
    let skill = "agents/billing/skills/charge-lookup/SKILL.md";
    client.open(skill);
    let renamed =
        client.disk.text(skill).replacen("  - fetch_invoice\n", "  - fetch_invoices\n", 1);
    let (_, out) = client.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": { "textDocument": { "uri": uri(skill), "version": 2 },
            "contentChanges": [{ "text": renamed }] } }));
    shown.take(published(&out));
    sent.extend(out);
    assert_eq!(shown.0, checked(&with(client.disk.files(), skill, &renamed)));
    assert!(shown.codes().iter().any(|(_, d)| code(d) == UNKNOWN_TOOL), "{:?}", shown.0);
    assert_eq!(Client::shown_messages(&sent), []);
    let symbols = client.request("workspace/symbol", json!({ "query": "charge" }));
    assert!(symbols["result"].as_array().is_some_and(|s| !s.is_empty()), "{symbols}");
}

/// A panic on the compile thread is told to the user once, as an error,
/// and the project is compiled again from scratch: requests are answered,
/// from what `agentc check` reports.
#[test]
fn a_panic_on_the_compile_thread_is_reported_and_recovered_from() {
    let mut client = Client::on(example_with_assistants());
    let mut shown = Shown::default();
    assert!(shown.take(client.start()).0.is_empty(), "{:?}", shown.0);
    client.open("registry.yaml");
    let (finished_to, finished) = crossbeam_channel::unbounded();
    let server = client.session.server().unwrap();
    server.compiles = Some((finished_to, finished.clone()));
    server.panic_next = true;
    let without = client.disk.text("registry.yaml").replace("  - fetch_invoice\n", "");
    shown.take(client.change("registry.yaml", 2, &without));
    let done = finished.recv_timeout(std::time::Duration::from_secs(120)).unwrap();
    assert!(done.panicked.is_some() && done.compiled.is_some());
    client.session.server().unwrap().compiled(done).unwrap();
    let sent: Vec<Value> = (client.outgoing.try_iter())
        .map(|message| {
            let mut written = Vec::new();
            transport::write(&mut written, &message).unwrap();
            let text = String::from_utf8(written).unwrap();
            serde_json::from_str(text.split_once("\r\n\r\n").unwrap().1).unwrap()
        })
        .collect();
    let messages = Client::shown_messages(&sent);
    assert_eq!(messages.len(), 1, "{messages:?}");
    let (kind, message) = &messages[0];
    assert_eq!(*kind, 1, "an error");
    assert!(
        message.starts_with("agentc: compiling / after a change panicked (a panic the test injected); it was compiled again from scratch."),
        "{message}"
    );
    shown.take(published(&sent));
    assert_eq!(shown.0, checked(&with(client.disk.files(), "registry.yaml", &without)));
    assert!(!shown.0.is_empty());
    let symbols = client.request("workspace/symbol", json!({ "query": "charge" }));
    assert!(symbols["result"].as_array().is_some_and(|s| !s.is_empty()), "{symbols}");
    // Once: the next edit is an update as any other.
    let (_, out) = client.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": { "textDocument": { "uri": uri("registry.yaml"), "version": 3 },
            "contentChanges": [{ "text": client.disk.text("registry.yaml") }] } }));
    let done = finished.recv_timeout(std::time::Duration::from_secs(120)).unwrap();
    assert!(done.panicked.is_none());
    client.session.server().unwrap().compiled(done).unwrap();
    assert_eq!(Client::shown_messages(&out), []);
}
