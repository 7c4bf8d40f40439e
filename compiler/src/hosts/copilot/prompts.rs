//! VS Code's prompt files and instructions files: the rules of one file
//! (`promptValidator.ts`, `computeAutomaticInstructions.ts` and the VS Code
//! documentation; `docs/research/other-formats.md` §1–2). What needs the
//! rest of the repository — a custom agent's name, the files a glob
//! matches — is checked in `check::copilot_files`.

use agentc_schema::copilot_files::{COPILOT_INSTRUCTIONS_FIELDS, COPILOT_PROMPT_FIELDS};
use agentc_schema::{CopilotInstructionsFrontmatter, CopilotPromptFrontmatter, Span, Spanned};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Markdown, key_or};
use crate::repo_files;
use crate::source::Source;

/// The agents VS Code has built in, besides custom agents: the validator
/// compares `Ask`, `Edit`, `Agent` and `Plan`, the docs write them in
/// lowercase, so either spelling is taken.
pub const BUILTIN_AGENTS: &[&str] = &["ask", "edit", "agent", "plan"];

/// The agents of GitHub.com an instructions file may keep itself from.
pub const EXCLUDABLE_AGENTS: &[&str] = &["code-review", "coding-agent"];

/// Whether a file of `.github/prompts/` is a prompt file by its name. VS
/// Code reads only `<name>.prompt.md` there; a README documents the folder.
pub fn prompt_name(source: &Source, out: &mut Vec<Diagnostic>) -> bool {
    let path = &source.path.path;
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.ends_with(".prompt.md") && name.len() > ".prompt.md".len() {
        return true;
    }
    if !name.eq_ignore_ascii_case("README.md") && !name.starts_with('.') {
        let stem = name.strip_suffix(".md").unwrap_or(name);
        out.push(
            Diagnostic::on_path(
                Code::StrayEntry,
                &source.path,
                format!("VS Code never reads `{name}` as a prompt file"),
            )
            .with_help(format!(
                "prompt files are named `<name>.prompt.md`: rename it to `{stem}.prompt.md` to \
                 run it as `/{stem}`, or move it out of `.github/prompts/` if it is not a prompt"
            )),
        );
    }
    false
}

/// The rules of one prompt file's header.
/// A header of `fields` written without its opening `---` (`applyTo: …`,
/// then `---`): VS Code reads a header only from a first line `---`, so it
/// takes these lines as text and never sees the keys. The fix opens it.
fn header_without_opening(source: &Source, fields: &[&str], what: &str, out: &mut Vec<Diagnostic>) {
    let text = source.text.strip_prefix('\u{feff}').unwrap_or(&source.text);
    let skipped = source.text.len() - text.len();
    if text.starts_with("---") {
        return;
    }
    let mut keys = Vec::new();
    let mut at = skipped;
    for line in text.split_inclusive('\n').take(12) {
        let trimmed = line.trim_end();
        if trimmed == "---" {
            break;
        }
        let key = trimmed.split_once(':').map(|(k, _)| k.trim());
        match key {
            Some(key) if fields.contains(&key) => keys.push((key, at)),
            _ if trimmed.is_empty() || line.starts_with([' ', '\t', '-']) => {}
            _ => return,
        }
        at += line.len();
    }
    let closed = text.get(at - skipped..).is_some_and(|rest| rest.trim_end().starts_with("---"));
    let Some(&(key, start)) = keys.first().filter(|_| closed) else {
        return;
    };
    out.push(
        Diagnostic::at(
            Code::BadFrontmatter,
            &source.path,
            Span::new(start, start + key.len()),
            "the header has no opening `---`: VS Code reads these lines as text",
        )
        .with_severity(Severity::Warning)
        .with_help(format!(
            "VS Code reads a header only when the file's first line is `---`, so it never sees \
             `{key}` and {what}; add `---` as the first line"
        ))
        .with_fix(
            "add the opening `---`",
            &source.path,
            Some(Span::new(skipped, skipped)),
            if text.contains("\r\n") { "---\r\n" } else { "---\n" },
        ),
    );
}

