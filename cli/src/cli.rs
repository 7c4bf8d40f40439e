//! The `agentc` command line.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use agentc_schema::{Kind, Lockfile};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::progress::{self, with_progress};
use agentc_compiler::catalog::Code;
use agentc_compiler::compile::{Compilation, SetupError, compile};
use agentc_compiler::diagnostic::Counts;
use agentc_compiler::emit;
use agentc_compiler::fs::{Bounds, EntryKind, Fs, RealFs};
use agentc_compiler::lock::{describe_difference, show_path, take_lockfile};
use agentc_compiler::options::{LayoutKind, Options, Scope};
use agentc_compiler::project_file;
use agentc_compiler::repository;
use agentc_compiler::suggest::did_you_mean;
use agentc_compiler::write::{self, write_atomic};

/// Exit code: no errors.
pub const EXIT_OK: i32 = 0;
/// Exit code: the input has errors.
pub const EXIT_ERRORS: i32 = 1;
/// Exit code: agentc could not run.
pub const EXIT_USAGE: i32 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "agentc",
    version,
    about = "Compile AI-agent definition directories: check every agent, skill, tool and route at build time.",
    long_about = "agentc reads a whole agents directory — AGENT.md bundles, agent.json packages, \
                  SKILL.md runbooks, tool manifests — and reports every problem in every file at its \
                  line and column, before any runtime loads it.\n\n\
                  Exit codes: 0 no errors (warnings allowed unless --deny-warnings); 1 the input has \
                  errors; 2 agentc could not run (bad arguments, a missing root, a URL given as root); \
                  130 or 143 interrupted by Ctrl-C or SIGTERM while writing a file (the temporary \
                  file is removed, the previous output kept).",
    after_help = "Run `agentc explain CODE` to learn what a diagnostic code means and how to fix it."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When to colour the diagnostics.
    ///
    /// `auto` colours them when stderr is a terminal, unless NO_COLOR is set (not empty) or
    /// CLICOLOR=0; CLICOLOR_FORCE (not empty) colours them even when it is not. The flag
    /// overrides these variables.
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    color: ColorWhen,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile an agents directory and report every problem; writes nothing.
    Check(CheckArgs),
    /// Compile an agents directory and write its lockfile, or check that it is current.
    #[command(
        long_about = "Compile an agents directory and write agentc.lock: the validated, resolved \
                      model with a digest of every input file, which a runtime loads without \
                      re-validating. Nothing is written when there are errors, and the file is \
                      replaced atomically.\n\n\
                      With --check nothing is written: the exit code is 1 when the lockfile is \
                      missing, unreadable, of another format, or differs from what would be \
                      written, and the differences are listed (agents, skills, tools, files).",
        after_help = "Examples:\n  agentc lock agents            # writes agentc.lock beside agents/\n  agentc lock agents --check    # in CI\n  agentc lock --emit-dts src/agentc-names.d.ts   # and the names, typed, for TypeScript"
    )]
    Lock(LockArgs),
    /// Draw the runbooks: skills, the routes between them with their guards, each agent's
    /// start, and what can never run — as Mermaid, Graphviz DOT or JSON.
    #[command(
        long_about = "Compile an agents directory and draw its runbooks: each agent's skills grouped \
                      together with its start marked, routes as edges labelled with their guards \
                      (`on lookup_order status=denied`), skills no route reaches dashed, dead ends \
                      (skills whose routes cannot fire in the agent) and the routes that cannot fire \
                      in red, skills where the runbook ends drawn round (Mermaid) or with a double \
                      border (DOT). Skills outside every agent, Claude Code subagents and Copilot \
                      agents (their skills and handoffs) are drawn too.\n\n\
                      Mermaid renders in GitHub Markdown in a ```mermaid block; DOT renders with \
                      Graphviz (`dot -Tpng`). A project with errors is reported on stderr and drawn \
                      as far as it resolved, on stdout, with exit code 1; with -o nothing is \
                      written then, and the previous file is kept.",
        after_help = "Examples:\n  agentc graph                               # Mermaid, on stdout\n  agentc graph --format dot | dot -Tpng -o runbook.png\n  agentc graph --agent billing -o billing.mmd"
    )]
    Graph(GraphArgs),
    /// Show what each host reads into the model's context from the project, in tokens,
    /// against the limits the host documents.
    #[command(
        long_about = "Compile the project and show, for each host that reads it (Claude Code, \
                      GitHub Copilot, Codex, the Agent Skills specification) and each set of \
                      files it loads together (the project, each Claude Code plugin): how many \
                      items and tokens it reads at the start of every session (each skill's and \
                      command's name and description, subagents' descriptions, memory files) \
                      and on demand (a body when it is used), the largest of each, and every \
                      limit the host documents with the measured value beside it.\n\n\
                      Tokens are counted with OpenAI's o200k_base encoding: exact for the GPT \
                      models Codex and Copilot run, an estimate for Claude, whose tokenizer is \
                      not published. Limits a host acts on are measured the host's way \
                      (characters, bytes, or Claude Code's characters ÷ 4), and `agentc check` \
                      reports those over them as `context-budget` warnings; limits marked \
                      guidance are shown here only.\n\n\
                      Diagnostics are printed on stderr as `check` prints them; exit code 1 when \
                      the project has errors (the budget is of what was read).",
        after_help = "Examples:\n  agentc budget\n  agentc budget --top 10\n  agentc budget --format json > budget.json"
    )]
    Budget(BudgetArgs),
    /// Print or write the JSON Schemas that editors use to validate agent files.
    #[command(
        long_about = "Print the JSON Schema (draft-07) of one file kind, or write all of them to a \
                      directory. Every kind is listed below, and by `agentc schema` alone.",
        after_help = "Examples:\n  agentc schema agent > agent.schema.json\n  agentc schema --out generated"
    )]
    Schema(SchemaArgs),
    /// Write a new project that passes `agentc check`: agentc.toml, two agents (one of each
    /// style), two skills with a guarded route, a tool, and the JSON Schemas for editors; with
    /// --layout, an assistant's files instead (Claude Code, Copilot, Codex...). In a
    /// repository that already holds agent files (`.claude/`, `.github/agents/`, plugins) and
    /// without --layout, only an agentc.toml for what is there and the schemas.
    #[command(
        after_help = "Examples:\n  agentc init my-agents && cd my-agents && agentc check\n  \
                            agentc init --layout claude && agentc check"
    )]
    Init {
        /// The folder to write into (created if missing).
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Write an assistant's files instead: a skill, a subagent and the instructions it
        /// reads, where it reads them, which `agentc check` passes (`--pedantic` too). If one
        /// of the files is there already, nothing is written.
        #[arg(long, value_enum, value_name = "LAYOUT")]
        layout: Option<crate::init::Layout>,
    },
    /// Run the language server on stdin and stdout, for editors.
    #[command(
        long_about = "Run agentc's language server: it speaks the Language Server Protocol on stdin \
                      and stdout, so an editor shows agentc's diagnostics as you type, with hover, \
                      completion, go-to-definition, references, rename, quick fixes and an outline \
                      for every file agentc reads.\n\n\
                      Each workspace folder is a project, found as `agentc check` finds it there \
                      (its agentc.toml, else agents/, else the folder). docs/editors.md shows how to \
                      set it up in VS Code, Neovim, Zed and Helix.",
        after_help = "Neovim (the plugin in editors/nvim/ of agentc's repository), in init.lua:\n  \
                      vim.opt.runtimepath:append(vim.fn.expand(\"~/src/agentc/editors/nvim\"))\n  \
                      require(\"agentc\").setup()\n\
                      Zed: the extension in editors/zed/ (docs/editors.md)."
    )]
    Lsp,
    /// Run the Model Context Protocol server on stdin and stdout, for coding agents.
    #[command(
        long_about = "Run agentc's Model Context Protocol (MCP) server on stdin and stdout, so a \
                      coding agent (Claude Code, Codex, Copilot in VS Code...) asks agentc about \
                      the agent files it writes. Its tools: `check` (the project, a file or \
                      folder of it, or a file's text as if it were saved at a path: structured \
                      diagnostics, as --message-format json writes them), `explain` (a \
                      diagnostic code's page), `fixes` (the edits `check --fix` would make, \
                      nothing written) and `schema` (a format's JSON Schema).\n\n\
                      The project is the one `agentc check` finds in DIR (default: the folder \
                      the server is started in, which is the project's folder for the hosts \
                      below); paths in requests are relative to it, and a path outside the \
                      project is refused.",
        after_help = "Register it (the README shows each file):\n  \
                      Claude Code  claude mcp add agentc -- agentc mcp\n               \
                      or .mcp.json: \"mcpServers\": {\"agentc\": {\"command\": \"agentc\", \"args\": [\"mcp\"]}}\n  \
                      VS Code      .vscode/mcp.json: \"servers\": {\"agentc\": {\"type\": \"stdio\",\n               \
                      \"command\": \"agentc\", \"args\": [\"mcp\", \"${workspaceFolder}\"]}}\n  \
                      Codex        codex mcp add agentc -- agentc mcp\n               \
                      or ~/.codex/config.toml: [mcp_servers.agentc] with command = \"agentc\",\n               \
                      args = [\"mcp\"]"
    )]
    Mcp {
        /// The project's folder [default: the current folder].
        dir: Option<PathBuf>,
    },
    /// Print the completion script for a shell.
    #[command(
        long_about = "Print the completion script for a shell: commands, options and their values \
                      complete as you type `agentc`.",
        after_help = "Install:\n  \
                      bash:       agentc completions bash > ~/.local/share/bash-completion/completions/agentc\n  \
                      zsh:        agentc completions zsh > ~/.zfunc/_agentc   (with fpath+=~/.zfunc before compinit)\n  \
                      fish:       agentc completions fish > ~/.config/fish/completions/agentc.fish\n  \
                      PowerShell: agentc completions powershell >> $PROFILE"
    )]
    Completions { shell: clap_complete::Shell },
    /// Print the manual page, or write one per command to a folder.
    #[command(
        long_about = "Print agentc's manual page (roff, section 1), or with --out write agentc.1 \
                      and one page per command (agentc-check.1, ...) into a folder, each file \
                      replaced atomically.",
        after_help = "Examples:\n  agentc man | man -l -\n  agentc man --out ~/.local/share/man/man1"
    )]
    Man {
        /// Write the pages into this folder (created if missing).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Explain a diagnostic code, with a failing example and its fix.
    Explain {
        /// The code, e.g. `unknown-tool`.
        #[arg(value_parser = Completed(codes), hide_possible_values = true)]
        code: Option<String>,
        /// List every code with its severity and meaning, as a Markdown table.
        #[arg(long, conflicts_with = "code")]
        list: bool,
    },
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The agents directory, a project folder holding `.claude/`, `.github/agents/`,
    /// `skills/` or Claude Code plugins, or a folder with an `agentc.toml`. Without it:
    /// the nearest `agentc.toml` at or above the current folder, else the repository the
    /// current folder is in (the nearest folder above holding `.git`, `agentc.toml` or a
    /// host's folder: `.claude`, `.github`, `.agents`, `.claude-plugin`, `.codex`, `.cursor`,
    /// `.clinerules`, `.opencode`, `.gemini`, `.kiro`, `.codex`, `gemini-extension.json`), every layout
    /// in it. A file, or a part of a host's folder, a plugin or a top-level `skills/`
    /// (`.claude/skills/deploy`), is checked as the repository's top sees it, and only
    /// what is there is reported.
    root: Option<PathBuf>,
    /// Apply every mechanical fix the diagnostics carry (each file replaced atomically,
    /// and left alone if it changed since it was read), then check again.
    #[arg(long)]
    fix: bool,
    /// Check again whenever a file the check reads changes (the root, the workspace's
    /// AGENTS.md and .agents/, the registry, agentc.toml), until interrupted.
    #[arg(long, conflicts_with = "fix")]
    watch: bool,
    /// Say which layouts were found, and where.
    #[arg(short, long)]
    verbose: bool,
    /// Report only the problems this baseline file (written by --write-baseline) does not
    /// hold, and say how many it hid and how many of its entries no longer occur.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    baseline: Option<PathBuf>,
    /// Record every problem found in this file (sorted JSON, replaced atomically) instead of
    /// reporting them, so that `--baseline FILE` reports only new ones; exit code 0.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fix", "watch"])]
    write_baseline: Option<PathBuf>,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Args, Debug)]
