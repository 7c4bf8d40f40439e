//! The body of the `lsp` fuzz target in `fuzz/`, beside the language server
//! it drives; the other targets' bodies are `agentc_compiler::fuzzing`'s.
//!
//! It lives in the library so that a stable test replays every seed and every
//! regression input through exactly the code the fuzzer ran.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use agentc_compiler::fs::{EntryKind, Fs, ReadOutcome};
use agentc_compiler::fuzzing::Target;
use agentc_compiler::memfs::MemFs;
use agentc_compiler::overlay::Overlay;
use serde_json::{Value, json};

/// Every target of this crate, by the name `fuzz/fuzz_targets/` gives it.
pub const TARGETS: &[(&str, Target)] = &[("lsp", lsp)];

/// The language server's message loop, against a small project in memory
/// ([`lsp_project`]): the bytes as the stream a client writes, then each
/// line of them as one message's body, framed here so that the fuzzer
/// reaches the handlers without counting bytes; then as a sequence of an
/// editor's steps ([`edit_session`]). Each is a fresh session.
/// Every request, and every unreadable message JSON-RPC answers, gets one
/// well-formed response, in order, with its id; nothing else is sent but
/// well-formed notifications.
pub fn lsp(data: &[u8]) {
    lsp_session(data);
    let mut framed = Vec::new();
    for line in data.split(|&b| b == b'\n') {
        framed.extend_from_slice(format!("Content-Length: {}\r\n\r\n", line.len()).as_bytes());
        framed.extend_from_slice(line);
    }
    lsp_session(&framed);
    edit_session(data);
}

/// Files in memory that change while a server reads them: the fuzzer's
/// and the tests' disk.
#[derive(Clone, Default)]
pub struct Disk(pub Arc<RwLock<MemFs>>);

impl Disk {
    pub fn new(fs: MemFs) -> Disk {
        Disk(Arc::new(RwLock::new(fs)))
    }

    /// The text of `path`, which is there and UTF-8.
    pub fn text(&self, path: &str) -> String {
        let fs = self.0.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        String::from_utf8(fs.get(path).expect("the file is there").to_vec()).expect("UTF-8")
    }

    fn fs(&self) -> std::sync::RwLockReadGuard<'_, MemFs> {
        self.0.read().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Fs for Disk {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        self.fs().read_dir(path)
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        self.fs().kind(path)
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        self.fs().kind_followed(path)
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        self.fs().canonicalize(path)
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        self.fs().read_link(path)
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        self.fs().read(path, max)
    }
}

/// The files [`edit_session`] edits, in [`lsp_update_project`].
const EDITED: &[&str] = &[
    "registry.yaml",
    "agentc.toml",
    "agents/skills/a/SKILL.md",
    "agents/skills/b/SKILL.md",
    "agents/desk/AGENT.md",
    "agents/desk/skills/d/SKILL.md",
    "agents/tools/t/manifest.json",
    ".claude/agents/helper.md",
    ".github/agents/triage.agent.md",
    ".github/agents/review.agent.md",
];

/// What an edit inserts: the names the project defines and uses, and the
/// YAML, TOML and JSON they are written in.
const PIECES: &[&str] = &[
    "t",
    "mail",
    "a",
    "b",
    "c",
    "d",
    "review",
    "triage",
    "\n",
    " ",
    "-",
    ":",
    "[",
    "]",
    "\n  - ",
    "\n  - mail",
    "\n  - t",
    "name: ",
    "tools:",
    "skills:",
    "---\n",
    "\"",
    "#",
    "=",
    "allow",
    "unknown-tool = \"allow\"\n",
    "[lints]\n",
    "\u{200B}",
];

/// The names a rename replaces one with another, written as a list item,
/// a `name:` or a handoff's `agent:` are.
const NAMES: &[&str] = &["t", "mail", "a", "b", "c", "d", "review", "triage", "helper", "zz"];

