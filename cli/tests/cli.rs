//! The `agentc` binary as a user runs it: exit codes, refusals, unsafe entries.

mod common;

use std::path::Path;
use std::process::Command;

use common::{SKILL, agentc, text, write};

#[test]
fn help_explains_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = agentc(&["--help"], dir.path());
    assert!(out.status.success());
    let help = text(&out.stdout);
    for command in ["check", "schema", "explain", "Exit codes"] {
        assert!(help.contains(command), "{command} missing from --help:\n{help}");
    }
    let out = agentc(&["check", "--help"], dir.path());
    let help = text(&out.stdout);
    for option in [
        "--workspace",
        "--registry",
        "--exclude",
        "--message-format",
        "--deny-warnings",
        "--max-file-size",
    ] {
        assert!(help.contains(option), "{option} missing from check --help");
    }
}

#[test]
fn remote_roots_are_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for root in ["s3://bucket/agents", "https://example.com/agents", "\\\\server\\share\\agents"] {
        let out = agentc(&["check", root], dir.path());
        assert_eq!(out.status.code(), Some(2), "{root}");
        assert!(
            text(&out.stderr).contains("not a local directory"),
            "{root}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn setup_problems_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/billing/SKILL.md"), SKILL);
    write(&dir.path().join("file.txt"), "x");
    write(&dir.path().join("bad-registry.yaml"), "tools: [a, a]\n");
    let cases: &[&[&str]] = &[
        &["check", "missing"],
        &["check", "file.txt"],
        &["check", "agents", "--exclude", "global-skills,everything"],
        &["check", "agents", "--registry", "nope.yaml"],
        &["check", "agents", "--registry", "bad-registry.yaml"],
        &["check", "agents", "--message-format", "xml"],
        &["explain", "no-such-code"],
    ];
    for args in cases {
        let out = agentc(args, dir.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
    }
    let out = agentc(&["check", "agents", "--registry", "bad-registry.yaml"], dir.path());
    assert!(text(&out.stderr).contains("`a` is listed twice"), "{}", text(&out.stderr));
}

#[test]
fn the_root_defaults_to_agents_and_clean_input_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/skills/billing/SKILL.md"), SKILL);
    let out = agentc(&["check"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr).trim(), "no problems found");
}