/// A file whose body is empty: VS Code loads it and adds nothing.
fn empty_body<T>(source: &Source, parsed: &Markdown<T>, what: &str, out: &mut Vec<Diagnostic>) {
    if parsed.body(source).trim().is_empty() {
        out.push(
            Diagnostic::on_path(
                Code::EmptyBody,
                &source.path,
                "the file has no body after its header",
            )
            .with_severity(Severity::Warning)
            .with_help(format!("VS Code loads it and {what}; write it after the closing `---`")),
        );
    }
}

pub fn prompt(
    source: &Source,
    parsed: &Markdown<CopilotPromptFrontmatter>,
    out: &mut Vec<Diagnostic>,
) {
    header_without_opening(
        source,
        COPILOT_PROMPT_FIELDS,
        "runs the prompt with none of its settings",
        out,
    );
    empty_body(source, parsed, "sends an empty prompt: the prompt is the body", out);
    let file = &source.path;
    let front = &parsed.front.value;
    if let Some(mode) = &front.mode {
        let key = key_or(parsed, "mode", mode.span);
        let diagnostic = Diagnostic::at(Code::Deprecated, file, key, "`mode` is deprecated");
        out.push(match &front.agent {
            Some(_) => diagnostic
                .with_help(
                    "VS Code reads `agent` and ignores `mode` when both are there: remove `mode`",
                )
                .with_fix("remove the `mode` line", file, whole_line(&source.text, key), ""),
            None => diagnostic
                .with_help(
                    "VS Code still reads `mode` as the agent for now; rename the key to `agent`",
                )
                .with_fix(
                    "rename the key to `agent`",
                    file,
                    Some(Span::new(key.start, key.start + "mode".len()))
                        .filter(|s| source.text.get(s.start..s.end) == Some("mode")),
                    "agent",
                ),
        });
    }
    if let Some(tools) = &front.tools {
        super::tools(source, tools, out);
        let agent = front.agent.as_ref().or(front.mode.as_ref());
        if let Some(agent) = agent
            .filter(|a| ["ask", "edit"].iter().any(|b| b.eq_ignore_ascii_case(a.value.as_str())))
        {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    key_or(parsed, "tools", agent.span),
                    format!("`tools` is ignored with the `{}` agent", agent.value),
                )
                .with_severity(Severity::Warning)
                .with_help(
                    "only agents use tools: remove `tools`, or run the prompt with `agent: agent` \
                     or a custom agent",
                ),
            );
        }
    }
}

/// The line that starts with `key` (a top-level key of the frontmatter),
/// its line break included; `None` when the key does not start its line.
fn whole_line(text: &str, key: Span) -> Option<Span> {
    let starts_line = key.start == 0 || text.get(..key.start)?.ends_with('\n');
    let end = text.get(key.start..)?.find('\n').map_or(text.len(), |i| key.start + i + 1);
    starts_line.then_some(Span::new(key.start, end))
}

/// The globs of an `applyTo`, split as VS Code splits them: at commas
/// outside braces, each trimmed, with where each is written when the value
/// is verbatim in the file.
pub fn apply_to_parts(apply_to: &Spanned<agentc_schema::Text>) -> Vec<(String, Span)> {
    let text = apply_to.value.as_str();
    let pieces = crate::hosts::comma_split(text);
    pieces
        .into_iter()
        .map(|piece| {
            let raw = &text[piece.clone()];
            let lead = raw.len() - raw.trim_start().len();
            let trimmed = raw.trim();
            let at = piece.start + lead;
            // An empty pattern is shown at the comma that leaves it.
            let range = match (trimmed.is_empty(), piece.start.checked_sub(1)) {
                (true, Some(comma)) => comma..piece.start,
                (true, None) => piece.end..(piece.end + 1).min(text.len()),
                _ => at..at + trimmed.len(),
            };
            (trimmed.to_owned(), apply_to.token_span(range))
        })
        .collect()
}

/// Whether VS Code applies a glob to every request, attached file or not.
pub fn applies_always(glob: &str) -> bool {
    matches!(glob, "*" | "**" | "**/*")
}

/// The glob VS Code matches a file's full path against: `**/` is put
/// before one that starts with neither `/` nor `**/`.
pub fn anchored(glob: &str) -> String {
    if glob.starts_with('/') || glob.starts_with("**/") {
        glob.to_owned()
    } else {
        format!("**/{glob}")
    }
}

