//! Codex's hooks, `.codex/hooks.json` beside the project's configuration,
//! as Codex 0.171.0 loads them (read off its app-server's `hooks/list`,
//! `docs/formats.md`, "Codex hooks"). A file Codex cannot deserialize is
//! skipped whole, with a warning in its log: an error. A hook it skips (an
//! event it does not have, a matcher that is no regular expression, a
//! `prompt` or `agent` hook, an empty command) is a warning.

use std::collections::BTreeMap;

use agentc_schema::codex_config::{CodexHookGroup, CodexHooksFile};
use agentc_schema::{Span, Spanned};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Document, Reading, Syntax, decode_node, decode_text};
use crate::parse::tree::{Node, Value};
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// The events Codex 0.171.0 runs hooks on; it silently drops any other.
pub const EVENTS: &[&str] = &[
    "PreModelRequest",
    "PostModelRequest",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "Interrupt",
];

/// The events whose matcher Codex drops: their hooks run whatever it says.
const NO_MATCHER: &[&str] =
    &["PreModelRequest", "PostModelRequest", "UserPromptSubmit", "Stop", "Interrupt"];

/// Why a problem that skips the file is an error.
const SKIPPED: &str = "Codex 0.171.0 skips the whole file (\"failed to parse hooks config\"), \
    and none of its hooks run";

/// The file, read as Codex reads it: a key beside `description` and
/// `hooks` skips it whole; a hook's fields Codex does not know it ignores.
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<CodexHooksFile>> {
    let start = out.len();
    let reading = Reading { unknown: Severity::Warning, ..Reading::JSON };
    let doc = decode_text::<CodexHooksFile>(source, &source.text, 0, reading, out);
    // A key beside `description` and `hooks` is refused, not ignored.
    let top: Vec<Span> = match doc.as_ref().map(|d| &d.tree.value) {
        Some(Value::Map(entries)) => entries.iter().map(|e| e.key_span).collect(),
        _ => Vec::new(),
    };
    for diagnostic in &mut out[start..] {
        if diagnostic.code == Code::UnknownField
            && diagnostic.location.span.is_some_and(|span| top.contains(&span))
        {
            diagnostic.severity = Severity::Error;
            diagnostic.help = Some(format!(
                "the file holds `hooks` (and an optional `description`) only; {SKIPPED}"
            ));
        }
    }
    let doc = doc?;
    check(source, &doc.value, SKIPPED, out);
    Some(doc)
}

/// Why a problem in `config.toml`'s `[hooks]` is an error.
const REFUSED: &str = "Codex 0.171.0 refuses the whole configuration and does not start \
    (\"failed to load bootstrap configuration\")";

/// `[hooks]` in `.codex/config.toml`: the shape of `hooks.json`'s `hooks`
/// (`[[hooks.<Event>]]`, `[[hooks.<Event>.hooks]]`), which Codex 0.171.0
/// loads beside `hooks.json`. A known event's hooks that do not deserialize
/// stop Codex; a key that is no event (`description` aside) it drops
/// silently, whatever its value.
pub fn in_config(source: &Source, node: &Node, out: &mut Vec<Diagnostic>) {
    let Value::Map(entries) = &node.value else {
        return;
    };
    let reading = Reading { syntax: Syntax::Toml, unknown: Severity::Warning, ..Reading::JSON };
    let mut hooks = BTreeMap::new();
    for entry in entries {
        let event = Spanned {
            value: entry.key.clone(),
            span: entry.key_span,
            text_at: Some(entry.key_span.start),
        };
        if entry.key == "description" {
            continue;
        }
        if !EVENTS.contains(&entry.key.as_str()) {
            out.push(unknown_event(source, &event));
            continue;
        }
        let start = out.len();
        let groups = decode_node::<Vec<CodexHookGroup>>(source, &entry.value, reading, out);
        let mut refused = false;
        for diagnostic in out[start..].iter_mut().filter(|d| d.severity == Severity::Error) {
            refused = true;
            diagnostic.help = Some(match &diagnostic.help {
                Some(help) => format!("{help}; {REFUSED}"),
                None => format!("fix the value; {REFUSED}"),
            });
        }
        // What did not deserialize is reported once, not checked again.
        if let Some(groups) = groups.filter(|_| !refused) {
            hooks.insert(event, groups);
        }
    }
    check(source, &CodexHooksFile { description: None, hooks }, REFUSED, out);
}

