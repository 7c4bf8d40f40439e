//! GitHub Copilot's hooks files (`.github/hooks/**/*.json`): the rules of
//! one file, as the Copilot CLI 1.0.102 loads it. Each was seen in its log
//! (`--log-level all`) with the file in a trusted project (`docs/formats.md`,
//! "Copilot hooks"): what drops the whole file, what skips one hook, and
//! what it ignores. Whether a script a hook runs is there is asked of the
//! file system by `check::copilot_hooks`, from [`script_path`].

use agentc_schema::copilot_hooks::{
    COPILOT_CLAUDE_EVENTS, COPILOT_HOOK_EVENTS, COPILOT_MATCHER_EVENTS, CopilotHook,
    CopilotHooksFile,
};
use agentc_schema::{Span, Spanned};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// The hook types the Copilot CLI runs; `prompt` only at `sessionStart`.
const TYPES: &[&str] = &["command", "http", "prompt"];

/// The events whose HTTP hooks decide on a tool call: the Copilot CLI
/// skips one whose URL is plain `http://` off the machine.
const AUTHORIZING: &[&str] = &[
    "preToolUse",
    "preMcpToolCall",
    "permissionRequest",
    "PreToolUse",
    "PreMcpToolCall",
    "PermissionRequest",
];

const SKIPPED: &str = "the Copilot CLI skips this hook (it says so only in its debug log)";
const DROPPED: &str = "the Copilot CLI loads none of this file's hooks";

/// Every event name the Copilot CLI takes.
fn events() -> impl Iterator<Item = &'static str> {
    COPILOT_HOOK_EVENTS.iter().chain(COPILOT_CLAUDE_EVENTS).copied()
}

/// The event names to suggest for `name`: those written in its own style
/// (`preToolUse` or Claude Code's `PreToolUse`), where one is near.
fn near_events(name: &str) -> Vec<&'static str> {
    // A difference of case alone is the nearest of all.
    let same: Vec<&str> = events().filter(|e| e.eq_ignore_ascii_case(name)).collect();
    if let [one] = same.as_slice() {
        return vec![*one];
    }
    let own: &[&str] = match name.starts_with(|c: char| c.is_ascii_uppercase()) {
        true => COPILOT_CLAUDE_EVENTS,
        false => COPILOT_HOOK_EVENTS,
    };
    match did_you_mean(name, own.iter().copied()) {
        Some(_) => own.to_vec(),
        None => events().collect(),
    }
}

/// The checks of one hooks file that need nothing but the file.
pub fn check(source: &Source, file: &CopilotHooksFile, out: &mut Vec<Diagnostic>) {
    if let Some(version) = file.version.as_ref().filter(|v| v.value != 1) {
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                version.span,
                format!("hooks file version {} does not exist", version.value),
            )
            .with_help(format!("write `\"version\": 1`, the only version; otherwise {DROPPED}")),
        );
    }
    for (event, entries) in &file.hooks {
        let name = event.value.as_str();
        if !events().any(|e| e == name) {
            out.push(unknown_event(source, event));
            continue;
        }
        for entry in entries {
            group(source, name, entry, out);
        }
    }
}

/// The decoder's findings in plain words; and keys people write to explain
/// a hook (`comment`, `description`), which the Copilot CLI ignores and
/// which are no near miss of `command`, made pedantic.
pub fn notes_are_pedantic(source: &Source, found: &mut [Diagnostic]) {
    const NOTES: &[&str] =
        &["comment", "comments", "_comment", "$comment", "description", "note", "notes", "name"];
    for diagnostic in found.iter_mut() {
        // The decoder's words for the number types.
        for (rust, words) in [("expected f64", "expected a number"), ("expected u64", "expected 1")]
        {
            if let Some(rest) = diagnostic.message.strip_prefix(rust) {
                diagnostic.message = format!("{words}{rest}");
            }
        }
    }
    for diagnostic in found.iter_mut().filter(|d| d.code == Code::UnknownField) {
        let key = diagnostic.location.span.and_then(|s| source.text.get(s.start..s.end));
        if key.is_some_and(|k| NOTES.contains(&k.trim_matches('"'))) {
            diagnostic.pedantic = true;
            diagnostic.help = Some("the Copilot CLI ignores keys it does not read".to_owned());
        }
    }
}

