//! Cursor's project files across files: a hook's script is there, from the
//! project's top where Cursor runs a project's hooks, and the Dockerfile an
//! `environment.json` builds is there, relative to `.cursor/`
//! (`hosts::cursor`). Cursor loads either file without them and fails only
//! when the hook runs or the machine is built, so both are warnings.

use std::path::Path;

use super::links::{Named, Trees, missing};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::dialects::config::ConfigDoc;
use crate::fs::Fs;
use crate::hosts::cursor::hooks;
use crate::project::Project;

/// The checks over a project's Cursor files.
pub fn check(fs: &dyn Fs, trees: &Trees<'_>, project: &Project, out: &mut Vec<Diagnostic>) {
    for config in &project.configs {
        let source = &config.source;
        // The folder holding `.cursor/`, and `.cursor/` itself.
        let dot_cursor = parent(&source.path.path);
        let top = parent(&dot_cursor);
        match &config.doc {
            ConfigDoc::CursorHooks(doc) => {
                let hooks = doc.value.hooks.values().flatten();
                for command in hooks.filter_map(|h| h.value.command.as_ref()) {
                    let Some((path, span)) = hooks::script_path(command) else { continue };
                    let named = Named {
                        code: Code::MissingPath,
                        what: "hook script",
                        path: &path,
                        span,
                        relative_to: "the project's top, where Cursor runs a project's hooks",
                    };
                    let Some(diagnostic) = missing(fs, trees, source, Path::new(&top), &named)
                    else {
                        continue;
                    };
                    let diagnostic = diagnostic.with_severity(Severity::Warning);
                    // Written from `.cursor/`, where the file is: Cursor runs
                    // it from the top, so the path needs `.cursor/` before it.
                    let from_dot_cursor = Named { relative_to: "`.cursor/`", ..named };
                    if missing(fs, trees, source, Path::new(&dot_cursor), &from_dot_cursor)
                        .is_none()
                    {
                        let meant = format!(".cursor/{path}");
                        let diagnostic = diagnostic.with_help(format!(
                            "Cursor runs a project's hooks from the project's top, not from \
                             `.cursor/`: the script is `{meant}`"
                        ));
                        // The span is the path itself only where the command
                        // is written verbatim.
                        out.push(match command.text_at {
                            Some(_) => diagnostic.with_fix(
                                format!("write `{meant}`"),
                                &source.path,
                                Some(span),
                                meant,
                            ),
                            None => diagnostic,
                        });
                        continue;
                    }
                    out.push(diagnostic);
                }
            }
            ConfigDoc::CursorEnvironment(doc) => {
                let dockerfile = doc.value.build.as_ref().and_then(|b| b.dockerfile.as_ref());
                let Some(dockerfile) = dockerfile.filter(|d| !d.value.contains('$')) else {
                    continue;
                };
                if crate::fs::is_absolute(Path::new(&dockerfile.value)) {
                    continue;
                }
                let named = Named {
                    code: Code::MissingPath,
                    what: "Dockerfile",
                    path: &dockerfile.value,
                    span: dockerfile.verbatim(0..dockerfile.value.len()).unwrap_or(dockerfile.span),
                    relative_to: "the `.cursor/` folder holding `environment.json`",
                };
                if let Some(diagnostic) = missing(fs, trees, source, Path::new(&dot_cursor), &named)
                {
                    out.push(diagnostic.with_severity(Severity::Warning));
                }
            }
            _ => {}
        }
    }
}

/// A path's folder (`""` at the top).
fn parent(path: &str) -> String {
    path.rsplit_once('/').map(|(folder, _)| folder.to_owned()).unwrap_or_default()
}
