//! Discover: walk the layout of the root and workspace and decide what each
//! entry is, without reading any file.
//!
//! The walk follows the layout of CONTRACT §1 to a fixed depth, so it cannot
//! run away; entries are visited in bytewise name order, never in the file
//! system's order. Anything the layout does not explain is reported, and its
//! contents are left alone.
//!
//! What agentc reads of its own layout is in `agentc.rs`, what it reads of
//! the coding assistants' folders in `assistants.rs`; this file holds the
//! walk itself: listing, classifying, following links and reporting.

mod agentc;
mod assistants;
mod companions;
mod declared;
mod empty;

pub use declared::{listed_plugin, plugin_components};

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use agentc_schema::Dialect;
use agentc_schema::names::{NameKind, check_name, suggest_name};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath};
use crate::fs::{Bounds, EntryKind, Fs, Refused, Resolved};
use crate::options::{LayoutKind, Options, Scope};
use crate::repository;

/// A folder's entry names and kinds, sorted bytewise: read once, shared by
/// every walk that passes the folder.
type Names = Arc<[(OsString, EntryKind)]>;

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
    /// A Codex skill folder below the top (`web/.agents/skills`), by the
    /// folder holding `.agents` (`web`): Codex reads it only when working
    /// there, so its names (`web/<name>`) never clash with a sibling's.
    Nested(String),
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
    /// Canonical, like [`FileRef::path`].
    pub path: PathBuf,
    pub manifest: Option<FileRef>,
}

/// What a plugin manifest's component path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    Agents,
    Commands,
    Skills,
}

/// A configuration file a host reads at a fixed place ([`crate::hosts::Declared`]):
/// Claude Code's settings, hooks, MCP servers and marketplace, VS Code's MCP servers.
#[derive(Clone, Debug)]
pub struct ConfigFile {
    pub file: FileRef,
    pub dialect: Dialect,
    /// The folder of the plugin it belongs to, if any.
    pub plugin: Option<RelPath>,
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
    pub configs: Vec<ConfigFile>,
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
            && self.configs.is_empty()
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

struct Walk<'a> {
    fs: &'a dyn Fs,
    opts: &'a Options,
    /// Canonical root and workspace: symlinks may lead anywhere inside them.
    allowed: Bounds,
    /// Entries reported and left out (special files, bad links, folders that
    /// cannot be listed), so nothing is reported a second time as lacking them.
    dropped: HashSet<RelPath>,
    /// Stray entries in the order found, by folder, each with what it says
    /// (none while [`Walk::quiet`]): past [`STRAY_LIMIT`] in a folder, one
    /// summary says how many more there are, so a folder of 200,000
    /// leftovers is one report.
    strays: Vec<(RelPath, Option<Diagnostic>)>,
    /// Whether the root is a repository's top (it holds `.git`, `.claude`,
    /// …): its own folders are not layout folders.
    repository: bool,
    /// While set, what an entry's classification would report (a link out
    /// of the project, a dangling link, a special file) is left unsaid: the
    /// entry is in a folder of the repository that no host reads.
    quiet: bool,
    /// Each folder's names as read: the walk for files hosts read in any
    /// folder (memory files, nested Codex skills) passes folders the
    /// layout's walk lists too, and reads none twice.
    read: HashMap<PathBuf, Names>,
    /// The folders' names read by the walks this one was forked from
    /// ([`Walk::each_apart`]), shared while it runs.
    known: Vec<Arc<HashMap<PathBuf, Names>>>,
    /// Each real file found, to count those found again at another place
    /// through a link; see [`MAX_COPIES`].
    found: HashSet<PathBuf>,
    copies: usize,
    /// The first copy left out, and how many were.
    copies_left_out: Option<(RelPath, usize)>,
    /// In a walk forked by [`Walk::each_apart`]: each real file found, in
    /// order, for the copies to be counted as if walked one after another.
    finds: Option<Vec<PathBuf>>,
    layout: Layout,
}

/// What a top-level entry is read as: decided by the root as a whole.
#[derive(Clone, Copy)]
struct Top {
    /// The root is a plugin: its component folders were read with it.
    plugin: bool,
    /// agentc's own layout is read at the root.
    agentc: bool,
}

/// A folder's names as the walk keeps them: sorted bytewise.
fn sorted(mut names: Vec<(OsString, EntryKind)>) -> Names {
    names.sort_by(|(a, _), (b, _)| a.as_encoded_bytes().cmp(b.as_encoded_bytes()));
    Names::from(names)
}

