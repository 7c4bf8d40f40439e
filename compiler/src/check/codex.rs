//! Codex's project files across files: a hook's script exists, a role of
//! `config.toml` names an agent file that is there, and an agent file no
//! role names defines its own name, description and instructions
//! (`hosts::codex`).

use std::collections::BTreeSet;
use std::path::Path;

use super::links::{Named, Trees, missing};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::dialects::config::ConfigDoc;
use crate::fs::Fs;
use crate::hosts::codex::{agents, hooks};
use crate::parse::decode::decode;
use crate::parse::files::{entry_value, key_span};
use crate::parse::tree::{Node, Value};
use crate::project::Project;
use crate::source::Source;
use agentc_schema::Spanned;
use agentc_schema::codex_config::{CodexHook, CodexHookGroup};

/// The checks over a project's Codex files.
pub fn check(fs: &dyn Fs, trees: &Trees<'_>, project: &Project, out: &mut Vec<Diagnostic>) {
    // The agent files the roles of each `config.toml` name, from the top.
    let mut named: BTreeSet<String> = BTreeSet::new();
    for config in &project.configs {
        let ConfigDoc::CodexConfig(doc) = &config.doc else { continue };
        let source = &config.source;
        let dot_codex = parent(&source.path.path);
        for (path, span) in role_files(&doc.tree) {
            if crate::fs::is_absolute(Path::new(&path)) {
                continue;
            }
            let named_file = Named {
                code: Code::MissingPath,
                what: "agent file",
                path: &path,
                span,
                relative_to: "the `.codex/` folder holding `config.toml`",
            };
            match missing(fs, trees, source, Path::new(&dot_codex), &named_file) {
                // Codex drops the role ("Ignoring malformed agent role
                // definition: … must point to an existing file").
                Some(diagnostic) => out.push(diagnostic),
                None => {
                    named.insert(join(&dot_codex, &path));
                }
            }
        }
    }
    for config in &project.configs {
        let source = &config.source;
        match &config.doc {
            ConfigDoc::CodexAgent(doc) if !named.contains(&*source.path.path) => {
                agents::required(source, &doc.value, out);
            }
            // A plugin's hooks run from elsewhere: only the project's are
            // looked up.
            ConfigDoc::CodexHooks(doc) if source.path.path.ends_with(".codex/hooks.json") => {
                let hooks = doc.value.hooks.values().flatten().flat_map(|g| &g.hooks);
                scripts(fs, trees, source, hooks, out);
            }
            ConfigDoc::CodexConfig(doc) => {
                let Some(table) = entry_value(&doc.tree, "hooks") else { continue };
                let Value::Map(events) = &table.value else { continue };
                let groups: Vec<Vec<CodexHookGroup>> = (events.iter())
                    .filter(|e| hooks::EVENTS.contains(&e.key.as_str()))
                    .filter_map(|e| decode::<Vec<CodexHookGroup>>(&e.value).value)
                    .collect();
                let hooks = groups.iter().flatten().flat_map(|g| &g.hooks);
                scripts(fs, trees, source, hooks, out);
                // Codex loads both, with a warning.
                let json = format!("{}/hooks.json", parent(&source.path.path));
                let both = project.configs.iter().any(|c| {
                    matches!(c.doc, ConfigDoc::CodexHooks(_)) && *c.source.path.path == *json
                });
                if both && !groups.is_empty() {
                    let span = key_span(&doc.tree, "hooks").unwrap_or(table.span);
                    out.push(
                        Diagnostic::at(
                            Code::DuplicateName,
                            &source.path,
                            span,
                            "this project's hooks are in both `[hooks]` here and `hooks.json`",
                        )
                        .with_severity(Severity::Warning)
                        .with_help(
                            "Codex 0.171.0 runs both, with a warning (\"loading hooks from both \
                             … prefer a single representation for this layer\"); keep them in \
                             one place",
                        ),
                    );
                }
            }
            _ => {}
        }
    }
}

/// Each hook's script the command names, from the repository's top (the
/// folder holding `.codex/`), where Codex runs the hooks.
fn scripts<'h>(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    hooks: impl Iterator<Item = &'h Spanned<CodexHook>>,
    out: &mut Vec<Diagnostic>,
) {
    let top = parent(&parent(&source.path.path));
    for command in hooks.filter_map(|h| h.value.command.as_ref()) {
        let Some((path, span)) = hooks::script_path(command) else { continue };
        let named = Named {
            code: Code::MissingPath,
            what: "hook script",
            path: &path,
            span,
            relative_to: "the repository's top, where Codex runs its hooks",
        };
        if let Some(diagnostic) = missing(fs, trees, source, Path::new(&top), &named) {
            // Codex loads the hook; the command fails each time it runs.
            out.push(diagnostic.with_severity(Severity::Warning));
        }
    }
}

/// `[agents.<role>] config_file = "…"`: each path and where it is written.
fn role_files(tree: &Node) -> Vec<(String, agentc_schema::Span)> {
    let Value::Map(top) = &tree.value else { return Vec::new() };
    let Some(agents) = top.iter().find(|e| e.key == "agents") else { return Vec::new() };
    let Value::Map(roles) = &agents.value.value else { return Vec::new() };
    roles
        .iter()
        .filter_map(|role| match &role.value.value {
            Value::Map(fields) => fields.iter().find(|f| f.key == "config_file"),
            _ => None,
        })
        .filter_map(|field| match &field.value.value {
            Value::Str(path) => Some((path.clone(), field.value.span)),
            _ => None,
        })
        .collect()
}

/// A path's folder (`""` at the top).
fn parent(path: &str) -> String {
    path.rsplit_once('/').map(|(folder, _)| folder.to_owned()).unwrap_or_default()
}

/// `path` from `folder`, `./` and `..` resolved.
fn join(folder: &str, path: &str) -> String {
    let mut parts: Vec<&str> = folder.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}
