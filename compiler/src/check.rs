//! Check: the rules that hold between resolved names — runbook steps and
//! routes, the tools an agent's skills need, and what its runbook can reach.

use std::collections::HashMap;

use agentc_schema::guard::{GUARD_GRAMMAR, GuardError, parse_guard};
use agentc_schema::skill::guard_token_span;
use agentc_schema::{Span, Spanned};
use rayon::prelude::*;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath};
use crate::model::Model;
use crate::parse::files::key_span;
use crate::project::{Project, Skill};
use crate::resolve::Names;
use crate::runbook::{AgentTools, Runbook};
use crate::suggest::{confident, did_you_mean, list_names};

pub mod bundled;
pub mod codex;
pub mod config;
pub mod copilot_files;
pub mod copilot_hooks;
pub mod copilot_tools;
pub mod cursor;
pub mod hidden;
pub mod hidden_instructions;
pub mod links;
pub mod memory;

/// What the checks found, by skill and by agent (project order), so an edit
/// redoes only the shares it can change.
#[derive(Debug, Default)]
pub struct Checked {
    pub skills: Vec<Vec<Diagnostic>>,
    pub agents: Vec<Vec<Diagnostic>>,
}

/// Runs every check.
pub fn check(project: &Project, model: &Model, names: &Names) -> Checked {
    let skills = project.skills.par_iter().map(|skill| skill_checks(skill, names)).collect();
    let agents =
        project.agents.par_iter().map(|agent| agent_checks(project, model, names, agent)).collect();
    Checked { skills, agents }
}

/// The checks of one skill on its own: its runbook against its `tools`.
pub fn skill_checks(skill: &Skill, names: &Names) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    runbook(skill, &names.tools, &mut out);
    out
}

/// The checks of one agent: over the skills it activates, so an edit to one
/// of them redoes this.
pub fn agent_checks(
    project: &Project,
    model: &Model,
    names: &Names,
    agent: &crate::project::Agent,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    agent_tools(project, model, names, agent, &mut out);
    out
}

/// The skill's declared tools: which are (plain names), and which of them
/// resolved. A step or guard naming a tool close to one that did not is the
/// same mistake as that entry (already `unknown-tool`), and a suggestion never
/// points at a name that is itself broken.
struct Declared<'s> {
    all: Vec<&'s str>,
    usable: Vec<&'s str>,
    broken: Vec<&'s str>,
}

impl Declared<'_> {
    /// Reports `tool` unless the skill declares it, or it is the name a broken
    /// declaration meant.
    fn check(
        &self,
        code: Code,
        file: &RelPath,
        tool: &Spanned<String>,
        plain: &str,
        what: &str,
    ) -> Option<Diagnostic> {
        if self.all.contains(&plain) || did_you_mean(plain, self.broken.iter().copied()).is_some() {
            return None;
        }
        Some(undeclared(code, file, tool, what, &self.usable, self.all.is_empty()))
    }
}