#[test]
fn warnings_fail_only_with_deny_warnings() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/skills/billing/SKILL.md"), SKILL);
    write(&dir.path().join("agents/NOTES.txt"), "notes");
    let out = agentc(&["check", "agents"], dir.path());
    assert_eq!(out.status.code(), Some(0));
    let out =
        agentc(&["check", "agents", "--deny-warnings", "--message-format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let last = text(&out.stdout).lines().last().unwrap_or_default().to_owned();
    assert_eq!(last, r#"{"type":"summary","errors":0,"warnings":1}"#);
}

#[cfg(unix)]
#[test]
fn fifos_are_reported_and_never_opened() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/skills/billing/SKILL.md"), SKILL);
    let fifo = dir.path().join("agents/SYSTEM.md");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    // Opening the FIFO for reading would block forever; the test finishing is the assertion.
    let out = agentc(&["check", "agents", "--message-format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains(r#""code":"special-file""#), "{stdout}");
    // Paths are shown from the current folder.
    assert!(stdout.contains(r#""file":"agents/SYSTEM.md""#), "{stdout}");
}

#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_are_bad_names() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/skills/billing/SKILL.md"), SKILL);
    let bad = dir.path().join("agents/skills").join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir_all(&bad).unwrap();
    let out = agentc(&["check", "agents", "--message-format", "json"], dir.path());
    let stdout = text(&out.stdout);
    assert!(stdout.contains(r#""code":"bad-name""#), "{stdout}");
    assert!(stdout.contains("skills/caf\u{fffd}"), "{stdout}");
}

#[test]
fn schemas_are_written_atomically_to_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = agentc(&["schema", "--out", "schemas"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("schemas"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "agent-md.schema.json",
            "agent-skill.schema.json",
            "agent.schema.json",
            "claude-command.schema.json",
            "claude-hooks.schema.json",
            "claude-marketplace.schema.json",
            "claude-output-style.schema.json",
            "claude-plugin.schema.json",
            "claude-rule.schema.json",
            "claude-settings.schema.json",
            "claude-skill.schema.json",
            "claude-subagent.schema.json",
            "cline-rule.schema.json",
            "codex-agent.schema.json",
            "codex-config.schema.json",
            "codex-hooks.schema.json",
            "codex-metadata.schema.json",
            "codex-plugin.schema.json",
            "codex-skill.schema.json",
            "copilot-agent.schema.json",
            "copilot-hooks.schema.json",
            "copilot-instructions.schema.json",
            "copilot-prompt.schema.json",
            "copilot-setup-steps.schema.json",
            "copilot-skill.schema.json",
            "cursor-agent.schema.json",
            "cursor-cli.schema.json",
            "cursor-environment.schema.json",
            "cursor-hooks.schema.json",
            "cursor-rule.schema.json",
            "gemini-agent.schema.json",
            "gemini-command.schema.json",
            "gemini-extension.schema.json",
            "gemini-hooks.schema.json",
            "gemini-settings.schema.json",
            "kiro-steering.schema.json",
            "lockfile.schema.json",
            "mcp-json.schema.json",
            "message.schema.json",
            "opencode-agent.schema.json",
            "opencode-command.schema.json",
            "opencode-config.schema.json",
            "project.schema.json",
            "registry.schema.json",
            "skill.schema.json",
            "tool.schema.json",
            "vscode-mcp.schema.json"
        ]
    );
    let out = agentc(&["schema", "tool"], dir.path());
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(schema["title"], "Tool manifest.json");
}

#[cfg(unix)]
#[test]
fn a_fifo_where_the_lockfile_goes_is_refused_not_read() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/skills/billing/SKILL.md"), SKILL);
    let made =
        Command::new("mkfifo").arg(dir.path().join("agentc.lock")).status().expect("mkfifo runs");
    assert!(made.success());
    // Reading the FIFO would block forever; the test finishing is the assertion.
    let out = agentc(&["lock", "agents", "--check"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not a regular file"), "{}", text(&out.stderr));
}

#[test]
fn fix_applies_every_mechanical_fix_then_checks_again() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    let subagent = project.join(".claude/agents/reviewer.md");
    write(
        &subagent,
        "---\nname: reviewer\ndescription: Reviews a change.\nhooks: {PreToolUse:[]}\ntools: [Raed, \"Grpe\", Task]\nmodel: sonet\n---\nSee [the guide](guide.md).\n",
    );
    let copilot = project.join(".github/agents/planner.agent.md");
    write(
        &copilot,
        "\u{feff}---\ndescription: Plans.\ntools: ['serach', 'read']\nuser-invokable: false\nhandoffs:\n  - label: Go\n    agent: plan-b\n---\nPlan.\n",
    );
    write(
        &project.join(".github/agents/planner-two.agent.md"),
        "---\ndescription: Also plans.\n---\nPlan.\n",
    );

    let out = agentc(&["check", "project", "--fix", "--pedantic"], dir.path());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("fixed project/.claude/agents/reviewer.md: 5 fixes"), "{stderr}");
    assert!(stderr.contains("fixed project/.github/agents/planner.agent.md: 2 fixes"), "{stderr}");
    // What has no mechanical fix is still reported, after the fixes.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("warning[broken-link]"), "{stderr}");
    assert!(stderr.contains("error[unknown-route-target]"), "{stderr}");
    assert!(!stderr.contains("unknown-tool"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&subagent).unwrap(),
        "---\nname: reviewer\ndescription: Reviews a change.\nhooks: {PreToolUse: []}\ntools: [Read, \"Grep\", Agent]\nmodel: sonnet\n---\nSee [the guide](guide.md).\n"
    );
    // The byte order mark stays; the quotes stay; the key is renamed.
    assert_eq!(
        std::fs::read_to_string(&copilot).unwrap(),
        "\u{feff}---\ndescription: Plans.\ntools: ['search', 'read']\nuser-invocable: false\nhandoffs:\n  - label: Go\n    agent: plan-b\n---\nPlan.\n"
    );

    let again = agentc(&["check", "project", "--fix"], dir.path());
    assert!(text(&again.stderr).starts_with("nothing to fix"), "{}", text(&again.stderr));
}

/// Every "did you mean" of the two fixtures is a typo one edit from the one
/// name meant: `--fix` takes each, and what it writes checks clean.
#[test]
fn fix_takes_every_near_miss_of_every_dialect() {
    for (case, files) in [("fix-did-you-mean-runbook", 4), ("fix-did-you-mean-hosts", 13)] {
        let dir = tempfile::tempdir().unwrap();
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures").join(case);
        common::copy_dir(&fixture, dir.path());
        let mut args = vec!["check", "root", "--fix"];
        if dir.path().join("registry.yaml").exists() {
            args.extend(["--registry", "registry.yaml"]);
        }
        let out = agentc(&args, dir.path());
        let stderr = text(&out.stderr);
        assert_eq!(
            stderr.lines().filter(|l| l.starts_with("fixed ")).count(),
            files,
            "{case}: {stderr}"
        );
        assert!(stderr.ends_with("no problems found\n"), "{case}: {stderr}");
        assert!(out.status.success(), "{case}: {stderr}");
    }
}

#[test]
fn init_writes_a_project_that_checks_and_locks_with_no_argument() {
    let dir = tempfile::tempdir().unwrap();
    let out = agentc(&["init", "desk"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("next: cd desk && agentc check"), "{}", text(&out.stderr));
    let project = dir.path().join("desk");
    let check = agentc(&["check"], &project);
    assert_eq!(text(&check.stderr), "no problems found\n");
    assert!(check.status.success());
    // From a folder below, the project file is found by walking up.
    let below = agentc(&["check"], &project.join("agents/skills"));
    assert!(below.status.success(), "{}", text(&below.stderr));
    let lock = agentc(&["lock"], &project);
    assert!(lock.status.success(), "{}", text(&lock.stderr));
    assert!(project.join("agentc.lock").is_file());
    let current = agentc(&["lock", "--check"], &project);
    assert!(current.status.success(), "{}", text(&current.stderr));
    // Never over an existing project.
    let again = agentc(&["init", "desk"], dir.path());
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("already exists"), "{}", text(&again.stderr));
}

/// The layouts of the assistants `init --layout` writes.
const INIT_LAYOUTS: [&str; 9] = [
    "claude",
    "claude-plugin",
    "copilot",
    "codex",
    "cursor",
    "gemini",
    "opencode",
    "kiro",
    "cline",
];

/// The files below `dir`, relative with `/`, sorted.
fn files_below(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap().map(Result::unwrap) {
            if entry.file_type().unwrap().is_dir() {
                stack.push(entry.path());
            } else {
                let rel = entry.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.push(rel.replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// `init --layout` writes each assistant's files: `agentc check` passes
/// them with no argument, `--pedantic` too, and reads every one of them (the
/// lockfile lists each file it read); a second run replaces nothing.
#[test]
fn init_writes_each_assistants_layout_and_check_reads_every_file() {
    let dir = tempfile::tempdir().unwrap();
    for layout in INIT_LAYOUTS {
        let out = agentc(&["init", "--layout", layout, layout], dir.path());
        assert!(out.status.success(), "{layout}: {}", text(&out.stderr));
        let project = dir.path().join(layout);
        let written = files_below(&project);
        assert!(!written.is_empty(), "{layout}");
        for file in &written {
            assert!(text(&out.stderr).contains(&format!("\n  {file}\n")), "{layout}: {file}");
        }
        for args in [&["check"][..], &["check", "--pedantic"]] {
            let check = agentc(args, &project);
            assert_eq!(text(&check.stderr), "no problems found\n", "{layout}: {args:?}");
            assert!(check.status.success());
        }
        let lock = agentc(&["lock"], &project);
        assert!(lock.status.success(), "{layout}: {}", text(&lock.stderr));
        let lockfile: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(project.join("agentc.lock")).unwrap())
                .unwrap();
        let mut read: Vec<&str> = lockfile["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap())
            .collect();
        read.sort();
        assert_eq!(read, written, "{layout}: agentc reads every file written");
    }
    let manifest =
        std::fs::read_to_string(dir.path().join("claude-plugin/.claude-plugin/plugin.json"));
    assert!(manifest.unwrap().contains("\"name\": \"claude-plugin\""));
    // Never over a file: nothing is written, the file is kept.
    let mine = dir.path().join("mine");
    write(&mine.join("CLAUDE.md"), "# Mine\n");
    let again = agentc(&["init", "--layout", "claude", "mine"], dir.path());
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("CLAUDE.md` already exists"), "{}", text(&again.stderr));
    assert_eq!(files_below(&mine), ["CLAUDE.md"]);
    assert_eq!(std::fs::read_to_string(mine.join("CLAUDE.md")).unwrap(), "# Mine\n");
}

/// In a Rust package, `init` writes the build script that has cargo re-run
/// `agents!` when a file is added to or removed from `agents/` (the macro
/// alone sees only edits); a build script already there is never replaced,
/// and the lines to add are printed instead.
#[test]
fn init_in_a_rust_package_writes_the_build_script_the_macro_asks_for() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = "[package]\nname = \"desk\"\nversion = \"0.1.0\"\nedition = \"2024\"\n";
    write(&dir.path().join("desk/Cargo.toml"), manifest);
    let out = agentc(&["init", "desk"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let script = std::fs::read_to_string(dir.path().join("desk/build.rs")).unwrap();
    assert!(
        script.ends_with(
            "fn main() {\n    println!(\"cargo:rerun-if-changed=agents\");\n    \
             println!(\"cargo:rustc-env=AGENTC_TRACKED=agents\");\n}\n"
        ),
        "{script}"
    );
    assert!(text(&out.stderr).contains("note: build.rs has cargo re-expand `agents!`"));

    write(&dir.path().join("own/Cargo.toml"), manifest);
    write(&dir.path().join("own/build.rs"), "fn main() {}\n");
    let out = agentc(&["init", "own"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(dir.path().join("own/build.rs")).unwrap(), "fn main() {}\n");
    assert!(
        text(&out.stderr).contains(
            "add these lines to its `main` so that `agents!` sees a file added to or removed \
             from agents/:\n    println!(\"cargo:rerun-if-changed=agents\");\n"
        ),
        "{}",
        text(&out.stderr)
    );

    // Not a Rust package: no build script.
    let out = agentc(&["init", "plain"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!dir.path().join("plain/build.rs").exists());
}

#[test]
fn a_broken_project_file_is_reported_at_its_lines() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agentc.toml"), "root = \"agnets\"\nlayouts = [\"claud\"]\n");
    let out = agentc(&["check"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--> agentc.toml:1:8"), "{stderr}");
    assert!(stderr.contains("did you mean `claude`?"), "{stderr}");
    assert!(stderr.contains("error: agentc.toml has errors"), "{stderr}");
}

/// `[lints]` in agentc.toml sets a code's level for `check` and `lock`:
/// `allow` drops it, `warn` and `deny` set its severity; `--deny-warnings`
/// still counts the warnings left.
#[test]
fn lint_levels_in_the_project_file_apply_to_check_and_lock() {
    let dir = tempfile::tempdir().unwrap();
    // `sonet` is a bad-model error, `magentaa` an invalid-value warning
    // (Claude Code drops the colour), and the text file a stray-entry warning.
    let subagent = "---\nname: rev\ndescription: Reviews code.\nmodel: sonet\n\
                    color: magentaa\n---\nReview the diff.\n";
    write(&dir.path().join(".claude/agents/rev.md"), subagent);
    write(&dir.path().join(".claude/agents/notes.txt"), "notes");
    let summary = |args: &[&str]| {
        let out = agentc(args, dir.path());
        let stdout = text(&out.stdout);
        let codes: Vec<String> = stdout
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter(|d| d["type"] == "diagnostic")
            .map(|d| format!("{} {}", d["severity"].as_str().unwrap(), d["code"].as_str().unwrap()))
            .collect();
        (out.status.code(), codes)
    };
    let json = ["--message-format", "json"];
    let check = [&["check"][..], &json].concat();
    let lock = [&["lock"][..], &json].concat();
    let (code, before) = summary(&check);
    assert_eq!(code, Some(1));
    assert_eq!(before, ["warning stray-entry", "error bad-model", "warning invalid-value"]);

    let project = "[lints]\nbad-model = \"warn\"\ninvalid-value = \"deny\"\n\
                   stray-entry = \"allow\"\n";
    write(&dir.path().join("agentc.toml"), project);
    let (code, after) = summary(&check);
    assert_eq!(code, Some(1));
    assert_eq!(after, ["warning bad-model", "error invalid-value"]);
    assert_eq!(summary(&lock), (Some(1), after.clone()));

    let project = "[lints]\nbad-model = \"allow\"\ninvalid-value = \"allow\"\n";
    write(&dir.path().join("agentc.toml"), project);
    let (code, left) = summary(&check);
    assert_eq!((code, &left[..]), (Some(0), &["warning stray-entry".to_owned()][..]));
    assert_eq!(summary(&[&check[..], &["--deny-warnings"]].concat()).0, Some(1));
    assert_eq!(summary(&lock).0, Some(0));
    assert!(dir.path().join("agentc.lock").is_file());
}

/// A key of `[lints]` that is no code, or a level that is none, is an error
/// at its line and column with "did you mean".
#[test]
fn an_unknown_lint_code_or_level_is_an_error_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/skills/billing/SKILL.md"), SKILL);
    let project = "[lints]\nunknown-tool = \"deny\"\nunknwn-skill = \"allow\"\n\
                   stray-entry = \"alow\"\n";
    write(&dir.path().join("agentc.toml"), project);
    let out = agentc(&["check"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "error[invalid-value]: `unknwn-skill` is not a diagnostic code\n --> agentc.toml:3:1"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `unknown-skill`?"), "{stderr}");
    assert!(
        stderr.contains("error[invalid-value]: `alow` is not a level\n --> agentc.toml:4:15"),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `allow`?"), "{stderr}");
    // Each near miss carries its fix, for an editor to offer.
    let json = agentc(&["check", "--message-format", "json"], dir.path());
    let fixes: Vec<String> = text(&json.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|d| {
            let edit = &d["fix"]["edits"][0];
            Some(format!("{}..{} {}", edit["start"], edit["end"], edit["replacement"].as_str()?))
        })
        .collect();
    assert_eq!(fixes, ["30..42 unknown-skill", "68..72 allow"]);
}

#[test]
fn the_stale_lockfile_hint_is_a_command_that_works() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("team agents/skills/billing/SKILL.md"), SKILL);
    let out = agentc(&["lock", "team agents", "-o", "out.lock", "--check"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("no problems found"), "{stderr}");
    let hint = stderr.split('`').nth(1).expect("a command in backquotes");
    assert_eq!(hint, "agentc lock 'team agents' -o out.lock");
    let words = ["lock", "team agents", "-o", "out.lock"];
    assert!(agentc(&words, dir.path()).status.success());
    let checked = agentc(&["lock", "team agents", "-o", "out.lock", "--check"], dir.path());
    assert!(checked.status.success(), "{}", text(&checked.stderr));
}

#[test]
fn a_run_that_cannot_start_is_json_when_json_is_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let out = agentc(&["check", "missing", "--message-format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    let first: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["code"], "cannot-run");
    assert!(first["message"].as_str().unwrap().contains("`missing` does not exist"));
    assert_eq!(stdout.lines().last().unwrap(), r#"{"type":"summary","errors":1,"warnings":0}"#);
}

#[test]
fn the_example_checks_and_locks_with_no_argument_in_its_folder() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/support-desk");
    let check = agentc(&["check"], &example);
    assert_eq!(text(&check.stderr), "no problems found\n");
    let lock = agentc(&["lock", "--check"], &example);
    assert!(lock.status.success(), "{}", text(&lock.stderr));
    assert_eq!(text(&lock.stderr), "agentc.lock is up to date\n");
}

#[test]
fn a_huge_sparse_registry_is_refused_not_allocated() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/skills/billing/SKILL.md"), SKILL);
    let registry = std::fs::File::create(dir.path().join("registry.yaml")).unwrap();
    // A terabyte that takes no disk: the read must not believe the size.
    registry.set_len(1 << 40).unwrap();
    let out = agentc(&["check", "agents", "--registry", "registry.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error[file-too-large]"), "{stderr}");
    assert!(stderr.contains("registry.yaml"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn names_cannot_forge_lines_or_steer_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/skills/billing/SKILL.md"), SKILL);
    let forged = "notes\nerror[unknown-tool]: forged\n\u{1b}]0;owned\u{7}\u{1b}[31m";
    std::fs::create_dir_all(dir.path().join("agents").join(forged)).unwrap();
    let out = agentc(&["check", "agents"], dir.path());
    let stderr = text(&out.stderr);
    assert!(!stderr.contains('\u{1b}') && !stderr.contains('\u{7}'), "{stderr:?}");
    assert!(!stderr.lines().any(|l| l.starts_with("error[unknown-tool]")), "{stderr}");
    assert!(
        stderr.contains(r"notes\nerror[unknown-tool]: forged\n\u{1b}]0;owned\u{7}"),
        "{stderr}"
    );
}

#[test]
fn a_reader_that_stops_reading_ends_the_run_quietly() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..2000 {
        write(&dir.path().join(format!("agents/stray-{i}/notes.txt")), "x");
    }
    write(&dir.path().join("agents/skills/billing/SKILL.md"), SKILL);
    let mut child = Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(["check", "agents", "--message-format", "json"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!text(&out.stderr).contains("Broken pipe"), "{}", text(&out.stderr));
}

/// Every shell's completion script is generated, names the commands and
/// their options, and bash's is valid bash.
#[test]
fn completions_are_generated_for_each_shell() {
    let dir = tempfile::tempdir().unwrap();
    let markers = [
        ("bash", "complete -F _agentc"),
        ("zsh", "#compdef agentc"),
        ("fish", "complete -c agentc"),
        ("powershell", "Register-ArgumentCompleter"),
    ];
    for (shell, marker) in markers {
        let out = agentc(&["completions", shell], dir.path());
        assert!(out.status.success(), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        for expected in [marker, "check", "lock", "message-format"] {
            assert!(script.contains(expected), "{shell} script lacks {expected}");
        }
        if shell == "bash" {
            let path = dir.path().join("agentc.bash");
            write(&path, &script);
            let syntax = Command::new("bash").arg("-n").arg(&path).output().unwrap();
            assert!(syntax.status.success(), "bash -n: {}", text(&syntax.stderr));
        }
    }
    let out = agentc(&["completions", "tcsh"], dir.path());
    assert_eq!(out.status.code(), Some(2));
}

/// The manual prints as one page, or is written as a page per command.
#[test]
fn the_manual_is_generated() {
    let dir = tempfile::tempdir().unwrap();
    let out = agentc(&["man"], dir.path());
    assert!(out.status.success());
    let page = text(&out.stdout);
    for expected in [".TH agentc 1", "Exit codes", "check", "explain"] {
        assert!(page.contains(expected), "the page lacks {expected}");
    }
    let out = agentc(&["man", "--out", "man1"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let commands =
        ["check", "lock", "graph", "schema", "init", "lsp", "mcp", "completions", "man", "explain"];
    for name in std::iter::once("agentc".to_owned()).chain(commands.map(|c| format!("agentc-{c}")))
    {
        let page = std::fs::read_to_string(dir.path().join(format!("man1/{name}.1"))).unwrap();
        assert!(page.contains(&format!(".TH {name} 1")), "{name}.1:\n{page}");
    }
}

/// `--message-format github` prints one workflow command per diagnostic on
/// stdout, at the diagnostic's lines and columns, with the help on a line of
/// its own; the summary goes to stderr.
#[test]
fn github_format_prints_workflow_commands() {
    let dir = tempfile::tempdir().unwrap();
    let skill = "---\nname: billing\ndescription: Billing, refunds.\ntools:\n  - lookup_ordr\n---\nAnswer.\n";
    write(&dir.path().join("agents/skills/billing/SKILL.md"), skill);
    let tool = r#"{ "name": "lookup_order", "description": "Look an order up." }"#;
    write(&dir.path().join("agents/tools/lookup_order/manifest.json"), tool);
    let out = agentc(&["check", "agents", "--message-format", "github"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(
        lines[0].starts_with(
            "::error title=agentc unknown-tool,file=agents/skills/billing/SKILL.md,line=5,endLine=5,\
             col=5,endColumn=16::unknown tool `lookup_ordr`%0Ahelp: did you mean `lookup_order`?"
        ),
        "{}",
        lines[0]
    );
    assert!(text(&out.stderr).contains("1 error"), "{}", text(&out.stderr));

    let out = agentc(&["check", "missing", "--message-format", "github"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stdout),
        "::error title=agentc cannot-run::the agents directory `missing` does not exist\n"
    );
}

/// A repository using the assistants in place, with no `agentc.toml`: its
/// `agents/` is a Python package, not agentc's layout.
fn repository(dir: &Path) -> std::path::PathBuf {
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write(&repo.join("agents/__init__.py"), "");
    write(&repo.join("src/deep/main.py"), "print('hi')\n");
    write(&repo.join("README.md"), "# repo\n");
    write(
        &repo.join(".claude/agents/reviewer.md"),
        "---\nname: reviewer\ndescription: Reviews a change.\nmodel: sonet\n---\nReview.\n",
    );
    repo
}

#[test]
fn with_no_argument_the_whole_repository_is_read_from_any_folder_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    for (folder, shown) in [
        ("", ".claude/agents/reviewer.md:4:8"),
        ("src/deep", "../../.claude/agents/reviewer.md:4:8"),
    ] {
        let out = agentc(&["check"], &repo.join(folder));
        assert_eq!(out.status.code(), Some(1), "{folder}: {}", text(&out.stderr));
        let stderr = text(&out.stderr);
        assert!(stderr.contains(&format!("--> {shown}")), "{folder}: {stderr}");
        // Ordinary files at the top are not stray, and `agents/` did not win.
        assert!(!stderr.contains("stray-entry") && !stderr.contains("empty-root"), "{stderr}");
    }
}

#[test]
fn a_part_of_the_repository_is_checked_as_its_top_sees_it() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    // A project skill Claude Code loads without frontmatter, and a skill of the
    // top's collection with a broken link: read alone, each folder would be
    // agentc's own layout, with other rules.
    write(&repo.join(".claude/skills/deploy/SKILL.md"), "Deploy with `make deploy`.\n");
    write(
        &repo.join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fills PDF forms.\n---\nSee [forms](forms.md).\n",
    );
    let whole = text(&agentc(&["check"], &repo).stderr);
    assert!(whole.contains("--> .claude/agents/reviewer.md:4:8"), "{whole}");
    assert!(whole.contains("--> skills/pdf/SKILL.md:5:13"), "{whole}");
    for (given, cwd, shown) in [
        ("skills/pdf", "", "skills/pdf/SKILL.md:5:13"),
        ("SKILL.md", "skills/pdf", "../../skills/pdf/SKILL.md:5:13"),
    ] {
        let out = agentc(&["check", given], &repo.join(cwd));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{given}: {stderr}");
        assert!(stderr.contains(&format!("--> {shown}")), "{given}: {stderr}");
        assert!(stderr.contains("1 warning emitted"), "only the part is reported: {stderr}");
    }
    // The project skill without frontmatter loads: from its folder as from the top, only
    // the warning that Claude cannot pick it by itself.
    let out = agentc(&["check", ".claude/skills/deploy"], &repo);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("warning[missing-field]: the skill has no `description`"), "{stderr}");
    assert!(stderr.contains("1 warning emitted"), "{stderr}");
    // A file no host reads is a mistake in the command; a folder may hold nothing yet.
    let out = agentc(&["check", "README.md"], &repo);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("`README.md` is not a file a host agentc knows reads"), "{stderr}");
    write(&repo.join("skills/notes/todo.txt"), "Write the deploy skill.\n");
    let out = agentc(&["check", "notes"], &repo.join("skills"));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("`skills/notes` holds no file a host agentc knows reads"), "{stderr}");
}

#[test]
fn lock_at_a_repositorys_top_writes_inside_it() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    write(
        &repo.join(".claude/agents/reviewer.md"),
        "---\nname: reviewer\ndescription: Reviews a change.\ntools: Read\n---\nReview.\n",
    );
    let out = agentc(&["lock", "--layout", "claude,copilot"], &repo.join("src"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(repo.join("agentc.lock").is_file());
    assert!(!dir.path().join("agentc.lock").exists(), "written outside the repository");
    let check = agentc(&["lock", "--check"], &repo);
    assert!(check.status.success(), "{}", text(&check.stderr));
}

#[test]
fn layout_narrows_the_hosts_files_too() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    write(&repo.join(".cursor/rules/style.mdc"), "---\nalwaysApply: yes\n---\nBe terse.\n");
    write(&repo.join(".kiro/steering/api.md"), "---\ninclusion: sometimes\n---\nREST.\n");
    write(&repo.join("CLAUDE.md"), "See [the guide](docs/missing.md).\n");
    let codes = |args: &[&str]| {
        let out = agentc(args, &repo);
        let stdout = text(&out.stdout);
        let mut files: Vec<String> = (stdout.lines())
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter_map(|d| d["file"].as_str().map(str::to_owned))
            .collect();
        files.dedup();
        files
    };
    let json = ["check", "--message-format", "json"];
    let all = codes(&json);
    let expected = [".claude/agents/reviewer.md", ".cursor/rules/style.mdc"];
    assert_eq!(all, [&expected[..], &[".kiro/steering/api.md", "CLAUDE.md"]].concat());
    let kiro = codes(&[&json[..], &["--layout", "kiro"]].concat());
    assert_eq!(kiro, [".kiro/steering/api.md"]);
    let two = codes(&[&json[..], &["--layout", "cursor,memory"]].concat());
    assert_eq!(two, [".cursor/rules/style.mdc", "CLAUDE.md"]);
}

#[test]
fn init_in_a_repository_with_agent_files_writes_a_project_file_for_them() {
    let dir = tempfile::tempdir().unwrap();
    let repo = repository(dir.path());
    write(
        &repo.join(".claude/agents/reviewer.md"),
        "---\nname: reviewer\ndescription: Reviews a change.\ntools: Read\n---\nReview.\n",
    );
    let out = agentc(&["init"], &repo);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("claude in .claude/"), "{}", text(&out.stderr));
    // No demo to read instead of the repository's own files.
    assert!(!repo.join("agents/triage").exists());
    let project = std::fs::read_to_string(repo.join("agentc.toml")).unwrap();
    assert!(project.contains("root = \".\"\n"), "{project}");
    let check = agentc(&["check", "--message-format", "json"], &repo.join("src"));
    assert!(check.status.success(), "{}", text(&check.stderr));
    let lock = agentc(&["lock"], &repo);
    assert!(lock.status.success(), "{}", text(&lock.stderr));
    let lockfile = std::fs::read_to_string(repo.join("agentc.lock")).unwrap();
    assert!(lockfile.contains(".claude/agents/reviewer.md"), "{lockfile}");
}

/// A repository with credentials in a skill's body, `.mcp.json`, a Copilot
/// agent and a subagent's `model` (where another diagnostic quotes the
/// value): every output format reports them, and none prints them. With
/// `secret = "allow"` in `agentc.toml`, none is reported.
#[test]
fn no_output_format_prints_a_secret() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    // Fakes of the providers' formats, put together here so no line of this
    // file is one.
    let github = ["ghp_", "FAKEagentcCliTestN0tARealT0ken9x8y7z"].concat();
    let slack = ["xoxb-", "1234567890-9876543210-FAKEagentcCliTest"].concat();
    let key_lines = [
        "b3BlbnNzaC1rZXktdjEAVEhJUyBJUyBOT1QgQSBLRVk6IGEgZmFrZSBmb3IgYWdlbnRjIH",
        "Rlc3RzIG9mIHRoZSBzZWNyZXQgY29kZS4gVEhJUyBJUyBOT1QgQSBLRVk6IGEgZmFrZSBm",
    ];
    let armour = |edge: &str| format!("-----{edge} OPENSSH {}-----", ["PRIVATE", " KEY"].concat());
    write(
        &repo.join(".claude/skills/deploy/SKILL.md"),
        format!(
            "---\nname: deploy\ndescription: Deploy to staging.\n---\nKey:\n{}\n{}\n{}\n{}\n",
            armour("BEGIN"),
            key_lines[0],
            key_lines[1],
            armour("END")
        ),
    );
    write(
        &repo.join(".mcp.json"),
        format!(
            "{{\"mcpServers\": {{\"github\": {{\"command\": \"gh-mcp\", \"env\": {{\"TOKEN\": \"{github}\"}}}}}}}}\n"
        ),
    );
    write(
        &repo.join(".claude/agents/reviewer.md"),
        format!("---\nname: reviewer\ndescription: Reviews.\nmodel: {github}\n---\nReview.\n"),
    );
    write(
        &repo.join(".github/agents/notify.agent.md"),
        format!(
            "---\ndescription: Notify.\nmcp-servers:\n  slack:\n    type: local\n    command: npx\n    \
             tools: ['*']\n    env:\n      SLACK_BOT_TOKEN: {slack}\n---\nNotify.\n"
        ),
    );
    let hidden = [&github[4..], &slack[4..], key_lines[0], key_lines[1]];
    for format in ["human", "json", "github", "sarif"] {
        let out = agentc(&["check", "--message-format", format], &repo);
        assert_eq!(out.status.code(), Some(1), "{format}: {}", text(&out.stderr));
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(all.contains("secret"), "{format}: {all}");
        for secret in hidden {
            assert!(!all.contains(secret), "{format} prints `{secret}`:\n{all}");
        }
        if format == "human" {
            assert!(all.contains("ghp_****"), "the line is shown masked: {all}");
            assert!(all.contains("bad-model"), "the other diagnostic is there: {all}");
        }
    }
    let out = agentc(&["check", "--message-format", "json"], &repo);
    let secrets = text(&out.stdout).matches("\"code\":\"secret\"").count();
    assert_eq!(secrets, 4, "{}", text(&out.stdout));

    // A team that allows the rule is reporting none, and the rest as before.
    write(&repo.join("agentc.toml"), "[lints]\nsecret = \"allow\"\n");
    let out = agentc(&["check", "--message-format", "json"], &repo);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("\"code\":\"secret\"").count(), 0, "{stdout}");
    assert!(stdout.contains("\"code\":\"bad-model\""), "{stdout}");
}

/// `lock --check` names the files that changed as the diagnostics name
/// files: from the current folder, not from the root.
#[test]
fn lock_check_names_files_from_the_current_folder() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("agents/skills/billing/SKILL.md");
    write(&skill, SKILL);
    write(&dir.path().join("AGENTS.md"), "Be brief.\n");
    let out = agentc(&["lock", "agents", "--workspace", "."], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    write(&skill, SKILL.replace("Answer", "Answer all"));
    write(&dir.path().join("AGENTS.md"), "Be briefer.\n");
    let out = agentc(&["lock", "agents", "--workspace", ".", "--check"], dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("\n  files changed: AGENTS.md, agents/skills/billing/SKILL.md\n"),
        "{stderr}"
    );
}

/// `-v` names each layout's folder as the diagnostics name files: from the
/// current folder, the root itself as the user named it.
#[test]
fn verbose_names_a_plugin_at_the_top_by_the_folder_given() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("formatter/.claude-plugin/plugin.json"),
        "{ \"name\": \"formatter\", \"description\": \"Formats the code.\" }\n",
    );
    write(
        &dir.path().join("formatter/skills/tidy/SKILL.md"),
        "---\nname: tidy\ndescription: Use to tidy the code.\n---\nTidy it.\n",
    );
    let out = agentc(&["check", "formatter", "-v"], dir.path());
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("found claude-plugins in formatter\n"), "{stderr}");
    let out = agentc(&["check", ".", "-v"], &dir.path().join("formatter"));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("found claude-plugins in .\n"), "{stderr}");
}

/// `-v` names the hosts' files read at fixed places too (issue #37: it said
/// "found no layout agentc knows" while it checked Cursor rules).
#[test]
fn verbose_names_the_hosts_whose_files_were_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    write(
        &dir.path().join(".cursor/rules/rust.mdc"),
        "---\ndescription: Rust\nglobs: *.md\nalwaysApply: false\n---\nUse thiserror.\n",
    );
    write(&dir.path().join("AGENTS.md"), "# Agents\n\nRun the tests.\n");
    let out = agentc(&["check", "-v"], dir.path());
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("found cursor         in .cursor/\nfound memory         in AGENTS.md\n"),
        "{stderr}"
    );
    assert!(!stderr.contains("found no layout"), "{stderr}");
}

/// A plugin at the top of the checked folder (the common single-plugin
/// repository) names its components and hook scripts from that folder, as one
/// folder down: they are inside the project, and a missing one is missing.
#[test]
fn a_plugin_at_the_top_names_its_components_from_the_top() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path();
    write(
        &top.join(".claude-plugin/plugin.json"),
        r#"{"name":"p","skills":["./skills/x"],"mcpServers":"./.mcp.json","hooks":"./hooks/hooks.json"}"#,
    );
    write(&top.join("skills/x/SKILL.md"), "---\nname: x\ndescription: Use to x.\n---\nDo x.\n");
    write(&top.join(".mcp.json"), r#"{"mcpServers":{}}"#);
    let hooks = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/run.sh"}]}]}}"#;
    write(&top.join("hooks/hooks.json"), hooks);
    write(&top.join("run.sh"), "#!/bin/sh\n");
    let out = agentc(&["check", "--message-format", "json"], top);
    assert_eq!(text(&out.stdout), "{\"type\":\"summary\",\"errors\":0,\"warnings\":0}\n");
    assert_eq!(out.status.code(), Some(0));

    std::fs::remove_file(top.join("run.sh")).unwrap();
    let out = agentc(&["check", "--message-format", "json"], top);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(
        stdout.starts_with(
            "{\"type\":\"diagnostic\",\"code\":\"missing-path\",\"severity\":\"error\",\
             \"message\":\"the hook script `run.sh` names a file that does not exist\",\
             \"file\":\"hooks/hooks.json\",\"line\":1,\"column\":80,"
        ),
        "{stdout}"
    );
}

/// Claude Code 2.1.332 loads a plugin's subagent without frontmatter or
/// `name`, named after its file (cli/tests/hosts.rs shows it): no error, and a
/// warning only where it has no `description`. A project's subagent still
/// needs both.
#[test]
fn a_plugins_subagent_needs_no_name() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path();
    write(&top.join(".claude-plugin/plugin.json"), r#"{"name":"reviewers"}"#);
    write(&top.join("agents/style.md"), "---\ndescription: Use to review style.\n---\nReview.\n");
    write(&top.join("agents/security.md"), "Review the diff for unvalidated input.\n");
    write(&top.join("agents/tests.md"), "---\nname: tests\ndescription: \"\"\n---\nReview.\n");
    let out = agentc(&["check", "--message-format", "json"], top);
    let found: Vec<String> = text(&out.stdout)
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            format!("{} {} {}", value["severity"], value["code"], value["file"])
        })
        .collect();
    assert_eq!(
        found,
        [
            r#""warning" "missing-field" "agents/security.md""#,
            r#""warning" "invalid-value" "agents/tests.md""#,
            "null null null",
        ],
        "{}",
        text(&out.stdout)
    );
    assert_eq!(out.status.code(), Some(0));

    let project = tempfile::tempdir().unwrap();
    write(
        &project.path().join(".claude/agents/style.md"),
        "---\ndescription: Use to review style.\n---\nReview.\n",
    );
    let out = agentc(&["check", "--message-format", "json"], project.path());
    assert!(
        text(&out.stdout).contains(
            r#""code":"missing-field","severity":"error","message":"the required field `name` is missing""#
        ),
        "{}",
        text(&out.stdout)
    );
}

/// Claude Code 2.1.332 loads a plugin's skill without frontmatter or `name`,
/// named after its folder (cli/tests/hosts.rs shows it): a subagent of the
/// plugin finds it by that name, and only the missing `description` is a
/// warning. A project's skill is loaded the same way.
#[test]
fn a_plugins_skill_is_named_after_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path();
    write(&top.join(".claude-plugin/plugin.json"), r#"{"name":"writing"}"#);
    write(
        &top.join("skills/changelog/SKILL.md"),
        "---\ndescription: Use for changelogs.\n---\nWrite.\n",
    );
    write(&top.join("skills/summarise/SKILL.md"), "# Summarise\n\nIn five bullets.\n");
    write(
        &top.join("agents/editor.md"),
        "---\nname: editor\ndescription: Use to edit.\nskills: changelog, summarise\n---\nEdit.\n",
    );
    let out = agentc(&["check", "--message-format", "json"], top);
    let found: Vec<String> = text(&out.stdout)
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            format!("{} {} {}", value["severity"], value["code"], value["file"])
        })
        .collect();
    assert_eq!(
        found,
        [r#""warning" "missing-field" "skills/summarise/SKILL.md""#, "null null null"],
        "{}",
        text(&out.stdout)
    );

    let project = tempfile::tempdir().unwrap();
    write(
        &project.path().join(".claude/skills/changelog/SKILL.md"),
        "---\ndescription: Use for changelogs.\n---\nWrite.\n",
    );
    let out = agentc(&["check", "--message-format", "json"], project.path());
    assert_eq!(text(&out.stdout), "{\"type\":\"summary\",\"errors\":0,\"warnings\":0}\n");
}

/// Every schema kind `schema` accepts is listed by its `--help`.
#[test]
fn schema_help_lists_every_kind() {
    let dir = tempfile::tempdir().unwrap();
    let help = text(&agentc(&["schema", "--help"], dir.path()).stdout);
    for kind in agentc_schema::Kind::ALL {
        assert!(help.contains(&format!("- {}:", kind.name())), "{} missing:\n{help}", kind.name());
    }
    let short = text(&agentc(&["schema", "-h"], dir.path()).stdout);
    let names: Vec<&str> = agentc_schema::Kind::ALL.iter().map(|k| k.name()).collect();
    // Wrapped to the help's width, so compared without the line breaks.
    let short = short.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(short.contains(&format!("[possible values: {}]", names.join(", "))), "{short}");
}

#[test]
fn init_help_shows_one_default() {
    let dir = tempfile::tempdir().unwrap();
    let help = text(&agentc(&["init", "--help"], dir.path()).stdout);
    assert_eq!(help.matches("[default: .]").count(), 1, "{help}");
    assert!(!help.contains("current folder"), "{help}");
}

/// `init --help` says what each layout writes; a value that is no layout
/// gets the list of those that are.
#[test]
fn init_help_explains_each_layout() {
    let dir = tempfile::tempdir().unwrap();
    let help = text(&agentc(&["init", "--help"], dir.path()).stdout);
    for layout in ["agentc"].into_iter().chain(INIT_LAYOUTS) {
        assert!(help.contains(&format!("- {layout}:")), "{layout}:\n{help}");
    }
    let out = agentc(&["init", "--layout", "clade"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("invalid value 'clade' for '--layout <LAYOUT>'"), "{stderr}");
    let all = ["agentc"].into_iter().chain(INIT_LAYOUTS).collect::<Vec<_>>().join(", ");
    assert!(stderr.contains(&format!("[possible values: {all}]")), "{stderr}");
    assert!(stderr.contains("a similar value exists: 'claude'"), "{stderr}");
    assert!(!dir.path().join("agentc.toml").exists());
}

#[test]
fn explain_without_a_code_points_at_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let out = agentc(&["explain"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: name a diagnostic code, e.g. `agentc explain unknown-tool`; \
         `agentc explain --list` lists them all\n"
    );
    assert!(out.stdout.is_empty());
}

/// What bash offers after `agentc` and `words` (the last one being typed),
/// through the completion script agentc prints, run by bash itself.
fn bash_completes(dir: &Path, words: &[&str]) -> Option<Vec<String>> {
    let script = dir.join("agentc.bash");
    std::fs::write(&script, agentc(&["completions", "bash"], dir).stdout).unwrap();
    let words: Vec<String> =
        std::iter::once("agentc").chain(words.iter().copied()).map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source {}; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE=\"${{COMP_WORDS[*]}}\"; \
         COMP_POINT=${{#COMP_LINE}}; _agentc agentc \"${{COMP_WORDS[COMP_CWORD]}}\" \
         \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words.join(" "),
        words.len() - 1
    );
    let out = match Command::new("bash").arg("-c").arg(&program).current_dir(dir).output() {
        Ok(out) => out,
        Err(err) => {
            eprintln!("skipped: bash does not run here ({err})");
            return None;
        }
    };
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut offered: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    offered.sort();
    Some(offered)
}

/// Shells complete the values agentc knows: layouts, scopes, schema kinds
/// and diagnostic codes, each from the list the command checks against.
#[test]
fn completions_offer_layouts_scopes_kinds_and_codes() {
    let dir = tempfile::tempdir().unwrap();
    let Some(layouts) = bash_completes(dir.path(), &["check", "--layout", "cl"]) else {
        return;
    };
    assert_eq!(layouts, ["claude", "claude-plugins", "cline"]);
    let scopes = bash_completes(dir.path(), &["lock", "--exclude", "repo-"]).unwrap();
    assert_eq!(scopes, ["repo-prompt", "repo-skills", "repo-tools"]);
    let kinds = bash_completes(dir.path(), &["schema", "copilot-"]).unwrap();
    assert_eq!(
        kinds,
        [
            "copilot-agent",
            "copilot-hooks",
            "copilot-instructions",
            "copilot-prompt",
            "copilot-setup-steps",
            "copilot-skill"
        ]
    );
    let codes = bash_completes(dir.path(), &["explain", "unknown-t"]).unwrap();
    assert_eq!(codes, ["unknown-tool"]);
}

/// `check` on a project with an error, in an environment holding only
/// `env` of the colour variables; its stderr.
fn diagnostics_with(dir: &Path, flags: &[&str], env: &[(&str, &str)]) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agentc"));
    command.arg("check").args(flags).current_dir(dir);
    for var in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM", "CI"] {
        command.env_remove(var);
    }
    command.envs(env.iter().copied());
    text(&command.output().unwrap().stderr)
}

