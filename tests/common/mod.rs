//! Helpers shared by the end-to-end tests. Each test file is its own crate
//! and uses only some of them, hence the allowance.
#![allow(dead_code)]

use std::path::Path;

/// Copies a directory tree (regular files and folders).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The arguments after the command that compile a fixture case as its
/// expectations were written: its `root`, with its `workspace` and
/// `registry.yaml` when it has them and the extra arguments of its `args`
/// file, paths relative to `from`.
pub fn case_args(case: &Path, from: &Path) -> Vec<String> {
    let rel = case.strip_prefix(from).unwrap_or(case);
    let mut args = vec![rel.join("root").display().to_string()];
    if case.join("workspace").is_dir() {
        args.extend(["--workspace".into(), rel.join("workspace").display().to_string()]);
    }
    if case.join("registry.yaml").is_file() {
        args.extend(["--registry".into(), rel.join("registry.yaml").display().to_string()]);
    }
    if let Ok(extra) = std::fs::read_to_string(case.join("args")) {
        args.extend(extra.lines().filter(|l| !l.is_empty()).map(str::to_owned));
    }
    args
}
