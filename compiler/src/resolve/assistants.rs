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
use crate::dialects::AssistantDoc;
use crate::discover::Owner;
use crate::project::{Assistant, Project};
use crate::suggest::{did_you_mean, list_names};

/// The agents VS Code and its Copilot extension define, which a handoff or
/// `agents` may name besides the project's: the built-in modes (`agent`,
/// `ask`, `edit`) and the extension's `Ask`, `Edit`, `Explore` and `Plan`.
pub const COPILOT_BUILT_IN_AGENTS: &[&str] = &["agent", "ask", "edit", "explore", "plan"];

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
    let copilot_targets = copilot_targets(project);
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
        compiled.push(compile(assistant, skills, &copilot_targets, refs, out));
    }
    compiled.sort_by(|a, b| a.id.cmp(&b.id));
    compiled
}

/// A subagent is known by its `name`, a Copilot agent by the `name` it
/// declares; the others, and a Copilot agent without one, by their file's name.
fn name_span(assistant: &Assistant) -> Option<Span> {
    match &assistant.doc {
        AssistantDoc::Subagent(md) => Some(md.front.value.name.span),
        _ => assistant.copilot_name().map(|name| name.span),
    }
}

/// An agent VS Code can hand off to or start as a subagent.
struct Target<'p> {
    /// What VS Code finds it by: its `name`, else its file's name.
    name: &'p str,
    /// The file's name, which does not find it once it declares a `name`.
    stem: &'p str,
    file: &'p RelPath,
    name_span: Option<Span>,
}

/// The agents `agents:` and handoffs may name. VS Code finds one by its
/// `name`, and by its file's name only when it has none
/// (`CustomAgent.fromParsedPromptFile`, `findModeByName`;
/// microsoft/vscode#294230). It reads the Claude Code subagents directly in
/// `.claude/agents/` as custom agents too, by their `name`.
fn copilot_targets(project: &Project) -> Vec<Target<'_>> {
    project
        .assistants
        .iter()
        .filter(|a| read_by_vs_code(a))
        .map(|a| Target {
            name: a.name(),
            stem: &a.file.stem,
            file: &a.source.path,
            name_span: name_span(a),
        })
        .collect()
}

/// Whether VS Code reads `assistant` as a custom agent, which `agents:` and
/// handoffs may name: a Copilot agent, or a subagent directly in
/// `.claude/agents/`.
pub fn read_by_vs_code(assistant: &Assistant) -> bool {
    match assistant.file.dialect {
        Dialect::CopilotAgent => true,
        Dialect::ClaudeSubagent => {
            assistant.file.plugin.is_none() && assistant.file.folders.is_empty()
        }
        _ => false,
    }
}

