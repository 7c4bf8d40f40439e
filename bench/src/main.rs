//! `agentc-bench`: generates agents directories and times `agentc` on them,
//! side by side with the floor of reading every file once.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use agentc_bench::{Spec, generate};
use clap::{Parser, Subcommand};

mod doors;
mod lsp;

#[derive(Parser)]
#[command(about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Writes a generated project (`agentc.toml`, `registry.yaml`, `agents/`) into DIR.
    Generate {
        dir: PathBuf,
        #[command(flatten)]
        spec: SpecArgs,
    },
    /// Prints, for each size, the floor (`find DIR -type f -exec cat {} +`),
    /// `agentc check` and `agentc lock` side by side: medians of alternating
    /// rounds, their ratios, and each command's peak RSS.
    Table {
        /// The `agentc` binary to time (build it with `cargo build --release`).
        #[arg(long, default_value = "target/release/agentc")]
        agentc: PathBuf,
        /// Skill counts, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "2000,10000,100000")]
        sizes: Vec<usize>,
        /// Rounds per measurement (fewer above 50,000 skills: `--big-rounds`).
        #[arg(long, default_value_t = 7)]
        rounds: usize,
        #[arg(long, default_value_t = 5)]
        big_rounds: usize,
        /// Host tools in the registry, as a fraction of the skills.
        #[arg(long, default_value_t = 0.5)]
        registry_ratio: f64,
        /// Also time runs with this fraction of skills carrying a near miss.
        #[arg(long, default_value_t = 0.1)]
        mistakes: f64,
        /// Add Claude Code skills, Claude Code subagents and Copilot agents,
        /// this fraction of the skills of each.
        #[arg(long, default_value_t = 0.0)]
        wild_ratio: f64,
        /// Where to generate (a temporary folder when not given).
        #[arg(long)]
        work: Option<PathBuf>,
        /// Registry sizes to time `check` with at 10,000 skills, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "100,50000")]
        registries: Vec<usize>,
        /// A small project whose `check` is timed on its own (start-up cost).
        #[arg(long, default_value = "examples/support-desk")]
        example: PathBuf,
        /// Also time `check` of the clean project with the content rules
        /// allowed (`secret`, `hidden-character`, `unclosed-markup` under
        /// `[lints]`, so they are not run), right after `check` in each round,
        /// and print the two side by side.
        #[arg(long)]
        content_rules: bool,
    },
    /// Times `agentc check` of two binaries — an earlier build and this one —
    /// on one generated project, alternating them round by round so both see
    /// the same machine: the medians of wall and CPU time, and the
    /// ratios after/before. What a round of rules costs, side by side.
    Versus {
        /// The earlier `agentc` binary.
        #[arg(long)]
        before: PathBuf,
        /// The `agentc` binary to compare with it.
        #[arg(long, default_value = "target/release/agentc")]
        after: PathBuf,
        #[arg(long, default_value_t = 9)]
        rounds: usize,
        /// Where to generate (a temporary folder when not given).
        #[arg(long)]
        work: Option<PathBuf>,
        #[command(flatten)]
        spec: SpecArgs,
    },
    /// Times the `agents!` macro at its users' cost: a library crate expanding
    /// a generated project and the same crate without the macro, each rebuilt
    /// (`cargo build`, dev profile) after an edit — a sentence added to one
    /// skill's body for the first, a comment added to `lib.rs` for the
    /// second — alternating, side by side. Also prints the expansion's size
    /// against the input's and the size of each crate's rlib.
    Macro {
        /// Skills in the generated project.
        #[arg(long, default_value_t = 1000)]
        skills: usize,
        #[arg(long, default_value_t = 7)]
        rounds: usize,
        /// Also set `[profile.dev.build-override] opt-level = 3` (the macro
        /// itself compiled with optimizations).
        #[arg(long)]
        build_override: bool,
        /// Where the two crates and their target folder go; reusing one keeps
        /// agentc's dependencies built between runs.
        #[arg(long, default_value = "target/agentc-bench-macro")]
        work: PathBuf,
    },
    /// Edit-to-result times for both Rust doors, `agents!()` and `build.rs`, at
    /// each size: after a skill edit, after an edit that is a mistake (until
    /// cargo fails with agentc's error), and after an edit to Rust only.
    Doors {
        /// Skill counts, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "5,1000")]
        sizes: Vec<usize>,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        /// Also set `[profile.dev.build-override] opt-level = 3`.
        #[arg(long)]
        build_override: bool,
        /// Where the crates and their target folder go; reusing one keeps
        /// agentc's dependencies built between runs.
        #[arg(long, default_value = "target/agentc-bench-doors")]
        work: PathBuf,
        /// The agentc checkout the crates depend on (default: this one); a
        /// worktree of a fixed commit keeps edits here out of the timings.
        #[arg(long)]
        repository: Option<PathBuf>,
    },
    /// `agentc check --layout agent-skills` side by side with the Agent Skills
    /// reference validator (`skills_ref.validator.validate` on each skill
    /// folder, in one Python process) on the same generated folder.
    SkillsRef {
        #[arg(long, default_value_t = 2000)]
        skills: usize,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        #[arg(long, default_value = "target/release/agentc")]
        agentc: PathBuf,
        /// A Python with `skills-ref` installed; without it, one is made: a
        /// virtual environment in the work folder, `pip install skills-ref`.
        #[arg(long)]
        python: Option<PathBuf>,
        #[arg(long, default_value = "target/agentc-bench-skills-ref")]
        work: PathBuf,
    },
    /// Replays a recorded sequence of edits (keystrokes in a skill's
    /// frontmatter and body, a route's target broken and retyped, a tool typed
    /// and deleted) through `agentc lsp` over stdio on a generated project;
    /// prints the median and 99th percentile from each keystroke to the
    /// edited document's diagnostics, and the server's peak RSS. After every
    /// `--verify-every`th edit, what the server has published must equal a
    /// cold compile of the same files, or the run fails.
    Lsp {
        #[arg(long, default_value = "target/release/agentc")]
        agentc: PathBuf,
        #[arg(long, default_value_t = 10_000)]
        skills: usize,
        /// Claude Code skills, subagents and Copilot agents, this many of
        /// each; their edits are replayed too.
        #[arg(long, default_value_t = 1_000)]
        wild: usize,
        /// Compare with a cold compile after every Nth edit (0: never).
        #[arg(long, default_value_t = 1)]
        verify_every: usize,
        /// Where to generate (a temporary folder when not given).
        #[arg(long)]
        work: Option<PathBuf>,
    },
    /// Runs a command and prints its wall time in nanoseconds and its peak
    /// RSS in KiB (the table's measuring child; `getrusage` of one child).
    Measure {
        #[arg(trailing_var_arg = true, required = true)]
        command: Vec<String>,
    },
}