/// Files found again at another place through links (a folder of subagents
/// linked into each of a marketplace's plugins), read and checked at each
/// place as hosts load them at each. Past this many copies in one run the
/// rest are left out, with one diagnostic: 300 plugins linking one folder
/// of 300 would otherwise be 90,000 subagents from 600 entries.
const MAX_COPIES: usize = 5_000;

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
    let mut walk = Walk::new(fs, opts, (root_canon, workspace_canon), false);
    walk.root(root_canon);
    if let Some(ws) = workspace_canon {
        walk.workspace(ws, ws != root_canon);
    }
    walk.codex_skills(workspace_canon.is_some());
    walk.companions();
    walk.found_by_files();
    walk.summarize_strays();
    walk.layout.dropped = std::mem::take(&mut walk.dropped);
    if walk.layout.defines_nothing() {
        walk.refuse_empty_root(root_canon);
    }
    walk.layout
}

impl<'a> Walk<'a> {
    /// A walk inside the canonical root and workspace; `quiet` leaves unsaid
    /// what classifying an entry would report (see [`Walk::quiet`]).
    fn new(
        fs: &'a dyn Fs,
        opts: &'a Options,
        (root_canon, workspace_canon): (&Path, Option<&Path>),
        quiet: bool,
    ) -> Walk<'a> {
        let allowed =
            Bounds::new([root_canon].into_iter().chain(workspace_canon).map(Path::to_path_buf));
        Walk {
            fs,
            opts,
            allowed,
            dropped: HashSet::new(),
            strays: Vec::new(),
            repository: false,
            quiet,
            read: HashMap::new(),
            known: Vec::new(),
            found: HashSet::new(),
            copies: 0,
            copies_left_out: None,
            finds: None,
            layout: Layout::default(),
        }
    }

    /// A walk of its own for one of the items [`Walk::each_apart`] walks:
    /// starting from what this one knows, finding into its own layout.
    fn fork(&self) -> Walk<'a> {
        Walk {
            fs: self.fs,
            opts: self.opts,
            allowed: self.allowed.clone(),
            dropped: self.dropped.clone(),
            strays: Vec::new(),
            repository: self.repository,
            quiet: self.quiet,
            read: HashMap::new(),
            known: self.known.clone(),
            found: HashSet::new(),
            copies: 0,
            copies_left_out: None,
            finds: Some(Vec::new()),
            layout: Layout::default(),
        }
    }

    /// Walks each of `items` with `visit`, each in a walk of its own and
    /// in parallel, and takes what they found in order, as if walked one
    /// after another: the folders of a collection are independent, and one
    /// thread listing them all was a fifth of a run's time. Should the
    /// copies found between them pass [`MAX_COPIES`], which are left out
    /// depends on the order: they are walked again, one after another.
    fn each_apart<T: Sync>(&mut self, items: &[T], visit: impl Fn(&mut Walk<'a>, &T) + Sync) {
        use rayon::prelude::*;
        if items.len() < 2 {
            return items.iter().for_each(|item| visit(self, item));
        }
        self.known.push(Arc::new(std::mem::take(&mut self.read)));
        let forks: Vec<Walk<'a>> = {
            let this = &*self;
            items
                .par_iter()
                .map(|item| {
                    let mut fork = this.fork();
                    visit(&mut fork, item);
                    fork
                })
                .collect()
        };
        let copies = self.copies_after(&forks);
        if let Some(copies) = copies {
            self.copies = copies;
            forks.into_iter().for_each(|fork| self.merge(fork));
        } else {
            drop(forks);
        }
        let layer = self.known.pop().map(Arc::try_unwrap);
        let mut read = match layer {
            Some(Ok(read)) => read,
            Some(Err(shared)) => (*shared).clone(),
            None => HashMap::new(),
        };
        read.extend(std::mem::take(&mut self.read));
        self.read = read;
        if copies.is_none() {
            items.iter().for_each(|item| visit(self, item));
        }
    }

    /// The copies counted once `forks`' files are found after this walk's,
    /// in order; none when they pass [`MAX_COPIES`]. The files are recorded
    /// as found.
    fn copies_after(&mut self, forks: &[Walk<'_>]) -> Option<usize> {
        let mut copies = self.copies;
        let mut new: HashSet<&Path> = HashSet::new();
        for fork in forks {
            if fork.copies_left_out.is_some() {
                return None;
            }
            for path in fork.finds.iter().flatten() {
                if self.found.contains(path) || !new.insert(path) {
                    copies += 1;
                }
            }
        }
        if copies > MAX_COPIES {
            return None;
        }
        let new: Vec<PathBuf> = new.into_iter().map(Path::to_path_buf).collect();
        self.found.extend(new);
        Some(copies)
    }

    /// Takes in what `fork` found after what this walk found.
    fn merge(&mut self, fork: Walk<'_>) {
        let Layout {
            system_prompt,
            repo_prompt,
            skills,
            tools,
            agents,
            assistants,
            plugins,
            configs,
            found,
            diagnostics,
            dropped,
        } = fork.layout;
        let layout = &mut self.layout;
        layout.system_prompt = system_prompt.or(layout.system_prompt.take());
        layout.repo_prompt = repo_prompt.or(layout.repo_prompt.take());
        layout.skills.extend(skills);
        layout.tools.extend(tools);
        layout.agents.extend(agents);
        layout.assistants.extend(assistants);
        layout.plugins.extend(plugins);
        layout.configs.extend(configs);
        layout.diagnostics.extend(diagnostics);
        layout.dropped.extend(dropped);
        for (kind, at) in found {
            self.found_at(kind, at);
        }
        self.dropped.extend(fork.dropped);
        self.strays.extend(fork.strays);
        self.read.extend(fork.read);
        if let (Some(finds), Some(more)) = (&mut self.finds, fork.finds) {
            finds.extend(more);
        }
    }
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
        if self.quiet {
            self.strays.push((folder, None));
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
        self.strays.push((folder, Some(diagnostic)));
    }

    /// Whether `entry`, a file about to be read, is within the run's bound
    /// on copies ([`MAX_COPIES`]); the first past it is remembered.
    fn within_copies(&mut self, entry: &Entry) -> bool {
        if let Some(finds) = &mut self.finds {
            finds.push(entry.path.clone());
        }
        if self.found.insert(entry.path.clone()) {
            return true;
        }
        self.copies += 1;
        if self.copies <= MAX_COPIES {
            return true;
        }
        let left_out = self.copies_left_out.get_or_insert_with(|| (entry.rel.clone(), 0));
        left_out.1 += 1;
        false
    }

    /// The first [`STRAY_LIMIT`] stray entries of each folder, one warning
    /// for each folder with more, and one for the copies left out past
    /// [`MAX_COPIES`].
    fn summarize_strays(&mut self) {
        let mut counts: HashMap<RelPath, usize> = HashMap::new();
        for (folder, diagnostic) in std::mem::take(&mut self.strays) {
            let count = counts.entry(folder).or_default();
            *count += 1;
            if *count <= STRAY_LIMIT {
                self.layout.diagnostics.extend(diagnostic);
            }
        }
        if let Some((first, count)) = self.copies_left_out.take() {
            self.report(
                Diagnostic::on_path(
                    Code::StrayEntry,
                    &first,
                    format!(
                        "this file and {} more are copies of files already read (reached through \
                         links), past the {MAX_COPIES} copies agentc reads in one run; they are \
                         not read",
                        count - 1
                    ),
                )
                .with_help(
                    "link fewer folders to one another, or check the folders they share once; \
                     the files themselves were read where first found",
                ),
            );
        }
        let mut crowded: Vec<(RelPath, usize)> =
            counts.into_iter().filter(|(_, count)| *count > STRAY_LIMIT).collect();
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
        names.iter().filter_map(|(name, kind)| self.entry(dir, rel, name, *kind)).collect()
    }

    /// Reads the names of the folders among `entries` not read yet, in
    /// parallel, for the walk to find them read: listing 10,000 skill folders
    /// one after another was a sixth of a check's time, on one thread. A
    /// folder that cannot be read is left to [`Walk::names`] to report.
    pub(super) fn read_ahead(&mut self, entries: &[Entry]) {
        let dirs = entries.iter().filter(|e| e.kind == EntryKind::Dir).map(|e| e.path.as_path());
        self.read_ahead_dirs(dirs);
    }

    /// [`Walk::read_ahead`] of the folders `dirs`.
    pub(super) fn read_ahead_dirs<'p>(&mut self, dirs: impl Iterator<Item = &'p Path>) {
        use rayon::prelude::*;
        let fs = self.fs;
        let unread: Vec<&Path> = dirs.filter(|dir| self.listed(dir).is_none()).collect();
        if unread.len() < 2 {
            return;
        }
        let read: Vec<(&Path, Names)> = unread
            .into_par_iter()
            .filter_map(|dir| Some((dir, sorted(fs.read_dir(dir).ok()?))))
            .collect();
        self.read.reserve(read.len());
        for (dir, names) in read {
            self.read.insert(dir.to_path_buf(), names);
        }
    }

    /// The subfolders named `names` of the folders among `entries` already
    /// read ahead.
    pub(super) fn read_subfolders(&self, entries: &[Entry], names: &[&str]) -> Vec<PathBuf> {
        let read = entries.iter().filter_map(|e| Some((e, self.listed(&e.path)?)));
        read.flat_map(|(entry, inside)| {
            let named = inside.iter().filter(|(name, kind)| {
                *kind == EntryKind::Dir && name.to_str().is_some_and(|n| names.contains(&n))
            });
            named.map(|(name, _)| entry.path.join(name))
        })
        .collect()
    }

    /// The names of `dir`, when this walk or one it was forked from read them.
    fn listed(&self, dir: &Path) -> Option<&Names> {
        let mut layers = std::iter::once(&self.read).chain(self.known.iter().map(|k| &**k));
        layers.find_map(|read| read.get(dir))
    }

    /// A folder's entry names and kinds, sorted bytewise; none (reported)
    /// when it cannot be read.
    fn names(&mut self, dir: &Path, rel: &RelPath) -> Names {
        if let Some(names) = self.listed(dir) {
            return Arc::clone(names);
        }
        let names = match self.fs.read_dir(dir) {
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
                return Names::default();
            }
        };
        let names = sorted(names);
        self.read.insert(dir.to_path_buf(), Arc::clone(&names));
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
        let project_file = names.iter().any(|(name, _)| name == agentc_schema::PROJECT_FILE);
        let mut entries = Vec::new();
        for (name, kind) in names.iter() {
            let layout = name.to_str().is_some_and(|name| LAYOUT_NAMES.contains(&name));
            self.quiet = self.repository && !layout;
            entries.extend(self.entry(root, &rel, name, *kind));
        }
        self.quiet = false;
        // At a repository's top agentc's own layout is read where its project
        // file is or its own files are (a system prompt, an agent, a tool
        // descriptor): a top-level `skills/` alone is a collection of Agent
        // Skills for the assistants' installers (anthropics/skills).
        let own = !self.repository
            || self.opts.workspace.is_some()
            || project_file
            || self.holds_agentc_files(&entries);
        let agentc = own && self.reads(LayoutKind::Agentc);
        let dialect = if agentc { Dialect::Runbook } else { Dialect::AgentSkill };
        // A repository whose top is a Claude Code plugin is read as one, as
        // Claude Code reads it: a SKILL.md beside the manifest is the skill
        // installers' entry, not the layout of the whole repository.
        let plugin_at_top = self.repository && self.plugin_manifest(&entries).is_some();
        if let Some(skill) = entries
            .iter()
            .find(|e| e.is_file("SKILL.md"))
            .filter(|_| !plugin_at_top && (agentc || self.reads(LayoutKind::AgentSkills)))
        {
            // The single-skill layout: the root is one skill, and the rest of it is
            // that skill's resources, which agentc does not read.
            if !self.opts.excludes(Scope::GlobalSkills) {
                let folder =
                    root.file_name().and_then(OsStr::to_str).unwrap_or_default().to_owned();
                self.layout.skills.push(SkillFile {
                    file: skill.file_ref(),
                    folder,
                    owner: Owner::Global,
                    dialect,
                });
            }
            if agentc {
                self.single_skill_rest(&entries);
            }
            return;
        }
        if self.repository {
            let files = self.project_files();
            self.declared(root, &rel, files.into_iter(), None);
        }
        let root_plugin = self.plugin_manifest(&entries);
        let top_plugin =
            root_plugin.is_some() || (self.repository && self.marketplace_lists_top(&entries));
        if top_plugin {
            let name = root.file_name().and_then(OsStr::to_str).unwrap_or("plugin").to_owned();
            self.plugin(name, (root, &rel), root_plugin.clone(), &entries);
        }
        let top = Top { plugin: top_plugin, agentc };
        self.each_apart(&entries, |walk, entry| walk.top_entry(entry, top));
    }

    /// One entry of the root's, as the root as a whole is read (`top`).
    fn top_entry(&mut self, entry: &Entry, top: Top) {
        let repository = self.repository;
        match (entry.kind, entry.name.as_str()) {
            (EntryKind::Dir, "skills" | "agents" | "commands") if top.plugin => {}
            (EntryKind::Dir, ".claude") if self.reads(LayoutKind::Claude) => {
                self.found(LayoutKind::Claude, entry);
                self.claude(entry);
            }
            (EntryKind::Dir, ".github") if self.reads(LayoutKind::Copilot) => {
                self.github(entry);
            }
            (EntryKind::Dir, ".agents")
                if self.opts.workspace.is_none() && self.reads(LayoutKind::AgentSkills) =>
            {
                self.dot_agents(entry);
            }
            // Hidden folders and files belong to other tools (`.git`, `.vscode`).
            (_, name) if name.starts_with('.') => {}
            // At a repository's top, `skills/` and `tools/` are a
            // layout's only when they hold a skill or a tool descriptor.
            (EntryKind::Dir, "skills") if repository && !self.holds(entry, "SKILL.md") => {}
            (EntryKind::Dir, "skills") if !top.agentc && self.reads(LayoutKind::AgentSkills) => {
                self.found(LayoutKind::AgentSkills, entry);
                let children = self.list(&entry.path, &entry.rel);
                self.skills_dir(children, Owner::Global, Dialect::AgentSkill);
            }
            // Plugins are found without agentc's layout (`--layout`
            // narrows; a repository's top without agentc's project file).
            (EntryKind::Dir, _) if !top.agentc => {
                let children = self.list_quietly(&entry.path, &entry.rel);
                match self.plugin_manifest(&children) {
                    Some(manifest) => self.plugin(
                        entry.name.clone(),
                        (&entry.path, &entry.rel),
                        Some(manifest),
                        &children,
                    ),
                    None => match children.iter().find(|c| c.is_file("SKILL.md")) {
                        // A skill folder at the top of a collection.
                        Some(skill) if repository && self.reads(LayoutKind::AgentSkills) => {
                            if !self.opts.excludes(Scope::GlobalSkills) {
                                self.found(LayoutKind::AgentSkills, entry);
                                self.layout.skills.push(SkillFile {
                                    file: skill.file_ref(),
                                    folder: entry.name.clone(),
                                    owner: Owner::Global,
                                    dialect: Dialect::AgentSkill,
                                });
                            }
                        }
                        _ => drop(self.plugin_collection(&children)),
                    },
                }
            }
            _ if !top.agentc => {}
            (EntryKind::File, "SYSTEM.md") if self.opts.excludes(Scope::SystemPrompt) => {}
            (EntryKind::File, "SYSTEM.md") => self.layout.system_prompt = Some(entry.file_ref()),
            (EntryKind::File, _) if repository => {}
            (EntryKind::File, _) => self.stray(
                entry,
                "at the root agentc reads SYSTEM.md, and SKILL.md when the root is one skill",
            ),
            (EntryKind::Dir, "tools") if repository && !self.holds(entry, "manifest.json") => {}
            (EntryKind::Dir, "skills") => {
                let children = self.list(&entry.path, &entry.rel);
                self.refuse_agent_in_reserved(entry, &children);
                if !self.opts.excludes(Scope::GlobalSkills) {
                    self.found(LayoutKind::Agentc, entry);
                    self.skills_dir(children, Owner::Global, Dialect::Runbook);
                }
            }
            (EntryKind::Dir, "tools") => {
                let children = self.list(&entry.path, &entry.rel);
                self.refuse_agent_in_reserved(entry, &children);
                if !self.opts.excludes(Scope::GlobalTools) {
                    self.tools_dir(children, Owner::Global);
                }
            }
            (EntryKind::Dir, _) => {
                let children = self.list_quietly(&entry.path, &entry.rel);
                let is_agent =
                    children.iter().any(|c| c.is_file("AGENT.md") || c.is_file("agent.json"));
                if is_agent {
                    self.found(LayoutKind::Agentc, entry);
                    // An agent's folder is a layout folder: listed aloud.
                    let children = match repository {
                        true => self.list(&entry.path, &entry.rel),
                        false => children,
                    };
                    self.agent(entry, children);
                } else if let Some(skill) = children.iter().find(|c| c.is_file("SKILL.md")) {
                    if !self.opts.excludes(Scope::GlobalSkills) {
                        self.found(LayoutKind::Agentc, entry);
                        self.layout.skills.push(SkillFile {
                            file: skill.file_ref(),
                            folder: entry.name.clone(),
                            owner: Owner::Global,
                            dialect: Dialect::Runbook,
                        });
                    }
                } else if let Some(manifest) = self.plugin_manifest(&children) {
                    self.plugin(
                        entry.name.clone(),
                        (&entry.path, &entry.rel),
                        Some(manifest),
                        &children,
                    );
                } else if !self.plugin_collection(&children)
                    && !repository
                    && !self.was_dropped(entry, &["AGENT.md", "agent.json", "SKILL.md"])
                {
                    self.stray(
                        entry,
                        "a folder at the root is an agent (it holds AGENT.md or agent.json) \
                         or a skill (it holds SKILL.md); this one holds neither",
                    );
                }
            }
            _ => {}
        }
    }

    /// Whether `--layout` lets agentc read `kind` (every layout without it).
    fn reads(&self, kind: LayoutKind) -> bool {
        self.opts.layouts.is_empty() || self.opts.layouts.contains(&kind)
    }

    /// The hosts' files at fixed places of the layouts read.
    fn project_files(&self) -> Vec<&'static crate::hosts::Declared> {
        (crate::hosts::project_files())
            .filter(|(layout, _)| self.reads(*layout))
            .map(|(_, file)| file)
            .collect()
    }

    /// The layouts of the files the hosts read at fixed places (a Cursor
    /// rule, Copilot's instructions, AGENTS.md), each at the first folder of
    /// its path, or the file itself at the top: `--verbose` names what was
    /// read, by host.
    fn found_by_files(&mut self) {
        let mut found = Vec::new();
        for config in self.layout.configs.iter().filter(|c| c.plugin.is_none()) {
            let layout = crate::hosts::project_files()
                .find(|(_, declared)| declared.dialect == config.dialect)
                .map(|(layout, _)| layout);
            let Some(layout) = layout else { continue };
            let rel = &config.file.rel;
            let at = match rel.path.split_once('/') {
                Some((first, _)) => {
                    RelPath { origin: rel.origin, path: format!("{first}/").into() }
                }
                None => rel.clone(),
            };
            found.push((layout, at));
        }
        for (layout, at) in found {
            self.found_at(layout, at);
        }
    }

    fn found(&mut self, kind: LayoutKind, entry: &Entry) {
        self.found_at(kind, entry.rel.as_folder());
    }

    /// Records `kind` found at `at`, once.
    fn found_at(&mut self, kind: LayoutKind, at: RelPath) {
        if !self.layout.found.iter().any(|(k, f)| *k == kind && *f == at) {
            self.layout.found.push((kind, at));
        }
    }

    /// Whether the top's `entries` hold agentc's own files: `SYSTEM.md`, a
    /// folder holding `agent.json` or an `AGENT.md` that opens with
    /// frontmatter (a `docs/AGENT.md` of prose is documentation), or
    /// `tools/` holding a tool descriptor.
    fn holds_agentc_files(&mut self, entries: &[Entry]) -> bool {
        entries.iter().any(|entry| match (entry.kind, entry.name.as_str()) {
            (EntryKind::File, "SYSTEM.md") => true,
            (EntryKind::Dir, "tools") => self.holds(entry, "manifest.json"),
            (EntryKind::Dir, name) if !name.starts_with('.') => {
                let inside = self.list_quietly(&entry.path, &entry.rel);
                inside.iter().any(|c| {
                    c.is_file("agent.json") || (c.is_file("AGENT.md") && self.opens_frontmatter(c))
                })
            }
            _ => false,
        })
    }

    /// Whether the file `entry` opens with a `---` line.
    fn opens_frontmatter(&self, entry: &Entry) -> bool {
        match self.fs.read(&entry.path, self.opts.max_file_size) {
            Ok(crate::fs::ReadOutcome::Bytes(bytes)) => {
                let text = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
                text.starts_with(b"---\n") || text.starts_with(b"---\r\n")
            }
            _ => false,
        }
    }

    /// Whether a subfolder of `dir` holds the file `name` (a skill's
    /// `SKILL.md`, a tool's `manifest.json`).
    fn holds(&mut self, dir: &Entry, name: &str) -> bool {
        let inside = self.list_quietly(&dir.path, &dir.rel);
        inside.iter().any(|e| e.kind == EntryKind::Dir && self.fs.kind(&e.path.join(name)).is_ok())
    }
}