struct LockArgs {
    /// The agents directory or project, found as `check` finds it.
    root: Option<PathBuf>,
    /// The lockfile [default: `lockfile` of agentc.toml, else agentc.lock beside the root
    /// folder].
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write nothing; fail when the lockfile is not what would be written.
    #[arg(long)]
    check: bool,
    /// Also write TypeScript declarations of the project's names (agents, skills, tools…)
    /// to FILE, for the npm package's `loadLockfile<Names>()` (with --check, compare them).
    #[arg(long = "emit-dts", value_name = "FILE")]
    emit_dts: Option<PathBuf>,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Args, Debug)]
struct BudgetArgs {
    /// The agents directory or project, found as `check` finds it.
    root: Option<PathBuf>,
    /// How to print the budget: `human` (a table per host) or `json` (one document).
    #[arg(long, value_enum, default_value_t = crate::budget::BudgetFormat::Human)]
    format: crate::budget::BudgetFormat,
    /// How many of the largest items to list for each host.
    #[arg(long, default_value_t = 5, value_name = "N")]
    top: usize,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Args, Debug)]
struct GraphArgs {
    /// The agents directory or project, found as `check` finds it.
    root: Option<PathBuf>,
    /// What to draw in.
    #[arg(long, value_enum, default_value_t = GraphFormat::Mermaid)]
    format: GraphFormat,
    /// Draw only this agent (or Claude Code subagent, or Copilot agent).
    #[arg(long, value_name = "NAME")]
    agent: Option<String>,
    /// Write the picture to this file (replaced atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GraphFormat {
    /// A Mermaid flowchart, which GitHub renders in Markdown.
    Mermaid,
    /// Graphviz DOT.
    Dot,
    /// Nodes, groups and edges as JSON.
    Json,
}

