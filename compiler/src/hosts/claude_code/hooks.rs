//! Claude Code's hooks, wherever they are written (a plugin's
//! `hooks/hooks.json`, `plugin.json`, `.claude/settings.json`): event names
//! from Claude Code's list, what each hook type needs, and the tools a
//! matcher names. Whether a hook's script exists is asked of the file system
//! by `check::config`, from [`script_path`].

use agentc_schema::assistant::{CLAUDE_RENAMED_TOOLS, CLAUDE_TOOLS};
use agentc_schema::hooks::{GUARD_EVENTS, HOOK_EVENTS, Hooks, TOOL_EVENTS};
use agentc_schema::{HookType, Spanned};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// The events whose hooks may filter with `if`: on any other, Claude Code
/// never runs a hook that has one (seen with a `SessionStart` hook).
const IF_EVENTS: &[&str] =
    &["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"];

/// The events that have nothing to match: Claude Code runs their hooks
/// whatever the matcher (`docs/research/claude-config.md` §3.4).
const MATCHER_IGNORED: &[&str] = &[
    "UserPromptSubmit",
    "Stop",
    "PostToolBatch",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "WorktreeCreate",
    "WorktreeRemove",
    "CwdChanged",
    "MessageDisplay",
];

/// The checks of one file's hooks that need nothing but the file.
pub fn check(source: &Source, hooks: &Hooks, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    for (event, matchers) in hooks {
        if !HOOK_EVENTS.contains(&event.value.as_str()) {
            out.push(unknown_event(source, event));
            continue;
        }
        for group in matchers {
            if let Some(matcher) = &group.matcher
                && TOOL_EVENTS.contains(&event.value.as_str())
            {
                matcher_tools(source, matcher, out);
            }
            // Under a guard event, an entry Claude Code cannot load keeps
            // the whole plugin, subagent or skill from loading; elsewhere
            // the entry alone is skipped.
            let (severity, skipped) = match GUARD_EVENTS.contains(&event.value.as_str()) {
                true => (
                    Severity::Error,
                    "under a guard event, Claude Code then loads nothing of the plugin, subagent \
                     or skill holding it",
                ),
                false => (Severity::Warning, "Claude Code skips the hook"),
            };
            if let Some(matcher) = &group.matcher
                && !matches!(matcher.value.as_str(), "" | "*")
                && MATCHER_IGNORED.contains(&event.value.as_str())
            {
                out.push(
                    Diagnostic::at(
                        Code::InvalidValue,
                        file,
                        matcher.span,
                        format!("Claude Code ignores the matcher of `{}` hooks", event.value),
                    )
                    .with_severity(Severity::Warning)
                    .with_help(
                        "these hooks run every time the event fires, whatever the matcher says: \
                         remove it, or check the condition in the hook itself",
                    ),
                );
            }
            for hook in &group.hooks {
                let value = &hook.value;
                if let Some(command) = &value.command {
                    out.extend(crate::shell::diagnostics(source, command, "this hook"));
                }
                if let Some(condition) = &value.condition
                    && !IF_EVENTS.contains(&event.value.as_str())
                {
                    out.push(
                        Diagnostic::at(
                            Code::InvalidValue,
                            file,
                            condition.span,
                            format!("a hook with `if` under `{}` never runs", event.value),
                        )
                        .with_severity(Severity::Warning)
                        .with_help(
                            "Claude Code 2.1.332 evaluates `if` only on tool events (`PreToolUse`, \
                             `PostToolUse`, `PostToolUseFailure`, `PermissionRequest`, \
                             `PermissionDenied`) and never runs such a hook elsewhere: remove `if`",
                        ),
                    );
                }
                if let Some(timeout) = &value.timeout
                    && timeout.value <= 0.0
                {
                    out.push(
                        Diagnostic::at(
                            Code::InvalidValue,
                            file,
                            timeout.span,
                            format!("a hook's `timeout` must be above 0, not {}", timeout.value),
                        )
                        .with_severity(severity)
                        .with_help(format!(
                            "give the seconds to wait, or leave `timeout` out for the default; \
                             otherwise {skipped}"
                        )),
                    );
                }
                let Some(kind) = value.hook_type() else {
                    out.push(unknown_type(source, &value.kind, severity, skipped));
                    continue;
                };
                let needs: &[(&str, bool)] = match kind {
                    HookType::Command => &[("command", value.command.is_some())],
                    HookType::Prompt | HookType::Agent => &[("prompt", value.prompt.is_some())],
                    HookType::Http => &[("url", value.url.is_some())],
                    HookType::McpTool => {
                        &[("server", value.server.is_some()), ("tool", value.tool.is_some())]
                    }
                };
                for (needs, _) in needs.iter().filter(|(_, present)| !present) {
                    out.push(
                        Diagnostic::at(
                            Code::MissingField,
                            file,
                            value.kind.span,
                            format!("a `{}` hook needs `{needs}`", kind.name()),
                        )
                        .with_severity(severity)
                        .with_help(format!("add `\"{needs}\"`; without it {skipped}")),
                    );
                }
            }
        }
    }
}

