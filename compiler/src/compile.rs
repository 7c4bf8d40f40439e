//! The pipeline: discover → read → parse → check, over one agents directory.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use agentc_schema::agent::{REQUIRED_ENTRY_POINTS, is_entry_point_name};
use agentc_schema::{Dialect, Span};
use rayon::prelude::*;

use crate::catalog::Code;
use crate::diagnostic::{self, Diagnostic, RelPath, Severity};
use crate::dialects::{self, AssistantDoc};
use crate::discover::{self, AgentDir, AgentFile, FileRef, Layout, Owner, SkillFile};
use crate::fs::{EntryKind, Fs};
use crate::model::Model;
use crate::options::{ContentRules, LayoutKind, Options, Scope};
use crate::parse::files::{self, Markdown, key_span};
use crate::project::{Agent, AgentKind, Assistant, Plugin, Project, Skill, Tool};
use crate::read::{ReadFailure, ReadResult, read_all, read_one};
use crate::source::Source;
use crate::{check, resolve};

/// What a compile produced.
#[derive(Debug, Default)]
pub struct Compilation {
    /// Every problem, in report order.
    pub diagnostics: Vec<Diagnostic>,
    /// The text of every file a diagnostic may point into.
    pub sources: BTreeMap<RelPath, Source>,
    /// The registry's text, when it was read: apart from `sources`, which
    /// hold the project's own files (the lockfile digests them, the checks
    /// scan them), since the registry is the host's.
    pub registry_source: Option<Source>,
    /// The project file's text, when the compile was made from one that
    /// checked clean (one with errors is among `sources`): set by whoever
    /// read it, as the compile itself is given options.
    pub project_source: Option<Source>,
    /// Where that file is on disk, as it was found.
    pub project_path: Option<PathBuf>,
    /// Where each file the compile read (or tried to) is on disk, canonical:
    /// the registry as given, the rest as discovery checked them. An output
    /// must never replace one of them.
    pub inputs: BTreeMap<RelPath, PathBuf>,
    pub project: Project,
    /// The resolved model (complete only when there are no errors).
    pub model: Model,
    /// The scope tables and every reference to a skill or tool.
    pub names: resolve::Names,
    /// The layouts discovery found, with the folder of each.
    pub layouts: Vec<(LayoutKind, RelPath)>,
    /// The root and workspace as compiled (canonical paths).
    pub root: PathBuf,
    pub workspace: Option<PathBuf>,
    /// What [`Compilation::update_file`] needs (absent when the compile
    /// did not get as far as the project).
    pub(crate) kept: Option<crate::kept::Kept>,
}

impl Compilation {
    /// What masks the secrets found in the project's files in anything shown
    /// or written from it ([`crate::secrets::Redactor`]).
    pub fn redactor(&self) -> crate::secrets::Redactor {
        crate::secrets::Redactor::new(self.sources.values())
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == diagnostic::Severity::Error)
    }

    /// The text of `file`: one of the project's, or the registry.
    pub fn source(&self, file: &RelPath) -> Option<&Source> {
        let registry = || self.registry_source.as_ref().filter(|source| &source.path == file);
        let project = || self.project_source.as_ref().filter(|source| &source.path == file);
        self.sources.get(file).or_else(registry).or_else(project)
    }

    /// Every text the compile read: the project's files, then the registry
    /// and the project file.
    pub fn texts(&self) -> impl Iterator<Item = &Source> {
        self.sources.values().chain(&self.registry_source).chain(&self.project_source)
    }

    /// Where `file` is on disk: as read, else under the root or workspace;
    /// a file shown as given is relative to where agentc runs.
    pub fn disk_path(&self, file: &RelPath) -> Option<PathBuf> {
        if let Some(path) = self.inputs.get(file) {
            return Some(path.clone());
        }
        let path = file.path.trim_end_matches('/');
        match file.origin {
            diagnostic::Origin::Root => Some(self.root.join(path)),
            diagnostic::Origin::Workspace => self.workspace.as_ref().map(|ws| ws.join(path)),
            diagnostic::Origin::Given => {
                let given = Path::new(path);
                if crate::fs::is_absolute(given) {
                    Some(given.to_path_buf())
                } else {
                    std::env::current_dir().ok().map(|cwd| cwd.join(given))
                }
            }
        }
    }
}

/// Why a compile could not start (exit code 2).
#[derive(Debug)]
pub enum SetupError {
    NotLocal(String),
    Missing {
        what: &'static str,
        path: PathBuf,
    },
    NotADirectory {
        what: &'static str,
        path: PathBuf,
    },
    Unreadable {
        what: &'static str,
        path: PathBuf,
        error: std::io::Error,
    },
    /// The registry file has problems; they are rendered like any others.
    Registry(Box<Compilation>),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::NotLocal(given) => write!(
                f,
                "`{given}` is not a local directory; agentc reads only a directory on this machine, \
                 never a URL or a network share"
            ),
            SetupError::Missing { what, path } => {
                write!(f, "the {what} `{}` does not exist", path.display())
            }
            SetupError::NotADirectory { what, path } => {
                write!(f, "the {what} `{}` is not a directory", path.display())
            }
            SetupError::Unreadable { what, path, error } => {
                write!(f, "the {what} `{}` cannot be read: {error}", path.display())
            }
            SetupError::Registry(_) => f.write_str("the registry file has errors"),
        }
    }
}

