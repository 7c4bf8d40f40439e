//! The `agents!` macro is never silently stale: a crate with no build script
//! is warned, the warning's lines make a build script, and with it a file
//! added to the agents folder (in a new folder below it) is seen by the next
//! `cargo build`, and its removal by the one after. Real cargo builds of a
//! crate in a temporary folder, offline, with path dependencies on this
//! workspace and the target directory of this test (no second copy of the
//! dependencies; cargo releases its lock while tests run).

use std::path::{Path, PathBuf};
use std::process::Command;

const MAIN: &str = r#"agentc::agents!("agents");

fn main() {
    println!("{}", Skill::ALL.len());
}
"#;

const SKILL: &str =
    "---\nname: wrap-up\ndescription: Use to close a ticket.\n---\nSay what you did.\n";

/// The new skill uses a tool nothing declares: an error, once it is seen.
const ADDED: &str = "---\nname: refund\ndescription: Use when a customer asks for a refund.\n\
                     tools: issue_refund\n---\nRefund the order.\n";

/// The workspace's target directory: `CARGO_TARGET_TMPDIR` is `tmp/` in it.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap().to_path_buf()
}

/// `cargo build` in `krate`: whether it succeeded, and what it printed.
fn build(krate: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet"])
        .current_dir(krate)
        .env("CARGO_TARGET_DIR", target_dir())
        .env_remove("AGENTC_TRACKED")
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A crate using `agents!("agents")`, with one skill and no build script.
fn krate() -> tempfile::TempDir {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let manifest = format!(
        "[package]\nname = \"tracked-agents\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\nagentc = {{ path = {:?} }}\n\n[workspace]\n",
        workspace.display().to_string()
    );
    std::fs::write(root.join("Cargo.toml"), manifest).unwrap();
    // The workspace's versions, so the build resolves offline to what is built.
    std::fs::copy(workspace.join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/main.rs"), MAIN).unwrap();
    std::fs::create_dir_all(root.join("agents/skills/wrap-up")).unwrap();
    std::fs::write(root.join("agents/skills/wrap-up/SKILL.md"), SKILL).unwrap();
    dir
}

/// The build script the macro's warning asks for, as it writes it.
fn asked_build_script(stderr: &str) -> String {
    let start =
        stderr.find("fn main() {").unwrap_or_else(|| panic!("no build.rs asked:\n{stderr}"));
    let body: Vec<&str> =
        stderr[start..].lines().map(str::trim).take_while(|line| *line != "}").collect();
    format!("{}\n}}\n", body.join("\n"))
}

/// Cargo compares modification times: a change must come after the last build.
fn later() {
    std::thread::sleep(std::time::Duration::from_millis(1100));
}

#[test]
fn a_file_added_to_the_agents_folder_is_seen_by_the_next_build() {
    let dir = krate();
    let root = dir.path();

    let (ok, stderr) = build(root);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("is not seen until a Rust file of the crate changes"), "{stderr}");
    let script = asked_build_script(&stderr);
    assert_eq!(
        script,
        "fn main() {\nprintln!(\"cargo:rerun-if-changed=agents\");\n\
         println!(\"cargo:rustc-env=AGENTC_TRACKED=agents\");\n}\n"
    );
    std::fs::write(root.join("build.rs"), script).unwrap();
    let (ok, stderr) = build(root);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("is not seen"), "still asked for the build script:\n{stderr}");

    later();
    std::fs::create_dir_all(root.join("agents/skills/refund")).unwrap();
    std::fs::write(root.join("agents/skills/refund/SKILL.md"), ADDED).unwrap();
    let (ok, stderr) = build(root);
    assert!(!ok, "the added skill was not seen:\n{stderr}");
    assert!(stderr.contains("unknown tool `issue_refund`"), "{stderr}");
    assert!(stderr.contains("agents/skills/refund/SKILL.md:4:8"), "{stderr}");

    later();
    std::fs::remove_dir_all(root.join("agents/skills/refund")).unwrap();
    let (ok, stderr) = build(root);
    assert!(ok, "the removed skill is still seen:\n{stderr}");
}
