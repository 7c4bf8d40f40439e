//! agentc's own layout (CONTRACT §1): agents, runbook collections, tools, the
//! system and repo prompts, and `.agents/`. Kept apart from the walk so the
//! rules of one layout read in one place, beside the assistants' folders in
//! `assistants.rs`.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::Path;

use agentc_schema::Dialect;
use agentc_schema::names::NameKind;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath};
use crate::fs::EntryKind;
use crate::options::{LayoutKind, Scope};

use super::{AgentDir, AgentFile, ConfigFile, Entry, FileRef, Owner, SkillFile, ToolDir, Walk};

pub(super) fn is_agent_file(name: &str) -> bool {
    name == "AGENT.md" || name == "agent.json"
}

/// Resource files of `workflows/` and `knowledge/`: text the prompt can hold.
const RESOURCE_EXTENSIONS: &[&str] = &["md", "txt", "json", "yaml", "yml", "csv", "sh"];

impl Walk<'_> {
    /// In the single-skill layout, what would make the root an agents directory
    /// (a system prompt, skills, tools, agents) is not read: say so.
    pub(super) fn single_skill_rest(&mut self, entries: &[Entry]) {
        const WHY: &str = "the root holds SKILL.md, so it is one skill and the rest of it is that \
                           skill's resources; move the skill into its own folder to compile a \
                           directory of agents and skills";
        for entry in entries {
            let looks_like_layout = match (entry.kind, entry.name.as_str()) {
                (EntryKind::File, "SYSTEM.md") | (EntryKind::Dir, "skills" | "tools") => true,
                (EntryKind::Dir, _) => self.list(&entry.path, &entry.rel).iter().any(|c| {
                    c.is_file("AGENT.md") || c.is_file("agent.json") || c.is_file("SKILL.md")
                }),
                _ => false,
            };
            if looks_like_layout {
                self.stray(entry, WHY);
            }
        }
    }

    /// `skills/` and `tools/` at the root are reserved: they cannot be agents.
    pub(super) fn refuse_agent_in_reserved(&mut self, entry: &Entry, children: &[Entry]) {
        if let Some(file) =
            children.iter().find(|c| c.is_file("AGENT.md") || c.is_file("agent.json"))
        {
            self.report(
                Diagnostic::on_path(
                    Code::ReservedName,
                    &entry.rel.as_folder(),
                    format!(
                        "`{}` is reserved for the layout and cannot be an agent, but it holds {}",
                        entry.name, file.name
                    ),
                )
                .with_help(format!(
                    "move the agent into a folder with its own name, e.g. `{}-agent/`",
                    entry.name
                )),
            );
        }
    }

    /// The skills of a `skills/` folder. An agent file directly inside is
    /// reported by [`Walk::refuse_agent_in_reserved`] at the root, and as a
    /// stray file anywhere else.
    pub(super) fn skills_dir(&mut self, children: Vec<Entry>, owner: Owner, dialect: Dialect) {
        self.read_ahead(&children);
        for child in children {
            // A README beside the skills documents them, as the hosts have it.
            if child.kind == EntryKind::File && child.name.eq_ignore_ascii_case("README.md") {
                continue;
            }
            if child.kind == EntryKind::File {
                if owner != Owner::Global || !is_agent_file(&child.name) {
                    self.stray(
                        &child,
                        "each skill is a folder holding SKILL.md: skills/<skill>/SKILL.md",
                    );
                }
                continue;
            }
            let inside = self.list(&child.path, &child.rel);
            match inside.iter().find(|c| c.is_file("SKILL.md")) {
                Some(skill) if !self.within_copies(skill) => {}
                Some(skill) => self.layout.skills.push(SkillFile {
                    file: skill.file_ref(),
                    folder: child.name.clone(),
                    owner: owner.clone(),
                    dialect,
                }),
                None if self.was_dropped(&child, &["SKILL.md"]) => {}
                None => self.stray(&child, "a skill folder must hold SKILL.md"),
            }
        }
    }

    pub(super) fn tools_dir(&mut self, children: Vec<Entry>, owner: Owner) {
        self.read_ahead(&children);
        for child in children {
            if child.kind == EntryKind::File {
                if owner != Owner::Global || !is_agent_file(&child.name) {
                    self.stray(&child, "each tool is a folder: tools/<tool>/manifest.json");
                }
                continue;
            }
            let inside = self.list(&child.path, &child.rel);
            let manifest = inside.iter().find(|c| c.is_file("manifest.json")).map(Entry::file_ref);
            // An agent's private tool may be a name alone (its implementation is the
            // host's); a shared tool is defined by its descriptor.
            if manifest.is_none() && self.was_dropped(&child, &["manifest.json"]) {
                continue;
            }
            if manifest.is_none() && !matches!(owner, Owner::Agent(_)) {
                self.stray(&child, "a shared tool folder must hold manifest.json");
                continue;
            }
            if !self.check_folder_name(&child, NameKind::Tool) {
                continue;
            }
            self.layout.tools.push(ToolDir {
                folder: child.rel.as_folder(),
                name: child.name.clone(),
                owner: owner.clone(),
                manifest,
            });
        }
    }

    pub(super) fn agent(&mut self, entry: &Entry, children: Vec<Entry>) {
        self.check_folder_name(entry, NameKind::Agent);
        let bundle = children.iter().find(|c| c.is_file("AGENT.md"));
        let package = children.iter().find(|c| c.is_file("agent.json"));
        let file = match (bundle, package) {
            (Some(_), Some(_)) => {
                self.report(
                    Diagnostic::on_path(
                        Code::AmbiguousAgent,
                        &entry.rel.as_folder(),
                        format!("the agent `{}` has both AGENT.md and agent.json", entry.name),
                    )
                    .with_help(
                        "keep one: AGENT.md for a bundle-style agent, agent.json for a package",
                    ),
                );
                return;
            }
            (Some(md), None) => AgentFile::Bundle(md.file_ref()),
            (None, Some(json)) => AgentFile::Package(json.file_ref()),
            (None, None) => return,
        };
        let is_package = matches!(file, AgentFile::Package(_));
        let id = entry.name.clone();
        let mut agent = AgentDir {
            id: id.clone(),
            folder: entry.rel.as_folder(),
            file,
            root_files: BTreeMap::new(),
            workflows: Vec::new(),
            knowledge: Vec::new(),
            hooks: Vec::new(),
        };
        for child in children {
            match (child.kind, child.name.as_str()) {
                (EntryKind::File, "AGENT.md" | "agent.json") => {}
                (EntryKind::File, _) if is_package => {
                    agent.root_files.insert(child.name.clone(), child.file_ref());
                }
                (EntryKind::File, _) => self.stray(&child, "a bundle-style agent reads only AGENT.md at its root"),
                (EntryKind::Dir, "skills") if self.opts.excludes(Scope::AgentSkills) => {}
                (EntryKind::Dir, "skills") => {
                    let inside = self.list(&child.path, &child.rel);
                    self.skills_dir(inside, Owner::Agent(id.clone()), Dialect::Runbook);
                }
                (EntryKind::Dir, "tools") if self.opts.excludes(Scope::AgentTools) => {}
                (EntryKind::Dir, "tools") => {
                    let inside = self.list(&child.path, &child.rel);
                    self.tools_dir(inside, Owner::Agent(id.clone()));
                }
                (EntryKind::Dir, "hooks") => {
                    for hook in self.list(&child.path, &child.rel) {
                        if hook.kind == EntryKind::File {
                            self.stray(&hook, "each hook is a folder: hooks/<hook>/");
                        } else if self.check_folder_name(&hook, NameKind::Hook) {
                            agent.hooks.push(hook.name.clone());
                        }
                    }
                }
                (EntryKind::Dir, "workflows" | "knowledge") if is_package => {
                    if self.opts.excludes(Scope::AgentPrompt) {
                        continue;
                    }
                    let files = self.resources(&child);
                    if child.name == "workflows" {
                        agent.workflows = files;
                    } else {
                        agent.knowledge = files;
                    }
                }
                (EntryKind::Dir, "workflows" | "knowledge") => self.stray(
                    &child,
                    format!("{}/ is read for package-style agents (agent.json) only", child.name),
                ),
                (EntryKind::Dir, _) => self.stray(
                    &child,
                    "inside an agent, agentc reads skills/, tools/, hooks/, workflows/ and knowledge/",
                ),
                _ => {}
            }
        }
        self.layout.agents.push(agent);
    }

    /// The files of `workflows/` or `knowledge/`, in name order.
    fn resources(&mut self, dir: &Entry) -> Vec<FileRef> {
        let mut files = Vec::new();
        for entry in self.list(&dir.path, &dir.rel) {
            let extension = entry.name.rsplit_once('.').map(|(_, ext)| ext);
            match entry.kind {
                EntryKind::File
                    if extension.is_some_and(|ext| RESOURCE_EXTENSIONS.contains(&ext)) =>
                {
                    files.push(entry.file_ref());
                }
                EntryKind::File => self.stray(
                    &entry,
                    format!("resource files are text: .{}", RESOURCE_EXTENSIONS.join(", .")),
                ),
                _ => self.stray(&entry, format!("{}/ holds files only, not folders", dir.name)),
            }
        }
        files
    }

    /// Classifies `name` in the workspace's top folder, if it exists at all: the
    /// workspace is a repository, and most repositories have neither file.
    fn probe(&mut self, workspace: &Path, name: &str) -> Option<Entry> {
        self.fs.kind(&workspace.join(name)).ok()?;
        self.classify(workspace, &RelPath::workspace(""), OsStr::new(name), None)
    }

    /// The workspace's top: agentc's repo prompt and `.agents/`, and — when
    /// it is not the root, which reads them itself — the assistants' folders
    /// there, which belong to the project as much as the root does.
    pub(super) fn workspace(&mut self, workspace: &Path, assistants: bool) {
        if assistants {
            let files = self.project_files();
            self.declared(workspace, &RelPath::workspace(""), files.into_iter(), None);
            if let Some(claude) = self.probe(workspace, ".claude")
                && claude.kind == EntryKind::Dir
                && self.reads(LayoutKind::Claude)
            {
                self.found(LayoutKind::Claude, &claude);
                self.claude(&claude);
            }
            if let Some(github) = self.probe(workspace, ".github")
                && github.kind == EntryKind::Dir
                && self.reads(LayoutKind::Copilot)
            {
                self.github(&github);
            }
        }
        if !self.opts.excludes(Scope::RepoPrompt) {
            let prompt = self.probe(workspace, "AGENTS.md");
            if let Some(entry) = prompt.filter(|e| e.kind == EntryKind::File) {
                self.layout.repo_prompt = Some(entry.file_ref());
            }
        }
        let Some(agents_dir) = self.probe(workspace, ".agents") else {
            return;
        };
        if agents_dir.kind != EntryKind::Dir {
            return;
        }
        for entry in self.list(&agents_dir.path, &agents_dir.rel) {
            match (entry.kind, entry.name.as_str()) {
                (EntryKind::Dir, "skills") if !self.opts.excludes(Scope::RepoSkills) => {
                    let inside = self.list(&entry.path, &entry.rel);
                    self.skills_dir(inside, Owner::Repo, Dialect::Runbook);
                }
                (EntryKind::Dir, "tools") if !self.opts.excludes(Scope::RepoTools) => {
                    let inside = self.list(&entry.path, &entry.rel);
                    self.tools_dir(inside, Owner::Repo);
                }
                // The rest of .agents/ belongs to other tools.
                _ => {}
            }
        }
    }

    /// `.agents/` at the top of a project read without a workspace: its
    /// skills and tools are the repo's, as they are under `--workspace`.
    pub(super) fn dot_agents(&mut self, dot_agents: &Entry) {
        self.found(LayoutKind::AgentSkills, dot_agents);
        for entry in self.list(&dot_agents.path, &dot_agents.rel) {
            match (entry.kind, entry.name.as_str()) {
                (EntryKind::Dir, "skills") if !self.opts.excludes(Scope::RepoSkills) => {
                    let inside = self.list(&entry.path, &entry.rel);
                    self.skills_dir(inside, Owner::Repo, self.collection_dialect());
                }
                (EntryKind::Dir, "tools") if !self.opts.excludes(Scope::RepoTools) => {
                    let inside = self.list(&entry.path, &entry.rel);
                    self.tools_dir(inside, Owner::Repo);
                }
                _ => {}
            }
        }
    }

    /// How a skill collection (`skills/`, `.agents/skills/`) is read: as
    /// agentc's runbooks, or — when `--layout agent-skills` is asked for without
    /// `agentc` — by the Agent Skills specification alone.
    fn collection_dialect(&self) -> Dialect {
        if self.reads(LayoutKind::Agentc) { Dialect::Runbook } else { Dialect::AgentSkill }
    }

    /// `.agents/skills/` at the top of a repository that holds none of
    /// agentc's own layout (no agent, runbook collection, tool or system
    /// prompt, no workspace, every layout read) is Codex's skill folder —
    /// VS Code reads it too — not agentc's repo scope: its skills are read as
    /// Codex reads them.
    pub(super) fn codex_skills(&mut self, workspace: bool) {
        let layout = &mut self.layout;
        let agentc = workspace
            || !self.opts.layouts.is_empty()
            || layout.found.iter().any(|(kind, _)| *kind == LayoutKind::Agentc)
            || !layout.tools.is_empty()
            || layout.system_prompt.is_some();
        if !agentc {
            for skill in &mut layout.skills {
                if skill.owner == Owner::Repo && skill.dialect == Dialect::Runbook {
                    skill.dialect = Dialect::CodexSkill;
                }
            }
        }
        // Each Codex skill's metadata, `agents/openai.yaml` beside its
        // SKILL.md (the nested folders' skills are Codex's whatever the top holds).
        let folders: Vec<(std::path::PathBuf, RelPath)> = (self.layout.skills.iter())
            .filter(|s| s.dialect == Dialect::CodexSkill)
            .filter_map(|s| {
                let dir = s.file.path.parent()?.to_path_buf();
                let rel = s.file.rel.path.rsplit_once('/')?.0;
                Some((dir, RelPath { origin: s.file.rel.origin, path: rel.into() }))
            })
            .collect();
        for (dir, rel) in folders {
            if let Some(entry) = self.find(&dir, &rel, "agents/openai.yaml")
                && entry.kind == EntryKind::File
            {
                self.layout.configs.push(ConfigFile {
                    file: entry.file_ref(),
                    dialect: Dialect::CodexMetadata,
                    plugin: None,
                });
            }
        }
    }
}