fn duplicate(assistant: &Assistant, site: &Site, first: &Site) -> Diagnostic {
    let (noun, host) = match group(assistant.file.dialect) {
        Group::Subagent => ("subagent", "Claude Code loads one of them, and which is not defined"),
        Group::SlashCommand => {
            ("slash command", "Claude Code runs only one of them (a skill wins over a command)")
        }
        Group::Copilot => (
            "Copilot agent",
            "VS Code lists both, but a handoff or an `agents` entry naming it reaches only the \
             first it finds",
        ),
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
    copilot_targets: &[Target<'_>],
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
                if is_copilot_agent(copilot_targets, target.value.as_str()) {
                    handoffs.push(target.value.as_str().to_owned());
                } else {
                    out.push(unknown_agent(file, target, copilot_targets, "the handoff leads to"));
                }
            }
            for name in front.agents.iter().flatten() {
                if name.value != "*" && !is_copilot_agent(copilot_targets, &name.value) {
                    let name = name.as_ref().map(|n| Text(n.clone()));
                    out.push(unknown_agent(file, &name, copilot_targets, "`agents` names"));
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

/// VS Code compares names exactly; the built-in ones are taken in any case,
/// as its docs write them in lowercase and its code capitalises some.
fn is_copilot_agent(targets: &[Target<'_>], name: &str) -> bool {
    targets.iter().any(|t| t.name == name)
        || COPILOT_BUILT_IN_AGENTS.iter().any(|b| b.eq_ignore_ascii_case(name))
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
    )
    // Claude Code 2.1.332 loads the subagent without it.
    .with_severity(crate::diagnostic::Severity::Warning);
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

fn unknown_agent(
    file: &RelPath,
    target: &Spanned<Text>,
    targets: &[Target<'_>],
    what: &str,
) -> Diagnostic {
    let name = target.value.as_str();
    let diagnostic = Diagnostic::at(
        Code::UnknownRouteTarget,
        file,
        target.span,
        format!("{what} `{name}`, which is not a Copilot agent of this project"),
    );
    // The file's name of an agent that declares another name: the likeliest
    // mistake, as VS Code finds such an agent by its `name` alone
    // (microsoft/vscode#294230).
    let declared = |t: &&Target<'_>| t.name_span.is_some() && t.name != t.stem;
    if let Some(named) = targets.iter().filter(declared).find(|t| t.stem.eq_ignore_ascii_case(name))
    {
        let write = match plain(named.name) {
            true => format!("`{}`", named.name),
            false => format!("it quoted, `{}`", crate::parse::lenient::double_quoted(named.name)),
        };
        let diagnostic = diagnostic
            .with_label(
                named.file,
                named.name_span,
                format!("this agent is named `{}`", named.name),
            )
            .with_help(format!(
                "`{}` is named `{}` by its `name`, and VS Code finds an agent by its file's name \
                 only when it has no `name`: write {write}",
                named.file, named.name
            ));
        return with_replacement(diagnostic, file, target, named.name);
    }
    let names = || targets.iter().map(|t| t.name);
    match did_you_mean(name, names()) {
        Some(close) => with_replacement(
            diagnostic.with_help(format!("did you mean `{close}`?")),
            file,
            target,
            close,
        ),
        None if targets.is_empty() => diagnostic
            .with_help("no custom agents are defined: add `.github/agents/<name>.agent.md`"),
        None => diagnostic.with_help(format!(
            "an agent is named by its `name`, or by its file (`<name>.agent.md`) when it has \
             none; the agents here are {}",
            list_names(names())
        )),
    }
}

/// The fix writing `name` in place of the target, when it can stand where the
/// target's text is: inside quotes or a plain scalar, in a list or a comma
/// string alike. A name with other characters (`Review: PR`) is only named
/// in the help, as quoting it is a change of form the user should see.
fn with_replacement(
    diagnostic: Diagnostic,
    file: &RelPath,
    target: &Spanned<Text>,
    name: &str,
) -> Diagnostic {
    if !plain(name) {
        return diagnostic;
    }
    let current = target.value.as_str();
    diagnostic.with_fix(
        format!("replace `{current}` with `{name}`"),
        file,
        target.verbatim(0..current.len()),
        name,
    )
}

/// Whether `name` reads as itself wherever a name is written: plain, single-
/// or double-quoted, in a flow list or a comma string.
pub fn plain(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use crate::catalog::Code;
    use crate::compile::compile;
    use crate::memfs::MemFs;
    use crate::options::Options;

    fn copilot(name: Option<&str>, extra: &str) -> String {
        let name = name.map(|n| format!("name: '{n}'\n")).unwrap_or_default();
        format!("---\n{name}description: Does its part.\n{extra}---\nDo it.\n")
    }

    /// The lockfile knows a Copilot agent by the name VS Code finds it by,
    /// so each handoff names an assistant of the lockfile.
    #[test]
    fn a_copilot_agent_is_its_name_in_the_lockfile() {
        let mut fs = MemFs::new();
        fs.insert(".github/agents/swe-subagent.agent.md", copilot(Some("SWE"), "")).unwrap();
        fs.insert(".github/agents/docs.agent.md", copilot(None, "")).unwrap();
        let handoffs = "handoffs:\n  - label: Build\n    agent: SWE\n    prompt: Build it.\n  \
                        - label: Write\n    agent: docs\n    prompt: Write it.\n";
        fs.insert(".github/agents/lead.agent.md", copilot(Some("Lead"), handoffs)).unwrap();
        let compiled = compile(&fs, &Options::new(fs.root())).unwrap();
        assert!(compiled.diagnostics.is_empty(), "{:#?}", compiled.diagnostics);
        let assistants = &compiled.model.assistants;
        let ids: Vec<&str> = assistants.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["Lead", "SWE", "docs"]);
        assert_eq!(assistants[0].handoffs, ["SWE", "docs"]);
    }

    /// VS Code reads the subagents directly in `.claude/agents/` as custom
    /// agents, and no subfolder of it.
    #[test]
    fn a_claude_subagent_is_a_target_only_where_vs_code_reads_it() {
        let mut fs = MemFs::new();
        let subagent =
            |name: &str| format!("---\nname: {name}\ndescription: Checks.\n---\nCheck.\n");
        fs.insert(".claude/agents/reviewer.md", subagent("reviewer")).unwrap();
        fs.insert(".claude/agents/team/tester.md", subagent("tester")).unwrap();
        let agents = "tools: ['agent']\nagents: ['reviewer', 'tester']\n";
        fs.insert(".github/agents/lead.agent.md", copilot(None, agents)).unwrap();
        let compiled = compile(&fs, &Options::new(fs.root())).unwrap();
        let unknown: Vec<&str> = (compiled.diagnostics.iter())
            .filter(|d| d.code == Code::UnknownRouteTarget)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            unknown,
            ["`agents` names `tester`, which is not a Copilot agent of this project"]
        );
    }
}
