//! The route guard grammar of the runbook format.
//!
//! ```text
//! guard    = on-tool | statuses | on-tool " " statuses
//! on-tool  = "on" " " <tool>
//! statuses = "status=" <status> *("," <status>)
//! status   = success | failure | denied | invalid | partial | pending | absent
//! ```
//!
//! Parts are separated by spaces or tabs. A guard is data, never code: anything
//! outside the grammar is refused rather than guessed at.

use std::fmt;
use std::ops::Range;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The grammar, as quoted in `bad-guard` help.
pub const GUARD_GRAMMAR: &str = "`on <tool>`, `status=<s>[,<s>…]`, or `on <tool> status=<s>[,<s>…]`, where <s> is one of \
     success, failure, denied, invalid, partial, pending, absent";

/// The grammar as an ECMA-262 regular expression, for JSON Schemas.
pub const GUARD_PATTERN: &str = "^(on[ \\t]+[A-Za-z0-9_-]+([ \\t]+status=(success|failure|denied|invalid|partial|pending|absent)(,(success|failure|denied|invalid|partial|pending|absent))*)?|status=(success|failure|denied|invalid|partial|pending|absent)(,(success|failure|denied|invalid|partial|pending|absent))*)$";

/// The outcome of a tool call that a route can fire on.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Success,
    Failure,
    Denied,
    Invalid,
    Partial,
    Pending,
    Absent,
}

impl Status {
    pub const ALL: [Status; 7] = [
        Status::Success,
        Status::Failure,
        Status::Denied,
        Status::Invalid,
        Status::Partial,
        Status::Pending,
        Status::Absent,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::Failure => "failure",
            Status::Denied => "denied",
            Status::Invalid => "invalid",
            Status::Partial => "partial",
            Status::Pending => "pending",
            Status::Absent => "absent",
        }
    }

    pub fn parse(word: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == word)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that is not one of the seven statuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownStatus(pub String);

impl fmt::Display for UnknownStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a status; the statuses are success, failure, denied, invalid, partial, pending, absent",
            self.0
        )
    }
}

impl std::error::Error for UnknownStatus {}

/// ```
/// use agentc_schema::Status;
/// assert_eq!("denied".parse::<Status>(), Ok(Status::Denied));
/// assert!("Denied".parse::<Status>().is_err());
/// ```
impl std::str::FromStr for Status {
    type Err = UnknownStatus;
    fn from_str(s: &str) -> Result<Status, UnknownStatus> {
        Status::parse(s).ok_or_else(|| UnknownStatus(s.to_owned()))
    }
}

/// A token of a guard with its byte range inside the guard text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<T> {
    pub value: T,
    pub range: Range<usize>,
}

/// A parsed guard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    /// The tool after `on`.
    pub on: Option<Token<String>>,
    /// The statuses after `status=`, in the order written.
    pub statuses: Vec<Token<Status>>,
}

/// Why a guard was refused, with the byte range of the offending token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuardError {
    /// Outside the grammar (`bad-guard`).
    Syntax { range: Range<usize>, message: String },
    /// A word of letters that is not a status (`bad-status`); `on` is the
    /// guard's tool, which is checked all the same.
    UnknownStatus { range: Range<usize>, word: String, on: Option<Token<String>> },
}

/// Splits `text` into whitespace-separated tokens with their ranges.
fn tokens(text: &str) -> Vec<(Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c == ' ' || c == '\t', start) {
            (true, Some(s)) => {
                out.push((s..i, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s..text.len(), &text[s..]));
    }
    out
}

fn syntax(range: Range<usize>, message: impl Into<String>) -> GuardError {
    GuardError::Syntax { range, message: message.into() }
}