/// Steps, `onSkip` and routes of one skill, checked against its own `tools`.
fn runbook(skill: &Skill, tools: &crate::resolve::Table, out: &mut Vec<Diagnostic>) {
    let front = &skill.parsed.front.value;
    let tree = &skill.parsed.front.tree;
    let file = &skill.source.path;
    // Inside an agent a private tool is named plainly or qualified; compare plainly.
    let prefix = match &skill.file.owner {
        crate::discover::Owner::Agent(a) => format!("agent__{a}__"),
        _ => String::new(),
    };
    let agent = match &skill.file.owner {
        crate::discover::Owner::Agent(a) => Some(a.as_str()),
        _ => None,
    };
    let all: Vec<&str> =
        front.tools.iter().flatten().map(|t| plain_name(&prefix, t.value.as_str())).collect();
    let (usable, broken) = all.iter().partition(|name| tools.lookup(agent, name).is_some());
    let declared = Declared { all, usable, broken };
    let has_steps = front.steps.as_ref().is_some_and(|s| !s.is_empty());
    // A `tools` or `steps` value with a problem (reported) was set aside; checks
    // against it would only repeat that problem.
    let tools_known = !skill.parsed.front.recovered("tools");
    let steps_known = !skill.parsed.front.recovered("steps");

    if let Some(steps) = front.steps.as_ref().filter(|_| tools_known) {
        if declared.all.is_empty() {
            out.push(
                Diagnostic::new(
                    Code::StepsWithoutTools,
                    file,
                    key_span(tree, "steps"),
                    "the skill has `steps` but declares no `tools`",
                )
                .with_help("list the tools the steps call under `tools`"),
            );
        } else {
            for step in steps {
                let tool = &step.value.tool;
                let plain = plain_name(&prefix, tool.value.as_str());
                out.extend(declared.check(Code::StepToolUndeclared, file, tool, plain, "a step"));
            }
        }
    }
    if let Some(on_skip) = &front.on_skip
        && !has_steps
        && steps_known
    {
        out.push(
            Diagnostic::at(
                Code::BadOnSkip,
                file,
                on_skip.span,
                "`onSkip` is set but the skill has no `steps`",
            )
            .with_help(
                "`onSkip` says what happens when a step is skipped; add `steps` or remove it",
            ),
        );
    }

    let mut targets: HashMap<&str, Span> = HashMap::new();
    for route in front.routes.iter().flatten() {
        if let Some(first) = targets.get(route.target.value.as_str()) {
            out.push(
                Diagnostic::at(
                    Code::DuplicateRoute,
                    file,
                    route.target.span,
                    format!("the skill routes to `{}` twice", route.target.value),
                )
                .with_label(file, Some(*first), "first route to it")
                .with_help("keep one route per target; the first that fires would make the other dead wiring"),
            );
        } else {
            targets.insert(&route.target.value, route.target.span);
        }
        let Some(guard) = &route.guard else { continue };
        match parse_guard(&guard.value) {
            Err(GuardError::Syntax { message, .. }) => out.push(
                Diagnostic::at(
                    Code::BadGuard,
                    file,
                    guard.span,
                    format!(
                        "the guard `{}` is outside the guard grammar: {message}",
                        guard.value.trim()
                    ),
                )
                .with_help(format!(
                    "a guard is {GUARD_GRAMMAR}; a condition in prose or code stays in code"
                )),
            ),
            Err(GuardError::UnknownStatus { range, word, on }) => {
                let statuses = agentc_schema::Status::ALL.map(|s| s.as_str());
                let near = did_you_mean(&word, statuses);
                let diagnostic = Diagnostic::at(
                    Code::BadStatus,
                    file,
                    guard_token_span(guard, range.clone()),
                    format!("`{word}` is not a tool status"),
                )
                .with_help(format!(
                    "{}the statuses are {}",
                    near.map(|n| format!("did you mean `{n}`? ")).unwrap_or_default(),
                    list_names(statuses)
                ));
                out.push(match confident(&word, statuses).filter(|fix| near == Some(*fix)) {
                    Some(fix) => diagnostic.with_fix(
                        format!("replace `{word}` with `{fix}`"),
                        file,
                        guard.verbatim(range),
                        fix,
                    ),
                    None => diagnostic,
                });
                // A second mistake in the same guard is reported too.
                guard_tool(guard, on.as_ref(), &prefix, &declared, tools_known, file, out);
            }
            Ok(parsed) => {
                guard_tool(guard, parsed.on.as_ref(), &prefix, &declared, tools_known, file, out);
            }
        }
    }
}

/// `name` without the private prefix `agent__<agent>__`, when it has it.
/// The tool after `on` must be one the skill declares.
fn guard_tool(
    guard: &Spanned<String>,
    on: Option<&agentc_schema::guard::Token<String>>,
    prefix: &str,
    declared: &Declared<'_>,
    tools_known: bool,
    file: &RelPath,
    out: &mut Vec<Diagnostic>,
) {
    let Some(on) = on.filter(|_| tools_known) else { return };
    let written = guard.value.get(on.range.clone()) == Some(on.value.as_str());
    let token = Spanned {
        value: on.value.clone(),
        span: guard_token_span(guard, on.range.clone()),
        text_at: guard.text_at.filter(|_| written).map(|at| at + on.range.start),
    };
    let plain = plain_name(prefix, on.value.as_str());
    out.extend(declared.check(Code::GuardToolUndeclared, file, &token, plain, "the guard"));
}

fn plain_name<'n>(prefix: &str, name: &'n str) -> &'n str {
    if prefix.is_empty() { name } else { name.strip_prefix(prefix).unwrap_or(name) }
}

