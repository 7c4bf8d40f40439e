//! Check: what a Copilot hooks file names in the repository — each script a
//! command runs and each `cwd` a command runs in is there. The Copilot CLI
//! 1.0.102 runs a hook from the repository's top (or its `cwd`); a script
//! that is not there fails the hook (`Hook command failed with code 127`,
//! and at `preToolUse` a failing hook denies the tool call), and a `cwd`
//! that is not there fails it before it starts (`spawn /bin/bash ENOENT`).

use std::path::Path;

use agentc_schema::Spanned;
use agentc_schema::copilot_hooks::{CopilotHook, CopilotHooksFile};

use super::links::{Named, Trees, missing};
use crate::catalog::Code;
use crate::diagnostic::Diagnostic;
use crate::fs::Fs;
use crate::hosts::copilot::hooks::script_path;
use crate::source::Source;

/// Every hook's scripts and working folder, relative to the repository's
/// top (the folder holding `.github/hooks/`).
pub fn scripts(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    file: &CopilotHooksFile,
    out: &mut Vec<Diagnostic>,
) {
    let path = &*source.path.path;
    let top = path.find(".github/hooks/").map_or("", |at| &path[..at]).trim_end_matches('/');
    let hooks = file.hooks.values().flatten().flat_map(|entry| match &entry.value.hooks {
        Some(inner) => inner.iter().map(|h| &h.value).collect::<Vec<_>>(),
        None => vec![&entry.value],
    });
    for hook in hooks {
        one(fs, trees, source, top, hook, out);
    }
}

fn one(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    top: &str,
    hook: &CopilotHook,
    out: &mut Vec<Diagnostic>,
) {
    let mut folder = top.to_owned();
    let mut relative_to = "the repository's top (where the hook runs)";
    if let Some(cwd) = &hook.cwd {
        let Some(dir) = plain_folder(cwd) else {
            return;
        };
        if !dir.is_empty() {
            let named = Named {
                code: Code::MissingPath,
                what: "working folder",
                path: &dir,
                span: cwd.verbatim(0..cwd.value.len()).unwrap_or(cwd.span),
                relative_to: "the repository's top",
            };
            if let Some(mut diagnostic) = missing(fs, trees, source, Path::new(top), &named) {
                if diagnostic.message.ends_with("names a file that does not exist") {
                    diagnostic.message =
                        format!("the working folder `{}` does not exist", cwd.value);
                    let near = diagnostic.help.take().filter(|h| h.starts_with("did you mean"));
                    diagnostic.help = Some(format!(
                        "{}the Copilot CLI cannot start a hook in a folder that is not there \
                         (`spawn /bin/bash ENOENT`), so the hook fails every time; `cwd` is \
                         relative to the repository's top",
                        near.map(|n| format!("{n} ")).unwrap_or_default()
                    ));
                }
                out.push(diagnostic);
                return;
            }
            folder = join(top, &dir);
            relative_to = "the hook's `cwd`";
        }
    }
    let commands = hook.commands();
    let mut seen: Vec<String> = Vec::new();
    for (_, command) in commands {
        let Some((path, span)) = command.and_then(script_path) else {
            continue;
        };
        if seen.contains(&path) {
            continue;
        }
        seen.push(path.clone());
        let named =
            Named { code: Code::MissingPath, what: "hook script", path: &path, span, relative_to };
        if let Some(diagnostic) = missing(fs, trees, source, Path::new(&folder), &named) {
            out.push(diagnostic.with_label(
                &source.path,
                Some(span),
                "the hook fails each time it runs",
            ));
        }
    }
}

/// A `cwd` agentc can look for: relative, without variables; `""` for the
/// top itself.
fn plain_folder(cwd: &Spanned<String>) -> Option<String> {
    let text = cwd.value.trim();
    let plain = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '\\' | '_' | '-' | ' '));
    if !plain || text.starts_with(['/', '\\', '~']) || text.contains(':') {
        return None;
    }
    let text = text.replace('\\', "/");
    let text = text.trim_start_matches("./").trim_end_matches('/');
    Some(if text == "." { String::new() } else { text.to_owned() })
}

fn join(top: &str, dir: &str) -> String {
    match top {
        "" => dir.to_owned(),
        top => format!("{top}/{dir}"),
    }
}