/// An editor's session over [`lsp_update_project`], the bytes as steps of
/// four (what, which file, which piece or name, where): an edit of a
/// document's text (an insertion, a deletion, a rename of a name), a save,
/// a write on the disk with the watcher's notice, a close, the original
/// text back, a request. After each, what the server has compiled equals a
/// cold compile of the files as the editor shows them, nothing panics, and
/// every request is answered.
pub fn edit_session(data: &[u8]) {
    use crate::lsp::Session;
    use crate::lsp::transport::Incoming;
    use lsp_server::Message;

    let disk = Disk::new(lsp_update_project());
    let original = |file: &str| disk.text(file);
    let originals: Vec<String> = EDITED.iter().map(|f| original(f)).collect();
    let (outbox, outgoing) = crossbeam_channel::unbounded();
    let mut session = Session::new(disk.clone(), outbox);
    let mut buffers: HashMap<PathBuf, Arc<str>> = HashMap::new();
    let mut versions: HashMap<usize, i32> = HashMap::new();
    let mut id = 0;
    let send = |session: &mut Session<Disk>, message: Value| {
        let message: Message = serde_json::from_value(message).expect("a message");
        let request = matches!(message, Message::Request(_));
        session.handle(Incoming::Message(message)).expect("the outbox is open");
        session.refresh().expect("the outbox is open");
        let answered = outgoing.try_iter().filter_map(|m| well_formed(&m)).count();
        assert_eq!(answered, usize::from(request), "a request gets one response");
    };
    id += 1;
    let params = json!({ "processId": null, "rootUri": "file:///", "capabilities": {} });
    send(
        &mut session,
        json!({ "jsonrpc": "2.0", "id": id, "method": "initialize", "params": params }),
    );
    for step in data.chunks_exact(4) {
        let (what, which, piece, at) = (step[0] % 8, usize::from(step[1]), step[2], step[3]);
        let file = which % EDITED.len();
        let path = EDITED[file];
        let uri = format!("file:///{path}");
        let on_disk = PathBuf::from(format!("/{path}"));
        let shown = buffers.get(&on_disk).map_or_else(|| disk.text(path), |t| t.to_string());
        let edited = match what {
            0 => Some(insert(&shown, PIECES[usize::from(piece) % PIECES.len()], at)),
            1 => Some(delete(&shown, usize::from(piece % 16) + 1, at)),
            2 => Some(rename(
                &shown,
                NAMES[usize::from(at) % NAMES.len()],
                NAMES[usize::from(piece) % NAMES.len()],
            )),
            6 => Some(originals[file].clone()),
            _ => None,
        };
        match (what, edited) {
            (_, Some(text)) => {
                let version = versions.entry(file).or_insert(0);
                *version += 1;
                if buffers.insert(on_disk, Arc::from(text.as_str())).is_none() {
                    let document = json!({ "uri": uri, "languageId": "markdown", "version": *version, "text": text });
                    send(
                        &mut session,
                        json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": document } }),
                    );
                } else {
                    let params = json!({ "textDocument": { "uri": uri, "version": *version }, "contentChanges": [{ "text": text }] });
                    send(
                        &mut session,
                        json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": params }),
                    );
                }
            }
            (3, None) => {
                if let Some(text) = buffers.get(&on_disk) {
                    write(&disk, path, text);
                    send(
                        &mut session,
                        json!({ "jsonrpc": "2.0", "method": "textDocument/didSave", "params": { "textDocument": { "uri": uri } } }),
                    );
                }
            }
            (4, None) => {
                write(
                    &disk,
                    path,
                    &insert(&disk.text(path), PIECES[usize::from(piece) % PIECES.len()], at),
                );
                let changes = json!([{ "uri": uri, "type": 2 }]);
                send(
                    &mut session,
                    json!({ "jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles", "params": { "changes": changes } }),
                );
            }
            (5, None) => {
                if buffers.remove(&on_disk).is_some() {
                    send(
                        &mut session,
                        json!({ "jsonrpc": "2.0", "method": "textDocument/didClose", "params": { "textDocument": { "uri": uri } } }),
                    );
                }
            }
            _ => {
                id += 1;
                let lines = shown.lines().count().max(1);
                let position = json!({ "line": usize::from(at) % lines, "character": piece % 16 });
                let document = json!({ "uri": uri });
                let (method, params) = match piece % 4 {
                    0 => (
                        "workspace/symbol",
                        json!({ "query": NAMES[usize::from(at) % NAMES.len()] }),
                    ),
                    1 => (
                        "textDocument/definition",
                        json!({ "textDocument": document, "position": position }),
                    ),
                    2 => (
                        "textDocument/completion",
                        json!({ "textDocument": document, "position": position }),
                    ),
                    _ => ("textDocument/documentLink", json!({ "textDocument": document })),
                };
                send(
                    &mut session,
                    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }),
                );
            }
        }
        let fs = disk.fs();
        let cold = crate::lsp::compile_folder(
            &Overlay { base: &*fs, buffers: &buffers },
            Path::new("/"),
            None,
        );
        let compiled = session.diagnostics();
        assert_eq!(compiled, [Some(cold.diagnostics)], "after step {step:?} on {path}");
    }
}

