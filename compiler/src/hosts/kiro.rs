//! Kiro's steering files, `.kiro/steering/*.md`. Kiro is closed source and
//! publishes no schema or parser: what is checked is what its steering
//! documentation and its maintainers state (`docs/formats.md`, "Kiro
//! steering") — the four inclusion modes, `fileMatchPattern` as one glob or
//! a list, and that a comma-separated pattern matches nothing (issue
//! #11095). Kiro's behaviour on a bad value is not published, so every rule
//! here is a warning.

use agentc_schema::{Dialect, KiroSteeringFrontmatter, Spanned};

use super::{Declared, comma_pieces, patterns, unmatched_globs};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Frontmatter, Markdown, Reading, entry_value, markdown};
use crate::parse::tree::{Node, Value};
use crate::repo_files::RepoFiles;
use crate::source::Source;

/// The workspace's steering files; Kiro reads no folder below.
pub const PROJECT_FILES: &[Declared] =
    &[Declared { path: ".kiro/steering/*.md", dialect: Dialect::KiroSteering }];

/// The values of `inclusion`.
pub const INCLUSIONS: &[&str] = &["always", "fileMatch", "manual", "auto"];

/// A steering file: `inclusion` and `fileMatchPattern`.
pub fn read(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<KiroSteeringFrontmatter>> {
    let parsed = markdown::<KiroSteeringFrontmatter>(
        source,
        Frontmatter::Optional,
        "inclusion: fileMatch\nfileMatchPattern: [\"**/*.ts\", \"**/*.tsx\"]",
        Reading::HOST_FRONTMATTER,
        out,
    )?;
    let file = &source.path;
    let front = &parsed.front.value;
    let pattern = entry_value(&parsed.front.tree, "fileMatchPattern");
    if let Some(inclusion) = &front.inclusion {
        let text = inclusion.value.as_str();
        if !INCLUSIONS.contains(&text) {
            let entry = Spanned {
                value: text.to_owned(),
                span: inclusion.span,
                text_at: inclusion.text_at,
            };
            let diagnostic = Diagnostic::at(
                Code::InvalidValue,
                file,
                inclusion.span,
                format!("`{text}` is not an inclusion mode of Kiro"),
            )
            .with_severity(Severity::Warning);
            out.push(super::near_miss(
                diagnostic,
                file,
                &entry,
                text,
                INCLUSIONS,
                "modes are case-sensitive",
                "the modes are `always`, `fileMatch`, `manual` and `auto`",
            ));
        }
        if text == "fileMatch" && pattern.is_none() {
            out.push(
                Diagnostic::at(
                    Code::MissingField,
                    file,
                    inclusion.span,
                    "`inclusion: fileMatch` without `fileMatchPattern` matches no file",
                )
                .with_severity(Severity::Warning)
                .with_help("add `fileMatchPattern: [\"**/*.ts\"]` with the files it is for"),
            );
        }
    }
    if let Some(node) = pattern {
        comma_list(source, node, out);
    }
    Some(parsed)
}

/// A comma-separated `fileMatchPattern` is one glob to Kiro, which matches
/// nothing, silently (issue #11095): the list form is what was meant.
fn comma_list(source: &Source, node: &Node, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    match &node.value {
        Value::Str(text) => {
            let pieces = comma_pieces(text);
            if pieces.len() < 2 {
                return;
            }
            let list: Vec<String> = pieces
                .iter()
                .map(|(from, to)| serde_json::to_string(&text[*from..*to]).unwrap_or_default())
                .collect();
            let list = format!("[{}]", list.join(", "));
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    node.span,
                    "`fileMatchPattern` is one glob with commas in it, which matches no file",
                )
                .with_severity(Severity::Warning)
                .with_help(format!(
                    "Kiro reads a string as a single glob and never splits it at commas; write \
                     the globs as a list: `fileMatchPattern: {list}`"
                ))
                .with_fix("write the globs as a list", file, Some(node.span), list),
            );
        }
        Value::Seq(items) if items.iter().all(|i| matches!(i.value, Value::Str(_))) => {}
        _ => out.push(
            Diagnostic::at(
                Code::InvalidValue,
                file,
                node.span,
                "`fileMatchPattern` is not a glob or a list of globs",
            )
            .with_severity(Severity::Warning)
            .with_help("write `fileMatchPattern: \"**/*.ts\"` or a list of such globs"),
        ),
    }
}

/// Each glob of `fileMatchPattern` matches a file of the repository (a
/// comma-separated one is reported as such instead).
pub fn check(
    source: &Source,
    steering: &Markdown<KiroSteeringFrontmatter>,
    files: &RepoFiles,
    out: &mut Vec<Diagnostic>,
) {
    let Some(node) = entry_value(&steering.front.tree, "fileMatchPattern") else {
        return;
    };
    if let Value::Str(text) = &node.value
        && comma_pieces(text).len() > 1
    {
        return;
    }
    unmatched_globs(source, &patterns(node, false), files, "Kiro", out);
}
