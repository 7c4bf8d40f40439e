//! Gemini CLI: custom commands (`.gemini/commands/**/*.toml`) and an
//! extension's manifest (`gemini-extension.json`), as gemini-cli reads them
//! (`FileCommandLoader.ts`, `extension-manager.ts`; `docs/formats.md`,
//! "Gemini CLI"). A command that does not parse or lacks `prompt` is
//! skipped, and an extension without a valid `name` or a `version` is not
//! loaded: errors. Unknown keys are dropped in both: warnings.

pub mod agents;
pub mod hooks;
pub mod settings;

use std::collections::BTreeMap;

use agentc_schema::{Dialect, GeminiCommand, GeminiExtension};

use super::Declared;
use super::mcp::{self, Reader};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Document, Reading, Syntax, decode_text};
use crate::source::Source;

/// The project's commands, and an extension's manifest at its top.
pub const PROJECT_FILES: &[Declared] = &[
    Declared { path: ".gemini/commands/**/*.toml", dialect: Dialect::GeminiCommand },
    Declared { path: "gemini-extension.json", dialect: Dialect::GeminiExtension },
    Declared { path: ".gemini/settings.json", dialect: Dialect::GeminiSettings },
    Declared { path: ".gemini/agents/*.md", dialect: Dialect::GeminiAgent },
];

/// The files an extension holds beside its `gemini-extension.json`
/// (Gemini CLI 0.61.0's `loadExtension`: `commands/` walked for `**/*.toml`
/// as a project's `.gemini/commands/` is, and `hooks/hooks.json`).
pub const EXTENSION_FILES: &[Declared] = &[
    Declared { path: "commands/**/*.toml", dialect: Dialect::GeminiCommand },
    Declared { path: "hooks/hooks.json", dialect: Dialect::GeminiHooks },
];

/// Where the commands live; a command's name is its path below, folders
/// joined with `:`.
const COMMANDS: &str = ".gemini/commands/";

/// The longest segment of a command's name before Gemini CLI cuts it.
const MAX_SEGMENT: usize = 50;

/// A command file, and the `!{…}` and `@{…}` of its prompt.
pub fn command(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<GeminiCommand>> {
    let reading = Reading { syntax: Syntax::Toml, unknown: Severity::Warning, ..Reading::JSON };
    let doc = decode_text::<GeminiCommand>(source, &source.text, 0, reading, out)?;
    let prompt = &doc.value.prompt;
    if let Some((from, trigger)) = unclosed_injection(&prompt.value) {
        let span = match prompt.text_at {
            Some(at) => agentc_schema::Span::new(at + from, at + from + 2),
            None => prompt.span,
        };
        let (what, inside) = match trigger {
            '!' => ("shell command", "braces inside it"),
            _ => ("file path", "braces in the path"),
        };
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                span,
                format!("this `{trigger}{{` is never closed, so the command fails when it runs"),
            )
            .with_severity(Severity::Warning)
            .with_help(format!(
                "close the {what} with `}}`; {inside} must pair up (Gemini CLI 0.61.0: \
                 \"Invalid syntax in command … Unclosed injection\")"
            )),
        );
    }
    Some(doc)
}

/// Where an injection (`!{` or `@{`) whose braces never balance starts, and
/// its trigger (`!` or `@`), as Gemini CLI's injection parser finds it.
fn unclosed_injection(prompt: &str) -> Option<(usize, char)> {
    let mut rest = 0;
    loop {
        let next = ["!{", "@{"]
            .iter()
            .filter_map(|trigger| prompt[rest..].find(trigger).map(|at| rest + at))
            .min()?;
        let mut depth = 0usize;
        let mut end = None;
        for (i, c) in prompt[next + 1..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(next + 1 + i + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            return Some((next, if prompt[next..].starts_with('!') { '!' } else { '@' }));
        };
        rest = end;
    }
}

/// The name Gemini CLI gives the command at `path`: the path below
/// `.gemini/commands/` (or an extension's `commands/`) without `.toml`,
/// folders joined with `:`, each segment's characters outside
/// `[a-zA-Z0-9_.-]` made `_` and a long segment cut to 47 characters and
/// `...`.
pub fn command_name(path: &str) -> Option<String> {
    command_folder(path).map(|(_, name)| name)
}

/// The folder of commands `path` is in (`.gemini/commands/`, or an
/// extension's `commands/`), and the command's name.
fn command_folder(path: &str) -> Option<(&str, String)> {
    let at = match path.find(COMMANDS) {
        Some(at) => at + COMMANDS.len(),
        None if path.starts_with("commands/") => "commands/".len(),
        None => path.find("/commands/")? + "/commands/".len(),
    };
    let rel = path[at..].strip_suffix(".toml")?;
    let segments: Vec<String> = rel
        .split('/')
        .map(|segment| {
            let clean: String = segment
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' }
                })
                .collect();
            match clean.chars().count() > MAX_SEGMENT {
                true => format!("{}...", clean.chars().take(MAX_SEGMENT - 3).collect::<String>()),
                false => clean,
            }
        })
        .collect();
    Some((&path[..at], segments.join(":")))
}

