//! Cursor's project hooks, `.cursor/hooks.json`. Cursor is closed source and
//! no Cursor binary runs here: the shape, the event names and where the
//! commands run are those of its hooks documentation
//! (cursor.com/docs/agent/hooks, read 2026-12-05; `docs/formats.md`,
//! "Cursor hooks, environment and CLI permissions"). What Cursor does with a
//! file or a hook it cannot use is not published, so every rule here is a
//! warning. Whether a script a command runs is there is asked of the file
//! system by `check::cursor`, from [`script_path`].

use agentc_schema::cursor_files::{CURSOR_HOOK_EVENTS, CursorHook, CursorHooksFile};
use agentc_schema::{Span, Spanned};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Document, Reading, Syntax, decode_text};
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// The hook types Cursor documents.
const TYPES: &[&str] = &["command", "prompt"];

/// The events whose hooks may send a follow-up message, bounded by
/// `loop_limit`.
const LOOPING: &[&str] = &["stop", "subagentStop"];

/// Claude Code's event names, and Cursor's for the same moment.
const CLAUDE_EVENTS: &[(&str, &str)] = &[
    ("PreToolUse", "preToolUse"),
    ("PostToolUse", "postToolUse"),
    ("PostToolUseFailure", "postToolUseFailure"),
    ("SessionStart", "sessionStart"),
    ("SessionEnd", "sessionEnd"),
    ("SubagentStart", "subagentStart"),
    ("SubagentStop", "subagentStop"),
    ("PreCompact", "preCompact"),
    ("Stop", "stop"),
    ("UserPromptSubmit", "beforeSubmitPrompt"),
];

/// Why a rule here is a warning.
const UNCONFIRMED: &str = "Cursor publishes no validator, and no Cursor binary was run to see \
    what it does with this";

/// The file, read as JSON with comments; every finding a warning.
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<CursorHooksFile>> {
    let start = out.len();
    let reading = Reading { syntax: Syntax::Jsonc, unknown: Severity::Warning, ..Reading::JSON };
    let doc = decode_text::<CursorHooksFile>(source, &source.text, 0, reading, out);
    super::warnings_only(&mut out[start..]);
    super::unknown_keys(&mut out[start..]);
    let doc = doc?;
    check(source, &doc, out);
    Some(doc)
}

/// The checks of the file that need nothing but the file.
fn check(source: &Source, doc: &Document<CursorHooksFile>, out: &mut Vec<Diagnostic>) {
    let file = &doc.value;
    let path = &source.path;
    match &file.version {
        None if !doc.recovered("version") => out.push(
            Diagnostic::at(
                Code::MissingField,
                path,
                Span::new(doc.tree.span.start, doc.tree.span.start + 1),
                "a Cursor hooks file has no `version`",
            )
            .with_severity(Severity::Warning)
            .with_help(format!(
                "add `\"version\": 1`, as every example of Cursor's hooks documentation has it; \
                 {UNCONFIRMED}"
            )),
        ),
        Some(version) if version.value != 1 => out.push(
            Diagnostic::at(
                Code::InvalidValue,
                path,
                version.span,
                format!("Cursor's hooks files have version 1, not {}", version.value),
            )
            .with_severity(Severity::Warning)
            .with_help("write `\"version\": 1`, the only version Cursor documents"),
        ),
        _ => {}
    }
    for (event, entries) in &file.hooks {
        let name = event.value.as_str();
        if !CURSOR_HOOK_EVENTS.contains(&name) {
            out.push(unknown_event(source, event));
        }
        for entry in entries {
            hook(source, name, entry, out);
        }
    }
}

