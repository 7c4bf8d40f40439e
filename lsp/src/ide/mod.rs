//! Editor features over a [`Compilation`]: what a position names, where that
//! is defined, what uses it, what may be typed there, and how to rename it.
//!
//! Everything here is pure: positions are byte offsets into a file's text
//! (after any BOM), results are [`RelPath`]s with [`Span`]s. The language
//! server translates to and from the protocol; tests call this directly.

use std::collections::HashMap;

use agentc_schema::{Dialect, Kind, NameKind, Span, Spanned, Text, check_name};

use agentc_compiler::compile::Compilation;
use agentc_compiler::diagnostic::{Edit, Origin, RelPath};
use agentc_compiler::dialects::AssistantDoc;
use agentc_compiler::dialects::config::ConfigDoc;
use agentc_compiler::discover::Owner;
use agentc_compiler::parse::tree::Node;
use agentc_compiler::project::AgentKind;
use agentc_compiler::resolve::{Def, RefKind, Table};

pub mod actions;
mod agents;
mod complete;
mod hosts;
mod hover;
mod keys;
mod links;
mod outline;
mod places;
mod symbols;

pub use agents::Named;
pub use complete::{Completion, CompletionKind, LIMIT};
pub use links::FileLink;
pub use outline::{OutlineItem, OutlineKind};
pub use symbols::{ProjectSymbol, Rank, SymbolKind};

/// A skill or tool definition: an index into the scope table of its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symbol {
    pub kind: RefKind,
    pub index: usize,
}

/// What agentc knows a file to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileInfo {
    /// The schema that describes it.
    pub kind: Kind,
    /// The agent whose scope names in it are looked up in.
    pub agent: Option<String>,
    pub item: Item,
}

/// What a file defines: an index into the project's list of that item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Skill(usize),
    Tool(usize),
    Agent(usize),
    Assistant(usize),
    Plugin(usize),
    /// A configuration file of a host: an index into the project's configs.
    Config(usize),
    Registry,
    /// `agentc.toml`.
    ProjectFile,
    /// A file that does not parse (yet): its kind (and a skill's scope) are
    /// known from where it is.
    Unparsed,
}

/// A place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: RelPath,
    pub span: Span,
}

/// A rename: text edits, and the folder that moves with the name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenamePlan {
    pub edits: Vec<Edit>,
    /// The definition's folder and its new path, when the folder is named
    /// after the definition.
    pub folder: Option<(RelPath, RelPath)>,
    /// The name is written nowhere but the folder's (a descriptor without
    /// `name`): without the move there is no rename.
    pub named_by_folder: bool,
}

/// The editor's view of one compilation: the compilation and its [`Index`].
pub struct Analysis<'c> {
    pub compilation: &'c Compilation,
    index: &'c Index,
}

/// What an editor looks up in a compilation, by file: made once per
/// compilation (it costs a walk over every definition and reference) and
/// kept beside it.
pub struct Index {
    files: HashMap<RelPath, FileInfo>,
    /// Indexes into `names.refs`, by file.
    refs_by_file: HashMap<RelPath, Vec<usize>>,
    /// Where each definition's name is written, by kind and table index.
    skill_sites: Vec<Option<Place>>,
    tool_sites: Vec<Option<Place>>,
    /// Each definition site, by file: (span, symbol).
    defs_by_file: HashMap<RelPath, Vec<(Span, Symbol)>>,
    /// The assistants' agents, and every place naming one.
    agents: agents::AgentIndex,
    /// Every named thing, listed at the first workspace-symbol query.
    symbols: std::sync::OnceLock<Vec<ProjectSymbol>>,
}

fn skill_kind(dialect: Dialect) -> Kind {
    // Only skill dialects come here, and each has a schema.
    Kind::of(dialect).unwrap_or(Kind::AgentSkill)
}

fn owner_agent(owner: &Owner) -> Option<String> {
    match owner {
        Owner::Agent(agent) => Some(agent.clone()),
        _ => None,
    }
}

