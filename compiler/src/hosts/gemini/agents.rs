//! Gemini CLI's subagents, `.gemini/agents/*.md`, as 0.61.0 reads them
//! (`parseAgentMarkdown` in its bundle; `docs/formats.md`, "Gemini CLI
//! subagents"). Its validator is strict: a file without frontmatter, with
//! a key it does not know, a value of the wrong type, a `name` outside
//! `[a-z0-9-_]`, no `description` (a local agent), or a `max_turns` or
//! `timeout_mins` that is not a whole number above 0 is not loaded ("Agent
//! loading error"): errors.

use agentc_schema::GeminiAgentFrontmatter;

use crate::catalog::Code;
use crate::diagnostic::Diagnostic;
use crate::parse::files::{Frontmatter, Markdown, Reading, markdown};
use crate::source::Source;

/// What Gemini CLI does with an agent that breaks a rule.
const REFUSED: &str = "Gemini CLI 0.61.0 does not load the agent (\"Agent loading error\")";

/// A subagent's frontmatter, with the rules its validator applies.
pub fn read(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<GeminiAgentFrontmatter>> {
    // Gemini CLI skips a file whose name starts with `_`.
    let name = source.path.path.rsplit('/').next().unwrap_or_default();
    if name.starts_with('_') {
        return None;
    }
    let reading = Reading { unknown: crate::diagnostic::Severity::Error, ..Reading::FRONTMATTER };
    let parsed = markdown::<GeminiAgentFrontmatter>(
        source,
        Frontmatter::Required,
        "name: code-reviewer\ndescription: Reviews a change for bugs\ntools: [read_file, grep_search]",
        reading,
        out,
    )?;
    let file = &source.path;
    let front = &parsed.front.value;
    let name = front.name.value.as_str();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    {
        let fixed: String = name
            .chars()
            .map(|c| c.to_ascii_lowercase())
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' })
            .collect();
        let diagnostic = Diagnostic::at(
            Code::BadName,
            file,
            front.name.span,
            format!("`{name}` is not a name Gemini CLI takes for an agent"),
        )
        .with_help(format!(
            "use lower-case letters, digits, `-` and `_` (\"Name must be a valid slug\"); {REFUSED}"
        ));
        out.push(match fixed.is_empty() {
            true => diagnostic,
            false => diagnostic.with_fix(
                format!("write `{fixed}`"),
                file,
                front.name.verbatim(0..name.len()),
                fixed,
            ),
        });
    }
    let remote = front.kind.as_ref().is_some_and(|k| k.value.as_str() == "remote")
        || front.agent_card_url.is_some()
        || front.agent_card_json.is_some();
    if let Some(kind) = &front.kind
        && !matches!(kind.value.as_str(), "local" | "remote")
    {
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                file,
                kind.span,
                format!("`{}` is not an agent kind Gemini CLI has", kind.value.as_str()),
            )
            .with_help(format!("write `local` or `remote`, or leave `kind` out; {REFUSED}")),
        );
    }
    if !remote && front.description.as_ref().is_none_or(|d| d.value.as_str().is_empty()) {
        let diagnostic = match &front.description {
            Some(d) => Diagnostic::at(
                Code::MissingField,
                file,
                d.span,
                "this agent's `description` is empty",
            ),
            None => Diagnostic::at(
                Code::MissingField,
                file,
                front.name.span,
                "a Gemini CLI agent needs a `description`",
            ),
        };
        out.push(diagnostic.with_help(format!("say when the agent is to be used; {REFUSED}")));
    }
    for (field, value) in [("max_turns", &front.max_turns), ("timeout_mins", &front.timeout_mins)] {
        if let Some(value) = value
            && (value.value < 1.0 || value.value.fract() != 0.0)
        {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    value.span,
                    format!("`{field}` is a whole number above 0"),
                )
                .with_help(format!("write e.g. `10`; {REFUSED}")),
            );
        }
    }
    Some(parsed)
}