/// Two command files that make one command name: Gemini CLI loads one.
pub fn duplicates(commands: &[&Source], out: &mut Vec<Diagnostic>) {
    let mut by_name: BTreeMap<(&str, String), Vec<&Source>> = BTreeMap::new();
    for source in commands {
        if let Some((folder, name)) = command_folder(&source.path.path) {
            by_name.entry((folder, name)).or_default().push(source);
        }
    }
    for ((_, name), sources) in by_name {
        let Some((first, rest)) = sources.split_first() else {
            continue;
        };
        for source in rest {
            out.push(
                Diagnostic::on_path(
                    Code::DuplicateName,
                    &source.path,
                    format!("this file is the command `/{name}`, like `{}`", first.path.path),
                )
                .with_severity(Severity::Warning)
                .with_help(
                    "Gemini CLI makes characters outside letters, digits, `_`, `-` and `.` \
                     into `_`, so both files are one command and only one is loaded; rename one",
                ),
            );
        }
    }
}

/// An extension's manifest: its name, and its MCP servers.
pub fn extension(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<GeminiExtension>> {
    let reading = Reading { unknown: Severity::Warning, ..Reading::JSON };
    let doc = decode_text::<GeminiExtension>(source, &source.text, 0, reading, out)?;
    let name = &doc.value.name;
    let text = name.value.as_str();
    if !text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        let fixed: String =
            text.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        out.push(
            Diagnostic::at(
                Code::BadName,
                &source.path,
                name.span,
                format!("`{text}` is not an extension name Gemini CLI accepts"),
            )
            .with_help(format!(
                "use letters, digits and dashes only, e.g. `{fixed}`; Gemini CLI skips the \
                 extension (\"Invalid extension name\")"
            ))
            .with_fix(
                format!("write `{fixed}`"),
                &source.path,
                name.verbatim(0..text.len()),
                fixed,
            ),
        );
    }
    if let Some(servers) = &doc.value.mcp_servers {
        mcp::servers(source, servers, Reader::Gemini, None, out);
    }
    Some(doc)
}

#[cfg(test)]
mod tests {
    use super::{command_name, unclosed_injection};

    #[test]
    fn names_join_folders_with_colons_and_clean_segments() {
        assert_eq!(command_name(".gemini/commands/git/commit.toml").as_deref(), Some("git:commit"));
        assert_eq!(command_name(".gemini/commands/a b.toml").as_deref(), Some("a_b"));
        let long = format!(".gemini/commands/{}.toml", "x".repeat(60));
        assert_eq!(command_name(&long), Some(format!("{}...", "x".repeat(47))));
        assert_eq!(command_name("elsewhere/a.toml"), None);
        assert_eq!(command_name("commands/git/commit.toml").as_deref(), Some("git:commit"));
        assert_eq!(command_name("plugins/x/commands/a.toml").as_deref(), Some("a"));
    }

    #[test]
    fn injections_close() {
        assert_eq!(unclosed_injection("run !{git diff} then !{echo {a}}"), None);
        assert_eq!(unclosed_injection("run !{git diff"), Some((4, '!')));
        assert_eq!(unclosed_injection("ok !{a} bad !{b {c}"), Some((12, '!')));
        assert_eq!(unclosed_injection("read @{README.md"), Some((5, '@')));
        assert_eq!(unclosed_injection("@{a.md} and !{ls} {{args}}"), None);
    }
}
