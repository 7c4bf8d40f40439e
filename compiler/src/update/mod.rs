//! Update: a compilation brought up to date after an edit to one file's
//! text — the language server's path for a keystroke. Skills are here;
//! agents' and assistants' files in [`files`].
//!
//! Every diagnostic and reference is kept by the part of the compile that
//! made it: each skill, the skill table, each agent, the coding assistants,
//! the rest. A skill's part depends on its own text and on the scope tables;
//! the tables depend only on each definition's name and where it is written.
//! So an edit that keeps the skill's `name` as it was, where it was, redoes
//! that skill and the checks of the agents that activate it. One that
//! changes the definition (a new name, a name that moved, a file that stops
//! or starts parsing) rebuilds the skill table and redoes what depends on
//! the names involved: the skills and agents that use them (or use a name
//! that resolves nowhere, whose help lists the table), the definition's own
//! agent, and the coding assistants. Either way the result is what a full
//! compile of the edited project gives: the tests below, the language
//! server's tests and the editing benchmark compare the two after every edit.
//!
//! An edit to a Markdown file a skill bundles (read for its links alone)
//! redoes the links of the skills that read it; one to the registry
//! resolves and checks the project again ([`registry`]); one to
//! `agentc.toml` that changes only how problems are shown is shown so
//! ([`project_file`]). A file that cannot be read
//! (or could not be before), and every other change, is left to a full compile: the update says it
//! did not apply, and leaves the compilation as it was.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use agentc_schema::SkillFrontmatter;

use crate::check::{self, links::Trees};
use crate::compile::{Compilation, Memo};
use crate::diagnostic::{Diagnostic, RelPath};
use crate::discover::{Owner, SkillFile};
use crate::fs::Fs;
use crate::kept::{Kept, SkillPart, starts};
use crate::parse::files::Markdown;
use crate::project::Skill;
use crate::read::read_all;
use crate::resolve::{self, RefKind, Share};
use crate::source::Source;

/// Frees `value` on another thread: a table or index of every definition
/// takes milliseconds to free, which a keystroke need not wait for. (When
/// no thread can be started, it is freed here.)
pub fn drop_elsewhere<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new().name("agentc-free".into()).spawn(move || drop(value));
}

/// Where the edited skill file was: a project skill, or one that did not
/// parse (by its index in `Project::unparsed_skills`).
#[derive(Clone, Copy)]
enum Was {
    Parsed(usize),
    Unparsed(usize),
}

/// The edited skill file, as read and parsed now.
struct Edit {
    file: SkillFile,
    source: Source,
    parsed: Option<Arc<Markdown<SkillFrontmatter>>>,
    parse: Vec<Diagnostic>,
}

impl Compilation {
    /// Brings the compilation up to date after the text of `file` changed (as
    /// `fs` now reads it): a skill's, a file a skill bundles, an agent's or a
    /// coding assistant's ([`files`]). Returns whether it could; when it
    /// could not, the compilation is as it was and needs a full compile.
    pub fn update_file(&mut self, fs: &dyn Fs, memo: &Memo, file: &RelPath) -> bool {
        let Some(mut kept) = self.kept.take() else {
            return false;
        };
        let updated = self.update_with(&mut kept, fs, memo, file);
        if updated {
            self.diagnostics = kept.diagnostics();
            let read = self.sources.keys().chain(self.inputs.keys());
            kept.options.add_unmatched_overrides(&mut self.diagnostics, read);
            crate::secrets::redact(&mut self.diagnostics, self.sources.values());
        }
        self.kept = Some(kept);
        updated
    }

    /// Whether the update after an edit to `file` resolves and checks the
    /// whole project again (the registry's).
    fn updates_everything(&self, file: &RelPath) -> bool {
        self.registry_source.as_ref().is_some_and(|registry| &registry.path == file)
    }

    /// A copy of the compilation to bring up to date with
    /// [`Compilation::update_files`] after edits to `files`, when one of them
    /// resolves and checks the whole project again (the registry's): at
    /// thousands of skills long enough for a language server to make it
    /// beside the compilation it answers from. The copy leaves out the model
    /// and the names, which that update (made first) makes anew, and which
    /// are most of what a copy costs. None when no file updates everything:
    /// the update is quick in place.
    pub fn copy_to_update(&self, files: &[RelPath]) -> Option<Compilation> {
        files.iter().any(|file| self.updates_everything(file)).then(|| Compilation {
            diagnostics: self.diagnostics.clone(),
            sources: self.sources.clone(),
            registry_source: self.registry_source.clone(),
            project_source: self.project_source.clone(),
            project_path: self.project_path.clone(),
            inputs: self.inputs.clone(),
            project: self.project.clone(),
            model: Default::default(),
            names: Default::default(),
            layouts: self.layouts.clone(),
            root: self.root.clone(),
            workspace: self.workspace.clone(),
            kept: self.kept.clone().map(|kept| Kept { unresolved: true, ..kept }),
        })
    }

