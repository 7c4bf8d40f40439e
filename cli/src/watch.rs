//! `agentc check --watch`: what a compile reads, watched for changes with the
//! system's own notifications (inotify, FSEvents, ReadDirectoryChangesW,
//! through `notify`) rather than by polling.
//!
//! Watched: the root, recursively; the workspace's `AGENTS.md` and
//! `.agents/`; the registry and the project file. Changes elsewhere in the
//! folders holding them (a `target/` beside `agentc.toml`) are ignored. No
//! symbolic link is followed ([`agentc_compiler::fs::watcher`]): a link out of the
//! project is never walked or watched.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use agentc_compiler::fs::{Bounds, EntryKind, RealFs, Resolved};
use agentc_compiler::options::Options;

/// How long after a change further changes are waited for, so one save
/// (often several events) or a `git checkout` is one re-check.
const SETTLE: Duration = Duration::from_millis(150);

pub struct Watch {
    /// Kept alive: dropping it stops the notifications.
    _watcher: RecommendedWatcher,
    events: Receiver<notify::Result<Event>>,
    /// Paths under which a change counts.
    trees: Vec<PathBuf>,
    /// Single files whose change counts.
    files: Vec<PathBuf>,
}

fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| {
        std::env::current_dir().map(|cwd| cwd.join(path)).unwrap_or_else(|_| path.to_path_buf())
    })
}

/// Whether `path`, inside a watched folder, is one no compile reads: what
/// git keeps under `.git/` (its `index.lock` comes and goes with every
/// `git status`), and the files editors write beside the one being saved —
/// Vim's swap files (`.x.swp`, `.swo`, …) and its write test `4913`, backups
/// (`x~`), Emacs's lock links (`.#x`) and `*.tmp`. Each comes and goes around
/// a save that is itself seen, or changes nothing agentc reads.
fn cannot_be_read(path: &Path) -> bool {
    if path.components().any(|c| c.as_os_str() == ".git") {
        return true;
    }
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
        return false;
    };
    let vim_swap = name.starts_with('.')
        && name.rsplit_once('.').is_some_and(|(_, ext)| {
            ext.len() == 3 && ext.starts_with("sw") && ext.as_bytes()[2].is_ascii_lowercase()
        });
    vim_swap
        || name == "4913"
        || name.ends_with('~')
        || name.starts_with(".#")
        || name.ends_with(".tmp")
}

impl Watch {
    /// Watches what compiling `opts` reads, and the project file.
    pub fn new(opts: &Options, project_file: Option<&Path>) -> notify::Result<Watch> {
        let (tx, events) = channel();
        let mut watcher = agentc_compiler::fs::watcher(move |event| {
            let _ = tx.send(event);
        })?;
        let root = absolute(&opts.root);
        watcher.watch(&root, RecursiveMode::Recursive)?;
        let mut trees = vec![root.clone()];
        let mut files = Vec::new();
        if let Some(workspace) = &opts.workspace {
            let workspace = absolute(workspace);
            let mut agents = workspace.join(".agents");
            // The folder a link there leads to, if it stays in the project.
            let bounds = Bounds::new([root.clone(), workspace.clone()]);
            if let Ok(Resolved::Found(found, EntryKind::Dir)) = bounds.resolve(&RealFs, &agents) {
                watcher.watch(&found, RecursiveMode::Recursive)?;
                agents = found;
            }
            watcher.watch(&workspace, RecursiveMode::NonRecursive)?;
            // `.agents/` created later is seen through its parent.
            trees.push(agents);
            files.push(workspace.join("AGENTS.md"));
        }
        // Editors save by writing a new file and renaming it over the old
        // one, which a watch on the file itself would lose: watch its folder.
        for file in opts.registry.iter().map(PathBuf::as_path).chain(project_file) {
            let file = absolute(file);
            if let Some(parent) = file.parent() {
                watcher.watch(parent, RecursiveMode::NonRecursive)?;
            }
            files.push(file);
        }
        Ok(Watch { _watcher: watcher, events, trees, files })
    }

    fn counts(&self, event: &Event) -> bool {
        let change = matches!(
            event.kind,
            EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_) | EventKind::Any
        );
        change
            && event.paths.iter().any(|path| {
                self.files.iter().any(|f| f == path)
                    || self
                        .trees
                        .iter()
                        .any(|t| path.strip_prefix(t).is_ok_and(|inside| !cannot_be_read(inside)))
            })
    }

    /// Blocks until something a compile reads changes, then lets further
    /// changes settle; returns a path that changed, or none when watching
    /// failed.
    pub fn next_change(&self) -> Result<PathBuf, String> {
        let changed = loop {
            match self.events.recv() {
                Ok(Ok(event)) if self.counts(&event) => break event.paths[0].clone(),
                Ok(Ok(_)) => {}
                Ok(Err(err)) => return Err(err.to_string()),
                Err(_) => return Err("the watcher stopped".to_owned()),
            }
        };
        while self.events.recv_timeout(SETTLE).is_ok() {}
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_git_and_editors_write_beside_a_save_is_not_read() {
        for path in [
            ".git/index.lock",
            ".git/objects/ab/cdef",
            "skills/a/.SKILL.md.swp",
            "skills/a/.SKILL.md.swx",
            "skills/a/4913",
            "skills/a/SKILL.md~",
            "skills/a/.#SKILL.md",
            "skills/a/SKILL.md.tmp",
        ] {
            assert!(cannot_be_read(Path::new(path)), "{path}");
        }
        for path in [
            "skills/a/SKILL.md",
            "skills/a",
            "AGENTS.md",
            ".agents/skills/b/SKILL.md",
            "tools/swap/manifest.json",
            ".github/agents/x.agent.md",
        ] {
            assert!(!cannot_be_read(Path::new(path)), "{path}");
        }
    }
}