#[derive(clap::Args, Clone)]
struct SpecArgs {
    #[arg(long, default_value_t = 10_000)]
    skills: usize,
    #[arg(long, default_value_t = 5_000)]
    registry_tools: usize,
    /// Fraction of skills routing to a misspelt skill name.
    #[arg(long, default_value_t = 0.0)]
    near: f64,
    /// Fraction of skills naming a tool that exists nowhere.
    #[arg(long, default_value_t = 0.0)]
    far: f64,
    /// Claude Code skills, Claude Code subagents and Copilot agents to add,
    /// this many of each.
    #[arg(long, default_value_t = 0)]
    wild: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl From<SpecArgs> for Spec {
    fn from(a: SpecArgs) -> Spec {
        Spec {
            skills: a.skills,
            registry_tools: a.registry_tools,
            near: a.near,
            far: a.far,
            wild: a.wild,
            seed: a.seed,
        }
    }
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Cmd::Generate { dir, spec } => generate(&dir, &spec.into()).map(|stats| {
            println!(
                "{} files, {} bytes, {} skills with a mistake",
                stats.files, stats.bytes, stats.mistakes
            );
        }),
        Cmd::Measure { command } => measure(&command),
        Cmd::Versus { before, after, rounds, work, spec } => {
            versus(&before, &after, rounds, work, &spec.into())
        }
        Cmd::Lsp { agentc, skills, wild, verify_every, work } => {
            lsp::run(lsp::Args { agentc, skills, wild, verify_every, work })
        }
        Cmd::SkillsRef { skills, rounds, agentc, python, work } => {
            skills_ref(skills, rounds, &agentc, python, &work)
        }
        Cmd::Macro { skills, rounds, build_override, work } => {
            macro_table(skills, rounds, build_override, &work)
        }
        Cmd::Doors { sizes, rounds, build_override, work, repository } => {
            let repository = repository.unwrap_or_else(self::repository);
            doors::table(&sizes, rounds, build_override, &work, &repository)
        }
        Cmd::Table {
            agentc,
            sizes,
            rounds,
            big_rounds,
            registry_ratio,
            mistakes,
            wild_ratio,
            work,
            registries,
            example,
            content_rules,
        } => {
            let runner = Table {
                agentc,
                rounds,
                big_rounds,
                registry_ratio,
                mistakes,
                wild_ratio,
                content_rules,
            };
            runner.run(&sizes, &registries, &example, work)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("agentc-bench: {err}");
            ExitCode::FAILURE
        }
    }
}

