//! Check: what a VS Code prompt or instructions file says about the rest of
//! the repository — the custom agent a prompt runs with exists, and each
//! `applyTo` glob matches some file (one that matches none never applies).

use agentc_schema::{CopilotInstructionsFrontmatter, CopilotPromptFrontmatter, Dialect};

use super::links::Trees;
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::dialects::AssistantDoc;
use crate::fs::Fs;
use crate::hosts::copilot::prompts::{self, BUILTIN_AGENTS};
use crate::parse::files::Markdown;
use crate::project::Project;
use crate::repo_files::Lazy;
use crate::source::Source;

/// The agent a prompt file names is built in or one of the repository's
/// custom agents. VS Code also knows agents from the user's profile, which
/// agentc cannot see, so an unknown one is a warning, as VS Code's is.
pub fn prompt(
    project: &Project,
    source: &Source,
    parsed: &Markdown<CopilotPromptFrontmatter>,
    out: &mut Vec<Diagnostic>,
) {
    let front = &parsed.front.value;
    let Some(agent) = front.agent.as_ref().or(front.mode.as_ref()) else {
        return;
    };
    let name = agent.value.as_str();
    if BUILTIN_AGENTS.iter().any(|b| b.eq_ignore_ascii_case(name)) {
        return;
    }
    let custom: Vec<String> = project
        .assistants
        .iter()
        .filter(|a| a.file.dialect == Dialect::CopilotAgent)
        .flat_map(|a| {
            let named = match &a.doc {
                AssistantDoc::Copilot(md) => {
                    md.front.value.name.as_ref().map(|n| n.value.0.clone())
                }
                _ => None,
            };
            [Some(a.file.stem.clone()), named].into_iter().flatten()
        })
        .collect();
    if custom.iter().any(|c| c.eq_ignore_ascii_case(name)) {
        return;
    }
    let known: Vec<&str> =
        BUILTIN_AGENTS.iter().copied().chain(custom.iter().map(String::as_str)).collect();
    let mut diagnostic = Diagnostic::at(
        Code::UnknownRouteTarget,
        &source.path,
        agent.span,
        format!("the prompt runs with the agent `{name}`, which is neither built in nor a custom agent here"),
    )
    .with_severity(Severity::Warning);
    let near = crate::suggest::did_you_mean(name, known.iter().copied());
    diagnostic = match near {
        Some(close) => diagnostic.with_help(format!(
            "did you mean `{close}`? VS Code runs a prompt whose agent it cannot find with the \
             current agent; built-in agents are `ask`, `edit`, `agent` and `plan`"
        )),
        None => diagnostic.with_help(
            "add `.github/agents/<name>.agent.md`, or use a built-in agent (`ask`, `edit`, \
             `agent`, `plan`); if the agent is in your VS Code profile, ignore this warning",
        ),
    };
    let fix = crate::suggest::confident(name, known.iter().copied()).filter(|f| near == Some(*f));
    if let Some(fix) =
        fix.filter(|f| f.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)))
    {
        diagnostic = diagnostic.with_fix(
            format!("replace `{name}` with `{fix}`"),
            &source.path,
            agent.verbatim(0..name.len()),
            fix,
        );
    }
    out.push(diagnostic);
}

/// Each `applyTo` glob that matches no file of the repository: the
/// instructions never apply through it.
pub fn apply_to(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    files: &Lazy,
    source: &Source,
    parsed: &Markdown<CopilotInstructionsFrontmatter>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(apply_to) = &parsed.front.value.apply_to else {
        return;
    };
    let top = trees.root();
    for (glob, span) in prompts::apply_to_parts(apply_to) {
        // A pattern from `/` is matched against the full path on disk, which
        // agentc does not guess at.
        if glob.is_empty() || prompts::applies_always(&glob) || glob.starts_with('/') {
            continue;
        }
        let Ok(matcher) = prompts::glob_matcher(&glob) else {
            continue;
        };
        let listed = files.get(fs, top);
        // VS Code matches the full path, so a pattern may name the
        // repository's own folder or one above it.
        let prefix = format!("{}/", top.to_string_lossy().trim_end_matches('/'));
        let any = listed.any_match_under(&prefix, &matcher);
        if any.is_none() && listed.stopped() {
            out.push(crate::repo_files::stopped_here(source, span));
        }
        if any != Some(false) {
            continue;
        }
        out.push(
            Diagnostic::at(
                Code::UnmatchedGlob,
                &source.path,
                span,
                format!("`{glob}` matches no file of the repository, so it never applies"),
            )
            .with_help(format!(
                "VS Code matches `{}` against each file's path, ignoring case; correct the \
                 pattern, or remove it if those files are gone",
                prompts::anchored(&glob)
            )),
        );
    }
}