/// The decoder's findings that make the Copilot CLI drop the whole file —
/// the file, its `hooks` or an event's value of the wrong kind — say so.
pub fn dropped(tree: &crate::parse::tree::Node, found: &mut [Diagnostic]) {
    use crate::parse::tree::Value;
    let mut spans = vec![tree.span];
    if let Some(hooks) = crate::parse::files::entry_value(tree, "hooks") {
        spans.push(hooks.span);
        if let Value::Map(events) = &hooks.value {
            spans.extend(events.iter().map(|e| e.value.span));
        }
    }
    for diagnostic in found.iter_mut() {
        let at = diagnostic.location.span;
        if diagnostic.code == Code::InvalidValue
            && diagnostic.help.is_none()
            && at.is_some_and(|at| spans.contains(&at))
        {
            diagnostic.help = Some(format!(
                "the file is a mapping, `hooks` maps each event to a list of hooks; {DROPPED}"
            ));
        }
    }
}

/// An entry of an event: a hook, or Claude Code's `matcher` with its
/// `hooks`, which may not nest again.
fn group(source: &Source, event: &str, entry: &Spanned<CopilotHook>, out: &mut Vec<Diagnostic>) {
    matcher(source, event, &entry.value, out);
    let Some(inner) = &entry.value.hooks else {
        hook(source, event, entry, out);
        return;
    };
    for hook_entry in inner {
        if hook_entry.value.hooks.is_some() {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    &source.path,
                    hook_entry.span,
                    "hooks nested two levels deep",
                )
                .with_help(format!(
                    "a `matcher` group holds hooks, not other groups; {DROPPED} (\"Nested hooks \
                     deeper than one level are not supported\")"
                )),
            );
            continue;
        }
        matcher(source, event, &hook_entry.value, out);
        hook(source, event, hook_entry, out);
    }
}

/// A hook's own keys: its type and what that type needs.
fn hook(source: &Source, event: &str, entry: &Spanned<CopilotHook>, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    let value = &entry.value;
    let kind = value.kind.as_ref().map_or("command", |k| k.value.as_str());
    let kind_span = value.kind.as_ref().map_or(entry.span, |k| k.span);
    match kind {
        "command" => {
            let commands = value.commands();
            for command in commands.iter().filter_map(|(_, c)| *c) {
                out.extend(crate::shell::diagnostics(source, command, "this hook"));
            }
            // A command key whose value the decoder refused is reported there.
            if commands.iter().all(|(_, c)| c.is_none())
                && !written_keys(source, entry.span)
                    .iter()
                    .any(|k| commands.iter().any(|(name, _)| name == k))
            {
                out.push(
                    Diagnostic::at(Code::MissingField, file, kind_span, "the hook has no command")
                        .with_help(format!(
                            "add `\"bash\"` (Linux and macOS) and `\"powershell\"` (Windows), or \
                             `\"command\"`; without one {SKIPPED}"
                        )),
                );
            }
            if let Some(exec) = &value.exec
                && let Some((key, _)) = commands.iter().find(|(k, c)| *k != "exec" && c.is_some())
            {
                out.push(
                    Diagnostic::at(
                        Code::InvalidValue,
                        file,
                        exec.span,
                        format!("`exec` and `{key}` in one hook"),
                    )
                    .with_help(format!(
                        "`exec` runs a program with no shell, instead of `bash`, `powershell` or \
                         `command`: keep one; with both {SKIPPED}"
                    )),
                );
            }
            for timeout in [&value.timeout_sec, &value.timeout].into_iter().flatten() {
                if timeout.value <= 0.0 {
                    out.push(
                        Diagnostic::at(
                            Code::InvalidValue,
                            file,
                            timeout.span,
                            "a timeout of no time",
                        )
                        .with_help(format!(
                            "the timeout is in seconds and must be more than 0 (30 when absent); \
                             otherwise {SKIPPED}"
                        )),
                    );
                }
            }
        }
        "http" => http(source, event, entry, out),
        "prompt" => prompt(source, event, entry, kind_span, out),
        _ => out.push(unknown_type(source, value.kind.as_ref(), kind_span)),
    }
}

