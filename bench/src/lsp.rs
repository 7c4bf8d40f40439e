//! `agentc-bench lsp`: replays a recorded sequence of edits through `agentc
//! lsp` over stdio, as an editor sends them, on a generated project; times
//! each keystroke until the edited document's diagnostics are published, and
//! after each edit checks that everything the server has published equals a
//! cold compile of the same files.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use agentc_bench::{Spec, generate};
use agentc_compiler::fs::RealFs;
use agentc_compiler::overlay::Overlay;
use agentc_compiler::{Compilation, compile, project_file};
use serde_json::{Value, json};

pub struct Args {
    pub agentc: PathBuf,
    pub skills: usize,
    /// Claude Code skills, subagents and Copilot agents, this many of each.
    pub wild: usize,
    pub verify_every: usize,
    pub work: Option<PathBuf>,
}

/// A diagnostic as both sides can say it: file, 0-based line and column of
/// its start, code, and message with its help.
type Key = (PathBuf, u64, u64, String, String);

/// The keystrokes replayed in one file.
struct Scenario {
    what: &'static str,
    file: PathBuf,
    original: String,
    edits: Vec<String>,
}

/// What one scenario measured.
struct Measured {
    what: &'static str,
    latencies: Vec<Duration>,
}

pub fn run(args: Args) -> std::io::Result<()> {
    let agentc = super::agentc_binary(&args.agentc)?;
    let temp;
    let dir = match &args.work {
        Some(dir) => dir.clone(),
        None => {
            temp = super::TempDir::new()?;
            temp.0.clone()
        }
    };
    let _ = std::fs::remove_dir_all(dir.join("agents"));
    let spec = Spec {
        skills: args.skills,
        registry_tools: args.skills / 2,
        near: 0.0,
        far: 0.0,
        wild: args.wild,
        seed: 1,
    };
    let stats = generate(&dir, &spec)?;
    let dir = dir.canonicalize()?;
    let project_file = dir.join("agentc.toml");
    let scenarios = scenarios(&dir, args.wild > 0)?;

    let mut server = Server::start(&agentc, &dir)?;
    let started = Instant::now();
    let first = url(&scenarios[0].file);
    // Answered once the first compile is done.
    server.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": first } }))?;
    let cold_open = started.elapsed();
    let first_progress = server.progress;

    let mut buffers: HashMap<PathBuf, Arc<str>> = HashMap::new();
    let mut measured = Vec::new();
    let mut verified = 0;
    let mut checked = 0;
    for scenario in &scenarios {
        let uri = url(&scenario.file);
        let language = if scenario.file.extension().is_some_and(|e| e == "md") {
            "markdown"
        } else {
            "plaintext"
        };
        server.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": language, "version": 0, "text": scenario.original } }),
        )?;
        server.published_for(&uri, 0)?;
        let mut latencies = Vec::with_capacity(scenario.edits.len());
        for (i, text) in scenario.edits.iter().enumerate() {
            let version = i as i64 + 1;
            let sent = Instant::now();
            server.notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
            )?;
            server.published_for(&uri, version)?;
            latencies.push(sent.elapsed());
            buffers.insert(scenario.file.clone(), Arc::from(text.as_str()));
            checked += 1;
            if args.verify_every > 0 && checked % args.verify_every == 0 {
                let edit = format!("edit {version} of {}", scenario.file.display());
                verify(&mut server, &uri, &buffers, &project_file, &edit)?;
                verified += 1;
            }
        }
        measured.push(Measured { what: scenario.what, latencies });
    }

    // Edits to what a compile is given — the registry (a comment, a tool
    // every skill may name removed: all resolve again), agentc.toml (a
    // comment or a `[lints]` level: how problems are shown; a size limit:
    // what is read, a compile) — with a hover and a completion sent right
    // behind each: how long each waits. Each edit's diagnostics are
    // compared with a cold compile too.
    let skill = &scenarios[0];
    let hover_at = position(&skill.edits[skill.edits.len() - 1], "tools:");
    let completion_at =
        json!({ "line": hover_at["line"].as_u64().unwrap_or(0) + 1, "character": 4 });
    let skill_uri = url(&skill.file);
    let (mut registry_edits, mut shown_edits, mut read_edits) =
        (Vec::new(), Vec::new(), Vec::new());
    let (mut hovers, mut completions) = (Vec::new(), Vec::new());
    let (mut items, mut completion_bytes) = (0, 0);
    let registry_text = std::fs::read_to_string(dir.join("registry.yaml"))?;
    let first_tool = registry_text.lines().find(|l| l.starts_with("  - ")).unwrap_or_default();
    let first_tool = format!("{first_tool}\n");
    // The registry's last edit removes the tool, so that `[lints]` levels
    // change what is shown.
    for (file, rounds) in [("registry.yaml", 10_i64), ("agentc.toml", 20)] {
        let path = dir.join(file);
        let original = std::fs::read_to_string(&path)?;
        let uri = url(&path);
        let language = if file.ends_with(".toml") { "toml" } else { "yaml" };
        server.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": language, "version": 0, "text": original } }),
        )?;
        server.published_for(&uri, 0)?;
        for round in 0..rounds {
            let version = round + 1;
            // agentc.toml: first how problems are shown, then what is read.
            let (changed, edits) = match (file, round % 2) {
                ("registry.yaml", 0) => {
                    (format!("{original}# kept for the desk ({round})\n"), &mut registry_edits)
                }
                ("registry.yaml", _) => {
                    (original.replacen(&first_tool, "", 1), &mut registry_edits)
                }
                (_, 0) if round < 10 => {
                    (format!("{original}# kept for the desk ({round})\n"), &mut shown_edits)
                }
                _ if round < 10 => {
                    let level = if round % 4 == 1 { "warn" } else { "allow" };
                    (format!("{original}[lints]\nunknown-tool = \"{level}\"\n"), &mut shown_edits)
                }
                _ => {
                    let limit = format!("max_file_size = {}\nroot = ", 4 << 20 | round);
                    (original.replacen("root = ", &limit, 1), &mut read_edits)
                }
            };
            let sent = Instant::now();
            server.notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": changed }] }),
            )?;
            let asked = Instant::now();
            server.request(
                "textDocument/hover",
                json!({ "textDocument": { "uri": skill_uri }, "position": hover_at }),
            )?;
            hovers.push(asked.elapsed());
            let asked = Instant::now();
            let completion = server.request(
                "textDocument/completion",
                json!({ "textDocument": { "uri": skill_uri }, "position": completion_at }),
            )?;
            completions.push(asked.elapsed());
            items = (completion.get("items").or(Some(&completion)))
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            completion_bytes = completion.to_string().len();
            server.published_for(&uri, version)?;
            edits.push(sent.elapsed());
            buffers.insert(path.clone(), Arc::from(changed.as_str()));
            if args.verify_every > 0 {
                verify(
                    &mut server,
                    &skill_uri,
                    &buffers,
                    &project_file,
                    &format!("edit {version} of {file}"),
                )?;
                verified += 1;
                checked += 1;
            }
        }
    }
    for list in
        [&mut registry_edits, &mut shown_edits, &mut read_edits, &mut hovers, &mut completions]
    {
        list.sort();
    }

    let peak = server.peak_rss_kib();
    let server_progress = first_progress;
    server.shutdown()?;

    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
    let size_mib = stats.bytes as f64 / f64::from(1 << 20);
    println!(
        "{} skills, {} each of Claude Code skills, subagents and Copilot agents ({size_mib:.1} MiB); first compile {}; peak RSS {} MiB; {verified}/{} edits checked against a cold compile; `$/progress` messages in the first compile: {}",
        args.skills,
        args.wild,
        ms(cold_open),
        peak.unwrap_or(0) / 1024,
        checked.checked_div(args.verify_every).unwrap_or(0),
        server_progress,
    );
    println!();
    println!("| file edited | edits | median | p90 | p99 | max |");
    println!("|---|---|---|---|---|---|");
    let mut all = Vec::new();
    for m in &mut measured {
        m.latencies.sort();
        all.extend(m.latencies.iter().copied());
        println!("{}", row(m.what, &m.latencies));
    }
    all.sort();
    println!("{}", row("all", &all));
    println!(
        "{}",
        row("registry.yaml: a comment, a tool removed (resolved again)", &registry_edits)
    );
    println!("{}", row("agentc.toml: a comment, a `[lints]` level (shown again)", &shown_edits));
    println!("{}", row("agentc.toml: `max_file_size` (a compile)", &read_edits));
    println!();
    println!(
        "| sent right behind each registry or agentc.toml edit | requests | median | p90 | p99 | max |"
    );
    println!("|---|---|---|---|---|---|");
    println!("{}", row("hover", &hovers));
    println!("{}", row("completion in `tools:`", &completions));
    println!();
    println!("the last completion: {items} items, {completion_bytes} bytes");
    Ok(())
}