impl<'c> Analysis<'c> {
    /// `index` must be `compilation`'s.
    pub fn new(compilation: &'c Compilation, index: &'c Index) -> Analysis<'c> {
        Analysis { compilation, index }
    }
}

impl Index {
    pub fn new(compilation: &Compilation) -> Index {
        let project = &compilation.project;
        let mut files = HashMap::new();
        for (i, skill) in project.skills.iter().enumerate() {
            let info = FileInfo {
                kind: skill_kind(skill.file.dialect),
                agent: owner_agent(&skill.file.owner),
                item: Item::Skill(i),
            };
            files.insert(skill.source.path.clone(), info);
        }
        for file in &project.unparsed_skills {
            let info = FileInfo {
                kind: skill_kind(file.dialect),
                agent: owner_agent(&file.owner),
                item: Item::Unparsed,
            };
            files.insert(file.file.rel.clone(), info);
        }
        for (i, tool) in project.tools.iter().enumerate() {
            if let Some((source, _)) = &tool.manifest {
                let agent = owner_agent(&tool.dir.owner);
                files.insert(
                    source.path.clone(),
                    FileInfo { kind: Kind::Tool, agent, item: Item::Tool(i) },
                );
            }
        }
        for (i, agent) in project.agents.iter().enumerate() {
            let kind = match agent.kind {
                AgentKind::Bundle(_) => Kind::AgentMd,
                AgentKind::Package { .. } => Kind::Agent,
            };
            let info = FileInfo { kind, agent: Some(agent.dir.id.clone()), item: Item::Agent(i) };
            files.insert(agent.source.path.clone(), info);
        }
        for (i, assistant) in project.assistants.iter().enumerate() {
            let kind = skill_kind(assistant.file.dialect);
            let info = FileInfo { kind, agent: None, item: Item::Assistant(i) };
            files.insert(assistant.source.path.clone(), info);
        }
        for (i, plugin) in project.plugins.iter().enumerate() {
            if let Some((source, _)) = &plugin.manifest {
                let info =
                    FileInfo { kind: Kind::ClaudePlugin, agent: None, item: Item::Plugin(i) };
                files.insert(source.path.clone(), info);
            } else if let Some(manifest) = &plugin.dir.manifest {
                let info = FileInfo { kind: Kind::ClaudePlugin, agent: None, item: Item::Unparsed };
                files.insert(manifest.rel.clone(), info);
            }
        }

        for (i, config) in project.configs.iter().enumerate() {
            if let Some(kind) = Kind::of(config.file.dialect) {
                let info = FileInfo { kind, agent: None, item: Item::Config(i) };
                files.entry(config.source.path.clone()).or_insert(info);
            }
        }
        for (path, dialect) in &project.unparsed_files {
            if let Some(kind) = Kind::of(*dialect) {
                let info = FileInfo { kind, agent: None, item: Item::Unparsed };
                files.entry(path.clone()).or_insert(info);
            }
        }
        // The registry and the project file are documents of their own,
        // whatever they declare (and while they do not parse).
        if let Some(source) = &compilation.registry_source {
            let info = FileInfo { kind: Kind::Registry, agent: None, item: Item::Registry };
            files.insert(source.path.clone(), info);
        }
        // A file shown as given is one of those two; a compile that stopped
        // at one of them holds its text among the sources.
        for path in compilation.texts().map(|source| &source.path) {
            let info = match path.path.rsplit('/').next() == Some(agentc_schema::PROJECT_FILE) {
                true => FileInfo { kind: Kind::Project, agent: None, item: Item::ProjectFile },
                false if path.origin == Origin::Given => {
                    FileInfo { kind: Kind::Registry, agent: None, item: Item::Registry }
                }
                false => continue,
            };
            files.entry(path.clone()).or_insert(info);
        }

        let mut refs_by_file: HashMap<RelPath, Vec<usize>> = HashMap::new();
        for (i, r) in compilation.names.refs.iter().enumerate() {
            refs_by_file.entry(r.file.clone()).or_default().push(i);
        }

        let skill_sites: Vec<Option<Place>> = (compilation.names.skills.defs.iter())
            .map(|def| def.site.span.map(|span| Place { file: def.site.file.clone(), span }))
            .collect();
        // Where the registry writes each name (the first time): looked up once
        // per name, not searched for each (thousands of names).
        let mut registry = HashMap::new();
        let entries = project.registry.as_ref().and_then(|r| r.tools.as_ref());
        for entry in entries.into_iter().flatten() {
            let name = &entry.value.name;
            registry.entry(name.value.as_str()).or_insert(name);
        }
        let tool_sites: Vec<Option<Place>> = (compilation.names.tools.defs.iter())
            .map(|def| tool_site(compilation, &registry, def))
            .collect();
        let mut defs_by_file: HashMap<RelPath, Vec<(Span, Symbol)>> = HashMap::new();
        for (kind, sites) in [(RefKind::Skill, &skill_sites), (RefKind::Tool, &tool_sites)] {
            for (index, place) in sites.iter().enumerate() {
                if let Some(place) = place {
                    let symbol = Symbol { kind, index };
                    defs_by_file.entry(place.file.clone()).or_default().push((place.span, symbol));
                }
            }
        }
        // The registry is the file declaring the host's tools.
        for def in compilation.names.tools.defs.iter().filter(|d| d.source.is_none()) {
            if def.site.file.origin == Origin::Given {
                let info = FileInfo { kind: Kind::Registry, agent: None, item: Item::Registry };
                files.entry(def.site.file.clone()).or_insert(info);
            }
        }
        let agents = agents::AgentIndex::new(compilation);
        Index {
            files,
            refs_by_file,
            skill_sites,
            tool_sites,
            defs_by_file,
            agents,
            symbols: Default::default(),
        }
    }
}

