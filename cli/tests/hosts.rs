//! The host as the judge: each case under `tests/hosts/cases/` is a small
//! Claude Code plugin built like real ones, loaded by Claude Code itself (the
//! pinned npm platform package, which runs offline and without a login) and
//! checked by agentc; the two must agree on every file the host judges. A
//! file agentc refuses (an error) that the host loads is a false refusal; a
//! file the host refuses or leaves out that agentc says nothing about is a
//! miss. The disagreements not fixed yet are listed, with the host's own
//! output as evidence, in `tests/hosts/disagreements.tsv` (and described in
//! docs/formats.md); a listed one that has gone away fails too, so the list
//! stays true.
//!
//! `.ci/run` installs Claude Code and names its binary in `AGENTC_CLAUDE`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod common;

/// The version `.ci/run` installs; the messages that state Claude Code's
/// behaviour name it.
const CLAUDE_CODE: &str = "2.1.332";

/// What the host did with a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Host {
    Loads,
    /// The plugin does not load because of this file.
    Refuses,
    /// The plugin loads without this file's component.
    LeavesOut,
}

/// What agentc said of a file: its most severe diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Agentc {
    Silent,
    Warning,
    Error,
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Host::Loads => "loads",
            Host::Refuses => "refuses",
            Host::LeavesOut => "leaves-out",
        })
    }
}

impl fmt::Display for Agentc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Agentc::Silent => "silent",
            Agentc::Warning => "warning",
            Agentc::Error => "error",
        })
    }
}

/// Claude Code's binary, or None (with the reason printed) where it is not
/// installed; in CI its absence fails.
fn claude() -> Option<PathBuf> {
    let path = std::env::var_os("AGENTC_CLAUDE").map(PathBuf::from);
    let runs = path.as_ref().and_then(|p| Command::new(p).arg("--version").output().ok());
    match runs {
        Some(out) if out.status.success() => {
            let version = common::text(&out.stdout);
            assert!(
                version.starts_with(CLAUDE_CODE),
                "AGENTC_CLAUDE is Claude Code {version}, not the pinned {CLAUDE_CODE}"
            );
            path
        }
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "AGENTC_CLAUDE does not name Claude Code {CLAUDE_CODE} in CI (.ci/run installs it)"
            );
            eprintln!(
                "skipped: AGENTC_CLAUDE does not name Claude Code {CLAUDE_CODE} \
                 (npm install @anthropic-ai/claude-code-linux-x64@{CLAUDE_CODE})"
            );
            None
        }
    }
}

/// Runs Claude Code with `args`, offline, with its settings in `home`.
fn run(claude: &Path, home: &Path, args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new(claude)
        .args(args)
        .env("HOME", home)
        .env("CLAUDE_CONFIG_DIR", home.join(".claude"))
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .output()
        .expect("Claude Code runs");
    common::text(&out.stdout) + &common::text(&out.stderr)
}

/// Each file of `plugin` the host judges, with what it did and the evidence
/// in its own words.
fn host_verdicts(claude: &Path, home: &Path, plugin: &Path) -> BTreeMap<String, (Host, String)> {
    let dir = plugin.as_os_str();
    let list = run(
        claude,
        home,
        &["--plugin-dir".as_ref(), dir, "plugin".as_ref(), "list".as_ref(), "--json".as_ref()],
    );
    let list: Value = serde_json::from_str(&list).unwrap_or_else(|e| panic!("{e}: {list}"));
    let entry = list
        .as_array()
        .and_then(|l| l.iter().find(|p| p["scope"] == "session"))
        .unwrap_or_else(|| panic!("`plugin list` shows no plugin from --plugin-dir: {list}"));
    let mut verdicts = BTreeMap::new();
    let manifest = ".claude-plugin/plugin.json".to_owned();
    if let Some(errors) = entry["errors"].as_array().filter(|e| !e.is_empty()) {
        let evidence = errors.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("; ");
        // The plugin's own path, different on each run, is left out.
        let evidence = evidence.replace(&plugin.display().to_string(), "<plugin>");
        verdicts.insert(manifest, (Host::Refuses, evidence));
        return verdicts;
    }
    let id = entry["id"].as_str().expect("a plugin has an id");
    verdicts.insert(manifest, (Host::Loads, format!("`plugin list --json`: {id} enabled")));
    let details = run(
        claude,
        home,
        &["--plugin-dir".as_ref(), dir, "plugin".as_ref(), "details".as_ref(), id.as_ref()],
    );
    // `  Skills (2)  deploy, status`: commands are among the skills.
    let loaded = |kind: &str| -> Vec<String> {
        let prefix = format!("  {kind} (");
        let line = details.lines().find(|l| l.starts_with(&prefix)).unwrap_or_else(|| {
            panic!("`plugin details` has no `{kind}` line:\n{details}");
        });
        let names = line.split_once(")  ").map_or("", |(_, names)| names);
        let names = names.split("  (").next().unwrap_or_default();
        names.split(", ").filter(|n| !n.is_empty()).map(str::to_owned).collect()
    };
    let skills = loaded("Skills");
    let agents = loaded("Agents");
    let hooks = loaded("Hooks");
    let servers = loaded("MCP servers");
    let inventory = |what: &str, names: &[String]| {
        format!("`plugin details {id}`: {what} ({}) {}", names.len(), names.join(", "))
    };
    for file in files(plugin) {
        let judged = match file.split('/').collect::<Vec<_>>().as_slice() {
            ["skills", skill, "SKILL.md"] => {
                Some((skills.contains(&skill.to_string()), inventory("Skills", &skills)))
            }
            ["skills", loose] if loose.ends_with(".md") => {
                Some((false, inventory("Skills", &skills)))
            }
            ["commands", command] => {
                let name = command.trim_end_matches(".md").to_owned();
                Some((skills.contains(&name), inventory("Skills", &skills)))
            }
            ["agents", agent] => {
                let name = agent.trim_end_matches(".md").to_owned();
                Some((agents.contains(&name), inventory("Agents", &agents)))
            }
            ["hooks", "hooks.json"] => Some((!hooks.is_empty(), inventory("Hooks", &hooks))),
            [".mcp.json"] => Some((!servers.is_empty(), inventory("MCP servers", &servers))),
            _ => None,
        };
        if let Some((loads, evidence)) = judged {
            let host = if loads { Host::Loads } else { Host::LeavesOut };
            verdicts.insert(file, (host, evidence));
        }
    }
    verdicts
}

