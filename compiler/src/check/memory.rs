//! Check: the `@path` imports of `CLAUDE.md` and `GEMINI.md`. Each must
//! name a file inside the project; the chain of imports must not loop back
//! and must stay within the hosts' five hops. Both hosts go on without a
//! word when an import fails (Claude Code drops it; Gemini CLI leaves an
//! HTML comment in its place), so these are warnings: the file still loads,
//! but without what the author meant to add.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use agentc_schema::{Dialect, Span};

use super::links::{Named, Trees, missing, normalize};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::fs::Fs;
use crate::hosts::memory::{self, Import, MAX_HOPS};
use crate::source::Source;

/// The largest file an import is followed into.
const MAX_IMPORTED_BYTES: u64 = 1 << 20;
/// How many files one memory file's imports are followed through.
const MAX_FILES: usize = 200;

/// What the host is called, for messages.
fn host(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::GeminiMd => "Gemini CLI",
        _ => "Claude Code",
    }
}

/// The imports of one memory file: those it writes itself are checked one
/// by one; those of the files they lead to, for loops and depth, reported
/// at the import they start from.
pub fn imports(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    dialect: Dialect,
    out: &mut Vec<Diagnostic>,
) {
    let file = &source.path;
    let folder = Path::new(&*file.path).parent().unwrap_or(Path::new("")).to_path_buf();
    let Some(me) = normalize(Path::new(&*file.path)) else {
        return;
    };
    for import in memory::imports(dialect, &source.text) {
        if import.outside {
            // `~/` and absolute paths are the user's machine: not looked at.
            continue;
        }
        let named = Named {
            code: Code::BrokenLink,
            what: "import",
            path: &import.path,
            span: path_span(&import),
            relative_to: "the file holding it",
        };
        let Some(target) = normalize(&folder.join(&import.path)) else {
            if let Some(d) = missing(fs, trees, source, &folder, &named) {
                out.push(imported(d, dialect));
            }
            continue;
        };
        let Some((_, text)) = trees.read_text(fs, file.origin, &target, MAX_IMPORTED_BYTES) else {
            if memory::looks_like_file(&import.path)
                && let Some(d) = missing(fs, trees, source, &folder, &named)
            {
                out.push(imported(d, dialect));
            }
            continue;
        };
        let mut chain = vec![me.clone(), target.clone()];
        let mut seen = HashSet::from([target.clone()]);
        if let Some(d) =
            follow(fs, trees, source, dialect, &import, (&text, &target), &mut chain, &mut seen)
        {
            out.push(d);
        }
    }
}

/// The first loop or hop too deep below `first`, an import of `source`
/// leading to `target` (whose text is `text`), reported at `first`.
#[allow(clippy::too_many_arguments)]
fn follow(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    dialect: Dialect,
    first: &Import,
    (text, target): (&str, &Path),
    chain: &mut Vec<PathBuf>,
    seen: &mut HashSet<PathBuf>,
) -> Option<Diagnostic> {
    let folder = target.parent().unwrap_or(Path::new("")).to_path_buf();
    for import in memory::imports(dialect, text) {
        if import.outside {
            continue;
        }
        let Some(next) = normalize(&folder.join(&import.path)) else {
            continue;
        };
        if let Some(at) = chain.iter().position(|p| p == &next) {
            let hops = chain[at..].iter().chain([&next]).map(|p| format!("`{}`", shown(p)));
            let hops: Vec<String> = hops.collect();
            return Some(
                Diagnostic::at(
                    Code::ImportChain,
                    &source.path,
                    first.span,
                    format!("this import leads back to a file already imported: {}", hops.join(" → ")),
                )
                .with_help(format!(
                    "{} stops at the repeated file, so the loop adds nothing; remove the import that closes it",
                    host(dialect)
                )),
            );
        }
        if chain.len() > MAX_HOPS {
            let hops: Vec<String> =
                chain.iter().chain([&next]).map(|p| format!("`{}`", shown(p))).collect();
            return Some(
                Diagnostic::at(
                    Code::ImportChain,
                    &source.path,
                    first.span,
                    format!("this import goes deeper than {MAX_HOPS} hops: {}", hops.join(" → ")),
                )
                .with_help(format!(
                    "{} follows imports {MAX_HOPS} hops deep and leaves the rest unread; import \
                     `{}` from a file nearer the top",
                    host(dialect),
                    shown(&next)
                )),
            );
        }
        if seen.len() >= MAX_FILES || !seen.insert(next.clone()) {
            continue;
        }
        let Some((_, inner)) = trees.read_text(fs, source.path.origin, &next, MAX_IMPORTED_BYTES)
        else {
            continue;
        };
        chain.push(next.clone());
        let found = follow(fs, trees, source, dialect, first, (&inner, &next), chain, seen);
        chain.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A path of the tree, `/`-separated.
fn shown(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// A broken import from [`missing`]: a warning, in the host's words.
fn imported(diagnostic: Diagnostic, dialect: Dialect) -> Diagnostic {
    let help = diagnostic.help.clone().unwrap_or_default().replace("the link", "the import");
    let fails = match dialect {
        Dialect::GeminiMd => "Gemini CLI puts an `Import failed` comment in its place and goes on",
        _ => "Claude Code leaves it out and says nothing",
    };
    diagnostic.with_severity(Severity::Warning).with_help(format!(
        "{help}. {fails}; if this is not meant as an import, write it in a code span"
    ))
}

/// The span of an import's path, after its `@`.
fn path_span(import: &Import) -> Span {
    Span::new(import.span.start + 1, import.span.end)
}
