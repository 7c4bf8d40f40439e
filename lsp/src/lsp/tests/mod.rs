//! The server driven in-process, message by message, over projects held in
//! memory: the one the fuzzer serves ([`crate::fuzzing::lsp_project`]), the
//! bundled example, and small ones built here. The disk stays in the test's
//! hands ([`Disk`]), so a change on it can be made between messages.

use std::path::Path;

use crossbeam_channel::Receiver;
use serde_json::{Value, json};

use super::transport::{self, Outgoing};
use super::{Flow, Session};
use crate::fuzzing::Disk;
use agentc_compiler::memfs::MemFs;

mod actions;
mod agents;
mod inputs;
mod rename;

/// The bundled example (`examples/support-desk`) at the root.
fn example() -> MemFs {
    fn add(fs: &mut MemFs, path: &Path, rel: &str) {
        if path.is_dir() {
            for entry in std::fs::read_dir(path).unwrap() {
                let name = entry.unwrap().file_name().into_string().unwrap();
                let rel = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
                add(fs, &path.join(name), &rel);
            }
        } else {
            fs.insert(rel, std::fs::read(path).unwrap()).unwrap();
        }
    }
    let mut fs = MemFs::new();
    add(&mut fs, &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/support-desk"), "");
    fs
}

/// The `file://` URI of a path of the disk.
fn uri(path: &str) -> String {
    format!("file:///{path}")
}

/// The line and UTF-16 column of the `nth` `needle` in `text`.
fn position(text: &str, needle: &str, nth: usize) -> Value {
    let offset = text.match_indices(needle).nth(nth).expect("the needle is in the text").0;
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..offset].matches('\n').count();
    json!({ "line": line, "character": text[line_start..offset].encode_utf16().count() })
}

struct Client {
    session: Session<Disk>,
    disk: Disk,
    outgoing: Receiver<Outgoing>,
    next_id: i64,
}

impl Client {
    fn new() -> Client {
        Client::on(crate::fuzzing::lsp_project())
    }

    /// A client of a server reading `files`.
    fn on(files: MemFs) -> Client {
        let (outbox, outgoing) = crossbeam_channel::unbounded();
        let disk = Disk::new(files);
        Client { session: Session::new(disk.clone(), outbox), disk, outgoing, next_id: 0 }
    }

    /// Sends `message` through the reader, as a client frames it; what the
    /// server sent back, as JSON.
    fn send(&mut self, message: Value) -> (Flow, Vec<Value>) {
        let body = message.to_string();
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let incoming = transport::read(&mut framed.as_bytes()).unwrap().unwrap();
        let flow = self.session.handle(incoming).unwrap();
        self.session.refresh().unwrap();
        let sent = self.outgoing.try_iter().map(|message| {
            let mut written = Vec::new();
            transport::write(&mut written, &message).unwrap();
            let text = String::from_utf8(written).unwrap();
            serde_json::from_str(text.split_once("\r\n\r\n").unwrap().1).unwrap()
        });
        (flow, sent.collect())
    }

    /// The response to a request (notifications sent meanwhile dropped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let (_, sent) =
            self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let mut responses = sent.into_iter().filter(|m| m.get("method").is_none());
        let response = responses.next().expect("a response");
        assert_eq!(response["id"], id);
        assert_eq!(responses.next(), None);
        response
    }

    fn initialize(&mut self) -> Value {
        let folder = json!([{ "uri": "file:///", "name": "p" }]);
        let capabilities = json!({ "workspace": { "workspaceEdit": {
            "documentChanges": true, "resourceOperations": ["rename"] } } });
        let params = json!({ "processId": null, "rootUri": "file:///",
            "workspaceFolders": folder, "capabilities": capabilities });
        self.request("initialize", params)
    }
}

fn error(code: i64, message: &str) -> Value {
    json!({ "code": code, "message": message })
}

#[test]
fn requests_out_of_turn_get_the_errors_lsp_names() {
    let mut client = Client::new();
    let hover = json!({ "textDocument": { "uri": "file:///skills/a/SKILL.md" },
        "position": { "line": 0, "character": 0 } });
    let early = client.request("textDocument/hover", hover.clone());
    assert_eq!(early["error"], error(-32002, "`textDocument/hover` before `initialize`"));
    let bad = client.request("initialize", json!({ "capabilities": 1 }));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert_eq!(client.initialize()["result"]["serverInfo"]["name"], "agentc");
    let again = client.initialize();
    assert_eq!(again["error"], error(-32600, "the server is already initialized"));
    assert_eq!(
        client.request("shutdown", Value::Null),
        json!({ "jsonrpc": "2.0", "id": 5, "result": null })
    );
    let late = client.request("textDocument/hover", hover);
    assert_eq!(late["error"], error(-32600, "`textDocument/hover` after `shutdown`"));
    let (flow, sent) = client.send(json!({ "jsonrpc": "2.0", "method": "exit" }));
    assert_eq!((flow, sent), (Flow::Exit, vec![]));
}

#[test]
fn a_notification_with_bad_parameters_is_ignored_and_says_why() {
    let mut client = Client::new();
    client.initialize();
    let (flow, sent) =
        client.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {} }));
    assert_eq!((flow, sent), (Flow::Continue, vec![]));
    assert_eq!(
        client.session.complaints(),
        ["ignored `textDocument/didOpen`: bad parameters: missing field `textDocument`"]
    );
}