/// An event Cursor does not have: its hooks never run.
fn unknown_event(source: &Source, event: &Spanned<String>) -> Diagnostic {
    let name = event.value.as_str();
    let diagnostic = Diagnostic::at(
        Code::UnknownHookEvent,
        &source.path,
        event.span,
        format!("`{name}` is not a Cursor hook event"),
    )
    .with_severity(Severity::Warning);
    let claude =
        CLAUDE_EVENTS.iter().find(|(claude, _)| *claude == name).map(|(_, cursor)| *cursor);
    let same_case = CURSOR_HOOK_EVENTS.iter().copied().find(|e| e.eq_ignore_ascii_case(name));
    let fix = claude.or(same_case).or_else(|| confident(name, CURSOR_HOOK_EVENTS.iter().copied()));
    let near = fix.or_else(|| did_you_mean(name, CURSOR_HOOK_EVENTS.iter().copied()));
    let Some(near) = near else {
        return diagnostic.with_help(format!(
            "Cursor runs no hook under an event it does not have; its events are {}",
            CURSOR_HOOK_EVENTS.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", ")
        ));
    };
    let why = match claude {
        Some(_) => {
            "this is Claude Code's name; Cursor's events are camelCase, and Cursor runs \
                    no hook under an event it does not have"
        }
        None => {
            "event names are case-sensitive, and Cursor runs no hook under an event it does \
                 not have"
        }
    };
    let diagnostic = diagnostic.with_help(format!("did you mean `{near}`? {why}"));
    match fix {
        Some(fix) => diagnostic.with_fix(
            format!("rename the event to `{fix}`"),
            &source.path,
            event.verbatim(0..name.len()),
            fix,
        ),
        None => diagnostic,
    }
}

/// One hook of an event.
fn hook(source: &Source, event: &str, entry: &Spanned<CursorHook>, out: &mut Vec<Diagnostic>) {
    let path = &source.path;
    let hook = &entry.value;
    let warn = |span: Span, code: Code, message: String, help: String| {
        Diagnostic::at(code, path, span, message).with_severity(Severity::Warning).with_help(help)
    };
    if hook.hooks.is_some() && hook.command.is_none() && hook.prompt.is_none() {
        out.push(warn(
            entry.span,
            Code::InvalidValue,
            "a Claude Code matcher group in a Cursor hooks file".to_owned(),
            "Cursor's hooks are flat: write each hook as `{\"command\": \"…\", \"matcher\": \
             \"…\"}` directly under its event, not nested in `hooks`"
                .to_owned(),
        ));
        return;
    }
    let kind = hook.kind.as_ref().map_or("command", |k| k.value.as_str());
    if let Some(written) = hook.kind.as_ref().filter(|_| !TYPES.contains(&kind)) {
        let mut diagnostic = warn(
            written.span,
            Code::InvalidValue,
            format!("`{kind}` is not a Cursor hook type"),
            "the types are `command` (the default) and `prompt`".to_owned(),
        );
        if let Some(fix) = confident(kind, TYPES.iter().copied()) {
            diagnostic = diagnostic.with_fix(
                format!("write `{fix}`"),
                path,
                written.verbatim(0..kind.len()),
                fix,
            );
        }
        out.push(diagnostic);
        return;
    }
    let (field, value) = match kind {
        "prompt" => ("prompt", &hook.prompt),
        _ => ("command", &hook.command),
    };
    match value {
        None => out.push(warn(
            entry.span,
            Code::MissingField,
            format!("a {kind} hook needs `{field}`"),
            format!("add the {field} to run; without it the hook does nothing"),
        )),
        Some(text) if text.value.trim().is_empty() => out.push(warn(
            text.span,
            Code::InvalidValue,
            format!("this hook's `{field}` is empty"),
            format!("write the {field}; an empty one does nothing"),
        )),
        Some(_) => {}
    }
    if let Some(timeout) = hook.timeout.as_ref().filter(|t| t.value <= 0.0) {
        out.push(warn(
            timeout.span,
            Code::InvalidValue,
            "a hook's `timeout` is a number of seconds above 0".to_owned(),
            "write the seconds the hook needs, or leave `timeout` out for Cursor's default"
                .to_owned(),
        ));
    }
    if let Some(matcher) = &hook.matcher {
        matcher_regex(source, matcher, out);
    }
    if let Some(limit) = hook.loop_limit.as_ref().filter(|_| !LOOPING.contains(&event)) {
        out.push(warn(
            limit.span,
            Code::InvalidValue,
            format!("`loop_limit` on a `{event}` hook"),
            "Cursor bounds with `loop_limit` the follow-up messages of `stop` and \
             `subagentStop` hooks only; remove it here"
                .to_owned(),
        ));
    }
}