fn undeclared(
    code: Code,
    file: &RelPath,
    tool: &Spanned<String>,
    what: &str,
    declared: &[&str],
    none_declared: bool,
) -> Diagnostic {
    let near = did_you_mean(&tool.value, declared.iter().copied());
    let help = match (near, none_declared) {
        (Some(n), _) => format!(
            "did you mean `{n}`? the skill's tools are {}",
            list_names(declared.iter().copied())
        ),
        (None, true) => "the skill declares no `tools`; add it there".to_owned(),
        (None, false) if declared.is_empty() => {
            format!("add `{}` to the skill's `tools`", tool.value)
        }
        (None, false) => format!(
            "add `{}` to the skill's `tools`, or use one of {}",
            tool.value,
            list_names(declared.iter().copied())
        ),
    };
    let diagnostic = Diagnostic::at(
        code,
        file,
        tool.span,
        format!("{what} names `{}`, which the skill's `tools` does not declare", tool.value),
    )
    .with_help(help);
    match confident(&tool.value, declared.iter().copied()).filter(|fix| near == Some(*fix)) {
        Some(fix) => diagnostic.with_fix(
            format!("replace `{}` with `{fix}`", tool.value),
            file,
            tool.verbatim(0..tool.value.len()),
            fix,
        ),
        None => diagnostic,
    }
}

/// Written entries of an agent's list with the qualified names they resolve to.
fn entries(
    table: &crate::resolve::Table,
    agent: &str,
    written: &[Spanned<String>],
) -> Vec<(String, Span)> {
    written
        .iter()
        .filter_map(|w| {
            table.lookup(Some(agent), &w.value).map(|i| (table.defs[i].qualified.clone(), w.span))
        })
        .collect()
}

/// The tools an agent's skills need, its deny list, and its runbook's reach.
fn agent_tools(
    project: &Project,
    model: &Model,
    names: &Names,
    agent: &crate::project::Agent,
    out: &mut Vec<Diagnostic>,
) {
    let id = agent.dir.id.as_str();
    let file = &agent.source.path;
    let Some(compiled) = model.agent(id) else {
        return;
    };
    let refs = agent.references();
    // Lists whose values had a problem (reported) were set aside; checks
    // against them would only repeat it.
    let tools_known = !agent.recovered("tools") && !agent.recovered("disallowed_tools");
    let skills_known = !agent.recovered("skills");
    // Tool entries that did not resolve (reported as unknown): a skill needing a
    // tool they nearly name is the same mistake, not a second one.
    let unresolved: Vec<&str> = refs
        .tools
        .iter()
        .filter(|t| names.tools.lookup(Some(id), &t.value).is_none())
        .map(|t| t.value.as_str())
        .collect();
    let skill_spans: HashMap<String, Span> =
        entries(&names.skills, id, &refs.skills).into_iter().collect();
    let denied: Vec<(String, Span)> = entries(&names.tools, id, &refs.disallowed);
    let tools = AgentTools::of(model, compiled);

    for (tool, span) in &denied {
        if tools.lists(tool) {
            out.push(
                Diagnostic::at(
                    Code::ToolConflict,
                    file,
                    *span,
                    format!("`{tool}` is both allowed and disallowed"),
                )
                .with_help("remove it from `tools` or from `disallowed_tools`"),
            );
        }
    }

    for skill_ref in compiled.skills.iter().filter(|_| tools_known) {
        let Some(skill) = model.skill(&skill_ref.qualified) else {
            continue;
        };
        for tool in &skill.tools {
            if tools.activates(tool) {
                continue;
            }
            let name = model.tool(tool).map_or(tool.as_str(), |t| t.name.as_str());
            if did_you_mean(name, unresolved.iter().copied()).is_some() {
                continue;
            }
            if let Some((_, span)) = denied.iter().find(|(t, _)| t == tool) {
                out.push(
                    Diagnostic::at(
                        Code::ToolConflict,
                        file,
                        *span,
                        format!("`{tool}` is disallowed, but the skill `{}` needs it", skill.name),
                    )
                    .with_help(format!(
                        "stop activating `{}`, or allow `{tool}` by removing it from `disallowed_tools`",
                        skill.name
                    )),
                );
                continue;
            }
            let (at_file, at_span) = match skill_spans.get(&skill.qualified) {
                Some(span) => (file.clone(), *span),
                None => match tool_entry(project, names, id, &skill.qualified, tool) {
                    Some(found) => found,
                    None => continue,
                },
            };
            // Name the tool as people write it: plainly inside its own agent.
            let written = model.tool(tool).map_or(tool.as_str(), |t| t.name.as_str());
            out.push(
                Diagnostic::at(
                    Code::SkillToolInactive,
                    &at_file,
                    at_span,
                    format!("the skill `{}` needs the tool `{written}`, which the agent `{id}` does not activate", skill.name),
                )
                .with_help(format!("add `{written}` to the agent's `tools`")),
            );
        }
    }

    if skills_known {
        let places = Places { project, model, names, agent, id, file, skill_spans: &skill_spans };
        runbook_graph(&Runbook::of(model, compiled), &places, tools_known, out);
    }
}

