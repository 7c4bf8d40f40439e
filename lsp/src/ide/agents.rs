//! Copilot custom agents and Claude Code subagents as names: what a handoff's
//! `agent`, an `agents:` entry and a prompt file's `agent` name, found as the
//! compiler finds them — a handoff and `agents:` by the agent's `name`
//! exactly, its file's name only when it has none (`resolve::assistants`); a
//! prompt by either, ignoring case (`check::copilot_files`). A name the
//! compiler would not resolve leads nowhere here either.

use std::collections::HashMap;

use agentc_schema::{Dialect, Span, Spanned, Text};

use super::complete::{Completion, CompletionKind, frontmatter_end};
use super::{Analysis, Item, Place, RenamePlan, Symbol};
use agentc_compiler::compile::Compilation;
use agentc_compiler::diagnostic::{Edit, RelPath};
use agentc_compiler::dialects::AssistantDoc;
use agentc_compiler::dialects::config::ConfigDoc;
use agentc_compiler::hosts::copilot::prompts::BUILTIN_AGENTS;
use agentc_compiler::project::Assistant;
use agentc_compiler::resolve::{COPILOT_BUILT_IN_AGENTS, plain_agent_name, read_by_vs_code};

/// What a position names: a skill or tool, or an assistant's agent (an index
/// into the project's assistants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    Symbol(Symbol),
    Agent(usize),
}

/// Where an agent is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentUse {
    /// A handoff's `agent`.
    Handoff,
    /// An entry of a Copilot agent's `agents:`.
    Agents,
    /// A prompt file's `agent` (or `mode`).
    Prompt,
}

/// One place naming an agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentRef {
    pub file: RelPath,
    /// Where the name is written: exactly, inside any quotes, when `exact`.
    pub span: Span,
    pub exact: bool,
    pub name: String,
    pub from: AgentUse,
    /// The agent it reaches; none for a built-in agent or a missing one.
    pub target: Option<usize>,
}

/// Every place naming an agent, and where each agent's name is written.
#[derive(Debug, Default)]
pub struct AgentIndex {
    refs: Vec<AgentRef>,
    refs_by_file: HashMap<RelPath, Vec<usize>>,
    /// Where each agent's `name` is written, by file: (span, assistant).
    names_by_file: HashMap<RelPath, Vec<(Span, usize)>>,
}

/// A subagent's `name`, or a Copilot agent's when it declares one.
fn name_value(agent: &Assistant) -> Option<&Spanned<Text>> {
    match &agent.doc {
        AssistantDoc::Subagent(md) if !md.front.value.name.span.is_unknown() => {
            Some(&md.front.value.name)
        }
        AssistantDoc::Copilot(md) => md.front.value.name.as_ref(),
        _ => None,
    }
}

fn exact_span<T>(value: &Spanned<T>, len: usize) -> (Span, bool) {
    match value.verbatim(0..len) {
        Some(span) => (span, true),
        None => (value.span, false),
    }
}

fn is_built_in(from: AgentUse, name: &str) -> bool {
    let built_in = match from {
        AgentUse::Prompt => BUILTIN_AGENTS,
        AgentUse::Handoff | AgentUse::Agents => COPILOT_BUILT_IN_AGENTS,
    };
    built_in.iter().any(|b| b.eq_ignore_ascii_case(name))
}

