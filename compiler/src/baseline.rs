//! A baseline: the problems a repository has today, recorded so that
//! `agentc check --baseline FILE` reports only new ones, and a repository
//! with many can adopt agentc at once (as ESLint's and detekt's baselines,
//! or ruff's `--add-noqa`, let it).
//!
//! The file is JSON, sorted and pretty-printed, so that it diffs line by
//! line in review:
//!
//! ```json
//! {
//!   "version": 1,
//!   "problems": [
//!     {
//!       "file": ".claude/agents/reviewer.md",
//!       "code": "unknown-tool",
//!       "fingerprint": "6f1c0a3e9b2d4f57",
//!       "count": 1,
//!       "message": "`Bassh` is not a tool Claude Code knows"
//!     }
//!   ]
//! }
//! ```
//!
//! A problem is known by its file (as agentc shows it from the root;
//! `@workspace/` before a workspace file's path), its code, and a
//! fingerprint of its message and of the trimmed text of the line it is on
//! — never its line number, so lines added or removed above it keep it
//! known. `count` is how many problems share that key: N recorded allow N,
//! and one more is reported. `message` is for the reader; it is not
//! compared.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::diagnostic::Diagnostic;
use crate::emit::Sources;

/// The baseline format's version.
pub const VERSION: u32 = 1;

/// A baseline file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    pub version: u32,
    pub problems: Vec<Entry>,
}

/// The problems recorded under one key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub file: String,
    pub code: String,
    pub fingerprint: String,
    #[serde(default = "one")]
    pub count: usize,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

fn one() -> usize {
    1
}

/// What a problem is known by in a baseline.
pub type Key = (String, String, String);

/// `diagnostic`'s key: its file, code, and [`fingerprint`].
pub fn key(diagnostic: &Diagnostic, sources: &Sources) -> Key {
    let file = &diagnostic.location.file;
    let line = diagnostic.location.span.zip(sources.get(file)).map_or("", |(span, source)| {
        let range = source.line_range(source.line_index(span.start));
        source.text.get(range).unwrap_or("")
    });
    (file.to_string(), diagnostic.code.as_str().to_owned(), fingerprint(&diagnostic.message, line))
}

/// 16 hex digits of the SHA-256 of `message` and the trimmed `line`, with
/// every line number in the message (`on line 12`, which another file's
/// edit moves) taken out.
pub fn fingerprint(message: &str, line: &str) -> String {
    let text = format!("{}\n{}", without_line_numbers(message), line.trim());
    let mut hex = agentc_schema::lockfile::sha256_hex(text.as_bytes());
    hex.truncate(16);
    hex
}

/// `text` with the digits after each `line ` or `lines ` replaced by `N`.
fn without_line_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("line") {
        let (head, tail) = rest.split_at(at + "line".len());
        // A word of its own (`inline 5` is not a line number).
        let word =
            !out.chars().chain(head[..at].chars()).next_back().is_some_and(char::is_alphanumeric);
        out.push_str(head);
        let tail = tail.strip_prefix('s').map_or(tail, |t| {
            out.push('s');
            t
        });
        match tail.strip_prefix(' ') {
            Some(after) if word && after.starts_with(|c: char| c.is_ascii_digit()) => {
                out.push_str(" N");
                rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
            }
            _ => rest = tail,
        }
    }
    out.push_str(rest);
    out
}

impl Baseline {
    /// The baseline of `diagnostics`: one entry a key, sorted, with a
    /// count. `clean` masks what a message holds of a secret.
    pub fn of(
        diagnostics: &[Diagnostic],
        sources: &Sources,
        clean: &dyn Fn(&str) -> String,
    ) -> Baseline {
        let mut entries: BTreeMap<Key, Entry> = BTreeMap::new();
        for diagnostic in diagnostics {
            let key = key(diagnostic, sources);
            entries
                .entry(key.clone())
                .or_insert_with(|| Entry {
                    file: key.0,
                    code: key.1,
                    fingerprint: key.2,
                    count: 0,
                    message: clean(&diagnostic.message),
                })
                .count += 1;
        }
        Baseline { version: VERSION, problems: entries.into_values().collect() }
    }

    /// The file's text: pretty JSON ending in a line break.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a baseline file's text; the error says where it is wrong
    /// (`line:column: why`).
    pub fn from_json(text: &str) -> Result<Baseline, String> {
        let baseline: Baseline = serde_json::from_str(text)
            .map_err(|err| format!("{}:{}: {}", err.line(), err.column(), strip_position(&err)))?;
        if baseline.version != VERSION {
            return Err(format!(
                "it is a version {} baseline; this agentc reads version {VERSION}",
                baseline.version
            ));
        }
        Ok(baseline)
    }

