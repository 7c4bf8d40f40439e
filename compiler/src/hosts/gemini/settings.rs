//! Gemini CLI's project settings, `.gemini/settings.json`, as 0.61.0 reads
//! them (`loadSettings` in its bundle; `docs/formats.md`, "Gemini CLI
//! settings"):
//!
//! - JSON with comments; a file that does not parse, or is not an object,
//!   stops Gemini CLI at start-up ("Please fix the configuration file(s)
//!   and try again", exit 52): an error.
//! - Every value is checked against Gemini CLI's settings schema
//!   (`settings-0.61.json`, made by `settings-schema.py` from the schema
//!   0.61.0 builds its validator from). A value that fails it is printed as
//!   "Invalid configuration" at start-up and then used as written: a
//!   warning. So is a key no part of the schema names (ignored), except
//!   where the schema leaves keys free.
//! - `general.defaultApprovalMode` outside the modes Gemini CLI has stops it
//!   ("Invalid approval mode"): an error.
//! - Hooks: an event Gemini CLI does not have is skipped with a warning; a
//!   hook without a known `type`, or a command hook without `command`, is
//!   discarded: an error.
//! - MCP servers: the rules of every host's servers (`super::super::mcp`).

use std::sync::LazyLock;

use agentc_schema::{GeminiSettings, Span};
use serde_json::Value as Schema;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::hosts::mcp::{self, Reader};
use crate::parse::files::{Document, Reading, Syntax, decode_text};
use crate::parse::tree::{Node, Value};
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// Gemini CLI 0.61.0's settings schema, compacted: `t` the type (`string`,
/// `number`, `boolean`, `enum` with `e`, `array` with items `i`, `object`
/// with properties `p`, other keys' schema `a`, `free` when other keys are
/// the host's to name, `strict` when it refuses them, required `r`; `union`
/// of `u`; `any`).
static SCHEMA: LazyLock<Schema> =
    LazyLock::new(|| serde_json::from_str(include_str!("settings-0.61.json")).unwrap_or_default());

/// The hook events Gemini CLI 0.61.0 has (`HookEventName`).
pub const EVENTS: &[&str] = &[
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "Notification",
    "AfterAgent",
    "SessionStart",
    "SessionEnd",
    "PreCompress",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
];

/// Keys of `hooks` that are not events (`HOOKS_CONFIG_FIELDS`).
const HOOK_FIELDS: &[&str] = &["enabled", "disabled", "notifications"];

/// The hook types Gemini CLI runs (`validateHookConfig`).
const HOOK_TYPES: &[&str] = &["command", "plugin", "runtime"];

/// Keys of an MCP server only Gemini CLI reads (`MCPServerConfig`).
const MCP_KEYS: &[&str] =
    &["tcp", "extension", "authProviderType", "targetAudience", "targetServiceAccount"];

/// The approval modes `loadCliConfig` takes; any other stops Gemini CLI.
const APPROVAL_MODES: &[&str] = &["default", "auto_edit", "plan", "yolo"];

/// What Gemini CLI does with a value its schema refuses.
const GOES_ON: &str = "Gemini CLI 0.61.0 prints \"Invalid configuration\" at start-up and goes on with the value \
     as written";

/// Reads the settings and checks them.
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<GeminiSettings>> {
    let reading = Reading {
        syntax: Syntax::JsonComments,
        unknown: Severity::Warning,
        taken: |_| true,
        dropped: |_| Some(GOES_ON),
        ..Reading::JSON
    };
    let start = out.len();
    let doc = decode_text::<GeminiSettings>(source, &source.text, 0, reading, out);
    // Keys of Gemini CLI's own MCP server schema that other hosts' lack.
    let mut at = start;
    out.retain(|d| {
        at += 1;
        at <= start
            || !(d.code == Code::UnknownField
                && MCP_KEYS
                    .iter()
                    .any(|k| d.message == format!("unknown field `{k}` (kept as metadata)")))
    });
    let doc = doc?;
    if let Value::Map(entries) = &doc.tree.value {
        for entry in entries {
            match entry.key.as_str() {
                // The server rules of every host, below.
                "mcpServers" => {}
                "hooks" => hooks(source, &entry.value, out),
                key => match SCHEMA.get("p").and_then(|p| p.get(key)) {
                    Some(schema) => walk(source, &entry.value, schema, key, out),
                    None => out.push(unknown_key(source, key, entry.key_span, &SCHEMA, "")),
                },
            }
        }
    }
    if let Some(servers) = &doc.value.mcp_servers {
        mcp::servers(source, servers, Reader::Gemini, None, out);
    }
    Some(doc)
}

