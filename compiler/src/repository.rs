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
pub const MARKERS: [&str; 14] = [
    ".git",
    PROJECT_FILE,
    ".claude",
    ".github",
    ".agents",
    ".claude-plugin",
    ".codex-plugin",
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

/// A folder or file given to `check` inside a repository, seen as the
/// repository's top sees it: the hosts read `.claude/skills/deploy` as part of
/// `.claude/`, and a plugin's skill as part of its plugin, so a check of the
/// part alone would apply other rules than a check from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Within {
    /// The repository's top, as the user would type it (`.`, `../..`,
    /// `repo`); canonical when the path given cannot be shortened to it.
    pub top: PathBuf,
    /// The path given, relative to the top, `/`-separated: only what is at
    /// or under it is reported.
    pub only: String,
}

/// The folders at a repository's top that hosts read as a whole.
const HOST_FOLDERS: [&str; 10] = [
    ".claude",
    ".github",
    ".agents",
    ".codex",
    ".cursor",
    ".clinerules",
    ".opencode",
    ".gemini",
    ".kiro",
    ".vscode",
];

/// Where `given` stands in its repository, when it is a file (read at its
/// place in the repository, or in its own folder outside any), or a folder
/// inside a host's folder (`.claude/skills/deploy`), inside a plugin, or in a
/// top-level `skills/` collection. `None` for anything else, which is
/// compiled as the folder it is: a repository's top, agentc's own agents
/// folder, and every folder under a top that holds `agentc.toml`, whose
/// project decides what is read (check from the top there).
pub fn within(fs: &dyn Fs, given: &Path) -> Option<Within> {
    // The folder resolved and the name kept: a link is seen where it is,
    // by its own name, as discovery sees it, not where it leads.
    let canonical = match (given.parent(), given.file_name()) {
        (Some(parent), Some(name)) => {
            let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
            fs.canonicalize(parent).ok()?.join(name)
        }
        _ => fs.canonicalize(given).ok()?,
    };
    let is_file = fs.kind_followed(given).ok()? == EntryKind::File;
    let top = match is_file {
        true => {
            let folder = canonical.parent()?;
            top(fs, folder).unwrap_or_else(|| folder.to_path_buf())
        }
        false if holds_any(fs, &canonical, &MARKERS) => return None,
        false => top(fs, canonical.parent()?)?,
    };
    if holds_any(fs, &top, &[PROJECT_FILE]) {
        return None;
    }
    let inside = canonical.strip_prefix(&top).ok()?;
    let depth = inside.components().count();
    // The names as the user typed them, where they are there to take: a
    // link keeps its own name, as discovery shows it.
    let typed: Vec<&std::ffi::OsStr> = given
        .components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect();
    let typed_tail =
        given.components().rev().take(depth).all(|c| matches!(c, Component::Normal(_)));
    let names: Vec<String> = match typed_tail && typed.len() >= depth {
        true => {
            typed[typed.len() - depth..].iter().map(|n| n.to_string_lossy().into_owned()).collect()
        }
        false => {
            inside.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect()
        }
    };
    if !is_file && !hosted(fs, &top, &canonical, &names) {
        return None;
    }
    let mut shown = given.to_path_buf();
    for _ in 0..depth {
        shown.pop();
    }
    let shown = match typed_tail && fs.canonicalize(&shown).ok().as_deref() == Some(top.as_path()) {
        true if shown.as_os_str().is_empty() => PathBuf::from("."),
        true => shown,
        // A relative path given from below the top (`agentc check
        // SKILL.md` in a skill's folder): the top as `../..`.
        false => match given.is_relative().then(|| fs.canonicalize(Path::new("."))) {
            Some(Ok(cwd)) if cwd.starts_with(&top) => {
                let up = cwd.components().count() - top.components().count();
                match up {
                    0 => PathBuf::from("."),
                    _ => std::iter::repeat_n(Component::ParentDir, up).collect(),
                }
            }
            _ => top.clone(),
        },
    };
    Some(Within { top: shown, only: names.join("/") })
}

/// Whether the folder `canonical` (`names` from `top`) is one a host reads
/// as part of something larger: in a host's folder, in a plugin or Gemini
/// CLI extension, in the top's collection of skills, or anywhere in a
/// marketplace's repository (its plugins need no manifest of their own).
fn hosted(fs: &dyn Fs, top: &Path, canonical: &Path, names: &[String]) -> bool {
    let first = names.first().map(String::as_str).unwrap_or_default();
    if HOST_FOLDERS.contains(&first)
        || first == "skills"
        || holds_any(fs, top, &[".claude-plugin/marketplace.json"])
    {
        return true;
    }
    canonical
        .ancestors()
        .take_while(|dir| *dir != top)
        .any(|dir| holds_any(fs, dir, &[".claude-plugin", "gemini-extension.json"]))
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

    #[test]
    fn a_part_of_a_hosts_folder_is_seen_from_the_top() {
        let fs = fs(&["repo/.git/HEAD", "repo/.claude/skills/deploy/SKILL.md", "repo/README.md"]);
        let top = fs.root().join("repo");
        let folder = fs.root().join("repo/.claude/skills/deploy");
        let expected = Within { top: top.clone(), only: ".claude/skills/deploy".into() };
        assert_eq!(within(&fs, &folder), Some(expected));
        let file = folder.join("SKILL.md");
        let expected = Within { top: top.clone(), only: ".claude/skills/deploy/SKILL.md".into() };
        assert_eq!(within(&fs, &file), Some(expected));
        let readme = Within { top: top.clone(), only: "README.md".into() };
        assert_eq!(within(&fs, &top.join("README.md")), Some(readme));
        // The top itself is compiled as it is.
        assert_eq!(within(&fs, &top), None);
    }

    #[test]
    fn a_part_of_a_plugin_or_of_the_skills_collection_is_seen_from_the_top() {
        let fs = fs(&[
            "r/.git/HEAD",
            "r/plugins/p/.claude-plugin/plugin.json",
            "r/plugins/p/skills/x/SKILL.md",
            "r/skills/pdf/SKILL.md",
        ]);
        let only = |path: &str| within(&fs, &fs.root().join(path)).map(|w| w.only);
        // The plugin is the nearest top, as it is when agentc runs in it.
        assert_eq!(only("r/plugins/p/skills"), Some("skills".into()));
        assert_eq!(only("r/skills/pdf"), Some("skills/pdf".into()));
        // The plugin's own folder is a top of its own.
        assert_eq!(only("r/plugins/p"), None);
        // A marketplace's plugin needs no manifest.
        let market =
            self::fs(&["m/.claude-plugin/marketplace.json", "m/plugins/q/skills/y/SKILL.md"]);
        let only = |path: &str| within(&market, &market.root().join(path)).map(|w| w.only);
        assert_eq!(only("m/plugins/q"), Some("plugins/q".into()));
    }

    #[test]
    fn agentcs_own_folders_are_compiled_as_they_are() {
        let fs = fs(&["r/.git/HEAD", "r/agents/billing/AGENT.md", "r/src/lib.rs"]);
        assert_eq!(within(&fs, &fs.root().join("r/agents")), None);
        assert_eq!(within(&fs, &fs.root().join("r/agents/billing")), None);
        // Where the top holds `agentc.toml`, its project decides what is read.
        let project = self::fs(&["r/agentc.toml", "r/.claude/skills/x/SKILL.md"]);
        assert_eq!(within(&project, &project.root().join("r/.claude/skills/x")), None);
        assert_eq!(within(&project, &project.root().join("r/.claude/skills/x/SKILL.md")), None);
    }
}
