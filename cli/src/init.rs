//! `agentc init`: a minimal project that passes `agentc check`, to start from
//! — or, in a repository that already holds agent files, an `agentc.toml` for
//! what is there.
//!
//! The files are the ones under `cli/templates/init/`, compiled in; the
//! JSON Schemas their `$schema` keys point at are written beside them, so an
//! editor validates the files from the first keystroke.

use std::io;
use std::path::{Path, PathBuf};

use agentc_schema::Kind;

use agentc_compiler::discover::discover;
use agentc_compiler::fs::no_follow::Dir;
use agentc_compiler::fs::{Fs, RealFs};
use agentc_compiler::options::{LayoutKind, Options};
use agentc_compiler::repository;
use agentc_compiler::write::{Replace, write_in};

macro_rules! templates {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("../templates/init/", $path)))),*]
    };
}

/// Every file of a new project, by its path inside the project.
const FILES: &[(&str, &str)] = templates![
    "agentc.toml",
    "agents/triage/AGENT.md",
    "agents/escalations/agent.json",
    "agents/escalations/system.md",
    "agents/escalations/boundaries.md",
    "agents/escalations/conventions.md",
    "agents/skills/intake/SKILL.md",
    "agents/skills/wrap-up/SKILL.md",
    "agents/tools/lookup_order/manifest.json",
];

/// A file of an assistant's layout: its path in the project, and the
/// template it is written from (below `cli/templates/layouts/`).
macro_rules! layout {
    ($($path:literal => $template:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("../templates/layouts/", $template)))),*]
    };
}

/// The files `agentc init --layout` writes for each assistant: a skill (a
/// command where agentc reads no skills of the assistant's), a subagent, and
/// the project instructions it reads, each as the assistant reads them. One
/// skill serves Claude Code, its plugins, Copilot and Codex: all read the
/// Agent Skills format.
const CLAUDE: &[(&str, &str)] = layout![
    ".claude/skills/release-notes/SKILL.md" => "claude/.claude/skills/release-notes/SKILL.md",
    ".claude/agents/reviewer.md" => "claude/.claude/agents/reviewer.md",
    "CLAUDE.md" => "claude/CLAUDE.md",
];
const CLAUDE_PLUGIN: &[(&str, &str)] = layout![
    "skills/release-notes/SKILL.md" => "claude/.claude/skills/release-notes/SKILL.md",
    "agents/reviewer.md" => "claude/.claude/agents/reviewer.md",
];
const COPILOT: &[(&str, &str)] = layout![
    ".github/skills/release-notes/SKILL.md" => "claude/.claude/skills/release-notes/SKILL.md",
    ".github/agents/reviewer.agent.md" => "copilot/.github/agents/reviewer.agent.md",
    ".github/copilot-instructions.md" => "copilot/.github/copilot-instructions.md",
];
const CODEX: &[(&str, &str)] = layout![
    ".agents/skills/release-notes/SKILL.md" => "claude/.claude/skills/release-notes/SKILL.md",
    ".codex/agents/reviewer.toml" => "codex/.codex/agents/reviewer.toml",
    "AGENTS.md" => "codex/AGENTS.md",
];
const CURSOR: &[(&str, &str)] = layout![
    ".cursor/rules/project.mdc" => "cursor/.cursor/rules/project.mdc",
    ".cursor/agents/reviewer.md" => "cursor/.cursor/agents/reviewer.md",
];
const GEMINI: &[(&str, &str)] = layout![
    ".gemini/commands/release-notes.toml" => "gemini/.gemini/commands/release-notes.toml",
    ".gemini/agents/reviewer.md" => "gemini/.gemini/agents/reviewer.md",
    "GEMINI.md" => "gemini/GEMINI.md",
];
const OPENCODE: &[(&str, &str)] = layout![
    ".opencode/commands/release-notes.md" => "opencode/.opencode/commands/release-notes.md",
    ".opencode/agents/reviewer.md" => "opencode/.opencode/agents/reviewer.md",
    "AGENTS.md" => "opencode/AGENTS.md",
];
const KIRO: &[(&str, &str)] = layout![
    ".kiro/steering/project.md" => "kiro/.kiro/steering/project.md",
];
const CLINE: &[(&str, &str)] = layout![
    ".clinerules/project.md" => "cline/.clinerules/project.md",
];