/// The editor's diagnostics are at the levels `[lints]` in `agentc.toml`
/// sets, as `agentc check`'s are: here a hidden character, a warning by
/// default, made an error, and an unknown model allowed.
#[test]
fn the_project_file_s_lint_levels_hold_in_the_editor() {
    let mut fs = MemFs::new();
    let subagent = "---\nname: r\ndescription: R.\nmodel: sonet\n---\nDo\u{200B} it.\n";
    fs.insert("repo/.git/HEAD", "".as_bytes()).unwrap();
    fs.insert("repo/.claude/agents/r.md", subagent.as_bytes()).unwrap();
    let found = |fs: &MemFs| -> Vec<(&'static str, &'static str)> {
        let compilation = super::compile_folder(fs, &fs.root().join("repo"), None);
        (compilation.diagnostics.iter()).map(|d| (d.code.as_str(), d.severity.as_str())).collect()
    };
    assert_eq!(found(&fs), [("bad-model", "error"), ("hidden-character", "warning")]);
    let project = "[lints]\nbad-model = \"allow\"\nhidden-character = \"deny\"\n";
    fs.insert("repo/agentc.toml", project.as_bytes()).unwrap();
    assert_eq!(found(&fs), [("hidden-character", "error")]);
}

/// `[[overrides]]` hold in the editor as in `agentc check`: a code allowed
/// for one folder is still reported in another.
#[test]
fn the_project_file_s_overrides_hold_in_the_editor() {
    let mut fs = MemFs::new();
    let subagent = "---\nname: r\ndescription: R.\nmodel: sonet\n---\nDo it.\n";
    fs.insert("repo/.git/HEAD", "".as_bytes()).unwrap();
    fs.insert("repo/.claude/agents/r.md", subagent.as_bytes()).unwrap();
    let old = subagent.replace("name: r", "name: old");
    fs.insert("repo/.claude/agents/old/old.md", old.as_bytes()).unwrap();
    let found = |fs: &MemFs| -> Vec<String> {
        let compilation = super::compile_folder(fs, &fs.root().join("repo"), None);
        (compilation.diagnostics.iter())
            .map(|d| format!("{} {}", d.location.file, d.code))
            .collect()
    };
    let both = [".claude/agents/old/old.md bad-model", ".claude/agents/r.md bad-model"];
    assert_eq!(found(&fs), both);
    let project =
        "[[overrides]]\npaths = [\".claude/agents/old\"]\nlints = { bad-model = \"allow\" }\n";
    fs.insert("repo/agentc.toml", project.as_bytes()).unwrap();
    assert_eq!(found(&fs), [".claude/agents/r.md bad-model"]);
}

/// A folder opened in the editor is compiled as `agentc check` compiles it
/// there: the repository it is in, from any folder in it, and not an
/// `agents/` that is a Python package.
#[test]
fn an_opened_folder_compiles_its_whole_repository() {
    let mut fs = MemFs::new();
    for (path, text) in [
        ("repo/.git/HEAD", ""),
        ("repo/agents/__init__.py", ""),
        ("repo/src/deep/main.py", ""),
        ("repo/.claude/agents/r.md", "---\nname: r\ndescription: R.\ntools: Raed\n---\nDo.\n"),
    ] {
        fs.insert(path, text.as_bytes()).unwrap();
    }
    for folder in ["repo", "repo/src/deep"] {
        let compilation = super::compile_folder(&fs, &fs.root().join(folder), None);
        let found: Vec<(String, &str)> = (compilation.diagnostics.iter())
            .map(|d| (d.location.file.path.to_string(), d.code.as_str()))
            .collect();
        assert_eq!(found, [(".claude/agents/r.md".to_owned(), "unknown-tool")], "{folder}");
    }
}

/// The diagnostics last published for `uri` among `sent`, if any were.
fn published(sent: &[Value], uri: &str) -> Option<Vec<Value>> {
    let mine = sent
        .iter()
        .rfind(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)?;
    mine["params"]["diagnostics"].as_array().cloned()
}

/// A broken link in a file a skill bundles is published on that file, and
/// follows the edits to it and to the skill: fixed, broken again, and gone
/// when the skill stops linking the file.
#[test]
fn a_bundled_file_s_broken_links_are_its_own() {
    let mut fs = MemFs::new();
    let skill =
        "---\nname: pdf\ndescription: Fill PDF forms.\n---\nRead [forms](references/forms.md).\n";
    fs.insert("skills/pdf/SKILL.md", skill).unwrap();
    fs.insert("skills/pdf/references/forms.md", "See [boxes](boxes.md).\n").unwrap();
    let mut client = Client::on(fs);
    let (skill_uri, forms) =
        ("file:///skills/pdf/SKILL.md", "file:///skills/pdf/references/forms.md");
    let folder = json!([{ "uri": "file:///", "name": "p" }]);
    let params = json!({ "processId": null, "rootUri": "file:///", "workspaceFolders": folder,
        "capabilities": {} });
    let (_, sent) =
        client.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params }));
    let found = published(&sent, forms).expect("published on the bundled file");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "broken-link");
    let range =
        json!({ "start": { "line": 0, "character": 12 }, "end": { "line": 0, "character": 20 } });
    assert_eq!(found[0]["range"], range);
    assert_eq!(published(&sent, skill_uri), None, "the skill itself is clean");

    let change = |uri: &str, version: i32, text: &str| {
        json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": { "uri": uri, "version": version },
            "contentChanges": [{ "text": text }] } })
    };
    let (_, sent) = client.send(change(forms, 2, "See [boxes](../SKILL.md).\n"));
    assert_eq!(published(&sent, forms), Some(vec![]), "fixed");
    let (_, sent) = client.send(change(forms, 3, "See [boxes](box.md).\n"));
    assert_eq!(published(&sent, forms).map(|d| d.len()), Some(1), "broken again");
    let (_, sent) = client.send(change(
        skill_uri,
        4,
        &skill.replace("[forms](references/forms.md)", "the forms"),
    ));
    assert_eq!(published(&sent, forms), Some(vec![]), "no longer the skill's");
}
