//! Cursor's cloud agent environment, `.cursor/environment.json`, against the
//! JSON Schema Cursor publishes (cursor.com/schemas/environment.schema.json,
//! the copy retrieved 2026-07-21 in zhupanov/agent-lint) and the keys its
//! cloud agent documentation adds since (`egressMode`, `image`, …). The
//! schema refuses a key it does not declare; what Cursor's cloud agents do
//! with such a file is not published and cannot be run here, so every rule
//! is a warning. The Dockerfile and the scripts it names are looked for by
//! `check::cursor`.

use agentc_schema::CursorEnvironment;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Document, Reading, Syntax, entry_value};
use crate::parse::tree::{Node, Value};
use crate::source::Source;
use crate::suggest::confident;

/// The values of `egressMode`.
const EGRESS: &[&str] = &[
    "allow_all",
    "parent_plus_network_settings",
    "default_with_network_settings",
    "network_settings_only",
];

/// The file, read as JSON with comments (the schema's `allowComments`).
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<CursorEnvironment>> {
    let start = out.len();
    let reading =
        Reading { syntax: Syntax::JsonComments, unknown: Severity::Warning, ..Reading::JSON };
    let doc = crate::parse::files::decode_text::<CursorEnvironment>(
        source,
        &source.text,
        0,
        reading,
        out,
    );
    let tree = doc.as_ref().map(|d| &d.tree);
    for diagnostic in &mut out[start..] {
        // `update` was renamed `install`.
        let key = diagnostic.location.span.and_then(|s| source.text.get(s.start..s.end));
        if diagnostic.code == Code::UnknownField && key == Some("\"update\"") {
            let span = diagnostic.location.span;
            diagnostic.message = "`update` is now `install`".to_owned();
            diagnostic.help = Some(
                "Cursor's environment schema renamed `update` to `install` and declares no \
                 `update`: write the command under `install`"
                    .to_owned(),
            );
            if let Some(span) = span
                && tree.is_some_and(|t| entry_value(t, "install").is_none())
            {
                let inner = agentc_schema::Span::new(span.start + 1, span.end - 1);
                diagnostic.fix = Some(crate::diagnostic::Fix {
                    message: "rename `update` to `install`".to_owned(),
                    edits: vec![crate::diagnostic::Edit {
                        file: source.path.clone(),
                        span: inner,
                        replacement: "install".to_owned(),
                    }],
                });
            }
        } else if diagnostic.code == Code::UnknownField && diagnostic.help.is_none() {
            diagnostic.help = Some(
                "Cursor's published environment schema declares no such key, so the cloud \
                 agent is not known to use it; remove it, or check its spelling"
                    .to_owned(),
            );
        }
    }
    super::warnings_only(&mut out[start..]);
    super::unknown_keys(&mut out[start..]);
    let doc = doc?;
    check(source, &doc, out);
    Some(doc)
}

/// What the types do not say.
fn check(source: &Source, doc: &Document<CursorEnvironment>, out: &mut Vec<Diagnostic>) {
    let path = &source.path;
    let env = &doc.value;
    let warn = |span, code, message: String, help: &str| {
        Diagnostic::at(code, path, span, message)
            .with_severity(Severity::Warning)
            .with_help(help.to_owned())
    };
    for port in env.ports.iter().flatten() {
        if !(1..=65535).contains(&port.port.value) {
            out.push(warn(
                port.port.span,
                Code::InvalidValue,
                format!("port {} is not a port", port.port.value),
                "a port is a number from 1 to 65535",
            ));
        }
    }
    if let Some(mode) = &env.egress_mode
        && !EGRESS.contains(&mode.value.as_str())
    {
        let mut diagnostic = warn(
            mode.span,
            Code::InvalidValue,
            format!("`{}` is not an `egressMode`", mode.value),
            "the modes are `allow_all`, `parent_plus_network_settings`, \
             `default_with_network_settings` and `network_settings_only`",
        );
        if let Some(fix) = confident(&mode.value, EGRESS.iter().copied()) {
            diagnostic = diagnostic.with_fix(
                format!("write `{fix}`"),
                path,
                mode.verbatim(0..mode.value.len()),
                fix,
            );
        }
        out.push(diagnostic);
    }
    if let Some(build) = &env.build
        && build.dockerfile.is_none()
        && build.dockerfile_contents.is_none()
        && !doc.recovered("build")
        && let Some(node) = entry_value(&doc.tree, "build")
    {
        out.push(warn(
            node.span,
            Code::MissingField,
            "`build` names no Dockerfile".to_owned(),
            "add `\"dockerfile\": \"Dockerfile\"` (relative to `.cursor/`); Cursor's schema \
             requires it",
        ));
    }
    if let Some(Node { value: Value::Seq(items), .. }) = entry_value(&doc.tree, "terminals") {
        for item in items {
            match &item.value {
                Value::Seq(group) => group.iter().for_each(|t| terminal(source, t, out)),
                _ => terminal(source, item, out),
            }
        }
    }
}

/// One terminal: a mapping with a `command` text, and text `name` and
/// `description`.
fn terminal(source: &Source, node: &Node, out: &mut Vec<Diagnostic>) {
    let path = &source.path;
    let Value::Map(fields) = &node.value else {
        out.push(
            Diagnostic::at(Code::InvalidValue, path, node.span, "a terminal is not a mapping")
                .with_severity(Severity::Warning)
                .with_help("write `{\"name\": \"dev\", \"command\": \"npm run dev\"}`"),
        );
        return;
    };
    if !fields.iter().any(|f| f.key == "command") {
        out.push(
            Diagnostic::at(Code::MissingField, path, node.span, "a terminal needs `command`")
                .with_severity(Severity::Warning)
                .with_help("add the command the terminal runs; Cursor's schema requires it"),
        );
    }
    for field in fields {
        let known = matches!(field.key.as_str(), "command" | "name" | "description");
        if known && !matches!(field.value.value, Value::Str(_)) {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    path,
                    field.value.span,
                    format!("a terminal's `{}` is text", field.key),
                )
                .with_severity(Severity::Warning)
                .with_help("write it as a string"),
            );
        }
    }
}