/// A hook type Claude Code does not have.
fn unknown_type(
    source: &Source,
    kind: &Spanned<agentc_schema::Text>,
    severity: Severity,
    skipped: &str,
) -> Diagnostic {
    let name = kind.value.as_str();
    let types: Vec<&str> = HookType::ALL.iter().map(|t| t.name()).collect();
    let diagnostic = Diagnostic::at(
        Code::InvalidValue,
        &source.path,
        kind.span,
        format!("`{name}` is not a Claude Code hook type"),
    )
    .with_severity(severity);
    let entry = Spanned { value: name.to_owned(), span: kind.span, text_at: kind.text_at };
    super::super::near_miss(
        diagnostic,
        &source.path,
        &entry,
        name,
        &types,
        &format!("without a type Claude Code has, {skipped}"),
        &format!(
            "the types are `command`, `prompt`, `agent`, `http` and `mcp_tool`; without one \
             of them, {skipped}"
        ),
    )
}

/// An event Claude Code does not have: its hooks never run.
fn unknown_event(source: &Source, event: &Spanned<String>) -> Diagnostic {
    let file = &source.path;
    let name = event.value.as_str();
    let diagnostic = Diagnostic::at(
        Code::UnknownHookEvent,
        file,
        event.span,
        format!("`{name}` is not a Claude Code hook event"),
    );
    let Some(close) = did_you_mean(name, HOOK_EVENTS.iter().copied()) else {
        return diagnostic.with_help(
            "Claude Code skips hooks under an event it does not have (with a warning in its \
             log); if a newer Claude Code has this event, ignore this — the events agentc \
             knows are listed by `agentc explain unknown-hook-event`",
        );
    };
    let diagnostic = diagnostic.with_help(format!(
        "did you mean `{close}`? event names are case-sensitive, and Claude Code skips hooks \
         under another name"
    ));
    match confident(name, HOOK_EVENTS.iter().copied()) {
        Some(fix) => diagnostic.with_severity(Severity::Error).with_fix(
            format!("rename the event to `{fix}`"),
            file,
            event.verbatim(0..name.len()),
            fix,
        ),
        None => diagnostic,
    }
}

