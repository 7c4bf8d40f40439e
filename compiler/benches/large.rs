//! How long checking a large directory takes, against merely reading its files.
//!
//! `cargo bench -p agentc-compiler --bench large [-- SKILLS]` writes a synthetic
//! agents directory (10,000 skills by default, with tools, routes and agents)
//! to a temporary folder, then times, side by side in one run, the median of
//! several rounds of: walking and reading every file (the floor), and a full
//! `compile` (discover, read, parse, resolve, check). It prints both and their
//! ratio.

use std::path::Path;
use std::time::{Duration, Instant};

use agentc_compiler::fs::RealFs;
use agentc_compiler::{Options, compile};
use rayon::prelude::*;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A directory of `skills` skills in chains of routes, one tool per 10 skills,
/// and one agent per 100 skills.
fn synthesize(root: &Path, skills: usize) {
    let tools = skills.div_ceil(10);
    for t in 0..tools {
        write(
            &root.join(format!("tools/tool_{t}/manifest.json")),
            &format!(
                r#"{{"description": "Tool number {t}.", "input_schema": {{"type": "object", "properties": {{"id": {{"type": "string"}}}}}}}}"#
            ),
        );
    }
    for s in 0..skills {
        let tool = s / 10;
        let next = if (s + 1) % 100 == 0 { s + 1 - 100 } else { s + 1 };
        write(
            &root.join(format!("skills/skill-{s}/SKILL.md")),
            &format!(
                "---\nname: skill-{s}\ndescription: Skill number {s}, for synthetic load.\n\
                 tools: [tool_{tool}]\nsteps:\n  - tool_{tool}: do the work of skill {s}\nonSkip: hold\n\
                 routes:\n  - skill-{next}: on tool_{tool} status=success,partial\n---\n\
                 # Skill {s}\n\nDo the thing this skill is for, then hand over.\n"
            ),
        );
    }
    for a in 0..skills.div_ceil(100) {
        let listed: Vec<String> =
            (a * 100..((a + 1) * 100).min(skills)).map(|s| format!("skill-{s}")).collect();
        let tools: Vec<String> =
            (a * 10..((a + 1) * 10).min(tools)).map(|t| format!("tool_{t}")).collect();
        write(
            &root.join(format!("agent-{a}/AGENT.md")),
            &format!(
                "---\ndescription: Agent {a}.\ntools: [{}]\nskills: [{}]\nstart: skill-{}\n---\nYou are agent {a}.\n",
                tools.join(", "),
                listed.join(", "),
                a * 100
            ),
        );
    }
}

/// Walks the tree and reads every file, in parallel: the least any checker must do.
fn read_everything(root: &Path) -> usize {
    fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap()).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            if entry.file_type().unwrap().is_dir() {
                files(&entry.path(), out);
            } else {
                out.push(entry.path());
            }
        }
    }
    let mut all = Vec::new();
    files(root, &mut all);
    all.par_iter().map(|p| std::fs::read(p).unwrap().len()).sum()
}

fn median(mut rounds: Vec<Duration>) -> Duration {
    rounds.sort();
    rounds[rounds.len() / 2]
}

fn main() {
    let skills: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(10_000);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("agents");
    synthesize(&root, skills);
    let opts = Options::new(&root);

    let (mut read, mut check) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        let start = Instant::now();
        let bytes = read_everything(&root);
        read.push(start.elapsed());
        assert!(bytes > 0);

        let start = Instant::now();
        let compilation = compile(&RealFs, &opts).unwrap();
        check.push(start.elapsed());
        assert!(compilation.diagnostics.is_empty(), "{:?}", compilation.diagnostics.first());
        assert_eq!(compilation.model.skills.len(), skills);
    }
    let (read, check) = (median(read), median(check));
    println!("{skills} skills, {} files", skills + skills.div_ceil(10) + skills.div_ceil(100));
    println!("read every file:  {read:>10.1?}  (median of 7)");
    println!("agentc check:     {check:>10.1?}  (median of 7)");
    println!("ratio:            {:>10.2}x", check.as_secs_f64() / read.as_secs_f64());
}
