//! Apply the mechanical fixes that diagnostics carry (`agentc check --fix`).
//!
//! A fix is applied whole or not at all: its edits must not overlap an edit
//! already taken in the same file. A file reached by two paths (a link to a
//! skill beside the skill) is one file: a fix is applied to it only when
//! every path calls for it. Each file is re-read through its folder, opened
//! with no link followed, and compared with the digest of the text the
//! diagnostics were computed from, so a file edited in the meantime is left
//! alone; the new text is renamed into that same folder, and only if, just
//! before the rename, the folder is still where it was and the file is still
//! the one read, with the bytes read.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::Path;

use agentc_schema::Span;
use agentc_schema::lockfile::sha256_hex;

use crate::compile::Compilation;
use crate::diagnostic::{Diagnostic, Origin, RelPath};
use crate::fs::{is_loop_error, no_follow};
use crate::write::{Replace, write_in};

/// What applying fixes did.
#[derive(Debug, Default)]
pub struct Applied {
    /// Fixes applied, by file.
    pub files: BTreeMap<RelPath, usize>,
    /// Files left alone, with why.
    pub skipped: Vec<(RelPath, Skipped)>,
}

/// Why a file was left alone.
#[derive(Debug)]
pub enum Skipped {
    /// It is also reached at this other path, where its fixes differ.
    Differs(RelPath),
    /// It could not be rewritten safely.
    Unsafe(String),
}

impl Skipped {
    /// The reason, paths shown by `show` (as the diagnostics show them).
    pub fn describe(&self, show: &dyn Fn(&RelPath) -> String) -> String {
        match self {
            Skipped::Differs(other) => format!(
                "it is also reached as `{}`, where its fixes differ (a symbolic link \
                 leads to it); fix it by hand, for both names",
                show(other)
            ),
            Skipped::Unsafe(why) => why.clone(),
        }
    }
}

impl Applied {
    pub fn fixes(&self) -> usize {
        self.files.values().sum()
    }
}

/// One file's edits taken so far, and how many fixes they came from.
type Planned<'a> = (Vec<(Span, &'a str)>, usize);

/// The diagnostics whose fixes [`apply`] takes, in report order: each fix
/// whole, with an edit, and none overlapping an edit taken before it in the
/// same file. `agentc mcp` lists them without writing.
pub fn taken(compilation: &Compilation) -> Vec<&Diagnostic> {
    let mut taken: BTreeMap<&RelPath, Vec<Span>> = BTreeMap::new();
    let mut fixes = Vec::new();
    for diagnostic in &compilation.diagnostics {
        let Some(fix) = &diagnostic.fix else { continue };
        let overlaps = fix.edits.iter().any(|edit| {
            taken.get(&edit.file).is_some_and(|spans| {
                spans.iter().any(|span| {
                    span.start < edit.span.end.max(edit.span.start + 1)
                        && edit.span.start < span.end.max(span.start + 1)
                })
            })
        });
        if overlaps || fix.edits.is_empty() {
            continue;
        }
        for edit in &fix.edits {
            taken.entry(&edit.file).or_default().push(edit.span);
        }
        fixes.push(diagnostic);
    }
    fixes
}

/// Applies every fix of `compilation` to the files it read.
pub fn apply(compilation: &Compilation) -> Applied {
    apply_with(compilation, |_| {})
}

/// [`apply`], calling `between` after each file is read and before it is
/// written: tests change the disk there, as an editor or an attacker could.
fn apply_with(compilation: &Compilation, mut between: impl FnMut(&Path)) -> Applied {
    let mut planned: BTreeMap<&RelPath, Planned<'_>> = BTreeMap::new();
    for fix in taken(compilation).into_iter().filter_map(|d| d.fix.as_ref()) {
        for edit in &fix.edits {
            planned.entry(&edit.file).or_default().0.push((edit.span, &edit.replacement));
        }
        if let Some(first) = fix.edits.first() {
            planned.entry(&first.file).or_default().1 += 1;
        }
    }
    // Where discovery found each file, links resolved: a linked file is edited
    // where it lives, and the link stays a link. A file the user named (the
    // registry) is theirs to edit.
    let mut paths: BTreeMap<&Path, Vec<&RelPath>> = BTreeMap::new();
    for (rel, path) in &compilation.inputs {
        if rel.origin != Origin::Given && compilation.sources.contains_key(rel) {
            paths.entry(path.as_path()).or_default().push(rel);
        }
    }
    let mut applied = Applied::default();
    for (path, mut rels) in paths {
        rels.sort();
        let Some(&first) = rels.iter().find(|rel| planned.contains_key(*rel)) else {
            continue;
        };
        let Some(source) = compilation.sources.get(first) else {
            continue;
        };
        // Reported by the path it lives at, not the one a link lent it.
        let base = |rel: &RelPath| match rel.origin {
            Origin::Workspace => compilation.workspace.as_deref(),
            _ => Some(compilation.root.as_path()),
        };
        let shown = rels
            .iter()
            .find(|rel| base(rel).is_some_and(|base| base.join(&*rel.path) == path))
            .copied()
            .unwrap_or(first);
        let (mut edits, count) = planned.remove(first).unwrap_or_default();
        edits.sort_unstable();
        // The same file seen at another path must call for the same edits.
        let mut differs = None;
        for &other in rels.iter().filter(|rel| **rel != first) {
            let mut theirs = planned.remove(other).map(|(edits, _)| edits).unwrap_or_default();
            theirs.sort_unstable();
            if theirs != edits && differs.is_none() {
                differs = Some(if other == shown { first } else { other });
            }
        }
        if let Some(other) = differs {
            applied.skipped.push((shown.clone(), Skipped::Differs(other.clone())));
            continue;
        }
        // The text as read, and the byte order mark it may have started with.
        let size = source.text.len() as u64 + 3;
        match rewrite(path, size, source.sha256(), &mut edits, &mut between) {
            Ok(()) => {
                applied.files.insert(shown.clone(), count);
            }
            Err(why) => applied.skipped.push((shown.clone(), Skipped::Unsafe(why))),
        }
    }
    applied
}