impl AgentIndex {
    pub fn new(compilation: &Compilation) -> AgentIndex {
        let project = &compilation.project;
        let assistants = &project.assistants;
        // The first agent of each name wins, as VS Code takes the first it finds.
        let mut by_name: HashMap<&str, usize> = HashMap::new();
        let mut by_prompt_name: HashMap<String, usize> = HashMap::new();
        for (i, agent) in assistants.iter().enumerate() {
            if read_by_vs_code(agent) {
                by_name.entry(agent.name()).or_insert(i);
            }
            if agent.file.dialect == Dialect::CopilotAgent {
                let names = [
                    Some(agent.file.stem.as_str()),
                    agent.copilot_name().map(|n| n.value.as_str()),
                ];
                for name in names.into_iter().flatten() {
                    by_prompt_name.entry(name.to_ascii_lowercase()).or_insert(i);
                }
            }
        }
        let resolve = |from: AgentUse, name: &str| match from {
            AgentUse::Prompt if is_built_in(from, name) => None,
            AgentUse::Prompt => by_prompt_name.get(&name.to_ascii_lowercase()).copied(),
            _ => by_name.get(name).copied(),
        };
        let mut index = AgentIndex::default();
        let mut add = |file: &RelPath, from: AgentUse, name: &str, (span, exact): (Span, bool)| {
            let target = resolve(from, name);
            let r =
                AgentRef { file: file.clone(), span, exact, name: name.to_owned(), from, target };
            index.refs_by_file.entry(file.clone()).or_default().push(index.refs.len());
            index.refs.push(r);
        };
        for agent in assistants {
            let AssistantDoc::Copilot(md) = &agent.doc else {
                continue;
            };
            let file = &agent.source.path;
            for handoff in md.front.value.handoffs.iter().flatten() {
                let target = &handoff.value.agent;
                let name = target.value.as_str();
                add(file, AgentUse::Handoff, name, exact_span(target, name.len()));
            }
            for entry in md.front.value.agents.iter().flatten().filter(|e| e.value != "*") {
                add(file, AgentUse::Agents, &entry.value, exact_span(entry, entry.value.len()));
            }
        }
        for config in &project.configs {
            let ConfigDoc::Prompt(md) = &config.doc else {
                continue;
            };
            let front = &md.front.value;
            if let Some(agent) = front.agent.as_ref().or(front.mode.as_ref()) {
                let name = agent.value.as_str();
                add(&config.source.path, AgentUse::Prompt, name, exact_span(agent, name.len()));
            }
        }
        for (i, agent) in assistants.iter().enumerate() {
            if let Some(name) = name_value(agent) {
                let (span, _) = exact_span(name, name.value.as_str().len());
                index.names_by_file.entry(agent.source.path.clone()).or_default().push((span, i));
            }
        }
        index
    }

    /// The reference written at `offset` of `file`, resolved or not.
    fn ref_at(&self, file: &RelPath, offset: usize) -> Option<&AgentRef> {
        let within = |span: Span| span.start <= offset && offset <= span.end;
        let found = self.refs_by_file.get(file)?.iter().map(|&i| &self.refs[i]);
        found.into_iter().find(|r| within(r.span))
    }

    /// The agent named at `offset` of `file` — by a reference or its own
    /// `name` — with the span of what is written there.
    fn at(&self, file: &RelPath, offset: usize) -> Option<(usize, Span)> {
        if let Some(r) = self.ref_at(file, offset) {
            return r.target.map(|target| (target, r.span));
        }
        let within = |span: Span| span.start <= offset && offset <= span.end;
        let names = self.names_by_file.get(file)?;
        names.iter().find(|(span, _)| within(*span)).map(|&(span, i)| (i, span))
    }

    fn uses(&self, agent: usize) -> impl Iterator<Item = &AgentRef> {
        self.refs.iter().filter(move |r| r.target == Some(agent))
    }
}

