//! The scope tables: every skill and tool definition by scope, the lookups
//! that resolve a name as seen from an agent or a plugin, and the
//! `duplicate-name` and `name-shadow` problems found while building them.

use std::collections::{BTreeMap, HashMap};

use agentc_schema::Span;
use agentc_schema::lockfile::ScopeKind;
use agentc_schema::names::qualified_name;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath};
use crate::discover::Owner;
use crate::options::Scope;
use crate::suggest::{LIST_LIMIT, NameIndex};

/// Where a definition is, for diagnostics: a span in a file, or a folder.
#[derive(Clone, Debug)]
pub struct Site {
    pub file: RelPath,
    pub span: Option<Span>,
}

/// A skill or tool definition in the scope tables.
#[derive(Clone, Debug)]
pub struct Def {
    pub name: String,
    pub qualified: String,
    pub scope: ScopeKind,
    pub agent: Option<String>,
    /// The Claude Code plugin defining it: its own namespace, never shared.
    pub plugin: Option<String>,
    pub site: Site,
    /// The index of the definition in `Project::skills` or `Project::tools`
    /// (none for a tool only the host declares).
    pub source: Option<usize>,
}

impl Def {
    /// A definition on disk: project item `index`, named `name`, owned by `owner`.
    pub(super) fn defined(owner: &Owner, name: &str, site: Site, index: usize) -> Def {
        let (scope, agent) = scope_kind(owner);
        let plugin = match owner {
            Owner::Plugin(plugin) => Some(plugin.clone()),
            _ => None,
        };
        let qualified = match (&agent, &plugin) {
            (Some(a), _) => qualified_name(a, name),
            (None, Some(p)) => format!("{p}:{name}"),
            (None, None) => name.to_owned(),
        };
        Def { name: name.to_owned(), qualified, scope, agent, plugin, site, source: Some(index) }
    }
}

/// The names of a table, indexed for "did you mean": the shared ones, and
/// each agent's and plugin's own.
#[derive(Debug, Default)]
struct NearestIndexes {
    shared: NameIndex,
    private: HashMap<String, NameIndex>,
    plugins: HashMap<String, NameIndex>,
}

/// A table's names, sorted.
#[derive(Debug, Default)]
struct NameLists {
    shared: Vec<String>,
    /// By agent.
    private: HashMap<String, Vec<String>>,
    /// The agents privately defining each name.
    owners: HashMap<String, Vec<String>>,
}

/// One kind of definition (skills or tools), indexed by scope.
#[derive(Debug, Default)]
pub struct Table {
    pub defs: Vec<Def>,
    /// The definitions left out as duplicates (reported).
    duplicates: Vec<Def>,
    /// For help text and "did you mean", made when first asked for: most
    /// compiles, and most edits, never need them.
    lists: std::sync::OnceLock<NameLists>,
    nearest: std::sync::OnceLock<NearestIndexes>,
    /// Each agent's private definitions, in definition order.
    by_agent: HashMap<String, Vec<usize>>,
    /// Def index by project index (duplicates, which are reported, have none).
    by_source: HashMap<usize, usize>,
    shared: HashMap<String, usize>,
    private: HashMap<(String, String), usize>,
    /// By (plugin, name).
    plugins: HashMap<(String, String), usize>,
}

impl Table {
    /// Looks `name` up as seen from inside `agent` (or from the shared scope).
    pub fn lookup(&self, agent: Option<&str>, name: &str) -> Option<usize> {
        if let Some(agent) = agent {
            let plain = name
                .strip_prefix("agent__")
                .and_then(|rest| rest.strip_prefix(agent))
                .and_then(|rest| rest.strip_prefix("__"))
                .unwrap_or(name);
            if let Some(&i) = self.private.get(&(agent.to_owned(), plain.to_owned())) {
                return Some(i);
            }
        }
        self.shared.get(name).copied()
    }

    /// Looks `name` up as seen from inside a plugin: its own, then the shared scope.
    pub fn lookup_in_plugin(&self, plugin: Option<&str>, name: &str) -> Option<usize> {
        plugin
            .and_then(|p| self.plugins.get(&(p.to_owned(), name.to_owned())).copied())
            .or_else(|| self.shared.get(name).copied())
    }

    /// Every name visible from `agent` (the shared ones and its own), sorted,
    /// with the definition each resolves to there.
    pub fn visible(&self, agent: Option<&str>) -> Vec<(&str, usize)> {
        let lists = self.lists();
        let private: &[String] =
            agent.and_then(|a| lists.private.get(a)).map_or(&[], Vec::as_slice);
        let mut names: Vec<&str> = lists.shared.iter().chain(private).map(String::as_str).collect();
        names.sort_unstable();
        names.dedup();
        names.into_iter().filter_map(|name| Some((name, self.lookup(agent, name)?))).collect()
    }