/// The plain tool names in a tool event's matcher (`Edit|Write`): one that
/// is no Claude Code tool never matches. A regular expression (`Notebook.*`)
/// or an MCP tool is taken as written.
fn matcher_tools(source: &Source, matcher: &Spanned<String>, out: &mut Vec<Diagnostic>) {
    let text = matcher.value.as_str();
    // Claude Code's test for a list of names; anything else is a regular
    // expression, taken as written.
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '|' | ',' | ' ' | '-');
    if text.is_empty() || text == "*" || !text.chars().all(plain) {
        return;
    }
    let mut at = 0;
    for piece in text.split(['|', ',']) {
        let lead = piece.len() - piece.trim_start().len();
        let name = piece.trim();
        let start = at + lead;
        at += piece.len() + 1;
        if name.is_empty() || name.starts_with("mcp__") || CLAUDE_TOOLS.contains(&name) {
            continue;
        }
        let span = matcher.token_span(start..start + name.len());
        if let Some((_, new)) = CLAUDE_RENAMED_TOOLS.iter().find(|(old, _)| *old == name) {
            out.push(
                Diagnostic::at(
                    Code::Deprecated,
                    &source.path,
                    span,
                    format!("Claude Code renamed the tool `{name}` to `{new}`"),
                )
                .with_help(format!(
                    "the matcher no longer matches `{name}`; `{new}` is what runs now"
                )),
            );
            continue;
        }
        let diagnostic = Diagnostic::at(
            Code::UnknownTool,
            &source.path,
            span,
            format!("the matcher names `{name}`, which is not a Claude Code tool"),
        )
        .with_severity(Severity::Warning);
        let entry = matcher.token(start..start + name.len());
        out.push(super::super::near_miss(
            diagnostic,
            &source.path,
            &entry,
            name,
            CLAUDE_TOOLS,
            "a matcher matches tool names exactly, case and all",
            "a matcher that names no tool never runs its hooks; name built-in tools \
             (`Edit|Write`), MCP tools (`mcp__github__.*`), or `*` for every tool",
        ));
    }
}

/// Where a command hook's script is, when the command names one through
/// `${CLAUDE_PLUGIN_ROOT}` (a path in the plugin's folder) or
/// `$CLAUDE_PROJECT_DIR` (a path in the project): the base, the path after it,
/// and where that is written in the command.
pub fn script_path(
    command: &Spanned<agentc_schema::Text>,
) -> Option<(Base, String, agentc_schema::Span)> {
    let text = command.value.as_str();
    for (variable, base) in [
        ("${CLAUDE_PLUGIN_ROOT}", Base::Plugin),
        ("$CLAUDE_PLUGIN_ROOT", Base::Plugin),
        ("${CLAUDE_PROJECT_DIR}", Base::Project),
        ("$CLAUDE_PROJECT_DIR", Base::Project),
    ] {
        let Some(at) = text.find(variable) else {
            continue;
        };
        let mut rest = &text[at + variable.len()..];
        // `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`: the quote closes first.
        let mut start = at + variable.len();
        if let Some(stripped) = rest.strip_prefix('"') {
            rest = stripped;
            start += 1;
        }
        let Some(path) = rest.strip_prefix('/') else {
            continue;
        };
        let end = path
            .find(|c: char| {
                c.is_whitespace()
                    || matches!(c, '"' | '\'' | ';' | '&' | '|' | '<' | '>' | '$' | '`' | '*' | '?')
            })
            .unwrap_or(path.len());
        let path = &path[..end];
        if path.is_empty() {
            continue;
        }
        let from = start + 1;
        return Some((base, path.to_owned(), command.token_span(from..from + path.len())));
    }
    None
}

/// What a hook's script path is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    Plugin,
    Project,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(command: &str) -> Option<(Base, String)> {
        let spanned = Spanned::new(agentc_schema::Text(command.to_owned()), Default::default());
        script_path(&spanned).map(|(base, path, _)| (base, path))
    }

    #[test]
    fn scripts_are_found_after_the_root_variables() {
        assert_eq!(
            script("${CLAUDE_PLUGIN_ROOT}/hooks/format.sh --fast"),
            Some((Base::Plugin, "hooks/format.sh".into()))
        );
        assert_eq!(
            script("python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.py"),
            Some((Base::Project, ".claude/hooks/check.py".into()))
        );
        assert_eq!(
            script("bash ${CLAUDE_PLUGIN_ROOT}/scripts/run.sh;echo"),
            Some((Base::Plugin, "scripts/run.sh".into()))
        );
        assert_eq!(script("npx prettier --write"), None);
        assert_eq!(
            script("${CLAUDE_PLUGIN_ROOT}/scripts/*.sh"),
            Some((Base::Plugin, "scripts/".into()))
        );
    }
}