    /// [`Compilation::update_file`] for each of `files`, those that update
    /// everything first. Returns whether every update could be made; when
    /// one could not, the compilation needs a full compile.
    pub fn update_files(&mut self, fs: &dyn Fs, memo: &Memo, files: &[RelPath]) -> bool {
        let (everything, rest): (Vec<&RelPath>, Vec<&RelPath>) =
            files.iter().partition(|file| self.updates_everything(file));
        everything.into_iter().chain(rest).all(|file| self.update_file(fs, memo, file))
    }

    fn update_with(&mut self, kept: &mut Kept, fs: &dyn Fs, memo: &Memo, file: &RelPath) -> bool {
        if self.updates_everything(file) {
            return self.update_registry(kept, fs);
        }
        if kept.unresolved {
            return false;
        }
        if self.project_source.as_ref().is_some_and(|project| &project.path == file) {
            return self.update_project_file(kept, fs);
        }
        if kept.bundled.contains_key(file) {
            // Only the links of the skills that bundle it depend on its text.
            let readers = (kept.skills.iter().enumerate())
                .filter(|(_, part)| part.bundled.contains(file))
                .map(|(i, _)| i);
            for i in readers.collect::<Vec<_>>() {
                self.relink(kept, fs, i);
            }
            return true;
        }
        if let Some(which) = self.other(file) {
            if !self.update_other(kept, fs, memo, file, which) {
                return false;
            }
            self.recheck_configs(kept, fs);
            return true;
        }
        let parsed_at = self.project.skills.iter().position(|s| &s.source.path == file);
        // One that could not be read is left to a compile.
        let unparsed_at = || {
            let mut unparsed = self.project.unparsed_skills.iter();
            unparsed.position(|f| &f.file.rel == file).filter(|_| kept.unparsed.contains_key(file))
        };
        let was = match parsed_at {
            Some(i) => Was::Parsed(i),
            None => match unparsed_at() {
                Some(u) => Was::Unparsed(u),
                None => return false,
            },
        };
        let skill_file = match was {
            Was::Parsed(i) => self.project.skills[i].file.clone(),
            Was::Unparsed(u) => self.project.unparsed_skills[u].clone(),
        };
        if !kept.order.contains_key(file) {
            return false;
        }
        let max_size = kept.options.max_file_size;
        let files = std::slice::from_ref(&skill_file.file);
        let rules = kept.options.content_rules();
        let Some(Ok(source)) = read_all(fs, files, max_size, rules, Some(memo.sources())).pop()
        else {
            return false;
        };
        if self.sources.get(file).is_some_and(|kept| Arc::ptr_eq(&kept.text, &source.text)) {
            return true;
        }
        let (parsed, parse) = memo.skill(&skill_file, &source);
        self.sources.insert(file.clone(), source.clone());
        kept.rescan(&source);
        match (was, parsed) {
            (Was::Parsed(i), Some(parsed)) if self.same_definition(i, &parsed) => {
                self.project.skills[i] = Skill { file: skill_file, source, parsed };
                self.update_text(kept, fs, i, parse);
            }
            (was, parsed) => {
                self.redefine(kept, fs, was, Edit { file: skill_file, source, parsed, parse });
            }
        }
        self.recheck_configs(kept, fs);
        true
    }

    /// Checks the configuration files again: they read skills' and
    /// assistants' frontmatter too.
    fn recheck_configs(&self, kept: &mut Kept, fs: &dyn Fs) {
        let trees = Trees::new(&self.root, self.workspace.as_deref());
        kept.configs = check::config::check(fs, &trees, &self.project).diagnostics;
    }

    /// Whether `parsed` defines what project skill `i` defines: the same name,
    /// written in the same place.
    /// A skill with a namesake elsewhere (a copy in another assistant's
    /// folder) is never the same definition: the table compares the copies'
    /// texts.
    fn same_definition(&self, i: usize, parsed: &Markdown<SkillFrontmatter>) -> bool {
        let (was, is) = (&self.project.skills[i].parsed.front.value.name, &parsed.front.value.name);
        let namesake = (self.project.skills.iter().enumerate())
            .any(|(j, skill)| j != i && skill.parsed.front.value.name.value == was.value);
        was.value == is.value && was.span == is.span && !namesake
    }

