//! The pre-commit hooks (`.pre-commit-hooks.yaml`) run under the real
//! `pre-commit` tool (PyPI; `.ci/run` installs it): a commit with a broken
//! skill is refused with agentc's diagnostic, a clean one goes through, and
//! the lockfile hook catches a stale `agents.lock`.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{text, write};

/// The program, run in `dir` with pre-commit's and git's state kept inside
/// the test's folder.
fn run(program: &str, args: &[&str], dir: &Path, home: &Path) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", home.join("pre-commit"))
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "agentc tests")
        .env("GIT_AUTHOR_EMAIL", "tests@agentc.invalid")
        .env("GIT_COMMITTER_NAME", "agentc tests")
        .env("GIT_COMMITTER_EMAIL", "tests@agentc.invalid")
        // The hook's script runs this build of agentc instead of building one.
        .env("AGENTC", env!("CARGO_BIN_EXE_agentc"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"))
}

fn ok(out: Output) -> Output {
    assert!(out.status.success(), "{}\n{}", text(&out.stdout), text(&out.stderr));
    out
}

fn pre_commit_installed() -> bool {
    common::installed("pre-commit", "--version", "`pre-commit`")
}

#[test]
fn the_hooks_run_under_pre_commit() {
    if !pre_commit_installed() {
        eprintln!("skipped: `pre-commit` is not installed (pip install pre-commit)");
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path();
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");

    // The hook repository: agentc's hook manifest and script, as committed here.
    let hooks = home.join("agentc");
    for file in [".pre-commit-hooks.yaml", "editors/pre-commit/agentc"] {
        write(&hooks.join(file), std::fs::read(top.join(file)).unwrap());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let script = hooks.join("editors/pre-commit/agentc");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    ok(run("git", &["init", "-q", "-b", "main"], &hooks, home));
    ok(run("git", &["add", "-A"], &hooks, home));
    ok(run("git", &["commit", "-q", "-m", "hooks"], &hooks, home));
    let rev = text(&ok(run("git", &["rev-parse", "HEAD"], &hooks, home)).stdout).trim().to_owned();

    // A project using them, in the README's three lines.
    let project = home.join("project");
    let config = format!(
        "repos:\n  - repo: {}\n    rev: {rev}\n    hooks: [{{ id: agentc-check }}, {{ id: agentc-lock }}]\n",
        hooks.display()
    );
    write(&project.join(".pre-commit-config.yaml"), config);
    let skill =
        "---\nname: billing\ndescription: Billing questions.\n---\nAnswer billing questions.\n";
    write(&project.join("agents/skills/billing/SKILL.md"), skill);
    ok(run("git", &["init", "-q", "-b", "main"], &project, home));
    ok(run("pre-commit", &["install"], &project, home));

    // Without a lockfile the lock hook refuses the commit and says how to write one.
    ok(run("git", &["add", "-A"], &project, home));
    let refused = run("git", &["commit", "-q", "-m", "agents"], &project, home);
    assert!(!refused.status.success());
    let said = text(&refused.stdout) + &text(&refused.stderr);
    assert!(said.contains("agentc check") && said.contains("Passed"), "{said}");
    assert!(said.contains("agentc lock --check") && said.contains("Failed"), "{said}");
    assert!(said.contains("agentc lock"), "{said}");

    // With the lockfile written, the commit goes through.
    ok(run(env!("CARGO_BIN_EXE_agentc"), &["lock"], &project, home));
    ok(run("git", &["add", "-A"], &project, home));
    ok(run("git", &["commit", "-q", "-m", "agents"], &project, home));

    // A broken skill: both hooks fail, and the check shows the diagnostic.
    let broken = skill.replace("name: billing", "name: billing\ntools: lookup_ordr");
    write(&project.join("agents/skills/billing/SKILL.md"), &broken);
    ok(run("git", &["add", "-A"], &project, home));
    let refused = run("git", &["commit", "-q", "-m", "broken"], &project, home);
    assert!(!refused.status.success());
    let said = text(&refused.stdout) + &text(&refused.stderr);
    assert!(said.contains("error[unknown-tool]: unknown tool `lookup_ordr`"), "{said}");
    assert!(said.contains("agents/skills/billing/SKILL.md:3:8"), "{said}");
    assert_eq!(said.matches("Failed").count(), 2, "{said}");

    // Files the hooks do not concern (a Rust file) skip them.
    ok(run("git", &["reset", "-q", "--hard"], &project, home));
    write(&project.join("src/main.rs"), "fn main() {}\n");
    ok(run("git", &["add", "-A"], &project, home));
    let skipped = ok(run("git", &["commit", "-q", "-m", "code"], &project, home));
    let said = text(&skipped.stdout) + &text(&skipped.stderr);
    assert!(said.contains("(no files to check)Skipped"), "{said}");
}
