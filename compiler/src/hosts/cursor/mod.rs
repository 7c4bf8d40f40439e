//! Cursor's project files: its rules, `.cursor/rules/**/*.mdc` (at the top
//! and in the `.cursor/rules` of any folder below), and `hooks.json`,
//! `environment.json` and `cli.json` ([`hooks`], [`environment`], [`cli`]).
//! Cursor is closed source and publishes no parser: what is checked is
//! what its documentation states (`docs/formats.md`, "Cursor rules") — the
//! three keys, `globs` written with commas, and that a plain `.md` file in
//! `.cursor/rules` is ignored. Every rule here is a warning, since Cursor's
//! behaviour on a bad value is not published and no Cursor binary runs here.

pub mod agents;
pub mod cli;
pub mod environment;
pub mod hooks;

use agentc_schema::{CursorRuleFrontmatter, Dialect};

use super::{Declared, Pattern, patterns, unmatched_globs};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Frontmatter, Markdown, Reading, entry_value, markdown};
use crate::parse::tree::{Node, Value};
use crate::repo_files::RepoFiles;
use crate::source::Source;

/// Cursor's files at the top: rules (`.mdc` files in `.cursor/rules` and its
/// folders; a plain `.md` there is read only to say Cursor ignores it), its
/// hooks, its cloud agents' environment and the CLI's permissions.
pub const PROJECT_FILES: &[Declared] = &[
    Declared { path: ".cursor/rules/**/*.mdc", dialect: Dialect::CursorRule },
    Declared { path: ".cursor/rules/**/*.md", dialect: Dialect::CursorRule },
    Declared { path: ".cursor/hooks.json", dialect: Dialect::CursorHooks },
    Declared { path: ".cursor/environment.json", dialect: Dialect::CursorEnvironment },
    Declared { path: ".cursor/cli.json", dialect: Dialect::CursorCli },
    Declared { path: ".cursor/agents/*.md", dialect: Dialect::CursorAgent },
];

/// Cursor's files in a `.cursor` folder below the top: its rules apply to
/// that folder's files, and the Cursor CLI merges each `cli.json` from the
/// repository's top down to the folder it works in.
pub const NESTED_FILES: &[Declared] = &[
    Declared { path: "rules/**/*.mdc", dialect: Dialect::CursorRule },
    Declared { path: "rules/**/*.md", dialect: Dialect::CursorRule },
    Declared { path: "cli.json", dialect: Dialect::CursorCli },
];

/// Findings on a file whose host's behaviour cannot be seen: warnings, but
/// for a file that is not JSON at all, which no reader can use.
pub fn warnings_only(found: &mut [Diagnostic]) {
    let demoted = |d: &&mut Diagnostic| d.severity == Severity::Error && d.code != Code::JsonSyntax;
    for diagnostic in found.iter_mut().filter(demoted) {
        diagnostic.severity = Severity::Warning;
    }
}

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
    manual(source, tree, out);
    Some(parsed)
}

/// A rule with no `description`, no `globs` and `alwaysApply` not `true`:
/// Cursor's "Manual" type, which its editor offers and which is included
/// only when @-mentioned — never on its own. Pedantic: it may be meant.
fn manual(source: &Source, tree: &Node, out: &mut Vec<Diagnostic>) {
    let blank = |key: &str| match entry_value(tree, key).map(|n| &n.value) {
        None | Some(Value::Null) => true,
        Some(Value::Str(text)) => text.trim().is_empty(),
        Some(Value::Seq(items)) => items.is_empty(),
        Some(_) => false,
    };
    let always = entry_value(tree, "alwaysApply");
    if !blank("description")
        || !blank("globs")
        || always.is_some_and(|n| !matches!(&n.value, Value::Bool(false) | Value::Null))
    {
        return;
    }
    let span = always.map_or(tree.span, |n| n.span);
    out.push(
        Diagnostic::at(
            Code::InvalidValue,
            &source.path,
            span,
            "this rule has no `description`, no `globs` and is not `alwaysApply`: Cursor \
             includes it only when it is @-mentioned",
        )
        .with_severity(Severity::Warning)
        .pedantic()
        .with_help(
            "to have the agent apply it, add a `description` saying when (the agent decides), \
             `globs` for the files it is for, or `alwaysApply: true`; leave it as it is for a \
             rule you @-mention yourself",
        ),
    );
}

/// The folder holding the `.cursor` of a rule below the repository's top
/// (`packages/web` for `packages/web/.cursor/rules/x.mdc`), if it is one.
fn nested_folder(path: &str) -> Option<&str> {
    let (folder, _) = path.split_once("/.cursor/rules/")?;
    (!folder.is_empty()).then_some(folder)
}

/// Unknown keys of Cursor's JSON files are warnings without agentc's
/// "(kept as metadata)", which says nothing of a host's file.
pub fn unknown_keys(found: &mut [Diagnostic]) {
    for diagnostic in found.iter_mut().filter(|d| d.code == Code::UnknownField) {
        if let Some(short) = diagnostic.message.strip_suffix(" (kept as metadata)") {
            diagnostic.message = short.to_owned();
        }
    }
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
    let mut found: Vec<Pattern> = patterns(node, true);
    // A nested rule's globs may be written from its own folder: a glob that
    // matches there is not reported.
    if let Some(folder) = nested_folder(&source.path.path) {
        found.retain(|pattern| {
            let text = pattern.text.trim().trim_start_matches("./");
            let inside = Pattern { text: format!("{folder}/{text}"), span: pattern.span };
            let mut scratch = Vec::new();
            unmatched_globs(source, &[inside], files, "Cursor", &mut scratch);
            scratch.iter().any(|d| d.code == Code::UnmatchedGlob)
        });
    }
    unmatched_globs(source, &found, files, "Cursor", out);
}
