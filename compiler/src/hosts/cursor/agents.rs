//! Cursor's subagents, `.cursor/agents/<name>.md`: frontmatter with `name`,
//! `description`, `model`, `readonly` and `is_background`, then the prompt
//! (a subagent without one, or without a description, is reported)
//! (cursor.com/docs/agent/subagents, read 2026-12-05). As for Cursor's other
//! files, no Cursor binary runs here to show what it refuses, so every
//! finding is a warning but frontmatter that is not YAML at all.

use agentc_schema::CursorAgentFrontmatter;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Frontmatter, Markdown, Reading, markdown};
use crate::parse::tree::{Node, Value};
use crate::source::Source;

/// The subagent's frontmatter, and a description to delegate by.
pub fn read(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<CursorAgentFrontmatter>> {
    let start = out.len();
    let parsed = markdown::<CursorAgentFrontmatter>(
        source,
        Frontmatter::Required,
        "name: security-reviewer\ndescription: Reviews a change for security problems\nmodel: inherit",
        Reading { lenient: Some(super::super::Reader::Cursor), ..Reading::HOST_FRONTMATTER },
        out,
    );
    if let Some(parsed) = &parsed {
        let front = &parsed.front.value;
        let blank = front.description.as_ref().is_none_or(|d| d.value.as_str().trim().is_empty());
        // A blank value was reported where it is, and set aside.
        if blank && !parsed.front.recovered("description") {
            let diagnostic = match &front.description {
                Some(d) => Diagnostic::at(
                    Code::MissingField,
                    &source.path,
                    d.span,
                    "this subagent's `description` is empty",
                ),
                None => {
                    let message = "a Cursor subagent needs a `description`";
                    match first_key(&parsed.front.tree) {
                        Some(span) => {
                            Diagnostic::at(Code::MissingField, &source.path, span, message)
                        }
                        None => Diagnostic::on_path(Code::MissingField, &source.path, message),
                    }
                }
            };
            out.push(diagnostic.with_help(
                "say when to use it: Cursor's agent reads the description to decide what to \
                 delegate, and without one it has no reason to pick this subagent",
            ));
        }
    }
    if let Some(parsed) = &parsed
        && source.slice(parsed.body_span).trim().is_empty()
    {
        out.push(
            Diagnostic::on_path(Code::EmptyBody, &source.path, "a subagent with no prompt")
                .with_help(
                    "the body after the frontmatter is the subagent's prompt: write it, or \
                     remove the file",
                ),
        );
    }
    let demoted = |d: &&mut Diagnostic| d.severity == Severity::Error && d.code != Code::YamlSyntax;
    for diagnostic in out[start..].iter_mut().filter(demoted) {
        diagnostic.severity = Severity::Warning;
    }
    parsed
}

/// The frontmatter's first key, where a missing one is reported.
fn first_key(tree: &Node) -> Option<agentc_schema::Span> {
    match &tree.value {
        Value::Map(entries) => entries.first().map(|entry| entry.key_span),
        _ => None,
    }
}
