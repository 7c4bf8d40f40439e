//! The body of the `lsp` fuzz target in `fuzz/`, beside the language server
//! it drives; the other targets' bodies are `agentc_compiler::fuzzing`'s.
//!
//! It lives in the library so that a stable test replays every seed and every
//! regression input through exactly the code the fuzzer ran.

use agentc_compiler::fuzzing::Target;
use agentc_compiler::memfs::MemFs;

/// Every target of this crate, by the name `fuzz/fuzz_targets/` gives it.
pub const TARGETS: &[(&str, Target)] = &[("lsp", lsp)];

/// The language server's message loop, against a small project in memory
/// ([`lsp_project`]): the bytes as the stream a client writes, then each
/// line of them as one message's body, framed here so that the fuzzer
/// reaches the handlers without counting bytes. Each is a fresh session.
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
/// forwards. Returns a response's id.
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