impl std::error::Error for SetupError {}

fn check_dir(fs: &dyn Fs, what: &'static str, path: &Path) -> Result<PathBuf, SetupError> {
    if crate::fs::is_remote(&path.to_string_lossy()) {
        return Err(SetupError::NotLocal(path.display().to_string()));
    }
    match fs.kind_followed(path) {
        Ok(EntryKind::Dir) => {}
        Ok(_) => {
            return Err(SetupError::NotADirectory { what, path: path.to_path_buf() });
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Err(SetupError::Missing { what, path: path.to_path_buf() });
        }
        Err(error) => {
            return Err(SetupError::Unreadable { what, path: path.to_path_buf(), error });
        }
    }
    fs.canonicalize(path).map_err(|error| SetupError::Unreadable {
        what,
        path: path.to_path_buf(),
        error,
    })
}

/// What a compile keeps for the next compile of the same project: each
/// file's source (by its bytes) and each skill's parse (by its source). The
/// language server compiles on every keystroke; with the memo, only the
/// files that changed are decoded and parsed again. The result is the same
/// as without it.
#[derive(Debug, Default)]
pub struct Memo {
    sources: crate::read::SourceMemo,
    skills: Mutex<HashMap<RelPath, KeptSkill>>,
}

/// A skill's parse, and what it was parsed from.
#[derive(Debug)]
struct KeptSkill {
    text: Arc<str>,
    folder: String,
    dialect: Dialect,
    parsed: Option<Arc<Markdown<agentc_schema::SkillFrontmatter>>>,
    diagnostics: Vec<Diagnostic>,
}

impl Memo {
    pub(crate) fn sources(&self) -> &crate::read::SourceMemo {
        &self.sources
    }

    /// The parse of `file` from `source`, as kept or made now.
    pub(crate) fn skill(
        &self,
        file: &SkillFile,
        source: &Source,
    ) -> (Option<Arc<Markdown<agentc_schema::SkillFrontmatter>>>, Vec<Diagnostic>) {
        if let Ok(kept) = self.skills.lock()
            && let Some(kept) = kept.get(&file.file.rel)
            && Arc::ptr_eq(&kept.text, &source.text)
            && kept.folder == file.folder
            && kept.dialect == file.dialect
        {
            return (kept.parsed.clone(), kept.diagnostics.clone());
        }
        let (parsed, diagnostics) = parse_skill(file, source);
        if let Ok(mut kept) = self.skills.lock() {
            let entry = KeptSkill {
                text: source.text.clone(),
                folder: file.folder.clone(),
                dialect: file.dialect,
                parsed: parsed.clone(),
                diagnostics: diagnostics.clone(),
            };
            kept.insert(file.file.rel.clone(), entry);
        }
        (parsed, diagnostics)
    }

    /// Forgets files that are no longer read.
    fn retain(&self, sources: &BTreeMap<RelPath, Source>) {
        self.sources.retain(|rel| sources.contains_key(rel));
        if let Ok(mut kept) = self.skills.lock() {
            kept.retain(|rel, _| sources.contains_key(rel));
        }
    }
}

/// A skill file's parse, and its problems with the secrets committed in it.
fn parse_skill(
    file: &SkillFile,
    source: &Source,
) -> (Option<Arc<Markdown<agentc_schema::SkillFrontmatter>>>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let plugin = matches!(file.owner, crate::discover::Owner::Plugin(_));
    let parsed =
        crate::dialects::skill::skill(source, &file.folder, file.dialect, plugin, &mut diagnostics)
            .map(|mut parsed| {
                // The file's own checks are done: what reports on a key
                // later builds the tree again.
                parsed.front.tree.release();
                Arc::new(parsed)
            });
    diagnostics.extend(crate::secrets::diagnostics(source));
    (parsed, diagnostics)
}

/// Compiles the agents directory `opts.root`.
pub fn compile(fs: &dyn Fs, opts: &Options) -> Result<Compilation, SetupError> {
    compile_with(fs, opts, None)
}