#[derive(Args, Debug)]
struct CommonArgs {
    /// The repository root that contributes AGENTS.md, .agents/skills and .agents/tools.
    #[arg(long, value_name = "DIR")]
    workspace: Option<PathBuf>,
    /// The host's registry (JSON or YAML): the tools it implements, the models and context providers it offers.
    #[arg(long, value_name = "FILE")]
    registry: Option<PathBuf>,
    /// Switch a scope off; repeat it or give a comma list. Scopes: system-prompt, agent-prompt,
    /// repo-prompt, global-skills, agent-skills, repo-skills, global-tools, agent-tools, repo-tools.
    #[arg(long, value_name = "SCOPE", value_parser = Completed(scopes), hide_possible_values = true)]
    exclude: Vec<String>,
    /// How to print diagnostics: `human` (rustc style, on stderr), `json` (one object per line,
    /// on stdout), `github` (GitHub Actions workflow commands on stdout, which become
    /// annotations on a pull request's lines; the summary on stderr) or `sarif` (one SARIF 2.1.0
    /// log for the whole run on stdout, for GitHub code scanning; the summary on stderr).
    #[arg(long, value_enum, default_value_t = MessageFormat::Human, value_name = "FORMAT")]
    message_format: MessageFormat,
    /// Fail (exit 1) when there are warnings.
    #[arg(long)]
    deny_warnings: bool,
    /// Also report the pedantic group, as warnings: keys a host ignores, YAML only the hosts'
    /// readers take, and the Agent Skills specification's rules where the host loads the file
    /// anyway (what other hosts and the specification's validator refuse). `[lints] pedantic`
    /// in agentc.toml sets it too.
    #[arg(long)]
    pedantic: bool,
    /// Read only these layouts; repeat it or give a comma list. Layouts: agentc, agent-skills
    /// (`.agents/skills/`), claude (`.claude/`, `.mcp.json`), claude-plugins, copilot
    /// (`.github/`, `.vscode/mcp.json`), memory (AGENTS.md, CLAUDE.md, GEMINI.md), cursor,
    /// cline, opencode, gemini, kiro, codex. Without it, every layout found is read.
    #[arg(long, value_name = "LAYOUT", value_parser = Completed(layouts), hide_possible_values = true)]
    layout: Vec<String>,
    /// The largest file agentc reads, in bytes [default: 16777216].
    #[arg(long, value_name = "BYTES")]
    max_file_size: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum MessageFormat {
    Human,
    Json,
    /// GitHub Actions workflow commands, on stdout: annotations on the pull request.
    Github,
    /// One SARIF 2.1.0 log for the run, on stdout: alerts in GitHub code scanning.
    Sarif,
}

#[derive(Args, Debug)]
struct SchemaArgs {
    /// The kind to print.
    #[arg(value_parser = Completed(schema_kinds))]
    kind: Option<String>,
    /// Write the schemas (all, or KIND's) into this directory as <kind>.schema.json.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// A value completed from a list of names: shells offer each name (and its
/// meaning, where the shell shows one), while the command checks what was
/// given itself, with its own did-you-mean, and reads comma lists.
#[derive(Clone)]
struct Completed(fn() -> Vec<clap::builder::PossibleValue>);

impl clap::builder::TypedValueParser for Completed {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter()))
    }
}

fn scopes() -> Vec<clap::builder::PossibleValue> {
    Scope::ALL
        .iter()
        .map(|s| clap::builder::PossibleValue::new(s.as_str()).help(s.describe()))
        .collect()
}

fn layouts() -> Vec<clap::builder::PossibleValue> {
    LayoutKind::ALL.iter().map(|k| clap::builder::PossibleValue::new(k.name())).collect()
}

fn schema_kinds() -> Vec<clap::builder::PossibleValue> {
    Kind::ALL
        .iter()
        .map(|k| clap::builder::PossibleValue::new(k.name()).help(k.describes()))
        .collect()
}

fn codes() -> Vec<clap::builder::PossibleValue> {
    Code::ALL
        .iter()
        .map(|c| clap::builder::PossibleValue::new(c.as_str()).help(c.summary()))
        .collect()
}

/// Where output goes, and whether it may be coloured.
pub struct Io<'a> {
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    /// Colour diagnostics unless `--color` says otherwise: what the
    /// environment asks for stderr (see [`auto_color`]).
    pub color: bool,
    /// Draw a progress line on stderr during long compiles (stderr is a terminal).
    pub progress: bool,
}

impl Io<'_> {
    /// Where the progress line goes, if anywhere: the process's own stderr,
    /// which `Io::stderr` is when `progress` is set.
    fn progress_line(&self) -> Option<Box<dyn Write + Send>> {
        self.progress.then(|| Box::new(std::io::stderr()) as Box<dyn Write + Send>)
    }
}

/// Whether stderr is coloured by default: the convention clap and cargo
/// follow (through `anstream`): NO_COLOR (not empty) turns colour off, then
/// CLICOLOR_FORCE (not empty) on, then CLICOLOR=0 off; otherwise a terminal
/// that supports colour gets it.
pub fn auto_color() -> bool {
    anstream::AutoStream::choice(&std::io::stderr()) != anstream::ColorChoice::Never
}

/// Runs agentc with `args` (the first is the program name); returns the exit code.
pub fn run(args: impl IntoIterator<Item = impl Into<OsString> + Clone>, io: &mut Io<'_>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let text =
                if io.color { err.render().ansi().to_string() } else { err.render().to_string() };
            let _ = if err.use_stderr() {
                write!(io.stderr, "{text}")
            } else {
                write!(io.stdout, "{text}")
            };
            return code;
        }
    };
    match cli.color {
        ColorWhen::Auto => {}
        ColorWhen::Always => io.color = true,
        ColorWhen::Never => io.color = false,
    }
    let format = match &cli.command {
        Command::Check(args) => args.common.message_format,
        Command::Lock(args) => args.common.message_format,
        Command::Graph(args) => args.common.message_format,
        Command::Budget(args) => args.common.message_format,
        _ => MessageFormat::Human,
    };
    #[cfg(unix)]
    {
        let writes = match &cli.command {
            Command::Check(args) => args.fix || args.write_baseline.is_some(),
            Command::Lock(args) => !args.check,
            Command::Schema(args) => args.out.is_some(),
            Command::Graph(args) => args.output.is_some(),
            Command::Init { .. } => true,
            Command::Man { out } => out.is_some(),
            Command::Explain { .. }
            | Command::Lsp
            | Command::Mcp { .. }
            | Command::Completions { .. }
            | Command::Budget(_) => false,
        };
        if writes {
            crate::signals::remove_temporaries_on_signals();
        }
    }
    // Filled by `check` and `lock` as they report, written when the run ends.
    let mut sarif = emit::sarif::Log::new();
    let result = match cli.command {
        Command::Check(args) => check(args, &mut sarif, io),
        Command::Lock(args) => lock(args, &mut sarif, io),
        Command::Schema(args) => schema(args, io),
        Command::Graph(args) => graph(args, &mut sarif, io),
        Command::Budget(args) => budget(args, &mut sarif, io),
        Command::Init { dir, layout } => init(&dir, layout, io),
        Command::Completions { shell } => {
            let mut command = Cli::command();
            clap_complete::generate(shell, &mut command, "agentc", &mut io.stdout);
            Ok(EXIT_OK)
        }
        Command::Man { out } => man(out.as_deref(), io),
        Command::Lsp => match agentc_lsp::run_stdio() {
            Ok(()) => Ok(EXIT_OK),
            Err(err) => Err(err.to_string().into()),
        },
        Command::Mcp { dir } => {
            match agentc_mcp::run_stdio(dir.as_deref().unwrap_or(Path::new("."))) {
                Ok(()) => Ok(EXIT_OK),
                Err(err) => Err(err.to_string().into()),
            }
        }
        Command::Explain { list: true, .. } => {
            write!(io.stdout, "{}", agentc_compiler::catalog::markdown_table())
                .map(|_| EXIT_OK)
                .map_err(Into::into)
        }
        Command::Explain { code: Some(code), .. } => explain(&code, io),
        Command::Explain { code: None, .. } => writeln!(
            io.stderr,
            "error: name a diagnostic code, e.g. `agentc explain unknown-tool`; \
             `agentc explain --list` lists them all"
        )
        .map(|_| EXIT_USAGE)
        .map_err(Into::into),
    };
    let code = match result {
        Ok(code) => code,
        // Whoever read the output stopped reading (`| head -1`): end quietly.
        Err(err) if is_broken_pipe(err.as_ref()) => return EXIT_USAGE,
        Err(err) => cannot_run(err.as_ref(), format, &mut sarif, io),
    };
    if format == MessageFormat::Sarif
        && let Err(err) = write_sarif(&sarif, io)
    {
        if !is_broken_pipe(&err) {
            let _ = writeln!(io.stderr, "error: {err}");
        }
        return EXIT_USAGE;
    }
    code
}