/// The JSON kind of a node, for messages.
fn kind(node: &Node) -> &'static str {
    match node.value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Int(_) | Value::UInt(_) | Value::Float(_) | Value::BigInt(_) => "a number",
        Value::Str(_) => "a string",
        Value::Seq(_) => "a list",
        Value::Map(_) => "an object",
    }
}

/// What a schema takes, for messages.
fn expected(schema: &Schema) -> String {
    match schema.get("t").and_then(Schema::as_str).unwrap_or("any") {
        "string" => "a string".into(),
        "number" => "a number".into(),
        "boolean" => "true or false".into(),
        "array" => "a list".into(),
        "object" => "an object".into(),
        "enum" => {
            let values: Vec<String> = schema
                .get("e")
                .and_then(Schema::as_array)
                .into_iter()
                .flatten()
                .map(|v| format!("`{}`", v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
                .collect();
            format!("one of {}", values.join(", "))
        }
        "union" => {
            let kinds: Vec<String> = schema
                .get("u")
                .and_then(Schema::as_array)
                .into_iter()
                .flatten()
                .map(expected)
                .collect();
            kinds.join(" or ")
        }
        _ => "anything".into(),
    }
}

/// Whether `node` has the kind `schema` names, as Gemini CLI's validator
/// takes it (a number or `true`/`false` may be written as a string).
fn fits(node: &Node, schema: &Schema) -> bool {
    match (schema.get("t").and_then(Schema::as_str).unwrap_or("any"), &node.value) {
        ("string", Value::Str(_)) => true,
        ("number", Value::Int(_) | Value::UInt(_) | Value::Float(_) | Value::BigInt(_)) => true,
        ("number", Value::Str(text)) => {
            !text.trim().is_empty() && text.trim().parse::<f64>().is_ok()
        }
        ("boolean", Value::Bool(_)) => true,
        ("boolean", Value::Str(text)) => {
            text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false")
        }
        ("enum", value) => schema.get("e").and_then(Schema::as_array).is_some_and(|values| {
            values.iter().any(|v| match (v, value) {
                (Schema::String(a), Value::Str(b)) => a == b,
                (Schema::Number(a), Value::Int(b)) => a.as_i64() == Some(*b),
                (Schema::Number(a), Value::UInt(b)) => a.as_u64() == Some(*b),
                (Schema::Number(a), Value::Float(b)) => a.as_f64() == Some(*b),
                _ => false,
            })
        }),
        ("array", Value::Seq(_)) | ("object", Value::Map(_)) => true,
        ("any" | "union", _) => true,
        _ => false,
    }
}

/// Checks `node`, at `path`, against `schema`, as Gemini CLI's validator
/// does; what it refuses is a warning (it goes on with the value).
fn walk(source: &Source, node: &Node, schema: &Schema, path: &str, out: &mut Vec<Diagnostic>) {
    if path == "general.defaultApprovalMode" && approval_mode(source, node, out) {
        return;
    }
    if !fits(node, schema) {
        let message = format!("`{path}` is {}; Gemini CLI takes {}", kind(node), expected(schema));
        out.push(
            Diagnostic::at(Code::InvalidValue, &source.path, node.span, message)
                .with_severity(Severity::Warning)
                .with_help(format!("{GOES_ON}; write {}", expected(schema))),
        );
        return;
    }
    match schema.get("t").and_then(Schema::as_str) {
        Some("union") => {
            let members = schema.get("u").and_then(Schema::as_array);
            let fitting = members.into_iter().flatten().any(|member| {
                let mut scratch = Vec::new();
                fits(node, member) && {
                    walk(source, node, member, path, &mut scratch);
                    scratch.is_empty()
                }
            });
            if !fitting {
                let message = format!("`{path}` is not {}", expected(schema));
                out.push(
                    Diagnostic::at(Code::InvalidValue, &source.path, node.span, message)
                        .with_severity(Severity::Warning)
                        .with_help(format!("{GOES_ON}; see the settings reference")),
                );
            }
        }
        Some("array") => {
            if let (Value::Seq(items), Some(item)) = (&node.value, schema.get("i")) {
                for (i, value) in items.iter().enumerate() {
                    walk(source, value, item, &format!("{path}[{i}]"), out);
                }
            }
        }
        Some("object") => {
            let Value::Map(entries) = &node.value else {
                return;
            };
            let properties = schema.get("p");
            for entry in entries {
                let child = format!("{path}.{}", entry.key);
                match properties.and_then(|p| p.get(&entry.key)).or_else(|| schema.get("a")) {
                    Some(value) => walk(source, &entry.value, value, &child, out),
                    None if schema.get("free").is_none() => {
                        out.push(unknown_key(source, &entry.key, entry.key_span, schema, path));
                    }
                    None => {}
                }
            }
            for field in schema.get("r").and_then(Schema::as_array).into_iter().flatten() {
                let Some(field) = field.as_str() else { continue };
                if !entries.iter().any(|e| e.key == field) {
                    out.push(
                        Diagnostic::at(
                            Code::MissingField,
                            &source.path,
                            node.span,
                            format!("`{path}` needs `{field}`"),
                        )
                        .with_severity(Severity::Warning)
                        .with_help(format!("{GOES_ON}; add `{field}`")),
                    );
                }
            }
        }
        _ => {}
    }
}

/// A key the schema does not name where it names the keys: Gemini CLI
/// ignores it (or, where the schema is strict, warns and ignores it).
fn unknown_key(source: &Source, key: &str, span: Span, schema: &Schema, path: &str) -> Diagnostic {
    let names: Vec<&str> = schema
        .get("p")
        .and_then(Schema::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let at = if path.is_empty() { String::new() } else { format!(" in `{path}`") };
    let diagnostic = Diagnostic::at(
        Code::UnknownField,
        &source.path,
        span,
        format!("`{key}` is not a setting Gemini CLI has{at}"),
    )
    .with_severity(Severity::Warning);
    if let Some(close) = did_you_mean(key, names.iter().copied()) {
        let diagnostic = diagnostic.with_help(format!(
            "did you mean `{close}`? Gemini CLI 0.61.0 ignores keys it does not know"
        ));
        return match confident(key, names.iter().copied()) {
            Some(fix) => diagnostic.with_fix(
                format!("rename `{key}` to `{fix}`"),
                &source.path,
                key_text(source, span, key),
                fix,
            ),
            None => diagnostic,
        };
    }
    // A flat key of the settings before 0.3 (`autoAccept`) now lives in a
    // category (`tools.autoAccept`).
    let nested = path.is_empty().then(|| nested(key)).flatten();
    diagnostic.with_help(match nested {
        Some(moved) => {
            format!("Gemini CLI 0.61.0 ignores it; settings are grouped now: write it as `{moved}`")
        }
        None => "Gemini CLI 0.61.0 ignores keys it does not know; remove it, or check the \
                 settings reference (https://geminicli.com/docs/reference/configuration/)"
            .into(),
    })
}

/// Where a key's characters are, inside its quotes, when written verbatim.
fn key_text(source: &Source, span: Span, key: &str) -> Option<Span> {
    let inner = Span::new(span.start + 1, span.end.saturating_sub(1));
    (inner.start < inner.end && source.text.get(inner.start..inner.end) == Some(key))
        .then_some(inner)
}

/// The category holding a setting named `key`, one level down.
fn nested(key: &str) -> Option<String> {
    let categories = SCHEMA.get("p")?.as_object()?;
    categories.iter().find_map(|(category, schema)| {
        schema.get("p")?.get(key).map(|_| format!("{category}.{key}"))
    })
}

/// `general.defaultApprovalMode`: a mode `loadCliConfig` does not have
/// stops Gemini CLI ("Invalid approval mode"); `yolo` is one it has but the
/// schema refuses (a warning, from the schema walk). True when reported.
fn approval_mode(source: &Source, node: &Node, out: &mut Vec<Diagnostic>) -> bool {
    if let Value::Str(mode) = &node.value
        && APPROVAL_MODES.contains(&mode.as_str())
    {
        return false;
    }
    let written = match &node.value {
        Value::Str(text) => text.clone(),
        _ => kind(node).to_owned(),
    };
    let mut diagnostic = Diagnostic::at(
        Code::InvalidValue,
        &source.path,
        node.span,
        format!("`{written}` is not an approval mode Gemini CLI has"),
    )
    .with_help(
        "Gemini CLI 0.61.0 stops at start-up (\"Invalid approval mode\"); write `default`, \
         `auto_edit` or `plan`",
    );
    if let Value::Str(text) = &node.value
        && let Some(fix) = confident(text, APPROVAL_MODES.iter().copied())
    {
        let span = node.text_at.map(|at| Span::new(at, at + text.len()));
        diagnostic = diagnostic.with_fix(format!("write `{fix}`"), &source.path, span, fix);
    }
    out.push(diagnostic);
    true
}

/// The text of a string node.
fn text(node: &Node) -> Option<&str> {
    match &node.value {
        Value::Str(text) => Some(text),
        _ => None,
    }
}

/// The entry `key` of an object node.
fn get<'n>(node: &'n Node, key: &str) -> Option<&'n Node> {
    match &node.value {
        Value::Map(entries) => entries.iter().find(|e| e.key == key).map(|e| &e.value),
        _ => None,
    }
}

/// `hooks`: each event Gemini CLI has, each definition and each hook, as
/// its hook registry takes them.
pub(super) fn hooks(source: &Source, node: &Node, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    let Value::Map(entries) = &node.value else {
        let message = format!("`hooks` is {}; Gemini CLI takes an object of events", kind(node));
        out.push(
            Diagnostic::at(Code::InvalidValue, file, node.span, message)
                .with_severity(Severity::Warning)
                .with_help(format!("{GOES_ON}, and runs no hook from it")),
        );
        return;
    };
    for entry in entries {
        let event = entry.key.as_str();
        if HOOK_FIELDS.contains(&event) {
            continue;
        }
        if !EVENTS.contains(&event) {
            out.push(unknown_event(source, event, entry.key_span));
            continue;
        }
        let Value::Seq(definitions) = &entry.value.value else {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    entry.value.span,
                    format!("`hooks.{event}` is {}; Gemini CLI takes a list", kind(&entry.value)),
                )
                .with_help(
                    "Gemini CLI 0.61.0 skips the event's hooks; write a list of definitions",
                ),
            );
            continue;
        };
        for definition in definitions {
            let list = get(definition, "hooks");
            let Some(Node { value: Value::Seq(list), .. }) = list else {
                out.push(
                    Diagnostic::at(
                        Code::MissingField,
                        file,
                        list.map_or(definition.span, |l| l.span),
                        format!("a `{event}` hook definition needs a `hooks` list"),
                    )
                    .with_help(
                        "Gemini CLI 0.61.0 discards the definition (\"Discarding invalid hook \
                         definition\"); write `\"hooks\": [{ \"type\": \"command\", \"command\": \
                         \"...\" }]`",
                    ),
                );
                continue;
            };
            for (field, schema) in [("matcher", "string"), ("sequential", "boolean")] {
                if let Some(value) = get(definition, field) {
                    let schema = serde_json::json!({ "t": schema });
                    walk(source, value, &schema, &format!("hooks.{event}[].{field}"), out);
                }
            }
            for hook in list {
                one_hook(source, event, hook, out);
            }
        }
    }
}