/// What `agentc init --layout` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Layout {
    /// agentc's own project: agentc.toml, two agents, two skills with a route, a tool, the
    /// JSON Schemas (the default in a folder with no agent files)
    Agentc,
    /// Claude Code: .claude/skills/release-notes/SKILL.md, .claude/agents/reviewer.md,
    /// CLAUDE.md
    Claude,
    /// A Claude Code plugin in the folder: .claude-plugin/plugin.json (named after the folder),
    /// skills/release-notes/SKILL.md, agents/reviewer.md
    #[value(alias = "claude-plugins")]
    ClaudePlugin,
    /// GitHub Copilot (CLI, VS Code, cloud agent): .github/skills/release-notes/SKILL.md,
    /// .github/agents/reviewer.agent.md, .github/copilot-instructions.md
    Copilot,
    /// Codex: .agents/skills/release-notes/SKILL.md, .codex/agents/reviewer.toml, AGENTS.md
    Codex,
    /// Cursor: .cursor/rules/project.mdc (always applied), .cursor/agents/reviewer.md
    Cursor,
    /// Gemini CLI: .gemini/commands/release-notes.toml, .gemini/agents/reviewer.md, GEMINI.md
    Gemini,
    /// OpenCode: .opencode/commands/release-notes.md, .opencode/agents/reviewer.md, AGENTS.md
    Opencode,
    /// Kiro: .kiro/steering/project.md (always included)
    Kiro,
    /// Cline: .clinerules/project.md
    Cline,
}

impl Layout {
    /// The assistant, as messages name it.
    pub const fn host(self) -> &'static str {
        match self {
            Layout::Agentc => "agentc",
            Layout::Claude => "Claude Code",
            Layout::ClaudePlugin => "a Claude Code plugin",
            Layout::Copilot => "GitHub Copilot",
            Layout::Codex => "Codex",
            Layout::Cursor => "Cursor",
            Layout::Gemini => "Gemini CLI",
            Layout::Opencode => "OpenCode",
            Layout::Kiro => "Kiro",
            Layout::Cline => "Cline",
        }
    }

    /// The files of an assistant's layout (none for agentc's, which is
    /// [`FILES`] and more).
    fn files(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Layout::Agentc => &[],
            Layout::Claude => CLAUDE,
            Layout::ClaudePlugin => CLAUDE_PLUGIN,
            Layout::Copilot => COPILOT,
            Layout::Codex => CODEX,
            Layout::Cursor => CURSOR,
            Layout::Gemini => GEMINI,
            Layout::Opencode => OPENCODE,
            Layout::Kiro => KIRO,
            Layout::Cline => CLINE,
        }
    }
}

/// A plugin's name made of a folder's: lowercase letters, digits and single
/// `-` between them, as Claude Code asks of a plugin's `name`; `my-plugin`
/// when the folder's name has none of them.
fn plugin_name(dir: &Path) -> String {
    let absolute = std::fs::canonicalize(dir)
        .or_else(|_| std::path::absolute(dir))
        .unwrap_or_else(|_| dir.to_path_buf());
    let folder = absolute.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut name = String::new();
    for c in folder.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_end_matches('-');
    if name.is_empty() { "my-plugin".to_owned() } else { name.to_owned() }
}

/// A plugin's manifest, for a plugin named `name`.
fn plugin_manifest(name: &str) -> String {
    format!(
        "{{\n  \"name\": \"{name}\",\n  \"description\": \"A skill that drafts release notes and a \
         subagent that reviews changes.\",\n  \"version\": \"0.1.0\"\n}}\n"
    )
}

/// Where the schemas go, inside the project.
pub const SCHEMAS: &str = ".agentc/schemas";

