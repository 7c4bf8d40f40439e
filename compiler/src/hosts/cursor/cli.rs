//! The Cursor CLI's project configuration, `.cursor/cli.json`: at a
//! project's level it reads only `permissions`, rules written `Type(arg)`
//! with the types `Shell`, `Read`, `Write`, `WebFetch` and `Mcp`
//! (cursor.com/docs/cli/reference/configuration and
//! cursor.com/docs/cli/reference/permissions, read 2026-12-05). No Cursor
//! CLI runs here, so every rule is a warning.

use agentc_schema::{CursorCli, Spanned};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Document, Reading, Syntax, decode_text};
use crate::source::Source;
use crate::suggest::confident;

/// The permission types the Cursor CLI documents.
const TYPES: &[&str] = &["Shell", "Read", "Write", "WebFetch", "Mcp"];

/// Claude Code's tool names people carry over, and the Cursor type meant.
const CLAUDE_TOOLS: &[(&str, &str)] =
    &[("Bash", "Shell"), ("Edit", "Write"), ("MultiEdit", "Write"), ("Fetch", "WebFetch")];

/// The settings of the user's `~/.cursor/cli-config.json`, which a
/// project's file may not set.
const USER_SETTINGS: &[&str] = &[
    "editor",
    "model",
    "maxMode",
    "hasChangedDefaultModel",
    "channel",
    "notifications",
    "approvalMode",
    "sandbox",
    "network",
    "attribution",
    "display",
    "privacyCache",
    "authInfo",
    "showThinkingBlocks",
];

/// The file, read as JSON with comments.
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<CursorCli>> {
    let start = out.len();
    let reading = Reading { syntax: Syntax::Jsonc, unknown: Severity::Warning, ..Reading::JSON };
    let doc = decode_text::<CursorCli>(source, &source.text, 0, reading, out);
    for diagnostic in &mut out[start..] {
        let key = diagnostic.location.span.and_then(|s| source.text.get(s.start..s.end));
        let key = key.map(|k| k.trim_matches('"'));
        if diagnostic.code == Code::UnknownField
            && let Some(key) = key.filter(|k| USER_SETTINGS.contains(k))
        {
            diagnostic.message = format!("the Cursor CLI reads `{key}` only from the user's file");
            diagnostic.help = Some(
                "a project's `.cursor/cli.json` sets `permissions` alone; move this setting to \
                 `~/.cursor/cli-config.json`"
                    .to_owned(),
            );
        }
    }
    super::warnings_only(&mut out[start..]);
    super::unknown_keys(&mut out[start..]);
    let doc = doc?;
    if let Some(permissions) = &doc.value.permissions {
        for rule in permissions.allow.iter().chain(&permissions.deny).flatten() {
            self::rule(source, rule, out);
        }
    }
    Some(doc)
}

/// One permission rule: `Type(argument)`.
fn rule(source: &Source, rule: &Spanned<String>, out: &mut Vec<Diagnostic>) {
    let path = &source.path;
    let text = rule.value.as_str();
    let warn = |message: String, help: String| {
        Diagnostic::at(Code::InvalidValue, path, rule.span, message)
            .with_severity(Severity::Warning)
            .with_help(help)
    };
    let parsed = text
        .split_once('(')
        .and_then(|(kind, rest)| rest.strip_suffix(')').map(|arg| (kind, arg)))
        .filter(|(kind, _)| !kind.is_empty() && kind.chars().all(|c| c.is_ascii_alphanumeric()));
    let Some((kind, arg)) = parsed else {
        out.push(warn(
            format!("`{text}` is not a permission rule the Cursor CLI reads"),
            "write `Type(argument)`: `Shell(git)`, `Read(src/**)`, `Write(docs/**)`, \
             `WebFetch(docs.github.com)` or `Mcp(server:tool)`"
                .to_owned(),
        ));
        return;
    };
    if !TYPES.contains(&kind) {
        let claude = CLAUDE_TOOLS.iter().find(|(c, _)| *c == kind).map(|(_, cursor)| *cursor);
        let fix = claude
            .or_else(|| TYPES.iter().copied().find(|t| t.eq_ignore_ascii_case(kind)))
            .or_else(|| confident(kind, TYPES.iter().copied()));
        let help = match (claude, fix) {
            (Some(meant), _) => format!(
                "`{kind}` is Claude Code's tool; the Cursor CLI's rule for it is `{meant}(…)`, and \
                 it matches no tool call under another type"
            ),
            (None, Some(meant)) => format!(
                "did you mean `{meant}`? types are case-sensitive: `Shell`, `Read`, `Write`, \
                 `WebFetch`, `Mcp`"
            ),
            (None, None) => "the types are `Shell`, `Read`, `Write`, `WebFetch` and `Mcp`; a \
                             rule of another type matches no tool call"
                .to_owned(),
        };
        let mut diagnostic = warn(format!("`{kind}` is not a Cursor CLI permission type"), help);
        if let Some(fix) = fix {
            diagnostic = diagnostic.with_fix(
                format!("write `{fix}`"),
                path,
                rule.verbatim(0..kind.len()),
                fix,
            );
        }
        out.push(diagnostic);
        return;
    }
    if arg.trim().is_empty() {
        out.push(warn(
            format!("`{text}` names nothing"),
            format!("write what the rule is for inside the parentheses, e.g. `{kind}(…)`"),
        ));
    }
}