fn row(what: &str, sorted: &[Duration]) -> String {
    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    if sorted.is_empty() {
        return format!("| {what} | 0 | | | | |");
    }
    format!(
        "| {what} | {} | {} | {} | {} | {} |",
        sorted.len(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(at(1.0))
    )
}

/// The 0-based line and column of `needle`'s first occurrence.
fn position(text: &str, needle: &str) -> Value {
    let offset = text.find(needle).unwrap_or(0);
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": column })
}

/// One scenario per kind of file: the runbook skill's recorded keystrokes,
/// then (with the assistants' formats) a sentence typed into a description
/// and a name broken and typed back in each other kind of file.
fn scenarios(dir: &Path, wild: bool) -> std::io::Result<Vec<Scenario>> {
    let root = dir.join("agents");
    let read = |what: &'static str, file: PathBuf, edits: fn(&str) -> Vec<String>| {
        let original = std::fs::read_to_string(&file)?;
        let edits = edits(&original);
        Ok::<_, std::io::Error>(Scenario { what, file, original, edits })
    };
    let mut out = vec![read("runbook skill", first_skill(&root.join("skills"))?, script)?];
    out.push(read("AGENT.md", root.join("desk-0/AGENT.md"), |text| {
        typed(text, "description:", " Ask before refunding.", None)
    })?);
    out.push(read("agent.json", root.join("desk-1/agent.json"), |text| {
        typed(text, "\"description\": \"Desk 1's agent", " first", None)
    })?);
    let tools = first_folder(&root.join("tools"))?;
    out.push(read("tool manifest", tools.join("manifest.json"), |text| {
        typed(text, "\"description\": \"Tool number", " (kept)", None)
    })?);
    if wild {
        let claude = first_folder(&root.join(".claude/skills"))?;
        out.push(read("Claude Code skill", claude.join("SKILL.md"), |text| {
            typed(text, "description:", " Ask first.", Some("name: "))
        })?);
        out.push(read("subagent", root.join(".claude/agents/reviewer-0.md"), |text| {
            typed(text, "description:", " Twice.", Some("skills: "))
        })?);
        out.push(read("Copilot agent", root.join(".github/agents/planner-0.agent.md"), |text| {
            typed(text, "description:", " Then stop.", Some("agent: "))
        })?);
    }
    Ok(out)
}