/// One hook: its type and what the type needs, its timeout, its command.
fn one_hook(source: &Source, event: &str, hook: &Node, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    let discarded = "Gemini CLI 0.61.0 discards the hook (\"Discarding invalid hook \
                     configuration\")";
    let kind_node = get(hook, "type");
    match kind_node.and_then(text) {
        Some(kind) if HOOK_TYPES.contains(&kind) => {
            if kind == "command" && get(hook, "command").and_then(text).is_none_or(str::is_empty) {
                out.push(
                    Diagnostic::at(
                        Code::MissingField,
                        file,
                        hook.span,
                        format!("a `{event}` command hook needs `command`"),
                    )
                    .with_help(format!("{discarded}; add the command to run")),
                );
            }
        }
        written => {
            let (span, message) = match (kind_node, written) {
                (Some(node), Some(written)) => {
                    (node.span, format!("`{written}` is not a hook type Gemini CLI has"))
                }
                (Some(node), None) => (node.span, "a hook's `type` is a string".to_owned()),
                (None, _) => (hook.span, format!("a `{event}` hook needs `type`")),
            };
            let code = if kind_node.is_some() { Code::InvalidValue } else { Code::MissingField };
            let mut diagnostic = Diagnostic::at(code, file, span, message)
                .with_help(format!("{discarded}; write `\"type\": \"command\"`"));
            if let (Some(node), Some(written)) = (kind_node, written)
                && let Some(fix) = confident(written, HOOK_TYPES.iter().copied())
            {
                let at = node.text_at.map(|at| Span::new(at, at + written.len()));
                diagnostic = diagnostic.with_fix(format!("write `{fix}`"), file, at, fix);
            }
            out.push(diagnostic);
        }
    }
    if let Some(command) = get(hook, "command") {
        match text(command) {
            Some(line) if !crate::shell::downloads_and_runs(line).is_empty() => {
                out.push(crate::shell::at(source, command.span, "this hook's command"));
            }
            Some(_) => {}
            None => walk(source, command, &serde_json::json!({"t": "string"}), "command", out),
        }
    }
    if let Some(timeout) = get(hook, "timeout") {
        let schema = serde_json::json!({ "t": "number" });
        if !fits(timeout, &schema) {
            walk(source, timeout, &schema, &format!("hooks.{event}[].hooks[].timeout"), out);
        } else if let Some(ms) = number(timeout)
            && ms > 0.0
            && ms < 1000.0
        {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    timeout.span,
                    format!("a hook `timeout` of {ms} milliseconds"),
                )
                .with_severity(Severity::Warning)
                .with_help(format!(
                    "Gemini CLI counts a hook's `timeout` in milliseconds and stops the hook \
                     after it; for {ms} seconds write {}",
                    ms * 1000.0
                )),
            );
        }
    }
}

