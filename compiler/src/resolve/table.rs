//! The scope tables: every skill and tool definition by scope, the lookups
//! that resolve a name as seen from an agent or a plugin, and the
//! `duplicate-name`, `name-shadow` and `skill-drift` problems found while
//! building them. agentc's runbooks keep its scopes; the assistants' skill
//! folders are one namespace in which a copy is the same skill.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use agentc_schema::Span;
use agentc_schema::lockfile::ScopeKind;
use agentc_schema::names::qualified_name;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath};
use crate::discover::Owner;
use crate::options::{Door, Scope};
use crate::source::Source;
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
    /// The folder of a nested Codex skill folder defining it
    /// ([`Owner::Nested`]): its own namespace, never shared.
    pub nested: Option<String>,
    pub site: Site,
    /// The index of the definition in `Project::skills` or `Project::tools`
    /// (none for a tool only the host declares).
    pub source: Option<usize>,
    pub view: View,
    /// The file that defines it, for a skill: a file reached by two paths is
    /// one definition, and copies are compared.
    pub file: Option<DefFile>,
}

/// Whose naming rules a definition answers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// agentc's runtimes: global, repo and agent scopes, with `duplicate-name`
    /// and `name-shadow` between them (CONTRACT §5).
    Agentc,
    /// The coding assistants' skill folders (`.claude/skills/`,
    /// `.agents/skills/`, a plugin's `skills/`, …). Each host reads its own
    /// folders and keeps one skill of each name, so the same skill in two of
    /// them is one definition; only copies that differ are worth a word.
    Assistants,
}

/// The file a definition is read from.
#[derive(Clone, Debug)]
pub struct DefFile {
    /// Canonical: two paths through links to one file compare equal.
    pub canonical: PathBuf,
    pub text: Source,
}