    /// Drops from `diagnostics` those the baseline holds, as many of each
    /// key as it counts.
    pub fn filter(&self, diagnostics: &mut Vec<Diagnostic>, sources: &Sources) -> Filtered {
        let mut left: BTreeMap<Key, usize> = BTreeMap::new();
        for entry in &self.problems {
            let key = (entry.file.clone(), entry.code.clone(), entry.fingerprint.clone());
            *left.entry(key).or_default() += entry.count;
        }
        let before = diagnostics.len();
        diagnostics.retain(|diagnostic| match left.get_mut(&key(diagnostic, sources)) {
            Some(count) if *count > 0 => {
                *count -= 1;
                false
            }
            _ => true,
        });
        Filtered { baselined: before - diagnostics.len(), gone: left.values().sum() }
    }
}

/// What [`Baseline::filter`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filtered {
    /// Problems not reported, since the baseline holds them.
    pub baselined: usize,
    /// Problems the baseline holds that no longer occur.
    pub gone: usize,
}

/// serde_json's message without the ` at line L column C` it ends with.
fn strip_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Code;
    use crate::diagnostic::RelPath;
    use crate::source::Source;
    use agentc_schema::Span;
    use proptest::prelude::*;

    fn sources(text: &str) -> Sources {
        let path = RelPath::root("a.md");
        [(path.clone(), Source::new(path, text))].into_iter().collect()
    }

    fn at(text: &str, needle: &str) -> Diagnostic {
        let start = text.find(needle).unwrap();
        Diagnostic::at(
            Code::UnknownTool,
            &RelPath::root("a.md"),
            Span::new(start, start + needle.len()),
            format!("`{needle}` is not a tool"),
        )
    }

    #[test]
    fn line_numbers_in_messages_are_not_fingerprinted() {
        assert_eq!(
            without_line_numbers("differ, first on line 12; lines 3 to 4; inline 5"),
            "differ, first on line N; lines N to 4; inline 5"
        );
    }

    #[test]
    fn counts_allow_as_many_as_recorded() {
        let text = "tools: Bassh\ntools: Bassh\n";
        let sources = sources(text);
        let one = at(text, "Bassh");
        let baseline = Baseline::of(std::slice::from_ref(&one), &sources, &|m| m.to_owned());
        assert_eq!(baseline.problems[0].count, 1);
        // The same problem twice (the second line is the same text).
        let second = Diagnostic {
            location: crate::diagnostic::Location {
                span: Some(Span::new(19, 24)),
                ..one.location.clone()
            },
            ..one.clone()
        };
        let mut found = vec![one.clone(), second];
        let filtered = baseline.filter(&mut found, &sources);
        assert_eq!((filtered, found.len()), (Filtered { baselined: 1, gone: 0 }, 1));
        let mut none = Vec::new();
        assert_eq!(baseline.filter(&mut none, &sources), Filtered { baselined: 0, gone: 1 });
    }

    #[test]
    fn a_malformed_baseline_says_where() {
        let err =
            Baseline::from_json("{\n  \"version\": 1,\n  \"problems\": [ { \"file\": 3 } ]\n}")
                .unwrap_err();
        assert!(err.starts_with("3:"), "{err}");
        assert!(Baseline::from_json("{\"version\": 9, \"problems\": []}").is_err());
    }

    proptest! {
        /// A problem keeps its key when lines are added above or below it,
        /// or its line is indented anew: the fingerprint never sees where
        /// it is.
        #[test]
        fn fingerprints_survive_moves(
            above in proptest::collection::vec("[a-z ]{0,12}", 0..6),
            below in proptest::collection::vec("[a-z ]{0,12}", 0..6),
            indent in "[ \t]{0,4}",
        ) {
            let line = "tools: Bassh";
            let plain = format!("{line}\n");
            let moved = format!("{}{indent}{line}\n{}", above.iter().map(|l| format!("{l}\n")).collect::<String>(), below.join("\n"));
            let a = key(&at(&plain, "Bassh"), &sources(&plain));
            let b = key(&at(&moved, "Bassh"), &sources(&moved));
            prop_assert_eq!(a, b);
        }

        /// Another message or another line's text is another problem.
        #[test]
        fn fingerprints_tell_problems_apart(a in "[a-z]{1,8}", b in "[a-z]{1,8}") {
            prop_assume!(a != b);
            prop_assert_ne!(fingerprint(&a, "x"), fingerprint(&b, "x"));
            prop_assert_ne!(fingerprint("m", &a), fingerprint("m", &b));
        }
    }
}
