//! The Copilot CLI as the second judge. `copilot skill list --json` (the
//! pinned platform package, offline and without a login) lists the skills it
//! loads from a project's `.github/skills/`, `.claude/skills/` and
//! `.agents/skills/`, and names on stderr each one it failed to load, with
//! why. Over `tests/hosts/skills/` (a project built like real ones) and the
//! corpus, a skill it loads gets no error from agentc, and one it leaves out
//! gets a diagnostic; the disagreements not fixed are listed in
//! `tests/hosts/copilot-disagreements.tsv`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use super::{Host, Tally, agentc_verdicts, common, copy, folders, known};

/// The version `.ci/run` installs.
pub(crate) const COPILOT_CLI: &str = "1.0.102";

/// The Copilot CLI's binary, or None (with the reason printed) where it is
/// not installed; in CI its absence fails.
pub(crate) fn copilot() -> Option<PathBuf> {
    let path = std::env::var_os("AGENTC_COPILOT").map(PathBuf::from);
    let home = tempfile::tempdir().unwrap();
    let runs = path.as_ref().and_then(|p| command(p, home.path()).arg("--version").output().ok());
    match runs {
        Some(out) if out.status.success() => {
            let version = common::text(&out.stdout);
            assert!(
                version.starts_with(&format!("GitHub Copilot CLI {COPILOT_CLI}.")),
                "AGENTC_COPILOT is {version}, not the pinned Copilot CLI {COPILOT_CLI}"
            );
            path
        }
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "AGENTC_COPILOT does not name the Copilot CLI {COPILOT_CLI} in CI (.ci/run \
                 installs it)"
            );
            eprintln!(
                "skipped: AGENTC_COPILOT does not name the Copilot CLI {COPILOT_CLI} \
                 (npm install @github/copilot-linux-x64@{COPILOT_CLI})"
            );
            None
        }
    }
}

/// The Copilot CLI with its settings in `home`, offline: no token, no
/// update, no PATH (nothing a repository names can run), no input.
pub(crate) fn command(copilot: &Path, home: &Path) -> Command {
    let mut command = Command::new(copilot);
    command
        .env_clear()
        .env("PATH", "/nonexistent")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("COPILOT_AUTO_UPDATE", "false")
        .stdin(Stdio::null());
    command
}

/// What the Copilot CLI did with each `SKILL.md` of the project at `top`
/// (trusted in `home`, as a user trusts a folder): loaded, or left out with
/// its reason.
fn skill_verdicts(copilot: &Path, home: &Path, top: &Path) -> BTreeMap<String, (Host, String)> {
    let top = top.canonicalize().unwrap();
    std::fs::create_dir_all(home.join(".copilot")).unwrap();
    let config = serde_json::json!({ "trusted_folders": [top] });
    std::fs::write(home.join(".copilot/config.json"), config.to_string()).unwrap();
    let out = command(copilot, home)
        .args(["skill", "list", "--json"])
        .current_dir(&top)
        .output()
        .expect("the Copilot CLI runs");
    let (stdout, stderr) = (common::text(&out.stdout), common::text(&out.stderr));
    let listed: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("`skill list --json` printed no JSON ({e}):\n{stdout}{stderr}"));
    let mut verdicts = BTreeMap::new();
    for skill in listed.as_array().into_iter().flatten().filter(|s| s["source"] == "project") {
        let folder = Path::new(skill["path"].as_str().unwrap_or_default());
        let Ok(rel) = folder.strip_prefix(&top) else { continue };
        let file = format!("{}/SKILL.md", rel.to_string_lossy().replace('\\', "/"));
        let name = skill["name"].as_str().unwrap_or_default();
        verdicts.insert(file, (Host::Loads, format!("loaded as `{name}`")));
    }
    // `  • .github/skills/notes/SKILL.md: missing or malformed YAML frontmatter`
    for line in stderr.lines() {
        let Some((file, why)) =
            line.trim_start().strip_prefix("• ").and_then(|l| l.split_once(": "))
        else {
            continue;
        };
        let file = Path::new(file);
        let rel = file.strip_prefix(&top).unwrap_or(file);
        verdicts
            .insert(rel.to_string_lossy().replace('\\', "/"), (Host::LeavesOut, why.to_owned()));
    }
    verdicts
}

/// Whether `top` holds a folder of skills the Copilot CLI reads.
fn has_skills(top: &Path) -> bool {
    [".github/skills", ".claude/skills", ".agents/skills"].iter().any(|d| top.join(d).is_dir())
}

#[test]
fn the_copilot_cli_and_agentc_agree_on_skills() {
    let Some(copilot) = copilot() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let known = known("copilot-disagreements.tsv");
    let mut tally = Tally::new(format!("Copilot CLI {COPILOT_CLI}"));
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hosts/skills");
    let mut judged = 0;
    for (name, source) in [("skills".to_owned(), case)].into_iter().chain(folders("corpus")) {
        if !has_skills(&source) {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join(&name);
        copy(&source, &top, true);
        let host = skill_verdicts(&copilot, home.path(), &top);
        let (said, _) = agentc_verdicts(&top);
        judged += host.len();
        tally.add(&name, host, &said, &known);
    }
    let (reported, left_out) = tally.reported();
    let (wrong, table) = tally.finish(&known);
    eprintln!("{table}{judged} skills judged; {reported} of {left_out} left out reported");
    assert!(wrong.is_empty(), "the Copilot CLI and agentc disagree:\n{}", wrong.join("\n"));
    assert!(judged >= 40, "{judged} skills judged");
    assert!(reported * 100 >= left_out * 95, "{reported} of {left_out} left out reported");
}

/// What `agentc init --layout copilot` writes: the Copilot CLI loads its
/// skill, its custom agent and its instructions. Custom agents are loaded
/// only with a model to run them: a provider of one's own (`COPILOT_PROVIDER_*`,
/// at a local port where nothing listens, never reached) stands in for a
/// login, and asked for an agent it does not have, the CLI names those it has.
#[test]
fn the_copilot_cli_loads_what_init_writes() {
    let Some(copilot) = copilot() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = common::agentc(&["init", "--layout", "copilot", "project"], dir.path());
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let top = dir.path().join("project").canonicalize().unwrap();
    let skills = skill_verdicts(&copilot, home.path(), &top);
    let skill = skills.get(".github/skills/release-notes/SKILL.md").map(|(host, _)| *host);
    assert_eq!(skill, Some(Host::Loads), "{skills:?}");

    let out = command(&copilot, home.path())
        .args(["instruction", "list", "--json"])
        .current_dir(&top)
        .output()
        .expect("the Copilot CLI runs");
    let listed: Value = serde_json::from_str(&common::text(&out.stdout)).unwrap_or_default();
    let sources: Vec<&str> =
        listed.as_array().into_iter().flatten().filter_map(|s| s["sourcePath"].as_str()).collect();
    assert_eq!(sources, [".github/copilot-instructions.md"], "{listed}");

    let out = command(&copilot, home.path())
        .env("COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:9/v1")
        .env("COPILOT_PROVIDER_MODEL_ID", "gpt-4o")
        .args(["--agent", "agentc-no-such-agent", "-p", "x"])
        .current_dir(&top)
        .output()
        .expect("the Copilot CLI runs");
    let said = common::text(&out.stdout) + &common::text(&out.stderr);
    let available = said.lines().find_map(|line| {
        line.strip_prefix("No such agent: agentc-no-such-agent, available: ")
            .map(|list| list.split(", ").collect::<Vec<_>>())
    });
    assert_eq!(available, Some(vec!["reviewer"]), "{said}");
}