fn is_broken_pipe(err: &(dyn std::error::Error + 'static)) -> bool {
    err.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Says why agentc could not run, in the format asked for; returns the exit code.
fn cannot_run(
    err: &dyn std::error::Error,
    format: MessageFormat,
    sarif: &mut emit::sarif::Log,
    io: &mut Io<'_>,
) -> i32 {
    // A run that could not start is still one JSON object per line when
    // JSON was asked for, an annotation for GitHub, and a notification in
    // the run's SARIF log, so a tool reading stdout sees why.
    if format == MessageFormat::Github {
        let _ = writeln!(io.stdout, "{}", emit::github_cannot_run(&err.to_string()));
    }
    sarif.stop(err.to_string());
    let _ = if format == MessageFormat::Json {
        use agentc_schema::message as m;
        let diagnostic = emit::message_json(m::Message::Diagnostic(Box::new(m::Diagnostic {
            code: Code::CannotRun.as_str().to_owned(),
            severity: m::Severity::Error,
            message: err.to_string(),
            file: None,
            line: None,
            column: None,
            end_line: None,
            end_column: None,
            help: None,
            labels: Vec::new(),
            fix: None,
        })));
        writeln!(io.stdout, "{}", emit::escape_json(diagnostic.to_string())).and_then(|_| {
            writeln!(io.stdout, "{}", emit::json_summary(Counts { errors: 1, warnings: 0 }))
        })
    } else {
        writeln!(io.stderr, "error: {}", emit::escape_controls(&err.to_string()))
    };
    EXIT_USAGE
}

/// Writes the run's SARIF log, its relative paths based at the current
/// folder, where `Bases::from_cwd` shows them from.
fn write_sarif(log: &emit::sarif::Log, io: &mut Io<'_>) -> std::io::Result<()> {
    let cwd = std::env::current_dir().ok();
    writeln!(io.stdout, "{}", emit::escape_json(format!("{:#}", log.to_json(cwd.as_deref()))))
}

type CliResult = Result<i32, Box<dyn std::error::Error>>;

/// What a command compiles: from the project file, or from the arguments.
#[derive(Clone)]
struct Target {
    options: Options,
    /// Where `lock` writes unless `-o` says otherwise.
    lockfile: PathBuf,
    /// The folders that lockfile, and any link at its name, must stay in: the
    /// repository chose the path, not the user.
    lockfile_bounds: Bounds,
    /// The `agentc.toml` read, if any: an input that no output may replace.
    project_file: Option<PathBuf>,
}

/// Finds what to compile: `root` (a folder with an `agentc.toml` is a
/// project), or with no `root` the nearest project file, else the repository
/// (`repository::default_target`). Flags given on the command line override
/// the project file.
fn target(
    root: Option<PathBuf>,
    common: &CommonArgs,
    sarif: &mut emit::sarif::Log,
    io: &mut Io<'_>,
) -> Result<Result<Target, i32>, Box<dyn std::error::Error>> {
    let project_file = match &root {
        Some(root) => {
            let file = root.join(agentc_schema::PROJECT_FILE);
            // A link there is the repository's: `load` says where it may lead.
            std::fs::symlink_metadata(&file)
                .is_ok_and(|m| m.is_file() || m.file_type().is_symlink())
                .then_some(file)
        }
        None => project_file::find(&RealFs, Path::new(".")),
    };
    let (mut opts, lockfile, lockfile_bounds) = match &project_file {
        Some(file) => {
            let shown = agentc_compiler::emit::relative_to_cwd(file);
            match project_file::load(&RealFs, file, &shown) {
                Ok(project) => (project.options, project.lockfile, project.bounds),
                Err(failed) => {
                    let bases = emit::Bases::default();
                    report(&failed, common.message_format, &bases, sarif, io)?;
                    let why = format!("{shown} has errors; agentc cannot run");
                    if common.message_format != MessageFormat::Json {
                        writeln!(io.stderr, "error: {why}")?;
                    }
                    sarif.stop(why);
                    return Ok(Err(EXIT_USAGE));
                }
            }
        }
        None => {
            let (root, workspace) = match root {
                Some(root) => (root, None),
                None => {
                    let target = repository::default_target(&RealFs, Path::new("."));
                    (target.root, target.workspace)
                }
            };
            let lockfile = project_file::default_lockfile(&RealFs, &root);
            // The folder the user's root puts it in is the user's; a link at
            // its name is the repository's, and may lead only into the folder
            // or the root.
            let folder = match lockfile.parent() {
                Some(folder) if !folder.as_os_str().is_empty() => folder,
                _ => Path::new("."),
            };
            let bounds = Bounds::new(
                [folder, root.as_path()].into_iter().filter_map(|p| std::fs::canonicalize(p).ok()),
            );
            let mut options = Options::new(root);
            options.workspace = workspace;
            (options, lockfile, bounds)
        }
    };
    if let Some(workspace) = &common.workspace {
        opts.workspace = Some(workspace.clone());
    }
    if let Some(registry) = &common.registry {
        opts.registry = Some(registry.clone());
    }
    if let Some(max) = common.max_file_size {
        opts.max_file_size = max;
    }
    if common.pedantic && opts.pedantic == agentc_schema::LintLevel::Allow {
        opts.pedantic = agentc_schema::LintLevel::Warn;
    }
    for list in &common.exclude {
        opts.exclude.extend(Scope::parse_list(list)?);
    }
    if !common.layout.is_empty() {
        opts.layouts.clear();
    }
    for name in common.layout.iter().flat_map(|list| list.split(',')) {
        let name = name.trim();
        let layout = LayoutKind::parse(name).ok_or_else(|| {
            let names: Vec<_> = LayoutKind::ALL.iter().map(|k| k.name()).collect();
            format!("`{name}` is not a layout; the layouts are: {}", names.join(", "))
        })?;
        opts.layouts.insert(layout);
    }
    // Nothing the command line does navigates by the references to names.
    opts.references = false;
    Ok(Ok(Target { options: opts, lockfile, lockfile_bounds, project_file }))
}

/// Compiles and reports; `Err(code)` when the run stops here with that exit
/// code. `clean_summary` says whether a run without a single diagnostic says
/// so (`check` does; `lock` goes on to say what it wrote).
fn compile_and_report(
    opts: &Options,
    common: &CommonArgs,
    verbose: bool,
    clean_summary: bool,
    sarif: &mut emit::sarif::Log,
    io: &mut Io<'_>,
) -> Result<Result<Compilation, i32>, Box<dyn std::error::Error>> {
    compile_and_report_against(opts, common, verbose, clean_summary, None, sarif, io)
}

/// [`compile_and_report`], leaving out the problems `baseline` holds.
fn compile_and_report_against(
    opts: &Options,
    common: &CommonArgs,
    verbose: bool,
    clean_summary: bool,
    baseline: Option<&LoadedBaseline>,
    sarif: &mut emit::sarif::Log,
    io: &mut Io<'_>,
) -> Result<Result<Compilation, i32>, Box<dyn std::error::Error>> {
    let report = Reporting { verbose, clean_summary, baseline, warnings: true };
    Ok(match compile_and_report_all(opts, common, report, sarif, io)? {
        Ok((compilation, EXIT_OK)) => Ok(compilation),
        Ok((_, code)) | Err(code) => Err(code),
    })
}

/// [`compile_and_report`], keeping the compilation when it has errors
/// (with the exit code they call for): `graph` draws what resolved.
fn compile_and_report_all(
    opts: &Options,
    common: &CommonArgs,
    reporting: Reporting<'_>,
    sarif: &mut emit::sarif::Log,
    io: &mut Io<'_>,
) -> Result<Result<(Compilation, i32), i32>, Box<dyn std::error::Error>> {
    let Reporting { verbose, clean_summary, baseline, warnings } = reporting;
    let format = common.message_format;
    let progress = io.progress_line();
    let compiled = with_progress(&RealFs, progress, progress::DELAY, |fs| compile(fs, opts));
    let compilation = match compiled {
        Ok(compilation) => compilation,
        Err(SetupError::Registry(compilation)) => {
            report(&compilation, format, &emit::Bases::from_cwd(opts), sarif, io)?;
            let why = "the registry file has errors; agentc cannot check against it";
            writeln!(io.stderr, "error: {why}")?;
            sarif.stop(why);
            return Ok(Err(EXIT_USAGE));
        }
        Err(err) => return Err(err.into()),
    };
    let mut compilation = compilation;
    if let Some(only) = &opts.only {
        let under =
            |file: &agentc_compiler::RelPath| agentc_compiler::options::is_under(file, only);
        if !compilation.sources.keys().any(under) && !compilation.inputs.keys().any(under) {
            // A file named is one to check: one no host reads is a mistake in
            // the command; a folder may hold nothing yet.
            let named = opts.root.join(only);
            if RealFs.kind_followed(&named).is_ok_and(|kind| kind == EntryKind::File) {
                let why = format!(
                    "`{}` is not a file a host agentc knows reads at this place",
                    emit::escape_controls(&emit::relative_to_cwd(&named))
                );
                writeln!(io.stderr, "error: {why}")?;
                sarif.stop(why);
                return Ok(Err(EXIT_USAGE));
            }
            compilation.diagnostics.push(nothing_read_at(only));
        }
    }
    if verbose {
        if compilation.layouts.is_empty() {
            writeln!(io.stderr, "found no layout agentc knows")?;
        }
        // Shown from here, as the diagnostics are; the root itself as the
        // user named it (`.` when it is the current folder).
        let bases = emit::Bases::from_cwd(opts);
        for (kind, folder) in &compilation.layouts {
            let folder = match folder.path.trim_end_matches('/') {
                "" => bases.show(&agentc_compiler::diagnostic::RelPath {
                    path: "".into(),
                    ..folder.clone()
                }),
                _ => bases.show(folder),
            };
            writeln!(io.stderr, "found {:<14} in {}", kind.name(), emit::escape_controls(&folder))?;
        }
    }
    let filtered = baseline.map(|(baseline, shown)| {
        (baseline.filter(&mut compilation.diagnostics, &compilation.sources), shown)
    });
    let before = compilation.diagnostics.len();
    if !warnings {
        compilation
            .diagnostics
            .retain(|d| d.severity != agentc_compiler::diagnostic::Severity::Warning);
    }
    let hidden = before - compilation.diagnostics.len();
    let counts = if compilation.diagnostics.is_empty() && !clean_summary {
        Counts::default()
    } else {
        report(&compilation, format, &emit::Bases::from_cwd(opts), sarif, io)?
    };
    if let Some((filtered, shown)) = filtered {
        crate::baseline::tell(filtered, shown, io)?;
    }
    if hidden > 0 {
        let s = if hidden == 1 { "" } else { "s" };
        writeln!(io.stderr, "note: {hidden} warning{s} not shown here; `agentc check` shows them")?;
    }
    if counts.errors == 0 && common.deny_warnings && counts.warnings + hidden > 0 {
        if format != MessageFormat::Json {
            writeln!(io.stderr, "error: warnings are denied (--deny-warnings)")?;
        }
        return Ok(Ok((compilation, EXIT_ERRORS)));
    }
    let code = if counts.errors > 0 { EXIT_ERRORS } else { EXIT_OK };
    Ok(Ok((compilation, code)))
}

/// How a compile is reported.
#[derive(Clone, Copy)]
struct Reporting<'a> {
    /// Say which layouts were found (`--verbose`).
    verbose: bool,
    /// Say "no problems found" when there are none (`check` does; `lock`
    /// goes on to say what it wrote).
    clean_summary: bool,
    /// Leave out the problems this baseline holds (`--baseline`).
    baseline: Option<&'a LoadedBaseline>,
    /// Show warnings, not only count them (`graph` and `budget` draw or
    /// measure the agents; `check` is where warnings are read).
    warnings: bool,
}

impl Reporting<'_> {
    /// For commands whose output is something else: errors only, the
    /// warnings counted in one line.
    const QUIET: Reporting<'static> =
        Reporting { verbose: false, clean_summary: false, baseline: None, warnings: false };
}