/// One side of [`Cmd::Versus`]: the wall and CPU time of each round.
#[derive(Default)]
struct Side {
    wall: Vec<Duration>,
    cpu: Vec<Duration>,
}

impl Side {
    fn median(runs: &[Duration]) -> Duration {
        let mut sorted = runs.to_vec();
        sorted.sort();
        sorted[sorted.len() / 2]
    }
}

fn versus(
    before: &Path,
    after: &Path,
    rounds: usize,
    work: Option<PathBuf>,
    spec: &agentc_bench::Spec,
) -> std::io::Result<()> {
    if rounds == 0 {
        return Err(std::io::Error::other("--rounds must be at least 1"));
    }
    let binaries = [agentc_binary(before)?, agentc_binary(after)?];
    let temp;
    let dir = match work {
        Some(dir) => dir,
        None => {
            temp = TempDir::new()?;
            temp.0.join("project")
        }
    };
    let stats = generate(&dir, spec)?;
    let mut sides = [Side::default(), Side::default()];
    // One unmeasured run each warms the page cache.
    for binary in &binaries {
        Command::new(binary)
            .arg("check")
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()?;
    }
    for round in 0..rounds {
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for i in order {
            let before_usage =
                nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)?;
            let start = Instant::now();
            let mut child = Command::new(&binaries[i])
                .arg("check")
                .arg(&dir)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()?;
            let status = child.wait()?;
            let wall = start.elapsed();
            let usage =
                nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)?;
            if status.code() != Some(0) {
                return Err(std::io::Error::other(format!(
                    "{} check exited {status}",
                    binaries[i].display()
                )));
            }
            let cpu = |u: &nix::sys::resource::Usage| {
                let (user, system) = (u.user_time(), u.system_time());
                Duration::from_micros(
                    (user.tv_sec() * 1_000_000
                        + user.tv_usec()
                        + system.tv_sec() * 1_000_000
                        + system.tv_usec()) as u64,
                )
            };
            let side = &mut sides[i];
            side.wall.push(wall);
            side.cpu.push(cpu(&usage).saturating_sub(cpu(&before_usage)));
        }
    }
    println!("{} files, {} bytes; {rounds} rounds, alternating", stats.files, stats.bytes);
    println!("| binary | `agentc check` wall | CPU |");
    println!("|---|---|---|");
    for (name, side) in ["before", "after"].iter().zip(&sides) {
        println!("| {name} | {} | {} |", ms(Side::median(&side.wall)), ms(Side::median(&side.cpu)));
    }
    let ratio = |f: fn(&Side) -> &Vec<Duration>| {
        Side::median(f(&sides[1])).as_secs_f64() / Side::median(f(&sides[0])).as_secs_f64()
    };
    println!("| after / before | {:.3} | {:.3} |", ratio(|s| &s.wall), ratio(|s| &s.cpu));
    Ok(())
}