/// The keys written in the JSON object at `span`.
fn written_keys(source: &Source, span: Span) -> Vec<String> {
    let Some(text) = source.text.get(span.start..span.end) else {
        return Vec::new();
    };
    match crate::parse::json::parse(text).map(|parsed| parsed.root.value) {
        Ok(crate::parse::tree::Value::Map(entries)) => entries.into_iter().map(|e| e.key).collect(),
        _ => Vec::new(),
    }
}

/// An HTTP hook: a URL, `https://` where the hook decides on tool calls.
fn http(source: &Source, event: &str, entry: &Spanned<CopilotHook>, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    let Some(url) = &entry.value.url else {
        let at = entry.value.kind.as_ref().map_or(entry.span, |k| k.span);
        out.push(
            Diagnostic::at(Code::MissingField, file, at, "an `http` hook needs `url`")
                .with_help(format!("add `\"url\": \"https://…\"`; without it {SKIPPED}")),
        );
        return;
    };
    let text = url.value.trim();
    let lower = text.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("http://").or_else(|| lower.strip_prefix("https://"))
    else {
        out.push(
            Diagnostic::at(Code::InvalidValue, file, url.span, "the hook's URL is not http(s)")
                .with_help(format!("write an `https://` URL; {SKIPPED}")),
        );
        return;
    };
    let plain = lower.starts_with("http://");
    let why = if plain && AUTHORIZING.contains(&event) {
        Some(format!(
            "a hook at `{event}` decides on tool calls, so its answer must come over `https://`"
        ))
    } else if plain && entry.value.allowed_env_vars.as_ref().is_some_and(|v| !v.is_empty()) {
        Some("the hook sends `allowedEnvVars` in its headers, which must not cross the network in clear".to_owned())
    } else {
        None
    };
    if let Some(why) = why {
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                file,
                url.span,
                "the hook posts over plain `http://`",
            )
            .with_help(format!(
                "{why}: write `https://`; otherwise {SKIPPED} (unless every user sets \
                     `COPILOT_HOOK_ALLOW_HTTP_AUTH_HOOKS=1`)"
            )),
        );
        return;
    }
    if let Some(host) = internal(rest) {
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                file,
                url.span,
                format!("the hook posts to `{host}`, an address the Copilot CLI blocks"),
            )
            .with_severity(Severity::Warning)
            .with_help(
                "the Copilot CLI refuses HTTP hooks to loopback, private and link-local \
                 addresses (\"URLs must not target loopback, private, or link-local \
                 addresses\"), so the hook fails each time it runs, unless the user sets \
                 `COPILOT_HOOK_ALLOW_LOCALHOST=1`",
            ),
        );
    }
}

/// The host of a URL (after its scheme) when it is one the Copilot CLI
/// blocks: a loopback, private or link-local address written as such
/// (`localhost`, `127.0.0.1`, `10.…`, `192.168.…`, `[::1]`); names are not
/// looked up.
fn internal(rest: &str) -> Option<&str> {
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit('@').next().unwrap_or(host);
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    if name == "localhost" || name.ends_with(".localhost") {
        return Some(name);
    }
    let blocked = match name.parse::<std::net::IpAddr>().ok()? {
        std::net::IpAddr::V4(ip) => {
            ip.is_loopback() || ip.is_private() || ip.is_link_local() || ip.is_unspecified()
        }
        std::net::IpAddr::V6(ip) => {
            ip.is_loopback()
                || ip.is_unspecified()
                || (ip.segments()[0] & 0xfe00) == 0xfc00
                || (ip.segments()[0] & 0xffc0) == 0xfe80
        }
    };
    blocked.then_some(name)
}

