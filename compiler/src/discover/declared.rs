//! The files hosts read at fixed places (`hosts::Declared`: Claude Code's
//! settings and `.mcp.json`, a plugin's `hooks/hooks.json`, VS Code's
//! `.vscode/mcp.json`), and the components a plugin's manifest names by
//! path. Each is looked up one name at a time through the contained seam, so
//! nothing else is listed and nothing outside the project is looked at.

use std::ffi::{OsStr, OsString};
use std::path::Path;

use agentc_schema::Dialect;

use crate::diagnostic::RelPath;
use crate::fs::{EntryKind, Fs};
use crate::hosts::{Declared, codex, cursor};
use crate::options::{LayoutKind, Options};

use super::{
    AssistantFile, Component, ConfigFile, Entry, Layout, Owner, PluginDir, SkillFile, Walk,
};

/// How many folders below a declared `**/` are read.
const MAX_DEPTH: usize = 8;
/// How many folders one declared walk lists at most: a repository of
/// generated folders costs a bounded walk.
pub(super) const MAX_FOLDERS: usize = 20_000;

/// Whether `name` matches `pattern`, a name with at most one `*`.
fn glob_name(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        Some((head, tail)) => {
            name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
        }
        None => name == pattern,
    }
}

/// The components a plugin's manifest names by path besides its default
/// folders (`"agents": ["./agents/reviewer.md", "./extra/auditor.md"]`):
/// each walked like the default folder of its kind, inside the bounds. A
/// path that is not there is reported by `check::config`, so it is left out
/// here quietly; one that climbs with `..` is never followed.
pub fn plugin_components(
    fs: &dyn Fs,
    opts: &Options,
    (root_canon, workspace_canon): (&Path, Option<&Path>),
    plugin: &PluginDir,
    named: &[(Component, String)],
) -> Layout {
    let mut walk = Walk::new(fs, opts, (root_canon, workspace_canon), true);
    // A path listed again (or another spelling of it, or a link to it) is
    // the same components: walked and kept once, however often it is listed.
    let mut walked = std::collections::HashSet::new();
    for (component, path) in named {
        if let Some(entry) = walk.find(&plugin.path, &plugin.folder, path)
            && walked.insert((*component, entry.path.clone()))
        {
            walk.component(plugin, *component, &entry);
        }
    }
    walk.layout
}

/// A plugin a marketplace lists by a local folder that discovery did not
/// find (deeper than it looks, or not in a folder of plugins): the
/// folder `path` (relative to `base`, the marketplace's folder, `rel` as
/// users see that) read as a plugin, as Claude Code reads it, when it is
/// inside the project. `None` when it is not there (reported by
/// `check::config`).
pub fn listed_plugin(
    fs: &dyn Fs,
    opts: &Options,
    (root_canon, workspace_canon): (&Path, Option<&Path>),
    (base, rel): (&Path, &RelPath),
    path: &str,
) -> Option<Layout> {
    let mut walk = Walk::new(fs, opts, (root_canon, workspace_canon), true);
    let entry = walk.find(base, rel, path)?;
    if entry.kind != EntryKind::Dir {
        return None;
    }
    let entries = walk.list(&entry.path, &entry.rel);
    // Claude Code reads a listed plugin's manifest wherever the folder is.
    let manifest = walk.plugin_manifest(&entries);
    walk.plugin(entry.name.clone(), (&entry.path, &entry.rel), manifest, &entries);
    Some(walk.layout)
}