/// Parses a guard; offsets in the result and the error are relative to `text`.
pub fn parse_guard(text: &str) -> Result<Guard, GuardError> {
    let toks = tokens(text);
    let whole = 0..text.len();
    let Some(first) = toks.first() else {
        return Err(syntax(
            whole,
            "the guard is empty; write `- <skill>` for a route without a guard",
        ));
    };
    let mut guard = Guard { on: None, statuses: Vec::new() };
    let mut rest = &toks[..];
    if first.1 == "on" {
        let Some((range, tool)) = toks.get(1) else {
            return Err(syntax(first.0.clone(), "`on` must be followed by a tool name"));
        };
        if tool.starts_with("status=") {
            return Err(syntax(range.clone(), "`on` must be followed by a tool name"));
        }
        if let Some((i, c)) = tool
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        {
            let at = range.start + i;
            return Err(syntax(
                at..at + c.len_utf8(),
                format!("`{c}` cannot appear in a tool name"),
            ));
        }
        guard.on = Some(Token { value: (*tool).to_owned(), range: range.clone() });
        rest = &toks[2..];
    }
    if let Some((range, tok)) = rest.first() {
        let Some(list) = tok.strip_prefix("status=") else {
            let message = if guard.on.is_some() {
                format!("expected `status=<s>` after the tool, found `{tok}`")
            } else {
                format!("a guard starts with `on <tool>` or `status=`, not `{tok}`")
            };
            return Err(syntax(range.clone(), message));
        };
        // The shape of the whole list first: `status=a,status=b` is outside the
        // grammar, whatever `a` is.
        let mut words = Vec::new();
        let mut offset = range.start + "status=".len();
        for word in list.split(',') {
            let word_range = offset..offset + word.len();
            offset += word.len() + 1;
            if word.is_empty() {
                return Err(syntax(
                    range.clone(),
                    "a status is missing; list statuses separated by single commas",
                ));
            }
            if !word.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(syntax(word_range, format!("`{word}` is not a status")));
            }
            words.push((word, word_range));
        }
        for (word, word_range) in words {
            let Some(status) = Status::parse(word) else {
                return Err(GuardError::UnknownStatus {
                    range: word_range,
                    word: word.to_owned(),
                    on: guard.on.clone(),
                });
            };
            if guard.statuses.iter().any(|s| s.value == status) {
                return Err(syntax(word_range, format!("the status `{word}` is listed twice")));
            }
            guard.statuses.push(Token { value: status, range: word_range });
        }
        rest = &rest[1..];
    }
    if let Some((range, tok)) = rest.first() {
        return Err(syntax(range.clone(), format!("unexpected `{tok}` after the guard")));
    }
    Ok(guard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> (Option<String>, Vec<Status>) {
        let g = parse_guard(text).unwrap();
        (g.on.map(|t| t.value), g.statuses.into_iter().map(|t| t.value).collect())
    }

    fn err(text: &str) -> GuardError {
        parse_guard(text).unwrap_err()
    }

    #[test]
    fn accepted_forms() {
        assert_eq!(ok("on issue_refund"), (Some("issue_refund".into()), vec![]));
        assert_eq!(ok("status=denied,failure"), (None, vec![Status::Denied, Status::Failure]));
        assert_eq!(
            ok("on issue_refund  status=absent"),
            (Some("issue_refund".into()), vec![Status::Absent])
        );
    }

    #[test]
    fn refused_forms() {
        for text in [
            "",
            "ON x",
            "on",
            "status=",
            "on x status",
            "on a.b",
            "status=denied on x",
            "status=denied,status=failure",
            "when the customer is angry",
            "on x;",
            "status=,",
            "status=success,",
            "status=denied,denied",
            "status=denied failure",
        ] {
            assert!(matches!(err(text), GuardError::Syntax { .. }), "{text:?}");
        }
        assert_eq!(
            err("on x status=success,Exploded"),
            GuardError::UnknownStatus {
                range: 20..28,
                word: "Exploded".into(),
                on: Some(Token { value: "x".into(), range: 3..4 })
            }
        );
    }
}