impl Analysis<'_> {
    /// What is named at `offset` of `file`: a skill or tool, else an agent.
    pub fn named_at(&self, file: &RelPath, offset: usize) -> Option<(Named, Span)> {
        if let Some((symbol, span)) = self.symbol_at(file, offset) {
            return Some((Named::Symbol(symbol), span));
        }
        let (agent, span) = self.index.agents.at(file, offset)?;
        Some((Named::Agent(agent), span))
    }

    /// Where `named` is defined: an agent's `name`, else the start of its file.
    pub fn named_definition(&self, named: Named) -> Option<Place> {
        match named {
            Named::Symbol(symbol) => self.definition(symbol).cloned(),
            Named::Agent(i) => {
                let agent = &self.compilation.project.assistants[i];
                let span = name_value(agent)
                    .map_or(Span::new(0, 0), |n| exact_span(n, n.value.as_str().len()).0);
                Some(Place { file: agent.source.path.clone(), span })
            }
        }
    }

    /// Every place that names `named`, its definition first when asked for.
    pub fn named_references(&self, named: Named, with_definition: bool) -> Vec<Place> {
        let i = match named {
            Named::Symbol(symbol) => return self.references(symbol, with_definition),
            Named::Agent(i) => i,
        };
        let mut out: Vec<Place> = Vec::new();
        if with_definition {
            out.extend(self.named_definition(named));
        }
        let mut uses: Vec<Place> = self
            .index
            .agents
            .uses(i)
            .map(|r| Place { file: r.file.clone(), span: r.span })
            .collect();
        uses.sort_by(|a, b| (&a.file, a.span.start).cmp(&(&b.file, b.span.start)));
        out.extend(uses);
        out
    }

    /// The name a rename of `named` starts from.
    pub fn named_placeholder(&self, named: Named) -> String {
        match named {
            Named::Symbol(symbol) => self.def(symbol).name.clone(),
            Named::Agent(i) => self.compilation.project.assistants[i].name().to_owned(),
        }
    }

    /// Why `named`, whose name only its file or folder carries, cannot be
    /// renamed by an editor that cannot move files.
    pub fn unmovable(&self, named: Named) -> String {
        match named {
            Named::Symbol(symbol) => format!(
                "`{}` is named by its folder alone, which this editor cannot rename: give its descriptor a `name`, or rename the folder by hand",
                self.def(symbol).name
            ),
            Named::Agent(i) => {
                let agent = &self.compilation.project.assistants[i];
                format!(
                    "`{}` is named by its file alone, which this editor cannot rename: give it a `name`, or rename `{}` by hand",
                    agent.name(),
                    agent.source.path
                )
            }
        }
    }

    /// Renames `named` to `new_name`: its definition, every reference, and
    /// its folder or file when that carries the name.
    pub fn named_rename(&self, named: Named, new_name: &str) -> Result<RenamePlan, String> {
        match named {
            Named::Symbol(symbol) => self.rename(symbol, new_name),
            Named::Agent(i) => self.rename_agent(i, new_name),
        }
    }

    fn rename_agent(&self, i: usize, new_name: &str) -> Result<RenamePlan, String> {
        let project = &self.compilation.project;
        let agent = &project.assistants[i];
        let old = agent.name();
        check_agent_name(agent, new_name)?;
        let clash = |other: &Assistant| {
            let visible = read_by_vs_code(other)
                && (other.name().eq_ignore_ascii_case(new_name)
                    || (other.file.dialect == Dialect::CopilotAgent
                        && other.file.stem.eq_ignore_ascii_case(new_name)));
            // Subagents share one namespace, in subfolders too.
            let subagent = other.file.dialect == Dialect::ClaudeSubagent
                && agent.file.dialect == Dialect::ClaudeSubagent
                && other.file.plugin == agent.file.plugin
                && other.name() == new_name;
            visible || subagent
        };
        let mut others = project.assistants.iter().enumerate().filter(|&(j, _)| j != i);
        if let Some((_, other)) = others.find(|(_, a)| clash(a)) {
            return Err(format!(
                "an agent named `{new_name}` is already defined, in {}",
                other.source.path
            ));
        }
        if is_built_in(AgentUse::Handoff, new_name) || is_built_in(AgentUse::Prompt, new_name) {
            return Err(format!("`{new_name}` is one of VS Code's built-in agents"));
        }
        let escaped = |file: &RelPath| {
            format!("`{old}` in {file} is written with escapes; rename it there by hand first")
        };
        let mut plan = RenamePlan::default();
        let file = &agent.source.path;
        match name_value(agent) {
            Some(name) => {
                let (span, exact) = exact_span(name, name.value.as_str().len());
                if !exact {
                    return Err(escaped(file));
                }
                plan.edits.push(Edit {
                    file: file.clone(),
                    span,
                    replacement: new_name.to_owned(),
                });
            }
            // A Copilot agent without `name` is its file's name.
            None => {
                let (folder, file_name) = file.path.rsplit_once('/').unwrap_or(("", &file.path));
                let suffix =
                    file_name.strip_prefix(agent.file.stem.as_str()).unwrap_or(".agent.md");
                let path = match folder {
                    "" => format!("{new_name}{suffix}"),
                    folder => format!("{folder}/{new_name}{suffix}"),
                };
                let moved = RelPath { origin: file.origin, path: path.into() };
                if self.compilation.source(&moved).is_some() {
                    return Err(format!("`{moved}` exists already"));
                }
                plan.folder = Some((file.clone(), moved));
                plan.named_by_folder = true;
            }
        }
        for r in self.index.agents.uses(i) {
            // A prompt naming the agent by its file's name still finds it by
            // that when only its `name` changes.
            if r.from == AgentUse::Prompt && !r.name.eq_ignore_ascii_case(old) {
                continue;
            }
            if !r.exact {
                return Err(escaped(&r.file));
            }
            plan.edits.push(Edit {
                file: r.file.clone(),
                span: r.span,
                replacement: new_name.to_owned(),
            });
        }
        plan.edits.sort_by(|a, b| (&a.file, a.span.start).cmp(&(&b.file, b.span.start)));
        plan.edits.dedup();
        Ok(plan)
    }
}