/// Why a file was left as it was just before its new text was renamed in.
#[derive(Debug)]
enum Conflict {
    Moved,
    Changed,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Conflict::Moved => {
                "its folder was moved or replaced while agentc was fixing it; nothing was \
                 written: run the check again"
            }
            Conflict::Changed => {
                "it changed while agentc was fixing it (saved by an editor?); it is left as \
                 it is: run the check again"
            }
        })
    }
}

impl std::error::Error for Conflict {}

/// The file `name` in `dir` read whole, if it holds at most `size` bytes,
/// with which file it was.
fn read_in(
    dir: &no_follow::Dir,
    name: &OsStr,
    size: u64,
) -> io::Result<(Vec<u8>, no_follow::Stat)> {
    let file = dir.open_file(name)?;
    let stat = no_follow::stat_of_file(&file)?;
    let mut bytes = Vec::new();
    file.take(size + 1).read_to_end(&mut bytes)?;
    Ok((bytes, stat))
}

/// Applies `edits` (offsets into the text after any BOM) to the file at
/// `path`, canonical.
fn rewrite(
    path: &Path,
    size: u64,
    sha256: &str,
    edits: &mut [(Span, &str)],
    between: &mut impl FnMut(&Path),
) -> Result<(), String> {
    let changed = || "it changed since it was checked; run the check again".to_owned();
    let why = |err: io::Error| {
        if is_loop_error(&err) {
            "a symbolic link took its place after agentc checked it; agentc does not follow \
             it, and wrote nothing"
                .to_owned()
        } else {
            format!("it cannot be read: {err}")
        }
    };
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err("it names no file".to_owned());
    };
    let dir = no_follow::Dir::open(parent).map_err(why)?;
    let folder = dir.identity().map_err(why)?;
    let (bytes, read) = read_in(&dir, name, size).map_err(why)?;
    if read.kind != crate::fs::EntryKind::File {
        return Err("it is no longer a regular file".to_owned());
    }
    if bytes.len() as u64 > size || sha256_hex(&bytes) != sha256 {
        return Err(changed());
    }
    let bom = if bytes.starts_with("\u{feff}".as_bytes()) { 3 } else { 0 };
    let mut out = bytes.clone();
    edits.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
    for (span, replacement) in edits.iter() {
        let (start, end) = (span.start + bom, span.end + bom);
        if start > end || end > out.len() {
            return Err("a fix does not fit the file".into());
        }
        out.splice(start..end, replacement.bytes());
    }
    if std::str::from_utf8(&out).is_err() {
        return Err("a fix would break the file's UTF-8".into());
    }
    between(path);
    let unchanged = |dir: &no_follow::Dir, name: &OsStr| -> io::Result<()> {
        // The folder at the path is still the one opened...
        if no_follow::stat(parent).map(|stat| stat.identity).ok() != Some(folder) {
            return Err(io::Error::other(Conflict::Moved));
        }
        // ...and the file in it the one read, with the bytes read.
        match read_in(dir, name, size) {
            Ok((now, stat)) if stat.identity == read.identity && now == bytes => Ok(()),
            _ => Err(io::Error::other(Conflict::Changed)),
        }
    };
    write_in(&dir, name, Replace::Over, |w| w.write_all(&out), unchanged).map_err(|err| {
        match err.get_ref().and_then(|inner| inner.downcast_ref::<Conflict>()) {
            Some(conflict) => conflict.to_string(),
            None => format!("it cannot be written: {err}"),
        }
    })
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::symlink;
    use std::path::PathBuf;

    use super::*;
    use crate::fs::RealFs;
    use crate::options::Options;

    const AGENT: &str =
        "---\nname: reviewer\ndescription: Reviews a change.\nmodel: sonet\n---\nReview.\n";
    const SECRET: &str = "CI_TOKEN=hunter2\n";

    /// A project whose subagent has one fix, and `outside/reviewer.md` beside it.
    struct Setup {
        _dir: tempfile::TempDir,
        root: PathBuf,
        agents: PathBuf,
        outside: PathBuf,
    }

    impl Setup {
        fn new() -> Setup {
            let dir = tempfile::tempdir().unwrap();
            let top = dir.path().canonicalize().unwrap();
            let (root, outside) = (top.join("project"), top.join("outside"));
            let agents = root.join(".claude/agents");
            std::fs::create_dir_all(&agents).unwrap();
            std::fs::create_dir_all(&outside).unwrap();
            std::fs::write(agents.join("reviewer.md"), AGENT).unwrap();
            std::fs::write(outside.join("reviewer.md"), SECRET).unwrap();
            Setup { _dir: dir, root, agents, outside }
        }

        fn fix(&self, between: impl FnMut(&Path)) -> Applied {
            let compilation = crate::compile(&RealFs, &Options::new(&self.root)).unwrap();
            apply_with(&compilation, between)
        }

        fn read(&self, path: &Path) -> String {
            std::fs::read_to_string(path).unwrap()
        }

        fn skipped(applied: &Applied) -> String {
            assert!(applied.files.is_empty(), "{applied:?}");
            assert_eq!(applied.skipped.len(), 1, "{applied:?}");
            applied.skipped[0].1.describe(&|rel| rel.to_string())
        }
    }

    #[test]
    fn a_fix_is_written_where_it_was_read() {
        let setup = Setup::new();
        let applied = setup.fix(|_| {});
        assert_eq!(applied.fixes(), 1, "{applied:?}");
        assert_eq!(setup.read(&setup.agents.join("reviewer.md")), AGENT.replace("sonet", "sonnet"));
    }

    #[test]
    fn a_folder_swapped_for_a_link_between_the_read_and_the_write_is_not_written_through() {
        let setup = Setup::new();
        let moved = setup.root.join(".claude/moved");
        let applied = setup.fix(|_| {
            std::fs::rename(&setup.agents, &moved).unwrap();
            symlink(&setup.outside, &setup.agents).unwrap();
        });
        assert!(Setup::skipped(&applied).starts_with("its folder was moved or replaced"));
        assert_eq!(setup.read(&setup.outside.join("reviewer.md")), SECRET);
        assert_eq!(setup.read(&moved.join("reviewer.md")), AGENT);
        assert_eq!(std::fs::read_dir(&moved).unwrap().count(), 1, "a temporary file was left");
    }

    #[test]
    fn a_file_swapped_for_a_link_is_left_alone() {
        let setup = Setup::new();
        let file = setup.agents.join("reviewer.md");
        let applied = setup.fix(|_| {
            std::fs::remove_file(&file).unwrap();
            symlink(setup.outside.join("reviewer.md"), &file).unwrap();
        });
        assert!(Setup::skipped(&applied).starts_with("it changed while agentc was fixing it"));
        assert_eq!(setup.read(&setup.outside.join("reviewer.md")), SECRET);
        assert!(file.symlink_metadata().unwrap().file_type().is_symlink());
    }

    /// An editor saves in place (same file, new bytes) or by renaming a new
    /// file over the old one (a new file, even with the same bytes): either
    /// way what the user wrote stays.
    #[test]
    fn an_edit_saved_while_fixing_is_never_lost() {
        type Save = fn(&Path, &str);
        let edits: [(&str, Save); 2] = [
            ("in place", |file, text| std::fs::write(file, text).unwrap()),
            ("renamed over", |file, text| {
                let new = file.with_extension("new");
                std::fs::write(&new, text).unwrap();
                std::fs::rename(&new, file).unwrap();
            }),
        ];
        for (how, save) in edits {
            for text in [AGENT.replace("Review.", "Review it."), AGENT.to_owned()] {
                let setup = Setup::new();
                let file = setup.agents.join("reviewer.md");
                if how == "in place" && text == AGENT {
                    continue;
                }
                let applied = setup.fix(|_| save(&file, &text));
                let why = Setup::skipped(&applied);
                assert!(why.starts_with("it changed while agentc was fixing it"), "{how}: {why}");
                assert_eq!(setup.read(&file), text, "{how}");
            }
        }
    }
}
