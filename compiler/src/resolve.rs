//! Resolve: every name the directory uses, looked up in the scopes where it is
//! visible, and the resolved [`Model`] built from the result.
//!
//! Scopes (CONTRACT §5): global and repo definitions form one shared scope;
//! each agent sees the shared scope plus its own private skills and tools,
//! by plain name or as `agent__<agent>__<name>`. A name defined twice in one
//! scope is `duplicate-name`; a name defined in two scopes visible together is
//! `name-shadow`. No precedence rule ever picks one silently: both are errors,
//! and resolution goes on with the narrower definition so one mistake does not
//! cascade into others.

use std::collections::{BTreeMap, HashMap, HashSet};

use agentc_schema::lockfile::{self, AgentStyle, PromptLayer, PromptScope, Reference, ScopeKind};
use agentc_schema::{Dialect, SharedStr, Span, Spanned};
use rayon::prelude::*;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath};
use crate::model::Model;
use crate::options::{Door, Options, Scope};
use crate::project::{Agent, AgentKind, Project};
use crate::source::Source;
use crate::suggest::{did_you_mean, list_names};

mod assistants;
mod configs;
mod table;
mod unknown;

pub use assistants::{COPILOT_BUILT_IN_AGENTS, plain as plain_agent_name, read_by_vs_code};
use table::build_table;
pub use table::{Def, DefFile, Site, Table, View};
use unknown::{Suggester, Unknown};

/// A document's top-level fields as written, less those the lockfile gives a
/// place of their own (`typed`) and those the dialect does not define (kept
/// as metadata).
pub fn kept_fields<T>(
    doc: &crate::parse::files::Document<T>,
    typed: &[&str],
) -> BTreeMap<String, serde_json::Value> {
    let kept =
        |key: &str| !typed.contains(&key) && !doc.extra.iter().any(|(extra, _)| extra == key);
    // Most documents have none: their tree, let go, is not built again.
    if !doc.tree.keys().any(kept) {
        return BTreeMap::new();
    }
    doc.tree.with(|tree| {
        let crate::parse::tree::Value::Map(entries) = &tree.value else {
            return BTreeMap::new();
        };
        // Only the fields kept are made JSON: the typed ones (a skill's routes
        // and steps) are most of a frontmatter, and this runs per compile.
        (entries.iter())
            .filter(|e| kept(&e.key))
            .map(|e| (e.key.clone(), e.value.to_json()))
            .collect()
    })
}

/// What a name written in a file stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefKind {
    Skill,
    Tool,
}

/// A name written where a skill or tool is expected, and the definition it
/// resolved to: what an editor follows, finds and renames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameRef {
    pub kind: RefKind,
    pub file: RelPath,
    /// The value as written (quotes included).
    pub span: Span,
    /// The name's own bytes, when it is written verbatim (no escapes).
    pub exact: Option<Span>,
    /// The name as written.
    pub name: String,
    /// The agent whose scope it is looked up in.
    pub agent: Option<String>,
    /// The index into the table of `kind`; none when it did not resolve.
    pub target: Option<usize>,
}

impl NameRef {
    pub fn new(
        kind: RefKind,
        file: &RelPath,
        agent: Option<&str>,
        name: &Spanned<String>,
        target: Option<usize>,
    ) -> NameRef {
        NameRef {
            kind,
            file: file.clone(),
            span: name.span,
            exact: name.verbatim(0..name.value.len()),
            name: name.value.clone(),
            agent: agent.map(str::to_owned),
            target,
        }
    }
}

/// The result of resolution.
#[derive(Debug, Default)]
pub struct Resolution {
    pub model: Model,
    pub names: Names,
    /// What each part made, kept apart so an edit redoes only the parts it
    /// can change.
    pub shares: Shares,
}

/// The problems and references each part of the resolution made; the refs
/// are in this order in `Names::refs`: skills, agents, assistants.
#[derive(Debug, Default)]
pub struct Shares {
    /// By project skill.
    pub skills: Vec<Share>,
    /// The skill table's: names defined twice or shadowing each other.
    pub skill_table: Vec<Diagnostic>,
    /// The tool table's: names defined twice or shadowing each other.
    pub tool_table: Vec<Diagnostic>,
    /// By project agent.
    pub agents: Vec<Share>,
    pub assistants: Share,
}

/// What resolving one part contributed.
#[derive(Clone, Debug, Default)]
pub struct Share {
    /// Its problems.
    pub diagnostics: Vec<Diagnostic>,
    /// How many of `Names::refs` it made.
    pub refs: usize,
}

