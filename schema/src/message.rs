//! The lines of `--message-format json`: what a tool reading agentc's
//! diagnostics receives (docs/CONTRACT.md §3). The compiler prints these
//! types, so the published schema and the output cannot drift apart.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// # agentc --message-format json
///
/// One line of `agentc check --message-format json` (and of `lock`, `graph`
/// with `-o`): a diagnostic, or the summary that ends the output.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
#[schemars(
    title = "agentc --message-format json",
    extend("$id" = "https://agentc.dev/schemas/message.schema.json")
)]
pub enum Message {
    /// A problem found, at its place.
    Diagnostic(Box<Diagnostic>),
    /// The last line: how many errors and warnings were reported.
    Summary(Summary),
}

/// A problem found, at its place.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// Titled, so a type generated from the schema has the name.
#[schemars(title = "Diagnostic")]
pub struct Diagnostic {
    /// The diagnostic code, stable and kebab-case (`agentc explain CODE`).
    pub code: String,
    /// Whether it fails the run.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// The file, shown from the current folder; absent when agentc could not
    /// run (`cannot-run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The first line, 1-based; absent for a problem with no position (a
    /// file that cannot be read, a folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The first column, 1-based, in Unicode scalar values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The last line, 1-based.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    /// The column just after the span, 1-based.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<usize>,
    /// How to fix it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// Other places that take part (the other definition of a duplicate).
    pub labels: Vec<Label>,
    /// The one mechanical fix, when there is one (`agentc check --fix`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// Another place a diagnostic points at.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Label {
    /// The file, shown as the diagnostic's is.
    pub file: String,
    /// The line, 1-based, when the place has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The column, 1-based, in Unicode scalar values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// What is there.
    pub message: String,
}

/// A mechanical fix: applying every edit resolves the diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fix {
    /// What the fix does.
    pub message: String,
    /// The replacements, none overlapping.
    pub edits: Vec<Edit>,
}

/// One replacement of a fix.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Edit {
    /// The file to edit, shown as the diagnostic's is.
    pub file: String,
    /// The first line replaced, 1-based.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The first column replaced, 1-based, in Unicode scalar values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The last line replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    /// The column just after the text replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<usize>,
    /// The byte offset where the replaced text starts, in the file's text
    /// after any byte-order mark.
    pub start: usize,
    /// The byte offset just after the replaced text.
    pub end: usize,
    /// The text written in its place.
    pub replacement: String,
}

/// The last line: how many errors and warnings were reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Summary")]
pub struct Summary {
    /// Diagnostics with severity `error`.
    pub errors: usize,
    /// Diagnostics with severity `warning`.
    pub warnings: usize,
}