/// A sentence typed at the end of the line holding `after` (inside the
/// string when the line ends with `",`), then the last three characters of
/// the value after `broken` erased and typed back.
fn typed(original: &str, after: &str, sentence: &str, broken: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    let mut text = original.to_owned();
    if let Some(at) = text.find(after) {
        let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
        let end = match text[at..line_end].rfind('"') {
            Some(quote) if text[at..line_end].ends_with(['"', ',']) => at + quote,
            _ => line_end,
        };
        for (i, c) in sentence.char_indices() {
            text.insert(end + i, c);
            out.push(text.clone());
        }
    }
    if let Some(at) = broken.and_then(|key| text.find(key).map(|at| at + key.len())) {
        let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
        let cut = text[end - 3..end].to_owned();
        for i in 0..3 {
            text.remove(end - i - 1);
            out.push(text.clone());
        }
        for (i, c) in cut.char_indices() {
            text.insert(end - 3 + i, c);
            out.push(text.clone());
        }
    }
    out
}

/// The first folder in `dir`, in byte order.
fn first_folder(dir: &Path) -> std::io::Result<PathBuf> {
    let mut names: Vec<_> =
        std::fs::read_dir(dir)?.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    names.sort();
    let name = names.first().ok_or_else(|| std::io::Error::other("an empty folder"))?;
    Ok(dir.join(name))
}