/// A matcher that is no regular expression. One written with what only
/// JavaScript's expressions have (look-around, back-references) is taken.
fn matcher_regex(source: &Source, matcher: &Spanned<String>, out: &mut Vec<Diagnostic>) {
    let text = matcher.value.as_str();
    if matches!(text, "" | "*") {
        return;
    }
    let Err(err) = regex::Regex::new(text) else { return };
    let reason = err.to_string();
    let reason = reason.lines().last().unwrap_or_default().trim();
    if reason.contains("not supported") {
        return;
    }
    let reason = reason.strip_prefix("error: ").unwrap_or(reason).to_owned();
    out.push(
        Diagnostic::at(
            Code::InvalidValue,
            &source.path,
            matcher.span,
            format!("`{text}` is not a regular expression: {reason}"),
        )
        .with_severity(Severity::Warning)
        .with_help("Cursor's matchers are regular expressions, e.g. `Shell|Write`"),
    );
}

/// The script a command runs from the project's top, where Cursor runs a
/// project's hooks: the first word that names a script file by a relative
/// path (`.cursor/hooks/format.sh`, `./scripts/check.py`,
/// `node hooks/audit.mjs`), or a path after `$CURSOR_PROJECT_DIR/` or
/// `$(git rev-parse --show-toplevel)/`; with where it is written.
pub fn script_path(command: &Spanned<String>) -> Option<(String, Span)> {
    const TOPS: &[&str] = &[
        "$(git rev-parse --show-toplevel)/",
        "${CURSOR_PROJECT_DIR}/",
        "$CURSOR_PROJECT_DIR/",
        // Quoted: the word's opening quote is trimmed before these are tried.
        "$CURSOR_PROJECT_DIR\"/",
        "${CURSOR_PROJECT_DIR}\"/",
    ];
    const SCRIPTS: &[&str] =
        &[".sh", ".bash", ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".pl", ".ps1"];
    let text = command.value.as_str();
    let at_span = |from: usize, to: usize| match command.text_at {
        Some(base) => Span::new(base + from, base + to),
        None => command.span,
    };
    let mut offset = 0;
    for word in text.split(' ') {
        let at = offset;
        offset += word.len() + 1;
        let trimmed = word.trim_matches(|c| c == '"' || c == '\'');
        let lead = word.len() - word.trim_start_matches(['"', '\'']).len();
        let (path, skip) = match TOPS.iter().find_map(|top| trimmed.strip_prefix(top)) {
            Some(rest) => (rest, trimmed.len() - rest.len()),
            None => (trimmed, 0),
        };
        let scripted = SCRIPTS.iter().any(|ext| path.ends_with(ext));
        let relative = skip > 0 || !(path.starts_with('/') || path.starts_with('~'));
        if !scripted || !relative || path.contains(['$', '*', '`', '=', ':']) || path.is_empty() {
            continue;
        }
        let from = at + lead + skip;
        let clean = path.strip_prefix("./").unwrap_or(path).to_owned();
        return Some((clean, at_span(from, from + path.len())));
    }
    None
}

#[cfg(test)]
mod tests {
    use agentc_schema::{Span, Spanned};

    use super::script_path;

    fn command(text: &str) -> Spanned<String> {
        Spanned { value: text.to_owned(), span: Span::new(0, text.len()), text_at: Some(0) }
    }

    #[test]
    fn scripts_are_found_in_commands() {
        fn found(t: &str) -> Option<(String, &str)> {
            script_path(&command(t)).map(|(p, s)| (p, &t[s.start..s.end]))
        }
        assert_eq!(
            found("node .cursor/hooks/audit.mjs"),
            Some((".cursor/hooks/audit.mjs".to_owned(), ".cursor/hooks/audit.mjs"))
        );
        assert_eq!(
            found("./hooks/format.sh --fast"),
            Some(("hooks/format.sh".to_owned(), "./hooks/format.sh"))
        );
        assert_eq!(
            found("bash \"$CURSOR_PROJECT_DIR\"/scripts/x.sh"),
            Some(("scripts/x.sh".to_owned(), "scripts/x.sh"))
        );
        assert_eq!(
            found("bin/run-hook.sh validate").map(|(p, _)| p).as_deref(),
            Some("bin/run-hook.sh")
        );
        assert_eq!(found("echo hello"), None);
        assert_eq!(found("/usr/local/bin/x.sh"), None);
        assert_eq!(found("node ~/.cursor/hooks/x.js"), None);
        assert_eq!(found("node ${CURSOR_PLUGIN_ROOT}/x.js"), None);
    }
}
