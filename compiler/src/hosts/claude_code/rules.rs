//! Claude Code's project rules and output styles, two kinds of Markdown it
//! reads from `.claude/`.
//!
//! A rule (`.claude/rules/**/*.md`) is memory: Claude Code loads every rule
//! into the context, and one whose frontmatter has `paths` only when the
//! model works on a file those globs match. A glob that matches no file of
//! the repository scopes the rule to nothing.
//!
//! An output style (`.claude/output-styles/*.md`) replaces the system
//! prompt's way of answering when a user picks it (`/output-style`, or
//! `outputStyle` in settings); its frontmatter names and describes it, and
//! `keep-coding-instructions` keeps Claude Code's coding instructions.
//!
//! Neither is validated by Claude Code 2.1.332 where it can be seen (`claude
//! doctor` says nothing of either), so every rule here is a warning.

use agentc_schema::{ClaudeOutputStyleFrontmatter, ClaudeRuleFrontmatter};

use super::super::{patterns, unmatched_globs};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Frontmatter, Markdown, Reading, entry_value, markdown};
use crate::parse::tree::Value;
use crate::repo_files::RepoFiles;
use crate::source::Source;

/// A rule file, and its `paths`.
pub fn rule(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Markdown<ClaudeRuleFrontmatter>> {
    let parsed = markdown::<ClaudeRuleFrontmatter>(
        source,
        Frontmatter::Optional,
        "paths:\n  - \"src/api/**/*.ts\"",
        Reading { unknown: Severity::Warning, ..Reading::CLAUDE_FRONTMATTER },
        out,
    )?;
    if let Some(node) = entry_value(&parsed.front.tree, "paths") {
        for item in
            node.one_or_many().into_iter().filter(|item| !matches!(item.value, Value::Str(_)))
        {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    &source.path,
                    item.span,
                    format!("a glob of `paths` must be text, not {}", item.describe()),
                )
                .with_severity(Severity::Warning)
                .with_help("quote the glob: `paths: [\"src/**/*.ts\"]`"),
            );
        }
    }
    empty_body(source, &parsed, "a rule", out);
    Some(parsed)
}

/// Each glob of a rule's `paths` matches a file of the repository.
pub fn check_rule(
    source: &Source,
    rule: &Markdown<ClaudeRuleFrontmatter>,
    files: &RepoFiles,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(node) = entry_value(&rule.front.tree, "paths") {
        unmatched_globs(source, &patterns(node, false), files, "Claude Code", out);
    }
}

/// An output style.
pub fn output_style(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<ClaudeOutputStyleFrontmatter>> {
    let parsed = markdown::<ClaudeOutputStyleFrontmatter>(
        source,
        Frontmatter::Optional,
        "name: Terse\ndescription: One-line answers",
        Reading { unknown: Severity::Warning, ..Reading::CLAUDE_FRONTMATTER },
        out,
    )?;
    if let Some(node) = entry_value(&parsed.front.tree, "keep-coding-instructions")
        && !matches!(node.value, Value::Bool(_))
    {
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                node.span,
                format!("`keep-coding-instructions` must be `true` or `false`, not {}", node.describe()),
            )
            .with_severity(Severity::Warning)
            .with_help("write `true` to keep Claude Code's coding instructions with this style, or `false`"),
        );
    }
    empty_body(source, &parsed, "an output style", out);
    Some(parsed)
}

/// A file whose body is empty gives the model nothing.
fn empty_body<T>(source: &Source, parsed: &Markdown<T>, what: &str, out: &mut Vec<Diagnostic>) {
    if !source.slice(parsed.body_span).trim().is_empty() {
        return;
    }
    out.push(
        Diagnostic::on_path(Code::EmptyBody, &source.path, format!("{what} with no body"))
            .with_severity(Severity::Warning)
            .with_help(
                "Claude Code reads the body as the instructions: write them, or remove the file",
            ),
    );
}
