//! Helpers shared by the integration tests. Each test file is its own crate
//! and uses only some of them, hence the allowance.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs the `agentc` binary in `cwd`, without colour.
pub fn agentc(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentc"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("agentc runs")
}

/// Runs `program` with `args` in `cwd`, `input` on its stdin; its output.
pub fn pipe(
    program: impl AsRef<std::ffi::OsStr>,
    args: &[&std::ffi::OsStr],
    cwd: &Path,
    input: &str,
) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    child.stdin.take().expect("piped").write_all(input.as_bytes()).expect("it reads its input");
    child.wait_with_output().expect("it ends")
}

/// Whether `program` runs (`program arg` exits successfully). The tools the
/// tests drive are installed by `.ci/run`, so in CI (`CI` set) a missing one
/// fails the test instead of skipping it; `what` names it for that message.
pub fn installed(program: &str, arg: &str, what: &str) -> bool {
    let found = Command::new(program).arg(arg).output().is_ok_and(|o| o.status.success());
    assert!(found || std::env::var_os("CI").is_none(), "{what} is missing in CI");
    found
}

/// The folder `cli/tests/<folder>` when node runs and its `npm ci` has
/// installed `module` there; in CI its absence is a failure.
pub fn node_harness(folder: &str, module: &str) -> Option<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(folder);
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let found = node && dir.join("node_modules").join(module).is_dir();
    assert!(
        found || std::env::var_os("CI").is_none(),
        "node or {module} is missing in CI (cd cli/tests/{folder} && npm ci)"
    );
    found.then_some(dir)
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes `path`, making its folders.
pub fn write(path: &Path, content: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// A skill that compiles cleanly.
pub const SKILL: &str =
    "---\nname: billing\ndescription: Billing questions.\n---\nAnswer billing questions.\n";

/// The workspace tests' helpers, shared rather than copied.
#[path = "../../../tests/common/mod.rs"]
mod workspace;
#[allow(unused_imports)]
pub use workspace::{case_args, copy_dir};

/// A copy of the example's project (its agentc.toml, registry, AGENTS.md,
/// .agents/ and agents/, not its crate) at `<temp>/desk`, canonical: editors are
/// answered in canonical paths.
pub fn example_project() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap().join("desk");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/support-desk");
    std::fs::create_dir_all(&root).unwrap();
    for name in ["agentc.toml", "registry.yaml", "AGENTS.md"] {
        std::fs::copy(example.join(name), root.join(name)).unwrap();
    }
    copy_dir(&example.join("agents"), &root.join("agents"));
    copy_dir(&example.join(".agents"), &root.join(".agents"));
    (dir, root)
}

/// A project whose names hold control characters, written as YAML escapes:
/// a subagent named `S1`, ESC `]0;TITLE` BEL (set the terminal's title), ESC
/// `[2J` (clear the screen), a tab, the C1 CSI and DEL; and a Copilot agent
/// whose file name holds ESC `[2J`, handing off to that name, which is not a
/// Copilot agent (VS Code reads no subfolder of `.claude/agents/`, where the
/// subagent is): an error in that file naming it.
pub fn control_names() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let name = r#""S1\e]0;TITLE\a\e[2J\t\u009b\x7f""#;
    write(
        &dir.path().join(".claude/agents/review/reviewer.md"),
        format!("---\nname: {name}\ndescription: Reviews.\n---\nReview.\n"),
    );
    write(
        &dir.path().join(".github/agents/pl\u{1b}[2Jan.agent.md"),
        format!(
            "---\ndescription: Plans.\nhandoffs:\n  - label: Go\n    agent: {name}\n---\nPlan.\n"
        ),
    );
    dir
}

/// The agentc wheel made from this build's binary by `packaging/pypi/build.py`, in a new
/// folder (the `--find-links` folder pip installs it from), when python3 and maturin are
/// installed; in CI their absence is a failure (`.ci/run` installs maturin).
pub fn wheel() -> Option<(tempfile::TempDir, std::path::PathBuf)> {
    if !installed("python3", "--version", "python3")
        || !installed("maturin", "--version", "maturin")
    {
        eprintln!("skipped: python3 or maturin is missing (pip install maturin)");
        return None;
    }
    let folder = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../packaging/pypi/build.py");
    let built = Command::new("python3")
        .arg(script)
        .args(["--binary", env!("CARGO_BIN_EXE_agentc"), "--out"])
        .arg(folder.path())
        .output()
        .unwrap();
    assert!(built.status.success(), "build.py failed: {}", text(&built.stderr));
    let wheel = std::path::PathBuf::from(text(&built.stdout).trim());
    assert!(wheel.is_file() && wheel.starts_with(folder.path()), "{}", wheel.display());
    Some((folder, wheel))
}

/// A glob of 100,000 `*`: globset 0.4 panics compiling it (its program
/// outgrows the regex size limit) where it should return an error.
pub const LONG_GLOB_STARS: usize = 100_000;

/// One file per host field that holds globs, each holding the long glob:
/// each file's path under `root`, and the line and column (from 1) where the
/// glob starts.
pub fn long_globs(root: &Path) -> Vec<(&'static str, usize, usize)> {
    let glob = "*".repeat(LONG_GLOB_STARS);
    let files = [
        (
            ".cursor/rules/long.mdc",
            format!("---\ndescription: x\nglobs: \"{glob}\"\nalwaysApply: false\n---\nbody\n"),
            3,
            9,
        ),
        (
            ".kiro/steering/long.md",
            format!("---\ninclusion: fileMatch\nfileMatchPattern: \"{glob}\"\n---\nbody\n"),
            3,
            20,
        ),
        (".clinerules/long.md", format!("---\npaths:\n  - \"{glob}\"\n---\nbody\n"), 3, 6),
        (
            ".github/instructions/long.instructions.md",
            format!("---\napplyTo: \"{glob}\"\n---\nbody\n"),
            2,
            11,
        ),
    ];
    files
        .into_iter()
        .map(|(path, text, line, column)| {
            write(&root.join(path), text);
            (path, line, column)
        })
        .collect()
}
