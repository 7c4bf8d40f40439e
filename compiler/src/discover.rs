//! Discover: walk the layout of the root and workspace and decide what each
//! entry is, without reading any file.
//!
//! The walk follows the layout of CONTRACT §1 to a fixed depth, so it cannot
//! run away; entries are visited in bytewise name order, never in the file
//! system's order. Anything the layout does not explain is reported, and its
//! contents are left alone.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use agentc_schema::Dialect;
use agentc_schema::names::{NameKind, check_name, suggest_name};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Origin, RelPath};
use crate::fs::{Bounds, EntryKind, Fs, Refused, Resolved};
use crate::options::{LayoutKind, Options, Scope};
use crate::repository;
use crate::suggest::list_names;

/// A file to read: where users see it and where it is on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRef {
    pub rel: RelPath,
    /// Canonical: every link on the way was resolved and checked to stay
    /// inside, so [`Fs::read`] opens it following no link at all.
    pub path: PathBuf,
}

/// Where a skill or tool is defined.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    Global,
    Repo,
    Agent(String),
    /// A Claude Code plugin, by its folder: its components are namespaced
    /// (`<plugin>:<name>`), so they never clash with the project's.
    Plugin(String),
}

/// A `SKILL.md` to read.
#[derive(Clone, Debug)]
pub struct SkillFile {
    pub file: FileRef,
    /// The folder's name, compared with the frontmatter `name`.
    pub folder: String,
    pub owner: Owner,
    pub dialect: Dialect,
}

/// A coding assistant's agent file: a Claude Code subagent or command, or a
/// Copilot custom agent.
#[derive(Clone, Debug)]
pub struct AssistantFile {
    pub file: FileRef,
    /// The file's name without its suffix (`.md`, `.agent.md`, `.chatmode.md`).
    pub stem: String,
    pub dialect: Dialect,
    /// The plugin it belongs to, if any.
    pub plugin: Option<String>,
    /// The folders between the component folder (`agents/`) and the file:
    /// part of a plugin subagent's id (`<plugin>:review:security`).
    pub folders: Vec<String>,
}

/// A Claude Code plugin: a folder holding `.claude-plugin/plugin.json`, or —
/// in a folder of plugins, where the manifest is optional — one holding a
/// plugin's default component folders.
#[derive(Clone, Debug)]
pub struct PluginDir {
    pub name: String,
    pub folder: RelPath,
    pub manifest: Option<FileRef>,
}

/// A tool folder: its id is the folder name.
#[derive(Clone, Debug)]
pub struct ToolDir {
    pub folder: RelPath,
    pub name: String,
    pub owner: Owner,
    pub manifest: Option<FileRef>,
}

/// How an agent is written.
#[derive(Clone, Debug)]
pub enum AgentFile {
    Bundle(FileRef),
    Package(FileRef),
}

/// An agent folder.
#[derive(Clone, Debug)]
pub struct AgentDir {
    pub id: String,
    pub folder: RelPath,
    pub file: AgentFile,
    /// Package style: other files at the agent's root, by name; which are entry
    /// points is known only once `agent.json` is read.
    pub root_files: BTreeMap<String, FileRef>,
    pub workflows: Vec<FileRef>,
    pub knowledge: Vec<FileRef>,
    pub hooks: Vec<String>,
}

/// What discovery found.
#[derive(Debug, Default)]
pub struct Layout {
    pub system_prompt: Option<FileRef>,
    pub repo_prompt: Option<FileRef>,
    pub skills: Vec<SkillFile>,
    pub tools: Vec<ToolDir>,
    pub agents: Vec<AgentDir>,
    pub assistants: Vec<AssistantFile>,
    pub plugins: Vec<PluginDir>,
    /// The layouts found, with the folder each was found in.
    pub found: Vec<(LayoutKind, RelPath)>,
    pub diagnostics: Vec<Diagnostic>,
    /// Entries that were reported and left out (special files, links that
    /// escape or loop), so later stages do not report them missing as well.
    pub dropped: HashSet<RelPath>,
}