/// Each event's hooks; `refused` says what Codex does with the file when a
/// hook does not deserialize.
pub fn check(source: &Source, file: &CodexHooksFile, refused: &str, out: &mut Vec<Diagnostic>) {
    let path = &source.path;
    for (event, groups) in &file.hooks {
        let name = event.value.as_str();
        if !EVENTS.contains(&name) {
            out.push(unknown_event(source, event));
            continue;
        }
        for group in groups {
            if let Some(matcher) = &group.matcher {
                if NO_MATCHER.contains(&name) && !matches!(matcher.value.as_str(), "" | "*") {
                    out.push(
                        Diagnostic::at(
                            Code::InvalidValue,
                            path,
                            matcher.span,
                            format!("Codex ignores the matcher of `{name}` hooks"),
                        )
                        .with_severity(Severity::Warning)
                        .with_help(
                            "the hooks run on every such event whatever the matcher says; \
                             remove it, or filter inside the hook",
                        ),
                    );
                } else if !matches!(matcher.value.as_str(), "" | "*")
                    && let Err(err) = regex::Regex::new(&matcher.value)
                {
                    let reason = err.to_string();
                    let reason = reason.lines().last().unwrap_or_default().trim();
                    let reason = reason.strip_prefix("error: ").unwrap_or(reason).to_owned();
                    out.push(
                        Diagnostic::at(
                            Code::InvalidValue,
                            path,
                            matcher.span,
                            format!("`{}` is not a regular expression: {reason}", matcher.value),
                        )
                        .with_severity(Severity::Warning)
                        .with_help(
                            "Codex skips this group's hooks (\"invalid matcher\"); escape the \
                             character or close the group, e.g. `Bash|Edit`",
                        ),
                    );
                }
            }
            for hook in &group.hooks {
                self::hook(source, name, hook, refused, out);
            }
        }
    }
}

/// One hook: its type, and what that type needs.
fn hook(
    source: &Source,
    event: &str,
    hook: &Spanned<agentc_schema::codex_config::CodexHook>,
    refused: &str,
    out: &mut Vec<Diagnostic>,
) {
    let path = &source.path;
    let value = &hook.value;
    let kind = value.kind.value.as_str();
    // No `type` (reported where the hook was decoded): the placeholder the
    // decoding stepped around it with has an empty span.
    let kind = if value.kind.span.start == value.kind.span.end { "" } else { kind };
    match kind {
        "" => {}
        "command" => match &value.command {
            None => out.push(
                Diagnostic::at(
                    Code::MissingField,
                    path,
                    hook.span,
                    "a command hook needs `command`",
                )
                .with_help(format!("add the command to run; {refused}")),
            ),
            Some(command) if command.value.trim().is_empty() => out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    path,
                    command.span,
                    "this hook's command is empty",
                )
                .with_severity(Severity::Warning)
                .with_help("Codex skips it (\"skipping empty hook command\"); write the command"),
            ),
            Some(command) => {
                if !crate::shell::downloads_and_runs(&command.value).is_empty() {
                    out.push(crate::shell::at(source, command.span, "this hook's command"));
                }
            }
        },
        "mcp_tool" => {
            for (field, present) in
                [("server", value.server.is_some()), ("tool", value.tool.is_some())]
            {
                if !present {
                    out.push(
                        Diagnostic::at(
                            Code::MissingField,
                            path,
                            hook.span,
                            format!("an `mcp_tool` hook needs `{field}`"),
                        )
                        .with_help(format!("name the MCP server and its tool; {refused}")),
                    );
                }
            }
        }
        "prompt" | "agent" => out.push(
            Diagnostic::at(
                Code::InvalidValue,
                path,
                value.kind.span,
                format!("Codex 0.171.0 does not run `{kind}` hooks"),
            )
            .with_severity(Severity::Warning)
            .with_help(format!(
                "it skips the hook (\"{kind} hooks are not supported yet\"); write a `command` \
                 hook, or keep this one for Claude Code's `.claude/settings.json`"
            )),
        ),
        other => {
            let types = ["command", "mcp_tool", "prompt", "agent"];
            let mut diagnostic = Diagnostic::at(
                Code::InvalidValue,
                path,
                value.kind.span,
                format!("`{other}` is not a hook type Codex has"),
            )
            .with_help(format!("the types are `command` and `mcp_tool`; {refused}"));
            if let Some(fix) = confident(other, types.iter().copied()) {
                diagnostic = diagnostic.with_fix(
                    format!("write `{fix}`"),
                    path,
                    value.kind.verbatim(0..other.len()),
                    fix,
                );
            }
            out.push(diagnostic);
        }
    }
    if let Some(timeout) = &value.timeout {
        let seconds = timeout.value;
        if seconds < 0.0 || seconds.fract() != 0.0 {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    path,
                    timeout.span,
                    "a hook's `timeout` is a whole number of seconds",
                )
                .with_help(format!("write e.g. `30`; {refused}")),
            );
        } else if seconds == 0.0 {
            out.push(
                Diagnostic::at(Code::InvalidValue, path, timeout.span, "a `timeout` of 0 seconds")
                    .with_severity(Severity::Warning)
                    .with_help(
                        "Codex gives the hook 1 second instead, which few commands finish in; \
                         leave `timeout` out for the default (600) or write the seconds it needs",
                    ),
            );
        }
    }
    if value.run_async == Some(true) && event == "SessionEnd" {
        out.push(
            Diagnostic::at(Code::InvalidValue, path, hook.span, "an `async` `SessionEnd` hook")
                .with_severity(Severity::Warning)
                .with_help(
                    "Codex runs it synchronously all the same (\"running async SessionEnd hook \
                     synchronously\"); remove `async`",
                ),
        );
    }
}

