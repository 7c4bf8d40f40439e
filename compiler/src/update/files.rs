//! Updates after an edit to an agent's file (`AGENT.md`, `agent.json`), a
//! coding assistant's (a subagent, a command, a Copilot agent) or a tool's
//! manifest.
//!
//! Such a file defines nothing the skill and tool tables hold (a tool is
//! named by its folder): what its text alone makes (its parse, secrets and
//! links) is kept by file, and what it makes with the others is redone — the
//! agent's names and checks, every assistant's resolution (their names point
//! at each other), or the tool's entry in the model — then the configuration
//! checks, as after any update. An edit that changes what
//! else is read (a package's entry points), that the file stops parsing, or
//! to a file with problems kept elsewhere (whose places would move) is left
//! to a compile.

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

use crate::check::links::{Trees, body_links, host_body_links};
use crate::compile::{Compilation, Memo, agent_file, parse_agent, parse_assistant};
use crate::diagnostic::{Diagnostic, RelPath};
use crate::discover::FileRef;
use crate::fs::Fs;
use crate::kept::Kept;
use crate::project::{Agent, AgentKind};
use crate::read::read_all;
use crate::source::Source;

/// The edited file, as the project held it.
#[derive(Clone, Copy)]
pub(super) enum Other {
    Agent(usize),
    Assistant(usize),
    Tool(usize),
}

impl Compilation {
    /// Which agent or assistant `file` is, if any.
    pub(super) fn other(&self, file: &RelPath) -> Option<Other> {
        let agents = self.project.agents.iter();
        if let Some(j) = agents.clone().position(|a| &a.source.path == file) {
            return Some(Other::Agent(j));
        }
        let assistants = self.project.assistants.iter();
        if let Some(i) = assistants.clone().position(|a| &a.source.path == file) {
            return Some(Other::Assistant(i));
        }
        let mut tools = self.project.tools.iter();
        tools
            .position(|t| t.manifest.as_ref().is_some_and(|(s, _)| &s.path == file))
            .map(Other::Tool)
    }

    /// Brings the compilation up to date after the text of `file`, agent or
    /// assistant `which`, changed. Returns whether it could; when it could
    /// not, nothing was changed.
    pub(super) fn update_other(
        &mut self,
        kept: &mut Kept,
        fs: &dyn Fs,
        memo: &Memo,
        file: &RelPath,
        which: Other,
    ) -> bool {
        // A problem kept with the rest (a package's entry points, a read
        // failure) has a place in this text that the edit may move.
        if kept.rest.iter().any(|d| &d.location.file == file) || !kept.files.contains_key(file) {
            return false;
        }
        let read = match which {
            Other::Agent(j) => agent_file(&self.project.agents[j].dir).clone(),
            Other::Assistant(i) => self.project.assistants[i].file.file.clone(),
            Other::Tool(t) => match &self.project.tools[t].dir.manifest {
                Some(manifest) => manifest.clone(),
                None => return false,
            },
        };
        let Some(source) = self.read_again(kept, memo, fs, read) else {
            return false;
        };
        if self.sources.get(file).is_some_and(|kept| Arc::ptr_eq(&kept.text, &source.text)) {
            return true;
        }
        let mut problems = Vec::new();
        match which {
            Other::Agent(j) => {
                let agent = &self.project.agents[j];
                let Some(kind) = parse_agent(&agent.dir, &source, &mut problems) else {
                    return false;
                };
                let Some(kind) = same_package_files(&agent.kind, kind) else {
                    return false;
                };
                let trees = Trees::new(&self.root, self.workspace.as_deref());
                if let AgentKind::Bundle(md) = &kind {
                    problems.extend(body_links(
                        fs,
                        &trees,
                        &source,
                        md.body(&source),
                        md.body_span,
                    ));
                }
                let dir = agent.dir.clone();
                self.project.agents[j] = Agent { dir, source: source.clone(), kind };
                self.accept(kept, file, &source, problems);
                self.redo_agents(kept, &BTreeSet::from([j]));
                self.recheck_agents(kept, BTreeSet::from([j]), &HashSet::new());
            }
            Other::Assistant(i) => {
                let assistant = &self.project.assistants[i].file;
                let Some(doc) = parse_assistant(assistant, &source, &mut problems) else {
                    return false;
                };
                let trees = Trees::new(&self.root, self.workspace.as_deref());
                let span = doc.body_span();
                problems.extend(host_body_links(fs, &trees, &source, source.slice(span), span));
                let assistant = &mut self.project.assistants[i];
                assistant.source = source.clone();
                assistant.doc = doc;
                self.accept(kept, file, &source, problems);
                self.redo_assistants(kept);
            }
            Other::Tool(t) => {
                let folder = &self.project.tools[t].dir.name;
                let Some(doc) = crate::parse::files::tool_manifest(&source, folder, &mut problems)
                else {
                    return false;
                };
                self.accept(kept, file, &source, problems);
                self.retool(t, &source, doc);
            }
        }
        true
    }