/// Why a project could not be written.
#[derive(Debug)]
pub enum InitError {
    /// The folder already holds a project or one of the files.
    Exists(PathBuf),
    Io {
        path: PathBuf,
        error: io::Error,
    },
}

impl std::fmt::Display for InitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InitError::Exists(path) => write!(
                f,
                "`{}` already exists; agentc init writes a new project and never replaces a file",
                path.display()
            ),
            InitError::Io { path, error } => {
                write!(f, "cannot write `{}`: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for InitError {}

/// The first entry on the way to `path` inside `dir` that is there and is not
/// a folder to go on into: the file itself, a file or link where a folder
/// goes. Looked at from the top with no link followed, so a link in an
/// existing tree (`agents -> elsewhere`) is reported, never looked through.
fn present(dir: &Path, path: &str) -> Option<PathBuf> {
    let mut at = dir.to_path_buf();
    let mut parts = path.split('/').peekable();
    while let Some(part) = parts.next() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Err(_) => return None,
            Ok(meta) if meta.is_dir() && parts.peek().is_some() => {}
            Ok(_) => return Some(at),
        }
    }
    None
}

/// The lockfile's name for a new project in `dir`: `agentc.lock`, unless a
/// file agentc did not write has that name (or anything is there that is not
/// a file), then the first of `agentc.2.lock`, `agentc.3.lock`, … that is
/// free, so `agentc lock` never meets another tool's file.
fn lockfile_name(dir: &Path) -> String {
    let free = |name: &str| {
        let path = dir.join(name);
        match std::fs::symlink_metadata(&path) {
            Err(_) => true,
            Ok(meta) => {
                meta.is_file() && agentc_compiler::lock::replaceable(&path).unwrap_or(false)
            }
        }
    };
    std::iter::once("agentc.lock".to_owned())
        .chain((2..).map(|n| format!("agentc.{n}.lock")))
        .find(|name| free(name))
        .unwrap_or_default()
}

/// The build script of a Rust package whose `agents!` macro reads `root`:
/// cargo re-runs it, and so re-expands the macro, when a file below `root`
/// is added or removed — which a macro alone never sees on stable Rust.
fn build_script(root: &str) -> String {
    format!(
        "// Written by `agentc init`: cargo re-runs this script when a file below `{root}/` is\n\
         // added, removed or edited, and then compiles the crate again, so `agents!(\"{root}\")`\n\
         // sees the change (a macro alone sees only edits to files that were already there).\n\
         fn main() {{\n{}}}\n",
        tracking_lines(root)
    )
}

/// The lines of a build script that have cargo watch `root` and tell the
/// macro that it does.
fn tracking_lines(root: &str) -> String {
    format!(
        "    println!(\"cargo:rerun-if-changed={root}\");\n    \
         println!(\"cargo:rustc-env=AGENTC_TRACKED={root}\");\n"
    )
}

/// Whether `dir` is a Rust package: its `Cargo.toml` has a `[package]`.
fn is_rust_package(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .is_ok_and(|text| text.lines().any(|line| line.trim() == "[package]"))
}

/// What `init` did about the build script of a Rust package.
#[derive(Debug, PartialEq, Eq)]
pub enum Tracking {
    /// Not a Rust package, or its build script already tells the macro.
    Nothing,
    /// Wrote `build.rs`.
    Wrote,
    /// `build.rs` is there: these lines belong in its `main`.
    Add(String),
}

/// What `init` wrote.
#[derive(Debug)]
pub struct Written {
    /// In a Rust package: the build script that makes `agents!` see added
    /// and removed files.
    pub tracking: Tracking,
    pub files: Vec<PathBuf>,
    /// The lockfile `agentc.toml` names, when `agentc.lock` was taken by
    /// another tool's file.
    pub lockfile_renamed: Option<String>,
    /// The layouts that were already in the folder, with where (`.claude/`):
    /// empty when the demo project was written.
    pub found: Vec<(LayoutKind, String)>,
}