/// [`compile`], keeping what it can for the next compile in `memo`.
pub fn compile_with(
    fs: &dyn Fs,
    opts: &Options,
    memo: Option<&Memo>,
) -> Result<Compilation, SetupError> {
    let root = check_dir(fs, "agents directory", &opts.root)?;
    let workspace =
        opts.workspace.as_deref().map(|ws| check_dir(fs, "workspace", ws)).transpose()?;
    // The registry is read and parsed, and gitleaks' rules loaded, while the
    // folders are walked: each is part of a compile's serial start (5,000
    // tools' YAML, 10,000 folders, the rules' 4 ms that every thread reading
    // files would otherwise wait for).
    let ((registry, ()), layout) = rayon::join(
        || {
            rayon::join(
                || {
                    let registry = opts.registry.as_deref();
                    let rules = opts.content_rules();
                    registry.map(|path| load_registry(fs, path, opts.max_file_size, rules))
                },
                || {
                    if opts.content_rules().secret {
                        crate::secrets::load();
                    }
                },
            )
        },
        || discover::discover(fs, opts, &root, workspace.as_deref()),
    );
    let registry = registry.transpose()?;
    let layouts = layout.found.clone();
    let mut out = Output { memo, rules: opts.content_rules(), ..Output::default() };
    let mut project = build(fs, opts, (&root, workspace.as_deref()), layout, &mut out);
    let registry_file = opts.registry.as_deref().map(registry_path);
    let mut registry_source = None;
    if let (Some((registry, source, path)), Some(rel)) = (registry, &registry_file) {
        project.registry = Some(registry);
        project.registry_sha256 = Some(source.sha256().to_owned());
        registry_source = Some(source);
        out.inputs.insert(rel.clone(), path);
    }
    let Output {
        diagnostics: mut rest,
        mut sources,
        mut inputs,
        mut skill_parses,
        skill_order,
        file_parses: mut files,
        ..
    } = out;
    if let Some(memo) = memo {
        memo.retain(&sources);
    }
    // A skill's secrets are its parse's problems (an edit redoes them);
    // every other file's are with the rest.
    for source in sources.values().filter(|s| !skill_parses.contains_key(&s.path)) {
        let found = crate::secrets::diagnostics(source);
        match files.get_mut(&source.path) {
            Some(list) => list.extend(found),
            None => rest.extend(found),
        }
    }
    let resolve::Resolution { model, names, shares } =
        resolve::resolve(&project, opts, registry_file.as_ref());
    let checked = check::check(&project, &model, &names);
    let trees = check::links::Trees::new(&root, workspace.as_deref());
    let bundling = check::bundled::Bundling {
        max_size: opts.max_file_size.min(check::bundled::MAX_BYTES),
        rules: opts.content_rules(),
        is_input: &|rel| inputs.contains_key(rel),
    };
    let (skill_links, other_links) = check::links::check(fs, &trees, &project, &bundling);
    for link in other_links {
        match files.get_mut(&link.location.file) {
            Some(list) => list.push(link),
            None => rest.push(link),
        }
    }
    let configs = check::config::check(fs, &trees, &project);
    rest.retain(|d| {
        d.code != Code::StrayEntry
            || !configs.listed.iter().any(|folder| {
                d.location.file.origin == folder.origin
                    && d.location.file.path.trim_end_matches('/')
                        == folder.path.trim_end_matches('/')
            })
    });

    // Every diagnostic by what made it, so an edit redoes only what it changes.
    // The files skills bundle are read for their links alone: shown like any
    // file, and never an output's place, but not scanned like the inputs.
    let mut read_for_links = Vec::new();
    let parts = shares.skills.into_iter().zip(checked.skills).zip(skill_links);
    let skills = (project.skills.iter().zip(parts))
        .map(|(skill, ((resolved, checks), links))| {
            let bundled = links.bundled.iter().map(|(source, _)| source.path.clone()).collect();
            read_for_links.extend(links.bundled);
            crate::kept::SkillPart {
                parse: skill_parses.remove(&skill.source.path).unwrap_or_default(),
                resolved,
                checks,
                links: links.diagnostics,
                bundled,
            }
        })
        .collect();
    let mut kept = crate::kept::Kept {
        options: opts.clone(),
        order: skill_order,
        skills,
        // What is left are the problems of the skills that did not parse
        // (most often none: the room the parsed ones took is given back).
        unparsed: {
            skill_parses.shrink_to_fit();
            skill_parses
        },
        skill_table: shares.skill_table,
        tool_table: shares.tool_table,
        agents: shares.agents.into_iter().zip(checked.agents).collect(),
        assistants: shares.assistants,
        configs: configs.diagnostics,
        files,
        rest,
        hidden: crate::kept::Kept::scan_all(&sources),
        bundled: HashMap::new(),
        unresolved: false,
    };
    for (source, path) in read_for_links {
        *kept.bundled.entry(source.path.clone()).or_default() += 1;
        inputs.insert(source.path.clone(), path);
        sources.insert(source.path.clone(), source);
    }
    let mut diagnostics = kept.diagnostics();
    let read = sources.keys().chain(inputs.keys());
    kept.options.add_unmatched_overrides(&mut diagnostics, read);
    crate::secrets::redact(&mut diagnostics, sources.values());
    Ok(Compilation {
        diagnostics,
        sources,
        registry_source,
        // Its `[[overrides]]` globs that match nothing are shown in it.
        project_source: opts.overrides.as_ref().map(|o| o.source.clone()),
        project_path: None,
        inputs,
        project,
        model,
        names,
        layouts,
        root,
        workspace,
        kept: Some(kept),
    })
}

/// How the registry file is shown: as the user gave it.
fn registry_path(path: &Path) -> RelPath {
    RelPath::given(crate::emit::relative_to_cwd(path))
}

