//! The `agents!` macro under rustc: every mistake in an agents directory is a
//! compile error that names the agent file, line and column (snapshots in
//! `tests/ui/*.stderr`; regenerate with `TRYBUILD=overwrite`).

mod common;

/// The README's `src/main.rs`, beside the files its `cp` line copies: the
/// tour's Rust compiles as shown.
fn readme_main(dir: &std::path::Path) -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("docs/rust.md")).unwrap();
    let start = readme.find("```rust\n// src/main.rs\n").expect("docs/rust.md's main.rs");
    let body = &readme[start + "```rust\n".len()..];
    let main = &body[..body.find("```").unwrap()];
    let cp = readme.find("cp -r ../agentc/examples/support-desk/{").expect("the README's cp line");
    let names = &readme[cp..];
    let names = &names[names.find('{').unwrap() + 1..names.find('}').unwrap()];
    let example = root.join("examples/support-desk");
    for name in names.split(',') {
        let from = example.join(name);
        if from.is_dir() {
            common::copy_dir(&from, &dir.join(name));
        } else {
            std::fs::copy(&from, dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
    let file = dir.join("main.rs");
    std::fs::write(&file, main).unwrap();
    file
}

/// Tells the macro that the cases' folders are watched, as a build script's
/// `cargo:rustc-env=AGENTC_TRACKED=…` does, but for `untracked/`: the one
/// case that shows what the macro asks for when they are not.
fn track_cases() {
    let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let folders: Vec<_> = std::fs::read_dir(&ui)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir() && !path.ends_with("untracked"))
        .map(|path| path.display().to_string())
        .collect();
    let joined = folders.join(",");
    // SAFETY: set before trybuild starts cargo, while this is the only thread
    // of the one test in this binary that reads or writes the environment.
    unsafe { std::env::set_var("AGENTC_TRACKED", joined) };
}

#[test]
fn ui() {
    track_cases();
    let readme = tempfile::tempdir().unwrap();
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass.rs");
    t.pass(readme_main(readme.path()));
    t.pass("tests/ui/wild.rs");
    t.pass("tests/ui/typed-tools.rs");
    t.compile_fail("tests/ui/tool-unimplemented.rs");
    t.compile_fail("tests/ui/tool-wrong-input.rs");
    t.compile_fail("tests/ui/unknown-tool.rs");
    t.compile_fail("tests/ui/unknown-route-target.rs");
    t.compile_fail("tests/ui/bad-guard.rs");
    t.compile_fail("tests/ui/name-shadow.rs");
    t.compile_fail("tests/ui/missing-entry-point.rs");
    t.compile_fail("tests/ui/yaml-syntax.rs");
    t.compile_fail("tests/ui/host-tool-undeclared.rs");
    t.compile_fail("tests/ui/host-tool-unimplemented.rs");
    t.compile_fail("tests/ui/registry-tool-unimplemented.rs");
    t.compile_fail("tests/ui/stale-lock.rs");
    t.compile_fail("tests/ui/no-cascade.rs");
    t.compile_fail("tests/ui/wild-bad-model.rs");
    t.compile_fail("tests/ui/two-files.rs");
    t.compile_fail("tests/ui/untracked.rs");
}
