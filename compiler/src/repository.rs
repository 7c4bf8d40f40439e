//! The repository: its top, found by walking up from where agentc runs as git
//! and Cargo do, and what agentc compiles there when it is given no folder
//! and finds no `agentc.toml`.
//!
//! A repository that uses coding assistants keeps their files at its top
//! (`.claude/`, `.github/`, `.agents/`, plugins), so that is what agentc
//! reads: every layout in it, from wherever in the repository it was run.

use std::path::{Component, Path, PathBuf};

use crate::fs::{Bounds, EntryKind, Fs, Resolved};
use agentc_schema::PROJECT_FILE;

/// What marks a folder as a repository's top: version control, agentc's
/// project file, or a folder (or Cline's `.clinerules` file) an assistant
/// reads there, or a Gemini CLI extension's manifest, which marks the top of
/// the extension's folder as `.claude-plugin` marks a plugin's.
pub const MARKERS: [&str; 13] = [
    ".git",
    PROJECT_FILE,
    ".claude",
    ".github",
    ".agents",
    ".claude-plugin",
    ".codex",
    ".cursor",
    ".clinerules",
    ".opencode",
    ".gemini",
    ".kiro",
    "gemini-extension.json",
];

/// The markers that count in the home folder, where `~/.claude/` and
/// `~/.agents/` are the user's own settings, not a project.
const HOME_MARKERS: [&str; 2] = [".git", PROJECT_FILE];

/// Whether `name`, an entry of a folder, makes that folder a repository's top.
pub fn is_marker(name: &str) -> bool {
    MARKERS.contains(&name)
}

/// What to compile with no folder given and no project file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefaultTarget {
    /// The root, relative to the folder agentc ran in (`.`, `../..`,
    /// `agents`): diagnostics show paths as the user would type them.
    pub root: PathBuf,
    /// The repository's top when the root is agentc's `agents/` folder in
    /// it: the assistants' folders there are read too.
    pub workspace: Option<PathBuf>,
    /// The repository's top, canonical; `start` itself (canonical) outside
    /// any repository.
    pub top: PathBuf,
}

/// The nearest folder at or above `start` (canonical) holding a marker.
pub fn top(fs: &dyn Fs, start: &Path) -> Option<PathBuf> {
    let home = std::env::var_os("HOME").and_then(|h| fs.canonicalize(Path::new(&h)).ok());
    start
        .ancestors()
        .find(|dir| {
            let markers: &[&str] =
                if home.as_deref() == Some(*dir) { &HOME_MARKERS } else { &MARKERS };
            holds_any(fs, dir, markers)
        })
        .map(Path::to_path_buf)
}

/// The root (and workspace) for a run in `start`: the repository's top, or
/// `agents/` there when that folder holds agentc's own layout (then with
/// the top as its workspace); `start` itself outside any repository.
pub fn default_target(fs: &dyn Fs, start: &Path) -> DefaultTarget {
    let canonical = fs.canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let top = top(fs, &canonical).unwrap_or_else(|| canonical.clone());
    let depth = canonical.components().count().saturating_sub(top.components().count());
    let up: PathBuf = std::iter::repeat_n(Component::ParentDir, depth).collect();
    let at = |name: &str| match depth {
        0 => PathBuf::from(name),
        _ => up.join(name),
    };
    if holds_agentc_layout(fs, &top) {
        let workspace = if depth == 0 { PathBuf::from(".") } else { up.clone() };
        return DefaultTarget { root: at("agents"), workspace: Some(workspace), top };
    }
    let root = if depth == 0 { PathBuf::from(".") } else { up };
    DefaultTarget { root, workspace: None, top }
}