/// Writes a new project into `dir` (created if missing); returns the files
/// written. With `layout`, that layout's files (an assistant's: a skill, a
/// subagent, its instructions; agentc's: the demo below). Without it, in a
/// folder that already holds agent files (`.claude/`, `.github/agents/`,
/// plugins, agentc's own `agents/`), only an `agentc.toml` for them and the
/// schemas: no demo to read instead of them; elsewhere agentc's demo.
/// Nothing is written if any of the files exists already, and each is
/// created exclusively: a file that appears while `init` runs is never
/// replaced, and the folders on the way are entered with no link followed.
pub fn init(dir: &Path, layout: Option<Layout>) -> Result<Written, InitError> {
    init_with(dir, layout, |_| {})
}

/// The layouts already in `dir`, by where they are, as `agentc check` with no
/// argument would find them there; whether its `agents/` is agentc's own.
fn existing(dir: &Path) -> (Vec<(LayoutKind, String)>, bool) {
    let Ok(canonical) = RealFs.canonicalize(dir) else {
        return (Vec::new(), false);
    };
    let agentc = repository::default_target(&RealFs, dir).workspace.is_some();
    let layout = discover(&RealFs, &Options::new(dir.to_path_buf()), &canonical, None);
    let mut found: Vec<(LayoutKind, String)> =
        layout.found.into_iter().map(|(kind, folder)| (kind, folder.path.to_string())).collect();
    if agentc {
        found.push((LayoutKind::Agentc, "agents/".to_owned()));
    }
    (found, agentc)
}

/// The project file for the agent files already in a folder.
fn project_file(found: &[(LayoutKind, String)], agentc: bool) -> String {
    let mut text = String::from(
        "#:schema .agentc/schemas/project.schema.json\n\
         # An agentc project for the agent files already in this repository: `agentc check` and\n\
         # `agentc lock` read this file, so they need no arguments. Found by `agentc init`:\n",
    );
    for (kind, folder) in found {
        text.push_str(&format!("#   {} in {folder}\n", kind.name()));
    }
    match agentc {
        // agentc's own layout is the root; the assistants' folders beside it
        // are read from the workspace.
        true => text.push_str("root = \"agents\"\nworkspace = \".\"\n"),
        false => text.push_str("root = \".\"\n"),
    }
    text.push_str("lockfile = \"agentc.lock\"\n");
    text
}

/// `text`, a project file naming `agentc.lock`, naming `lockfile` instead.
fn with_lockfile(text: &str, lockfile: &str) -> String {
    text.replace("lockfile = \"agentc.lock\"", &format!("lockfile = \"{lockfile}\""))
}

/// [`init`], calling `before_write` with each file's path just before it is
/// written: tests create a file there, as a concurrent program could.
fn init_with(
    dir: &Path,
    layout: Option<Layout>,
    before_write: impl FnMut(&Path),
) -> Result<Written, InitError> {
    if let Some(layout) = layout.filter(|l| *l != Layout::Agentc) {
        let mut files: Vec<(&str, String)> =
            layout.files().iter().map(|&(path, text)| (path, text.to_owned())).collect();
        if layout == Layout::ClaudePlugin {
            files.insert(0, (".claude-plugin/plugin.json", plugin_manifest(&plugin_name(dir))));
        }
        let files = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let written = write_all(dir, files, before_write)?;
        return Ok(Written {
            tracking: Tracking::Nothing,
            files: written,
            lockfile_renamed: None,
            found: Vec::new(),
        });
    }
    let schemas: Vec<(String, String)> = Kind::ALL
        .iter()
        .map(|kind| (format!("{SCHEMAS}/{}", kind.file_name()), kind.schema_text()))
        .collect();
    let (found, agentc) = match layout {
        Some(_) => (Vec::new(), false),
        None => existing(dir),
    };
    let lockfile = lockfile_name(dir);
    let files: Vec<(&str, String)> = match found.is_empty() {
        true => FILES.iter().map(|&(path, text)| (path, text.to_owned())).collect(),
        false => vec![("agentc.toml", project_file(&found, agentc))],
    };
    let files = files.into_iter().map(|(path, text)| match path {
        "agentc.toml" => (path, with_lockfile(&text, &lockfile)),
        _ => (path, text),
    });
    let mut files: Vec<(&str, String)> = files.collect();
    // The agents folder a Rust package's macro reads; none when the root is
    // the package itself, as a build script watching it would see `target/`
    // change on every build.
    let tracked = (found.is_empty() || agentc).then_some("agents");
    let tracking = match tracked.filter(|_| is_rust_package(dir)) {
        None => Tracking::Nothing,
        Some(root) => match std::fs::read_to_string(dir.join("build.rs")) {
            Ok(text) if text.contains("AGENTC_TRACKED") => Tracking::Nothing,
            Ok(_) => Tracking::Add(tracking_lines(root)),
            Err(_) => {
                files.push(("build.rs", build_script(root)));
                Tracking::Wrote
            }
        },
    };
    let all: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (*p, t.as_str()))
        .chain(schemas.iter().map(|(p, t)| (p.as_str(), t.as_str())))
        .collect();
    let written = write_all(dir, all, before_write)?;
    let lockfile_renamed = (lockfile != "agentc.lock").then_some(lockfile);
    Ok(Written { tracking, files: written, lockfile_renamed, found })
}

