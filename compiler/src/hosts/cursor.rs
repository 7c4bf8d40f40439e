//! Cursor's project rules, `.cursor/rules/**/*.mdc`. Cursor is closed source
//! and publishes no schema or parser: what is checked is what its rules
//! documentation states (`docs/formats.md`, "Cursor rules") — the three
//! keys, `globs` written with commas, and that a plain `.md` file in
//! `.cursor/rules` is ignored. Every rule here is a warning, since Cursor's
//! behaviour on a bad value is not published.

use agentc_schema::{CursorRuleFrontmatter, Dialect};

use super::{Declared, Pattern, patterns, unmatched_globs};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Frontmatter, Markdown, Reading, entry_value, markdown};
use crate::parse::tree::{Node, Value};
use crate::repo_files::RepoFiles;
use crate::source::Source;

/// Cursor's rules: `.mdc` files, in `.cursor/rules` and its folders; a
/// plain `.md` there is read only to say Cursor ignores it.
pub const PROJECT_FILES: &[Declared] = &[
    Declared { path: ".cursor/rules/**/*.mdc", dialect: Dialect::CursorRule },
    Declared { path: ".cursor/rules/**/*.md", dialect: Dialect::CursorRule },
];

/// A rule file; `None` for a plain `.md` file (reported) or one that does not
/// parse.
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Markdown<CursorRuleFrontmatter>> {
    if !source.path.path.ends_with(".mdc") {
        out.push(
            Diagnostic::on_path(
                Code::StrayEntry,
                &source.path,
                "Cursor ignores a `.md` file in `.cursor/rules`: project rules are `.mdc` files",
            )
            .with_severity(Severity::Warning)
            .with_help(
                "rename it to `.mdc` (and give it `description`, `globs` or `alwaysApply` \
                 frontmatter), or move it out of `.cursor/rules`",
            ),
        );
        return None;
    }
    let parsed = markdown::<CursorRuleFrontmatter>(
        source,
        Frontmatter::Optional,
        "description: Conventions for the API\nglobs: src/api/**/*.ts\nalwaysApply: false",
        Reading { lenient: Some(super::Reader::Cursor), ..Reading::HOST_FRONTMATTER },
        out,
    )?;
    let tree = &parsed.front.tree;
    for key in ["description", "globs"] {
        if let Some(node) = entry_value(tree, key) {
            shape(source, key, node, key == "globs", out);
        }
    }
    if let Some(node) = entry_value(tree, "alwaysApply") {
        always_apply(source, node, out);
    }
    Some(parsed)
}

/// `description` is text and `globs` text or a list of text; either may be
/// left blank, as Cursor's own editor writes them.
fn shape(source: &Source, key: &str, node: &Node, list: bool, out: &mut Vec<Diagnostic>) {
    let fine = match &node.value {
        Value::Null | Value::Str(_) => true,
        Value::Seq(items) => list && items.iter().all(|i| matches!(i.value, Value::Str(_))),
        _ => false,
    };
    if fine {
        return;
    }
    let what = if list { "text (globs separated by commas) or a list of globs" } else { "text" };
    out.push(
        Diagnostic::at(
            Code::InvalidValue,
            &source.path,
            node.span,
            format!("Cursor reads `{key}` as {what}"),
        )
        .with_severity(Severity::Warning)
        .with_help(format!("write `{key}` as {what}")),
    );
}

/// `alwaysApply` is `true` or `false`; quoted, it is text, which Cursor is
/// reported not to read as `true`.
fn always_apply(source: &Source, node: &Node, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    match &node.value {
        Value::Null | Value::Bool(_) => {}
        Value::Str(text) if matches!(text.trim(), "true" | "false") => {
            let value = text.trim().to_owned();
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    node.span,
                    format!("`alwaysApply` is the text \"{value}\", not the boolean {value}"),
                )
                .with_severity(Severity::Warning)
                .with_help("remove the quotes; Cursor may not read quoted text as `true`")
                .with_fix("remove the quotes", file, Some(node.span), value),
            );
        }
        _ => out.push(
            Diagnostic::at(Code::InvalidValue, file, node.span, "`alwaysApply` is not a boolean")
                .with_severity(Severity::Warning)
                .with_help("write `alwaysApply: true` or `alwaysApply: false`"),
        ),
    }
}

/// Each glob of `globs` matches a file of the repository.
pub fn check(
    source: &Source,
    rule: &Markdown<CursorRuleFrontmatter>,
    files: &RepoFiles,
    out: &mut Vec<Diagnostic>,
) {
    let Some(node) = entry_value(&rule.front.tree, "globs") else {
        return;
    };
    let found: Vec<Pattern> = patterns(node, true);
    unmatched_globs(source, &found, files, "Cursor", out);
}