    /// The names visible from `agent`, sorted: the first [`LIST_LIMIT`] and how
    /// many there are (cheap however large the registry).
    pub fn visible_sample(&self, agent: Option<&str>) -> (Vec<&str>, usize) {
        let lists = self.lists();
        let private: &[String] =
            agent.and_then(|a| lists.private.get(a)).map_or(&[], Vec::as_slice);
        let mut sample: Vec<&str> = lists
            .shared
            .iter()
            .take(LIST_LIMIT)
            .chain(private.iter().take(LIST_LIMIT))
            .map(String::as_str)
            .collect();
        sample.sort_unstable();
        sample.dedup();
        sample.truncate(LIST_LIMIT);
        let shadowed = private.iter().filter(|n| self.shared.contains_key(*n)).count();
        (sample, lists.shared.len() + private.len() - shadowed)
    }

    /// Each agent's private definitions, in definition order.
    fn index_agents(&mut self) {
        for ((agent, _), &i) in &self.private {
            self.by_agent.entry(agent.clone()).or_default().push(i);
        }
        self.by_agent.values_mut().for_each(|v| v.sort_unstable());
    }

    fn lists(&self) -> &NameLists {
        self.lists.get_or_init(|| {
            let mut lists =
                NameLists { shared: self.shared.keys().cloned().collect(), ..NameLists::default() };
            lists.shared.sort_unstable();
            for (agent, name) in self.private.keys() {
                lists.private.entry(agent.clone()).or_default().push(name.clone());
                lists.owners.entry(name.clone()).or_default().push(agent.clone());
            }
            lists.private.values_mut().for_each(|v| v.sort_unstable());
            lists.owners.values_mut().for_each(|v| v.sort_unstable());
            lists
        })
    }

    fn nearest_indexes(&self) -> &NearestIndexes {
        self.nearest.get_or_init(|| {
            let mut by_plugin: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
            for (plugin, name) in self.plugins.keys() {
                by_plugin.entry(plugin).or_default().push(name);
            }
            let lists = self.lists();
            NearestIndexes {
                shared: NameIndex::new(lists.shared.iter().map(String::as_str)),
                private: (lists.private.iter())
                    .map(|(agent, names)| {
                        (agent.clone(), NameIndex::new(names.iter().map(String::as_str)))
                    })
                    .collect(),
                plugins: (by_plugin.into_iter())
                    .map(|(plugin, names)| (plugin.to_owned(), NameIndex::new(names)))
                    .collect(),
            }
        })
    }

    /// Takes every definition it was built from, duplicates too: what a
    /// table with one definition changed is built from again.
    pub fn take_defs(&mut self) -> Vec<Def> {
        let mut defs = std::mem::take(&mut self.defs);
        defs.append(&mut self.duplicates);
        defs
    }

    /// The definition of project item `index` (none for a duplicate).
    pub fn def_of(&self, index: usize) -> Option<usize> {
        self.by_source.get(&index).copied()
    }

    /// The definitions private to `agent`, in definition order.
    pub(super) fn agent_defs(&self, agent: &str) -> impl Iterator<Item = &Def> {
        let indexes = self.by_agent.get(agent).map_or(&[][..], Vec::as_slice);
        indexes.iter().map(|&i| &self.defs[i])
    }

    /// The name nearest to `name` as seen from inside a plugin (its own and the
    /// shared scope's).
    pub fn nearest_in_plugin(&self, plugin: Option<&str>, name: &str) -> Option<&str> {
        let indexes = self.nearest_indexes();
        self.nearest_with(plugin.and_then(|p| indexes.plugins.get(p)), name, None)
    }

    /// The visible name nearest to `name`, other than `except`.
    pub(super) fn nearest(
        &self,
        agent: Option<&str>,
        name: &str,
        except: Option<&str>,
    ) -> Option<&str> {
        let indexes = self.nearest_indexes();
        self.nearest_with(agent.and_then(|a| indexes.private.get(a)), name, except)
    }

    /// The name nearest to `name` among the shared names and `own` (an
    /// agent's or a plugin's).
    fn nearest_with<'a>(
        &'a self,
        own: Option<&'a NameIndex>,
        name: &str,
        except: Option<&str>,
    ) -> Option<&'a str> {
        let shared = &self.nearest_indexes().shared;
        let indexes: Vec<&NameIndex> = std::iter::once(shared).chain(own).collect();
        NameIndex::nearest(&indexes, name, except)
    }

    /// The agent that privately defines `name`, when one does (for help text).
    pub(super) fn owner_of_private(&self, name: &str) -> Option<&str> {
        self.lists().owners.get(name).and_then(|o| o.first()).map(String::as_str)
    }
}

fn scope_kind(owner: &Owner) -> (ScopeKind, Option<String>) {
    match owner {
        Owner::Global => (ScopeKind::Global, None),
        Owner::Repo => (ScopeKind::Repo, None),
        Owner::Agent(a) => (ScopeKind::Agent, Some(a.clone())),
        Owner::Plugin(_) => (ScopeKind::Plugin, None),
    }
}