/// The files under `dir`, relative to it with `/`, in order.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// The most severe diagnostic agentc gives each file of `dir`.
fn agentc_verdicts(dir: &Path) -> BTreeMap<String, Agentc> {
    let out = common::agentc(&["check", "--message-format", "json"], dir);
    let mut verdicts = BTreeMap::new();
    for line in common::text(&out.stdout).lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        let (Some(file), Some(severity)) = (value["file"].as_str(), value["severity"].as_str())
        else {
            continue;
        };
        let level = match severity {
            "error" => Agentc::Error,
            "warning" => Agentc::Warning,
            _ => continue,
        };
        let at = verdicts.entry(file.to_owned()).or_insert(level);
        *at = (*at).max(level);
    }
    verdicts
}

/// Copies `from` into `to`, a folder of its own: outside this repository, so
/// agentc checks the case as the top of a repository of its own.
fn copy(from: &Path, to: &Path) {
    for file in files(from) {
        let target = to.join(&file);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(from.join(&file), target).unwrap();
    }
}

/// One row of `disagreements.tsv`: `case/file`, host, agentc, evidence.
fn known() -> BTreeMap<String, (String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hosts/disagreements.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [file, host, agentc, _evidence] = fields.as_slice() else {
            panic!("a row of disagreements.tsv has four fields separated by tabs: {line}");
        };
        rows.insert((*file).to_owned(), ((*host).to_owned(), (*agentc).to_owned()));
    }
    rows
}

#[test]
fn claude_code_and_agentc_agree_on_each_case() {
    let Some(claude) = claude() else {
        return;
    };
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hosts/cases");
    let mut names: Vec<String> = std::fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let home = tempfile::tempdir().unwrap();
    let known = known();
    let mut seen = Vec::new();
    let mut wrong = Vec::new();
    let mut table = String::new();
    for name in &names {
        let dir = tempfile::tempdir().unwrap();
        let plugin = dir.path().join(name);
        copy(&cases.join(name), &plugin);
        let said = agentc_verdicts(&plugin);
        for (file, (host, evidence)) in host_verdicts(&claude, home.path(), &plugin) {
            let agentc = said.get(&file).copied().unwrap_or(Agentc::Silent);
            let key = format!("{name}/{file}");
            table.push_str(&format!("{key:<60} {host:<10} {agentc}\n"));
            // A refused plugin is an error's business: a warning would let it
            // pass a check that gates on errors.
            let disagrees = match host {
                Host::Loads => agentc == Agentc::Error,
                Host::Refuses => agentc != Agentc::Error,
                Host::LeavesOut => agentc == Agentc::Silent,
            };
            let listed = known.get(&key);
            let now = (host.to_string(), agentc.to_string());
            match (disagrees, listed) {
                (true, Some(row)) if *row == now => seen.push(key),
                (true, _) => wrong.push(format!(
                    "{key}: Claude Code {CLAUDE_CODE} {host}, agentc is {agentc} ({evidence})"
                )),
                (false, Some(_)) => {
                    wrong.push(format!("{key}: listed as a disagreement, but they agree now"))
                }
                (false, None) => {}
            }
        }
    }
    eprintln!("{table}");
    for key in known.keys().filter(|k| !seen.contains(k)) {
        if !wrong.iter().any(|w| w.starts_with(&format!("{key}:"))) {
            wrong.push(format!("{key}: listed as a disagreement, but no case has it"));
        }
    }
    assert!(wrong.is_empty(), "Claude Code and agentc disagree:\n{}", wrong.join("\n"));
}