/// An event Codex does not have: its hooks never run, without a word.
pub(super) fn unknown_event(source: &Source, event: &Spanned<String>) -> Diagnostic {
    let name = event.value.as_str();
    let diagnostic = Diagnostic::at(
        Code::UnknownHookEvent,
        &source.path,
        event.span,
        format!("`{name}` is not a Codex hook event"),
    )
    .with_severity(Severity::Warning);
    let Some(close) = did_you_mean(name, EVENTS.iter().copied()) else {
        return diagnostic.with_help(format!(
            "Codex 0.171.0 silently drops hooks under an event it does not have; its events are \
             {}",
            EVENTS.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", ")
        ));
    };
    let diagnostic = diagnostic.with_help(format!(
        "did you mean `{close}`? event names are case-sensitive, and Codex silently drops hooks \
         under another name"
    ));
    match confident(name, EVENTS.iter().copied()) {
        Some(fix) => diagnostic.with_fix(
            format!("rename the event to `{fix}`"),
            &source.path,
            event.verbatim(0..name.len()),
            fix,
        ),
        None => diagnostic,
    }
}

/// The script a command runs from the repository, relative to its top:
/// `python3 .codex/hooks/check.py`, `./scripts/hook.sh`, or
/// `"$(git rev-parse --show-toplevel)/.codex/hooks/x.sh"`. Codex runs a
/// hook in the session's folder, the repository's top when started there.
pub fn script_path(command: &Spanned<String>) -> Option<(String, Span)> {
    const TOP: &str = "$(git rev-parse --show-toplevel)/";
    let text = command.value.as_str();
    let at_span = |from: usize, to: usize| match command.text_at {
        Some(base) => Span::new(base + from, base + to),
        None => command.span,
    };
    if let Some(found) = text.find(TOP) {
        let from = found + TOP.len();
        let len = text[from..].find(['"', '\'', ' ', ';', '&', '|']).unwrap_or(text.len() - from);
        let path = &text[from..from + len];
        if path.is_empty() || path.contains(['$', '*', '`']) {
            return None;
        }
        return Some((path.to_owned(), at_span(from, from + len)));
    }
    let mut offset = 0;
    for word in text.split(' ') {
        let at = offset;
        offset += word.len() + 1;
        let path = word.trim_matches(|c| c == '"' || c == '\'');
        let scripted = [".sh", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".bash"]
            .iter()
            .any(|ext| path.ends_with(ext));
        let relative = path.starts_with("./") || path.starts_with(".codex/");
        if !(scripted && relative) || path.contains(['$', '*', '`']) {
            continue;
        }
        let path = path.strip_prefix("./").unwrap_or(path).to_owned();
        return Some((path, at_span(at, at + word.len())));
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
        let found = |t: &str| script_path(&command(t)).map(|(p, _)| p);
        assert_eq!(
            found("python3 .codex/hooks/check.py --fast").as_deref(),
            Some(".codex/hooks/check.py")
        );
        assert_eq!(found("./scripts/guard.sh").as_deref(), Some("scripts/guard.sh"));
        assert_eq!(
            found("\"$(git rev-parse --show-toplevel)/.codex/hooks/x.sh\"").as_deref(),
            Some(".codex/hooks/x.sh")
        );
        assert_eq!(found("echo hello"), None);
        assert_eq!(found("/usr/local/bin/x.sh"), None);
        assert_eq!(found("node $HOME/x.js"), None);
    }
}