/// The `--exclude` scope that drops definitions of `kind` in `scope`.
fn exclude_for(scope: ScopeKind, skills: bool) -> Option<Scope> {
    Some(match (scope, skills) {
        (ScopeKind::Global, true) => Scope::GlobalSkills,
        (ScopeKind::Repo, true) => Scope::RepoSkills,
        (ScopeKind::Agent, true) => Scope::AgentSkills,
        (ScopeKind::Global, false) => Scope::GlobalTools,
        (ScopeKind::Repo, false) => Scope::RepoTools,
        (ScopeKind::Agent, false) => Scope::AgentTools,
        (ScopeKind::Host | ScopeKind::Plugin, _) => return None,
    })
}

/// How narrow a scope is: private, then repo, then global and host.
fn narrowness(scope: ScopeKind) -> u8 {
    match scope {
        ScopeKind::Agent | ScopeKind::Plugin => 2,
        ScopeKind::Repo => 1,
        ScopeKind::Global | ScopeKind::Host => 0,
    }
}

/// Builds a table from definitions in path order, reporting duplicates and shadows.
pub(super) fn build_table(
    mut defs: Vec<Def>,
    noun: &str,
    skills: bool,
    out: &mut Vec<Diagnostic>,
) -> Table {
    defs.sort_by(|a, b| a.site.file.cmp(&b.site.file).then(a.site.span.cmp(&b.site.span)));
    let mut table = Table::default();
    // Each definition's first in its scope: itself, or an earlier one it duplicates.
    let mut seen: HashMap<(Option<&str>, ScopeKind, &str), usize> = HashMap::new();
    let first: Vec<usize> = (defs.iter().enumerate())
        .map(|(i, def)| {
            let namespace = def.agent.as_deref().or(def.plugin.as_deref());
            *seen.entry((namespace, def.scope, def.name.as_str())).or_insert(i)
        })
        .collect();
    drop(seen);
    // Where each kept definition lands in `table.defs`.
    let mut kept = vec![0; defs.len()];
    for (i, def) in defs.into_iter().enumerate() {
        if first[i] != i {
            let earlier = &table.defs[kept[first[i]]];
            out.push(
                Diagnostic::new(
                    Code::DuplicateName,
                    &def.site.file,
                    def.site.span,
                    format!("the {noun} `{}` is defined twice in one scope", def.name),
                )
                .with_label(&earlier.site.file, earlier.site.span, "first defined here")
                .with_help(format!(
                    "rename one of them; two {noun}s with one name would silently shadow each other"
                )),
            );
            table.duplicates.push(def);
            continue;
        }
        kept[i] = table.defs.len();
        if let Some(source) = def.source {
            table.by_source.insert(source, table.defs.len());
        }
        table.defs.push(def);
    }
    // Shared scope: global and repo (and host tools) together.
    for i in 0..table.defs.len() {
        if let Some(plugin) = &table.defs[i].plugin {
            table.plugins.insert((plugin.clone(), table.defs[i].name.clone()), i);
            continue;
        }
        if table.defs[i].agent.is_some() {
            continue;
        }
        let name = table.defs[i].name.clone();
        match table.shared.get(&name).copied() {
            None => {
                table.shared.insert(name, i);
            }
            Some(j) => {
                let (narrow, wide) =
                    if narrowness(table.defs[i].scope) >= narrowness(table.defs[j].scope) {
                        (i, j)
                    } else {
                        (j, i)
                    };
                shadow(&table.defs[narrow], &table.defs[wide], noun, skills, out);
                table.shared.insert(name, narrow);
            }
        }
    }
    for i in 0..table.defs.len() {
        let Some(agent) = table.defs[i].agent.clone() else {
            continue;
        };
        let name = table.defs[i].name.clone();
        if let Some(&shared) = table.shared.get(&name) {
            shadow(&table.defs[i], &table.defs[shared], noun, skills, out);
        }
        table.private.insert((agent, name), i);
    }
    table.index_agents();
    table
}

fn shadow(narrow: &Def, wide: &Def, noun: &str, skills: bool, out: &mut Vec<Diagnostic>) {
    let describe = |d: &Def| match (&d.scope, &d.agent) {
        (ScopeKind::Agent, Some(a)) => format!("a {noun} private to the agent `{a}`"),
        (ScopeKind::Repo, _) => format!("a repo {noun}"),
        (ScopeKind::Host, _) => format!("a {noun} the registry declares"),
        _ => format!("a global {noun}"),
    };
    let excludes: Vec<String> = [narrow.scope, wide.scope]
        .into_iter()
        .filter_map(|s| exclude_for(s, skills))
        .map(|s| format!("`--exclude {s}`"))
        .collect();
    let help = if excludes.is_empty() {
        "rename one of them".to_owned()
    } else {
        format!("rename one of them, or drop a scope deliberately with {}", excludes.join(" or "))
    };
    out.push(
        Diagnostic::new(
            Code::NameShadow,
            &narrow.site.file,
            narrow.site.span,
            format!(
                "`{}`, {}, shadows {} of the same name",
                narrow.name,
                describe(narrow),
                describe(wide)
            ),
        )
        .with_label(&wide.site.file, wide.site.span, "the other definition")
        .with_help(help),
    );
}