/// The first runbook skill in byte order of its folder.
fn first_skill(skills: &Path) -> std::io::Result<PathBuf> {
    let mut names: Vec<_> =
        std::fs::read_dir(skills)?.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    names.sort();
    let name = names.first().ok_or_else(|| std::io::Error::other("no skills generated"))?;
    Ok(skills.join(name).join("SKILL.md"))
}

/// The recorded edits, each the document's whole text after one keystroke:
/// a sentence typed at the end of the description; a route's target
/// shortened by three characters and typed back (its diagnostic appears and
/// heals); a tool typed into `tools` and deleted again; a sentence typed into
/// the body.
fn script(original: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut text = original.to_owned();
    let type_at = |text: &mut String, at: usize, typed: &str, out: &mut Vec<String>| {
        for (i, c) in typed.char_indices() {
            text.insert(at + i, c);
            out.push(text.clone());
        }
    };
    let erase_before = |text: &mut String, end: usize, count: usize, out: &mut Vec<String>| {
        for i in 0..count {
            text.remove(end - i - 1);
            out.push(text.clone());
        }
    };
    let description_end =
        text.find("description:").and_then(|at| text[at..].find('\n').map(|n| at + n));
    if let Some(at) = description_end {
        type_at(&mut text, at, " Escalate after two tries.", &mut texts);
    }
    if let Some(routes) = text.find("routes:\n  - ") {
        let start = routes + "routes:\n  - ".len();
        if let Some(colon) = text[start..].find(':') {
            let end = start + colon;
            let cut: String = text[end - 3..end].to_owned();
            erase_before(&mut text, end, 3, &mut texts);
            type_at(&mut text, end - 3, &cut, &mut texts);
        }
    }
    if let Some(tools) = text.find("tools:\n") {
        let at = tools + "tools:\n".len();
        let line = "  - lookup_tickt\n";
        type_at(&mut text, at, line, &mut texts);
        erase_before(&mut text, at + line.len(), line.len(), &mut texts);
    }
    let end = text.len();
    type_at(&mut text, end, "Close the ticket only once the customer confirms.", &mut texts);
    texts
}

/// The diagnostics of a cold compile, as the server would publish them.
/// Fails unless everything the server has published equals a cold compile
/// of the disk with the edited texts in place, as `agentc check` would see
/// them once saved. (Writing them would make the server, which watches the
/// disk, compile a second time for each edit.)
fn verify(
    server: &mut Server,
    uri: &str,
    buffers: &HashMap<PathBuf, Arc<str>>,
    project_file: &Path,
    edit: &str,
) -> std::io::Result<()> {
    // Every publish of that compile precedes the answer to this.
    server.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }))?;
    let fs = Overlay { base: &RealFs, buffers };
    let options = project_file::load(&fs, project_file, "agentc.toml")
        .map_err(|_| std::io::Error::other(format!("after {edit} agentc.toml has errors")))?
        .options;
    let cold = compile(&fs, &options)
        .map_err(|err| std::io::Error::other(format!("cold compile: {err}")))?;
    let expected = cold_keys(&cold);
    let held = server.held();
    if expected != held {
        let missing: Vec<_> = expected.difference(&held).take(5).collect();
        let extra: Vec<_> = held.difference(&expected).take(5).collect();
        return Err(std::io::Error::other(format!(
            "after {edit} the server's diagnostics differ from a cold compile:\n  missing {missing:?}\n  extra {extra:?}"
        )));
    }
    Ok(())
}

fn cold_keys(compilation: &Compilation) -> BTreeSet<Key> {
    compilation
        .diagnostics
        .iter()
        .map(|d| {
            let file = &d.location.file;
            let (line, column) = match (d.location.span, compilation.sources.get(file)) {
                (Some(span), Some(source)) => {
                    let at = source.line_col(span.start);
                    (at.line as u64 - 1, at.column as u64 - 1)
                }
                _ => (0, 0),
            };
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            (
                compilation.disk_path(file).unwrap_or_default(),
                line,
                column,
                d.code.as_str().to_owned(),
                message,
            )
        })
        .collect()
}

