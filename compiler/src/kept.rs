//! What a compile keeps for the language server's updates: every diagnostic
//! and reference by the part of the compile that made it (each skill, the
//! skill table, each agent, the coding assistants, the rest). `compile` fills
//! it; `update` redoes the parts an edit touches.

use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use crate::diagnostic::{self, Diagnostic, RelPath};
use crate::options::Options;
use crate::resolve::Share;
use crate::source::Source;

/// What an update needs from the compile that made a compilation: its
/// options, and every diagnostic and reference by what made it.
#[derive(Clone, Debug)]
pub(crate) struct Kept {
    pub(crate) options: Options,
    /// Each skill file's place in discovery order (the order of
    /// `Project::skills` and `Project::unparsed_skills`).
    pub(crate) order: HashMap<RelPath, usize>,
    /// By project skill.
    pub(crate) skills: Vec<SkillPart>,
    /// The problems of each skill file that was read but did not parse.
    pub(crate) unparsed: HashMap<RelPath, Vec<Diagnostic>>,
    /// The skill table's problems: names defined twice or shadowing each
    /// other.
    pub(crate) skill_table: Vec<Diagnostic>,
    /// The tool table's.
    pub(crate) tool_table: Vec<Diagnostic>,
    /// By project agent: its names resolved, and its checks.
    pub(crate) agents: Vec<(Share, Vec<Diagnostic>)>,
    pub(crate) assistants: Share,
    /// The configuration files' checks, which read skills' and assistants'
    /// frontmatter too: redone on every update.
    pub(crate) configs: Vec<Diagnostic>,
    /// The problems of each agent and assistant file found in its text
    /// alone: its parse, secrets and links.
    pub(crate) files: HashMap<RelPath, Vec<Diagnostic>>,
    /// Every other diagnostic.
    pub(crate) rest: Vec<Diagnostic>,
    /// The hidden characters in each file read (files with none are absent).
    pub(crate) hidden: HashMap<RelPath, Vec<Diagnostic>>,
    /// The Markdown files skills bundle, read for their links alone, with
    /// how many skills read each.
    pub(crate) bundled: HashMap<RelPath, usize>,
    /// The model and names were left out of this compilation, a copy to
    /// update ([`crate::compile::Compilation::copy_to_update`]): until the
    /// registry's update makes them anew, whatever its text, no other
    /// update can be made on it.
    pub(crate) unresolved: bool,
}

/// One skill's part.
#[derive(Clone, Debug, Default)]
pub(crate) struct SkillPart {
    pub(crate) parse: Vec<Diagnostic>,
    pub(crate) resolved: Share,
    pub(crate) checks: Vec<Diagnostic>,
    /// The broken links of its body and of the files it bundles.
    pub(crate) links: Vec<Diagnostic>,
    /// The files it bundles, as read for `links`.
    pub(crate) bundled: Vec<RelPath>,
}

impl Kept {
    /// Every diagnostic, at the levels `[lints]` sets, in report order
    /// without repeats.
    pub(crate) fn diagnostics(&self) -> Vec<Diagnostic> {
        let skills = self
            .skills
            .iter()
            .flat_map(|part| [&part.parse, &part.resolved.diagnostics, &part.checks, &part.links]);
        let agents = self.agents.iter().flat_map(|(share, checks)| [&share.diagnostics, checks]);
        let tables = [&self.skill_table, &self.tool_table, &self.assistants.diagnostics];
        let mut all: Vec<Diagnostic> = [&self.rest, &self.configs]
            .into_iter()
            .chain(tables)
            .chain(self.unparsed.values())
            .chain(self.files.values())
            .chain(self.hidden.values())
            .chain(skills)
            .chain(agents)
            .flatten()
            .cloned()
            .collect();
        self.options.apply_lints(&mut all);
        diagnostic::sort(&mut all);
        all
    }

    /// Scans every file read for hidden characters, in parallel.
    pub(crate) fn scan_all(
        sources: &BTreeMap<RelPath, Source>,
    ) -> HashMap<RelPath, Vec<Diagnostic>> {
        sources
            .par_iter()
            .map(|(path, source)| (path.clone(), crate::check::hidden::scan(source)))
            .filter(|(_, found)| !found.is_empty())
            .collect()
    }

    /// Scans a file read again.
    pub(crate) fn rescan(&mut self, source: &Source) {
        let found = crate::check::hidden::scan(source);
        match found.is_empty() {
            true => self.hidden.remove(&source.path),
            false => self.hidden.insert(source.path.clone(), found),
        };
    }

    /// Where each skill's references start in `Names::refs`, and where the
    /// skills' end (the agents' start).
    pub(crate) fn skill_refs(&self) -> Vec<usize> {
        starts(self.skills.iter().map(|part| part.resolved.refs), 0)
    }
}

/// The running sums of `counts` from `first`: where each part starts, and
/// last where they all end.
pub(crate) fn starts(counts: impl Iterator<Item = usize>, first: usize) -> Vec<usize> {
    let mut at = vec![first];
    for count in counts {
        at.push(at[at.len() - 1] + count);
    }
    at
}