/// `text` with `piece` inserted at the character boundary nearest `at`
/// 256ths of the way in.
fn insert(text: &str, piece: &str, at: u8) -> String {
    let mut text = text.to_owned();
    text.insert_str(boundary(&text, at), piece);
    text
}

/// `text` without up to `count` characters from the boundary nearest `at`
/// 256ths of the way in.
fn delete(text: &str, count: usize, at: u8) -> String {
    let start = boundary(text, at);
    let end = text[start..].char_indices().nth(count).map_or(text.len(), |(i, _)| start + i);
    format!("{}{}", &text[..start], &text[end..])
}

/// `text` with the first `from` written as a list item, a `name:` or a
/// handoff's `agent:` (a value at the end of a line) written `to`.
fn rename(text: &str, from: &str, to: &str) -> String {
    text.replacen(&format!(" {from}\n"), &format!(" {to}\n"), 1)
}

fn boundary(text: &str, at: u8) -> usize {
    let mut i = text.len() * usize::from(at) / 256;
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

fn write(disk: &Disk, path: &str, text: &str) {
    let mut fs = disk.0.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    // Literal, valid paths: `insert` refuses none of them.
    let _ = fs.insert(path, text);
}

fn lsp_session(mut stream: &[u8]) {
    use crate::lsp::transport::{self, Incoming};
    use crate::lsp::{Flow, Session};
    use lsp_server::Message;

    let (outbox, outgoing) = crossbeam_channel::unbounded();
    let mut session = Session::new(lsp_project(), outbox);
    let (mut expected, mut answered) = (Vec::new(), Vec::new());
    // A broken frame ends the session, as it ends `agentc lsp`.
    while let Ok(Some(incoming)) = transport::read(&mut stream) {
        match &incoming {
            Incoming::Message(Message::Request(request)) => {
                expected.push(serde_json::json!(request.id))
            }
            Incoming::Invalid { reply: Some(reply), .. } => expected.push(reply["id"].clone()),
            _ => {}
        }
        // The session's outbox is open while `outgoing` is held.
        let flow = session.handle(incoming).and_then(|flow| session.refresh().map(|()| flow));
        answered.extend(outgoing.try_iter().filter_map(|message| well_formed(&message)));
        assert!(session.complaints().iter().all(|c| !c.is_empty()), "a complaint says why");
        if !matches!(flow, Ok(Flow::Continue)) {
            break;
        }
    }
    assert_eq!(answered, expected, "responses, by id, against the requests");
}

/// A message as sent: framed with its length, a JSON-RPC 2.0 response (one
/// of `result` and `error`) or notification; diagnostics' ranges run
/// forwards; no panic is told of. Returns a response's id.
fn well_formed(message: &crate::lsp::transport::Outgoing) -> Option<serde_json::Value> {
    let mut written = Vec::new();
    crate::lsp::transport::write(&mut written, message).expect("writing to memory");
    let text = String::from_utf8(written).expect("a message is UTF-8");
    let (header, body) = text.split_once("\r\n\r\n").expect("a header");
    assert_eq!(header, format!("Content-Length: {}", body.len()));
    let value: serde_json::Value = serde_json::from_str(body).expect("a message is JSON");
    assert_eq!(value["jsonrpc"], "2.0", "{value}");
    let Some(id) = value.get("id") else {
        let method =
            value["method"].as_str().unwrap_or_else(|| panic!("not a notification: {value}"));
        // The server catches a panic and goes on, and tells the user: a bug.
        let message = value["params"]["message"].as_str().unwrap_or_default();
        assert!(!message.contains("panicked"), "{message}");
        if method == "textDocument/publishDiagnostics" {
            let diagnostics = value["params"]["diagnostics"].as_array();
            for d in diagnostics.unwrap_or_else(|| panic!("{value}")) {
                let at = |end: &str| {
                    (d["range"][end]["line"].as_u64(), d["range"][end]["character"].as_u64())
                };
                assert!(at("start").0.is_some() && at("start") <= at("end"), "{d}");
            }
        }
        return None;
    };
    assert!(value.get("method").is_none(), "the server sends no requests: {value}");
    match (value.get("result"), value.get("error")) {
        (Some(_), None) => {}
        (None, Some(error)) => {
            assert!(error["code"].is_i64() && error["message"].is_string(), "{value}");
            // A panic answering the request, caught: a bug.
            assert!(!error["message"].as_str().unwrap_or_default().contains("panicked"), "{value}");
        }
        _ => panic!("a response has one of `result` and `error`: {value}"),
    }
    Some(id.clone())
}

/// What an [`lsp`] session serves, as the workspace folder `file:///`: a
/// tool, an agent with a private skill, and skills routing with and without
/// guards.
pub fn lsp_project() -> MemFs {
    let mut fs = MemFs::new();
    let files = [
        ("tools/t/manifest.json", r#"{"name": "t", "description": "Look it up."}"#),
        (
            "skills/a/SKILL.md",
            "---\nname: a\ndescription: A.\ntools: [t]\nsteps:\n  - t: find it\nroutes:\n  - b: on t status=success\n  - c\n---\nA.\n",
        ),
        ("skills/b/SKILL.md", "---\nname: b\ndescription: B.\nroutes: [c]\n---\nB.\n"),
        ("skills/c/SKILL.md", "---\nname: c\ndescription: C.\n---\nC.\n"),
        (
            "desk/AGENT.md",
            "---\ndescription: Desk.\ntools:\n  - t\nskills:\n  - agent__desk__d\n  - a\nstart: d\n---\nDesk.\n",
        ),
        ("desk/skills/d/SKILL.md", "---\nname: d\ndescription: D.\nroutes:\n  - a\n---\nD.\n"),
    ];
    for (path, text) in files {
        // Literal, valid paths: `insert` refuses none of them.
        let _ = fs.insert(path, text);
    }
    fs
}

/// What an [`edit_session`] edits: [`lsp_project`]'s files under `agents/`
/// with an `agentc.toml`, a registry declaring a tool a skill uses, a
/// Claude Code subagent loading a skill, and two Copilot agents, one
/// handing off to the other by `name`.
pub fn lsp_update_project() -> MemFs {
    let project = lsp_project();
    let mut fs = MemFs::new();
    for (path, text) in project.files() {
        let _ = fs.insert(&format!("agents/{path}"), text);
    }
    let b = "---\nname: b\ndescription: B.\ntools:\n  - mail\nroutes: [c]\n---\nB.\n";
    let files = [
        ("agents/skills/b/SKILL.md", b),
        ("agentc.toml", "root = \"agents\"\nworkspace = \".\"\nregistry = \"registry.yaml\"\n"),
        ("registry.yaml", "tools:\n  - mail\nmodels: []\ncontext: []\n"),
        (
            ".claude/agents/helper.md",
            "---\nname: helper\ndescription: Helps.\nskills:\n  - a\n---\nHelp.\n",
        ),
        (
            ".github/agents/triage.agent.md",
            "---\nname: triage\ndescription: Sorts.\nhandoffs:\n  - label: Review\n    agent: review\n    prompt: Review it.\n---\nSort.\n",
        ),
        (
            ".github/agents/review.agent.md",
            "---\nname: review\ndescription: Reviews.\n---\nReview.\n",
        ),
    ];
    for (path, text) in files {
        let _ = fs.insert(path, text);
    }
    fs
}