/// One part of a project resolved on its own against tables that already
/// hold every definition: what an edit that touches only it changes.
#[derive(Debug, Default)]
pub struct Resolved<T> {
    pub compiled: T,
    /// The names it uses, in the order resolved.
    pub refs: Vec<NameRef>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Runs `f` on a resolver over `project` and `names` alone.
fn resolve_part<T>(
    project: &Project,
    opts: &Options,
    names: &Names,
    f: impl FnOnce(&mut Resolver<'_>) -> T,
) -> Resolved<T> {
    let tables = (&names.skills, &names.tools);
    resolve_with(project, opts, tables, &mut Suggester::default(), f)
}

/// Runs `f` on a resolver over `project` and the tables `(skills, tools)`
/// alone, with the help for unknown names written so far in `suggester`.
fn resolve_with<T>(
    project: &Project,
    opts: &Options,
    (skills, tools): (&Table, &Table),
    suggester: &mut Suggester,
    f: impl FnOnce(&mut Resolver<'_>) -> T,
) -> Resolved<T> {
    let mut diagnostics = Vec::new();
    let mut r = Resolver {
        suggester,
        project,
        opts,
        skills,
        tools,
        refs: Vec::new(),
        shares: Shares::default(),
        out: &mut diagnostics,
    };
    let compiled = f(&mut r);
    // (The assistants' parts note theirs directly: not kept either.)
    let refs = if opts.references { r.refs } else { Vec::new() };
    Resolved { compiled, refs, diagnostics }
}

/// Resolves project skill `index` (none when its definition is a duplicate).
pub fn resolve_skill(
    project: &Project,
    opts: &Options,
    names: &Names,
    index: usize,
) -> Resolved<Option<lockfile::Skill>> {
    resolve_part(project, opts, names, |r| r.compile_skill(index, &project.skills[index]))
}

/// Resolves project agent `index`.
pub fn resolve_agent(
    project: &Project,
    opts: &Options,
    names: &Names,
    index: usize,
) -> Resolved<lockfile::Agent> {
    resolve_part(project, opts, names, |r| r.compile_agent(&project.agents[index]))
}

/// Resolves the coding assistants' files.
pub fn resolve_assistants(
    project: &Project,
    opts: &Options,
    names: &Names,
) -> Resolved<Vec<lockfile::Assistant>> {
    resolve_part(project, opts, names, |r| {
        assistants::resolve(project, &names.skills, &mut r.refs, r.out)
    })
}

/// The plugins, MCP servers and hooks of the model, made again from the
/// project and the model's skills and assistants.
pub fn resolve_configs(project: &Project, model: &mut Model) {
    configs::resolve(project, model);
}

/// Every definition in its scope, and every name that refers to one: what
/// the checks look names up in, and what an editor navigates.
#[derive(Debug, Default)]
pub struct Names {
    pub skills: Table,
    pub tools: Table,
    /// Every name that refers to a skill or tool, in the order resolved.
    pub refs: Vec<NameRef>,
}

/// Resolves every name in `project`.
pub fn resolve(project: &Project, opts: &Options, registry_file: Option<&RelPath>) -> Resolution {
    let mut skill_table_problems = Vec::new();
    let skills = skill_table(project, opts.door, &mut skill_table_problems);
    let hosts = host_names(project, opts, registry_file);
    let mut tool_table_problems = Vec::new();
    let tools = tool_table(project, &hosts, opts.door, &mut tool_table_problems);
    let host_names: HashSet<&str> = hosts.iter().map(|(name, _)| name.as_str()).collect();
    let mut out = Vec::new();
    let mut r = Resolver {
        suggester: &mut Suggester::default(),
        project,
        opts,
        skills: &skills,
        tools: &tools,
        refs: Vec::new(),
        shares: Shares::default(),
        out: &mut out,
    };
    let model = r.model(&host_names);
    let Resolver { refs, mut shares, .. } = r;
    shares.skill_table = skill_table_problems;
    shares.tool_table = tool_table_problems;
    Resolution { model, names: Names { skills, tools, refs }, shares }
}

/// The skills' scope table; names defined twice or shadowing go to `out`.
/// `diagnostic` with the near miss `near` as its fix replacing `written`
/// (its text at `at`), when `near` is the one name of `known` a typo away.
fn near_fix(
    diagnostic: Diagnostic,
    file: &RelPath,
    written: &str,
    at: Option<Span>,
    near: Option<&str>,
    known: &[&str],
) -> Diagnostic {
    match crate::suggest::confident(written, known.iter().copied()).filter(|f| near == Some(*f)) {
        Some(fix) => {
            diagnostic.with_fix(format!("replace `{written}` with `{fix}`"), file, at, fix)
        }
        None => diagnostic,
    }
}

/// The `model` an agent writes.
fn written_model(agent: &Agent) -> Option<&Spanned<agentc_schema::Text>> {
    match &agent.kind {
        AgentKind::Bundle(md) => md.front.value.model.as_ref(),
        AgentKind::Package { manifest, .. } => manifest.value.model.as_ref(),
    }
}

pub fn skill_table(project: &Project, door: Door, out: &mut Vec<Diagnostic>) -> Table {
    let defs = (0..project.skills.len()).map(|index| skill_def(project, index)).collect();
    skill_table_of(defs, door, out)
}

/// The skills' scope table of `defs` (all of them, duplicates too).
pub fn skill_table_of(defs: Vec<Def>, door: Door, out: &mut Vec<Diagnostic>) -> Table {
    build_table(defs, "skill", true, door, out)
}

/// The definition project skill `index` makes.
pub fn skill_def(project: &Project, index: usize) -> Def {
    let skill = &project.skills[index];
    let name = &skill.parsed.front.value.name;
    let site = Site { file: skill.source.path.clone(), span: Some(name.span) };
    // agentc's runbooks answer to its scopes; every other dialect is an
    // assistant's skill.
    let view = match skill.file.dialect {
        Dialect::Runbook => View::Agentc,
        _ => View::Assistants,
    };
    let file = DefFile { canonical: skill.file.file.path.clone(), text: skill.source.clone() };
    Def::defined(&skill.file.owner, name.value.as_str(), site, index, view, Some(file))
}

/// The tool names the host declares, with where each was declared.
fn host_names(
    project: &Project,
    opts: &Options,
    registry_file: Option<&RelPath>,
) -> Vec<(String, RelPath)> {
    let mut hosts = Vec::new();
    if let (Some(registry), Some(file)) = (&project.registry, registry_file) {
        hosts.extend(
            registry
                .tools
                .iter()
                .flatten()
                .map(|t| (t.value.name.value.as_str().to_owned(), file.clone())),
        );
    }
    let declared = RelPath::root(HOST_TOOLS_SITE);
    hosts.extend(opts.host_tools.iter().map(|name| (name.clone(), declared.clone())));
    hosts
}

/// How many skills a thread resolves at a time: enough that
/// starting one is nothing beside them, and that the help for a mistake
/// repeated in every skill is written a few times, not once per skill.
const PART_BATCH: usize = 64;

/// `text` as the model keeps it: the file's own characters, shared, when
/// it is written verbatim (most are), else a copy.
fn shared_text(source: &Source, text: &Spanned<agentc_schema::Text>) -> SharedStr {
    let value = text.value.as_str();
    match text.text_at.map(|at| Span::new(at, at + value.len())) {
        Some(at) if source.text.get(at.start..at.end) == Some(value) => source.shared(at),
        _ => SharedStr::from(value),
    }
}

/// Sorts `items` as `sort_by` does (stably), without its buffer of up to
/// as many items again (3 MB of the model's skills at 10,000): the order is
/// found among indexes, then the items are moved into it, cycle by cycle.
fn sort_in_place<T>(items: &mut [T], compare: impl Fn(&T, &T) -> std::cmp::Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| compare(&items[a], &items[b]));
    // `order[k]` is the index of the item that goes to `k`.
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let from = order[at];
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

/// How many skills are resolved before their parts are put together.
const PART_STRETCH: usize = 1024;

/// How many agents are resolved before their parts are put together.
const AGENT_STRETCH: usize = 16;

/// How tools the host declares in code (the macro's `tools = [...]`, the build
/// API) are shown in diagnostics.
pub const HOST_TOOLS_SITE: &str = "<host tools>";

fn tool_table(
    project: &Project,
    hosts: &[(String, RelPath)],
    door: Door,
    out: &mut Vec<Diagnostic>,
) -> Table {
    let mut defs: Vec<Def> = project
        .tools
        .iter()
        .enumerate()
        .map(|(index, tool)| {
            let site = Site { file: tool.dir.folder.clone(), span: None };
            Def::defined(&tool.dir.owner, &tool.dir.name, site, index, View::Agentc, None)
        })
        .collect();
    // A host name is the same tool as a descriptor of that (qualified) name.
    // A private descriptor is `agent__<agent>__<name>`: a host name equal to its
    // plain name is a different, shared tool (which the private one shadows).
    let mut known: HashSet<String> = defs.iter().map(|d| d.qualified.clone()).collect();
    for (name, file) in hosts {
        if !known.insert(name.clone()) {
            continue;
        }
        defs.push(Def {
            name: name.clone(),
            qualified: name.clone(),
            scope: ScopeKind::Host,
            agent: None,
            plugin: None,
            nested: None,
            site: Site { file: file.clone(), span: None },
            source: None,
            view: View::Agentc,
            file: None,
        });
    }
    build_table(defs, "tool", false, door, out)
}

struct Resolver<'a> {
    suggester: &'a mut Suggester,
    project: &'a Project,
    opts: &'a Options,
    skills: &'a Table,
    tools: &'a Table,
    refs: Vec<NameRef>,
    /// What each part made (their problems are not in `out`).
    shares: Shares,
    out: &'a mut Vec<Diagnostic>,
}

impl Resolver<'_> {
    /// Notes that `name` in `file` refers to a `kind`, resolved to `target`.
    fn note(
        &mut self,
        kind: RefKind,
        file: &RelPath,
        agent: Option<&str>,
        name: &Spanned<String>,
        target: Option<usize>,
    ) {
        if self.opts.references {
            self.refs.push(NameRef::new(kind, file, agent, name, target));
        }
    }

    /// Looks a skill up from `agent`'s scope, noting the reference.
    fn skill(
        &mut self,
        file: &RelPath,
        agent: Option<&str>,
        name: &Spanned<String>,
    ) -> Option<usize> {
        let found = self.skills.lookup(agent, &name.value);
        self.note(RefKind::Skill, file, agent, name, found);
        found
    }

    /// Whether `name` may be a skill whose file is broken (and reported).
    fn is_broken(&self, name: &str) -> bool {
        let plain =
            name.strip_prefix("agent__").and_then(|r| r.split_once("__")).map_or(name, |(_, n)| n);
        self.project.broken_skills.iter().any(|folder| folder == plain)
    }

    fn reference(def: &Def, written: &str) -> Reference {
        Reference { name: written.to_owned(), qualified: def.qualified.clone(), scope: def.scope }
    }

    /// Resolves a tool name, reporting `unknown-tool`.
    fn tool(
        &mut self,
        file: &RelPath,
        agent: Option<&str>,
        name: &Spanned<String>,
    ) -> Option<usize> {
        let found = self.tools.lookup(agent, &name.value);
        self.note(RefKind::Tool, file, agent, name, found);
        if found.is_none() {
            let mut unknown = self.suggester.unknown_help(self.tools, agent, &name.value, "tool");
            unknown.help.push_str(&format!(
                "; a tool is a descriptor (tools/<tool>/manifest.json) or a name the host declares (in {})",
                self.opts.door.host_tools()
            ));
            let diagnostic = Diagnostic::at(
                Code::UnknownTool,
                file,
                name.span,
                format!("unknown tool `{}`", name.value),
            );
            self.out.push(unknown.attach(diagnostic, file, name));
        }
        found
    }

    /// The model, given the tool names the host declares.
    fn model(&mut self, hosts: &HashSet<&str>) -> Model {
        let mut model = Model::default();
        // What the registry says of the tools it describes, by name.
        let described: HashMap<&str, &agentc_schema::RegistryTool> = (self.project.registry)
            .iter()
            .flat_map(|r| r.tools.iter().flatten())
            .filter(|t| t.value.description.is_some() || t.value.input_schema.is_some())
            .map(|t| (t.value.name.value.as_str(), &t.value))
            .collect();
        model.tools =
            self.tools.defs.iter().map(|tool| self.compile_tool(tool, hosts, &described)).collect();
        // Each skill and agent on its own, as an edit redoes it: the parts
        // run in parallel, and are put together in project order. A stretch
        // of skills at a time: every part's references held until all were
        // resolved, beside the list they are put together in, were the
        // compile's largest peak (27 MB at 10,000 skills).
        let (project, opts, tables) = (self.project, self.opts, (self.skills, self.tools));
        let count = project.skills.len();
        model.skills.reserve_exact(count);
        self.shares.skills.reserve_exact(count);
        for start in (0..count).step_by(PART_STRETCH) {
            let skills: Vec<Resolved<Option<lockfile::Skill>>> = (start
                ..count.min(start + PART_STRETCH))
                .into_par_iter()
                .with_min_len(PART_BATCH)
                .map_init(Suggester::default, |suggester, i| {
                    resolve_with(project, opts, tables, suggester, |r| {
                        r.compile_skill(i, &project.skills[i])
                    })
                })
                .collect();
            self.refs.reserve(skills.iter().map(|p| p.refs.len()).sum());
            for part in skills {
                model.skills.extend(part.compiled);
                let share = self.keep(part.refs, part.diagnostics);
                self.shares.skills.push(share);
            }
        }
        // An agent activates many skills: each is worth a thread, and a few
        // at a time are put together as the skills are.
        model.agents.reserve_exact(project.agents.len());
        self.shares.agents.reserve_exact(project.agents.len());
        for stretch in project.agents.chunks(AGENT_STRETCH) {
            let agents: Vec<Resolved<lockfile::Agent>> = (stretch.par_iter())
                .map_init(Suggester::default, |suggester, agent| {
                    resolve_with(project, opts, tables, suggester, |r| r.compile_agent(agent))
                })
                .collect();
            self.refs.reserve(agents.iter().map(|p| p.refs.len()).sum());
            for part in agents {
                model.agents.push(part.compiled);
                let share = self.keep(part.refs, part.diagnostics);
                self.shares.agents.push(share);
            }
        }
        sort_in_place(&mut model.tools, |a, b| a.qualified.cmp(&b.qualified));
        sort_in_place(&mut model.skills, |a, b| a.qualified.cmp(&b.qualified));
        sort_in_place(&mut model.agents, |a, b| a.id.cmp(&b.id));
        let assistants = resolve_with(project, opts, tables, self.suggester, |r| {
            assistants::resolve(project, r.skills, &mut r.refs, r.out)
        });
        model.assistants = assistants.compiled;
        self.shares.assistants = self.keep(assistants.refs, assistants.diagnostics);
        configs::resolve(self.project, &mut model);
        model
    }

    /// The share of a part resolved on its own, its `refs` appended.
    fn keep(&mut self, refs: Vec<NameRef>, diagnostics: Vec<Diagnostic>) -> Share {
        let share = Share { diagnostics, refs: refs.len() };
        self.refs.extend(refs);
        share
    }

    fn compile_tool(
        &self,
        def: &Def,
        hosts: &HashSet<&str>,
        described: &HashMap<&str, &agentc_schema::RegistryTool>,
    ) -> lockfile::Tool {
        let on_disk = def.source.map(|i| &self.project.tools[i]);
        let host = hosts.contains(def.qualified.as_str());
        let manifest = on_disk.and_then(|t| t.manifest.as_ref());
        // A descriptor on disk says what the model reads; else the registry may.
        let declared = match on_disk {
            None => described.get(def.qualified.as_str()).copied(),
            Some(_) => None,
        };
        lockfile::Tool {
            name: def.name.clone(),
            qualified: def.qualified.clone(),
            scope: def.scope,
            agent: def.agent.clone(),
            source: on_disk.map(|t| {
                manifest
                    .map_or_else(|| t.dir.folder.to_string(), |(source, _)| source.path.to_string())
            }),
            host,
            description: manifest
                .map(|(_, doc)| &doc.value.description)
                .or_else(|| declared.and_then(|t| t.description.as_ref()))
                .map(|d| d.value.as_str().to_owned()),
            input_schema: manifest
                .and_then(|(_, doc)| doc.value.input_schema.as_ref())
                .or_else(|| declared.and_then(|t| t.input_schema.as_ref()))
                .map(|s| s.value.clone()),
        }
    }

    /// The def index of project skill `i` (absent when it was a duplicate).
    fn skill_def(&self, i: usize) -> Option<&Def> {
        self.skills.def_of(i).map(|d| &self.skills.defs[d])
    }

    fn compile_skill(
        &mut self,
        i: usize,
        skill: &crate::project::Skill,
    ) -> Option<lockfile::Skill> {
        let def = self.skill_def(i)?.clone();
        let front = &skill.parsed.front.value;
        let file = &skill.source.path;
        let agent = def.agent.as_deref();
        // Every list at its size: they are kept in the model.
        let mut tools = Vec::with_capacity(front.tools.as_ref().map_or(0, |t| t.len()));
        for name in front.tools.iter().flatten() {
            if let Some(t) = self.tool(file, agent, name) {
                tools.push(self.tools.defs[t].qualified.clone());
            }
        }
        let declared = |tool: &str| front.tools.iter().flatten().any(|t| t.value == tool);
        let mut steps = Vec::with_capacity(front.steps.as_ref().map_or(0, |s| s.len()));
        for step in front.steps.iter().flatten() {
            let tool = &step.value.tool;
            let found = self.tools.lookup(agent, &tool.value);
            self.note(RefKind::Tool, file, agent, tool, found);
            if let Some(t) = found.filter(|_| declared(&tool.value)) {
                steps.push(lockfile::CompiledStep {
                    tool: self.tools.defs[t].qualified.clone(),
                    why: shared_text(&skill.source, &step.value.why),
                });
            }
        }
        let mut routes = Vec::with_capacity(front.routes.as_ref().map_or(0, |r| r.len()));
        for route in front.routes.iter().flatten() {
            let guard_text = route.guard.as_ref();
            let guard = guard_text.and_then(|g| agentc_schema::parse_guard(&g.value).ok());
            let on_tool = match (guard_text, guard.as_ref().and_then(|g| g.on.as_ref())) {
                (Some(text), Some(on)) => {
                    let token = text.token(on.range.clone());
                    let found = self.tools.lookup(agent, &on.value);
                    self.note(RefKind::Tool, file, agent, &token, found);
                    found.map(|t| self.tools.defs[t].qualified.clone())
                }
                _ => None,
            };
            let Some(target) = self.skill(file, agent, &route.target) else {
                if self.is_broken(&route.target.value) {
                    continue;
                }
                let diagnostic = Diagnostic::at(
                    Code::UnknownRouteTarget,
                    file,
                    route.target.span,
                    format!(
                        "the route leads to `{}`, which is not a skill visible here",
                        route.target.value
                    ),
                );
                let unknown = self.suggester.unknown_help_except(
                    self.skills,
                    agent,
                    &route.target.value,
                    "skill",
                    Some(&def.name),
                );
                self.out.push(unknown.attach(diagnostic, file, &route.target));
                continue;
            };
            routes.push(lockfile::CompiledRoute {
                target: self.skills.defs[target].qualified.clone(),
                on_tool,
                statuses: guard
                    .map(|g| g.statuses.into_iter().map(|s| s.value).collect())
                    .unwrap_or_default(),
            });
        }
        let metadata: BTreeMap<String, serde_json::Value> =
            skill.parsed.front.extra.iter().cloned().collect();
        let typed = ["name", "description", "tools", "steps", "onSkip", "routes"];
        let fields = kept_fields(&skill.parsed.front, &typed);
        Some(lockfile::Skill {
            name: def.name.clone(),
            qualified: def.qualified.clone(),
            scope: def.scope,
            agent: def.agent.clone(),
            source: file.shared(),
            description: shared_text(&skill.source, &front.description),
            body: skill.source.shared(skill.parsed.body_span),
            tools,
            steps,
            on_skip: front.on_skip.as_ref().map(|o| o.value),
            routes,
            metadata,
            dialect: skill.file.dialect,
            plugin: def.plugin.clone(),
            fields,
        })
    }

    fn compile_agent(&mut self, agent: &Agent) -> lockfile::Agent {
        let id = agent.dir.id.as_str();
        let file = agent.source.path.clone();
        let style = match &agent.kind {
            AgentKind::Bundle(_) => AgentStyle::Bundle,
            AgentKind::Package { .. } => AgentStyle::Package,
        };
        let refs = agent.references();
        let mut tools = Vec::new();
        for name in &refs.tools {
            if let Some(t) = self.tool(&file, Some(id), name) {
                tools.push(Self::reference(&self.tools.defs[t], &name.value));
            }
        }
        let listed: HashSet<String> = tools.iter().map(|r| r.qualified.clone()).collect();
        for def in self.tools.agent_defs(id).filter(|d| !listed.contains(&d.qualified)) {
            tools.push(Self::reference(def, &def.name));
        }
        let mut disallowed = Vec::new();
        for name in &refs.disallowed {
            if let Some(t) = self.tool(&file, Some(id), name) {
                disallowed.push(Self::reference(&self.tools.defs[t], &name.value));
            }
        }
        let mut skills = Vec::new();
        for name in &refs.skills {
            match self.skill(&file, Some(id), name) {
                Some(s) => skills.push(Self::reference(&self.skills.defs[s], &name.value)),
                None if self.is_broken(&name.value) => {}
                None => {
                    let diagnostic = Diagnostic::at(
                        Code::UnknownSkill,
                        &file,
                        name.span,
                        format!("unknown skill `{}`", name.value),
                    );
                    let unknown =
                        self.suggester.unknown_help(self.skills, Some(id), &name.value, "skill");
                    self.out.push(unknown.attach(diagnostic, &file, name));
                }
            }
        }
        let listed: HashSet<String> = skills.iter().map(|r| r.qualified.clone()).collect();
        for def in self.skills.agent_defs(id).filter(|d| !listed.contains(&d.qualified)) {
            skills.push(Self::reference(def, &def.name));
        }
        let context = self.context(&file, &refs.context);
        let model = self.agent_model(agent);
        let start = match &agent.kind {
            AgentKind::Bundle(md) => md.front.value.start.as_ref().and_then(|start| {
                let start = start.as_ref().map(|text| text.as_str().to_owned());
                let found = self.skill(&file, Some(id), &start);
                let active = found.is_some_and(|s| {
                    skills.iter().any(|r| r.qualified == self.skills.defs[s].qualified)
                });
                // Missing and also listed in `skills`: reported there once.
                let listed = refs.skills.iter().any(|s| s.value == start.value.as_str());
                let broken = (found.is_none() && (listed || self.is_broken(start.value.as_str())))
                    || md.front.recovered("skills");
                if !active && !broken {
                    let activated: Vec<&str> = skills.iter().map(|r| r.name.as_str()).collect();
                    let near = did_you_mean(start.value.as_str(), activated.iter().copied());
                    let mut help =
                        near.map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                    help.push_str(&if activated.is_empty() {
                        "the agent activates no skills; list them under `skills`".to_owned()
                    } else {
                        format!(
                            "the runbook starts at one of the agent's skills: {}",
                            list_names(activated)
                        )
                    });
                    let diagnostic = Diagnostic::at(
                        Code::UnknownSkill,
                        &file,
                        start.span,
                        format!(
                            "the runbook starts at `{}`, which is not a skill this agent activates",
                            start.value
                        ),
                    );
                    let close = near.map(str::to_owned);
                    self.out.push(Unknown { help, close }.attach(diagnostic, &file, &start));
                }
                found.filter(|_| active).map(|s| self.skills.defs[s].qualified.clone())
            }),
            AgentKind::Package { .. } => None,
        };
        let (layers, instructions) = self.prompt(agent);
        let mut compiled = lockfile::Agent {
            id: id.to_owned(),
            style,
            source: file.to_string(),
            display_name: None,
            version: None,
            description: None,
            model,
            tools,
            skills,
            disallowed_tools: disallowed,
            context,
            start,
            hooks: agent.dir.hooks.clone(),
            file_patterns: Vec::new(),
            keywords: Vec::new(),
            tags: Vec::new(),
            role: None,
            context_mode: None,
            max_iterations: None,
            effort: None,
            memory: None,
            platforms: Vec::new(),
            scopes: Vec::new(),
            permissions: Vec::new(),
            prompt_layers: layers,
            instructions,
        };
        let strings = |list: &Option<agentc_schema::List<agentc_schema::Text>>| -> Vec<String> {
            list.iter().flatten().map(|t| t.value.as_str().to_owned()).collect()
        };
        match &agent.kind {
            AgentKind::Bundle(md) => {
                compiled.display_name =
                    md.front.value.name.as_ref().map(|n| n.value.as_str().to_owned());
                compiled.description =
                    md.front.value.description.as_ref().map(|d| d.value.as_str().to_owned());
            }
            AgentKind::Package { manifest, .. } => {
                let m = &manifest.value;
                compiled.display_name = Some(m.name.value.as_str().to_owned());
                compiled.version = Some(m.version.value.0.clone());
                compiled.description = Some(m.description.value.as_str().to_owned());
                compiled.file_patterns = strings(&m.trigger_rules.file_patterns);
                compiled.keywords = strings(&m.trigger_rules.keywords);
                compiled.tags = strings(&m.tags);
                compiled.role = m.role.as_ref().map(|r| r.value.as_str().to_owned());
                compiled.context_mode = m.context_mode.as_ref().map(|c| c.value);
                compiled.max_iterations = m.max_iterations.as_ref().map(|n| n.value.get());
                compiled.effort = m.effort.as_ref().map(|e| e.value);
                compiled.memory = m.memory.as_ref().map(|e| e.value);
                compiled.platforms = strings(&m.platforms);
                compiled.scopes = m.scopes.iter().flatten().map(|s| s.value.to_string()).collect();
                compiled.permissions = strings(&m.permissions);
            }
        }
        compiled
    }

    /// Context providers must be declared by the registry (fail closed).
    fn context(&mut self, file: &RelPath, names: &[Spanned<String>]) -> Vec<String> {
        let declared: Vec<&str> = self
            .project
            .registry
            .iter()
            .flat_map(|r| r.context.iter().flatten())
            .map(|c| c.value.as_str())
            .collect();
        let mut out = Vec::new();
        for name in names {
            if declared.contains(&name.value.as_str()) {
                out.push(name.value.clone());
                continue;
            }
            let near = did_you_mean(&name.value, declared.iter().copied());
            let help = if declared.is_empty() {
                format!(
                    "no context providers are declared; list them under `context` in {}",
                    self.opts.door.registry()
                )
            } else {
                format!(
                    "{}the registry declares {}",
                    near.map(|n| format!("did you mean `{n}`? ")).unwrap_or_default(),
                    list_names(declared.iter().copied())
                )
            };
            let diagnostic = Diagnostic::at(
                Code::UnknownContext,
                file,
                name.span,
                format!("unknown context provider `{}`", name.value),
            )
            .with_help(help);
            let at = name.verbatim(0..name.value.len());
            self.out.push(near_fix(diagnostic, file, &name.value, at, near, &declared));
        }
        out
    }

    /// The agent's model as `<provider>/<model>`, checked against the registry.
    fn agent_model(&mut self, agent: &Agent) -> Option<String> {
        let file = agent.source.path.clone();
        let (text, span) = match &agent.kind {
            AgentKind::Bundle(md) => {
                let model = md.front.value.model.as_ref()?;
                (model.value.as_str().to_owned(), model.span)
            }
            AgentKind::Package { manifest, .. } => {
                let m = &manifest.value;
                let model = m.model.as_ref()?;
                let written = model.value.as_str();
                match (&m.provider, written.split_once('/')) {
                    (Some(provider), Some((model_provider, _)))
                        if model_provider != provider.value.as_str() =>
                    {
                        self.out.push(
                            Diagnostic::at(
                                Code::InvalidValue,
                                &file,
                                provider.span,
                                format!(
                                    "`provider` is `{}` but `model` names the provider `{model_provider}`",
                                    provider.value
                                ),
                            )
                            .with_label(&file, Some(model.span), "the model's provider")
                            .with_help("make them agree, or drop `provider` and keep `<provider>/<model>` in `model`"),
                        );
                        return None;
                    }
                    (Some(provider), None) => (format!("{}/{written}", provider.value), model.span),
                    _ => (written.to_owned(), model.span),
                }
            }
        };
        let well_formed = crate::parse::files::is_model(&text);
        if !well_formed {
            let help = match &agent.kind {
                AgentKind::Bundle(_) => {
                    "write the model as `<provider>/<model>`, e.g. `anthropic/claude-sonnet-4-5`"
                }
                AgentKind::Package { .. } => {
                    "write `<provider>/<model>` in `model`, or give the provider in `provider`"
                }
            };
            self.out.push(
                Diagnostic::at(
                    Code::BadModel,
                    &file,
                    span,
                    format!("the model `{text}` is not `<provider>/<model>`"),
                )
                .with_help(help),
            );
            return None;
        }
        let listed: Vec<&str> = self
            .project
            .registry
            .iter()
            .flat_map(|r| r.models.iter().flatten())
            .map(|m| m.value.as_str())
            .collect();
        if !listed.is_empty() && !listed.contains(&text.as_str()) {
            let near = did_you_mean(&text, listed.iter().copied());
            let diagnostic = Diagnostic::at(
                Code::UnknownModel,
                &file,
                span,
                format!("the registry does not list the model `{text}`"),
            )
            .with_help(format!(
                "{}the registry lists {}",
                near.map(|n| format!("did you mean `{n}`? ")).unwrap_or_default(),
                list_names(listed.iter().copied())
            ));
            // Only a model written whole (not joined to a `provider`) is
            // replaced, and only for a typo in its letters: a different
            // version (`-4-6` for `-4-5`) is another model.
            let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
            let near = near.filter(|n| digits(n) == digits(&text));
            let written = written_model(agent).filter(|m| m.value.as_str() == text);
            self.out.push(match written {
                Some(model) => {
                    let at = model.verbatim(0..text.len());
                    near_fix(diagnostic, &file, &text, at, near, &listed)
                }
                None => diagnostic,
            });
        }
        Some(text)
    }

    /// The prompt layers, in order, and their composed text.
    fn prompt(&self, agent: &Agent) -> (Vec<PromptLayer>, String) {
        let mut layers = Vec::new();
        let agent_prompt = !self.opts.excludes(Scope::AgentPrompt);
        let system = self.project.system_prompt.as_ref().map(|s| PromptLayer {
            scope: PromptScope::SystemPrompt,
            source: s.path.to_string(),
            heading: None,
            text: s.text.trim().to_owned(),
        });
        let repo = self.project.repo_prompt.as_ref().map(|s| PromptLayer {
            scope: PromptScope::RepoPrompt,
            source: s.path.to_string(),
            heading: None,
            text: s.text.trim().to_owned(),
        });
        match &agent.kind {
            AgentKind::Bundle(md) => {
                if let Some(instructions) =
                    md.front.value.instructions.as_ref().filter(|_| agent_prompt)
                {
                    layers.push(PromptLayer {
                        scope: PromptScope::AgentPrompt,
                        source: agent.source.path.to_string(),
                        heading: None,
                        text: instructions.value.as_str().trim().to_owned(),
                    });
                }
                layers.extend(system);
                let body = md.body(&agent.source).trim();
                if agent_prompt && !body.is_empty() {
                    layers.push(PromptLayer {
                        scope: PromptScope::AgentPrompt,
                        source: agent.source.path.to_string(),
                        heading: None,
                        text: body.to_owned(),
                    });
                }
                layers.extend(repo);
            }
            AgentKind::Package { entry_points, workflows, knowledge, .. } => {
                let folder = &*agent.dir.folder.path;
                for source in entry_points.iter().chain(workflows).chain(knowledge) {
                    let heading = source
                        .path
                        .path
                        .strip_prefix(folder)
                        .unwrap_or(&source.path.path)
                        .to_owned();
                    layers.push(PromptLayer {
                        scope: PromptScope::AgentPrompt,
                        source: source.path.to_string(),
                        heading: Some(heading),
                        text: source.text.trim().to_owned(),
                    });
                }
                layers.extend(system);
                layers.extend(repo);
            }
        }
        let composed = layers
            .iter()
            .map(|l| match &l.heading {
                Some(h) => format!("## {h}\n\n{}", l.text),
                None => l.text.clone(),
            })
            .collect::<Vec<_>>()
            .join("\n\n");
        (layers, composed)
    }
}

#[cfg(test)]
mod tests {
    use super::sort_in_place;

    /// The same order as the standard library's stable sort, ties included.
    #[test]
    fn sorts_in_place_as_stably_as_sort_by() {
        let mut seed = 7u64;
        for len in [0, 1, 2, 3, 10, 100, 1000] {
            let items: Vec<(u64, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (seed >> 60, i)
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|a| a.0);
            let mut sorted = items;
            sort_in_place(&mut sorted, |a, b| a.0.cmp(&b.0));
            assert_eq!(sorted, expected, "{len} items");
        }
    }
}
