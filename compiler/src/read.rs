//! Read: the discovered files' bytes into text, in parallel and within bounds.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use agentc_schema::lockfile::sha256_hex;
use rayon::prelude::*;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath};
use crate::discover::FileRef;
use crate::fs::{Fs, ReadOutcome};
use crate::options::ContentRules;
use crate::source::Source;

const BOM: &str = "\u{feff}";

/// Why a file could not be read.
#[derive(Debug)]
pub struct ReadFailure {
    pub diagnostic: Diagnostic,
    /// For a file that is not UTF-8, a lossy copy, so the diagnostic can show the line.
    pub lossy: Option<Source>,
}

/// A file read: its text, or why it could not be.
pub type ReadResult = Result<Source, Box<ReadFailure>>;

fn failed(diagnostic: Diagnostic, lossy: Option<Source>) -> ReadResult {
    Err(Box::new(ReadFailure { diagnostic, lossy }))
}

/// The sources of earlier compiles, by file, each with whether its bytes
/// began with a BOM (the text is the rest of them): a file whose bytes are
/// the same is the same source, with no second decoding, digest or line
/// index (the language server compiles on every keystroke, and one file
/// changed). The bytes are not kept: the text is them. A source read for
/// other content rules (`[lints]` changed) is read again.
#[derive(Debug, Default)]
pub struct SourceMemo {
    /// By file: whether it began with a BOM, where it was read, and its text.
    kept: Mutex<HashMap<RelPath, (bool, PathBuf, Source)>>,
}

impl SourceMemo {
    /// Keeps only the files in `keep` (the others are gone from the project).
    pub fn retain(&self, keep: impl Fn(&RelPath) -> bool) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.retain(|rel, _| keep(rel));
        }
    }
}

/// Reads every file in parallel, for a compile running `rules`; results
/// come back in the order given.
pub fn read_all(
    fs: &dyn Fs,
    files: &[FileRef],
    max_size: u64,
    rules: ContentRules,
    memo: Option<&SourceMemo>,
) -> Vec<ReadResult> {
    files
        .par_iter()
        .map(|file| {
            let result = read_remembered(fs, file, max_size, rules, memo);
            // Scanned for secrets now (if `secret` runs), in parallel, while
            // the text is warm.
            if let Ok(source) = &result {
                source.secrets();
            }
            result
        })
        .collect()
}

/// [`read_one`], answered from `memo` when the bytes are those it kept.
fn read_remembered(
    fs: &dyn Fs,
    file: &FileRef,
    max_size: u64,
    rules: ContentRules,
    memo: Option<&SourceMemo>,
) -> ReadResult {
    let Some(memo) = memo else {
        return read_one(fs, file, max_size, rules);
    };
    // A file the file system knows unchanged since it was read is not read.
    if let Ok(kept) = memo.kept.lock()
        && let Some((_, path, source)) = kept.get(&file.rel)
        && *path == file.path
        && source.content_rules == rules
        && fs.unchanged(&file.path)
    {
        return Ok(source.clone());
    }
    let bytes = read_bytes(fs, file, max_size)?;
    let bom = bytes.starts_with(BOM.as_bytes());
    if let Ok(kept) = memo.kept.lock()
        && let Some((had_bom, _, source)) = kept.get(&file.rel)
        && *had_bom == bom
        && source.content_rules == rules
        && bytes[if bom { BOM.len() } else { 0 }..] == *source.text.as_bytes()
    {
        return Ok(source.clone());
    }
    let result = decode(file, &bytes, rules);
    if let (Ok(source), Ok(mut kept)) = (&result, memo.kept.lock()) {
        kept.insert(file.rel.clone(), (bom, file.path.clone(), source.clone()));
    }
    result
}

/// Reads one file: bounded, UTF-8, a leading BOM removed.
pub fn read_one(fs: &dyn Fs, file: &FileRef, max_size: u64, rules: ContentRules) -> ReadResult {
    let bytes = read_bytes(fs, file, max_size)?;
    decode(file, &bytes, rules)
}