/// Reads the registry; returns it with its source and its canonical path.
pub(crate) fn load_registry(
    fs: &dyn Fs,
    path: &Path,
    max_size: u64,
    rules: ContentRules,
) -> Result<(agentc_schema::Registry, Source, PathBuf), SetupError> {
    if crate::fs::is_remote(&path.to_string_lossy()) {
        return Err(SetupError::NotLocal(path.display().to_string()));
    }
    let what = "registry file";
    match fs.kind_followed(path) {
        Ok(EntryKind::File) => {}
        Ok(_) => {
            return Err(SetupError::Unreadable {
                what,
                path: path.into(),
                error: std::io::Error::other("not a regular file"),
            });
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Err(SetupError::Missing { what, path: path.into() });
        }
        Err(error) => {
            return Err(SetupError::Unreadable { what, path: path.into(), error });
        }
    }
    // The user named this file, links and all: they are resolved here, and
    // the read follows none.
    let canonical = fs.canonicalize(path).map_err(|error| SetupError::Unreadable {
        what,
        path: path.into(),
        error,
    })?;
    let file = FileRef { rel: registry_path(path), path: canonical.clone() };
    let mut out = Output::default();
    // Bounded like every input, so a huge or sparse file is a clear error.
    let source = out.take(read_one(fs, &file, max_size, rules));
    let registry = source.and_then(|source| {
        let mut diagnostics = Vec::new();
        let registry = files::registry(&source, &mut diagnostics);
        out.diagnostics.extend(diagnostics);
        registry.map(|registry| (registry, source))
    });
    match registry {
        Some((registry, source)) if out.diagnostics.is_empty() => Ok((registry, source, canonical)),
        _ => {
            let Output { mut diagnostics, sources, .. } = out;
            diagnostic::sort(&mut diagnostics);
            Err(SetupError::Registry(Box::new(Compilation {
                diagnostics,
                sources,
                inputs: BTreeMap::from([(file.rel, canonical)]),
                ..Compilation::default()
            })))
        }
    }
}

#[derive(Default)]
struct Output<'m> {
    diagnostics: Vec<Diagnostic>,
    /// The parse problems of each skill file read, apart from the rest.
    skill_parses: HashMap<RelPath, Vec<Diagnostic>>,
    /// Each skill file's place in discovery order.
    skill_order: HashMap<RelPath, usize>,
    /// The parse problems of each agent and assistant file read, apart from
    /// the rest: with its secrets and links, what an edit to it redoes.
    file_parses: HashMap<RelPath, Vec<Diagnostic>>,
    sources: BTreeMap<RelPath, Source>,
    inputs: BTreeMap<RelPath, PathBuf>,
    memo: Option<&'m Memo>,
    /// The content rules the compile runs.
    rules: ContentRules,
}

impl Output<'_> {
    /// Reads `files` in parallel, noting where each is on disk.
    fn read(&mut self, fs: &dyn Fs, files: &[FileRef], max_size: u64) -> Vec<ReadResult> {
        self.inputs.extend(files.iter().map(|f| (f.rel.clone(), f.path.clone())));
        read_all(fs, files, max_size, self.rules, self.memo.map(|m| &m.sources))
    }

    /// Keeps a read file's source, or its diagnostic.
    fn take(&mut self, result: ReadResult) -> Option<Source> {
        match result {
            Ok(source) => {
                self.sources.insert(source.path.clone(), source.clone());
                Some(source)
            }
            Err(failure) => {
                let ReadFailure { diagnostic, lossy } = *failure;
                if let Some(lossy) = lossy {
                    self.sources.insert(lossy.path.clone(), lossy);
                }
                self.diagnostics.push(diagnostic);
                None
            }
        }
    }
}

pub(crate) fn agent_file(agent: &AgentDir) -> &FileRef {
    match &agent.file {
        AgentFile::Bundle(file) | AgentFile::Package(file) => file,
    }
}