    /// The edit kept the definition: skill `i` (its new text in place,
    /// `parse` its parse problems) is redone, with the checks of the agents
    /// that activate it.
    fn update_text(&mut self, kept: &mut Kept, fs: &dyn Fs, i: usize, parse: Vec<Diagnostic>) {
        kept.skills[i].parse = parse;
        self.relink(kept, fs, i);
        let redo = BTreeSet::from([i]);
        let changed = self.redo_skills(kept, &redo, None);
        self.recheck_agents(kept, BTreeSet::new(), &changed);
    }

    /// The edit changed the definition (or whether there is one): the skill
    /// table is rebuilt, and everything that depends on the names involved
    /// redone.
    fn redefine(&mut self, kept: &mut Kept, fs: &dyn Fs, was: Was, edit: Edit) {
        let parsed_at = match was {
            Was::Parsed(i) => Some(i),
            Was::Unparsed(_) => None,
        };
        let file = edit.file.file.rel.clone();
        let folder = edit.file.folder.clone();
        let owner = edit.file.owner.clone();
        let old_name =
            parsed_at.map(|i| self.project.skills[i].parsed.front.value.name.value.to_string());

        // Where it was, when it still parses or still does not; else out of
        // the project, and back in where discovery puts it.
        let Edit { file: skill_file, source, parsed, parse } = edit;
        let new_name = parsed.as_ref().map(|p| p.front.value.name.value.to_string());
        let place = kept.order.get(&file).copied().unwrap_or(usize::MAX);
        let before = |rel: &RelPath| kept.order.get(rel).is_some_and(|&p| p < place);
        let (removed, inserted, now_at) = match (was, parsed) {
            (Was::Parsed(i), Some(parsed)) => {
                self.project.skills[i] = Skill { file: skill_file, source, parsed };
                kept.skills[i].parse = parse;
                self.relink(kept, fs, i);
                (None, None, Some(i))
            }
            (Was::Parsed(i), None) => {
                self.project.skills.remove(i);
                let part = kept.skills.remove(i);
                self.unbundle(&mut kept.bundled, &part.bundled);
                let start = kept.skill_refs()[i];
                self.names.refs.drain(start..start + part.resolved.refs);
                let unparsed = &mut self.project.unparsed_skills;
                let at = unparsed.partition_point(|f| before(&f.file.rel));
                self.project.broken_skills.insert(at, skill_file.folder.clone());
                unparsed.insert(at, skill_file);
                kept.unparsed.insert(file.clone(), parse);
                (Some(i), None, None)
            }
            (Was::Unparsed(u), parsed) => {
                let unparsed = &mut self.project.unparsed_skills;
                match parsed {
                    None => {
                        unparsed[u] = skill_file;
                        kept.unparsed.insert(file.clone(), parse);
                        (None, None, None)
                    }
                    Some(parsed) => {
                        unparsed.remove(u);
                        self.project.broken_skills.remove(u);
                        kept.unparsed.remove(&file);
                        let at = self.project.skills.partition_point(|s| before(&s.source.path));
                        self.project.skills.insert(at, Skill { file: skill_file, source, parsed });
                        kept.skills.insert(at, SkillPart { parse, ..SkillPart::default() });
                        self.relink(kept, fs, at);
                        (None, Some(at), Some(at))
                    }
                }
            }
        };

        let moved = |p: usize| -> Option<usize> {
            let p = match removed {
                Some(r) if p == r => return None,
                Some(r) if p > r => p - 1,
                _ => p,
            };
            Some(match inserted {
                Some(a) if p >= a => p + 1,
                _ => p,
            })
        };
        // The table, from the definitions it had (the skill's replaced), and
        // every reference's definition renumbered.
        let mut previous = std::mem::take(&mut self.names.skills);
        let mut involved: Vec<&str> = vec![folder.as_str()];
        involved.extend(old_name.as_deref());
        involved.extend(new_name.as_deref());
        let named = |table: &resolve::Table| -> Vec<(usize, Option<usize>)> {
            let defs = table.defs.iter().enumerate();
            defs.filter(|(_, def)| involved.contains(&def.name.as_str()))
                .map(|(i, def)| (i, def.source))
                .collect()
        };
        let was_named = named(&previous);
        let sources: Vec<Option<usize>> = previous.defs.iter().map(|def| def.source).collect();
        let mut defs = previous.take_defs();
        drop_elsewhere(previous);
        defs.retain(|def| parsed_at.is_none() || def.source != parsed_at);
        for def in &mut defs {
            def.source = def.source.and_then(moved);
        }
        defs.extend(now_at.map(|at| resolve::skill_def(&self.project, at)));
        kept.skill_table.clear();
        self.names.skills = resolve::skill_table_of(defs, kept.options.door, &mut kept.skill_table);
        let renumbered: Vec<Option<usize>> = (sources.into_iter())
            .map(|source| source.and_then(moved).and_then(|p| self.names.skills.def_of(p)))
            .collect();
        for r in self.names.refs.iter_mut().filter(|r| r.kind == RefKind::Skill) {
            r.target = r.target.and_then(|t| renumbered.get(t).copied().flatten());
        }

        // What depends on the names involved: the skills defining them
        // (one may be a duplicate now, or no longer), and every reference
        // that resolved to one of them or to nothing (its help lists the
        // table, and may name the skill's folder, whose file is broken).
        let is_named = named(&self.names.skills);
        let targets: HashSet<usize> = is_named.iter().map(|&(def, _)| def).collect();
        let mut redo: BTreeSet<usize> = now_at.into_iter().collect();
        redo.extend(was_named.iter().filter_map(|&(_, source)| source.and_then(moved)));
        redo.extend(is_named.iter().filter_map(|&(_, source)| source));
        let skill_starts = kept.skill_refs();
        let skills_end = skill_starts[skill_starts.len() - 1];
        let agent_starts = starts(kept.agents.iter().map(|(share, _)| share.refs), skills_end);
        let agents_end = agent_starts[agent_starts.len() - 1];
        let part = |starts: &[usize], k: usize| starts.partition_point(|&s| s <= k) - 1;
        let mut agents = BTreeSet::new();
        for (k, r) in self.names.refs.iter().enumerate() {
            let touched =
                r.kind == RefKind::Skill && r.target.is_none_or(|target| targets.contains(&target));
            if !touched {
                continue;
            }
            if k < skills_end {
                redo.insert(part(&skill_starts, k));
            } else if k < agents_end {
                agents.insert(part(&agent_starts, k));
            }
        }
        let owned = |id: &str| matches!(&owner, Owner::Agent(agent) if agent == id);
        agents.extend(
            (self.project.agents.iter().enumerate())
                .filter(|(_, agent)| owned(&agent.dir.id))
                .map(|(j, _)| j),
        );

        // The agents that activated the skill named it, or own it: they are
        // redone, and so checked again.
        let changed = self.redo_skills(kept, &redo, Some(file.to_string()));
        self.redo_agents(kept, &agents);
        self.redo_assistants(kept);
        self.recheck_agents(kept, agents, &changed);
    }

