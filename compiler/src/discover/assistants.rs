//! The coding assistants' folders: Claude Code's `.claude/` and plugins,
//! Copilot's `.github/`. Each host has its own rules for what is an agent or
//! a skill there, and they change with the host, not with agentc's layout.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use agentc_schema::Dialect;

use crate::diagnostic::RelPath;
use crate::fs::EntryKind;
use crate::options::LayoutKind;

use super::{AssistantFile, Entry, FileRef, Owner, PluginDir, SkillFile, Walk};

/// A plugin's default component folders and files, which Claude Code reads
/// without a manifest (its plugin loader's list, `docs/research/claude-config.md` §1.2).
fn is_plugin_component(entry: &Entry) -> bool {
    match entry.kind {
        EntryKind::Dir => matches!(
            entry.name.as_str(),
            "agents"
                | "commands"
                | "skills"
                | "hooks"
                | "output-styles"
                | "themes"
                | "monitors"
                | "workflows"
        ),
        EntryKind::File => matches!(entry.name.as_str(), ".mcp.json" | ".lsp.json"),
        _ => false,
    }
}

impl Walk<'_> {
    /// `.claude/`: skills, subagents and slash commands. The rest of the
    /// folder (settings, hooks) is Claude Code's own and is not read.
    pub(super) fn claude(&mut self, claude: &Entry) {
        for entry in self.list(&claude.path, &claude.rel) {
            self.claude_component(&entry, Owner::Global);
        }
    }

    /// One of `skills/`, `agents/`, `commands/` of `.claude/` or a plugin.
    fn claude_component(&mut self, entry: &Entry, owner: Owner) {
        let plugin = match &owner {
            Owner::Plugin(name) => Some(name.clone()),
            _ => None,
        };
        match (entry.kind, entry.name.as_str()) {
            (EntryKind::Dir, "skills") => {
                let inside = self.list(&entry.path, &entry.rel);
                self.skills_dir(inside, owner, Dialect::ClaudeSkill);
            }
            (EntryKind::Dir, "agents") => {
                self.markdown_tree(entry, Dialect::ClaudeSubagent, plugin.as_deref())
            }
            (EntryKind::Dir, "commands") => {
                self.markdown_tree(entry, Dialect::ClaudeCommand, plugin.as_deref())
            }
            _ => {}
        }
    }

    /// The Markdown files of a folder of assistant agents, nested folders
    /// included down to a fixed depth.
    pub(super) fn markdown_tree(&mut self, dir: &Entry, dialect: Dialect, plugin: Option<&str>) {
        let mut read = HashSet::from([dir.path.clone()]);
        self.markdown_tree_in(dir, dialect, plugin, &mut Vec::new(), &mut read);
    }

    /// [`Walk::markdown_tree`] below `folders`, each real folder read once:
    /// links inside the project that lead to a folder already read (ten
    /// links to a folder of ten links, levels deep) would multiply its files.
    fn markdown_tree_in(
        &mut self,
        dir: &Entry,
        dialect: Dialect,
        plugin: Option<&str>,
        folders: &mut Vec<String>,
        read: &mut HashSet<PathBuf>,
    ) {
        const MAX_DEPTH: usize = 8;
        let suffix = ".md";
        let entries = self.list(&dir.path, &dir.rel);
        if dialect == Dialect::ClaudeCommand
            && let Some(skill) = entries
                .iter()
                .find(|e| e.kind == EntryKind::File && e.name.eq_ignore_ascii_case("SKILL.md"))
        {
            let skill = skill.name.clone();
            self.folder_read_as_skill(dir, &skill);
            return;
        }
        for entry in entries {
            match entry.kind {
                EntryKind::Dir if !read.insert(entry.path.clone()) => self.stray(
                    &entry,
                    "it leads to a folder already read here (through a link): each folder's files \
                     are read once"
                        .to_owned(),
                ),
                EntryKind::Dir if folders.len() < MAX_DEPTH => {
                    folders.push(entry.name.clone());
                    self.markdown_tree_in(&entry, dialect, plugin, folders, read);
                    folders.pop();
                }
                EntryKind::Dir => self.stray(
                    &entry,
                    format!("agentc reads {MAX_DEPTH} levels of folders here, no deeper"),
                ),
                // Claude Code takes a file without a `name` for documentation;
                // a README is the common one.
                _ if entry.name.eq_ignore_ascii_case("README.md") => {}
                _ => match entry.name.strip_suffix(suffix).filter(|stem| !stem.is_empty()) {
                    Some(_) if !self.within_copies(&entry) => {}
                    Some(stem) => self.layout.assistants.push(AssistantFile {
                        file: entry.file_ref(),
                        stem: stem.to_owned(),
                        dialect,
                        plugin: plugin.map(str::to_owned),
                        folders: folders.clone(),
                    }),
                    None if entry.name.starts_with('.') => {}
                    // A plugin that is also a Gemini CLI extension keeps
                    // Gemini's commands (`<name>.toml`) in the same folder.
                    None if dialect == Dialect::ClaudeCommand
                        && plugin.is_some()
                        && entry.name.ends_with(".toml") => {}
                    None => self.stray(
                        &entry,
                        format!("each {} is a Markdown file named `<name>{suffix}`", dialect),
                    ),
                },
            }
        }
    }

    /// A folder of commands holding `skill`, a `SKILL.md` in any case: Claude
    /// Code 2.1.332 reads the folder as one skill named after it, and none
    /// of its Markdown files, below it either, as a command (oh-my-claudecode's
    /// `commands/skill.md` hid its 27 other commands).
    fn folder_read_as_skill(&mut self, dir: &Entry, skill: &str) {
        let mut stack = vec![dir.clone()];
        let mut seen = HashSet::from([dir.path.clone()]);
        while let Some(folder) = stack.pop() {
            for entry in self.list(&folder.path, &folder.rel) {
                match entry.kind {
                    EntryKind::Dir if seen.insert(entry.path.clone()) => stack.push(entry),
                    EntryKind::File if entry.name.ends_with(".md") => {
                        let diagnostic = crate::diagnostic::Diagnostic::on_path(
                            crate::catalog::Code::StrayEntry,
                            &entry.rel,
                            format!(
                                "Claude Code 2.1.332 does not load this command: `{skill}` in \
                                 `{}` makes that folder one skill",
                                dir.rel.as_folder()
                            ),
                        )
                        .with_severity(crate::diagnostic::Severity::Error)
                        .with_help(format!(
                            "rename `{skill}` (a file of that name, in any case, is a skill's); \
                             a skill lives in its own folder as `skills/<name>/SKILL.md`"
                        ));
                        self.report(diagnostic);
                    }
                    _ => {}
                }
            }
        }
    }

    /// `.github/`: Copilot skills, custom agents and the older chat modes; the rest of
    /// the folder (workflows, templates) is not agentc's.
    pub(super) fn github(&mut self, github: &Entry) {
        for entry in self.list(&github.path, &github.rel) {
            let suffix = match (entry.kind, entry.name.as_str()) {
                (EntryKind::Dir, "skills") => {
                    self.found(LayoutKind::Copilot, &entry);
                    let inside = self.list(&entry.path, &entry.rel);
                    self.skills_dir(inside, Owner::Global, Dialect::CopilotSkill);
                    continue;
                }
                (EntryKind::Dir, "agents") => ".agent.md",
                (EntryKind::Dir, "chatmodes") => ".chatmode.md",
                _ => continue,
            };
            self.found(LayoutKind::Copilot, &entry);
            for file in self.list(&entry.path, &entry.rel) {
                // VS Code reads any Markdown file in `.github/agents/` but a
                // README as an agent, `.agent.md` or not.
                let stem = (file.name.strip_suffix(suffix))
                    .or_else(|| match entry.name == "agents" {
                        true => file.name.strip_suffix(".md"),
                        false => None,
                    })
                    .filter(|stem| {
                        !stem.is_empty() && !file.name.eq_ignore_ascii_case("README.md")
                    });
                match (file.kind, stem) {
                    (EntryKind::File, Some(stem)) => self.layout.assistants.push(AssistantFile {
                        file: file.file_ref(),
                        stem: stem.to_owned(),
                        dialect: Dialect::CopilotAgent,
                        plugin: None,
                        folders: Vec::new(),
                    }),
                    _ if file.name.starts_with('.') => {}
                    (EntryKind::File, _) if file.name.eq_ignore_ascii_case("README.md") => {}
                    _ => self.stray(
                        &file,
                        format!("Copilot reads custom agents named `<name>{suffix}` here"),
                    ),
                }
            }
        }
    }

    /// The `.claude-plugin/plugin.json` among a folder's entries, if any.
    pub(super) fn plugin_manifest(&mut self, entries: &[Entry]) -> Option<FileRef> {
        if !self.reads(LayoutKind::ClaudePlugins) {
            return None;
        }
        let dir =
            entries.iter().find(|e| e.kind == EntryKind::Dir && e.name == ".claude-plugin")?;
        let inside = self.list(&dir.path, &dir.rel);
        inside.iter().find(|e| e.is_file("plugin.json")).map(Entry::file_ref)
    }

    /// Whether `entries` (a repository's top) hold a marketplace that lists
    /// its own folder (`"source": "./"` or `"."`) as a plugin: Claude Code
    /// 2.1.332 installs the top then, with or without a manifest, and loads
    /// its `skills/`, `agents/` and `commands/` as the plugin's.
    pub(super) fn marketplace_lists_top(&mut self, entries: &[Entry]) -> bool {
        if !self.reads(LayoutKind::ClaudePlugins) {
            return false;
        }
        let Some(dir) =
            entries.iter().find(|e| e.kind == EntryKind::Dir && e.name == ".claude-plugin")
        else {
            return false;
        };
        let inside = self.list_quietly(&dir.path, &dir.rel);
        let Some(file) = inside.iter().find(|e| e.is_file("marketplace.json")) else {
            return false;
        };
        // Read again, and reported, with the configuration files: here only
        // its sources count.
        let Ok(crate::fs::ReadOutcome::Bytes(bytes)) =
            self.fs.read(&file.path, self.opts.max_file_size)
        else {
            return false;
        };
        let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
            return false;
        };
        doc["plugins"].as_array().is_some_and(|plugins| {
            plugins.iter().any(|p| matches!(p["source"].as_str(), Some("." | "./")))
        })
    }

    /// A Claude Code plugin: its manifest and its components.
    pub(super) fn plugin(
        &mut self,
        name: String,
        (dir, folder): (&Path, &RelPath),
        manifest: Option<FileRef>,
        entries: &[Entry],
    ) {
        self.found_at(LayoutKind::ClaudePlugins, folder.as_folder());
        for entry in entries {
            self.claude_component(entry, Owner::Plugin(name.clone()));
        }
        // A plugin that is itself a skill: Claude Code 2.1.332 loads the
        // `SKILL.md` at its root when it has no `skills/` folder.
        let skills_folder = entries.iter().any(|e| e.kind == EntryKind::Dir && e.name == "skills");
        if let Some(skill) =
            entries.iter().find(|e| e.is_file("SKILL.md")).filter(|_| !skills_folder)
            && self.within_copies(skill)
        {
            self.layout.skills.push(SkillFile {
                file: skill.file_ref(),
                folder: name.clone(),
                owner: Owner::Plugin(name.clone()),
                dialect: Dialect::ClaudeSkill,
            });
        }
        self.declared(dir, folder, crate::hosts::plugin_files(), Some(folder.as_folder()));
        let path = dir.to_path_buf();
        self.layout.plugins.push(PluginDir { name, folder: folder.as_folder(), path, manifest });
    }

    /// A folder of plugins (a marketplace's `plugins/`): read each plugin in
    /// it; returns false when it holds none with a manifest, so the folder is
    /// reported. There the manifest is optional: a folder holding a plugin's
    /// default component folders is a plugin too. Files (a README) are the
    /// folder's own.
    pub(super) fn plugin_collection(&mut self, children: &[Entry]) -> bool {
        if !self.reads(LayoutKind::ClaudePlugins) {
            return false;
        }
        let mut plugins = Vec::new();
        let mut others = Vec::new();
        // Each plugin's folder, and in it the folders it is read for (its
        // manifest's and its components'), listed in parallel ahead of the walk.
        self.read_ahead(children);
        let inner = [".claude-plugin", "agents", "commands", "skills"];
        let inner = self.read_subfolders(children, &inner);
        self.read_ahead_dirs(inner.iter().map(PathBuf::as_path));
        for child in children.iter().filter(|c| c.kind == EntryKind::Dir) {
            let inside = self.list_quietly(&child.path, &child.rel);
            match self.plugin_manifest(&inside) {
                Some(manifest) => plugins.push((child, inside, Some(manifest))),
                None if inside.iter().any(is_plugin_component) => {
                    plugins.push((child, inside, None))
                }
                None => others.push(child),
            }
        }
        if plugins.iter().all(|(_, _, manifest)| manifest.is_none()) {
            return false;
        }
        self.each_apart(&plugins, |walk, (child, inside, manifest)| {
            walk.plugin(child.name.clone(), (&child.path, &child.rel), manifest.clone(), inside);
        });
        for other in others.into_iter().filter(|o| !o.name.starts_with('.')) {
            self.stray(
                other,
                "a folder of plugins holds one folder per plugin, each with \
                 .claude-plugin/plugin.json or the component folders agents/, commands/, skills/",
            );
        }
        true
    }
}