/// Where an agent's findings about its runbook point.
struct Places<'a> {
    project: &'a Project,
    model: &'a Model,
    names: &'a Names,
    agent: &'a crate::project::Agent,
    id: &'a str,
    /// The agent's file.
    file: &'a RelPath,
    /// Each activated skill's entry in the agent's `skills`.
    skill_spans: &'a HashMap<String, Span>,
}

impl Places<'_> {
    /// The skill's entry in the agent's `skills`, or its own `name` for a
    /// private skill the agent does not list.
    fn skill_entry(&self, qualified: &str) -> Option<(RelPath, Span)> {
        match self.skill_spans.get(qualified) {
            Some(span) => Some((self.file.clone(), *span)),
            None => private_skill(self.project, self.names, self.id, qualified)
                .map(|s| (s.source.path.clone(), s.parsed.front.value.name.span)),
        }
    }

    /// The route as written in its skill's file: its guard, or its target
    /// when it has none.
    fn route(&self, runbook: &Runbook, route: &crate::runbook::Route) -> Option<(RelPath, Span)> {
        let qualified = &runbook.skills[route.from].qualified;
        let def = &self.names.skills.defs[self.names.skills.lookup(Some(self.id), qualified)?];
        let skill = &self.project.skills[def.source?];
        // A skill may route to one target twice (`duplicate-route`): the nth
        // compiled route to it is the nth written one.
        let target = &route.route.target;
        let nth = (runbook.routes_from(route.from).iter())
            .take_while(|r| !std::ptr::eq(*r, route))
            .filter(|r| &r.route.target == target)
            .count();
        let written = (skill.parsed.front.value.routes.iter().flatten())
            .filter(|written| {
                self.names
                    .skills
                    .lookup(def.agent.as_deref(), &written.target.value)
                    .is_some_and(|i| &self.names.skills.defs[i].qualified == target)
            })
            .nth(nth)?;
        let span = written.guard.as_ref().map_or(written.target.span, |g| g.span);
        Some((skill.source.path.clone(), span))
    }
}

/// How many skills of a cycle, or routes of a skill, a diagnostic names and
/// labels: a loop through thousands of skills is one finding, not a page.
const SHOWN: usize = 10;