/// A baseline read, with its path as shown.
type LoadedBaseline = (agentc_compiler::baseline::Baseline, String);

/// Said when a folder of a repository given to `check` holds nothing a
/// host reads there.
fn nothing_read_at(only: &str) -> agentc_compiler::Diagnostic {
    agentc_compiler::Diagnostic::on_path(
        agentc_compiler::Code::StrayEntry,
        &agentc_compiler::RelPath::root(only),
        format!("`{only}` holds no file a host agentc knows reads at this place"),
    )
    .with_help(
        "agentc checked the repository from its top and reports only on this path; \
         `agentc check --verbose` from the top lists what it reads, by host",
    )
}

fn check(args: CheckArgs, sarif: &mut emit::sarif::Log, io: &mut Io<'_>) -> CliResult {
    let target = match check_target(&args, sarif, io)? {
        Ok(target) => target,
        Err(code) => return Ok(code),
    };
    if let Some(path) = &args.write_baseline {
        return write_baseline(&target, path, &args.common, sarif, io);
    }
    let baseline = args.baseline.as_deref().map(crate::baseline::read).transpose()?;
    if args.fix {
        fix(&target.options, io)?;
    }
    if args.watch {
        return watch(&target, &args, baseline.as_ref(), sarif, io);
    }
    let (opts, common) = (&target.options, &args.common);
    let baseline = baseline.as_ref();
    let report = Reporting { verbose: args.verbose, clean_summary: true, baseline, warnings: true };
    Ok(match compile_and_report_all(opts, common, report, sarif, io)? {
        Ok((compilation, code)) => {
            free_aside(compilation);
            code
        }
        Err(code) => code,
    })
}

/// Frees `value` on a thread of its own. A compilation is a tree of many
/// small values: freeing it on the thread that then exits was 4% of a
/// 10,000-skill check's time, after everything else (issue #41). The binary
/// may exit before that thread is done; a library caller's thread finishes.
fn free_aside<T: Send + 'static>(value: T) {
    // A thread that cannot start hands the value back to be freed here.
    let _ = std::thread::Builder::new().name("agentc-free".into()).spawn(move || drop(value));
}

/// What `check` compiles: [`target`], from the repository's top when the
/// path given is a part of it a host reads as part of more
/// (`repository::within`), reporting only on that part.
fn check_target(
    args: &CheckArgs,
    sarif: &mut emit::sarif::Log,
    io: &mut Io<'_>,
) -> Result<Result<Target, i32>, Box<dyn std::error::Error>> {
    let within = args.root.as_deref().and_then(|root| repository::within(&RealFs, root));
    let root = match &within {
        Some(within) => Some(within.top.clone()),
        None => args.root.clone(),
    };
    let mut target = target(root, &args.common, sarif, io)?;
    if let (Ok(target), Some(within)) = (&mut target, within) {
        target.options.only = Some(within.only);
    }
    Ok(target)
}

/// `check --watch`: a check now, and again after every change, until interrupted.
/// With SARIF each check is a log of its own, written when it ends.
fn watch(
    first: &Target,
    args: &CheckArgs,
    baseline: Option<&LoadedBaseline>,
    sarif: &mut emit::sarif::Log,
    io: &mut Io<'_>,
) -> CliResult {
    let watch = crate::watch::Watch::new(&first.options, first.project_file.as_deref())
        .map_err(|err| format!("cannot watch `{}`: {err}", first.options.root.display()))?;
    let mut current = Ok(first.clone());
    loop {
        // The exit code of one check does not end the watch; a project file
        // with errors was reported by `target` and waits for its next change.
        if let Ok(target) = &current {
            let (opts, common) = (&target.options, &args.common);
            let _ =
                compile_and_report_against(opts, common, args.verbose, true, baseline, sarif, io)?;
        }
        if args.common.message_format == MessageFormat::Sarif {
            write_sarif(&std::mem::take(sarif), io)?;
        }
        writeln!(io.stderr, "[watching for changes; Ctrl-C to stop]")?;
        let changed = watch.next_change()?;
        writeln!(
            io.stderr,
            "\n[{} changed; checking again]",
            emit::escape_controls(&emit::relative_to_cwd(&changed))
        )?;
        current = check_target(args, sarif, io)?;
    }
}

