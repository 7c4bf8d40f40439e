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
//! `.ci/run` installs Claude Code and names its binary in `AGENTC_CLAUDE`;
//! the Copilot CLI, the second judge (`hosts/copilot.rs`), in `AGENTC_COPILOT`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

mod common;
#[path = "hosts/copilot.rs"]
mod copilot;
#[path = "hosts/copilot_hooks.rs"]
mod copilot_hooks;
#[path = "hosts/settings.rs"]
mod settings;

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

/// Runs Claude Code with `args` in `cwd`, offline, with its settings in
/// `home`; stdout and stderr.
fn run(claude: &Path, home: &Path, cwd: &Path, args: &[&std::ffi::OsStr]) -> String {
    let out = claude_command(claude, home, cwd).args(args).output().expect("Claude Code runs");
    common::text(&out.stdout) + &common::text(&out.stderr)
}

/// Claude Code, offline, with its settings in `home`, in `cwd`. PATH is
/// empty: nothing a repository names (a hook, an MCP server) can be run.
fn claude_command(claude: &Path, home: &Path, cwd: &Path) -> Command {
    let mut command = Command::new(claude);
    command
        .current_dir(cwd)
        .env("HOME", home)
        .env("CLAUDE_CONFIG_DIR", home.join(".claude"))
        .env("PATH", "/nonexistent")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    command
}

/// What Claude Code's runtime loaded in a session at `top` with `plugins`:
/// the `init` message it prints first, before any request to a model. Hooks
/// are off (`disableAllHooks`) and no MCP server starts (`--strict-mcp-config`).
struct Loaded {
    /// Subagents, by the name Claude Code gives them (`<plugin>:<name>`).
    agents: BTreeSet<String>,
    /// Skills and commands, by the names they are invoked by.
    commands: BTreeSet<String>,
    /// Each plugin loaded: its folder and its name.
    plugins: BTreeMap<PathBuf, String>,
}