/// Whether `new_name` may name `agent`, written as it is where names are
/// written (plain in a list, a comma string or quotes alike).
fn check_agent_name(agent: &Assistant, new_name: &str) -> Result<(), String> {
    if agent.file.dialect == Dialect::ClaudeSubagent {
        let kebab = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
        if new_name.is_empty() || new_name.starts_with('-') || !new_name.chars().all(kebab) {
            return Err(format!(
                "`{new_name}` is not a subagent name: Claude Code's are lowercase letters, digits and hyphens"
            ));
        }
        return Ok(());
    }
    // YAML reads these unquoted as something other than text.
    let lowered = new_name.to_ascii_lowercase();
    let not_text = ["true", "false", "yes", "no", "on", "off", "null", "y", "n"]
        .contains(&lowered.as_str())
        || new_name.parse::<f64>().is_ok();
    if !plain_agent_name(new_name) || not_text {
        return Err(format!(
            "`{new_name}` cannot be written as a plain name: use letters, digits, spaces, `-`, `_` and `.`, starting and ending with a letter or digit, that YAML does not read as a number or a boolean"
        ));
    }
    Ok(())
}

/// An agent's hover: what it is, its description, its file.
pub(super) fn hover(
    analysis: &Analysis<'_>,
    file: &RelPath,
    offset: usize,
) -> Option<(String, Span)> {
    let agents = &analysis.index.agents;
    if let Some((i, span)) = agents.at(file, offset) {
        let agent = &analysis.compilation.project.assistants[i];
        let noun = match agent.file.dialect {
            Dialect::ClaudeSubagent => "Claude Code subagent",
            _ => "Copilot agent",
        };
        let mut text = format!("**{noun}** `{}`", agent.name());
        if let Some(description) = description(agent) {
            text.push_str(&format!("\n\n{description}"));
        }
        text.push_str(&format!("\n\n*defined in* `{}`", agent.source.path));
        return Some((text, span));
    }
    let r = agents.ref_at(file, offset).filter(|r| is_built_in(r.from, &r.name))?;
    Some((format!("**built-in agent** `{}` of VS Code", r.name), r.span))
}

fn description(agent: &Assistant) -> Option<&str> {
    let text = match &agent.doc {
        AssistantDoc::Subagent(md) => &md.front.value.description,
        AssistantDoc::Copilot(md) => &md.front.value.description,
        AssistantDoc::Command(md) => md.front.value.description.as_ref()?,
    };
    Some(text.value.as_str()).filter(|d| !text.span.is_unknown() && !d.is_empty())
}

/// Which Copilot file `file` is, while it parses or not.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CopilotFile {
    Agent,
    Prompt,
}