fn measure(command: &[String]) -> std::io::Result<()> {
    let start = Instant::now();
    let status = Command::new(&command[0])
        .args(&command[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()?;
    let elapsed = start.elapsed();
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)?;
    println!("{} {} {}", elapsed.as_nanos(), usage.max_rss(), status.code().unwrap_or(-1));
    Ok(())
}

/// One measured run.
#[derive(Clone, Copy)]
struct Run {
    time: Duration,
    rss_kib: u64,
}

struct Table {
    agentc: PathBuf,
    rounds: usize,
    big_rounds: usize,
    registry_ratio: f64,
    mistakes: f64,
    wild_ratio: f64,
    /// Time `check` with the content rules allowed too.
    content_rules: bool,
}

/// The `[lints]` that switch the content rules off, added to a project's
/// `agentc.toml`.
const CONTENT_RULES_ALLOWED: &str =
    "\n[lints]\nsecret = \"allow\"\nhidden-character = \"allow\"\nunclosed-markup = \"allow\"\n";

/// One size's `check` with and without the content rules.
struct ContentRulesRow {
    n: usize,
    bytes: u64,
    with: Run,
    without: Run,
}

impl Table {
    fn run(
        &self,
        sizes: &[usize],
        registries: &[usize],
        example: &Path,
        work: Option<PathBuf>,
    ) -> std::io::Result<()> {
        if self.rounds == 0 || self.big_rounds == 0 {
            return Err(std::io::Error::other("--rounds and --big-rounds must be at least 1"));
        }
        let agentc = agentc_binary(&self.agentc)?;
        let agentc_cmd = |dir: &Path, sub: &str| {
            vec![agentc.display().to_string(), sub.to_owned(), dir.display().to_string()]
        };
        let temp;
        let work = match work {
            Some(dir) => dir,
            None => {
                temp = TempDir::new()?;
                temp.0.clone()
            }
        };
        println!(
            "| N skills | input | floor | `agentc check` | ratio | per skill | peak RSS | `agentc lock` | ratio | peak RSS | check, {:.0}% near misses | ratio to clean | check, every skill a near miss | ratio to clean |",
            self.mistakes * 100.0
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        let mut content_rows = Vec::new();
        for &n in sizes {
            let rounds = if n > 50_000 { self.big_rounds } else { self.rounds };
            let registry_tools = (n as f64 * self.registry_ratio) as usize;
            let clean = work.join(format!("clean-{n}"));
            let faulty = work.join(format!("near-{n}"));
            let all_faulty = work.join(format!("all-{n}"));
            let wild = (n as f64 * self.wild_ratio) as usize;
            let spec = Spec { skills: n, registry_tools, wild, ..Spec::default() };
            let stats = generate(&clean, &spec)?;
            generate(&faulty, &Spec { near: self.mistakes, ..spec.clone() })?;
            generate(&all_faulty, &Spec { near: 1.0, ..spec })?;
            let floor_cmd = |dir: &Path| {
                let line = format!("find {} -type f -exec cat {{}} + > /dev/null", dir.display());
                vec!["sh".to_owned(), "-c".to_owned(), line]
            };
            let mut floor = Vec::new();
            let mut check = Vec::new();
            let mut lock = Vec::new();
            let mut near = Vec::new();
            let mut all = Vec::new();
            let mut allowed = Vec::new();
            let project_file = clean.join("agentc.toml");
            let plain = std::fs::read_to_string(&project_file)?;
            for _ in 0..rounds {
                floor.push(self.measure(&floor_cmd(&clean), Some(0))?);
                check.push(self.measure(&agentc_cmd(&clean, "check"), Some(0))?);
                if self.content_rules {
                    // The same files, so the same page cache: only the
                    // project file differs, and only for this run.
                    std::fs::write(&project_file, format!("{plain}{CONTENT_RULES_ALLOWED}"))?;
                    let run = self.measure(&agentc_cmd(&clean, "check"), Some(0));
                    std::fs::write(&project_file, &plain)?;
                    allowed.push(run?);
                }
                lock.push(self.measure(&agentc_cmd(&clean, "lock"), Some(0))?);
                near.push(self.measure(&agentc_cmd(&faulty, "check"), Some(1))?);
                all.push(self.measure(&agentc_cmd(&all_faulty, "check"), Some(1))?);
            }
            if self.content_rules {
                let (with, without) = (median(check.clone()), median(allowed));
                content_rows.push(ContentRulesRow { n, bytes: stats.bytes, with, without });
            }
            let (floor, check, lock, near, all) =
                (median(floor), median(check), median(lock), median(near), median(all));
            let ratio = |a: Run, b: Run| a.time.as_secs_f64() / b.time.as_secs_f64();
            println!(
                "| {n} | {:.1} MiB | {} | {} | {:.2}× | {:.1} µs | {} | {} | {:.2}× | {} | {} | {:.2}× | {} | {:.2}× |",
                stats.bytes as f64 / (1 << 20) as f64,
                ms(floor.time),
                ms(check.time),
                ratio(check, floor),
                check.time.as_secs_f64() * 1e6 / n as f64,
                mib(check.rss_kib),
                ms(lock.time),
                ratio(lock, floor),
                mib(lock.rss_kib),
                ms(near.time),
                ratio(near, check),
                ms(all.time),
                ratio(all, check),
            );
            std::fs::remove_dir_all(&clean)?;
            std::fs::remove_dir_all(&faulty)?;
            std::fs::remove_dir_all(&all_faulty)?;
        }
        if self.content_rules {
            println!();
            println!(
                "| N skills | input | `agentc check` | content rules allowed | difference | ratio | peak RSS | peak RSS allowed |"
            );
            println!("|---|---|---|---|---|---|---|---|");
        }
        for row in content_rows {
            let (with, without) = (row.with.time, row.without.time);
            println!(
                "| {} | {:.1} MiB | {} | {} | {} | {:.2}× | {} | {} |",
                row.n,
                row.bytes as f64 / (1 << 20) as f64,
                ms(with),
                ms(without),
                signed_ms(with.as_secs_f64() - without.as_secs_f64()),
                with.as_secs_f64() / without.as_secs_f64(),
                mib(row.with.rss_kib),
                mib(row.without.rss_kib),
            );
        }
        if !registries.is_empty() {
            println!();
            println!("| registry tools (10,000 skills) | `agentc check` | per skill | peak RSS |");
            println!("|---|---|---|---|");
        }
        for &registry_tools in registries {
            let dir = work.join(format!("registry-{registry_tools}"));
            generate(&dir, &Spec { skills: 10_000, registry_tools, ..Spec::default() })?;
            let runs = (0..self.rounds)
                .map(|_| self.measure(&agentc_cmd(&dir, "check"), Some(0)))
                .collect::<std::io::Result<Vec<Run>>>()?;
            let run = median(runs);
            println!(
                "| {registry_tools} | {} | {:.1} µs | {} |",
                ms(run.time),
                run.time.as_secs_f64() * 1e6 / 10_000.0,
                mib(run.rss_kib)
            );
            std::fs::remove_dir_all(&dir)?;
        }
        if example.exists() {
            let runs = (0..21)
                .map(|_| self.measure(&agentc_cmd(example, "check"), Some(0)))
                .collect::<std::io::Result<Vec<Run>>>()?;
            let run = median(runs);
            println!();
            println!(
                "`agentc check {}`: {:.1} ms (median of 21), peak RSS {}",
                example.display(),
                run.time.as_secs_f64() * 1e3,
                mib(run.rss_kib)
            );
        }
        Ok(())
    }

    /// Runs `command` under `agentc-bench measure`, expecting exit `code`.
    fn measure(&self, command: &[String], code: Option<i32>) -> std::io::Result<Run> {
        let out = Command::new(std::env::current_exe()?).arg("measure").args(command).output()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let fields: Vec<i64> = text.split_whitespace().filter_map(|f| f.parse().ok()).collect();
        let [nanos, rss, status] = fields[..] else {
            return Err(std::io::Error::other(format!("measure printed {text:?}")));
        };
        if code.is_some_and(|c| c != status as i32) {
            return Err(std::io::Error::other(format!("{command:?} exited {status}")));
        }
        Ok(Run { time: Duration::from_nanos(nanos as u64), rss_kib: rss as u64 })
    }
}

/// The reference validator's loop: every folder under `skills/`, validated;
/// prints the count of folders with problems, so a run is seen to judge.
const VALIDATE: &str = "
import sys
from pathlib import Path
from skills_ref.validator import validate
bad = sum(1 for d in sorted(Path(sys.argv[1]).iterdir()) if validate(d))
print(bad)
";

fn skills_ref(
    skills: usize,
    rounds: usize,
    agentc: &Path,
    python: Option<PathBuf>,
    work: &Path,
) -> std::io::Result<()> {
    if rounds == 0 {
        return Err(std::io::Error::other("--rounds must be at least 1"));
    }
    let agentc = agentc_binary(agentc)?;
    std::fs::create_dir_all(work)?;
    let python = match python {
        Some(python) => python,
        None => {
            let venv = work.join("venv");
            let python = venv.join("bin/python");
            if !python.exists() {
                run_ok(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
                run_ok(Command::new(&python).args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "skills-ref==0.1.1",
                ]))?;
            }
            python
        }
    };
    let dir = work.join(format!("agent-skills-{skills}"));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    let stats = agentc_bench::generate_agent_skills(&dir, skills, 1)?;
    // Both must accept every skill, or the comparison times different work.
    let out = Command::new(&python).args(["-c", VALIDATE]).arg(dir.join("skills")).output()?;
    let refused = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if !out.status.success() || refused != "0" {
        return Err(std::io::Error::other(format!(
            "the reference validator refused {refused} skills: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let check = vec![
        agentc.display().to_string(),
        "check".to_owned(),
        "--layout".to_owned(),
        "agent-skills".to_owned(),
        dir.display().to_string(),
    ];
    let reference = vec![
        python.display().to_string(),
        "-c".to_owned(),
        VALIDATE.to_owned(),
        dir.join("skills").display().to_string(),
    ];
    let table = Table {
        agentc,
        rounds,
        big_rounds: rounds,
        registry_ratio: 0.0,
        mistakes: 0.0,
        wild_ratio: 0.0,
        content_rules: false,
    };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        ours.push(table.measure(&check, Some(0))?);
        theirs.push(table.measure(&reference, Some(0))?);
    }
    let (ours, theirs) = (median(ours), median(theirs));
    println!("| Agent Skills | input | `skills-ref` (Python) | `agentc check` | ratio |");
    println!("|---|---|---|---|---|");
    println!(
        "| {skills} | {:.1} MiB | {} | {} | {:.1}× faster |",
        stats.bytes as f64 / (1 << 20) as f64,
        ms(theirs.time),
        ms(ours.time),
        theirs.time.as_secs_f64() / ours.time.as_secs_f64()
    );
    Ok(())
}

/// The `agentc` binary to time, as an absolute path, or why there is none.
fn agentc_binary(path: &Path) -> std::io::Result<PathBuf> {
    std::fs::canonicalize(path).map_err(|err| {
        std::io::Error::other(format!(
            "no agentc binary at `{}` ({err}): build it with `cargo build --release -p agentc-cli`, or name it with --agentc",
            path.display()
        ))
    })
}

fn run_ok(command: &mut Command) -> std::io::Result<()> {
    let out = command.output()?;
    if out.status.success() {
        return Ok(());
    }
    Err(std::io::Error::other(format!(
        "{command:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    )))
}

/// The repository this benchmark was built from: the crates depend on its `agentc`.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn macro_table(
    skills: usize,
    rounds: usize,
    build_override: bool,
    work: &Path,
) -> std::io::Result<()> {
    if rounds == 0 {
        return Err(std::io::Error::other("--rounds must be at least 1"));
    }
    let repo = std::fs::canonicalize(repository())?;
    std::fs::create_dir_all(work)?;
    let work = std::fs::canonicalize(work)?;
    let consumer = work.join("consumer");
    let plain = work.join("plain");
    if consumer.exists() {
        std::fs::remove_dir_all(&consumer)?;
    }
    let stats = generate(&consumer, &Spec { skills, registry_tools: 0, ..Spec::default() })?;
    let profile =
        if build_override { "\n[profile.dev.build-override]\nopt-level = 3\n" } else { "" };
    std::fs::write(
        work.join("Cargo.toml"),
        format!("[workspace]\nmembers = [\"consumer\", \"plain\"]\nresolver = \"3\"\n{profile}"),
    )?;
    for (dir, name, lib) in [
        (
            &consumer,
            "consumer",
            "agentc::agents!();\n\npub fn body_bytes() -> usize {\n    Skill::ALL.iter().map(|s| s.def().body.len()).sum()\n}\n",
        ),
        (
            &plain,
            "plain",
            "pub fn body_bytes() -> usize {\n    agentc::runtime::text_slice(\"body\", 0, 4).len()\n}\n",
        ),
    ] {
        std::fs::create_dir_all(dir.join("src"))?;
        std::fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nagentc = {{ path = {:?} }}\n",
                repo.display().to_string()
            ),
        )?;
        std::fs::write(dir.join("src/lib.rs"), lib)?;
    }
    let build = |package: &str| -> std::io::Result<Duration> {
        let start = Instant::now();
        // `cargo` from PATH (rustup's proxy), not `env!("CARGO")`: the toolchain's
        // own cargo, run directly, leaves rustup to pick each rustc by its working
        // folder, and a registry crate shipping a `rust-toolchain.toml` (jsonc-parser
        // does) then asks for a toolchain that is not installed.
        let out = Command::new("cargo")
            .args(["build", "--quiet", "--package", package])
            .current_dir(&work)
            .env("CARGO_TARGET_DIR", work.join("target"))
            .output()?;
        if !out.status.success() {
            return Err(std::io::Error::other(format!(
                "`cargo build -p {package}` in {} failed:\n{}",
                work.display(),
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        Ok(start.elapsed())
    };
    let first = build("consumer")?;
    build("plain")?;
    let skill_file =
        consumer.join(format!("agents/skills/{}/SKILL.md", agentc_bench::skill_name(0)));
    let append = |path: &Path, line: &str| -> std::io::Result<()> {
        use std::io::Write;
        std::fs::OpenOptions::new().append(true).open(path)?.write_all(line.as_bytes())
    };
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        append(&skill_file, &format!("Edited in round {round}.\n"))?;
        with.push(Run { time: build("consumer")?, rss_kib: 0 });
        append(&plain.join("src/lib.rs"), &format!("// Edited in round {round}.\n"))?;
        without.push(Run { time: build("plain")?, rss_kib: 0 });
    }
    let (with, without) = (median(with), median(without));
    let rlib = |name: &str| {
        std::fs::metadata(work.join(format!("target/debug/lib{name}.rlib"))).map(|m| m.len())
    };
    let door = agentc_compiler::embed::Door::Macro;
    let request = agentc_compiler::embed::Request::from_project(&consumer, door)
        .map_err(|f| std::io::Error::other(f.message))?;
    let generated =
        agentc_compiler::embed::run(&request).map_err(|f| std::io::Error::other(f.message))?;
    let expansion = generated.tokens.to_string().len();
    let mb = |bytes: u64| format!("{:.1} MB", bytes as f64 / 1e6);
    println!(
        "| skills | input | build-override | first build | rebuild after a skill edit | the crate without the macro | difference | expansion | rlib | rlib without |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    println!(
        "| {skills} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        mb(stats.bytes),
        if build_override { "opt-level 3" } else { "none" },
        ms(first),
        ms(with.time),
        ms(without.time),
        ms(with.time.saturating_sub(without.time)),
        mb(expansion as u64),
        mb(rlib("consumer")?),
        mb(rlib("plain")?),
    );
    Ok(())
}

fn median(mut runs: Vec<Run>) -> Run {
    runs.sort_by_key(|r| r.time);
    let mut mid = runs[runs.len() / 2];
    mid.rss_kib = runs.iter().map(|r| r.rss_kib).max().unwrap_or(0);
    mid
}

fn ms(d: Duration) -> String {
    if d >= Duration::from_secs(10) {
        format!("{:.1} s", d.as_secs_f64())
    } else {
        format!("{} ms", d.as_millis())
    }
}

/// A difference of two times, in seconds, as signed milliseconds.
fn signed_ms(seconds: f64) -> String {
    format!("{:+.0} ms", seconds * 1e3)
}

fn mib(kib: u64) -> String {
    format!("{} MiB", kib / 1024)
}

/// A folder removed when the table is done.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> std::io::Result<TempDir> {
        let dir = std::env::temp_dir().join(format!("agentc-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