fn colour_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/skills/billing/SKILL.md"), "---\nname: billing\n---\nAnswer.\n");
    dir
}

/// Colour follows `--color`, then NO_COLOR, CLICOLOR_FORCE and CLICOLOR, as
/// clap and cargo read them; stderr here is a pipe, not a terminal.
#[test]
fn colour_follows_the_flag_then_the_environment() {
    let dir = colour_project();
    let coloured = |flags: &[&str], env: &[(&str, &str)]| {
        let stderr = diagnostics_with(dir.path(), flags, env);
        assert!(stderr.contains("missing-field"), "{stderr}");
        stderr.contains('\u{1b}')
    };
    assert!(!coloured(&[], &[]), "a pipe is not coloured");
    assert!(coloured(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(coloured(&[], &[("CLICOLOR_FORCE", "1"), ("CLICOLOR", "0")]), "forced");
    assert!(!coloured(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]), "NO_COLOR first");
    assert!(coloured(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "")]), "an empty NO_COLOR");
    assert!(coloured(&["--color", "always"], &[]));
    assert!(coloured(&["--color=always"], &[("NO_COLOR", "1")]), "the flag overrides");
    assert!(!coloured(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
    assert!(coloured(&["--color", "auto"], &[("CLICOLOR_FORCE", "1")]));
    // The flag's values complete like the others.
    if let Some(colors) = bash_completes(dir.path(), &["check", "--color", ""]) {
        assert_eq!(colors, ["always", "auto", "never"]);
    }
}

/// On a terminal (util-linux's `script` gives agentc one), colour is on
/// unless NO_COLOR or CLICOLOR=0 turns it off.
#[test]
fn colour_on_a_terminal_unless_turned_off() {
    let dir = colour_project();
    let agentc = env!("CARGO_BIN_EXE_agentc");
    let on_terminal = |env: &[(&str, &str)]| -> Option<bool> {
        let mut command = Command::new("script");
        command
            .args(["-qec", &format!("'{agentc}' check"), "/dev/null"])
            .current_dir(dir.path())
            .env("TERM", "xterm-256color");
        for var in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "CI"] {
            command.env_remove(var);
        }
        command.envs(env.iter().copied());
        let out = command.output().ok()?;
        let said = text(&out.stdout);
        assert!(said.contains("missing-field"), "{said}");
        Some(said.contains('\u{1b}'))
    };
    let Some(plain) = on_terminal(&[]) else {
        eprintln!("skipped: util-linux's `script` is not installed");
        return;
    };
    assert!(plain, "a terminal is coloured");
    assert_eq!(on_terminal(&[("NO_COLOR", "1")]), Some(false));
    assert_eq!(on_terminal(&[("CLICOLOR", "0")]), Some(false));
    assert_eq!(on_terminal(&[("CLICOLOR", "1")]), Some(true));
}