/// A prompt hook: only at `sessionStart`, with text.
fn prompt(
    source: &Source,
    event: &str,
    entry: &Spanned<CopilotHook>,
    kind_span: Span,
    out: &mut Vec<Diagnostic>,
) {
    let file = &source.path;
    if !matches!(event, "sessionStart" | "SessionStart") {
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                file,
                kind_span,
                format!("a `prompt` hook at `{event}`"),
            )
            .with_help(format!(
                "prompt hooks run only at `sessionStart`; elsewhere {SKIPPED} — use a `command` \
                 hook that prints `additionalContext`"
            )),
        );
        return;
    }
    match &entry.value.prompt {
        None => out.push(
            Diagnostic::at(Code::MissingField, file, kind_span, "a `prompt` hook needs `prompt`")
                .with_help(format!("add the text to send as `\"prompt\"`; without it {SKIPPED}")),
        ),
        Some(text) if text.value.trim().is_empty() => out.push(
            Diagnostic::at(Code::InvalidValue, file, text.span, "the hook's prompt is empty")
                .with_help(format!("write the text to send; {SKIPPED}")),
        ),
        Some(_) => {}
    }
}

/// A type the Copilot CLI does not run.
fn unknown_type(source: &Source, kind: Option<&Spanned<String>>, span: Span) -> Diagnostic {
    let name = kind.map_or("", |k| k.value.as_str());
    let diagnostic = Diagnostic::at(
        Code::InvalidValue,
        &source.path,
        span,
        format!("`{name}` is not a Copilot hook type"),
    );
    let Some(kind) = kind else {
        return diagnostic;
    };
    super::super::near_miss(
        diagnostic,
        &source.path,
        kind,
        name,
        TYPES,
        SKIPPED,
        &format!("the types are `command` (when absent), `http` and `prompt`; {SKIPPED}"),
    )
}

/// An event the Copilot CLI does not have: it ignores the hooks under it,
/// saying so only in its debug log.
fn unknown_event(source: &Source, event: &Spanned<String>) -> Diagnostic {
    let file = &source.path;
    let name = event.value.as_str();
    let diagnostic = Diagnostic::at(
        Code::UnknownHookEvent,
        file,
        event.span,
        format!("`{name}` is not a Copilot hook event"),
    )
    .with_severity(Severity::Warning);
    let candidates = near_events(name);
    let Some(close) = did_you_mean(name, candidates.iter().copied()) else {
        return diagnostic.with_help(
            "the Copilot CLI ignores hooks under an event it does not have; its events are \
             `sessionStart`, `sessionEnd`, `userPromptSubmitted`, `preToolUse`, `postToolUse`, \
             `postToolUseFailure`, `errorOccurred`, `agentStop`, `subagentStart`, \
             `subagentStop`, `preCompact`, `permissionRequest`, `notification`, \
             `preMcpToolCall`, `userPromptTransformed` (and Claude Code's names for most)",
        );
    };
    let diagnostic = diagnostic.with_help(format!(
        "did you mean `{close}`? event names are case-sensitive, and the Copilot CLI ignores \
         hooks under another name"
    ));
    match confident(name, candidates.iter().copied()) {
        Some(fix) => diagnostic.with_severity(Severity::Error).with_fix(
            format!("rename the event to `{fix}`"),
            file,
            event.verbatim(0..name.len()),
            fix,
        ),
        None => diagnostic,
    }
}

/// A matcher at an event whose matcher the Copilot CLI compiles as a
/// regular expression: empty, or one that does not compile, skips the hook.
fn matcher(source: &Source, event: &str, hook: &CopilotHook, out: &mut Vec<Diagnostic>) {
    let Some(matcher) = &hook.matcher else {
        return;
    };
    if !COPILOT_MATCHER_EVENTS.contains(&event) {
        return;
    }
    let text = matcher.value.as_str();
    let file = &source.path;
    if text.is_empty() {
        out.push(
            Diagnostic::at(Code::InvalidValue, file, matcher.span, "the matcher is empty")
                .with_help(format!(
                    "remove `matcher` to run the hook for every tool, or name tools \
                     (`bash|edit`); {SKIPPED}"
                )),
        );
        return;
    }
    // Under Claude Code's event names `*` is every tool, as in Claude Code.
    if text == "*" && event.starts_with(|c: char| c.is_ascii_uppercase()) {
        return;
    }
    let Some(problem) = regex_problem(text) else {
        return;
    };
    let diagnostic = Diagnostic::at(
        Code::InvalidValue,
        file,
        matcher.span,
        format!("the matcher `{text}` is not a regular expression: {problem}"),
    );
    out.push(if text == "*" {
        diagnostic
            .with_help(format!(
                "under the Copilot CLI's own event names a matcher is a regular expression, and \
                 `*` repeats nothing; remove `matcher` to run the hook for every tool (or write \
                 `.*`); {SKIPPED}"
            ))
            .with_fix("match every tool: `.*`", file, matcher.verbatim(0..1), ".*")
    } else {
        diagnostic.with_help(format!(
            "the Copilot CLI compiles the matcher as a JavaScript regular expression that must \
             match the tool's whole name (`bash|edit`, `github-.*`); {SKIPPED}"
        ))
    });
}