    /// Checks again the links of project skill `i`'s body and of the files
    /// it bundles, which are read again.
    fn relink(&mut self, kept: &mut Kept, fs: &dyn Fs, i: usize) {
        let old = std::mem::take(&mut kept.skills[i].bundled);
        let links = match self.project.read_earlier(i) {
            true => check::bundled::SkillLinks::default(),
            false => {
                let trees = Trees::new(&self.root, self.workspace.as_deref());
                let (inputs, bundled) = (&self.inputs, &kept.bundled);
                let bundling = check::bundled::Bundling {
                    max_size: kept.options.max_file_size.min(check::bundled::MAX_BYTES),
                    rules: kept.options.content_rules(),
                    is_input: &|rel| inputs.contains_key(rel) && !bundled.contains_key(rel),
                };
                check::bundled::skill_links(fs, &trees, &self.project.skills[i], &bundling)
            }
        };
        let part = &mut kept.skills[i];
        part.links = links.diagnostics;
        part.bundled = links.bundled.iter().map(|(source, _)| source.path.clone()).collect();
        for (source, path) in links.bundled {
            *kept.bundled.entry(source.path.clone()).or_default() += 1;
            self.inputs.insert(source.path.clone(), path);
            self.sources.insert(source.path.clone(), source);
        }
        self.unbundle(&mut kept.bundled, &old);
    }

    /// Forgets that a skill read the bundled files `files` (`readers` counts
    /// the skills reading each): those no skill reads now are not shown.
    fn unbundle(&mut self, readers: &mut HashMap<RelPath, usize>, files: &[RelPath]) {
        for file in files {
            let Some(count) = readers.get_mut(file) else {
                continue;
            };
            *count -= 1;
            if *count == 0 {
                readers.remove(file);
                self.inputs.remove(file);
                self.sources.remove(file);
            }
        }
    }

