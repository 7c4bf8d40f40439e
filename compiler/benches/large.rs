//! How long checking a large directory takes, against merely reading its files.
//!
//! `cargo bench -p agentc-compiler --bench large [-- SKILLS [REGISTRY_TOOLS [NEAR [FAR]]]]`
//! writes a directory from `agentc-bench`'s seeded generator (10,000 skills of
//! about 5 KiB and 5,000 registry tools by default; NEAR and FAR are the
//! fractions of skills with a misspelt route or an unknown tool) to a temporary
//! folder, then times, side by side in one run, the median of several rounds
//! of: walking and reading every file (the floor), and a full `compile`
//! (discover, read, parse, resolve, check) in this process. It prints both and
//! their ratio. `agentc-bench table` times the binary instead, with peak memory.

use std::path::Path;
use std::time::{Duration, Instant};

use agentc_bench::{Spec, generate};
use agentc_compiler::check::hidden;
use agentc_compiler::fs::RealFs;
use agentc_compiler::source::Source;
use agentc_compiler::{compile, project_file};
use rayon::prelude::*;

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
    let args: Vec<f64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let arg = |i: usize, default: f64| args.get(i).copied().unwrap_or(default);
    let spec = Spec {
        skills: arg(0, 10_000.0) as usize,
        registry_tools: arg(1, 5_000.0) as usize,
        near: arg(2, 0.0),
        far: arg(3, 0.0),
        ..Spec::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let stats = generate(dir.path(), &spec).unwrap();
    let project = dir.path().join(agentc_schema::PROJECT_FILE);
    let opts = project_file::load(&RealFs, &project, "agentc.toml").unwrap().options;

    let (mut read, mut check) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        let start = Instant::now();
        let bytes = read_everything(dir.path());
        read.push(start.elapsed());
        assert!(bytes > 0);

        let start = Instant::now();
        let compilation = compile(&RealFs, &opts).unwrap();
        check.push(start.elapsed());
        let errors = compilation.diagnostics.len();
        assert!(errors <= stats.mistakes, "{:?}", compilation.diagnostics.first());
        assert_eq!(compilation.model.skills.len(), spec.skills);
    }
    // The hidden-character scan, alone, over the sources of the last compile
    // (part of `check` above): as generated (ASCII, the common case), and with
    // each file made non-ASCII by one `é`, so the SIMD search runs through it.
    let compilation = compile(&RealFs, &opts).unwrap();
    let sources: Vec<Source> = compilation.sources.values().cloned().collect();
    let accented: Vec<Source> =
        sources.iter().map(|s| Source::new(s.path.clone(), format!("é{}", s.text))).collect();
    let scan = |sources: &[Source]| {
        let mut rounds = Vec::new();
        for _ in 0..7 {
            let start = Instant::now();
            let found: usize = sources.par_iter().map(|s| hidden::scan(s).len()).sum();
            rounds.push(start.elapsed());
            assert_eq!(found, 0);
        }
        median(rounds)
    };
    let (ascii, non_ascii) = (scan(&sources), scan(&accented));
    let (read, check) = (median(read), median(check));
    println!(
        "{} skills, {} registry tools, {} files ({} MiB), {} with a mistake",
        spec.skills,
        spec.registry_tools,
        stats.files,
        stats.bytes >> 20,
        stats.mistakes
    );
    println!("read every file:  {read:>10.1?}  (median of 7)");
    println!("agentc check:     {check:>10.1?}  (median of 7)");
    println!("ratio:            {:>10.2}x", check.as_secs_f64() / read.as_secs_f64());
    println!("hidden characters: {ascii:>9.1?}  (in check; ASCII files, median of 7)");
    println!("  non-ASCII files: {non_ascii:>9.1?}  (each file with one `é`, median of 7)");
}