impl<'c> Analysis<'c> {
    /// What agentc read `file` as.
    pub fn file(&self, file: &RelPath) -> Option<&FileInfo> {
        self.index.files.get(file)
    }

    /// The located tree of `file`'s frontmatter or JSON.
    pub fn tree(&self, file: &RelPath) -> Option<&'c Node> {
        let project = &self.compilation.project;
        Some(match self.index.files.get(file)?.item {
            Item::Skill(i) => &project.skills[i].parsed.front.tree,
            Item::Tool(i) => &project.tools[i].manifest.as_ref()?.1.tree,
            Item::Agent(i) => match &project.agents[i].kind {
                AgentKind::Bundle(md) => &md.front.tree,
                AgentKind::Package { manifest, .. } => &manifest.tree,
            },
            Item::Assistant(i) => match &project.assistants[i].doc {
                AssistantDoc::Subagent(md) => &md.front.tree,
                AssistantDoc::Command(md) => &md.front.tree,
                AssistantDoc::Copilot(md) => &md.front.tree,
            },
            Item::Plugin(i) => &project.plugins[i].manifest.as_ref()?.1.tree,
            Item::Config(i) => config_tree(&project.configs[i].doc)?,
            Item::Registry | Item::ProjectFile | Item::Unparsed => return None,
        })
    }

    fn table(&self, kind: RefKind) -> &'c Table {
        match kind {
            RefKind::Skill => &self.compilation.names.skills,
            RefKind::Tool => &self.compilation.names.tools,
        }
    }

    pub fn def(&self, symbol: Symbol) -> &'c Def {
        &self.table(symbol.kind).defs[symbol.index]
    }

    /// The symbol written at `offset` of `file` — a reference or a
    /// definition's name — with the span of what is written there.
    pub fn symbol_at(&self, file: &RelPath, offset: usize) -> Option<(Symbol, Span)> {
        let within = |span: Span| span.start <= offset && offset <= span.end;
        let refs = &self.compilation.names.refs;
        let from_ref = self.index.refs_by_file.get(file).into_iter().flatten().find_map(|&i| {
            let r = &refs[i];
            let span = r.exact.unwrap_or(r.span);
            let index = r.target?;
            within(span).then_some((Symbol { kind: r.kind, index }, span))
        });
        from_ref.or_else(|| {
            self.index
                .defs_by_file
                .get(file)?
                .iter()
                .find(|(span, _)| within(*span))
                .map(|(span, symbol)| (*symbol, *span))
        })
    }

    /// Where `symbol`'s name is written.
    pub fn definition(&self, symbol: Symbol) -> Option<&Place> {
        match symbol.kind {
            RefKind::Skill => self.index.skill_sites[symbol.index].as_ref(),
            RefKind::Tool => self.index.tool_sites[symbol.index].as_ref(),
        }
    }

    /// Every place that names `symbol`, its definition first when asked for.
    pub fn references(&self, symbol: Symbol, with_definition: bool) -> Vec<Place> {
        let mut out: Vec<Place> = Vec::new();
        if with_definition {
            out.extend(self.definition(symbol).cloned());
        }
        out.extend(
            (self.compilation.names.refs.iter())
                .filter(|r| r.kind == symbol.kind && r.target == Some(symbol.index))
                .map(|r| Place { file: r.file.clone(), span: r.exact.unwrap_or(r.span) }),
        );
        out
    }

    /// Renames `symbol` to `new_name`: its definition, every reference, and
    /// its folder when that carries the name.
    pub fn rename(&self, symbol: Symbol, new_name: &str) -> Result<RenamePlan, String> {
        let def = self.def(symbol);
        let name_kind = match symbol.kind {
            RefKind::Skill => NameKind::Skill,
            RefKind::Tool => NameKind::Tool,
        };
        check_name(name_kind, new_name).map_err(|err| format!("`{new_name}` {err}"))?;
        let noun = match symbol.kind {
            RefKind::Skill => "skill",
            RefKind::Tool => "tool",
        };
        // Taken where it is defined, or anywhere it is used (an agent's
        // private name would shadow a renamed shared one).
        let refs = &self.compilation.names.refs;
        let uses = refs.iter().filter(|r| r.kind == symbol.kind && r.target == Some(symbol.index));
        let scopes = std::iter::once(def.agent.as_deref()).chain(uses.map(|r| r.agent.as_deref()));
        for scope in scopes {
            if self.table(symbol.kind).lookup(scope, new_name).is_some_and(|i| i != symbol.index) {
                let place =
                    scope.map_or_else(|| "here".to_owned(), |a| format!("in the agent `{a}`"));
                return Err(format!("a {noun} named `{new_name}` is already visible {place}"));
            }
        }
        let mut plan =
            RenamePlan { named_by_folder: self.named_by_folder(symbol), ..RenamePlan::default() };
        plan.edits.extend(self.written_names(symbol)?.into_iter().map(|place| Edit {
            file: place.file,
            span: place.span,
            replacement: new_name.to_owned(),
        }));
        for r in self.compilation.names.refs.iter() {
            if r.kind != symbol.kind || r.target != Some(symbol.index) {
                continue;
            }
            let Some(span) = r.exact else {
                return Err(format!(
                    "`{}` in {} is written with escapes; rename it there by hand first",
                    r.name, r.file
                ));
            };
            // A qualified reference (`agent__billing__x`, `plugin:x`) keeps its prefix.
            let prefix = r.name.strip_suffix(def.name.as_str()).unwrap_or("");
            plan.edits.push(Edit {
                file: r.file.clone(),
                span,
                replacement: format!("{prefix}{new_name}"),
            });
        }
        plan.edits.sort_by(|a, b| (&a.file, a.span.start).cmp(&(&b.file, b.span.start)));
        plan.edits.dedup();
        plan.folder = self.named_folder(symbol).map(|folder| {
            let parent = folder.path.trim_end_matches('/').rsplit_once('/').map(|(p, _)| p);
            let path = match parent {
                Some(parent) => format!("{parent}/{new_name}/"),
                None => format!("{new_name}/"),
            };
            (folder.clone(), RelPath { origin: folder.origin, path: path.into() })
        });
        Ok(plan)
    }

    /// Where `symbol`'s name is written as its definition, exactly (inside
    /// any quotes): a skill's `name`, a descriptor's `name`, and each entry
    /// of the registry declaring the tool. Nothing in a descriptor without
    /// `name`: its folder names it.
    fn written_names(&self, symbol: Symbol) -> Result<Vec<Place>, String> {
        let def = self.def(symbol);
        let project = &self.compilation.project;
        let exact = |file: &RelPath, name: &Spanned<Text>| {
            let span = name.verbatim(0..name.value.as_str().len()).ok_or_else(|| {
                format!(
                    "`{}` in {file} is written with escapes; rename it there by hand first",
                    def.name
                )
            })?;
            Ok::<_, String>(Place { file: file.clone(), span })
        };
        let mut places = Vec::new();
        match (symbol.kind, def.source) {
            (RefKind::Skill, Some(i)) => {
                let skill = &project.skills[i];
                places.push(exact(&skill.source.path, &skill.parsed.front.value.name)?);
            }
            (RefKind::Tool, Some(i)) => {
                let manifest = project.tools[i].manifest.as_ref();
                if let Some((source, Some(name))) = manifest.map(|(s, doc)| (s, &doc.value.name)) {
                    places.push(exact(&source.path, name)?);
                }
            }
            _ => {}
        }
        // A registry entry of a descriptor's (qualified) name declares that tool.
        if let (RefKind::Tool, Some(registry), Some(source)) =
            (symbol.kind, &project.registry, &self.compilation.registry_source)
        {
            for entry in registry.tools.iter().flatten() {
                if entry.value.name.value.as_str() == def.qualified {
                    places.push(exact(&source.path, &entry.value.name)?);
                }
            }
        }
        if places.is_empty() && def.source.is_none() {
            return Err(format!(
                "the tool `{}` is declared in the host's code (`tools = [...]`); rename it there",
                def.name
            ));
        }
        Ok(places)
    }

    /// Whether `symbol` is a tool whose descriptor has no `name`.
    fn named_by_folder(&self, symbol: Symbol) -> bool {
        let tools = &self.compilation.project.tools;
        match (symbol.kind, self.def(symbol).source) {
            (RefKind::Tool, Some(i)) => {
                tools[i].manifest.as_ref().is_none_or(|(_, doc)| doc.value.name.is_none())
            }
            _ => false,
        }
    }

    /// The folder that holds `symbol`'s definition and is named after it.
    fn named_folder(&self, symbol: Symbol) -> Option<RelPath> {
        let def = self.def(symbol);
        let project = &self.compilation.project;
        let folder = match symbol.kind {
            RefKind::Skill => {
                let skill = &project.skills[def.source?];
                (skill.file.folder == def.name).then(|| {
                    let path = &skill.source.path;
                    let parent = path.path.rsplit_once('/').map_or("", |(p, _)| p);
                    RelPath { origin: path.origin, path: parent.into() }.as_folder()
                })?
            }
            RefKind::Tool => {
                let tool = &project.tools[def.source?];
                (tool.dir.name == def.name).then(|| tool.dir.folder.as_folder())?
            }
        };
        Some(folder)
    }

    /// The outline of `file`: its top-level keys, with steps, routes and
    /// tools as children.
    pub fn outline(&self, file: &RelPath) -> Vec<OutlineItem> {
        outline::outline(self, file)
    }

    /// What to show on hover at `offset` of `file`, as Markdown.
    pub fn hover(&self, file: &RelPath, offset: usize) -> Option<(String, Span)> {
        hover::hover(self, file, offset)
    }

    /// The paths written in `file` — relative Markdown links, entry points —
    /// that lead to something of the project, asked of `fs`.
    pub fn links(&self, fs: &dyn agentc_compiler::fs::Fs, file: &RelPath) -> Vec<FileLink> {
        links::links(self, fs, file)
    }

    /// The skills, tools and agents whose names match `query`, best first,
    /// at most `limit`.
    pub fn workspace_symbols(&self, query: &str, limit: usize) -> Vec<(Rank, &'c ProjectSymbol)> {
        let index: &'c Index = self.index;
        symbols::find(index.symbols.get_or_init(|| symbols::list(self)), query, limit)
    }

    /// What may be typed at `offset` of `file`, and the span it replaces.
    pub fn complete(&self, file: &RelPath, offset: usize) -> (Vec<Completion>, Span) {
        complete::complete(self, file, offset)
    }
}

