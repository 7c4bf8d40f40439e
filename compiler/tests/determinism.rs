//! The report never depends on the file system's order.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use agentc_compiler::emit;
use agentc_compiler::fs::{EntryKind, Fs, ReadOutcome, RealFs};
use agentc_compiler::{Options, compile};

/// The real disk, with every directory listed in a scrambled order.
struct ScrambledFs {
    seed: u64,
}

impl Fs for ScrambledFs {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        let mut names = RealFs.read_dir(path)?;
        names.sort_by(|a, b| a.0.cmp(&b.0));
        // A deterministic shuffle (xorshift), different for each seed.
        let mut state = self.seed ^ names.len() as u64 ^ 0x9e37_79b9_7f4a_7c15;
        for i in (1..names.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            names.swap(i, (state % (i as u64 + 1)) as usize);
        }
        Ok(names)
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        RealFs.kind(path)
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        RealFs.kind_followed(path)
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        RealFs.canonicalize(path)
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        RealFs.read_link(path)
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        RealFs.read(path, max)
    }
}

fn report(fs: &dyn Fs, opts: &Options) -> Vec<String> {
    let compilation = compile(fs, opts).unwrap();
    compilation
        .diagnostics
        .iter()
        .map(|d| emit::json(d, &compilation.sources, &emit::Bases::default()).to_string())
        .collect()
}

#[test]
fn scrambled_directory_order_gives_the_same_report() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let fixtures = repo.join("tests/fixtures");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .map(|entries| entries.map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    cases.sort();
    cases.push(repo.join("examples/support-desk/agents"));
    let mut compared = 0;
    for case in cases {
        let root = if case.join("root").is_dir() { case.join("root") } else { case.clone() };
        let mut opts = Options::new(&root);
        if case.join("workspace").is_dir() {
            opts.workspace = Some(case.join("workspace"));
        }
        let expected = report(&RealFs, &opts);
        for seed in 1..=4 {
            assert_eq!(
                report(&ScrambledFs { seed }, &opts),
                expected,
                "{} (seed {seed})",
                case.display()
            );
        }
        compared += 1;
    }
    assert!(compared >= 1);
}

#[test]
fn scrambled_directory_order_gives_the_same_lockfile() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let example = repo.join("examples/support-desk");
    let mut desk = Options::new(example.join("agents"));
    desk.workspace = Some(example.clone());
    desk.registry = Some(example.join("registry.yaml"));
    // Every layout of the wild, plugins and Copilot handoffs included.
    let wild = Options::new(repo.join("tests/fixtures/wild-layouts-accepted/root"));
    for opts in [desk, wild] {
        let lock = |fs: &dyn Fs| {
            let compilation = compile(fs, &opts).unwrap();
            assert!(!compilation.has_errors());
            agentc_compiler::lock::lockfile(&compilation).to_json()
        };
        let expected = lock(&RealFs);
        for seed in 1..=8 {
            assert_eq!(lock(&ScrambledFs { seed }), expected, "seed {seed}");
        }
    }
}