/// Why `pattern` does not compile as a JavaScript regular expression, for
/// the mistakes the Copilot CLI was seen to refuse (a quantifier with
/// nothing before it, `{2,1}`, an unclosed group or class, a stray `)`,
/// Python's `(?P<name>…)`); `None` when none of them is there.
pub fn regex_problem(pattern: &str) -> Option<&'static str> {
    let bytes = pattern.as_bytes();
    let mut depth = 0usize;
    // Whether the last thing read can be repeated.
    let mut atom = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                i += 2;
                atom = true;
                continue;
            }
            b'[' => {
                let mut j = i + 1;
                if bytes.get(j) == Some(&b'^') {
                    j += 1;
                }
                loop {
                    match bytes.get(j) {
                        None => return Some("a `[` opens a character class it never closes"),
                        Some(b'\\') => j += 2,
                        Some(b']') => break,
                        Some(_) => j += 1,
                    }
                }
                i = j + 1;
                atom = true;
                continue;
            }
            b'(' => {
                if pattern[i..].starts_with("(?P<") {
                    return Some("`(?P<name>…)` is Python's; JavaScript writes `(?<name>…)`");
                }
                depth += 1;
                atom = false;
                // The group's own syntax: `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`.
                if bytes.get(i + 1) == Some(&b'?') {
                    i += 2;
                    continue;
                }
            }
            b')' => {
                let Some(d) = depth.checked_sub(1) else {
                    return Some("a `)` closes a group that was never opened");
                };
                depth = d;
                atom = true;
            }
            b'|' | b'^' => atom = false,
            b'*' | b'+' | b'?' => {
                if !atom {
                    return Some("a quantifier repeats nothing");
                }
                // A lazy `*?` or `+?` is one quantifier.
                if bytes.get(i + 1) == Some(&b'?') {
                    i += 1;
                }
                atom = false;
            }
            b'{' => {
                if let Some((low, high)) = braces(&pattern[i..]) {
                    if !atom {
                        return Some("a quantifier repeats nothing");
                    }
                    if high.is_some_and(|h| h < low) {
                        return Some("a `{n,m}` quantifier's numbers are out of order");
                    }
                    atom = false;
                } else {
                    atom = true;
                }
            }
            _ => atom = true,
        }
        i += 1;
    }
    (depth > 0).then_some("a `(` opens a group it never closes")
}

/// A `{n}`, `{n,}` or `{n,m}` quantifier at the start of `text`: its bounds.
fn braces(text: &str) -> Option<(u64, Option<u64>)> {
    let inner = &text[1..text.find('}')?];
    let (low, high) = match inner.split_once(',') {
        Some((low, high)) => (low, Some(high)),
        None => (inner, None),
    };
    let low: u64 = low.parse().ok()?;
    match high {
        None => Some((low, Some(low))),
        Some("") => Some((low, None)),
        Some(high) => Some((low, Some(high.parse().ok()?))),
    }
}