/// The rules of one instructions file's header that need nothing else.
pub fn instructions(
    source: &Source,
    parsed: &Markdown<CopilotInstructionsFrontmatter>,
    out: &mut Vec<Diagnostic>,
) {
    header_without_opening(
        source,
        COPILOT_INSTRUCTIONS_FIELDS,
        "never applies the file by itself (it can still be attached by hand)",
        out,
    );
    empty_body(source, parsed, "adds no instruction: the instructions are the body", out);
    let file = &source.path;
    let front = &parsed.front.value;
    for agent in front.exclude_agent.iter().flat_map(|a| a.0.iter()) {
        if EXCLUDABLE_AGENTS.contains(&agent.value.as_str()) {
            continue;
        }
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                file,
                agent.span,
                format!("`{}` is not an agent `excludeAgent` can name", agent.value),
            )
            .with_severity(Severity::Warning)
            .with_help("GitHub reads `code-review` and `coding-agent` here; any other value keeps the file from no agent"),
        );
    }
    if let Some(apply_to) = &front.apply_to {
        for (glob, span) in apply_to_parts(apply_to) {
            if glob.is_empty() {
                out.push(
                    Diagnostic::at(Code::InvalidValue, file, span, "an empty glob in `applyTo`")
                        .with_severity(Severity::Warning)
                        .with_help("remove the extra comma; VS Code's editor marks an empty pattern as an error"),
                );
            } else if glob.len() > repo_files::MAX_GLOB_LEN {
                // VS Code applies it; agentc only cannot look it up.
                let err = glob_matcher(&glob).err().unwrap_or_default();
                out.push(
                    Diagnostic::at(Code::InvalidValue, file, span, repo_files::unreadable(&glob, &err))
                        .with_severity(Severity::Warning)
                        .with_help("agentc does not check which files the glob matches; shorten it, or split it at commas"),
                );
            } else if let Err(err) = glob_matcher(&glob) {
                out.push(
                    Diagnostic::at(Code::InvalidValue, file, span, repo_files::unreadable(&glob, &err))
                    .with_help("VS Code globs use `*`, `**`, `?`, `{a,b}` and `[...]`; a pattern that does not parse applies to no file"),
                );
            }
        }
    }
}

/// `glob` compiled with VS Code's semantics: `*` stays inside one folder,
/// and case is ignored.
pub fn glob_matcher(glob: &str) -> Result<globset::GlobSet, String> {
    // The bound is on what the user wrote, not on `**/` added in front.
    if glob.len() > repo_files::MAX_GLOB_LEN {
        return repo_files::compile(glob, |_| {});
    }
    repo_files::compile(&anchored(glob), |b| {
        b.literal_separator(true).case_insensitive(true);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(text: &str) -> Vec<String> {
        let spanned = Spanned {
            value: agentc_schema::Text(text.to_owned()),
            span: Span::new(0, text.len()),
            text_at: Some(0),
        };
        apply_to_parts(&spanned).into_iter().map(|(g, _)| g).collect()
    }

    #[test]
    fn apply_to_splits_at_commas_outside_braces() {
        assert_eq!(parts("**/*.ts, **/*.tsx"), ["**/*.ts", "**/*.tsx"]);
        assert_eq!(parts("src/**/*.{ts,tsx}"), ["src/**/*.{ts,tsx}"]);
        assert_eq!(parts("a,"), ["a", ""]);
        let spanned = Spanned {
            value: agentc_schema::Text("a,".to_owned()),
            span: Span::new(0, 2),
            text_at: Some(10),
        };
        assert_eq!(apply_to_parts(&spanned)[1].1, Span::new(11, 12));
    }

    #[test]
    fn globs_match_as_vs_code_does() {
        let m = glob_matcher("src/*.TS").unwrap();
        assert!(m.is_match("src/a.ts"));
        assert!(m.is_match("pkg/src/a.ts"));
        assert!(!m.is_match("src/b/a.ts"));
        assert!(applies_always("**/*"));
        assert!(glob_matcher("src/[").is_err());
    }
}
