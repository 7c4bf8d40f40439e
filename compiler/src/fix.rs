//! Apply the mechanical fixes that diagnostics carry (`agentc check --fix`).
//!
//! A fix is applied whole or not at all: its edits must not overlap an edit
//! already taken in the same file. Each file is re-read and compared with the
//! digest of the text the diagnostics were computed from, so a file edited in
//! the meantime is left alone, and it is replaced atomically.

use std::collections::BTreeMap;
use std::path::Path;

use agentc_schema::Span;
use agentc_schema::lockfile::sha256_hex;

use crate::compile::Compilation;
use crate::diagnostic::{Origin, RelPath};
use crate::fs::{Fs, ReadOutcome};
use crate::write::write_atomic;

/// What applying fixes did.
#[derive(Debug, Default)]
pub struct Applied {
    /// Fixes applied, by file.
    pub files: BTreeMap<RelPath, usize>,
    /// Files left alone, with why.
    pub skipped: Vec<(RelPath, String)>,
}

impl Applied {
    pub fn fixes(&self) -> usize {
        self.files.values().sum()
    }
}

/// One file's edits taken so far, and how many fixes they came from.
type Planned<'a> = (Vec<(Span, &'a str)>, usize);

/// Applies every fix of `compilation` to the files it read.
pub fn apply(fs: &dyn Fs, compilation: &Compilation) -> Applied {
    let mut planned: BTreeMap<&RelPath, Planned<'_>> = BTreeMap::new();
    for fix in compilation.diagnostics.iter().filter_map(|d| d.fix.as_ref()) {
        let overlaps = fix.edits.iter().any(|edit| {
            planned.get(&edit.file).is_some_and(|(taken, _)| {
                taken.iter().any(|(span, _)| {
                    span.start < edit.span.end.max(edit.span.start + 1)
                        && edit.span.start < span.end.max(span.start + 1)
                })
            })
        });
        if overlaps || fix.edits.is_empty() {
            continue;
        }
        for edit in &fix.edits {
            planned.entry(&edit.file).or_default().0.push((edit.span, &edit.replacement));
        }
        if let Some(first) = fix.edits.first() {
            planned.entry(&first.file).or_default().1 += 1;
        }
    }
    let mut applied = Applied::default();
    for (file, (mut edits, count)) in planned {
        let Some(source) = compilation.sources.get(file) else {
            continue;
        };
        // Where discovery found it, links resolved: a linked file is edited
        // where it lives, and the link stays a link. A file the user named
        // (the registry) is theirs to edit.
        let path = match compilation.inputs.get(file) {
            Some(path) if file.origin != Origin::Given => path,
            _ => continue,
        };
        // The text as read, and the byte order mark it may have started with.
        let size = source.text.len() as u64 + 3;
        match rewrite(fs, path, size, &source.sha256, &mut edits) {
            Ok(()) => {
                applied.files.insert(file.clone(), count);
            }
            Err(why) => applied.skipped.push((file.clone(), why)),
        }
    }
    applied
}

/// Applies `edits` (offsets into the text after any BOM) to the file at `path`.
fn rewrite(
    fs: &dyn Fs,
    path: &Path,
    size: u64,
    sha256: &str,
    edits: &mut [(Span, &str)],
) -> Result<(), String> {
    // The file as checked held `size` bytes: anything larger has changed.
    let bytes = match fs.read(path, size) {
        Ok(ReadOutcome::Bytes(bytes)) => bytes,
        Ok(ReadOutcome::TooLarge(_)) => {
            return Err("it changed since it was checked; run the check again".into());
        }
        Err(err) => return Err(format!("it cannot be read: {err}")),
    };
    if sha256_hex(&bytes) != sha256 {
        return Err("it changed since it was checked; run the check again".into());
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
    write_atomic(path, &out).map_err(|err| format!("it cannot be written: {err}"))
}
