//! Cline's rules: `.clinerules` as one file, or the `.md` and `.txt` files of
//! the `.clinerules/` folder, as Cline 3 reads them (`frontmatter.ts`,
//! `rule-conditionals.ts`; `docs/formats.md`, "Cline rules"). The only key is
//! `paths`; Cline ignores any other, and fails open: a rule whose `paths`
//! it cannot use is always active.

use agentc_schema::{ClineRuleFrontmatter, Dialect};

use super::{Declared, patterns, unmatched_globs};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Frontmatter, Markdown, Reading, entry_value, markdown};
use crate::parse::tree::Value;
use crate::repo_files::RepoFiles;
use crate::source::Source;

/// The rules at a project's top. Cline reads the folder's files of any
/// extension and its folders too, but `workflows/`, `hooks/` and `skills/`
/// hold other things: agentc reads the `.md` and `.txt` files at the
/// folder's top, which its documentation names.
pub const PROJECT_FILES: &[Declared] = &[
    Declared { path: ".clinerules", dialect: Dialect::ClineRule },
    Declared { path: ".clinerules/*.md", dialect: Dialect::ClineRule },
    Declared { path: ".clinerules/*.txt", dialect: Dialect::ClineRule },
];

/// A rule file, and its `paths`.
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Markdown<ClineRuleFrontmatter>> {
    let parsed = markdown::<ClineRuleFrontmatter>(
        source,
        Frontmatter::Optional,
        "paths:\n  - \"src/**/*.ts\"",
        Reading::HOST_FRONTMATTER,
        out,
    )?;
    let file = &source.path;
    let Some(node) = entry_value(&parsed.front.tree, "paths") else {
        return Some(parsed);
    };
    match &node.value {
        Value::Str(text) => {
            let quoted = serde_json::to_string(text.trim()).unwrap_or_default();
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    node.span,
                    "`paths` is one text, not a list",
                )
                .with_severity(Severity::Warning)
                .with_help(
                    "Cline ignores `paths` that is not a list, and the rule is always \
                         active; write a list of globs",
                )
                .with_fix(
                    "make it a list",
                    file,
                    Some(node.span),
                    format!("[{quoted}]"),
                ),
            );
        }
        Value::Seq(items)
            if items.iter().all(|i| matches!(&i.value, Value::Str(s) if s.trim().is_empty())) =>
        {
            out.push(
                Diagnostic::at(Code::InvalidValue, file, node.span, "`paths` lists no glob, so the rule is never active")
                    .with_severity(Severity::Warning)
                    .with_help("list the globs of the files the rule is for, or remove `paths` to make the rule always active"),
            );
        }
        Value::Seq(items) => {
            for item in items.iter().filter(|i| !matches!(i.value, Value::Str(_))) {
                out.push(
                    Diagnostic::at(Code::InvalidValue, file, item.span, "an entry of `paths` is not text")
                        .with_severity(Severity::Warning)
                        .with_help("Cline ignores `paths` unless every entry is a glob, and the rule is always active; quote the glob"),
                );
            }
        }
        _ => out.push(
            Diagnostic::at(Code::InvalidValue, file, node.span, "`paths` is not a list of globs")
                .with_severity(Severity::Warning)
                .with_help(
                    "Cline ignores it, and the rule is always active; write a list of globs",
                ),
        ),
    }
    Some(parsed)
}

/// Each glob of `paths` matches a file of the repository.
pub fn check(
    source: &Source,
    rule: &Markdown<ClineRuleFrontmatter>,
    files: &RepoFiles,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(node) = entry_value(&rule.front.tree, "paths")
        && let Value::Seq(_) = node.value
    {
        unmatched_globs(source, &patterns(node, false), files, "Cline", out);
    }
}
