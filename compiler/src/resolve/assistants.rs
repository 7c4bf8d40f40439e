//! The coding assistants' agents, resolved: one definition per name in each
//! namespace, a subagent's `skills`, and Copilot's handoffs.
//!
//! A host loads one of two files with one name and says nothing (Claude Code:
//! "which one is undocumented"), so two are `duplicate-name`; a skill or a
//! handoff target that does not exist fails only when the agent runs, so it is
//! reported where it is written.

use std::collections::HashMap;

use agentc_schema::lockfile;
use agentc_schema::{Dialect, Span, Spanned, Text};

use super::{NameRef, RefKind, Table, kept_fields};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath};
use crate::discover::Owner;
use crate::parse::dialects::AssistantDoc;
use crate::project::{Assistant, Project};
use crate::suggest::{did_you_mean, list_names};

/// VS Code's built-in agents, which a handoff may name besides the project's.
const COPILOT_BUILT_IN_AGENTS: &[&str] = &["agent", "ask", "edit", "plan"];

/// The kinds of names that clash: a command and a skill of Claude Code both
/// make one slash command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Group {
    Subagent,
    SlashCommand,
    Copilot,
}

fn group(dialect: Dialect) -> Group {
    match dialect {
        Dialect::ClaudeSubagent => Group::Subagent,
        Dialect::CopilotAgent => Group::Copilot,
        _ => Group::SlashCommand,
    }
}

/// Where a name is defined, for the report of a second definition.
struct Site {
    file: RelPath,
    span: Option<Span>,
    /// A Claude Code skill, which wins over a command of its name.
    skill: bool,
}

/// Resolves every assistant agent; returns them compiled, in id order.
pub fn resolve(
    project: &Project,
    skills: &Table,
    refs: &mut Vec<NameRef>,
    out: &mut Vec<Diagnostic>,
) -> Vec<lockfile::Assistant> {
    let mut seen: HashMap<(Group, Option<String>, String), Site> = HashMap::new();
    // A Claude Code skill is a slash command too.
    for skill in project.skills.iter().filter(|s| s.file.dialect == Dialect::ClaudeSkill) {
        let plugin = match &skill.file.owner {
            Owner::Plugin(plugin) => Some(plugin.clone()),
            _ => None,
        };
        let name = &skill.parsed.front.value.name;
        seen.entry((Group::SlashCommand, plugin, name.value.as_str().to_owned())).or_insert(Site {
            file: skill.source.path.clone(),
            span: Some(name.span),
            skill: true,
        });
    }
    // VS Code finds an agent for `agents:` and a handoff by its `name`, and
    // by its file's name only when it has none (microsoft/vscode#294230).
    let copilot_ids: Vec<&str> = project
        .assistants
        .iter()
        .filter(|a| a.file.dialect == Dialect::CopilotAgent)
        .map(|a| match &a.doc {
            AssistantDoc::Copilot(md) => md
                .front
                .value
                .name
                .as_ref()
                .filter(|n| !n.value.as_str().trim().is_empty())
                .map_or(a.file.stem.as_str(), |n| n.value.as_str()),
            _ => a.file.stem.as_str(),
        })
        .collect();
    let mut compiled = Vec::new();
    for assistant in &project.assistants {
        let name = match assistant.file.plugin {
            Some(_) => assistant.name_in_plugin(),
            None => assistant.id(),
        };
        let key = (group(assistant.file.dialect), assistant.file.plugin.clone(), name);
        let site =
            Site { file: assistant.source.path.clone(), span: name_span(assistant), skill: false };
        if let Some(first) = seen.get(&key) {
            out.push(duplicate(assistant, &site, first));
            continue;
        }
        seen.insert(key, site);
        compiled.push(compile(assistant, skills, &copilot_ids, refs, out));
    }
    compiled.sort_by(|a, b| a.id.cmp(&b.id));
    compiled
}

/// A subagent is known by its `name`; the others by their file's name.
fn name_span(assistant: &Assistant) -> Option<Span> {
    match &assistant.doc {
        AssistantDoc::Subagent(md) => Some(md.front.value.name.span),
        _ => None,
    }
}

fn duplicate(assistant: &Assistant, site: &Site, first: &Site) -> Diagnostic {
    let (noun, host) = match group(assistant.file.dialect) {
        Group::Subagent => ("subagent", "Claude Code loads one of them, and which is not defined"),
        Group::SlashCommand => {
            ("slash command", "Claude Code runs only one of them (a skill wins over a command)")
        }
        Group::Copilot => ("Copilot agent", "Copilot keeps only one of them"),
    };
    let name = assistant.name();
    let diagnostic = Diagnostic::new(
        Code::DuplicateName,
        &site.file,
        site.span,
        format!("the {noun} `{name}` is defined twice"),
    )
    .with_label(&first.file, first.span, "first defined here");
    // Claude Code's precedence decides this one: the skill runs, and the
    // command never does (its skills reference).
    if first.skill {
        return diagnostic.with_severity(crate::diagnostic::Severity::Warning).with_help(
            "Claude Code runs the skill: a skill wins over a command of its name, so this \
             command never runs; remove it, or rename it to keep both",
        );
    }
    diagnostic.with_help(format!("{host}; rename or remove one of them"))
}