/// What the agent's runbook graph says: skills no route reaches, a start that
/// routes nowhere, skills that can never leave, loops with no guard.
fn runbook_graph(runbook: &Runbook, at: &Places, tools_known: bool, out: &mut Vec<Diagnostic>) {
    let name = |s: usize| runbook.skills[s].name.as_str();
    for cycle in runbook.unguarded_cycles() {
        let routes: Vec<&crate::runbook::Route> =
            cycle.iter().map(|&i| &runbook.routes[i]).collect();
        let Some((file, span)) = at.route(runbook, routes[0]) else { continue };
        let message = if let [only] = routes[..] {
            format!(
                "`{}` routes to itself with no guard, so a runbook can stay there forever",
                name(only.from)
            )
        } else {
            let mut path: Vec<String> =
                routes.iter().take(SHOWN).map(|r| format!("`{}`", name(r.from))).collect();
            if routes.len() > SHOWN {
                path.push(format!("… {} more", routes.len() - SHOWN));
            }
            path.push(format!("`{}`", name(routes[0].from)));
            format!(
                "the routes {} have no guard, so a runbook can go round them forever",
                path.join(" → ")
            )
        };
        let help = if routes.len() == 1 {
            "guard the route on a tool's outcome (`- <skill>: on <tool> status=success`), or remove it"
        } else {
            "guard one of these routes on a tool's outcome (`- <skill>: on <tool> status=success`), or remove one"
        };
        let mut diagnostic = Diagnostic::at(Code::RouteCycle, &file, span, message).with_help(help);
        for route in routes.iter().take(SHOWN).skip(1) {
            if let Some((file, span)) = at.route(runbook, route) {
                let message = format!(
                    "`{}` routes on to `{}` here",
                    name(route.from),
                    route.to.map_or("", name)
                );
                diagnostic = diagnostic.with_label(&file, Some(span), message);
            }
        }
        out.push(diagnostic);
    }

    for stuck in runbook.stuck_on_tools().into_iter().filter(|_| tools_known) {
        let routes = runbook.routes_from(stuck);
        let mut tools: Vec<&str> = routes
            .iter()
            .filter_map(|r| r.route.on_tool.as_deref())
            .map(|t| at.model.tool(t).map_or(t, |d| d.name.as_str()))
            .collect();
        tools.sort_unstable();
        tools.dedup();
        let Some((file, span)) = at.route(runbook, &routes[0]) else { continue };
        let listed = list_names(tools.iter().copied());
        let mut diagnostic = Diagnostic::at(
            Code::RoutesNeverFire,
            &file,
            span,
            format!(
                "every route out of `{}` waits on {listed}, which the agent `{}` cannot use, so its runbook stops here",
                name(stuck),
                at.id
            ),
        )
        .with_help(format!("let the agent use {listed} (in its `tools`, not in `disallowed_tools`), or add a route that waits on a tool the agent has"));
        for route in routes.iter().take(SHOWN).skip(1) {
            if let Some((file, span)) = at.route(runbook, route) {
                diagnostic =
                    diagnostic.with_label(&file, Some(span), "this route cannot fire either");
            }
        }
        out.push(diagnostic);
    }

    let Some(start) = runbook.start else { return };
    if let Some(start) = runbook.start_routes_nowhere() {
        let missed = list_names((0..runbook.skills.len()).filter(|&s| s != start).map(name));
        let Some((file, span)) = start_span(at) else { return };
        let mut diagnostic = Diagnostic::at(
            Code::StartRoutesNowhere,
            &file,
            span,
            format!(
                "the runbook starts at `{}`, which routes to none of the agent's other skills, so these never run: {}",
                name(start),
                missed
            ),
        )
        .with_help(format!("add a route from `{}` to the skill that comes next, or start the runbook elsewhere", name(start)));
        if let Some((skill_file, skill_span)) = at.skill_entry(&runbook.skills[start].qualified) {
            diagnostic = diagnostic.with_label(&skill_file, Some(skill_span), "the start skill");
        }
        out.push(diagnostic);
        return;
    }
    for skill in (0..runbook.skills.len()).filter(|&s| !runbook.reached[s]) {
        let Some((at_file, at_span)) = at.skill_entry(&runbook.skills[skill].qualified) else {
            continue;
        };
        out.push(
            Diagnostic::at(
                Code::UnreachableSkill,
                &at_file,
                at_span,
                format!(
                    "no route reaches the skill `{}` from the runbook's start `{}`",
                    name(skill),
                    name(start)
                ),
            )
            .with_help("add a route to it from a skill the runbook reaches, or stop activating it"),
        );
    }
}

/// The agent's `start:` value.
fn start_span(at: &Places) -> Option<(RelPath, Span)> {
    match &at.agent.kind {
        crate::project::AgentKind::Bundle(md) => {
            md.front.value.start.as_ref().map(|s| (at.file.clone(), s.span))
        }
        crate::project::AgentKind::Package { .. } => None,
    }
}

/// The parsed private skill of `agent` with this qualified name.
fn private_skill<'p>(
    project: &'p Project,
    names: &Names,
    agent: &str,
    qualified: &str,
) -> Option<&'p Skill> {
    let def = &names.skills.defs[names.skills.lookup(Some(agent), qualified)?];
    def.source.map(|i| &project.skills[i])
}

/// Where a private skill lists `tool` (qualified) in its own `tools`.
fn tool_entry(
    project: &Project,
    names: &Names,
    agent: &str,
    skill: &str,
    tool: &str,
) -> Option<(RelPath, Span)> {
    let def = &names.skills.defs[names.skills.lookup(Some(agent), skill)?];
    let source = &project.skills[def.source?];
    let agent = def.agent.as_deref();
    source.parsed.front.value.tools.iter().flatten().find_map(|written| {
        let i = names.tools.lookup(agent, &written.value)?;
        (names.tools.defs[i].qualified == tool).then(|| (source.source.path.clone(), written.span))
    })
}