fn copilot_file(analysis: &Analysis<'_>, file: &RelPath) -> Option<CopilotFile> {
    let project = &analysis.compilation.project;
    match analysis.file(file).map(|info| info.item) {
        Some(Item::Assistant(i)) => {
            return (project.assistants[i].file.dialect == Dialect::CopilotAgent)
                .then_some(CopilotFile::Agent);
        }
        Some(Item::Config(i)) => {
            return (project.configs[i].file.dialect == Dialect::CopilotPrompt)
                .then_some(CopilotFile::Prompt);
        }
        Some(Item::Unparsed) | None => {}
        Some(_) => return None,
    }
    // A file that does not parse (yet) is known by where it is.
    let path = &*file.path;
    let in_folder = |folder: &str| path.starts_with(folder) || path.contains(&format!("/{folder}"));
    if in_folder(".github/prompts/") && path.ends_with(".prompt.md") {
        Some(CopilotFile::Prompt)
    } else if (in_folder(".github/agents/") || in_folder(".github/chatmodes/"))
        && path.ends_with(".md")
    {
        Some(CopilotFile::Agent)
    } else {
        None
    }
}

/// At a value naming an agent — an `agents:` entry or a handoff's `agent`
/// in a Copilot agent, a prompt file's `agent` — the agents it may name; none
/// elsewhere.
pub(super) fn complete(
    analysis: &Analysis<'_>,
    file: &RelPath,
    text: &str,
    at: usize,
) -> Option<Vec<Completion>> {
    let kind = copilot_file(analysis, file)?;
    let end = frontmatter_end(text)?;
    if at > end || at < 4 {
        return None;
    }
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    let indented = before.starts_with([' ', '\t', '-']);
    let own = before.trim_start().trim_start_matches("- ").trim_start();
    let own_key = own.split_once(':').map(|(key, _)| key.trim());
    let top = match indented {
        false => own_key,
        true => text[..line_start]
            .lines()
            .rev()
            .find(|line| !line.is_empty() && !line.starts_with([' ', '\t', '-', '#']))
            .and_then(|line| line.split_once(':').map(|(key, _)| key.trim())),
    };
    let from = match (kind, top, own_key) {
        (CopilotFile::Agent, Some("agents"), _) => AgentUse::Agents,
        (CopilotFile::Agent, Some("handoffs"), Some("agent")) if indented => AgentUse::Handoff,
        (CopilotFile::Prompt, Some("agent" | "mode"), Some(_)) if !indented => AgentUse::Prompt,
        _ => return None,
    };
    let quoted = text[..at].ends_with(['\'', '"']);
    Some(agent_items(analysis, from, quoted))
}

fn agent_items(analysis: &Analysis<'_>, from: AgentUse, quoted: bool) -> Vec<Completion> {
    let project = &analysis.compilation.project;
    let nameable = |a: &&Assistant| match from {
        AgentUse::Prompt => a.file.dialect == Dialect::CopilotAgent,
        _ => read_by_vs_code(a),
    };
    let insert = |name: &str| match quoted || plain_agent_name(name) {
        true => name.to_owned(),
        false => agentc_compiler::parse::lenient::double_quoted(name),
    };
    let mut seen = std::collections::HashSet::new();
    let mut items: Vec<Completion> = (project.assistants.iter().filter(nameable))
        .filter(|a| seen.insert(a.name()))
        .map(|a| Completion {
            label: a.name().to_owned(),
            kind: CompletionKind::Agent,
            detail: description(a).map(str::to_owned),
            insert: insert(a.name()),
        })
        .collect();
    let built_in = match from {
        AgentUse::Prompt => BUILTIN_AGENTS,
        _ => COPILOT_BUILT_IN_AGENTS,
    };
    items.extend(built_in.iter().filter(|b| seen.insert(**b)).map(|b| Completion {
        label: (*b).to_owned(),
        kind: CompletionKind::Agent,
        detail: Some("built-in agent of VS Code".to_owned()),
        insert: (*b).to_owned(),
    }));
    items
}