/// `check --write-baseline FILE`: records every problem of a compile in
/// `path` (replaced atomically) instead of reporting them.
fn write_baseline(
    target: &Target,
    path: &Path,
    common: &CommonArgs,
    sarif: &mut emit::sarif::Log,
    io: &mut Io<'_>,
) -> CliResult {
    let opts = &target.options;
    let progress = io.progress_line();
    let compiled = with_progress(&RealFs, progress, progress::DELAY, |fs| compile(fs, opts));
    let compilation = match compiled {
        Ok(compilation) => compilation,
        Err(SetupError::Registry(compilation)) => {
            report(&compilation, common.message_format, &emit::Bases::from_cwd(opts), sarif, io)?;
            let why = "the registry file has errors; agentc cannot check against it";
            writeln!(io.stderr, "error: {why}")?;
            sarif.stop(why);
            return Ok(EXIT_USAGE);
        }
        Err(err) => return Err(err.into()),
    };
    let shown = emit::relative_to_cwd(path);
    let escaped = emit::escape_controls(&shown).into_owned();
    let cannot = |why: String| format!("cannot write the baseline `{escaped}`: {why}");
    let destination = write::destination(path, None).map_err(|err| cannot(err.to_string()))?;
    if let Some(input) = input_at(&destination, &compilation, target) {
        let input = emit::escape_controls(&input);
        return Err(cannot(format!("it is `{input}`, which this check reads")).into());
    }
    let redactor = compilation.redactor();
    let clean = |message: &str| redactor.clean(message).into_owned();
    let baseline = agentc_compiler::baseline::Baseline::of(
        &compilation.diagnostics,
        &compilation.sources,
        &clean,
    );
    write_atomic(&destination, baseline.to_json().as_bytes())
        .map_err(|err| cannot(err.to_string()))?;
    let counts = Counts::of(&compilation.diagnostics);
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    writeln!(
        io.stderr,
        "wrote {escaped}: {} and {} recorded; `agentc check --baseline {escaped}` reports only \
         problems not in it",
        plural(counts.errors, "error", "errors"),
        plural(counts.warnings, "warning", "warnings"),
    )?;
    Ok(EXIT_OK)
}

/// Applies the fixes of a first compile; the check that follows reports what is left.
fn fix(opts: &Options, io: &mut Io<'_>) -> Result<(), Box<dyn std::error::Error>> {
    // A registry with errors is reported by the check that follows.
    let Ok(compilation) = compile(&RealFs, opts) else {
        return Ok(());
    };
    let applied = agentc_compiler::fix::apply(&compilation);
    // Paths shown from here, as the diagnostics show them.
    let bases = emit::Bases::from_cwd(opts);
    for (file, fixes) in &applied.files {
        let plural = if *fixes == 1 { "fix" } else { "fixes" };
        writeln!(
            io.stderr,
            "fixed {}: {fixes} {plural}",
            emit::escape_controls(&bases.show(file))
        )?;
    }
    for (file, why) in &applied.skipped {
        let (file, why) = (bases.show(file), why.describe(&|rel| bases.show(rel)));
        let (file, why) = (emit::escape_controls(&file), emit::escape_controls(&why));
        writeln!(io.stderr, "warning: left {file} alone: {why}")?;
    }
    if applied.files.is_empty() && applied.skipped.is_empty() {
        writeln!(io.stderr, "nothing to fix")?;
    }
    Ok(())
}

/// Reads the current lockfile, refusing anything but a regular file (reading a
/// FIFO would block).
fn read_existing(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let Some(mut file) = write::open_regular(path)? else {
        return Err(std::io::Error::other("it is not a regular file"));
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn lock(args: LockArgs, sarif: &mut emit::sarif::Log, io: &mut Io<'_>) -> CliResult {
    let target = match target(args.root.clone(), &args.common, sarif, io)? {
        Ok(target) => target,
        Err(code) => return Ok(code),
    };
    let path = args.output.clone().unwrap_or(target.lockfile.clone());
    // Shown as a person in this folder would type it.
    let shown = emit::relative_to_cwd(&path);
    let mut compilation =
        match compile_and_report(&target.options, &args.common, false, false, sarif, io)? {
            Ok(compilation) => compilation,
            Err(code) => {
                if code == EXIT_ERRORS && !args.check {
                    writeln!(io.stderr, "error: {shown} was not written")?;
                    if let Some(dts) = &args.emit_dts {
                        let dts = emit::relative_to_cwd(dts);
                        writeln!(
                            io.stderr,
                            "error: {} was not written",
                            emit::escape_controls(&dts)
                        )?;
                    }
                }
                return Ok(code);
            }
        };
    // The model moves into the lockfile: nothing after this reads it.
    let fresh = take_lockfile(&mut compilation);
    let mut lockfile_destination = None;
    let code = write_lockfile(&args, &target, &compilation, &fresh, &mut lockfile_destination, io)?;
    let Some(dts) = &args.emit_dts else {
        free_aside((compilation, fresh));
        return Ok(code);
    };
    let destination = lockfile_destination.unwrap_or_else(|| path.clone());
    let input = |path: &Path| input_at(path, &compilation, &target);
    let command = lock_command(&args);
    let dts = crate::dts::DtsTarget {
        path: dts,
        check: args.check,
        lockfile: &destination,
        input: &input,
        command: &command,
    };
    Ok(code.max(crate::dts::emit_dts(&dts, &fresh, io)?))
}

/// Writes `fresh` where `lock` writes it, or with `--check` compares it;
/// `destination` is set to where that is, once resolved.
fn write_lockfile(
    args: &LockArgs,
    target: &Target,
    compilation: &Compilation,
    fresh: &Lockfile,
    lockfile_destination: &mut Option<PathBuf>,
    io: &mut Io<'_>,
) -> CliResult {
    let path = args.output.clone().unwrap_or(target.lockfile.clone());
    let bounds = args.output.is_none().then_some(&target.lockfile_bounds);
    let shown = emit::relative_to_cwd(&path);
    let cannot = |why: String| format!("cannot write the lockfile `{shown}`: {why}");
    // Where it is, links resolved (inside the project unless the user named it).
    let destination = match write::destination(&path, bounds) {
        Ok(destination) => destination,
        Err(err) if args.check => {
            writeln!(io.stderr, "error: {shown} cannot be read: {err}")?;
            return Ok(EXIT_ERRORS);
        }
        Err(err) => return Err(cannot(err.to_string()).into()),
    };
    *lockfile_destination = Some(destination.clone());
    // Compared and written as it is serialized: a lockfile as large as the
    // directory is never held in memory, twice over, beside the compile.
    if write::same_as(&destination, |out| fresh.write_json(out)).unwrap_or(false) {
        writeln!(io.stderr, "{shown} is up to date")?;
        return Ok(EXIT_OK);
    }
    if !args.check {
        if let Some(input) = input_at(&destination, compilation, target) {
            return Err(cannot(format!(
                "it is `{input}`, which this compile reads, and the lockfile would replace \
                 it; write the lockfile somewhere else (`-o FILE`, or `lockfile` in agentc.toml)"
            ))
            .into());
        }
        match agentc_compiler::lock::replaceable(&destination) {
            Ok(true) => {}
            Ok(false) => return Err(cannot(agentc_compiler::lock::NOT_OURS.to_owned()).into()),
            Err(err) => return Err(cannot(err.to_string()).into()),
        }
        if let Err(err) = write::write_atomic_streamed(&destination, |out| fresh.write_json(out)) {
            let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
            let why = match folder {
                Some(folder) if !folder.is_dir() => {
                    format!("the folder `{}` does not exist", folder.display())
                }
                _ => err.to_string(),
            };
            return Err(cannot(why).into());
        }
        writeln!(io.stderr, "wrote {shown}")?;
        return Ok(EXIT_OK);
    }
    let old = match read_existing(&destination) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            writeln!(io.stderr, "error: {shown} does not exist")?;
            if let Some(old) = renamed_default(&destination) {
                let old = emit::relative_to_cwd(&old);
                writeln!(
                    io.stderr,
                    "help: `{old}` beside it is agentc's lockfile under the name an earlier \
                     agentc gave it by default: rename it to `{shown}`, or set \
                     `lockfile = \"agents.lock\"` in agentc.toml"
                )?;
            } else {
                writeln!(io.stderr, "help: run `{}` to write it", lock_command(args))?;
            }
            return Ok(EXIT_ERRORS);
        }
        Err(err) => {
            writeln!(io.stderr, "error: {shown} cannot be read: {err}")?;
            return Ok(EXIT_ERRORS);
        }
        Ok(old) => old,
    };
    if !agentc_schema::lockfile::written_by_agentc(&old) {
        let why = agentc_compiler::lock::NOT_OURS;
        writeln!(io.stderr, "error: {shown}: {why}")?;
        return Ok(EXIT_ERRORS);
    }
    match Lockfile::from_json(&String::from_utf8_lossy(&old)) {
        Err(err) => writeln!(
            io.stderr,
            "error: {shown}: {}\nhelp: run `{}` to rewrite it",
            emit::escape_controls(&err.to_string()),
            lock_command(args)
        )?,
        Ok(old) => {
            writeln!(io.stderr, "error: {shown} is out of date")?;
            // Paths shown from here, as the diagnostics show them.
            let bases = emit::Bases::from_cwd(&target.options);
            let registry = target.options.registry.as_deref().map(emit::relative_to_cwd);
            let show = |path: &str| show_path(path, &bases, registry.as_deref());
            for line in describe_difference(&old, fresh, &show) {
                writeln!(io.stderr, "  {}", emit::escape_controls(&line))?;
            }
            writeln!(
                io.stderr,
                "help: run `{}` to update it, and commit the result",
                lock_command(args)
            )?;
        }
    }
    Ok(EXIT_ERRORS)
}

