//! `agentc.lock`: deterministic bytes, round trips, `--check`, nothing lost,
//! and the runtime loader.

mod common;
use common::copy_dir;
use std::path::{Path, PathBuf};

use agentc::Lockfile;
use agentc::schema::Kind;
use agentc::schema::lockfile::FileChange;
use agentc_cli::{Io, run};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs agentc; returns (exit code, stderr).
fn agentc(args: &[&str]) -> (i32, String) {
    let mut argv = vec!["agentc"];
    argv.extend_from_slice(args);
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = run(
        &argv,
        &mut Io { stdout: &mut stdout, stderr: &mut stderr, color: false, progress: false },
    );
    (code, String::from_utf8(stderr).unwrap())
}

/// A copy of the example under `dir`; returns its folder.
fn example_copy(dir: &Path, name: &str) -> PathBuf {
    let copy = dir.join(name);
    copy_dir(&repo().join("examples/support-desk"), &copy);
    copy
}

fn lock_args(copy: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "lock".into(),
        copy.join("agents").display().to_string(),
        "--workspace".into(),
        copy.display().to_string(),
        "--registry".into(),
        copy.join("registry.yaml").display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn lock(copy: &Path, extra: &[&str]) -> (i32, String) {
    let args = lock_args(copy, extra);
    agentc(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn the_committed_example_lockfile_is_current() {
    let example = repo().join("examples/support-desk");
    let (code, stderr) = lock(&example, &["--check"]);
    assert_eq!(
        code, 0,
        "examples/support-desk/agentc.lock is stale; run `agentc lock` on it:\n{stderr}"
    );
}

#[test]
fn the_same_directory_at_two_paths_gives_identical_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let first = example_copy(dir.path(), "one");
    let second = example_copy(&dir.path().join("deeper/still"), "two");
    assert_eq!(lock(&first, &[]).0, 0);
    assert_eq!(lock(&second, &[]).0, 0);
    let a = std::fs::read(first.join("agentc.lock")).unwrap();
    let b = std::fs::read(second.join("agentc.lock")).unwrap();
    assert_eq!(a, b);
    let committed = std::fs::read(repo().join("examples/support-desk/agentc.lock")).unwrap();
    assert_eq!(a, committed);
    let text = String::from_utf8(a).unwrap();
    assert!(text.ends_with("}\n") && !text.contains('\r'));
    assert!(!text.contains(dir.path().to_str().unwrap()), "an absolute path leaked");
}

#[test]
fn lock_load_serialize_round_trips() {
    let path = repo().join("examples/support-desk/agentc.lock");
    let bytes = std::fs::read_to_string(&path).unwrap();
    let loaded = Lockfile::load(&path).unwrap();
    assert_eq!(loaded.to_json(), bytes);
}

#[test]
fn the_lockfile_validates_against_its_published_schema() {
    let schema = Kind::Lockfile.schema();
    let validator = jsonschema::draft7::new(&schema).unwrap();
    let path = repo().join("examples/support-desk/agentc.lock");
    let instance: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let errors: Vec<String> = validator.iter_errors(&instance).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn check_says_what_changed_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let copy = example_copy(dir.path(), "desk");
    std::fs::remove_file(copy.join("agentc.lock")).unwrap();
    let (code, stderr) = lock(&copy, &["--check"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("does not exist"), "{stderr}");

    assert_eq!(lock(&copy, &[]).0, 0);
    let skill = copy.join("agents/skills/wrap-up/SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    std::fs::write(&skill, text.replace("description: ", "description: Always ")).unwrap();
    std::fs::remove_dir_all(copy.join("agents/skills/answer-from-kb")).unwrap();
    let triage = copy.join("agents/triage/AGENT.md");
    let text = std::fs::read_to_string(&triage).unwrap();
    std::fs::write(&triage, text.replace("  - answer-from-kb\n", "")).unwrap();
    let classify = copy.join("agents/skills/classify-request/SKILL.md");
    let text = std::fs::read_to_string(&classify).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.contains("answer-from-kb")).collect();
    std::fs::write(&classify, kept.join("\n") + "\n").unwrap();

    let before = std::fs::read(copy.join("agentc.lock")).unwrap();
    let (code, stderr) = lock(&copy, &["--check"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("is out of date"), "{stderr}");
    assert!(stderr.contains("skills removed: answer-from-kb"), "{stderr}");
    assert!(stderr.contains("skills changed:") && stderr.contains("wrap-up"), "{stderr}");
    assert!(stderr.contains("agents changed: triage"), "{stderr}");
    // Shown as the diagnostics show files: from the current folder, which
    // the copy is outside of.
    let removed = copy.join("agents/skills/answer-from-kb/SKILL.md");
    assert!(stderr.contains(&format!("files removed: {}", removed.display())), "{stderr}");
    assert_eq!(std::fs::read(copy.join("agentc.lock")).unwrap(), before, "--check wrote");
}

#[test]
fn check_refuses_another_format_version() {
    let dir = tempfile::tempdir().unwrap();
    let copy = example_copy(dir.path(), "desk");
    let path = copy.join("agentc.lock");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("\"lockfile_version\": 1", "\"lockfile_version\": 7", 1))
        .unwrap();
    let (code, stderr) = lock(&copy, &["--check"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("format version 7"), "{stderr}");
    assert!(Lockfile::load(&path).is_err());
}

#[test]
fn a_compile_with_errors_never_touches_the_lockfile() {
    let dir = tempfile::tempdir().unwrap();
    let copy = example_copy(dir.path(), "desk");
    let before = std::fs::read(copy.join("agentc.lock")).unwrap();
    let skill = copy.join("agents/skills/wrap-up/SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    std::fs::write(&skill, text.replace("tools:", "tools: [no_such_tool]\nold_tools:")).unwrap();
    let (code, stderr) = lock(&copy, &[]);
    assert_eq!(code, 1);
    assert!(stderr.contains("was not written"), "{stderr}");
    assert_eq!(std::fs::read(copy.join("agentc.lock")).unwrap(), before);
    let leftovers: Vec<_> =
        std::fs::read_dir(&copy).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(
        leftovers.iter().all(|n| !n.to_string_lossy().starts_with(".agentc-")),
        "{leftovers:?}"
    );
}

#[test]
fn verify_reports_the_files_that_changed() {
    let dir = tempfile::tempdir().unwrap();
    let copy = example_copy(dir.path(), "desk");
    let lock = Lockfile::load(copy.join("agentc.lock")).unwrap();
    let root = copy.join("agents");
    assert_eq!(lock.verify(&root, Some(&copy)), []);
    std::fs::write(root.join("SYSTEM.md"), "changed\n").unwrap();
    std::fs::remove_file(copy.join("AGENTS.md")).unwrap();
    assert_eq!(
        lock.verify(&root, Some(&copy)),
        [
            FileChange::Changed("SYSTEM.md".into()),
            FileChange::Missing("@workspace/AGENTS.md".into())
        ]
    );
}

#[test]
fn output_goes_where_asked() {
    let dir = tempfile::tempdir().unwrap();
    let copy = example_copy(dir.path(), "desk");
    let out = dir.path().join("elsewhere.lock");
    let (code, _) = lock(&copy, &["-o", out.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(copy.join("agentc.lock")).unwrap());
}

#[test]
fn verify_reads_nothing_outside_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let copy = example_copy(dir.path(), "desk");
    std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
    let mut lock = Lockfile::load(copy.join("agentc.lock")).unwrap();
    let digest = lock.files[0].sha256.clone();
    lock.files.push(agentc::schema::lockfile::FileDigest {
        path: "../../secret.txt".into(),
        sha256: digest.clone(),
    });
    lock.files.push(agentc::schema::lockfile::FileDigest {
        path: "/etc/hostname".into(),
        sha256: digest,
    });
    let changes = lock.verify(copy.join("agents"), Some(&copy));
    assert_eq!(
        changes,
        [
            FileChange::Invalid("../../secret.txt".into()),
            FileChange::Invalid("/etc/hostname".into()),
            // Two entries added by hand: the root digest no longer covers the list.
            FileChange::RootDigest,
        ]
    );
}