fn compile(
    assistant: &Assistant,
    skills: &Table,
    copilot_ids: &[&str],
    refs: &mut Vec<NameRef>,
    out: &mut Vec<Diagnostic>,
) -> lockfile::Assistant {
    let file = &assistant.source.path;
    let plugin = assistant.file.plugin.as_deref();
    let mut loaded = Vec::new();
    let mut handoffs = Vec::new();
    let (description, fields) = match &assistant.doc {
        AssistantDoc::Subagent(md) => {
            for name in md.front.value.skills.iter().flatten() {
                let found = skills.lookup_in_plugin(plugin, &name.value);
                refs.push(NameRef::new(RefKind::Skill, file, None, name, found));
                match found {
                    Some(i) => loaded.push(skills.defs[i].qualified.clone()),
                    None => out.push(unknown_skill(file, name, skills, plugin)),
                }
            }
            let description = text(Some(&md.front.value.description));
            (description, kept_fields(&md.front, &["name", "description", "skills"]))
        }
        AssistantDoc::Command(md) => {
            (text(md.front.value.description.as_ref()), kept_fields(&md.front, &["description"]))
        }
        AssistantDoc::Copilot(md) => {
            let front = &md.front.value;
            for handoff in front.handoffs.iter().flatten() {
                let target = &handoff.value.agent;
                if is_copilot_agent(copilot_ids, target.value.as_str()) {
                    handoffs.push(target.value.as_str().to_owned());
                } else {
                    out.push(unknown_agent(file, target, copilot_ids, "the handoff leads to"));
                }
            }
            for name in front.agents.iter().flatten() {
                if name.value != "*" && !is_copilot_agent(copilot_ids, &name.value) {
                    let name = Spanned::new(Text(name.value.clone()), name.span);
                    out.push(unknown_agent(file, &name, copilot_ids, "`agents` names"));
                }
            }
            (text(Some(&front.description)), kept_fields(&md.front, &["description"]))
        }
    };
    lockfile::Assistant {
        id: assistant.id(),
        dialect: assistant.file.dialect,
        source: file.to_string(),
        plugin: assistant.file.plugin.clone(),
        description,
        skills: loaded,
        handoffs,
        mcp_servers: Vec::new(),
        body: assistant.source.shared(assistant.doc.body_span()),
        fields,
    }
}

fn text(value: Option<&Spanned<Text>>) -> Option<String> {
    value.filter(|v| !v.span.is_unknown()).map(|v| v.value.as_str().to_owned())
}

fn is_copilot_agent(ids: &[&str], name: &str) -> bool {
    ids.contains(&name) || COPILOT_BUILT_IN_AGENTS.iter().any(|b| b.eq_ignore_ascii_case(name))
}

fn unknown_skill(
    file: &RelPath,
    name: &Spanned<String>,
    skills: &Table,
    plugin: Option<&str>,
) -> Diagnostic {
    let diagnostic = Diagnostic::at(
        Code::UnknownSkill,
        file,
        name.span,
        format!("the subagent loads the skill `{}`, which does not exist", name.value),
    );
    match skills.nearest_in_plugin(plugin, &name.value) {
        Some(close) => diagnostic.with_help(format!("did you mean `{close}`?")).with_fix(
            format!("replace `{}` with `{close}`", name.value),
            file,
            name.verbatim(0..name.value.len()),
            close,
        ),
        None => diagnostic.with_help(
            "a subagent's `skills` name skills of the project (`.claude/skills/<name>/SKILL.md`) \
             or of its own plugin",
        ),
    }
}

fn unknown_agent(file: &RelPath, target: &Spanned<Text>, ids: &[&str], what: &str) -> Diagnostic {
    let name = target.value.as_str();
    let diagnostic = Diagnostic::at(
        Code::UnknownRouteTarget,
        file,
        target.span,
        format!("{what} `{name}`, which is not a Copilot agent of this project"),
    );
    match did_you_mean(name, ids.iter().copied()) {
        Some(close) => diagnostic.with_help(format!("did you mean `{close}`?")).with_fix(
            format!("replace `{name}` with `{close}`"),
            file,
            target.verbatim(0..name.len()),
            close,
        ),
        None if ids.is_empty() => diagnostic
            .with_help("no custom agents are defined: add `.github/agents/<name>.agent.md`"),
        None => diagnostic.with_help(format!(
            "an agent is named by its `name`, or by its file (`<name>.agent.md`) when it has \
             none; the agents here are {}",
            list_names(ids.iter().copied())
        )),
    }
}