    /// Resolves and checks the project skills `redo` again; their compiled
    /// forms replace theirs in the model, and that of the file `gone`.
    /// Returns their qualified names.
    fn redo_skills(
        &mut self,
        kept: &mut Kept,
        redo: &BTreeSet<usize>,
        gone: Option<String>,
    ) -> HashSet<String> {
        let mut stale: HashSet<String> =
            redo.iter().map(|&i| self.project.skills[i].source.path.to_string()).collect();
        stale.extend(gone);
        self.model.skills.retain(|s| !stale.contains(s.source.as_str()));
        let starts = kept.skill_refs();
        let mut shift: isize = 0;
        let mut changed = HashSet::new();
        for &i in redo {
            let resolved = resolve::resolve_skill(&self.project, &kept.options, &self.names, i);
            let part = &mut kept.skills[i];
            let start = starts[i].saturating_add_signed(shift);
            let made = resolved.refs.len();
            self.names.refs.splice(start..start + part.resolved.refs, resolved.refs);
            shift += made as isize - part.resolved.refs as isize;
            part.resolved = Share { diagnostics: resolved.diagnostics, refs: made };
            part.checks = check::skill_checks(&self.project.skills[i], &self.names);
            if let Some(compiled) = resolved.compiled {
                changed.insert(compiled.qualified.clone());
                let at = self.model_place(&compiled.qualified, i);
                self.model.skills.insert(at, compiled);
            }
        }
        changed
    }

    /// Where project skill `i`, compiled as `qualified`, goes in the model:
    /// by name, then (two scopes defining one name) in project order, as a
    /// compile's stable sort leaves them.
    fn model_place(&self, qualified: &str, i: usize) -> usize {
        let skills = &self.model.skills;
        let first = skills.partition_point(|s| s.qualified.as_str() < qualified);
        let same = skills[first..].iter().take_while(|s| s.qualified == qualified);
        let position = |source: &str| {
            self.project.skills.iter().position(|s| s.source.path.to_string() == source)
        };
        first + same.take_while(|s| position(&s.source).is_some_and(|p| p < i)).count()
    }

    /// Resolves the project agents `redo` again.
    fn redo_agents(&mut self, kept: &mut Kept, redo: &BTreeSet<usize>) {
        let skills_end = kept.skill_refs().pop().unwrap_or_default();
        let starts = starts(kept.agents.iter().map(|(share, _)| share.refs), skills_end);
        let mut shift: isize = 0;
        for &j in redo {
            let resolved = resolve::resolve_agent(&self.project, &kept.options, &self.names, j);
            let (share, _) = &mut kept.agents[j];
            let start = starts[j].saturating_add_signed(shift);
            let made = resolved.refs.len();
            self.names.refs.splice(start..start + share.refs, resolved.refs);
            shift += made as isize - share.refs as isize;
            *share = Share { diagnostics: resolved.diagnostics, refs: made };
            let compiled = resolved.compiled;
            if let Ok(at) = self.model.agents.binary_search_by(|a| a.id.cmp(&compiled.id)) {
                self.model.agents[at] = compiled;
            }
        }
    }

    /// Resolves the coding assistants' files again (their refs come last).
    fn redo_assistants(&mut self, kept: &mut Kept) {
        let resolved = resolve::resolve_assistants(&self.project, &kept.options, &self.names);
        let start = self.names.refs.len() - kept.assistants.refs;
        let made = resolved.refs.len();
        self.names.refs.splice(start.., resolved.refs);
        kept.assistants = Share { diagnostics: resolved.diagnostics, refs: made };
        self.model.assistants = resolved.compiled;
        // Plugins list their skills and assistants, and servers who names
        // them: made again from what changed.
        resolve::resolve_configs(&self.project, &mut self.model);
    }

    /// Checks again the agents `redo` and those activating a skill named in
    /// `skills` (qualified).
    fn recheck_agents(
        &mut self,
        kept: &mut Kept,
        mut redo: BTreeSet<usize>,
        skills: &HashSet<String>,
    ) {
        for (j, agent) in self.project.agents.iter().enumerate() {
            let activates = self.model.agent(&agent.dir.id).is_some_and(|compiled| {
                compiled.skills.iter().any(|r| skills.contains(&r.qualified))
            });
            if activates {
                redo.insert(j);
            }
        }
        for j in redo {
            let agent = &self.project.agents[j];
            kept.agents[j].1 = check::agent_checks(&self.project, &self.model, &self.names, agent);
        }
    }
}

mod files;
mod project_file;
mod registry;
#[cfg(test)]
mod tests;