/// Writes each of `all` (path in `dir`, text), or nothing when one of them
/// is there already; `before_write` is called with each path just before it
/// is written.
fn write_all(
    dir: &Path,
    all: Vec<(&str, &str)>,
    mut before_write: impl FnMut(&Path),
) -> Result<Vec<PathBuf>, InitError> {
    for (path, _) in &all {
        if let Some(at) = present(dir, path) {
            return Err(InitError::Exists(at));
        }
    }
    let io_error = |path: &Path| {
        let path = path.to_path_buf();
        move |error| InitError::Io { path, error }
    };
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let top = std::fs::canonicalize(dir).and_then(|top| Dir::open(&top)).map_err(io_error(dir))?;
    let mut written = Vec::new();
    for (path, text) in all {
        let target = dir.join(path);
        let (folders, name) = path.rsplit_once('/').unwrap_or(("", path));
        let mut folder = None;
        for part in folders.split('/').filter(|part| !part.is_empty()) {
            let at: &Dir = folder.as_ref().unwrap_or(&top);
            folder = Some(at.create_dir(part.as_ref()).map_err(io_error(&target))?);
        }
        let folder = folder.as_ref().unwrap_or(&top);
        before_write(&target);
        let wrote = write_in(
            folder,
            name.as_ref(),
            Replace::Never,
            |out| out.write_all(text.as_bytes()),
            |_, _| Ok(()),
        );
        match wrote {
            Ok(()) => written.push(target),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {
                return Err(InitError::Exists(target));
            }
            Err(error) => return Err(InitError::Io { path: target, error }),
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plugin_is_named_after_its_folder_in_kebab_case() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(plugin_name(&dir.path().join("My Team's  Tools!")), "my-team-s-tools");
        assert_eq!(plugin_name(&dir.path().join("release_kit2")), "release-kit2");
        assert_eq!(plugin_name(&dir.path().join("---")), "my-plugin");
        assert_eq!(plugin_name(Path::new("/")), "my-plugin");
    }

    /// A file that appears after the check that nothing exists, just before
    /// `init` would write it, is kept, and `init` stops there.
    #[test]
    fn a_file_created_while_init_runs_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let raced = dir.path().join("agents/skills/intake/SKILL.md");
        let result = init_with(dir.path(), None, |next| {
            if next == raced {
                std::fs::write(next, "mine").unwrap();
            }
        });
        assert!(matches!(&result, Err(InitError::Exists(path)) if *path == raced), "{result:?}");
        assert_eq!(std::fs::read_to_string(&raced).unwrap(), "mine");
        let temporaries: Vec<_> = std::fs::read_dir(raced.parent().unwrap())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(".agentc-"))
            .collect();
        assert!(temporaries.is_empty(), "{temporaries:?}");
    }
}