/// `agents.lock` beside a missing `agentc.lock`, when agentc wrote it: the
/// default name until dotagents' lockfile of that name was found in the
/// same repositories.
fn renamed_default(destination: &Path) -> Option<PathBuf> {
    if destination.file_name()? != "agentc.lock" {
        return None;
    }
    let old = destination.with_file_name("agents.lock");
    let agentc = agentc_compiler::lock::replaceable(&old).ok()?;
    (agentc && std::fs::metadata(&old).ok()?.len() > 0).then_some(old)
}

/// The input of the compile (or the project file) that `destination`, a
/// canonical path, is, as the user would name it.
fn input_at(destination: &Path, compilation: &Compilation, target: &Target) -> Option<String> {
    if let Some((rel, _)) = compilation.inputs.iter().find(|(_, path)| *path == destination) {
        return Some(emit::Bases::from_cwd(&target.options).show(rel));
    }
    let project_file = target.project_file.as_ref()?;
    (std::fs::canonicalize(project_file).ok()? == destination)
        .then(|| emit::relative_to_cwd(project_file))
}

/// The command that writes the lockfile this `lock --check` compared: the
/// same root and flags, so the hint works when pasted.
fn lock_command(args: &LockArgs) -> String {
    let mut words = vec!["agentc".to_owned(), "lock".to_owned()];
    let mut push = |flag: &str, value: &std::ffi::OsStr| {
        if !flag.is_empty() {
            words.push(flag.to_owned());
        }
        words.push(shell_word(&value.to_string_lossy()));
    };
    if let Some(root) = &args.root {
        push("", root.as_os_str());
    }
    if let Some(output) = &args.output {
        push("-o", output.as_os_str());
    }
    if let Some(dts) = &args.emit_dts {
        push("--emit-dts", dts.as_os_str());
    }
    let common = &args.common;
    if let Some(workspace) = &common.workspace {
        push("--workspace", workspace.as_os_str());
    }
    if let Some(registry) = &common.registry {
        push("--registry", registry.as_os_str());
    }
    for exclude in &common.exclude {
        push("--exclude", std::ffi::OsStr::new(exclude));
    }
    for layout in &common.layout {
        push("--layout", std::ffi::OsStr::new(layout));
    }
    if let Some(max) = common.max_file_size {
        push("--max-file-size", std::ffi::OsStr::new(&max.to_string()));
    }
    words.join(" ")
}

/// `word` as a POSIX shell reads it back: quoted when it holds anything but
/// plain path characters.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:@,".contains(c));
    if plain { word.to_owned() } else { format!("'{}'", word.replace('\'', "'\\''")) }
}

/// Prints every diagnostic and the summary (SARIF's results go into `sarif`,
/// written when the run ends); returns the counts.
fn report(
    compilation: &Compilation,
    format: MessageFormat,
    bases: &emit::Bases,
    sarif: &mut emit::sarif::Log,
    io: &mut Io<'_>,
) -> Result<Counts, std::io::Error> {
    let counts = Counts::of(&compilation.diagnostics);
    // The project file, when a diagnostic is in it (a glob of
    // `[[overrides]]` that matches nothing), is shown from its text too.
    let with_project;
    let sources = match &compilation.project_source {
        Some(project)
            if !compilation.sources.contains_key(&project.path)
                && compilation.diagnostics.iter().any(|d| d.location.file == project.path) =>
        {
            let mut sources = compilation.sources.clone();
            sources.insert(project.path.clone(), project.clone());
            with_project = sources;
            &with_project
        }
        _ => &compilation.sources,
    };
    // A found secret can also be in what a diagnostic quotes that is not a
    // message: a file's path, a line shown whole, a value elsewhere in it.
    let redactor = compilation.redactor();
    match format {
        MessageFormat::Human => {
            for diagnostic in &compilation.diagnostics {
                let text = emit::human_from(diagnostic, sources, io.color, bases);
                writeln!(io.stderr, "{}\n", redactor.clean(&text))?;
            }
            writeln!(io.stderr, "{}", emit::human_summary(counts, io.color))?;
        }
        MessageFormat::Json => {
            for diagnostic in &compilation.diagnostics {
                let json = emit::json(diagnostic, sources, bases);
                let text = emit::escape_json(json.to_string());
                writeln!(io.stdout, "{}", redactor.clean(&text))?;
            }
            writeln!(io.stdout, "{}", emit::json_summary(counts))?;
        }
        MessageFormat::Github => {
            for diagnostic in &compilation.diagnostics {
                let text = emit::github(diagnostic, sources, bases);
                writeln!(io.stdout, "{}", redactor.clean(&text))?;
            }
            writeln!(io.stderr, "{}", emit::human_summary(counts, false))?;
        }
        MessageFormat::Sarif => {
            sarif.add(&compilation.diagnostics, sources, bases, &redactor);
            writeln!(io.stderr, "{}", emit::human_summary(counts, false))?;
        }
    }
    Ok(counts)
}

fn budget(args: BudgetArgs, sarif: &mut emit::sarif::Log, io: &mut Io<'_>) -> CliResult {
    if args.common.message_format != MessageFormat::Human {
        return Err("the budget is printed on stdout, where --message-format json, github and \
                    sarif print the diagnostics; give the budget's own --format json instead \
                    (the diagnostics stay on stderr)"
            .into());
    }
    let target = match target(args.root.clone(), &args.common, sarif, io)? {
        Ok(target) => target,
        Err(code) => return Ok(code),
    };
    let (compilation, code) =
        match compile_and_report_all(&target.options, &args.common, Reporting::QUIET, sarif, io)? {
            Ok(done) => done,
            Err(code) => return Ok(code),
        };
    crate::budget::print(&compilation, args.format, args.top, &mut io.stdout)?;
    Ok(code)
}

