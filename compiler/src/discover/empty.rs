//! A root that defines nothing: the one error that replaces the walk's
//! warnings and points at a folder below that holds a layout. It runs after
//! the walk, on what the walk found, so it is kept out of the walk itself.

use std::path::Path;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Origin, RelPath};
use crate::fs::EntryKind;
use crate::suggest::list_names;

use super::agentc::is_agent_file;
use super::{Entry, Walk};

impl Walk<'_> {
    /// A root that defines nothing is a mistake (the wrong folder, most
    /// often): one error that says what was expected and names a folder below
    /// that holds a layout, instead of a warning for each thing that is there.
    pub(super) fn refuse_empty_root(&mut self, root: &Path) {
        // A layout agentc recognised (`.claude/`) whose entries were all left
        // out, too deep for instance: its warnings say why nothing was read,
        // and stay. Strays elsewhere are what any wrong folder holds.
        let layouts: Vec<RelPath> = (self.layout.found.iter())
            .filter(|(_, folder)| folder.origin == Origin::Root)
            .map(|(_, folder)| folder.clone())
            .collect();
        self.layout.diagnostics.retain(|d| {
            let file = &d.location.file;
            d.code != Code::StrayEntry
                || (file.origin == Origin::Root
                    && layouts.iter().any(|l| file.path.starts_with(&*l.path)))
        });
        let rel = RelPath::root("");
        let entries = self.list_quietly(root, &rel);
        let held: Vec<String> = entries
            .iter()
            .filter(|e| !e.name.starts_with('.'))
            .map(|e| if e.kind == EntryKind::Dir { format!("{}/", e.name) } else { e.name.clone() })
            .collect();
        let candidates: Vec<String> = entries
            .into_iter()
            .filter(|e| e.kind == EntryKind::Dir && !e.name.starts_with('.'))
            .filter(|e| self.holds_a_layout(e))
            .map(|e| e.name)
            .collect();
        let shown = self.opts.root.display().to_string();
        let mut help = "agentc reads agents (`<agent>/AGENT.md`, `<agent>/agent.json`), skills \
                        (`skills/<skill>/SKILL.md`, `.agents/skills/`, `.github/skills/`), \
                        `.claude/`, `.github/agents/` and Claude Code plugins"
            .to_owned();
        if let Some(first) = candidates.first() {
            let path = self.opts.root.join(first);
            help = format!("did you mean `agentc check {}`? {help}", path.display());
        }
        let message = if layouts.is_empty() {
            let holds = match held.is_empty() {
                true => "it is empty".to_owned(),
                false => format!("it holds {}", list_names(held.iter().map(String::as_str))),
            };
            format!("`{shown}` holds no agent, skill or layout agentc knows ({holds})")
        } else {
            let others: Vec<&str> = (held.iter().map(String::as_str))
                .filter(|h| !layouts.iter().any(|l| l.path.starts_with(h)))
                .collect();
            let also = match others.is_empty() {
                true => String::new(),
                false => format!("; it also holds {}", list_names(others)),
            };
            format!(
                "`{shown}` defines no agent or skill: nothing agentc reads is in {}{also}",
                list_names(layouts.iter().map(|l| &*l.path))
            )
        };
        self.report(
            Diagnostic::on_path(Code::EmptyRoot, &RelPath::root(""), message).with_help(help),
        );
    }

    /// Whether a folder holds something agentc would compile, one level down.
    fn holds_a_layout(&mut self, dir: &Entry) -> bool {
        let inside = self.list_quietly(&dir.path, &dir.rel);
        inside.iter().any(|e| {
            e.is_file("agentc.toml")
                || e.is_file("SKILL.md")
                || is_agent_file(&e.name)
                || (e.kind == EntryKind::Dir
                    && matches!(e.name.as_str(), ".claude" | ".github" | ".agents" | "skills"))
        }) || inside.iter().filter(|e| e.kind == EntryKind::Dir).any(|e| {
            ["AGENT.md", "agent.json", "SKILL.md"]
                .iter()
                .any(|name| self.fs.kind(&e.path.join(name)).is_ok())
        })
    }
}
