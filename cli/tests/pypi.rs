//! The PyPI wheel (`packaging/pypi`), built from this build's binary and installed from the
//! built file into a fresh virtual environment (no registry): `agentc` and `python -m agentc`
//! there are the binary (same output, same exit code), and the Python API returns what the
//! command line's JSON says.
#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{text, write};

/// `program args` in `dir`, without colour.
fn run(program: impl AsRef<std::ffi::OsStr>, args: &[&str], dir: &Path) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the program runs")
}

/// The same stdout, stderr and exit code.
fn same(a: &Output, b: &Output, what: &str) {
    assert_eq!(a.status.code(), b.status.code(), "{what}: exit codes differ");
    assert_eq!(text(&a.stdout), text(&b.stdout), "{what}: stdout differs");
    assert_eq!(text(&a.stderr), text(&b.stderr), "{what}: stderr differs");
}

/// The JSON values of `--message-format json` lines.
fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    text(&out.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// The wheel's name on PyPI, as `packaging/pypi/pyproject.toml` declares it.
fn wheel_name() -> String {
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pyproject = std::fs::read_to_string(top.join("packaging/pypi/pyproject.toml")).unwrap();
    let line = pyproject.lines().find(|line| line.starts_with("name = ")).unwrap();
    line["name = ".len()..].trim_matches('"').to_owned()
}

#[test]
fn the_readme_installs_the_wheel_by_its_name() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(top.join("README.md")).unwrap();
    let name = wheel_name();
    for line in [
        format!("pipx run --spec {name} agentc check       # or: uvx --from {name} agentc check\n"),
        format!("pip install {name}                        # puts `agentc` on PATH"),
    ] {
        assert!(readme.contains(&line), "the README's From PyPI block lacks {line:?}");
    }
}

#[test]
fn the_wheel_installs_agentc_and_its_python_api() {
    let Some((wheels, _)) = common::wheel() else { return };
    let name = wheel_name();
    let venv = tempfile::tempdir().unwrap();
    let made = run("python3", &["-m", "venv", &venv.path().to_string_lossy()], venv.path());
    assert!(made.status.success(), "{}", text(&made.stderr));
    let bin = venv.path().join("bin");
    let pip = bin.join("pip");
    let installed = run(
        &pip,
        &["install", "--no-index", "--find-links", &wheels.path().to_string_lossy(), &name],
        venv.path(),
    );
    assert!(installed.status.success(), "{}", text(&installed.stderr));

    let (_example, desk) = common::example_project();
    let broken = tempfile::tempdir().unwrap();
    let skill = common::SKILL.replace("name: billing", "name: billing\ntools: lookup_ordr");
    write(&broken.path().join("agents/skills/billing/SKILL.md"), skill);
    let agentc = env!("CARGO_BIN_EXE_agentc");
    let python = bin.join("python");
    for (project, code) in [(desk.as_path(), 0), (broken.path(), 1)] {
        for args in [&["check"][..], &["check", "--message-format", "json"], &["lock", "--check"]] {
            let direct = run(agentc, args, project);
            let what = format!("agentc {} in {}", args.join(" "), project.display());
            if args[0] == "check" {
                assert_eq!(direct.status.code(), Some(code), "{what}");
            }
            same(&direct, &run(bin.join("agentc"), args, project), &what);
            let module = [&["-m", "agentc"][..], args].concat();
            same(&direct, &run(&python, &module, project), &format!("python -m {what}"));
        }
    }
    let said = text(&run(&python, &["-m", "agentc", "check"], broken.path()).stderr);
    assert!(said.contains("error[unknown-tool]: unknown tool `lookup_ordr`"), "{said}");

    // The API's report, as JSON, beside the command line's lines.
    let script = r#"
import json, sys, agentc
report = getattr(agentc, sys.argv[1])(*sys.argv[2:])
print(json.dumps({"diagnostics": report.diagnostics, "errors": report.errors,
                  "warnings": report.warnings, "ok": report.ok, "lockfile": report.lockfile}))
"#;
    let api = |project: &Path, function: &str, args: &[&str]| -> serde_json::Value {
        let out = run(&python, &[&["-c", script, function][..], args].concat(), project);
        assert!(out.status.success(), "agentc.{function}: {}", text(&out.stderr));
        serde_json::from_str(&text(&out.stdout)).unwrap()
    };
    for project in [desk.as_path(), broken.path()] {
        let mut lines = json_lines(&run(agentc, &["check", "--message-format", "json"], project));
        let summary = lines.pop().unwrap();
        let report = api(project, "check", &[]);
        assert_eq!(report["diagnostics"], serde_json::Value::Array(lines));
        assert_eq!(report["errors"], summary["errors"]);
        assert_eq!(report["warnings"], summary["warnings"]);
        assert_eq!(report["ok"], summary["errors"] == 0);
        assert_eq!(report["lockfile"], serde_json::Value::Null);
    }
    assert_eq!(api(broken.path(), "check", &[])["diagnostics"][0]["code"], "unknown-tool");

    // A folder's name is a path, never a flag: `--fix` would rewrite the
    // project's skill, `--workspace=..` would read the folder above it.
    let fix = broken.path().join("--fix/skills/billing/SKILL.md");
    write(&fix, common::SKILL.replace("name: billing", "name: billing\ntools: lookup_ordr"));
    let report = api(broken.path(), "check", &["--fix"]);
    assert_eq!(report["errors"], 1, "{report}");
    assert_eq!(report["diagnostics"][0]["file"], "--fix/skills/billing/SKILL.md", "{report}");
    let kept = std::fs::read_to_string(broken.path().join("agents/skills/billing/SKILL.md"));
    assert!(kept.unwrap().contains("tools: lookup_ordr"), "the project's skill was fixed");
    assert!(std::fs::read_to_string(&fix).unwrap().contains("tools: lookup_ordr"));
    write(&broken.path().join("--workspace=../skills/billing/SKILL.md"), common::SKILL);
    let report = api(broken.path(), "check", &["--workspace=.."]);
    assert_eq!((&report["errors"], &report["diagnostics"]), (&0.into(), &serde_json::json!([])));
    let report = api(broken.path(), "lock", &["--workspace=.."]);
    assert_eq!(report["lockfile"]["skills"][0]["name"], "billing", "{report}");

    // lock: the lockfile the example commits, and nothing written in the project.
    let report = api(&desk, "lock", &[]);
    let committed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/support-desk/agentc.lock"),
    )
    .unwrap();
    assert_eq!(report["lockfile"], serde_json::from_str::<serde_json::Value>(&committed).unwrap());
    assert_eq!(report["diagnostics"], serde_json::json!([]));
    assert!(!desk.join("agentc.lock").exists(), "agentc.lock wrote into the project");
    let report = api(broken.path(), "lock", &[]);
    assert_eq!(report["lockfile"], serde_json::Value::Null);
    assert_eq!(report["errors"], 1);
    assert_eq!(report["diagnostics"][0]["code"], "unknown-tool");

    // A run that cannot start raises, with agentc's cannot-run diagnostic.
    let raised = run(
        &python,
        &[
            "-c",
            "import agentc\ntry:\n agentc.check('missing')\nexcept agentc.AgentcError as e:\n print(e)\n print(e.diagnostics[0]['code'])",
        ],
        broken.path(),
    );
    assert_eq!(
        text(&raised.stdout),
        "agentc check could not run: the agents directory `missing` does not exist\ncannot-run\n",
        "{}",
        text(&raised.stderr)
    );
}
