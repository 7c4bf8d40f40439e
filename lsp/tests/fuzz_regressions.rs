//! Every input the fuzzers found a fault with (`fuzz/regressions/<target>/`)
//! and every seed (`fuzz/corpus/<target>/`), replayed on stable Rust through
//! the same functions the fuzz targets call: a fault that comes back fails
//! here, without nightly or cargo-fuzz. It lives in this crate, which sees
//! every target: the core's (`agentc_compiler::fuzzing`) and the language
//! server's (`agentc_lsp::fuzzing`).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use agentc_compiler::fuzzing::Target;

/// Every fuzz target, the core's then the language server's.
static TARGETS: LazyLock<Vec<(&str, Target)>> = LazyLock::new(|| {
    agentc_compiler::fuzzing::TARGETS.iter().chain(agentc_lsp::fuzzing::TARGETS).copied().collect()
});

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The files of `dir/<target>/` for each target, sorted; a folder that names
/// no target is an error, so a misplaced input cannot go unreplayed.
fn inputs(dir: &Path) -> Vec<(&'static str, Target, PathBuf)> {
    let mut found = Vec::new();
    let Ok(folders) = std::fs::read_dir(dir) else { return found };
    for folder in folders {
        let folder = folder.unwrap().path();
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let Some(&(target, run)) = TARGETS.iter().find(|(t, _)| *t == name) else {
            panic!("`{}` names no fuzz target", folder.display());
        };
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        found.extend(files.into_iter().map(|file| (target, run, file)));
    }
    found
}

/// Runs every input, naming each one that panicked.
fn replay(dir: &str) -> usize {
    let all = inputs(&fuzz_dir().join(dir));
    let failed: Vec<String> = all
        .iter()
        .filter(|(_, run, file)| {
            let data = std::fs::read(file).unwrap();
            catch_unwind(AssertUnwindSafe(|| run(&data))).is_err()
        })
        .map(|(target, _, file)| format!("{target}: {}", file.display()))
        .collect();
    assert!(failed.is_empty(), "these inputs still fail:\n{}", failed.join("\n"));
    all.len()
}

#[test]
fn every_regression_input_passes() {
    replay("regressions");
}

#[test]
fn every_seed_passes() {
    let replayed = replay("corpus");
    // Each target has seeds: an empty corpus would make this test vacuous.
    for (target, _) in TARGETS.iter() {
        let seeds = fuzz_dir().join("corpus").join(target);
        assert!(std::fs::read_dir(&seeds).is_ok_and(|mut d| d.next().is_some()), "{target}");
    }
    assert!(replayed >= TARGETS.len());
}
