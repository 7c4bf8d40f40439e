//! A client of `agentc lsp` over stdio, as an editor drives it: start,
//! initialize, open, change, request, wait for diagnostics, shut down.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// How long any answer may take before the test fails (instead of hanging).
pub const PATIENCE: Duration = Duration::from_secs(60);

pub struct Client {
    pub child: Child,
    pub stdin: ChildStdin,
    pub incoming: Receiver<Value>,
    /// Notifications that arrived while waiting for something else.
    pub pending: Vec<Value>,
    pub next_id: i64,
    /// What the server said it can do.
    pub capabilities: Value,
}

impl Client {
    pub fn start(root: &Path) -> Client {
        Client::start_in(&[root])
    }

    /// Starts a server on a workspace of `folders`, the first its root.
    pub fn start_in(folders: &[&Path]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agentc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("agentc lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                stdout.read_exact(&mut body).unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            incoming,
            pending: Vec::new(),
            next_id: 0,
            capabilities: Value::Null,
        };
        let uri = url(folders[0]);
        let named = |folder: &&Path| {
            let name = folder.file_name().unwrap().to_string_lossy();
            json!({ "uri": url(folder), "name": name })
        };
        let init = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri,
                "workspaceFolders": folders.iter().map(named).collect::<Vec<_>>(),
                "capabilities": {
                    "general": { "positionEncodings": ["utf-16"] },
                    "window": { "workDoneProgress": true },
                    "workspace": { "workspaceEdit": {
                        "documentChanges": true, "resourceOperations": ["rename"] } },
                },
            }),
        );
        let caps = &init["capabilities"];
        assert_eq!(caps["positionEncoding"], "utf-16");
        for provider in ["hoverProvider", "definitionProvider", "referencesProvider"] {
            assert_eq!(caps[provider], true, "{provider}");
        }
        assert_eq!(caps["renameProvider"]["prepareProvider"], true);
        assert_eq!(init["serverInfo"]["name"], "agentc");
        client.capabilities = caps.clone();
        client.notify("initialized", json!({}));
        client
    }

    pub fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Opens a Markdown document at version 1.
    pub fn open(&mut self, uri: &str, text: &str) {
        let document = json!({ "uri": uri, "languageId": "markdown", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": document }));
    }

    /// Replaces a document's whole text, as version `version`.
    pub fn change(&mut self, uri: &str, version: i64, text: &str) {
        let document = json!({ "uri": uri, "version": version });
        let changes = json!([{ "text": text }]);
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": document, "contentChanges": changes }),
        );
    }

    pub fn next(&mut self) -> Value {
        self.incoming.recv_timeout(PATIENCE).expect("the server answers in time")
    }

    /// Sends a request and returns its result, keeping notifications.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.next();
            if message["id"] == id && message.get("method").is_none() {
                assert!(message.get("error").is_none(), "{method}: {message}");
                return message["result"].clone();
            }
            self.pending.push(message);
        }
    }

    /// The diagnostics published for `uri` after the edit that made
    /// `version` of the document open in the editor (any, for another file).
    pub fn diagnostics(&mut self, uri: &str, version: Option<i64>) -> Vec<Value> {
        let published = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && version.is_none_or(|v| m["params"]["version"] == v)
        };
        if let Some(i) = self.pending.iter().position(published) {
            let message = self.pending.remove(i);
            return message["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let message = self.next();
            if published(&message) {
                return message["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.pending.push(message);
        }
    }

    /// The first diagnostics published for `uri` that `settled` accepts. A
    /// file written on disk is truncated, then filled: the server may read it
    /// in between and publish for the empty file before the full one.
    pub fn diagnostics_once(
        &mut self,
        uri: &str,
        settled: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        loop {
            let diagnostics = self.diagnostics(uri, None);
            if settled(&diagnostics) {
                return diagnostics;
            }
        }
    }

    pub fn shutdown(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "agentc lsp exits cleanly: {status}");
    }
}

impl Drop for Client {
    /// A failed test must not leave the server running.
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

pub fn url(path: &Path) -> String {
    format!("file://{}", path.display())
}

pub fn position(text: &str, needle: &str, nth: usize) -> Value {
    let offset = text.match_indices(needle).nth(nth).expect("the needle is in the text").0;
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": column })
}

pub fn doc(uri: &str, at: Value) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": at })
}