/// The file's bytes, within the bound.
fn read_bytes(fs: &dyn Fs, file: &FileRef, max_size: u64) -> Result<Vec<u8>, Box<ReadFailure>> {
    match fs.read(&file.path, max_size) {
        Ok(ReadOutcome::Bytes(bytes)) => Ok(bytes),
        Ok(ReadOutcome::TooLarge(size)) => {
            let diagnostic = Diagnostic::on_path(
                Code::FileTooLarge,
                &file.rel,
                format!("the file is {size} bytes, over the bound of {max_size} bytes"),
            )
            .with_help("shrink the file, or raise the bound with `--max-file-size BYTES`");
            Err(Box::new(ReadFailure { diagnostic, lossy: None }))
        }
        Err(err) => {
            let diagnostic = Diagnostic::on_path(
                Code::IoError,
                &file.rel,
                format!("the file cannot be read: {err}"),
            );
            Err(Box::new(ReadFailure { diagnostic, lossy: None }))
        }
    }
}

/// Whether `bytes` are UTF-16 text (Windows tools write it: PowerShell 5's
/// `>`, Notepad's "Unicode"): its name, whether little-endian, and the
/// length of its byte-order mark. Without a mark, ASCII text shows itself
/// by a zero in every other byte.
fn utf16(bytes: &[u8]) -> Option<(&'static str, bool, usize)> {
    match bytes {
        [0xFF, 0xFE, ..] => Some(("UTF-16LE", true, 2)),
        [0xFE, 0xFF, ..] => Some(("UTF-16BE", false, 2)),
        [a, 0, b, 0, ..] if *a != 0 && *b != 0 => Some(("UTF-16LE", true, 0)),
        [0, a, 0, b, ..] if *a != 0 && *b != 0 => Some(("UTF-16BE", false, 0)),
        _ => None,
    }
}

/// The diagnostic for a UTF-16 file, with its text decoded so the
/// diagnostic shows its first line as written.
fn not_utf16(
    file: &FileRef,
    bytes: &[u8],
    (encoding, little, skip): (&'static str, bool, usize),
    rules: ContentRules,
) -> ReadResult {
    let units = bytes[skip..].chunks_exact(2).map(|pair| match little {
        true => u16::from_le_bytes([pair[0], pair[1]]),
        false => u16::from_be_bytes([pair[0], pair[1]]),
    });
    let text: String =
        char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
    let digest = sha256_hex(text.as_bytes());
    let source = Source::with_digest(file.rel.clone(), text, digest, rules);
    let end = source.text.chars().next().map_or(0, char::len_utf8);
    let name = file.rel.to_string();
    let name = name.rsplit('/').next().unwrap_or_default();
    let diagnostic = Diagnostic::at(
        Code::NotUtf8,
        &file.rel,
        agentc_schema::Span::new(0, end),
        format!("the file is {encoding}, not UTF-8"),
    )
    .with_help(format!(
        "save it as UTF-8 (VS Code: \"Save with Encoding\", UTF-8), or convert it in its folder: \
         `iconv -f {encoding} -t UTF-8 {name} > {name}.new && mv {name}.new {name}`"
    ));
    failed(diagnostic, Some(source))
}

/// Text from a file's bytes: UTF-8, a leading BOM removed.
fn decode(file: &FileRef, bytes: &[u8], rules: ContentRules) -> ReadResult {
    if let Some(encoding) = utf16(bytes) {
        return not_utf16(file, bytes, encoding, rules);
    }
    let skip = if bytes.starts_with(BOM.as_bytes()) { BOM.len() } else { 0 };
    match std::str::from_utf8(&bytes[skip..]) {
        // Its digest is made when it is asked for, from the text.
        Ok(text) => Ok(Source::read(file.rel.clone(), text, skip > 0, rules)),
        Err(err) => {
            let offset = err.valid_up_to();
            let bad_len = err.error_len().unwrap_or(1);
            let lossy = String::from_utf8_lossy(&bytes[skip..]).into_owned();
            let digest = sha256_hex(lossy.as_bytes());
            let source = Source::with_digest(file.rel.clone(), lossy, digest, rules);
            let replacement = '\u{fffd}'.len_utf8();
            let diagnostic = Diagnostic::at(
                Code::NotUtf8,
                &file.rel,
                agentc_schema::Span::new(offset, offset + replacement),
                format!(
                    "the file is not valid UTF-8: {bad_len} bad byte(s) at byte offset {}",
                    offset + skip
                ),
            )
            .with_help("save the file as UTF-8");
            failed(diagnostic, Some(source))
        }
    }
}
