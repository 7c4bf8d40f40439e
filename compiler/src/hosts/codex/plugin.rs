//! A Codex plugin's manifest, `.codex-plugin/plugin.json`, as Codex 0.171.0
//! reads it (`core-plugins/src/manifest.rs`, the strings of its binary): a
//! value of the wrong type in a typed field (`name`, `version`,
//! `description`, `keywords`, `apps`, `interface`'s texts) fails the whole
//! manifest ("failed to parse plugin manifest") and the plugin is not loaded;
//! a component path not written `./…` inside the plugin's folder, or a
//! `skills`/`hooks`/`mcpServers` of a shape it does not take, is ignored
//! with a log warning ("ignoring skills: path must start with `./` relative
//! to plugin root"); keys it does not know are ignored silently.

use agentc_schema::{CodexPlugin, Span};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Document, Reading, decode_text};
use crate::parse::tree::{Node, Value};
use crate::source::Source;

/// The fields naming files in the plugin's folder, and the value shapes
/// Codex takes for each (a string, a list of strings, an object).
const PATHS: &[(&str, bool, bool)] = &[
    ("skills", true, false),
    ("mcpServers", false, true),
    ("apps", false, false),
    ("hooks", true, true),
];
/// `interface`'s asset paths, resolved as the component paths are.
const ASSETS: &[(&str, bool)] =
    &[("composerIcon", false), ("logo", false), ("logoDark", false), ("screenshots", true)];

/// Reads the manifest: a type error is an error (Codex drops the plugin);
/// unknown keys are not reported (Codex ignores them).
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<CodexPlugin>> {
    let start = out.len();
    let reading = Reading { unknown: Severity::Warning, ignores_unknown: true, ..Reading::JSON };
    let doc = decode_text::<CodexPlugin>(source, &source.text, 0, reading, out);
    for diagnostic in &mut out[start..] {
        if diagnostic.severity == Severity::Error && diagnostic.code == Code::InvalidValue {
            let help = diagnostic.help.take().unwrap_or_default();
            let sep = if help.is_empty() { "" } else { "; " };
            diagnostic.help = Some(format!(
                "{help}{sep}Codex 0.171.0 cannot parse the manifest (\"failed to parse plugin \
                 manifest\") and does not load the plugin"
            ));
        }
    }
    let doc = doc?;
    paths(source, &doc.tree, out);
    Some(doc)
}

/// The component and asset paths Codex would ignore.
fn paths(source: &Source, tree: &Node, out: &mut Vec<Diagnostic>) {
    let Value::Map(entries) = &tree.value else {
        return;
    };
    for entry in entries {
        if let Some(&(field, list, object)) = PATHS.iter().find(|(f, ..)| *f == entry.key) {
            shaped(source, field, &entry.value, list, object, out);
        }
        if entry.key == "interface"
            && let Value::Map(fields) = &entry.value.value
        {
            for asset in fields {
                if let Some(&(field, list)) = ASSETS.iter().find(|(f, _)| *f == asset.key) {
                    let field = format!("interface.{field}");
                    shaped(source, &field, &asset.value, list, false, out);
                }
            }
        }
    }
}

/// One path field: each path written as Codex takes it.
fn shaped(
    source: &Source,
    field: &str,
    node: &Node,
    list: bool,
    object: bool,
    out: &mut Vec<Diagnostic>,
) {
    match &node.value {
        Value::Str(_) => path(source, field, node, out),
        Value::Seq(items) if list => {
            for item in items {
                match &item.value {
                    Value::Str(_) => path(source, field, item, out),
                    // A list of inline hooks objects.
                    Value::Map(_) if object => {}
                    _ => {}
                }
            }
        }
        Value::Map(_) if object => {}
        _ => {
            let shapes = match (list, object) {
                (true, true) => "a `./…` path, a list of them, or an object",
                (true, false) => "a `./…` path or a list of them",
                (false, true) => "a `./…` path or an object",
                (false, false) => "a `./…` path",
            };
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    &source.path,
                    node.span,
                    format!("`{field}` is {}; Codex takes {shapes}", node.describe()),
                )
                .with_severity(Severity::Warning)
                .with_help(format!(
                    "write {shapes}; Codex 0.171.0 ignores the field (\"ignoring {field}\") and \
                     loads the plugin without it"
                )),
            );
        }
    }
}

/// Why Codex ignores a path, if it does (`resolve_manifest_path`).
pub fn refused(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return None;
    }
    let Some(relative) = path.strip_prefix("./") else {
        return Some("path must start with `./` relative to plugin root");
    };
    if relative.is_empty() {
        return Some("path must not be `./`");
    }
    if relative.split(['/', '\\']).any(|part| part == "..") {
        return Some("path must not contain '..'");
    }
    if relative.starts_with('/') {
        return Some("path must stay within the plugin root");
    }
    None
}

fn path(source: &Source, field: &str, node: &Node, out: &mut Vec<Diagnostic>) {
    let Value::Str(text) = &node.value else {
        return;
    };
    let Some(reason) = refused(text) else {
        return;
    };
    let span = match node.text_at {
        Some(at) => Span::new(at, at + text.len()),
        None => node.span,
    };
    let mut diagnostic = Diagnostic::at(
        Code::InvalidValue,
        &source.path,
        span,
        format!("`{field}` is `{text}`, which Codex ignores: {reason}"),
    )
    .with_severity(Severity::Warning)
    .with_help(format!(
        "write a path inside the plugin's folder starting with `./`; Codex 0.171.0 ignores the \
         field (\"ignoring {field}: {reason}\") and loads the plugin without it"
    ));
    let bare = !text.starts_with('/') && !text.starts_with('.') && !text.contains("..");
    if bare && node.text_at.is_some() {
        diagnostic = diagnostic.with_fix(
            format!("write `./{text}`"),
            &source.path,
            Some(Span::new(span.start, span.start)),
            "./".to_string(),
        );
    }
    out.push(diagnostic);
}