/// An agent's file, parsed as its kind; a package's own files are read
/// later ([`read_package_files`]).
pub(crate) fn parse_agent(
    dir: &AgentDir,
    source: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<AgentKind> {
    // The file's own checks are done with each tree: what reports on a key
    // later builds it again.
    match &dir.file {
        AgentFile::Bundle(_) => files::agent_md(source, &dir.id, diags).map(|mut md| {
            md.front.tree.release();
            AgentKind::Bundle(Box::new(md))
        }),
        AgentFile::Package(_) => {
            files::agent_json(source, diags).map(|mut manifest| AgentKind::Package {
                manifest: {
                    manifest.tree.release();
                    Box::new(manifest)
                },
                entry_points: Vec::new(),
                workflows: Vec::new(),
                knowledge: Vec::new(),
            })
        }
    }
}

/// A coding assistant's agent file, parsed as its dialect.
pub(crate) fn parse_assistant(
    file: &crate::discover::AssistantFile,
    source: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<AssistantDoc> {
    let mut doc = match file.dialect {
        Dialect::ClaudeSubagent => {
            let plugin = file.plugin.is_some();
            dialects::subagent(source, plugin, diags).map(AssistantDoc::Subagent)
        }
        Dialect::ClaudeCommand => dialects::command(source, diags).map(AssistantDoc::Command),
        _ => dialects::copilot_agent(source, diags).map(AssistantDoc::Copilot),
    };
    // The file's own checks are done: what reports on a key later builds
    // the tree again.
    if let Some(doc) = &mut doc {
        doc.release_tree();
    }
    doc
}

fn build(
    fs: &dyn Fs,
    opts: &Options,
    trees: (&Path, Option<&Path>),
    layout: Layout,
    out: &mut Output<'_>,
) -> Project {
    let Layout {
        system_prompt,
        repo_prompt,
        mut skills,
        tools,
        agents,
        mut assistants,
        mut plugins,
        mut configs,
        found: _,
        diagnostics,
        dropped,
    } = layout;
    out.diagnostics.extend(diagnostics);
    let max = opts.max_file_size;

    // Marketplaces first: a plugin one lists by a folder discovery did not
    // find (no manifest, not in a folder of plugins) is read as Claude Code
    // reads it.
    let mut listed = discover::Layout::default();
    let marketplaces: Vec<&discover::ConfigFile> =
        configs.iter().filter(|c| c.dialect == Dialect::ClaudeMarketplace).collect();
    // Each marketplace read and its plugins' folders walked in parallel;
    // taken in order, a plugin two of them list is the first one's.
    let prepared: Vec<(ReadResult, Vec<ListedPlugin>)> = marketplaces
        .par_iter()
        .map(|marketplace| {
            let read = read_one(fs, &marketplace.file, max, opts.content_rules());
            let plugins = match &read {
                Ok(source) => listed_plugins(fs, opts, trees, marketplace, source, &plugins),
                Err(_) => Vec::new(),
            };
            (read, plugins)
        })
        .collect();
    for (read, plugins) in prepared {
        if out.take(read).is_none() {
            continue;
        }
        for ListedPlugin { folder, layout } in plugins {
            if listed.plugins.iter().any(|p| p.folder == folder) {
                continue;
            }
            if let Some(plugin) = layout {
                listed.skills.extend(plugin.skills);
                listed.assistants.extend(plugin.assistants);
                listed.configs.extend(plugin.configs);
                listed.plugins.extend(plugin.plugins);
            }
        }
    }
    let known: HashSet<PathBuf> = (skills.iter().map(|s| s.file.path.clone()))
        .chain(assistants.iter().map(|a| a.file.path.clone()))
        .chain(configs.iter().map(|c| c.file.path.clone()))
        .collect();
    skills.extend(listed.skills.into_iter().filter(|s| !known.contains(&s.file.path)));
    assistants.extend(listed.assistants.into_iter().filter(|a| !known.contains(&a.file.path)));
    configs.extend(listed.configs.into_iter().filter(|c| !known.contains(&c.file.path)));
    plugins.extend(listed.plugins);

    // Plugin manifests first: the components they name by path are read
    // with everything else.
    let manifests: Vec<FileRef> = plugins.iter().filter_map(|p| p.manifest.clone()).collect();
    let mut manifest_texts: HashMap<RelPath, Source> = out
        .read(fs, &manifests, max)
        .into_iter()
        .filter_map(|result| out.take(result))
        .map(|source| (source.path.clone(), source))
        .collect();
    // Each manifest parsed and the components it names found in parallel;
    // what they add is taken in order.
    let prepared: Vec<_> = plugins
        .into_par_iter()
        .map(|dir| {
            let mut diags = Vec::new();
            let written =
                dir.manifest.as_ref().and_then(|manifest| manifest_texts.get(&manifest.rel));
            let manifest = written.and_then(|source| {
                dialects::plugin_manifest(source, &mut diags).map(|doc| (source.clone(), doc))
            });
            let found = manifest.as_ref().map(|(_, doc)| {
                let named = named_components(&doc.value);
                match named.is_empty() {
                    true => discover::Layout::default(),
                    false => discover::plugin_components(fs, opts, trees, &dir, &named),
                }
            });
            (dir, manifest, diags, found)
        })
        .collect();
    manifest_texts.clear();
    let mut parsed_plugins = Vec::with_capacity(prepared.len());
    for (dir, manifest, diags, found) in prepared {
        out.diagnostics.extend(diags);
        if let (Some((_, doc)), Some(found)) = (&manifest, found) {
            // `agents` and `commands` replace their default folder (Claude
            // Code's plugin reference): what only that folder holds is not
            // the plugin's.
            let replaced = |dialect: Dialect| match dialect {
                Dialect::ClaudeSubagent => doc.value.agents.is_some(),
                Dialect::ClaudeCommand => doc.value.commands.is_some(),
                _ => false,
            };
            let named_files: HashSet<&PathBuf> =
                found.assistants.iter().map(|a| &a.file.path).collect();
            assistants.retain(|a| {
                a.plugin.as_deref() != Some(dir.name.as_str())
                    || !replaced(a.dialect)
                    || named_files.contains(&a.file.path)
            });
            let known: HashSet<PathBuf> = (skills.iter().map(|s| s.file.path.clone()))
                .chain(assistants.iter().map(|a| a.file.path.clone()))
                .collect();
            skills.extend(found.skills.into_iter().filter(|s| !known.contains(&s.file.path)));
            assistants
                .extend(found.assistants.into_iter().filter(|a| !known.contains(&a.file.path)));
        }
        parsed_plugins.push(Plugin { dir, manifest });
    }

    // Read every definition file at once, in parallel.
    let mut first: Vec<FileRef> = Vec::new();
    first.extend(system_prompt.iter().cloned());
    first.extend(repo_prompt.iter().cloned());
    first.extend(skills.iter().map(|s| s.file.clone()));
    first.extend(tools.iter().filter_map(|t| t.manifest.clone()));
    first.extend(agents.iter().map(|a| agent_file(a).clone()));
    first.extend(assistants.iter().map(|a| a.file.clone()));
    first.extend(configs.iter().map(|c| c.file.clone()));
    let mut texts: std::collections::HashMap<RelPath, Source> = out
        .read(fs, &first, max)
        .into_iter()
        .filter_map(|result| out.take(result))
        .map(|source| (source.path.clone(), source))
        .collect();

    let mut project = Project {
        system_prompt: system_prompt.and_then(|f| texts.remove(&f.rel)),
        repo_prompt: repo_prompt.and_then(|f| texts.remove(&f.rel)),
        ..Project::default()
    };

    // Parse in parallel; each item reports into its own list, merged in order.
    let memo = out.memo;
    let parsed_skills: Vec<_> = skills
        .into_par_iter()
        .map(|file| {
            let Some(source) = texts.get(&file.file.rel).cloned() else {
                // Unread: the problem is reported.
                return (file, None, Vec::new());
            };
            let (parsed, diags) = match memo {
                Some(memo) => memo.skill(&file, &source),
                None => parse_skill(&file, &source),
            };
            (file, Some((source, parsed)), diags)
        })
        .collect();
    // At their size, not grown by doubling.
    project.skills.reserve_exact(parsed_skills.len());
    out.skill_order.reserve(parsed_skills.len());
    out.skill_parses.reserve(parsed_skills.len());
    for (order, (file, read, diags)) in parsed_skills.into_iter().enumerate() {
        out.skill_order.insert(file.file.rel.clone(), order);
        if read.is_some() {
            out.skill_parses.insert(file.file.rel.clone(), diags);
        }
        match read {
            Some((source, Some(parsed))) => project.skills.push(Skill { file, source, parsed }),
            // Its problem is reported; references to it must not be reported too.
            _ => {
                project.broken_skills.push(file.folder.clone());
                project.unparsed_skills.push(file);
            }
        }
    }

    let parsed_tools: Vec<_> = tools
        .into_par_iter()
        .map(|dir| {
            let mut diags = Vec::new();
            let source = dir.manifest.as_ref().and_then(|m| texts.get(&m.rel).cloned());
            let manifest = source.and_then(|source| {
                files::tool_manifest(&source, &dir.name, &mut diags).map(|doc| (source, doc))
            });
            // A descriptor that failed to read or parse still defines the name,
            // so references to it are not also reported as unknown.
            (Tool { dir, manifest }, diags)
        })
        .collect();
    for (tool, diags) in parsed_tools {
        match &tool.dir.manifest {
            Some(manifest) if texts.contains_key(&manifest.rel) => {
                out.file_parses.insert(manifest.rel.clone(), diags);
            }
            _ => out.diagnostics.extend(diags),
        }
        project.tools.push(tool);
    }

    let parsed_agents: Vec<_> = agents
        .into_par_iter()
        .filter_map(|dir| texts.get(&agent_file(&dir).rel).cloned().map(|source| (dir, source)))
        .map(|(dir, source)| {
            let mut diags = Vec::new();
            let kind = parse_agent(&dir, &source, &mut diags);
            (source.path.clone(), kind.map(|kind| Agent { dir, source, kind }), diags)
        })
        .collect();
    for (file, agent, diags) in parsed_agents {
        out.file_parses.insert(file, diags);
        project.agents.extend(agent);
    }

    let parsed_assistants: Vec<_> = assistants
        .into_par_iter()
        .filter_map(|file| texts.get(&file.file.rel).cloned().map(|source| (file, source)))
        .map(|(file, source)| {
            let mut diags = Vec::new();
            let doc = parse_assistant(&file, &source, &mut diags);
            let unparsed = (file.file.rel.clone(), file.dialect);
            let assistant = doc.map(|doc| Assistant { file, source, doc }).ok_or(unparsed);
            (assistant, diags)
        })
        .collect();
    for (assistant, diags) in parsed_assistants {
        let file = match &assistant {
            Ok(assistant) => assistant.source.path.clone(),
            Err((file, _)) => file.clone(),
        };
        out.file_parses.insert(file, diags);
        match assistant {
            Ok(assistant) => project.assistants.push(assistant),
            Err(unparsed) => project.unparsed_files.push(unparsed),
        }
    }
    project.plugins = parsed_plugins;

    // A plugin's `hooks/hooks.json` that Codex or Gemini CLI reads too.
    let claude_hooks: HashSet<RelPath> = (configs.iter())
        .filter(|c| c.dialect == Dialect::ClaudeHooks)
        .map(|c| c.file.rel.clone())
        .collect();
    let parsed_configs: Vec<_> = configs
        .into_par_iter()
        .filter_map(|file| texts.get(&file.file.rel).cloned().map(|source| (file, source)))
        .map(|(file, source)| {
            let mut diags = Vec::new();
            let in_plugin = file.plugin.is_some();
            let doc = crate::dialects::config::config(&source, file.dialect, in_plugin, &mut diags);
            if claude_hooks.contains(&file.file.rel) {
                shared_hooks(file.dialect, &mut diags);
            }
            let unparsed = (file.file.rel.clone(), file.dialect);
            (doc.map(|doc| crate::project::Config { file, source, doc }).ok_or(unparsed), diags)
        })
        .collect();
    for (config, diags) in parsed_configs {
        out.diagnostics.extend(diags);
        match config {
            Ok(config) => project.configs.push(config),
            Err(unparsed) => project.unparsed_files.push(unparsed),
        }
    }

    name_plugins(&mut project);
    read_package_files(fs, opts, &mut project.agents, &dropped, out);
    project
}

/// A Claude Code plugin's hooks file that another host reads too (a Codex
/// plugin's or a Gemini CLI extension's in the same folder): what that
/// host skips (an event it lacks, a hook type it does not run) is meant for
/// Claude Code and left unsaid; what makes it drop the file or a hook is
/// said as a warning, and the syntax once, by Claude Code's reading.
fn shared_hooks(dialect: Dialect, diags: &mut Vec<Diagnostic>) {
    let host = match dialect {
        Dialect::CodexHooks => "Codex",
        Dialect::GeminiHooks => "Gemini CLI",
        _ => return,
    };
    diags.retain(|d| d.severity == Severity::Error && d.code != Code::JsonSyntax);
    for diagnostic in diags.iter_mut() {
        diagnostic.severity = Severity::Warning;
        let note = format!(
            "{host} reads this file as well as Claude Code; if the hooks are for Claude Code only, \
             give {host} its own file"
        );
        diagnostic.help = Some(match &diagnostic.help {
            Some(help) => format!("{help}. {note}"),
            None => note,
        });
    }
}

/// The plugins `marketplace` (read as `source`) lists by local folders that
/// are not plugins discovery found, each with what is in it. The marketplace
/// is parsed here only for its sources: its problems are reported when it is
/// read with the rest.
fn listed_plugins(
    fs: &dyn Fs,
    opts: &Options,
    trees: (&Path, Option<&Path>),
    marketplace: &discover::ConfigFile,
    source: &Source,
    found: &[discover::PluginDir],
) -> Vec<ListedPlugin> {
    let mut quiet = Vec::new();
    let Some(crate::dialects::config::ConfigDoc::Marketplace(doc)) =
        crate::dialects::config::config(source, Dialect::ClaudeMarketplace, false, &mut quiet)
    else {
        return Vec::new();
    };
    // The marketplace's folder: the one holding `.claude-plugin/`.
    let (Some(base), Some((rel, _))) = (
        marketplace.file.path.parent().and_then(Path::parent),
        marketplace.file.rel.path.rsplit_once(".claude-plugin/"),
    ) else {
        return Vec::new();
    };
    let rel = RelPath { origin: marketplace.file.rel.origin, path: rel.into() };
    let sources = crate::hosts::claude_code::plugins::marketplace(source, &doc.value, &mut quiet);
    let mut listed = Vec::new();
    for (_, found_source, _) in sources {
        let Some(crate::hosts::claude_code::plugins::Source_::Local(path, _)) = found_source else {
            continue;
        };
        let folder = rel.join(path.trim_end_matches('/')).as_folder();
        if found.iter().any(|p| p.folder == folder) {
            continue;
        }
        let layout = discover::listed_plugin(fs, opts, trees, (base, &rel), &path);
        listed.push(ListedPlugin { folder, layout });
    }
    listed
}

/// A plugin a marketplace lists by a local path discovery did not find: its
/// folder as written, and what is in it when it is a folder.
struct ListedPlugin {
    folder: RelPath,
    layout: Option<discover::Layout>,
}

/// The component paths a plugin manifest names, by kind.
fn named_components(
    manifest: &agentc_schema::PluginManifest,
) -> Vec<(discover::Component, String)> {
    use discover::Component;
    let kinds = [
        (Component::Agents, &manifest.agents),
        (Component::Commands, &manifest.commands),
        (Component::Skills, &manifest.skills),
    ];
    let mut named = Vec::new();
    for (kind, paths) in kinds {
        for path in paths.iter().flat_map(|p| p.iter()) {
            named.push((kind, path.value.as_str().to_owned()));
        }
    }
    named
}

/// A plugin's namespace is the `name` its manifest declares, as Claude Code
/// has it; discovery knew only the folder.
fn name_plugins(project: &mut Project) {
    let names: HashMap<String, String> = project
        .plugins
        .iter()
        .filter_map(|plugin| {
            let (_, doc) = plugin.manifest.as_ref()?;
            let name = doc.value.name.value.as_str();
            let usable = !doc.value.name.span.is_unknown()
                && agentc_schema::check_name(agentc_schema::NameKind::Skill, name).is_ok();
            usable.then(|| (plugin.dir.name.clone(), name.to_owned()))
        })
        .collect();
    let rename = |plugin: &mut String| {
        if let Some(name) = names.get(plugin) {
            plugin.clone_from(name);
        }
    };
    for skill in &mut project.skills {
        if let Owner::Plugin(plugin) = &mut skill.file.owner {
            rename(plugin);
        }
    }
    for assistant in &mut project.assistants {
        if let Some(plugin) = &mut assistant.file.plugin {
            rename(plugin);
        }
    }
    for plugin in &mut project.plugins {
        rename(&mut plugin.dir.name);
    }
}

/// Checks package agents' entry points, then reads them with `workflows/` and
/// `knowledge/`, all in one parallel batch.
fn read_package_files(
    fs: &dyn Fs,
    opts: &Options,
    agents: &mut [Agent],
    dropped: &std::collections::HashSet<RelPath>,
    out: &mut Output<'_>,
) {
    let read_prompt = !opts.excludes(Scope::AgentPrompt);
    // Per agent: which files to read, as (entry span or None, file).
    let mut wanted: Vec<Vec<(Option<Span>, FileRef)>> = Vec::with_capacity(agents.len());
    for agent in agents.iter() {
        let mut files = Vec::new();
        if let AgentKind::Package { manifest, .. } = &agent.kind {
            let file = &agent.source.path;
            if manifest.value.entry_points.span.is_unknown() {
                // `entry_points` is missing or unusable, which is reported already.
                wanted.push(files);
                continue;
            }
            let entries = &manifest.value.entry_points.value;
            let listed: HashSet<&str> = entries.iter().map(|e| e.value.as_str()).collect();
            for required in REQUIRED_ENTRY_POINTS {
                if !listed.contains(required) {
                    let key = key_span(&manifest.tree, "entry_points");
                    out.diagnostics.push(
                        Diagnostic::new(
                            Code::RequiredEntryPoint,
                            file,
                            key,
                            format!("`entry_points` does not list `{required}`"),
                        )
                        .with_help(format!(
                            "every package lists `system.md`, `boundaries.md` and `conventions.md`; add `\"{required}\"`"
                        )),
                    );
                }
            }
            for entry in entries {
                let name = entry.value.as_str();
                if !is_entry_point_name(name) {
                    out.diagnostics.push(
                        Diagnostic::at(
                            Code::BadEntryPoint,
                            file,
                            entry.span,
                            format!("the entry point `{name}` is not a Markdown file at the agent's root"),
                        )
                        .with_help("entry points are lowercase `.md` file names in the agent's own folder, e.g. `system.md`"),
                    );
                    continue;
                }
                match agent.dir.root_files.get(name) {
                    // Reported where it is (a link that escapes, a FIFO).
                    None if dropped.contains(&agent.dir.folder.join(name)) => {}
                    None => out.diagnostics.push(
                        Diagnostic::at(
                            Code::MissingEntryPoint,
                            file,
                            entry.span,
                            format!(
                                "the entry point `{name}` does not exist in `{}`",
                                agent.dir.folder
                            ),
                        )
                        .with_help(format!(
                            "create `{}{name}`, or remove it from `entry_points`",
                            agent.dir.folder
                        )),
                    ),
                    Some(found) if read_prompt => files.push((Some(entry.span), found.clone())),
                    Some(_) => {}
                }
            }
            for (name, found) in &agent.dir.root_files {
                if !listed.contains(name.as_str()) {
                    out.diagnostics.push(
                        Diagnostic::on_path(
                            Code::StrayEntry,
                            &found.rel,
                            format!("the file `{name}` is not part of the layout; its contents are not read"),
                        )
                        .with_help("a file at a package's root is read only when `entry_points` lists it"),
                    );
                }
            }
            files.extend(
                agent.dir.workflows.iter().chain(&agent.dir.knowledge).map(|f| (None, f.clone())),
            );
        }
        wanted.push(files);
    }

    let all: Vec<FileRef> = wanted.iter().flatten().map(|(_, f)| f.clone()).collect();
    let mut results = out.read(fs, &all, opts.max_file_size).into_iter();
    for (agent, files) in agents.iter_mut().zip(wanted) {
        let AgentKind::Package { entry_points, workflows, knowledge, .. } = &mut agent.kind else {
            continue;
        };
        for (entry_span, file) in files {
            let Some(source) = results.next().and_then(|r| out.take(r)) else {
                continue;
            };
            match entry_span {
                Some(span) => {
                    if source.text.trim().is_empty() {
                        out.diagnostics.push(
                            Diagnostic::at(
                                Code::MissingEntryPoint,
                                &agent.source.path,
                                span,
                                format!(
                                    "the entry point `{}` is empty",
                                    file.rel.path.rsplit('/').next().unwrap_or_default()
                                ),
                            )
                            .with_label(&file.rel, None, "this file holds no text")
                            .with_help(
                                "write the section's text, or remove it from `entry_points`",
                            ),
                        );
                    } else {
                        entry_points.push(source);
                    }
                }
                None if agent.dir.workflows.contains(&file) => workflows.push(source),
                None => knowledge.push(source),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memfs::MemFs;

    fn skill(name: &str, route: &str) -> String {
        format!("---\nname: {name}\ndescription: Say {name}.\nroutes:\n  - {route}\n---\nSay it.\n")
    }

    /// A compile with the memo equals one without it, edit after edit, and
    /// reuses the parse of every file that did not change.
    #[test]
    fn the_memo_changes_nothing_but_the_work() {
        let mut fs = MemFs::new();
        fs.insert("skills/greet/SKILL.md", skill("greet", "farewell")).unwrap();
        fs.insert("skills/farewell/SKILL.md", skill("farewell", "greet")).unwrap();
        let opts = Options::new(fs.root());
        let memo = Memo::default();
        let first = compile_with(&fs, &opts, Some(&memo)).unwrap();
        assert!(first.diagnostics.is_empty(), "{:#?}", first.diagnostics);
        for route in ["farewel", "farewell", "greet", "nobody"] {
            fs.insert("skills/greet/SKILL.md", skill("greet", route)).unwrap();
            let remembered = compile_with(&fs, &opts, Some(&memo)).unwrap();
            let fresh = compile(&fs, &opts).unwrap();
            assert_eq!(remembered.diagnostics, fresh.diagnostics, "route to {route}");
            assert_eq!(remembered.model, fresh.model);
            let farewell = |c: &Compilation| {
                c.project
                    .skills
                    .iter()
                    .find(|s| s.file.folder == "farewell")
                    .unwrap()
                    .parsed
                    .clone()
            };
            assert!(Arc::ptr_eq(&farewell(&first), &farewell(&remembered)), "parsed once");
        }
        // A file gone is forgotten.
        fs.remove("skills/farewell/SKILL.md");
        let remembered = compile_with(&fs, &opts, Some(&memo)).unwrap();
        assert_eq!(remembered.diagnostics, compile(&fs, &opts).unwrap().diagnostics);
        assert_eq!(memo.skills.lock().unwrap().len(), 1);
    }
}