fn graph(args: GraphArgs, sarif: &mut emit::sarif::Log, io: &mut Io<'_>) -> CliResult {
    if args.output.is_none() && args.common.message_format != MessageFormat::Human {
        return Err("the diagnostics and the graph would share stdout; with \
                    --message-format json, github or sarif, write the graph to a file with -o FILE"
            .into());
    }
    let target = match target(args.root.clone(), &args.common, sarif, io)? {
        Ok(target) => target,
        Err(code) => return Ok(code),
    };
    // A project with errors is drawn as far as it resolved: the picture shows
    // where the runbook breaks. The exit code still says it has errors.
    let (compilation, code) =
        match compile_and_report_all(&target.options, &args.common, Reporting::QUIET, sarif, io)? {
            Ok(done) => done,
            Err(code) => return Ok(code),
        };
    let graph = emit::graph::Graph::of(&compilation.model, args.agent.as_deref())?;
    let text = match args.format {
        GraphFormat::Mermaid => {
            let text = graph.mermaid();
            if let Some(why) = graph.mermaid_too_big(&text) {
                writeln!(io.stderr, "warning: {why}")?;
            }
            text
        }
        GraphFormat::Dot => graph.dot(),
        GraphFormat::Json => graph.json(),
    };
    // A node is named by what the files say, which may be a secret.
    let text = compilation.redactor().clean(&text).into_owned();
    match &args.output {
        Some(path) if code != EXIT_OK => {
            let why = if args.common.deny_warnings {
                "the project has errors, or warnings under --deny-warnings"
            } else {
                "the project has errors"
            };
            writeln!(io.stderr, "`{}` is not written: {why}", path.display())?;
        }
        Some(path) => {
            let cannot = |why: String| format!("cannot write `{}`: {why}", path.display());
            let destination =
                write::destination(path, None).map_err(|err| cannot(err.to_string()))?;
            if let Some(input) = input_at(&destination, &compilation, &target) {
                return Err(cannot(format!(
                    "it is `{input}`, which this compile reads; write the graph somewhere else"
                ))
                .into());
            }
            write_atomic(&destination, text.as_bytes()).map_err(|err| cannot(err.to_string()))?;
            writeln!(io.stderr, "wrote {}", path.display())?;
        }
        None => write!(io.stdout, "{text}")?,
    }
    Ok(code)
}

fn parse_kind(name: &str) -> Result<Kind, String> {
    Kind::from_name(name).ok_or_else(|| {
        let names: Vec<_> = Kind::ALL.iter().map(|k| k.name()).collect();
        format!("`{name}` is not a schema kind; the kinds are: {}", names.join(", "))
    })
}

fn schema(args: SchemaArgs, io: &mut Io<'_>) -> CliResult {
    let kinds: Vec<Kind> = match &args.kind {
        Some(name) => vec![parse_kind(name)?],
        None => Kind::ALL.to_vec(),
    };
    match (args.out, args.kind) {
        (Some(dir), _) => {
            std::fs::create_dir_all(&dir).map_err(|err| {
                format!("cannot create the folder `{}` for the schemas: {err}", dir.display())
            })?;
            for kind in kinds {
                let path = dir.join(kind.file_name());
                write_atomic(&path, kind.schema_text().as_bytes())
                    .map_err(|err| format!("cannot write `{}`: {err}", path.display()))?;
                writeln!(io.stderr, "wrote {}", path.display())?;
            }
        }
        (None, Some(_)) => write!(io.stdout, "{}", kinds[0].schema_text())?,
        (None, None) => {
            writeln!(
                io.stdout,
                "Schema kinds (print one with `agentc schema KIND`, write all with `--out DIR`):"
            )?;
            for kind in Kind::ALL {
                writeln!(io.stdout, "  {:<10} {}", kind.name(), kind.describes())?;
            }
        }
    }
    Ok(EXIT_OK)
}

/// The manual: one page, or with `out` a page per command in that folder.
fn man(out: Option<&Path>, io: &mut Io<'_>) -> CliResult {
    let command = Cli::command();
    let render = |command: clap::Command| -> std::io::Result<Vec<u8>> {
        let mut page = Vec::new();
        clap_mangen::Man::new(command).render(&mut page)?;
        Ok(page)
    };
    let Some(dir) = out else {
        io.stdout.write_all(&render(command)?)?;
        return Ok(EXIT_OK);
    };
    std::fs::create_dir_all(dir).map_err(|err| {
        format!("cannot create the folder `{}` for the manual: {err}", dir.display())
    })?;
    let mut pages = vec![("agentc".to_owned(), command.clone())];
    for sub in command.get_subcommands().filter(|sub| sub.get_name() != "help") {
        let name = format!("agentc-{}", sub.get_name());
        pages.push((name.clone(), sub.clone().name(name)));
    }
    for (name, page) in pages {
        let path = dir.join(format!("{name}.1"));
        write_atomic(&path, &render(page)?)
            .map_err(|err| format!("cannot write `{}`: {err}", path.display()))?;
        writeln!(io.stderr, "wrote {}", path.display())?;
    }
    Ok(EXIT_OK)
}

fn init(dir: &Path, layout: Option<crate::init::Layout>, io: &mut Io<'_>) -> CliResult {
    use crate::init::Layout;
    let written = crate::init::init(dir, layout)?;
    if let Some(layout) = layout.filter(|l| *l != Layout::Agentc) {
        writeln!(io.stderr, "wrote {}'s files into {}:", layout.host(), dir.display())?;
        for file in &written.files {
            let shown = file.strip_prefix(dir).unwrap_or(file);
            writeln!(io.stderr, "  {}", shown.display())?;
        }
    } else if written.found.is_empty() {
        writeln!(io.stderr, "wrote {} files into {}", written.files.len(), dir.display())?;
        if layout.is_none() {
            writeln!(
                io.stderr,
                "note: `agentc init --layout claude` (or copilot, codex, cursor, gemini, \
                 opencode, kiro, cline, claude-plugin) writes an assistant's files instead"
            )?;
        }
    } else {
        let found: Vec<String> =
            written.found.iter().map(|(kind, at)| format!("{} in {at}", kind.name())).collect();
        writeln!(
            io.stderr,
            "wrote agentc.toml and {} schemas for the agent files already in {} ({})",
            // agentc.toml, and build.rs when written, are not schemas.
            written.files.len() - 1 - usize::from(written.tracking == crate::init::Tracking::Wrote),
            dir.display(),
            found.join(", ")
        )?;
    }
    if let Some(lockfile) = &written.lockfile_renamed {
        writeln!(
            io.stderr,
            "note: `agentc.lock` there is another tool's file, so agentc.toml names `{lockfile}` \
             as agentc's lockfile"
        )?;
    }
    match &written.tracking {
        crate::init::Tracking::Nothing => {}
        crate::init::Tracking::Wrote => writeln!(
            io.stderr,
            "note: build.rs has cargo re-expand `agents!` when a file is added to or removed \
             from agents/"
        )?,
        crate::init::Tracking::Add(lines) => writeln!(
            io.stderr,
            "note: build.rs is there already; add these lines to its `main` so that `agents!` \
             sees a file added to or removed from agents/:\n{lines}"
        )?,
    }
    let go =
        if dir == Path::new(".") { String::new() } else { format!("cd {} && ", dir.display()) };
    writeln!(io.stderr, "next: {go}agentc check")?;
    Ok(EXIT_OK)
}

fn explain(code: &str, io: &mut Io<'_>) -> CliResult {
    match Code::parse(code) {
        Some(code) => {
            write!(io.stdout, "{}{}", code.explanation(), code.level_help())?;
            Ok(EXIT_OK)
        }
        None => {
            let names = Code::ALL.iter().map(|c| c.as_str());
            let hint = match did_you_mean(code, names) {
                Some(close) => format!("did you mean `{close}`?"),
                None => "`agentc explain --list` lists them all".to_owned(),
            };
            let code = emit::escape_controls(code);
            writeln!(io.stderr, "error: `{code}` is not a diagnostic code; {hint}")?;
            Ok(EXIT_USAGE)
        }
    }
}
