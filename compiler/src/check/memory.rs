//! Check: the `@path` imports of `CLAUDE.md` and `GEMINI.md`. Each must
//! name a file inside the project; the chain of imports must not loop back
//! and must stay within the hosts' five hops. Both hosts go on without a
//! word when an import fails (Claude Code drops it; Gemini CLI leaves an
//! HTML comment in its place), so these are warnings: the file still loads,
//! but without what the author meant to add.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// How many import edges one run follows below the memory files' own
/// imports, all files together. Each file's imports are read and found
/// once, and each import's chain followed once per memory file, so real
/// repositories stay far below it; it bounds what a crafted tree of
/// imports can cost.
pub const MAX_FOLLOWED: usize = 1_000_000;

/// What one run's import checks share, so no file is read or searched twice
/// and an import written many times is followed once.
#[derive(Default)]
pub struct Followed {
    /// Each imported file's imports (`None`: it cannot be read), by the
    /// dialect that reads it.
    imports: HashMap<(Dialect, PathBuf), Option<Arc<[Import]>>>,
    /// What following a memory file's import of a target found: a loop or a
    /// chain too deep (its message and help), or nothing.
    results: HashMap<(Dialect, PathBuf, PathBuf), Option<(String, String)>>,
    /// Import edges followed so far, against [`MAX_FOLLOWED`].
    steps: usize,
    /// Imports kept in `imports`, against the same bound.
    kept: usize,
    /// Whether the bound has been reported.
    told: bool,
}

impl Followed {
    /// The imports of the file at `path`, read once.
    fn of(
        &mut self,
        fs: &dyn Fs,
        trees: &Trees<'_>,
        source: &Source,
        dialect: Dialect,
        path: &Path,
    ) -> Option<Arc<[Import]>> {
        let key = (dialect, path.to_path_buf());
        if let Some(found) = self.imports.get(&key) {
            return found.clone();
        }
        let read = trees.read_text(fs, source.path.origin, path, MAX_IMPORTED_BYTES);
        let found: Option<Arc<[Import]>> =
            read.map(|(_, text)| Arc::from(memory::imports(dialect, &text)));
        // Kept while what is kept stays within the bound on imports followed:
        // past it, memory would grow with what is never followed.
        let len = found.as_ref().map_or(1, |imports| imports.len().max(1));
        if self.kept + len <= MAX_FOLLOWED {
            self.kept += len;
            self.imports.insert(key, found.clone());
        }
        found
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
    followed: &mut Followed,
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
        let Some(inner) = followed.of(fs, trees, source, dialect, &target) else {
            if memory::looks_like_file(&import.path)
                && let Some(d) = missing(fs, trees, source, &folder, &named)
            {
                out.push(imported(d, dialect));
            }
            continue;
        };
        let key = (dialect, me.clone(), target.clone());
        let found = match followed.results.get(&key) {
            Some(found) => found.clone(),
            None => {
                let mut chain = vec![me.clone(), target.clone()];
                let mut seen = HashSet::from([target.clone()]);
                let walk = Walk { fs, trees, source, dialect };
                let found = walk.follow(&inner, &target, &mut chain, &mut seen, followed);
                match found {
                    Ok(found) => {
                        followed.results.insert(key, found.clone());
                        found
                    }
                    // The bound cut the walk short: what it found so far is
                    // not the whole answer, and nothing more is followed.
                    Err(()) => {
                        if !std::mem::replace(&mut followed.told, true) {
                            out.push(bounded(source, &import, dialect));
                        }
                        continue;
                    }
                }
            }
        };
        if let Some((message, help)) = found {
            out.push(
                Diagnostic::at(Code::ImportChain, &source.path, import.span, message)
                    .with_help(help),
            );
        }
    }
}

/// The one diagnostic of a run that says the bound on imports followed was
/// reached, at the import where it was.
fn bounded(source: &Source, import: &Import, dialect: Dialect) -> Diagnostic {
    Diagnostic::at(
        Code::ImportChain,
        &source.path,
        import.span,
        format!(
            "agentc stopped following imports here, after {MAX_FOLLOWED}: the chains of this \
             import and of those after it are not checked for loops or depth"
        ),
    )
    .with_severity(Severity::Warning)
    .with_help(format!(
        "the bound keeps the check's time in proportion to the repository; {} reads these \
         imports whatever agentc checked",
        host(dialect)
    ))
}

/// What following a memory file's imports reads with.
struct Walk<'w, 't> {
    fs: &'w dyn Fs,
    trees: &'w Trees<'t>,
    source: &'w Source,
    dialect: Dialect,
}

impl Walk<'_, '_> {
    /// The first loop or hop too deep below a target (whose imports are
    /// `imports`, at `target`), as a message and a help; `Err` when the bound
    /// on imports followed cut the walk short.
    fn follow(
        &self,
        imports: &[Import],
        target: &Path,
        chain: &mut Vec<PathBuf>,
        seen: &mut HashSet<PathBuf>,
        followed: &mut Followed,
    ) -> Result<Option<(String, String)>, ()> {
        let dialect = self.dialect;
        let folder = target.parent().unwrap_or(Path::new("")).to_path_buf();
        for import in imports {
            if import.outside {
                continue;
            }
            followed.steps += 1;
            if followed.steps > MAX_FOLLOWED {
                return Err(());
            }
            let Some(next) = normalize(&folder.join(&import.path)) else {
                continue;
            };
            if let Some(at) = chain.iter().position(|p| p == &next) {
                let hops = chain[at..].iter().chain([&next]).map(|p| format!("`{}`", shown(p)));
                let hops: Vec<String> = hops.collect();
                return Ok(Some((
                    format!(
                        "this import leads back to a file already imported: {}",
                        hops.join(" → ")
                    ),
                    format!(
                        "{} stops at the repeated file, so the loop adds nothing; remove the import that closes it",
                        host(dialect)
                    ),
                )));
            }
            if chain.len() > MAX_HOPS {
                let hops: Vec<String> =
                    chain.iter().chain([&next]).map(|p| format!("`{}`", shown(p))).collect();
                return Ok(Some((
                    format!("this import goes deeper than {MAX_HOPS} hops: {}", hops.join(" → ")),
                    format!(
                        "{} follows imports {MAX_HOPS} hops deep and leaves the rest unread; import \
                         `{}` from a file nearer the top",
                        host(dialect),
                        shown(&next)
                    ),
                )));
            }
            if seen.len() >= MAX_FILES || !seen.insert(next.clone()) {
                continue;
            }
            let Some(inner) = followed.of(self.fs, self.trees, self.source, dialect, &next) else {
                continue;
            };
            chain.push(next.clone());
            let found = self.follow(&inner, &next, chain, seen, followed);
            chain.pop();
            if !matches!(found, Ok(None)) {
                return found;
            }
        }
        Ok(None)
    }
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
