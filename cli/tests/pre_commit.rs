//! The pre-commit hooks (`.pre-commit-hooks.yaml`) run under the real
//! `pre-commit` tool (PyPI; `.ci/run` installs it): a commit with a broken
//! skill is refused with agentc's diagnostic, a clean one goes through, and
//! the lockfile hook catches a stale `agentc.lock`. The wheel hooks install
//! the wheel built from this build's binary, found through `PIP_FIND_LINKS`;
//! the source hooks run this build's binary through `AGENTC`.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{text, write};

/// The program, run in `dir` with pre-commit's and git's state kept inside
/// the test's folder, and the source hooks' script running this build.
fn run(program: &str, args: &[&str], dir: &Path, home: &Path) -> Output {
    command(program, args, dir, home)
        // The hook's script runs this build of agentc instead of building one.
        .env("AGENTC", env!("CARGO_BIN_EXE_agentc"))
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"))
}

/// The program, run in `dir` with pre-commit's and git's state kept inside
/// the test's folder.
fn command(program: &str, args: &[&str], dir: &Path, home: &Path) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", home.join("pre-commit"))
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "agentc tests")
        .env("GIT_AUTHOR_EMAIL", "tests@agentc.invalid")
        .env("GIT_COMMITTER_NAME", "agentc tests")
        .env("GIT_COMMITTER_EMAIL", "tests@agentc.invalid")
        .env_remove("AGENTC")
        .env("NO_COLOR", "1");
    command
}

fn ok(out: Output) -> Output {
    assert!(out.status.success(), "{}\n{}", text(&out.stdout), text(&out.stderr));
    out
}

fn pre_commit_installed() -> bool {
    common::installed("pre-commit", "--version", "`pre-commit`")
}

#[test]
fn the_source_hooks_run_under_pre_commit() {
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

    // A project using them, in the README's lines.
    let project = home.join("project");
    let config = format!(
        "repos:\n  - repo: {}\n    rev: {rev}\n    hooks: [{{ id: agentc-check-source }}, {{ id: agentc-lock-source }}]\n",
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

#[test]
fn the_wheel_hooks_install_the_wheel_and_run_under_pre_commit() {
    if !pre_commit_installed() {
        eprintln!("skipped: `pre-commit` is not installed (pip install pre-commit)");
        return;
    }
    let Some((wheels, _)) = common::wheel() else { return };
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path();
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // pre-commit pip-installs the hook repository: its pyproject.toml, whose backend reads
    // the version and the wheel's name from the files that own them.
    let hooks = home.join("agentc");
    for file in [
        ".pre-commit-hooks.yaml",
        "pyproject.toml",
        "Cargo.toml",
        "packaging/pypi/pyproject.toml",
        "packaging/pypi/pre-commit/agentc_pre_commit_backend.py",
    ] {
        write(&hooks.join(file), std::fs::read(top.join(file)).unwrap());
    }
    ok(run("git", &["init", "-q", "-b", "main"], &hooks, home));
    ok(run("git", &["add", "-A"], &hooks, home));
    ok(run("git", &["commit", "-q", "-m", "hooks"], &hooks, home));
    let rev = text(&ok(run("git", &["rev-parse", "HEAD"], &hooks, home)).stdout).trim().to_owned();

    // The example, with the README's lines; pip finds the wheel in the built folder only.
    let (_example, project) = common::example_project();
    std::fs::copy(top.join("examples/support-desk/agentc.lock"), project.join("agentc.lock"))
        .unwrap();
    let config = |repo: &str, rev: &str| {
        format!(
            "repos:\n  - repo: {repo}\n    rev: {rev}\n    hooks: [{{ id: agentc-check }}, {{ id: agentc-lock }}]\n"
        )
    };
    let readme = std::fs::read_to_string(top.join("README.md")).unwrap();
    let shown = format!("```yaml\n{}```", config("https://github.com/agentc/agentc", "<a tag>"));
    assert!(readme.contains(&shown), "the README's pre-commit block is not {shown}");
    write(&project.join(".pre-commit-config.yaml"), config(&hooks.to_string_lossy(), &rev));
    let pre_commit = |args: &[&str]| {
        command("pre-commit", args, &project, home)
            .env("PIP_NO_INDEX", "1")
            .env("PIP_FIND_LINKS", wheels.path())
            .output()
            .unwrap()
    };
    ok(run("git", &["init", "-q", "-b", "main"], &project, home));
    ok(run("git", &["add", "-A"], &project, home));
    let passed = ok(pre_commit(&["run", "--all-files"]));
    let said = text(&passed.stdout);
    assert!(said.contains("agentc check...") && said.contains("agentc lock --check..."), "{said}");
    assert_eq!(said.matches("Passed").count(), 2, "{said}");

    // The binary the hooks ran is the wheel's, installed in pre-commit's environment.
    let installed = std::fs::read_dir(home.join("pre-commit"))
        .unwrap()
        .flat_map(|clone| std::fs::read_dir(clone.unwrap().path()).into_iter().flatten())
        .map(|env| env.unwrap().path())
        .filter(|env| env.file_name().unwrap().to_string_lossy().starts_with("py_env-"))
        .map(|env| env.join("bin/agentc"))
        .collect::<Vec<_>>();
    assert_eq!(installed.len(), 1, "{installed:?}");
    let binary = std::fs::read(env!("CARGO_BIN_EXE_agentc")).unwrap();
    assert!(std::fs::read(&installed[0]).unwrap() == binary, "{}", installed[0].display());

    // A broken skill: both hooks fail, and the check shows the diagnostic.
    let skill = project.join("agents/skills/answer-from-kb/SKILL.md");
    let clean = std::fs::read_to_string(&skill).unwrap();
    let broken = clean.replace("tools: search_kb\n", "tools: search_kb, lookup_ordr\n");
    assert_ne!(broken, clean);
    write(&skill, broken);
    ok(run("git", &["add", "-A"], &project, home));
    let refused = pre_commit(&["run", "--all-files"]);
    assert!(!refused.status.success());
    let said = text(&refused.stdout) + &text(&refused.stderr);
    assert!(said.contains("error[unknown-tool]: unknown tool `lookup_ordr`"), "{said}");
    assert!(said.contains("agents/skills/answer-from-kb/SKILL.md:4:19"), "{said}");
    assert_eq!(said.matches("Failed").count(), 2, "{said}");
}
