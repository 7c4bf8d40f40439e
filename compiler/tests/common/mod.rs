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