impl Walk<'_> {
    /// The entry at `path` (`./a/b`, `/`-separated) under the folder `dir`
    /// (`rel` as users see it), each step classified and checked; `None`
    /// when any step is missing, not a folder, or `..`.
    pub(super) fn find(&mut self, dir: &Path, rel: &RelPath, path: &str) -> Option<Entry> {
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
        if parts.is_empty() || parts.contains(&"..") {
            return None;
        }
        let (mut dir, mut rel) = (dir.to_path_buf(), rel.clone());
        for (i, name) in parts.iter().enumerate() {
            self.fs.kind(&dir.join(name)).ok()?;
            let entry = self.classify(&dir, &rel, OsStr::new(name), None)?;
            if i + 1 == parts.len() {
                return Some(entry);
            }
            if entry.kind != EntryKind::Dir {
                return None;
            }
            (dir, rel) = (entry.path, entry.rel);
        }
        None
    }

    /// One component path of a plugin: a folder read like the default
    /// folder of its kind, or one Markdown file.
    fn component(&mut self, plugin: &PluginDir, component: Component, entry: &Entry) {
        let owner = Owner::Plugin(plugin.name.clone());
        let dialect = match component {
            Component::Agents => Dialect::ClaudeSubagent,
            Component::Commands => Dialect::ClaudeCommand,
            Component::Skills => Dialect::ClaudeSkill,
        };
        match (component, entry.kind) {
            (Component::Skills, EntryKind::Dir) => {
                let inside = self.list(&entry.path, &entry.rel);
                // A skill folder itself (`"./"` or `"./my-skill"`), or a
                // folder of skill folders.
                match inside.iter().find(|c| c.is_file("SKILL.md")) {
                    Some(skill) => self.layout.skills.push(SkillFile {
                        file: skill.file_ref(),
                        folder: entry.name.clone(),
                        owner,
                        dialect,
                    }),
                    None => self.skills_dir(inside, owner, dialect),
                }
            }
            (_, EntryKind::Dir) => self.markdown_tree(entry, dialect, Some(&plugin.name)),
            (Component::Agents | Component::Commands, EntryKind::File) => {
                if let Some(stem) = entry.name.strip_suffix(".md").filter(|s| !s.is_empty()) {
                    self.layout.assistants.push(AssistantFile {
                        file: entry.file_ref(),
                        stem: stem.to_owned(),
                        dialect,
                        plugin: Some(plugin.name.clone()),
                        folders: Vec::new(),
                    });
                }
            }
            _ => {}
        }
    }

    /// The files hosts read at fixed places under `top` (`rel` as users see
    /// it), for a plugin when `plugin` is its folder. A declared path is
    /// literal names, then at most a last name with one `*`
    /// (`.github/prompts/*.prompt.md`) or `**/` before it for every folder
    /// below, down to [`MAX_DEPTH`]. Every `**/<name>` from `top` itself
    /// (the memory files) shares one walk of the repository.
    pub(super) fn declared<'d>(
        &mut self,
        top: &Path,
        rel: &RelPath,
        files: impl Iterator<Item = &'d Declared>,
        plugin: Option<RelPath>,
    ) {
        let mut everywhere: Vec<&Declared> = Vec::new();
        let mut found: Vec<(Entry, Dialect)> = Vec::new();
        for declared in files {
            let (folder, pattern) = match declared.path.rsplit_once('/') {
                Some((folder, name)) => (folder, name),
                None => ("", declared.path),
            };
            let (folder, deep) = match folder.strip_suffix("/**").or((folder == "**").then_some(""))
            {
                Some(folder) => (folder, true),
                None => (folder, false),
            };
            let patterns = [pattern];
            let entries = match (pattern.contains('*'), folder.is_empty()) {
                (false, _) if !deep => self.find(top, rel, declared.path).into_iter().collect(),
                (_, true) if deep => {
                    everywhere.push(declared);
                    Vec::new()
                }
                (_, true) => {
                    self.matching(top, rel, (&patterns, &[]), deep, (0, &mut { MAX_FOLDERS }))
                }
                (_, false) => match self.find(top, rel, folder) {
                    Some(dir) if dir.kind == EntryKind::Dir => self.matching(
                        &dir.path,
                        &dir.rel,
                        (&patterns, &[]),
                        deep,
                        (0, &mut { MAX_FOLDERS }),
                    ),
                    _ => Vec::new(),
                },
            };
            found.extend(entries.into_iter().map(|e| (e, declared.dialect)));
        }
        // Codex reads `.agents/skills` in every folder from the repository's
        // top down to the one it works in, and Cursor the `.cursor/rules` of
        // every folder (and the Cursor CLI each `.cursor/cli.json` down to
        // the folder it works in): any folder may hold one.
        let mut nested: Vec<&str> = Vec::new();
        if plugin.is_none() && self.reads(LayoutKind::AgentSkills) {
            nested.push(".agents");
        }
        if plugin.is_none() && self.reads(LayoutKind::Cursor) {
            nested.push(".cursor");
        }
        let nested = nested.as_slice();
        if !everywhere.is_empty() || !nested.is_empty() {
            let patterns: Vec<&str> =
                everywhere.iter().map(|d| d.path.rsplit('/').next().unwrap_or(d.path)).collect();
            // The repository's folders are no host's layout: what is odd in
            // them (a link out, a special file) is left unsaid, as at its top.
            let was = std::mem::replace(&mut self.quiet, true);
            let entries =
                self.matching(top, rel, (&patterns, nested), true, (0, &mut { MAX_FOLDERS }));
            self.quiet = was;
            for entry in entries {
                if entry.kind == EntryKind::Dir {
                    match entry.name.as_str() {
                        ".cursor" => found.extend(self.nested_cursor(&entry)),
                        _ => self.nested_codex(&entry),
                    }
                    continue;
                }
                let dialect = everywhere
                    .iter()
                    .zip(&patterns)
                    .find(|(_, pattern)| glob_name(pattern, &entry.name))
                    .map(|(d, _)| d.dialect);
                found.extend(dialect.map(|dialect| (entry, dialect)));
            }
        }
        for (entry, dialect) in found {
            // One file linked under two names (`CLAUDE.md` → `AGENTS.md`) is
            // read once per dialect: each host reads it its own way.
            if entry.kind != EntryKind::File
                || self
                    .layout
                    .configs
                    .iter()
                    .any(|c| c.file.path == entry.path && c.dialect == dialect)
            {
                continue;
            }
            self.layout.configs.push(ConfigFile {
                file: entry.file_ref(),
                dialect,
                plugin: plugin.clone(),
            });
        }
    }

    /// The files of `dir` whose names match one of `patterns` (one `*` at
    /// most each), and with `deep` those of every folder below but hidden
    /// ones and `node_modules`, in name order; and below `dir`, the folders
    /// named one of `folders` (hidden ones, not walked into).
    pub(super) fn matching(
        &mut self,
        dir: &Path,
        rel: &RelPath,
        (patterns, folders): (&[&str], &[&str]),
        deep: bool,
        (depth, budget): (usize, &mut usize),
    ) -> Vec<Entry> {
        let mut found = Vec::new();
        if *budget == 0 {
            return found;
        }
        *budget -= 1;
        // A file no pattern names is passed by before it is classified: a
        // repository's every file is listed, and few are wanted. (A file
        // named in UTF-8 classifies quietly: nothing is lost.)
        let wanted = |(name, kind): &&(OsString, EntryKind)| {
            *kind != EntryKind::File
                || name.to_str().is_none_or(|name| patterns.iter().any(|p| glob_name(p, name)))
        };
        let names = self.names(dir, rel);
        let entries: Vec<Entry> = (names.iter().filter(wanted))
            .filter_map(|(name, kind)| self.entry(dir, rel, name, *kind))
            .collect();
        for entry in entries {
            match entry.kind {
                EntryKind::Dir if depth > 0 && folders.contains(&entry.name.as_str()) => {
                    found.push(entry)
                }
                EntryKind::Dir
                    if deep
                        && depth < MAX_DEPTH
                        && !entry.name.starts_with('.')
                        && entry.name != "node_modules" =>
                {
                    found.extend(self.matching(
                        &entry.path,
                        &entry.rel,
                        (patterns, folders),
                        deep,
                        (depth + 1, &mut *budget),
                    ))
                }
                EntryKind::File if patterns.iter().any(|p| glob_name(p, &entry.name)) => {
                    found.push(entry)
                }
                _ => {}
            }
        }
        found
    }

    /// A `.cursor` folder below the repository's top: the files of
    /// [`cursor::NESTED_FILES`] in it, with their dialects.
    fn nested_cursor(&mut self, dot_cursor: &Entry) -> Vec<(Entry, Dialect)> {
        let mut found = Vec::new();
        for declared in cursor::NESTED_FILES {
            let entries = match declared.path.split_once("/**/") {
                Some((folder, pattern)) => {
                    match self.find(&dot_cursor.path, &dot_cursor.rel, folder) {
                        Some(dir) if dir.kind == EntryKind::Dir => self.matching(
                            &dir.path,
                            &dir.rel,
                            (&[pattern], &[]),
                            true,
                            (0, &mut { MAX_FOLDERS }),
                        ),
                        _ => Vec::new(),
                    }
                }
                None => self
                    .find(&dot_cursor.path, &dot_cursor.rel, declared.path)
                    .into_iter()
                    .collect(),
            };
            found.extend(entries.into_iter().map(|e| (e, declared.dialect)));
        }
        found
    }

    /// A Codex skill folder below the repository's top,
    /// `<folder>/.agents/skills`: every `SKILL.md` in it down to Codex's
    /// scan depth, read as Codex reads it. Codex reads it only when working
    /// in `<folder>` or below, so its skills are named in a namespace of
    /// their own ([`Owner::Nested`]).
    fn nested_codex(&mut self, dot_agents: &Entry) {
        let Some(skills) = self.find(&dot_agents.path, &dot_agents.rel, "skills") else {
            return;
        };
        if skills.kind != EntryKind::Dir {
            return;
        }
        self.found(LayoutKind::AgentSkills, &skills);
        let folder = dot_agents.rel.path.rsplit_once('/').map_or("", |(folder, _)| folder);
        let owner = Owner::Nested(folder.to_owned());
        self.codex_tree(&skills, &owner, 0, &mut { codex::MAX_SKILL_DIRS });
    }

    /// Codex's scan of a skill folder: a folder holding `SKILL.md` is a
    /// skill, at any depth to [`codex::MAX_SCAN_DEPTH`]; hidden entries are
    /// skipped, and at most [`codex::MAX_SKILL_DIRS`] folders are listed.
    fn codex_tree(&mut self, dir: &Entry, owner: &Owner, depth: usize, budget: &mut usize) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let inside = self.list(&dir.path, &dir.rel);
        if depth > 0
            && let Some(skill) = inside.iter().find(|c| c.is_file("SKILL.md"))
        {
            self.layout.skills.push(SkillFile {
                file: skill.file_ref(),
                folder: dir.name.clone(),
                owner: owner.clone(),
                dialect: Dialect::CodexSkill,
            });
        }
        for child in inside {
            if child.kind == EntryKind::Dir
                && !child.name.starts_with('.')
                && depth < codex::MAX_SCAN_DEPTH
            {
                self.codex_tree(&child, owner, depth + 1, budget);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::glob_name;

    #[test]
    fn names_match_one_star() {
        assert!(glob_name("*.prompt.md", "review.prompt.md"));
        assert!(!glob_name("*.prompt.md", "review.md"));
        assert!(!glob_name("*.prompt.md", ".prompt.md".get(1..).unwrap_or_default()));
        assert!(glob_name("hooks.json", "hooks.json"));
        assert!(!glob_name("a*a", "a"));
    }
}