/// Whether `top/agents` is a folder inside `top` holding agentc's own layout
/// (`SYSTEM.md`, `skills/`, `tools/`, or an agent folder): a plugin's
/// `agents/` of subagents or a Python package named `agents` is not.
fn holds_agentc_layout(fs: &dyn Fs, top: &Path) -> bool {
    let Ok(Resolved::Found(agents, EntryKind::Dir)) =
        Bounds::new([top.to_path_buf()]).resolve(fs, &top.join("agents"))
    else {
        return false;
    };
    let Ok(entries) = fs.read_dir(&agents) else {
        return false;
    };
    entries.iter().any(|(name, kind)| match (kind, name.to_str()) {
        (EntryKind::File, Some("SYSTEM.md")) | (EntryKind::Dir, Some("skills" | "tools")) => true,
        (EntryKind::Dir, Some(_)) => ["AGENT.md", "agent.json"]
            .iter()
            .any(|file| matches!(fs.kind(&agents.join(name).join(file)), Ok(EntryKind::File))),
        _ => false,
    })
}

/// Whether the lockfile goes beside `root`: not when the root is a
/// repository's top (its parent is outside the repository), nor when it is
/// the folder agentc runs in or one above it (`.`, `..`).
pub fn lockfile_beside(fs: &dyn Fs, root: &Path) -> bool {
    root.file_name().is_some() && !holds_any(fs, root, &MARKERS)
}

/// Whether `dir` holds an entry of one of `names` (followed by no link).
fn holds_any(fs: &dyn Fs, dir: &Path, names: &[&str]) -> bool {
    names.iter().any(|name| fs.kind(&dir.join(name)).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memfs::MemFs;

    fn fs(files: &[&str]) -> MemFs {
        let mut fs = MemFs::new();
        for file in files {
            fs.insert(file, &b""[..]).unwrap();
        }
        fs
    }

    #[test]
    fn a_run_below_the_top_compiles_the_top() {
        let fs = fs(&["repo/.git/HEAD", "repo/src/deep/main.rs", "repo/.claude/agents/a.md"]);
        let start = fs.root().join("repo/src/deep");
        let target = default_target(&fs, &start);
        let top = fs.root().join("repo");
        assert_eq!(target, DefaultTarget { root: PathBuf::from("../.."), workspace: None, top });
    }

    #[test]
    fn a_plugins_agents_folder_is_not_the_root() {
        let fs = fs(&["p/.claude-plugin/plugin.json", "p/agents/review.md", "p/skills/x/SKILL.md"]);
        let target = default_target(&fs, &fs.root().join("p"));
        assert_eq!(target.root, PathBuf::from("."));
        let fs = fs_with_python();
        assert_eq!(default_target(&fs, &fs.root().join("r")).root, PathBuf::from("."));
    }

    fn fs_with_python() -> MemFs {
        fs(&["r/.git/HEAD", "r/agents/__init__.py", "r/.claude/skills/x/SKILL.md"])
    }

    #[test]
    fn agentcs_own_agents_folder_is_the_root_with_the_top_as_workspace() {
        let fs = fs(&["r/.git/HEAD", "r/agents/billing/AGENT.md", "r/.claude/agents/a.md"]);
        let target = default_target(&fs, &fs.root().join("r/agents/billing"));
        let expected = DefaultTarget {
            root: PathBuf::from("../../agents"),
            workspace: Some(PathBuf::from("../..")),
            top: fs.root().join("r"),
        };
        assert_eq!(target, expected);
    }

    #[test]
    fn the_lockfile_is_beside_a_root_below_the_top_and_inside_the_top() {
        let fs = fs(&["r/.git/HEAD", "r/agents/SYSTEM.md", "loose/SYSTEM.md"]);
        assert!(lockfile_beside(&fs, &fs.root().join("r/agents")));
        assert!(lockfile_beside(&fs, &fs.root().join("loose")));
        assert!(!lockfile_beside(&fs, &fs.root().join("r")));
        assert!(!lockfile_beside(&fs, Path::new(".")));
        assert!(!lockfile_beside(&fs, Path::new("../..")));
    }
}
