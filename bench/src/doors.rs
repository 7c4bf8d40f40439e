//! `agentc-bench doors`: what a crate keeping its agents as folders waits for,
//! through each Rust door, after each kind of edit.
//!
//! One cargo workspace (one target folder) holds, per size, two crates over
//! their own copy of one generated project: `macro-N` (`agents!()`, with the
//! one-line build script that has cargo watch the folders) and `build-N`
//! (`build.rs` calling `agentc::build::Config`, the items included from
//! `OUT_DIR`). After a first build of both, each round times, per crate:
//! a sentence appended to one skill's body (`cargo build` succeeds); an
//! unknown tool added to that skill's `tools` (`cargo build` fails, and its
//! output must hold agentc's `unknown tool` error, else the round is refused),
//! then the fix (not timed); and a comment appended to `lib.rs` (Rust only).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use agentc_bench::{Spec, generate};

#[derive(Clone, Copy, PartialEq)]
enum Door {
    Macro,
    Build,
}

impl Door {
    fn label(self) -> &'static str {
        match self {
            Door::Macro => "agents!()",
            Door::Build => "build.rs",
        }
    }

    fn package(self, skills: usize) -> String {
        match self {
            Door::Macro => format!("macro-{skills}"),
            Door::Build => format!("build-{skills}"),
        }
    }
}

/// Writes one crate of `door` over a fresh project of `skills` skills.
fn write_crate(work: &Path, repo: &Path, door: Door, skills: usize) -> std::io::Result<()> {
    let dir = work.join(door.package(skills));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    generate(&dir, &Spec { skills, registry_tools: 0, ..Spec::default() })?;
    let agentc = format!("{:?}", repo.display().to_string());
    let (deps, build, lib) = match door {
        Door::Macro => (
            format!("[dependencies]\nagentc = {{ path = {agentc} }}\n"),
            "fn main() {\n    println!(\"cargo:rerun-if-changed=agents\");\n    \
             println!(\"cargo:rustc-env=AGENTC_TRACKED=agents\");\n}\n",
            "agentc::agents!();\n",
        ),
        Door::Build => (
            format!(
                "[dependencies]\nagentc = {{ path = {agentc}, default-features = false }}\n\n\
                 [build-dependencies]\nagentc = {{ path = {agentc}, default-features = false, features = [\"build\"] }}\n"
            ),
            "fn main() {\n    agentc::build::Config::from_project()\n        .compile()\n        \
             .expect(\"the agents directory has errors\");\n}\n",
            "include!(concat!(env!(\"OUT_DIR\"), \"/agents.rs\"));\n",
        ),
    };
    std::fs::create_dir_all(dir.join("src"))?;
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n{deps}",
            door.package(skills)
        ),
    )?;
    std::fs::write(dir.join("build.rs"), build)?;
    let lib = format!(
        "{lib}\npub fn body_bytes() -> usize {{\n    Skill::ALL.iter().map(|s| s.def().body.len()).sum()\n}}\n"
    );
    std::fs::write(dir.join("src/lib.rs"), lib)
}

/// `cargo build -p PACKAGE`: how long it took, whether it succeeded, what it printed.
fn build(work: &Path, package: &str) -> std::io::Result<(Duration, bool, String)> {
    let start = Instant::now();
    // `cargo` from PATH (rustup's proxy), as `macro_table` explains.
    let out = Command::new("cargo")
        .args(["build", "--quiet", "--package", package])
        .current_dir(work)
        .env("CARGO_TARGET_DIR", work.join("target"))
        .output()?;
    let elapsed = start.elapsed();
    Ok((elapsed, out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned()))
}

fn built(work: &Path, package: &str) -> std::io::Result<Duration> {
    let (time, ok, stderr) = build(work, package)?;
    if !ok {
        return Err(std::io::Error::other(format!("`cargo build -p {package}` failed:\n{stderr}")));
    }
    Ok(time)
}

fn append(path: &Path, line: &str) -> std::io::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new().append(true).open(path)?.write_all(line.as_bytes())
}

struct Times {
    skill_edit: Vec<Duration>,
    to_error: Vec<Duration>,
    rust_edit: Vec<Duration>,
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn round(work: &Path, door: Door, skills: usize, n: usize, t: &mut Times) -> std::io::Result<()> {
    let package = door.package(skills);
    let dir: PathBuf = work.join(&package);
    let skill = dir.join(format!("agents/skills/{}/SKILL.md", agentc_bench::skill_name(0)));
    append(&skill, &format!("Edited in round {n}.\n"))?;
    t.skill_edit.push(built(work, &package)?);
    let good = std::fs::read_to_string(&skill)?;
    let bad = good.replacen("tools:\n", "tools:\n  - lookup_ordr\n", 1);
    if bad == good {
        return Err(std::io::Error::other(format!(
            "{} has no `tools:` to misspell",
            skill.display()
        )));
    }
    std::fs::write(&skill, &bad)?;
    let (time, ok, stderr) = build(work, &package)?;
    if ok || !stderr.contains("unknown tool `lookup_ordr`") {
        return Err(std::io::Error::other(format!(
            "`cargo build -p {package}` did not fail with agentc's error:\n{stderr}"
        )));
    }
    t.to_error.push(time);
    std::fs::write(&skill, good)?;
    built(work, &package)?;
    append(&dir.join("src/lib.rs"), &format!("// Edited in round {n}.\n"))?;
    t.rust_edit.push(built(work, &package)?);
    Ok(())
}

pub fn table(
    sizes: &[usize],
    rounds: usize,
    build_override: bool,
    work: &Path,
    repository: &Path,
) -> std::io::Result<()> {
    if rounds == 0 {
        return Err(std::io::Error::other("--rounds must be at least 1"));
    }
    let repo = std::fs::canonicalize(repository)?;
    std::fs::create_dir_all(work)?;
    let work = std::fs::canonicalize(work)?;
    let doors = [Door::Macro, Door::Build];
    let mut members = Vec::new();
    for &skills in sizes {
        for door in doors {
            write_crate(&work, &repo, door, skills)?;
            members.push(format!("{:?}", door.package(skills)));
        }
    }
    let profile =
        if build_override { "\n[profile.dev.build-override]\nopt-level = 3\n" } else { "" };
    std::fs::write(
        work.join("Cargo.toml"),
        format!("[workspace]\nmembers = [{}]\nresolver = \"3\"\n{profile}", members.join(", ")),
    )?;
    println!(
        "| skills | door | build-override | first build | skill edit | edit to error | Rust edit |"
    );
    println!("|---|---|---|---|---|---|---|");
    for &skills in sizes {
        for door in doors {
            let first = built(&work, &door.package(skills))?;
            let mut times =
                Times { skill_edit: Vec::new(), to_error: Vec::new(), rust_edit: Vec::new() };
            for n in 0..rounds {
                round(&work, door, skills, n, &mut times)?;
            }
            println!(
                "| {skills} | {} | {} | {} | {} | {} | {} |",
                door.label(),
                if build_override { "opt-level 3" } else { "none" },
                super::ms(first),
                super::ms(median(times.skill_edit)),
                super::ms(median(times.to_error)),
                super::ms(median(times.rust_edit)),
            );
        }
    }
    Ok(())
}