    /// Tool `t`'s manifest replaced by `doc`: the model's entry for each
    /// definition it makes says what the manifest says now.
    fn retool(
        &mut self,
        t: usize,
        source: &Source,
        doc: crate::parse::files::Document<agentc_schema::ToolManifest>,
    ) {
        let description = doc.value.description.value.as_str().to_owned();
        let input_schema = doc.value.input_schema.as_ref().map(|s| s.value.clone());
        self.project.tools[t].manifest = Some((source.clone(), doc));
        // An entry says which manifest it comes from: two definitions of one
        // name (a host's and a descriptor's) are two entries.
        let path = source.path.to_string();
        let defs = self.names.tools.defs.iter().filter(|def| def.source == Some(t));
        for def in defs {
            let from_here = |m: &&mut agentc_schema::lockfile::Tool| {
                m.qualified == def.qualified && m.source.as_deref() == Some(path.as_str())
            };
            for tool in self.model.tools.iter_mut().filter(from_here) {
                tool.description = Some(description.clone());
                tool.input_schema.clone_from(&input_schema);
            }
        }
    }

    /// `file` read again as the compile read it; none when it cannot be.
    fn read_again(&self, kept: &Kept, memo: &Memo, fs: &dyn Fs, file: FileRef) -> Option<Source> {
        let max_size = kept.options.max_file_size;
        let rules = kept.options.content_rules();
        let files = std::slice::from_ref(&file);
        read_all(fs, files, max_size, rules, Some(memo.sources())).pop()?.ok()
    }

    /// Keeps the new text of `file` and what it alone makes.
    fn accept(
        &mut self,
        kept: &mut Kept,
        file: &RelPath,
        source: &Source,
        mut problems: Vec<Diagnostic>,
    ) {
        problems.extend(crate::secrets::diagnostics(source));
        kept.files.insert(file.clone(), problems);
        kept.rescan(source);
        self.sources.insert(file.clone(), source.clone());
    }
}

/// `new`, with the files `old` read for a package when its manifest lists
/// the same entry points; none when it lists others (they are read by a
/// compile).
fn same_package_files(old: &AgentKind, new: AgentKind) -> Option<AgentKind> {
    match (old, new) {
        (AgentKind::Bundle(_), new @ AgentKind::Bundle(_)) => Some(new),
        (
            AgentKind::Package { manifest: was, entry_points, workflows, knowledge },
            AgentKind::Package { manifest, .. },
        ) => {
            let names = |m: &crate::parse::files::Document<agentc_schema::AgentManifest>| {
                let entries = &m.value.entry_points;
                let listed: Vec<String> =
                    entries.value.iter().map(|e| e.value.to_string()).collect();
                (entries.span.is_unknown(), listed)
            };
            (names(was) == names(&manifest)).then(|| AgentKind::Package {
                manifest,
                entry_points: entry_points.clone(),
                workflows: workflows.clone(),
                knowledge: knowledge.clone(),
            })
        }
        _ => None,
    }
}