fn loaded(claude: &Path, home: &Path, top: &Path, plugins: &[PathBuf]) -> Loaded {
    let mut command = claude_command(claude, home, top);
    command.args(["--settings", r#"{"disableAllHooks": true}"#, "--strict-mcp-config"]);
    for plugin in plugins {
        command.arg("--plugin-dir").arg(plugin);
    }
    command.args(["-p", "x", "--output-format", "stream-json", "--verbose"]);
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Claude Code runs");
    let stdout = child.stdout.take().expect("a pipe");
    let init = std::io::BufRead::lines(std::io::BufReader::new(stdout))
        .map_while(Result::ok)
        .filter_map(|line| serde_json::from_str::<Value>(&line).ok())
        .find(|message| message["subtype"] == "init");
    // It goes on to ask a model, which it cannot reach: nothing more is needed.
    let _ = child.kill();
    let _ = child.wait();
    let init = init.unwrap_or_else(|| panic!("Claude Code printed no `init` in {}", top.display()));
    let names = |key: &str| -> BTreeSet<String> {
        init[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    let mut commands = names("slash_commands");
    commands.extend(names("skills"));
    let plugins = init["plugins"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some((PathBuf::from(p["path"].as_str()?), p["name"].as_str()?.to_owned())))
        .collect();
    Loaded { agents: names("agents"), commands, plugins }
}

/// Why Claude Code refuses the plugin at `plugin`, in its own words.
fn refusal(claude: &Path, home: &Path, plugin: &Path) -> String {
    let dir = plugin.as_os_str();
    let args =
        ["--plugin-dir".as_ref(), dir, "plugin".as_ref(), "list".as_ref(), "--json".as_ref()];
    let list = run(claude, home, plugin, &args);
    let errors = serde_json::from_str::<Value>(&list).ok().and_then(|list| {
        let entry = list.as_array()?.iter().find(|p| p["scope"] == "session")?.clone();
        let errors: Vec<String> = entry["errors"]
            .as_array()?
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        Some(errors.join("; "))
    });
    // The plugin's own path, different on each run, is left out.
    let evidence = errors.filter(|e| !e.is_empty()).unwrap_or_else(|| "not loaded".to_owned());
    evidence.replace(&plugin.display().to_string(), "<plugin>")
}

/// The `name` a Markdown file's frontmatter gives, read as plainly as
/// Claude Code reads it (`name: x` on a line of its own).
fn front_name(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let front = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n"))?;
    let front = &front[..front.find("\n---")?];
    front.lines().find_map(|line| {
        let value = line.strip_prefix("name:")?.trim().trim_matches(['"', '\'']);
        (!value.is_empty()).then(|| value.to_owned())
    })
}

/// Whether the file says it is never offered to the user (`user-invocable:
/// false`): the session's lists leave it out, loaded or not.
fn hidden(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| {
        text.lines().take(40).any(|l| l.replace(' ', "") == "user-invocable:false")
    })
}

/// `.md` files under `base` (a file itself, or a folder: its files, and with
/// `nested` those of its subfolders), each with the name its folders and
/// stem give it (`frontend:component`).
fn markdown_under(base: &Path, nested: bool) -> Vec<(PathBuf, String)> {
    if base.is_file() {
        let stem = base.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        return vec![(base.to_path_buf(), stem)];
    }
    let mut out = Vec::new();
    for file in files(base) {
        let (folders, name) = file.rsplit_once('/').map_or(("", file.as_str()), |(f, n)| (f, n));
        if !name.ends_with(".md") || name.eq_ignore_ascii_case("README.md") {
            continue;
        }
        if !nested && !folders.is_empty() {
            continue;
        }
        let stem = file.trim_end_matches(".md").replace('/', ":");
        out.push((base.join(&file), stem));
    }
    out
}

/// The skill folders under `base`: itself when it holds `SKILL.md`, else
/// its subfolders that do.
fn skill_folders(base: &Path) -> Vec<PathBuf> {
    if base.join("SKILL.md").is_file() {
        return vec![base.to_path_buf()];
    }
    let Ok(entries) = std::fs::read_dir(base) else { return Vec::new() };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.join("SKILL.md").is_file())
        .collect();
    out.sort();
    out
}

/// The folders under `top` holding `.claude-plugin/plugin.json`.
fn plugin_folders(top: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = files(top)
        .into_iter()
        .filter_map(|f| f.strip_suffix(".claude-plugin/plugin.json").map(|p| top.join(p)))
        .map(|p| p.components().collect())
        .collect();
    out.sort();
    out
}

/// Each file of the repository at `top` that Claude Code judges — its
/// plugins' manifests and components, its `.claude/` agents, commands and
/// skills — with what the host did and the evidence.
fn host_verdicts(claude: &Path, home: &Path, top: &Path) -> BTreeMap<String, (Host, String)> {
    let plugins = plugin_folders(top);
    let got = loaded(claude, home, top, &plugins);
    let rel = |path: &Path| path.strip_prefix(top).unwrap().to_string_lossy().replace('\\', "/");
    let mut verdicts = BTreeMap::new();
    // A file loads when one of `names` is in the session's `list`.
    let judge = |verdicts: &mut BTreeMap<String, (Host, String)>,
                 path: &Path,
                 names: &[String],
                 list: &BTreeSet<String>,
                 what: &str| {
        if hidden(path) {
            return;
        }
        let loads = names.iter().any(|n| list.contains(n));
        let host = if loads { Host::Loads } else { Host::LeavesOut };
        verdicts.insert(rel(path), (host, format!("the session's {what}: {}", names.join(" or "))));
    };
    for plugin in &plugins {
        let manifest = plugin.join(".claude-plugin/plugin.json");
        let Some(name) = got.plugins.get(plugin) else {
            verdicts.insert(rel(&manifest), (Host::Refuses, refusal(claude, home, plugin)));
            continue;
        };
        verdicts.insert(rel(&manifest), (Host::Loads, format!("the session's plugins: {name}")));
        let written: Value = std::fs::read_to_string(&manifest)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        // The default folder and every path the manifest lists.
        let paths = |key: &str| -> Vec<PathBuf> {
            let listed = match &written[key] {
                Value::String(one) => vec![one.clone()],
                Value::Array(many) => {
                    many.iter().filter_map(Value::as_str).map(str::to_owned).collect()
                }
                _ => Vec::new(),
            };
            let mut paths = vec![plugin.join(key)];
            paths.extend(listed.iter().map(|p| plugin.join(p).components().collect()));
            paths.sort();
            paths.dedup();
            paths
        };
        let qualified = |names: Vec<Option<String>>| -> Vec<String> {
            names.into_iter().flatten().map(|n| format!("{name}:{n}")).collect()
        };
        let mut skills = BTreeSet::new();
        for folder in paths("skills").iter().flat_map(|p| skill_folders(p)) {
            let file = folder.join("SKILL.md");
            let by_folder = folder.file_name().map(|n| n.to_string_lossy().into_owned());
            let names = qualified(vec![by_folder, front_name(&file)]);
            skills.extend(names.iter().cloned());
            judge(&mut verdicts, &file, &names, &got.commands, "skills");
        }
        for (file, stem) in paths("commands").iter().flat_map(|p| markdown_under(p, true)) {
            let last = stem.rsplit(':').next().map(str::to_owned);
            let names = qualified(vec![Some(stem.clone()), last, front_name(&file)]);
            // A skill of the same name answers to it too: the session's list
            // cannot tell whether the command loaded.
            if names.iter().any(|n| skills.contains(n)) {
                continue;
            }
            judge(&mut verdicts, &file, &names, &got.commands, "slash commands");
        }
        for (file, stem) in paths("agents").iter().flat_map(|p| markdown_under(p, false)) {
            judge(
                &mut verdicts,
                &file,
                &qualified(vec![Some(stem), front_name(&file)]),
                &got.agents,
                "agents",
            );
        }
    }
    let project = top.join(".claude");
    for (file, stem) in markdown_under(&project.join("agents"), true) {
        let last = stem.rsplit(':').next().unwrap_or_default().to_owned();
        let names: Vec<String> = [Some(last), front_name(&file)].into_iter().flatten().collect();
        judge(&mut verdicts, &file, &names, &got.agents, "agents");
    }
    for (file, stem) in markdown_under(&project.join("commands"), true) {
        judge(&mut verdicts, &file, &[stem], &got.commands, "slash commands");
    }
    for folder in skill_folders(&project.join("skills")) {
        let file = folder.join("SKILL.md");
        let by_folder = folder.file_name().map(|n| n.to_string_lossy().into_owned());
        let names: Vec<String> = [by_folder, front_name(&file)].into_iter().flatten().collect();
        judge(&mut verdicts, &file, &names, &got.commands, "skills");
    }
    verdicts
}

/// The files under `dir` (and links, which are not followed), relative to
/// it with `/`, in order.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else { continue };
        for entry in entries {
            let entry = entry.unwrap();
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
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

/// What agentc said of `dir`: the most severe diagnostic of each file, and
/// how many warnings it gave.
fn agentc_verdicts(dir: &Path) -> (BTreeMap<String, Agentc>, usize) {
    let out = common::agentc(&["check", "--message-format", "json"], dir);
    let mut verdicts = BTreeMap::new();
    let mut warnings = 0;
    for line in common::text(&out.stdout).lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        if value["type"] == "summary" {
            warnings = value["warnings"].as_u64().unwrap_or_default() as usize;
        }
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
    (verdicts, warnings)
}

/// Copies `from` into `to`, a folder of its own outside this repository,
/// its links kept as links; with `repository`, marked as a repository's top
/// (`.git`), as the real one was.
fn copy(from: &Path, to: &Path, repository: bool) {
    for file in files(from) {
        let (source, target) = (from.join(&file), to.join(&file));
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        match std::fs::read_link(&source) {
            #[cfg(unix)]
            Ok(link) => std::os::unix::fs::symlink(link, &target).unwrap(),
            _ => {
                std::fs::copy(&source, &target).unwrap();
            }
        }
    }
    if repository {
        std::fs::create_dir_all(to.join(".git")).unwrap();
    }
}

/// The rows of a list of disagreements (`tests/hosts/<list>`): `key`, host,
/// agentc, evidence, separated by tabs.
fn known(list: &str) -> BTreeMap<String, (String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hosts").join(list);
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [file, host, agentc, _evidence] = fields.as_slice() else {
            panic!("a row of {list} has four fields separated by tabs: {line}");
        };
        rows.insert((*file).to_owned(), ((*host).to_owned(), (*agentc).to_owned()));
    }
    rows
}

/// The comparison of the host with agentc over many files.
#[derive(Default)]
struct Tally {
    /// The host and its version, as the evidence names it.
    judge: String,
    /// (host, agentc) → files.
    table: BTreeMap<(String, String), usize>,
    /// Listed disagreements met.
    seen: Vec<String>,
    /// What fails the test.
    wrong: Vec<String>,
}

impl Tally {
    fn new(judge: String) -> Tally {
        Tally { judge, ..Tally::default() }
    }

    /// Adds `prefix`'s files: the host's verdicts against agentc's.
    fn add(
        &mut self,
        prefix: &str,
        host: BTreeMap<String, (Host, String)>,
        said: &BTreeMap<String, Agentc>,
        known: &BTreeMap<String, (String, String)>,
    ) {
        for (file, (host, evidence)) in host {
            let agentc = said.get(&file).copied().unwrap_or(Agentc::Silent);
            let key = format!("{prefix}/{file}");
            *self.table.entry((host.to_string(), agentc.to_string())).or_default() += 1;
            // A refused plugin is an error's business: a warning would let it
            // pass a check that gates on errors.
            let disagrees = match host {
                Host::Loads => agentc == Agentc::Error,
                Host::Refuses => agentc != Agentc::Error,
                Host::LeavesOut => agentc == Agentc::Silent,
            };
            let now = (host.to_string(), agentc.to_string());
            match (disagrees, known.get(&key)) {
                (true, Some(row)) if *row == now => self.seen.push(key),
                (true, _) => {
                    self.wrong.push(format!("{key}\t{host}\t{agentc}\t{}: {evidence}", self.judge))
                }
                (false, Some(_)) => {
                    self.wrong.push(format!("{key}: listed as a disagreement, but they agree now"))
                }
                (false, None) => {}
            }
        }
    }

    /// The failures, with each listed disagreement no longer met.
    fn finish(mut self, known: &BTreeMap<String, (String, String)>) -> (Vec<String>, String) {
        for key in known.keys().filter(|k| !self.seen.contains(k)) {
            if !self.wrong.iter().any(|w| w.starts_with(&format!("{key}:"))) {
                self.wrong.push(format!("{key}: listed as a disagreement, but no file has it"));
            }
        }
        let table = (self.table.iter())
            .map(|((host, agentc), n)| format!("{host:<10} {agentc:<8} {n}\n"))
            .collect();
        (self.wrong, table)
    }

    /// Of the files the host refuses or leaves out, the share agentc reports.
    fn reported(&self) -> (usize, usize) {
        let (mut reported, mut all) = (0, 0);
        for ((host, agentc), n) in &self.table {
            if host == "loads" {
                continue;
            }
            all += n;
            if agentc == "error" || (host == "leaves-out" && agentc == "warning") {
                reported += n;
            }
        }
        (reported, all)
    }
}

/// Every folder under `tests/hosts/<what>`, sorted.
fn folders(what: &str) -> Vec<(String, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hosts").join(what);
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    out.sort();
    out
}

#[test]
fn claude_code_and_agentc_agree_on_each_case() {
    let Some(claude) = claude() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let known = known("disagreements.tsv");
    let mut tally = Tally::new(format!("Claude Code {CLAUDE_CODE}"));
    for (name, case) in folders("cases") {
        let dir = tempfile::tempdir().unwrap();
        let plugin = dir.path().join(&name);
        copy(&case, &plugin, false);
        let (said, _) = agentc_verdicts(&plugin);
        tally.add(&name, host_verdicts(&claude, home.path(), &plugin), &said, &known);
    }
    let (wrong, table) = tally.finish(&known);
    eprintln!("{table}");
    assert!(wrong.is_empty(), "Claude Code and agentc disagree:\n{}", wrong.join("\n"));
}

/// What `agentc init --layout claude` and `--layout claude-plugin` write:
/// Claude Code loads the skill and the subagent of each (and the plugin),
/// and agentc says nothing of them.
#[test]
fn claude_code_loads_what_init_writes() {
    let Some(claude) = claude() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let layouts: [(&str, &[&str]); 2] = [
        ("claude", &[".claude/agents/reviewer.md", ".claude/skills/release-notes/SKILL.md"]),
        (
            "claude-plugin",
            &[".claude-plugin/plugin.json", "agents/reviewer.md", "skills/release-notes/SKILL.md"],
        ),
    ];
    for (layout, expected) in layouts {
        let out = common::agentc(&["init", "--layout", layout, layout], dir.path());
        assert!(out.status.success(), "{layout}: {}", common::text(&out.stderr));
        let top = dir.path().join(layout);
        let host = host_verdicts(&claude, home.path(), &top);
        let loads: Vec<&str> =
            host.iter().filter(|(_, (h, _))| *h == Host::Loads).map(|(f, _)| f.as_str()).collect();
        assert_eq!(loads, expected, "{layout}: Claude Code {CLAUDE_CODE} did {host:?}");
        let (said, warnings) = agentc_verdicts(&top);
        assert!(said.is_empty() && warnings == 0, "{layout}: agentc said {said:?}");
    }
}

/// The wide corpus (`tests/hosts/corpus/`, listed with its sources in
/// `corpus.tsv`): the Claude Code files of real repositories, each checked
/// at its top as `agentc check` would be there, and loaded by Claude Code.
/// No file the host loads gets an error unless listed (with the evidence)
/// in `corpus-disagreements.tsv`; at least 95% of what it refuses or leaves
/// out is reported; warnings are at most one per five files judged.
#[test]
fn claude_code_and_agentc_agree_on_the_corpus() {
    let Some(claude) = claude() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let known = known("corpus-disagreements.tsv");
    let mut tally = Tally::new(format!("Claude Code {CLAUDE_CODE}"));
    let (mut judged, mut warnings) = (0, 0);
    let repositories = folders("corpus");
    assert!(repositories.len() >= 40, "the corpus holds {} repositories", repositories.len());
    for (name, repository) in &repositories {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join(name);
        copy(repository, &top, true);
        let (said, warned) = agentc_verdicts(&top);
        let host = host_verdicts(&claude, home.path(), &top);
        judged += host.len();
        warnings += warned;
        tally.add(name, host, &said, &known);
    }
    let (reported, refused) = tally.reported();
    let (wrong, table) = tally.finish(&known);
    eprintln!(
        "{table}{judged} files judged, {warnings} warnings; {reported} of {refused} refused or \
         left out reported"
    );
    assert!(wrong.is_empty(), "Claude Code and agentc disagree:\n{}", wrong.join("\n"));
    assert!(reported * 100 >= refused * 95, "{reported} of {refused} refusals reported");
    assert!(warnings * 5 <= judged, "{warnings} warnings on {judged} files");
}