impl Layout {
    /// Whether discovery found nothing to compile — no agent, skill, tool,
    /// prompt, plugin or assistant's agent — and nothing it left out for a
    /// reason it reported (only stray entries).
    fn defines_nothing(&self) -> bool {
        self.diagnostics.iter().all(|d| d.code == Code::StrayEntry)
            && self.dropped.is_empty()
            && self.skills.is_empty()
            && self.tools.is_empty()
            && self.agents.is_empty()
            && self.assistants.is_empty()
            && self.plugins.is_empty()
            && self.system_prompt.is_none()
            && self.repo_prompt.is_none()
    }
}

/// One classified directory entry.
#[derive(Clone, Debug)]
struct Entry {
    name: String,
    /// Canonical, like [`FileRef::path`]: for a link, its checked target.
    path: PathBuf,
    rel: RelPath,
    /// `File` or `Dir`, symlinks already followed and checked.
    kind: EntryKind,
}

impl Entry {
    fn is_file(&self, name: &str) -> bool {
        self.kind == EntryKind::File && self.name == name
    }

    fn file_ref(&self) -> FileRef {
        FileRef { rel: self.rel.clone(), path: self.path.clone() }
    }
}

/// A plugin's default component folders, which Claude Code reads without a
/// manifest.
fn is_plugin_component(entry: &Entry) -> bool {
    entry.kind == EntryKind::Dir && matches!(entry.name.as_str(), "agents" | "commands" | "skills")
}

fn is_agent_file(name: &str) -> bool {
    name == "AGENT.md" || name == "agent.json"
}

/// Resource files of `workflows/` and `knowledge/`: text the prompt can hold.
const RESOURCE_EXTENSIONS: &[&str] = &["md", "txt", "json", "yaml", "yml", "csv", "sh"];

struct Walk<'a> {
    fs: &'a dyn Fs,
    opts: &'a Options,
    /// Canonical root and workspace: symlinks may lead anywhere inside them.
    allowed: Bounds,
    /// Entries reported and left out (special files, bad links, folders that
    /// cannot be listed), so nothing is reported a second time as lacking them.
    dropped: HashSet<RelPath>,
    /// Stray entries per folder: past [`STRAY_LIMIT`], one summary says how
    /// many more there are, so a folder of 200,000 leftovers is one report.
    strays: HashMap<RelPath, usize>,
    /// Whether the root is a repository's top (it holds `.git`, `.claude`,
    /// …): its own folders are not layout folders.
    repository: bool,
    /// While set, what an entry's classification would report (a link out
    /// of the project, a dangling link, a special file) is left unsaid: the
    /// entry is in a folder of the repository that no host reads.
    quiet: bool,
    layout: Layout,
}

/// The names at a repository's top that belong to a layout: problems with
/// them are reported even there.
const LAYOUT_NAMES: &[&str] = &[
    ".claude",
    ".github",
    ".agents",
    ".claude-plugin",
    "skills",
    "agents",
    "commands",
    "tools",
    "SYSTEM.md",
    "SKILL.md",
];

/// Stray entries reported one by one in a folder.
const STRAY_LIMIT: usize = 20;

/// Walks the root (and the workspace, if any), both given canonical.
pub fn discover(
    fs: &dyn Fs,
    opts: &Options,
    root_canon: &Path,
    workspace_canon: Option<&Path>,
) -> Layout {
    let allowed =
        Bounds::new([root_canon].into_iter().chain(workspace_canon).map(Path::to_path_buf));
    let mut walk = Walk {
        fs,
        opts,
        allowed,
        dropped: HashSet::new(),
        strays: HashMap::new(),
        repository: false,
        quiet: false,
        layout: Layout::default(),
    };
    walk.root(root_canon);
    if let Some(ws) = workspace_canon {
        walk.workspace(ws, ws != root_canon);
    }
    walk.summarize_strays();
    walk.codex_skills(workspace_canon.is_some());
    walk.layout.dropped = std::mem::take(&mut walk.dropped);
    if walk.layout.defines_nothing() {
        walk.refuse_empty_root(root_canon);
    }
    walk.layout
}