/// A number node's value (or a number written as a string).
fn number(node: &Node) -> Option<f64> {
    match &node.value {
        Value::Int(n) => Some(*n as f64),
        Value::UInt(n) => Some(*n as f64),
        Value::Float(n) => Some(*n),
        Value::Str(text) => text.trim().parse().ok(),
        _ => None,
    }
}

/// An event Gemini CLI does not have: it skips its hooks, with a warning.
fn unknown_event(source: &Source, event: &str, span: Span) -> Diagnostic {
    let diagnostic = Diagnostic::at(
        Code::UnknownHookEvent,
        &source.path,
        span,
        format!("`{event}` is not a Gemini CLI hook event"),
    )
    .with_severity(Severity::Warning);
    let Some(close) = did_you_mean(event, EVENTS.iter().copied()) else {
        return diagnostic.with_help(format!(
            "Gemini CLI 0.61.0 skips its hooks (\"Invalid hook event name\"); its events are {}",
            EVENTS.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", ")
        ));
    };
    let diagnostic = diagnostic.with_help(format!(
        "did you mean `{close}`? Gemini CLI 0.61.0 skips hooks under another name (\"Invalid hook \
         event name\"); names are case-sensitive"
    ));
    match confident(event, EVENTS.iter().copied()) {
        Some(fix) => diagnostic.with_fix(
            format!("rename the event to `{fix}`"),
            &source.path,
            key_text(source, span, event),
            fix,
        ),
        None => diagnostic,
    }
}

#[cfg(test)]
mod tests {
    use super::{SCHEMA, nested};

    #[test]
    fn the_schema_is_read() {
        let categories = SCHEMA.get("p").and_then(|p| p.as_object()).map_or(0, |p| p.len());
        assert!(categories > 20, "{categories}");
        assert_eq!(nested("vimMode").as_deref(), Some("general.vimMode"));
        assert_eq!(nested("nothing-like-it"), None);
    }
}