fn url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// `agentc lsp` as a child, with what it has published per document.
struct Server {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// The latest diagnostics published per document URI.
    published: BTreeMap<String, Vec<Value>>,
    /// Each open document's last published version.
    versions: BTreeMap<String, i64>,
    /// How many `$/progress` notifications arrived.
    progress: usize,
}

/// How long the server may take to answer anything before the run fails.
const PATIENCE: Duration = Duration::from_secs(600);

impl Server {
    fn start(agentc: &Path, dir: &Path) -> std::io::Result<Server> {
        let mut child = Command::new(agentc)
            .arg("lsp")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdin = child.stdin.take().ok_or_else(|| std::io::Error::other("no stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| std::io::Error::other("no stdout"))?;
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            while let Some(message) = read_message(&mut stdout) {
                if tx.send(message).is_err() {
                    return;
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            incoming,
            next_id: 0,
            published: BTreeMap::new(),
            versions: BTreeMap::new(),
            progress: 0,
        };
        let uri = url(dir);
        server.request(
            "initialize",
            json!({ "processId": null, "rootUri": uri, "workspaceFolders": [{ "uri": uri, "name": "bench" }], "capabilities": { "window": { "workDoneProgress": true } } }),
        )?;
        server.notify("initialized", json!({}))?;
        Ok(server)
    }

    fn send(&mut self, message: &Value) -> std::io::Result<()> {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len())?;
        self.stdin.flush()
    }

    fn notify(&mut self, method: &str, params: Value) -> std::io::Result<()> {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }))
    }

    /// Takes one message, keeping what it publishes.
    fn next(&mut self) -> std::io::Result<Value> {
        let message = self
            .incoming
            .recv_timeout(PATIENCE)
            .map_err(|_| std::io::Error::other("agentc lsp stopped answering"))?;
        if message["method"] == "textDocument/publishDiagnostics" {
            let params = &message["params"];
            let uri = params["uri"].as_str().unwrap_or_default().to_owned();
            let list = params["diagnostics"].as_array().cloned().unwrap_or_default();
            if let Some(version) = params["version"].as_i64() {
                self.versions.insert(uri.clone(), version);
            }
            self.published.insert(uri, list);
        }
        if message["method"] == "$/progress" {
            self.progress += 1;
        }
        // A request from the server (`window/workDoneProgress/create`) is
        // answered at once, as an editor does.
        if message.get("method").is_some() && message.get("id").is_some() {
            let id = message["id"].clone();
            self.send(&json!({ "jsonrpc": "2.0", "id": id, "result": null }))?;
        }
        Ok(message)
    }

    fn request(&mut self, method: &str, params: Value) -> std::io::Result<Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        loop {
            let message = self.next()?;
            if message["id"] == id && message.get("method").is_none() {
                if let Some(error) = message.get("error") {
                    return Err(std::io::Error::other(format!("{method}: {error}")));
                }
                return Ok(message["result"].clone());
            }
        }
    }

    /// Waits for the diagnostics of `version` of the open document `uri`.
    fn published_for(&mut self, uri: &str, version: i64) -> std::io::Result<()> {
        while self.versions.get(uri) != Some(&version) {
            self.next()?;
        }
        Ok(())
    }

    /// Everything the server holds published, as comparable keys.
    fn held(&self) -> BTreeSet<Key> {
        let mut keys = BTreeSet::new();
        for (uri, list) in &self.published {
            let path = PathBuf::from(uri.trim_start_matches("file://"));
            for d in list {
                let start = &d["range"]["start"];
                keys.insert((
                    path.clone(),
                    start["line"].as_u64().unwrap_or(0),
                    start["character"].as_u64().unwrap_or(0),
                    d["code"].as_str().unwrap_or_default().to_owned(),
                    d["message"].as_str().unwrap_or_default().to_owned(),
                ));
            }
        }
        keys
    }

    /// The server's peak resident memory (`VmHWM`), in KiB.
    fn peak_rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    fn shutdown(mut self) -> std::io::Result<()> {
        self.request("shutdown", Value::Null)?;
        self.notify("exit", Value::Null)?;
        self.child.wait()?;
        Ok(())
    }
}

/// One framed message, or none at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