impl Walk<'_> {
    fn report(&mut self, diagnostic: Diagnostic) {
        if !self.quiet {
            self.layout.diagnostics.push(diagnostic);
        }
    }

    /// Lists a folder that is read only to see whether it holds a layout: at
    /// a repository's top, quietly (see [`Walk::quiet`]).
    fn list_quietly(&mut self, dir: &Path, rel: &RelPath) -> Vec<Entry> {
        let was = std::mem::replace(&mut self.quiet, self.repository);
        let entries = self.list(dir, rel);
        self.quiet = was;
        entries
    }

    /// Whether `folder/name` was there but reported and left out.
    fn was_dropped(&self, folder: &Entry, names: &[&str]) -> bool {
        names.iter().any(|name| self.dropped.contains(&folder.rel.join(name)))
    }

    fn stray(&mut self, entry: &Entry, why: impl Into<String>) {
        // A folder that could not be listed has its io-error: it is not also stray.
        if self.dropped.contains(&entry.rel) {
            return;
        }
        let folder = match entry.rel.path.trim_end_matches('/').rsplit_once('/') {
            Some((parent, _)) => {
                RelPath { origin: entry.rel.origin, path: format!("{parent}/").into() }
            }
            None => RelPath { origin: entry.rel.origin, path: "".into() },
        };
        let count = self.strays.entry(folder).or_default();
        *count += 1;
        if *count > STRAY_LIMIT {
            return;
        }
        let path =
            if entry.kind == EntryKind::Dir { entry.rel.as_folder() } else { entry.rel.clone() };
        let what = if entry.kind == EntryKind::Dir { "folder" } else { "file" };
        let diagnostic = Diagnostic::on_path(
            Code::StrayEntry,
            &path,
            format!(
                "the {what} `{}` is not part of the layout; its contents are not read",
                entry.name
            ),
        )
        .with_help(why);
        self.report(diagnostic);
    }

    /// One warning for each folder with more stray entries than were listed.
    fn summarize_strays(&mut self) {
        let mut crowded: Vec<(RelPath, usize)> =
            self.strays.drain().filter(|(_, count)| *count > STRAY_LIMIT).collect();
        crowded.sort();
        for (folder, count) in crowded {
            let more = count - STRAY_LIMIT;
            self.report(
                Diagnostic::on_path(
                    Code::StrayEntry,
                    &folder,
                    format!(
                        "{more} more entries in this folder are not part of the layout; their contents are not read"
                    ),
                )
                .with_help(format!(
                    "the first {STRAY_LIMIT} are reported one by one; move what agentc should not read out of the agents directory"
                )),
            );
        }
    }

    /// Lists a directory: sorted, with every entry classified and checked.
    fn list(&mut self, dir: &Path, rel: &RelPath) -> Vec<Entry> {
        let names = self.names(dir, rel);
        names.into_iter().filter_map(|(name, kind)| self.entry(dir, rel, &name, kind)).collect()
    }

    /// A folder's entry names and kinds, sorted bytewise; none (reported)
    /// when it cannot be read.
    fn names(&mut self, dir: &Path, rel: &RelPath) -> Vec<(OsString, EntryKind)> {
        let mut names = match self.fs.read_dir(dir) {
            Ok(names) => names,
            Err(err) => {
                self.report(Diagnostic::on_path(
                    Code::IoError,
                    &rel.as_folder(),
                    format!("the folder cannot be read: {err}"),
                ));
                if !self.quiet {
                    self.dropped.insert(rel.clone());
                }
                return Vec::new();
            }
        };
        names.sort_by(|(a, _), (b, _)| a.as_encoded_bytes().cmp(b.as_encoded_bytes()));
        names
    }

    /// One listed entry classified; one left out for a reason reported is
    /// remembered as dropped.
    fn entry(&mut self, dir: &Path, rel: &RelPath, name: &OsStr, kind: EntryKind) -> Option<Entry> {
        let entry = self.classify(dir, rel, name, Some(kind));
        if entry.is_none() && !self.quiet {
            self.dropped.insert(rel.join(&name.to_string_lossy()));
        }
        entry
    }

    /// Classifies one entry, following a symlink only where it stays inside.
    fn classify(
        &mut self,
        dir: &Path,
        rel: &RelPath,
        name: &OsStr,
        listed: Option<EntryKind>,
    ) -> Option<Entry> {
        let mut path = dir.join(name);
        let Some(utf8) = name.to_str() else {
            let lossy = name.to_string_lossy();
            let mut shown = rel.join(&lossy);
            if self.fs.kind(&path).is_ok_and(|k| k == EntryKind::Dir) {
                shown = shown.as_folder();
            }
            self.report(
                Diagnostic::on_path(
                    Code::BadName,
                    &shown,
                    format!("the name `{lossy}` is not valid UTF-8"),
                )
                .with_help("rename it using lowercase letters, digits and `-`"),
            );
            return None;
        };
        let rel = rel.join(utf8);
        let mut kind = match listed.map_or_else(|| self.fs.kind(&path), Ok) {
            Ok(kind) => kind,
            Err(err) => {
                self.report(Diagnostic::on_path(
                    Code::IoError,
                    &rel,
                    format!("cannot inspect `{utf8}`: {err}"),
                ));
                return None;
            }
        };
        if kind == EntryKind::Symlink {
            (kind, path) = self.follow(&path, dir, &rel)?;
        }
        if let EntryKind::Special(what) = kind {
            self.report(
                Diagnostic::on_path(
                    Code::SpecialFile,
                    &rel,
                    format!("`{utf8}` is {what}, not a file or folder"),
                )
                .with_help("agentc never opens it; remove it from the agents directory"),
            );
            return None;
        }
        Some(Entry { name: utf8.to_owned(), path, rel, kind })
    }

    /// Resolves a symlink: refuses loops and targets outside the root and
    /// workspace, looking at nothing outside them; returns what the target is
    /// and its canonical path.
    fn follow(&mut self, path: &Path, dir: &Path, rel: &RelPath) -> Option<(EntryKind, PathBuf)> {
        let written =
            self.fs.read_link(path).map(|target| target.display().to_string()).unwrap_or_default();
        let (target, kind) = match self.allowed.resolve(self.fs, path) {
            Ok(Resolved::Found(target, kind)) => (target, kind),
            Err(Refused::Loop(_)) => {
                self.report(
                    Diagnostic::on_path(
                        Code::SymlinkLoop,
                        rel,
                        "this symbolic link leads back to itself",
                    )
                    .with_help("point the link at a real file or folder, or remove it"),
                );
                return None;
            }
            Ok(Resolved::Missing { .. }) => {
                self.report(
                    Diagnostic::on_path(
                        Code::IoError,
                        rel,
                        format!("this symbolic link points to `{written}`, which does not exist"),
                    )
                    .with_help("fix the link's target, or remove the link"),
                );
                return None;
            }
            Err(Refused::Outside { .. }) => {
                self.report(
                    Diagnostic::on_path(
                        Code::PathEscape,
                        rel,
                        format!(
                            "this symbolic link leads outside the agents directory (to `{written}`)"
                        ),
                    )
                    .with_help(
                        "agentc reads only inside the root and the workspace; copy the file in instead",
                    ),
                );
                return None;
            }
            Err(Refused::Io(_, err)) => {
                self.report(Diagnostic::on_path(
                    Code::IoError,
                    rel,
                    format!("this symbolic link cannot be followed: {}", err.kind()),
                ));
                return None;
            }
        };
        let shown = if kind == EntryKind::Dir { rel.as_folder() } else { rel.clone() };
        // `dir` is canonical: the walk starts at the canonical root and steps
        // only into real folders and checked link targets.
        if kind == EntryKind::Dir && dir.starts_with(&target) {
            self.report(
                Diagnostic::on_path(
                    Code::SymlinkLoop,
                    &shown,
                    "this symbolic link leads to a folder that contains it",
                )
                .with_help("remove the link; following it would walk the same folders forever"),
            );
            return None;
        }
        Some((kind, target))
    }

    /// Reports a name that breaks the rule for `kind`; returns whether it is fine.
    fn check_folder_name(&mut self, entry: &Entry, kind: NameKind) -> bool {
        let Err(err) = check_name(kind, &entry.name) else {
            return true;
        };
        let mut diagnostic = Diagnostic::on_path(
            Code::BadName,
            &entry.rel.as_folder(),
            format!("the {} name `{}` breaks the naming rule: {err}", kind.noun(), entry.name),
        );
        let rule = if kind.allows_underscore() {
            "lowercase letters, digits, `-` and `_`, starting with a letter or digit, at most 64 characters"
        } else {
            "lowercase letters, digits and `-`, starting with a letter or digit, at most 64 characters"
        };
        diagnostic = diagnostic.with_help(match suggest_name(kind, &entry.name) {
            Some(better) => format!("rename the folder to `{better}`; names use {rule}"),
            None => format!("names use {rule}"),
        });
        self.report(diagnostic);
        false
    }

    fn root(&mut self, root: &Path) {
        let rel = RelPath::root("");
        // At a repository's top the root is not a layout folder: its README,
        // sources and other tools' folders are ordinary, not stray, and a
        // link among them that leads out or nowhere is none of agentc's
        // business.
        // A layout's own names (`.claude` linked out of the project) are
        // classified aloud even there.
        let names = self.names(root, &rel);
        self.repository =
            names.iter().any(|(name, _)| name.to_str().is_some_and(repository::is_marker));
        let mut entries = Vec::new();
        for (name, kind) in names {
            let layout = name.to_str().is_some_and(|name| LAYOUT_NAMES.contains(&name));
            self.quiet = self.repository && !layout;
            entries.extend(self.entry(root, &rel, &name, kind));
        }
        self.quiet = false;
        if let Some(skill) = entries.iter().find(|e| e.is_file("SKILL.md")) {
            // The single-skill layout: the root is one skill, and the rest of it is
            // that skill's resources, which agentc does not read.
            if !self.opts.excludes(Scope::GlobalSkills) {
                let folder =
                    root.file_name().and_then(OsStr::to_str).unwrap_or_default().to_owned();
                self.layout.skills.push(SkillFile {
                    file: skill.file_ref(),
                    folder,
                    owner: Owner::Global,
                    dialect: Dialect::Runbook,
                });
            }
            self.single_skill_rest(&entries);
            return;
        }
        let root_plugin = self.plugin_manifest(&entries);
        if let Some(manifest) = &root_plugin {
            let name = root.file_name().and_then(OsStr::to_str).unwrap_or("plugin").to_owned();
            self.plugin(name, &rel, Some(manifest.clone()), &entries);
        }
        let repository = self.repository;
        for entry in entries {
            match (entry.kind, entry.name.as_str()) {
                (EntryKind::Dir, "skills" | "agents" | "commands") if root_plugin.is_some() => {}
                (EntryKind::Dir, ".claude") if self.reads(LayoutKind::Claude) => {
                    self.found(LayoutKind::Claude, &entry);
                    self.claude(&entry);
                }
                (EntryKind::Dir, ".github") if self.reads(LayoutKind::Copilot) => {
                    self.github(&entry);
                }
                (EntryKind::Dir, ".agents")
                    if self.opts.workspace.is_none() && self.reads(LayoutKind::AgentSkills) =>
                {
                    self.dot_agents(&entry);
                }
                // Hidden folders and files belong to other tools (`.git`, `.vscode`).
                (_, name) if name.starts_with('.') => {}
                (EntryKind::Dir, "skills")
                    if !self.reads(LayoutKind::Agentc) && self.reads(LayoutKind::AgentSkills) =>
                {
                    self.found(LayoutKind::AgentSkills, &entry);
                    let children = self.list(&entry.path, &entry.rel);
                    self.skills_dir(children, Owner::Global, Dialect::AgentSkill);
                }
                // `--layout` narrows: plugins are found without agentc's layout.
                (EntryKind::Dir, _) if !self.reads(LayoutKind::Agentc) => {
                    let children = self.list_quietly(&entry.path, &entry.rel);
                    match self.plugin_manifest(&children) {
                        Some(manifest) => {
                            self.plugin(entry.name.clone(), &entry.rel, Some(manifest), &children)
                        }
                        None => drop(self.plugin_collection(&children)),
                    }
                }
                _ if !self.reads(LayoutKind::Agentc) => {}
                (EntryKind::File, "SYSTEM.md") if self.opts.excludes(Scope::SystemPrompt) => {}
                (EntryKind::File, "SYSTEM.md") => {
                    self.layout.system_prompt = Some(entry.file_ref())
                }
                (EntryKind::File, _) if repository => {}
                (EntryKind::File, _) => self.stray(
                    &entry,
                    "at the root agentc reads SYSTEM.md, and SKILL.md when the root is one skill",
                ),
                // At a repository's top, `skills/` and `tools/` are agentc's
                // only when they hold a skill or a tool descriptor.
                (EntryKind::Dir, "skills") if repository && !self.holds(&entry, "SKILL.md") => {}
                (EntryKind::Dir, "tools") if repository && !self.holds(&entry, "manifest.json") => {
                }
                (EntryKind::Dir, "skills") => {
                    let children = self.list(&entry.path, &entry.rel);
                    self.refuse_agent_in_reserved(&entry, &children);
                    if !self.opts.excludes(Scope::GlobalSkills) {
                        self.found(LayoutKind::Agentc, &entry);
                        self.skills_dir(children, Owner::Global, Dialect::Runbook);
                    }
                }
                (EntryKind::Dir, "tools") => {
                    let children = self.list(&entry.path, &entry.rel);
                    self.refuse_agent_in_reserved(&entry, &children);
                    if !self.opts.excludes(Scope::GlobalTools) {
                        self.tools_dir(children, Owner::Global);
                    }
                }
                (EntryKind::Dir, _) => {
                    let children = self.list_quietly(&entry.path, &entry.rel);
                    let is_agent =
                        children.iter().any(|c| c.is_file("AGENT.md") || c.is_file("agent.json"));
                    if is_agent {
                        self.found(LayoutKind::Agentc, &entry);
                        // An agent's folder is a layout folder: listed aloud.
                        let children = match repository {
                            true => self.list(&entry.path, &entry.rel),
                            false => children,
                        };
                        self.agent(&entry, children);
                    } else if let Some(skill) = children.iter().find(|c| c.is_file("SKILL.md")) {
                        if !self.opts.excludes(Scope::GlobalSkills) {
                            self.found(LayoutKind::Agentc, &entry);
                            self.layout.skills.push(SkillFile {
                                file: skill.file_ref(),
                                folder: entry.name.clone(),
                                owner: Owner::Global,
                                dialect: Dialect::Runbook,
                            });
                        }
                    } else if let Some(manifest) = self.plugin_manifest(&children) {
                        self.plugin(entry.name.clone(), &entry.rel, Some(manifest), &children);
                    } else if !self.plugin_collection(&children)
                        && !repository
                        && !self.was_dropped(&entry, &["AGENT.md", "agent.json", "SKILL.md"])
                    {
                        self.stray(
                            &entry,
                            "a folder at the root is an agent (it holds AGENT.md or agent.json) \
                             or a skill (it holds SKILL.md); this one holds neither",
                        );
                    }
                }
                _ => {}
            }
        }
    }

    /// In the single-skill layout, what would make the root an agents directory
    /// (a system prompt, skills, tools, agents) is not read: say so.
    fn single_skill_rest(&mut self, entries: &[Entry]) {
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
    fn refuse_agent_in_reserved(&mut self, entry: &Entry, children: &[Entry]) {
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
    fn skills_dir(&mut self, children: Vec<Entry>, owner: Owner, dialect: Dialect) {
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

    fn tools_dir(&mut self, children: Vec<Entry>, owner: Owner) {
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

    fn agent(&mut self, entry: &Entry, children: Vec<Entry>) {
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
    fn workspace(&mut self, workspace: &Path, assistants: bool) {
        if assistants {
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

    /// Whether `--layout` lets agentc read `kind` (every layout without it).
    fn reads(&self, kind: LayoutKind) -> bool {
        self.opts.layouts.is_empty() || self.opts.layouts.contains(&kind)
    }

    fn found(&mut self, kind: LayoutKind, entry: &Entry) {
        let folder = entry.rel.as_folder();
        if !self.layout.found.iter().any(|(k, f)| *k == kind && *f == folder) {
            self.layout.found.push((kind, folder));
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
    fn codex_skills(&mut self, workspace: bool) {
        let layout = &mut self.layout;
        let agentc = workspace
            || !self.opts.layouts.is_empty()
            || layout.found.iter().any(|(kind, _)| *kind == LayoutKind::Agentc)
            || !layout.tools.is_empty()
            || layout.system_prompt.is_some();
        if agentc {
            return;
        }
        for skill in &mut layout.skills {
            if skill.owner == Owner::Repo && skill.dialect == Dialect::Runbook {
                skill.dialect = Dialect::CodexSkill;
            }
        }
    }

    /// `.agents/` at the top of a project read without a workspace: its
    /// skills and tools are the repo's, as they are under `--workspace`.
    fn dot_agents(&mut self, dot_agents: &Entry) {
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

    /// `.claude/`: skills, subagents and slash commands. The rest of the
    /// folder (settings, hooks) is Claude Code's own and is not read.
    fn claude(&mut self, claude: &Entry) {
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
            (EntryKind::Dir, "agents") => self.markdown_tree(
                entry,
                Dialect::ClaudeSubagent,
                plugin.as_deref(),
                &mut Vec::new(),
            ),
            (EntryKind::Dir, "commands") => self.markdown_tree(
                entry,
                Dialect::ClaudeCommand,
                plugin.as_deref(),
                &mut Vec::new(),
            ),
            _ => {}
        }
    }

    /// The Markdown files of a folder of assistant agents, nested folders
    /// included down to a fixed depth.
    fn markdown_tree(
        &mut self,
        dir: &Entry,
        dialect: Dialect,
        plugin: Option<&str>,
        folders: &mut Vec<String>,
    ) {
        const MAX_DEPTH: usize = 8;
        let suffix = ".md";
        for entry in self.list(&dir.path, &dir.rel) {
            match entry.kind {
                EntryKind::Dir if folders.len() < MAX_DEPTH => {
                    folders.push(entry.name.clone());
                    self.markdown_tree(&entry, dialect, plugin, folders);
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
                    Some(stem) => self.layout.assistants.push(AssistantFile {
                        file: entry.file_ref(),
                        stem: stem.to_owned(),
                        dialect,
                        plugin: plugin.map(str::to_owned),
                        folders: folders.clone(),
                    }),
                    None if entry.name.starts_with('.') => {}
                    None => self.stray(
                        &entry,
                        format!("each {} is a Markdown file named `<name>{suffix}`", dialect),
                    ),
                },
            }
        }
    }

    /// `.github/`: Copilot skills, custom agents and the older chat modes; the rest of
    /// the folder (workflows, templates) is not agentc's.
    fn github(&mut self, github: &Entry) {
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
    fn plugin_manifest(&mut self, entries: &[Entry]) -> Option<FileRef> {
        if !self.reads(LayoutKind::ClaudePlugins) {
            return None;
        }
        let dir =
            entries.iter().find(|e| e.kind == EntryKind::Dir && e.name == ".claude-plugin")?;
        let inside = self.list(&dir.path, &dir.rel);
        inside.iter().find(|e| e.is_file("plugin.json")).map(Entry::file_ref)
    }

    /// A Claude Code plugin: its manifest and its components.
    fn plugin(
        &mut self,
        name: String,
        folder: &RelPath,
        manifest: Option<FileRef>,
        entries: &[Entry],
    ) {
        self.layout.found.push((LayoutKind::ClaudePlugins, folder.as_folder()));
        for entry in entries {
            self.claude_component(entry, Owner::Plugin(name.clone()));
        }
        self.layout.plugins.push(PluginDir { name, folder: folder.as_folder(), manifest });
    }

    /// A folder of plugins (a marketplace's `plugins/`): read each plugin in
    /// it; returns false when it holds none with a manifest, so the folder is
    /// reported. There the manifest is optional: a folder holding a plugin's
    /// default component folders is a plugin too. Files (a README) are the
    /// folder's own.
    fn plugin_collection(&mut self, children: &[Entry]) -> bool {
        if !self.reads(LayoutKind::ClaudePlugins) {
            return false;
        }
        let mut plugins = Vec::new();
        let mut others = Vec::new();
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
        for (child, inside, manifest) in plugins {
            self.plugin(child.name.clone(), &child.rel, manifest, &inside);
        }
        for other in others.into_iter().filter(|o| !o.name.starts_with('.')) {
            self.stray(
                other,
                "a folder of plugins holds one folder per plugin, each with \
                 .claude-plugin/plugin.json or the component folders agents/, commands/, skills/",
            );
        }
        true
    }

    /// A root that defines nothing is a mistake (the wrong folder, most
    /// often): one error that says what was expected and names a folder below
    /// that holds a layout, instead of a warning for each thing that is there.
    fn refuse_empty_root(&mut self, root: &Path) {
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

    /// Whether a subfolder of `dir` holds the file `name` (a skill's
    /// `SKILL.md`, a tool's `manifest.json`).
    fn holds(&mut self, dir: &Entry, name: &str) -> bool {
        let inside = self.list_quietly(&dir.path, &dir.rel);
        inside.iter().any(|e| e.kind == EntryKind::Dir && self.fs.kind(&e.path.join(name)).is_ok())
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