/// The script a command runs, when it names one in the repository: the
/// command's first word, or the word after an interpreter (`node
/// .github/hooks/check.js`, `bash ./scripts/x.sh`, `& ./check.ps1`), with
/// where it is written. A word with a variable, a glob or no `/` is not
/// taken as a path (`npx prettier`, `$HOME/x`).
pub fn script_path(command: &Spanned<String>) -> Option<(String, Span)> {
    const INTERPRETERS: &[&str] = &[
        "node",
        "python",
        "python3",
        "bash",
        "sh",
        "zsh",
        "pwsh",
        "powershell",
        "ruby",
        "perl",
        "deno",
        "bun",
        "tsx",
        "uv",
        "&",
        ".",
        "source",
    ];
    const FLAGS_WITH_PATH: &[&str] = &["-File", "-f", "run"];
    let text = command.value.as_str();
    let mut at = 0;
    let mut words = Vec::new();
    for word in text.split(' ') {
        if !word.is_empty() {
            words.push((at, word));
        }
        at += word.len() + 1;
    }
    let mut index = 0;
    while let Some((_, word)) = words.get(index) {
        let bare = word.trim_end_matches(".exe");
        if INTERPRETERS.contains(&bare)
            || FLAGS_WITH_PATH.contains(word)
            || (index > 0 && word.starts_with('-'))
        {
            index += 1;
            continue;
        }
        break;
    }
    let &(start, word) = words.get(index)?;
    // One command only: what follows `;`, `&&` or `|` is not looked at.
    let word = word.trim_end_matches([';', ',']);
    let (start, word) = match word.strip_prefix(['"', '\'']) {
        Some(inner) => (start + 1, inner.trim_end_matches(['"', '\''])),
        None => (start, word),
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '\\' | '_' | '-');
    if !word.chars().all(plain) || !word.contains(['/', '\\']) || word.starts_with(['/', '\\']) {
        return None;
    }
    // A path above the repository is not the repository's to check.
    if word.starts_with("..") {
        return None;
    }
    // The span is the path's own, after a leading `./`.
    let (start, word) = match word.strip_prefix("./").or_else(|| word.strip_prefix(".\\")) {
        Some(rest) => (start + 2, rest),
        None => (start, word),
    };
    let path = word.replace('\\', "/");
    let has_name = path.rsplit('/').next().is_some_and(|n| !n.is_empty());
    has_name.then(|| (path, command.token_span(start..start + word.len())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_expressions_copilot_refuses() {
        for bad in ["*", "+x", "(?P<n>x)", "a{2,1}", "[a-", "(a", "a)", "a|*b"] {
            assert!(regex_problem(bad).is_some(), "{bad}");
        }
        for good in [
            "bash",
            "bash|edit",
            ".*",
            "^(bash|edit)$",
            "(?<=a)b",
            "(?!bash).*",
            "\\d+",
            "a{2}",
            "a{,3}",
            "x{",
            "[*]",
            "github-.*?",
            "(?<name>x)",
            "a+?",
        ] {
            assert_eq!(regex_problem(good), None, "{good}");
        }
    }

    fn script(command: &str) -> Option<String> {
        let spanned =
            Spanned { value: command.to_owned(), span: Span::new(0, 0), text_at: Some(0) };
        script_path(&spanned).map(|(path, span)| {
            assert_eq!(&command[span.start..span.end].replace('\\', "/"), &path);
            path
        })
    }

    #[test]
    fn scripts_are_the_first_word_or_the_interpreters_argument() {
        assert_eq!(
            script("node .github/hooks/block-secrets.js").as_deref(),
            Some(".github/hooks/block-secrets.js")
        );
        assert_eq!(script("./scripts/check.sh --fast").as_deref(), Some("scripts/check.sh"));
        assert_eq!(script("bash -e scripts/run.sh; echo").as_deref(), Some("scripts/run.sh"));
        assert_eq!(
            script("pwsh -File .\\scripts\\check.ps1").as_deref(),
            Some("scripts/check.ps1")
        );
        assert_eq!(script("& \"./scripts/check.ps1\"").as_deref(), Some("scripts/check.ps1"));
        assert_eq!(script("npx prettier --write ."), None);
        assert_eq!(script("echo hi"), None);
        assert_eq!(script("$HOME/bin/x.sh"), None);
        assert_eq!(script("/usr/local/bin/check"), None);
        assert_eq!(script("../other/x.sh"), None);
    }
}