/// The located tree of a configuration file, when it has one.
fn config_tree(doc: &ConfigDoc) -> Option<&Node> {
    Some(match doc {
        ConfigDoc::Marketplace(d) => &d.tree,
        ConfigDoc::Hooks(d) => &d.tree,
        ConfigDoc::Settings(d) => &d.tree,
        ConfigDoc::Mcp(d) => &d.tree,
        ConfigDoc::VscodeMcp(d) => &d.tree,
        ConfigDoc::CodexMetadata(d) => &d.tree,
        ConfigDoc::Prompt(md) => &md.front.tree,
        ConfigDoc::Instructions(md) => &md.front.tree,
        ConfigDoc::CursorRule(md) => &md.front.tree,
        ConfigDoc::ClineRule(md) => &md.front.tree,
        ConfigDoc::OpencodeAgent(md) => &md.front.tree,
        ConfigDoc::OpencodeCommand(md) => &md.front.tree,
        ConfigDoc::OpencodeConfig(d) => &d.tree,
        ConfigDoc::GeminiCommand(d) => &d.tree,
        ConfigDoc::GeminiExtension(d) => &d.tree,
        ConfigDoc::KiroSteering(md) => &md.front.tree,
        ConfigDoc::CopilotHooks(d) => &d.tree,
        ConfigDoc::CopilotSetupSteps(d) => &d.tree,
        ConfigDoc::ClaudeRule(md) => &md.front.tree,
        ConfigDoc::OutputStyle(md) => &md.front.tree,
        ConfigDoc::CodexConfig(d) => &d.tree,
        ConfigDoc::CodexHooks(d) => &d.tree,
        ConfigDoc::CursorHooks(d) => &d.tree,
        ConfigDoc::CursorEnvironment(d) => &d.tree,
        ConfigDoc::CursorCli(d) => &d.tree,
        ConfigDoc::CursorAgent(md) => &md.front.tree,
        ConfigDoc::CodexAgent(d) => &d.tree,
        ConfigDoc::GeminiSettings(d) => &d.tree,
        ConfigDoc::GeminiAgent(md) => &md.front.tree,
        ConfigDoc::CodexPlugin(d) => &d.tree,
        ConfigDoc::GeminiHooks(d) => &d.tree,
        ConfigDoc::Markdown { .. } => return None,
    })
}

/// Where a tool's name is written: its descriptor's `name`, else the start of
/// its descriptor, else the registry line declaring it.
fn tool_site(
    compilation: &Compilation,
    registry: &HashMap<&str, &Spanned<Text>>,
    def: &Def,
) -> Option<Place> {
    let project = &compilation.project;
    match def.source {
        Some(i) => {
            let (source, doc) = project.tools[i].manifest.as_ref()?;
            let span = match &doc.value.name {
                Some(name) => name.verbatim(0..name.value.as_str().len()).unwrap_or(name.span),
                None => Span::new(0, 0),
            };
            Some(Place { file: source.path.clone(), span })
        }
        None => {
            let entry = registry.get(def.name.as_str())?;
            let span = entry.verbatim(0..def.name.len()).unwrap_or(entry.span);
            Some(Place { file: def.site.file.clone(), span })
        }
    }
}

#[cfg(test)]
mod tests;