impl Def {
    /// A definition on disk: project item `index`, named `name`, owned by `owner`.
    pub(super) fn defined(
        owner: &Owner,
        name: &str,
        site: Site,
        index: usize,
        view: View,
        file: Option<DefFile>,
    ) -> Def {
        let (scope, agent) = scope_kind(owner);
        let plugin = match owner {
            Owner::Plugin(plugin) => Some(plugin.clone()),
            _ => None,
        };
        let nested = match owner {
            Owner::Nested(folder) => Some(folder.clone()),
            _ => None,
        };
        let qualified = match (&agent, &plugin, &nested) {
            (Some(a), _, _) => qualified_name(a, name),
            (None, Some(p), _) => format!("{p}:{name}"),
            (None, None, Some(folder)) => format!("{folder}/{name}"),
            (None, None, None) => name.to_owned(),
        };
        Def {
            name: name.to_owned(),
            qualified,
            scope,
            agent,
            plugin,
            nested,
            site,
            source: Some(index),
            view,
            file,
        }
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
            // `<plugin>:<skill>`, the name Claude Code gives a plugin's skill.
            .or_else(|| {
                let (p, skill) = name.split_once(':')?;
                self.plugins.get(&(p.to_owned(), skill.to_owned())).copied()
            })
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
        Owner::Nested(_) => (ScopeKind::Repo, None),
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

/// Where a name must be unique: the view, the agent or plugin, the scope
/// (agentc's own only) and the name.
type ScopeKey<'a> = (View, Option<&'a str>, Option<ScopeKind>, &'a str);

/// Builds a table from definitions in path order, reporting duplicates and shadows.
pub(super) fn build_table(
    mut defs: Vec<Def>,
    noun: &str,
    skills: bool,
    door: Door,
    out: &mut Vec<Diagnostic>,
) -> Table {
    defs.sort_by(|a, b| a.site.file.cmp(&b.site.file).then(a.site.span.cmp(&b.site.span)));
    let mut table = Table::default();
    // At its size: 10,000 definitions grown by doubling held room for 16,384.
    table.defs.reserve_exact(defs.len());
    table.by_source.reserve(defs.len());
    // A file reached by two paths (the `skills` installer links one copy
    // into each assistant's folder) is one definition, whatever its scopes.
    let mut files: HashMap<&Path, usize> = HashMap::new();
    let same_file: Vec<bool> = (defs.iter().enumerate())
        .map(|(i, def)| {
            def.file.as_ref().is_some_and(|f| *files.entry(&f.canonical).or_insert(i) != i)
        })
        .collect();
    drop(files);
    // Each definition's first in its scope: itself, or an earlier one it
    // duplicates. The assistants' folders are one scope per namespace: which
    // folder a copy is in does not make it a different skill.
    let mut seen: HashMap<ScopeKey<'_>, usize> = HashMap::new();
    let first: Vec<usize> = (defs.iter().enumerate())
        .map(|(i, def)| {
            if same_file[i] {
                return i;
            }
            let namespace =
                def.agent.as_deref().or(def.plugin.as_deref()).or(def.nested.as_deref());
            let scope = (def.view == View::Agentc).then_some(def.scope);
            *seen.entry((def.view, namespace, scope, def.name.as_str())).or_insert(i)
        })
        .collect();
    drop(seen);
    // Where each kept definition lands in `table.defs`.
    let mut kept = vec![0; defs.len()];
    for (i, def) in defs.into_iter().enumerate() {
        if same_file[i] {
            table.duplicates.push(def);
            continue;
        }
        if first[i] != i {
            let earlier = &table.defs[kept[first[i]]];
            if let Some(copy) = copies(earlier, &def) {
                out.extend(copy.drift(earlier, &def));
                table.duplicates.push(def);
                continue;
            }
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
        // A nested Codex skill is seen only from its folder down.
        if table.defs[i].agent.is_some() || table.defs[i].nested.is_some() {
            continue;
        }
        let name = table.defs[i].name.clone();
        match table.shared.get(&name).copied() {
            None => {
                table.shared.insert(name, i);
            }
            // agentc's runbooks and an assistant's skill of one name are
            // read by different hosts; agentc's agents see their own.
            // Copies of one skill still drift apart across the two.
            Some(j) if table.defs[i].view != table.defs[j].view => {
                let (earlier, later) = (&table.defs[j], &table.defs[i]);
                if let Some(copy) = copies(earlier, later) {
                    out.extend(copy.drift(earlier, later));
                }
                if table.defs[i].view == View::Agentc {
                    table.shared.insert(name, i);
                }
            }
            Some(j) => {
                let (narrow, wide) =
                    if narrowness(table.defs[i].scope) >= narrowness(table.defs[j].scope) {
                        (i, j)
                    } else {
                        (j, i)
                    };
                shadow(&table.defs[narrow], &table.defs[wide], noun, skills, door, out);
                table.shared.insert(name, narrow);
            }
        }
    }
    for i in 0..table.defs.len() {
        let Some(agent) = table.defs[i].agent.clone() else {
            continue;
        };
        let name = table.defs[i].name.clone();
        if let Some(&shared) =
            table.shared.get(&name).filter(|&&s| table.defs[s].view == View::Agentc)
        {
            shadow(&table.defs[i], &table.defs[shared], noun, skills, door, out);
        }
        table.private.insert((agent, name), i);
    }
    table.index_agents();
    table
}

fn shadow(
    narrow: &Def,
    wide: &Def,
    noun: &str,
    skills: bool,
    door: Door,
    out: &mut Vec<Diagnostic>,
) {
    let describe = |d: &Def| match (&d.scope, &d.agent) {
        (ScopeKind::Agent, Some(a)) => format!("a {noun} private to the agent `{a}`"),
        (ScopeKind::Repo, _) => format!("a repo {noun}"),
        (ScopeKind::Host, _) => format!("a {noun} the registry declares"),
        _ => format!("a global {noun}"),
    };
    let excludes: Vec<String> = [narrow.scope, wide.scope]
        .into_iter()
        .filter_map(|s| exclude_for(s, skills))
        .map(|s| door.exclude(s.as_str()))
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

/// How a later definition of an assistant skill's name relates to the first.
enum Copy {
    /// The same bytes: every host loads the same skill, whichever it keeps.
    Identical,
    /// Different bytes, first different on these lines (0-based) of the first
    /// definition and the later one.
    Drifted { line: usize },
}

/// Whether `later` is a copy of `earlier` in another skill folder, one of
/// them an assistant's (not two skills of one name in one folder, which
/// stays `duplicate-name`, nor two runbooks, which keep agentc's scopes).
fn copies(earlier: &Def, later: &Def) -> Option<Copy> {
    if (earlier.view, later.view) == (View::Agentc, View::Agentc)
        || collection(&earlier.site.file) == collection(&later.site.file)
    {
        return None;
    }
    let (a, b) = (earlier.file.as_ref()?, later.file.as_ref()?);
    if a.text.sha256() == b.text.sha256() {
        return Some(Copy::Identical);
    }
    let line = a.text.text.lines().zip(b.text.text.lines()).take_while(|(x, y)| x == y).count();
    Some(Copy::Drifted { line })
}

/// The folder of skill folders a `SKILL.md` is in (`.claude/skills/`).
fn collection(file: &RelPath) -> (crate::diagnostic::Origin, &str) {
    let path = file.path.as_ref();
    let folder = path.rsplitn(3, '/').nth(2).unwrap_or("");
    (file.origin, folder)
}

impl Copy {
    fn drift(&self, earlier: &Def, later: &Def) -> Option<Diagnostic> {
        let Copy::Drifted { line } = *self else {
            return None;
        };
        let (first, second) = (earlier.file.as_ref()?, later.file.as_ref()?);
        let at = |text: &Source| {
            let range = text.line_range(line);
            Some(Span::new(range.start, range.end))
        };
        Some(
            Diagnostic::new(
                Code::SkillDrift,
                &later.site.file,
                at(&second.text),
                format!(
                    "the skill `{}` here and in `{}` differ, first on line {}",
                    later.name,
                    earlier.site.file,
                    line + 1
                ),
            )
            .with_label(&earlier.site.file, at(&first.text), "the other copy")
            .with_help(
                "a host that reads both folders keeps one skill of each name (VS Code's Copilot reads \
                 `.github/skills/`, `.claude/skills/` and `.agents/skills/`), so a change made in one \
                 copy misses the agents reading the other; make them one file (a symbolic link, as \
                 `npx skills add` installs skills) or copy the change across",
            ),
        )
    }
}
