//! Check: the assistants' configuration files, and what holds across files —
//! a hook's script and a plugin's component paths exist, a marketplace's
//! local plugins are there, and every MCP server a subagent names is
//! configured where its host reads. The rules themselves are the hosts'
//! (`hosts::claude_code`, `hosts::mcp`); this module finds what they apply
//! to and asks the file system, through the contained seam, what exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use agentc_schema::mcp::McpServers;
use agentc_schema::{HookType, HooksFile, Span};

use super::links::{Named, Trees, missing};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath, Severity};
use crate::dialects::AssistantDoc;
use crate::dialects::config::ConfigDoc;
use crate::discover::Owner;
use crate::fs::Fs;
use crate::hosts::claude_code::hooks::{self, Base};
use crate::hosts::claude_code::mcp::{self as claude_mcp, plugin_server, tool_form};
use crate::hosts::claude_code::{plugins, settings};
use crate::hosts::mcp::{self, Reader};
use crate::hosts::{cline, cursor, gemini, kiro};
use crate::parse::decode::decode;
use crate::parse::files::entry_value;
use crate::parse::tree::{Node, Tree, Value};
use crate::project::{Plugin, Project};
use crate::repo_files::Lazy;
use crate::source::Source;
use crate::suggest::{NameIndex, confident, did_you_mean};

/// What the checks found, and the plugin folders the marketplaces list.
pub struct Checked {
    pub diagnostics: Vec<Diagnostic>,
    /// Local plugin sources that exist: a marketplace entry makes such a
    /// folder a plugin even when it holds no component of its own
    /// (`"strict": false`), so it is not a stray of its folder of plugins.
    pub listed: Vec<RelPath>,
}

/// Whether `plugin` gives Claude Code something to load: a component (a
/// skill, a subagent or command, hooks or MCP servers), read or not, or
/// one its manifest declares in place. A plugin of nothing installs empty,
/// manifest or not (its skills one folder too deep, say).
fn holds_something(project: &Project, plugin: &Plugin) -> bool {
    const DECLARED: [&str; 7] =
        ["agents", "commands", "skills", "hooks", "mcpServers", "lspServers", "outputStyles"];
    let name = &plugin.dir.name;
    let owned = |owner: &Owner| matches!(owner, Owner::Plugin(n) if n == name);
    // A folder read for another host too (`./.claude`, whose subagents are
    // the project's) holds its components under its own path.
    let folder = plugin.dir.folder.path.trim_end_matches('/');
    let under = |file: &RelPath| {
        !folder.is_empty()
            && file.origin == plugin.dir.folder.origin
            && file.path.strip_prefix(folder).is_some_and(|rest| rest.starts_with('/'))
    };
    let declares = plugin
        .manifest
        .as_ref()
        .is_some_and(|(_, doc)| DECLARED.iter().any(|key| entry_value(&doc.tree, key).is_some()));
    declares
        || project.skills.iter().any(|s| owned(&s.file.owner) || under(&s.file.file.rel))
        || project.unparsed_skills.iter().any(|s| owned(&s.owner) || under(&s.file.rel))
        || project
            .assistants
            .iter()
            .any(|a| a.file.plugin.as_ref() == Some(name) || under(&a.file.file.rel))
        || project.configs.iter().any(|c| {
            c.file.plugin.as_ref().is_some_and(|folder| same_folder(folder, &plugin.dir.folder))
        })
}

/// Every check of the configuration files and plugin manifests, and the MCP
/// servers the subagents name.
pub fn check(fs: &dyn Fs, trees: &Trees<'_>, project: &Project) -> Checked {
    let mut out = Vec::new();
    let mut listed = Vec::new();
    // Listed the first time a rule's glob asks, and once.
    let files = Lazy::default();
    // Imported files read once for every memory file that imports them.
    let mut followed = super::memory::Followed::default();
    let repo = || files.get(fs, trees.root());
    let mut gemini_commands = Vec::new();
    for config in &project.configs {
        let source = &config.source;
        let plugin = config.file.plugin.as_ref();
        match &config.doc {
            ConfigDoc::Marketplace(doc) => {
                let sources = plugins::marketplace(source, &doc.value, &mut out);
                let top = grandparent(&source.path);
                for (name, found, strict) in sources {
                    let Some(plugins::Source_::Local(path, span)) = found else {
                        continue;
                    };
                    let named = Named {
                        code: Code::MissingPath,
                        what: "plugin source",
                        path: &path,
                        span,
                        relative_to: "the marketplace's folder (the one holding `.claude-plugin/`)",
                    };
                    if let Some(diagnostic) = missing(fs, trees, source, Path::new(&top), &named) {
                        out.push(diagnostic);
                        continue;
                    }
                    let folder =
                        RelPath { origin: source.path.origin, path: top_join(&top, &path) };
                    listed.push(folder.clone());
                    let is_plugin = project.plugins.iter().any(|p| {
                        same_folder(&p.dir.folder, &folder) && holds_something(project, p)
                    });
                    if !is_plugin && strict != Some(false) {
                        out.push(
                            Diagnostic::at(
                                Code::MissingPath,
                                &source.path,
                                span,
                                format!(
                                    "the plugin `{}` comes from `{}`, where Claude Code \
                                     2.1.332 finds nothing to load: it installs the plugin empty",
                                    name.value,
                                    if path.is_empty() { "./" } else { path.as_str() }
                                ),
                            )
                            .with_help(
                                "a plugin's folder holds `.claude-plugin/plugin.json` or its \
                                 components (`agents/*.md`, `commands/*.md`, \
                                 `skills/<skill>/SKILL.md`, `hooks/hooks.json`); or set \
                                 `\"strict\": false` and list the components in the entry",
                            ),
                        );
                    }
                }
            }
            ConfigDoc::Hooks(doc) => {
                hooks_file(fs, trees, source, &doc.value, plugin, &mut out);
            }
            ConfigDoc::Settings(doc) => {
                let value = &doc.value;
                settings::values(source, &doc.tree, &mut out);
                settings::dangerous(source, &doc.tree, &mut out);
                if let Some(permissions) = &value.permissions {
                    settings::permissions(source, permissions, &mut out);
                }
                if let Some(hooks) = &value.hooks {
                    let file = HooksFile {
                        schema: None,
                        description: None,
                        hooks: hooks.clone(),
                        modules: None,
                    };
                    hooks_file(fs, trees, source, &file, None, &mut out);
                }
                let servers = project_servers(project);
                let defined: BTreeSet<&str> = servers.iter().map(String::as_str).collect();
                let index = NameIndex::new(servers.iter().map(String::as_str));
                let lists = [&value.enabled_mcpjson_servers, &value.disabled_mcpjson_servers];
                let names =
                    lists.into_iter().flatten().flat_map(|names| names.value.names(names.span));
                for name in names {
                    if defined.contains(name.value.as_str()) {
                        continue;
                    }
                    out.push(unknown_server(
                        source,
                        name.span,
                        &name.value,
                        &index.near(&name.value),
                        "`.mcp.json`",
                    ));
                }
            }
            ConfigDoc::Mcp(doc) => {
                mcp::servers(source, &doc.value.mcp_servers, Reader::ClaudeCode, None, &mut out);
            }
            ConfigDoc::VscodeMcp(doc) => {
                let inputs = Some(doc.value.inputs.as_slice());
                mcp::servers(source, &doc.value.servers, Reader::VsCode, inputs, &mut out);
            }
            ConfigDoc::CodexMetadata(doc) => {
                crate::hosts::codex::metadata(source, &doc.value, &mut out);
                // The skill's folder: `<skill>/agents/openai.yaml`.
                let skill = grandparent(&source.path);
                let icons = doc.value.interface.iter().flat_map(|i| [&i.icon_small, &i.icon_large]);
                for icon in icons.flatten() {
                    let Some(path) = crate::hosts::codex::icon_path(&icon.value) else {
                        continue;
                    };
                    let named = Named {
                        code: Code::MissingPath,
                        what: "icon",
                        path,
                        span: icon.span,
                        relative_to: "the skill's folder",
                    };
                    if let Some(diagnostic) = missing(fs, trees, source, Path::new(&skill), &named)
                    {
                        // Codex drops a missing icon and shows the skill without it.
                        out.push(diagnostic.with_severity(Severity::Warning));
                    }
                }
            }
            ConfigDoc::Prompt(md) => super::copilot_files::prompt(project, source, md, &mut out),
            ConfigDoc::Instructions(md) => {
                super::copilot_files::apply_to(fs, trees, &files, source, md, &mut out);
            }
            ConfigDoc::Markdown { .. } => {
                let dialect = config.file.dialect;
                super::memory::imports(fs, trees, source, dialect, &mut followed, &mut out);
            }
            ConfigDoc::CursorRule(md) => cursor::check(source, md, repo(), &mut out),
            ConfigDoc::ClineRule(md) => cline::check(source, md, repo(), &mut out),
            ConfigDoc::KiroSteering(md) => kiro::check(source, md, repo(), &mut out),
            ConfigDoc::ClaudeRule(md) => {
                crate::hosts::claude_code::rules::check_rule(source, md, repo(), &mut out)
            }
            ConfigDoc::GeminiCommand(_) => gemini_commands.push(source),
            ConfigDoc::GeminiExtension(doc) => {
                context_files(fs, trees, source, &doc.value.context_file_name, &mut out);
            }
            ConfigDoc::OpencodeAgent(_)
            | ConfigDoc::OpencodeCommand(_)
            | ConfigDoc::OpencodeConfig(_)
            | ConfigDoc::OutputStyle(_) => {}
            ConfigDoc::CopilotHooks(doc) => {
                super::copilot_hooks::scripts(fs, trees, source, &doc.value, &mut out);
            }
            ConfigDoc::CopilotSetupSteps(_) => {}
            // Across files: `super::codex` below.
            ConfigDoc::CodexConfig(_) | ConfigDoc::CodexHooks(_) | ConfigDoc::CodexAgent(_) => {}
            // Across files: `super::cursor` below.
            ConfigDoc::CursorHooks(_)
            | ConfigDoc::CursorEnvironment(_)
            | ConfigDoc::CursorCli(_)
            | ConfigDoc::CursorAgent(_) => {}
            ConfigDoc::GeminiSettings(_)
            | ConfigDoc::GeminiAgent(_)
            | ConfigDoc::GeminiHooks(_) => {}
            ConfigDoc::CodexPlugin(doc) => {
                codex_plugin_paths(fs, trees, source, &doc.tree, &mut out)
            }
        }
    }
    gemini::duplicates(&gemini_commands, &mut out);
    super::codex::check(fs, trees, project, &mut out);
    super::cursor::check(fs, trees, project, &mut out);
    for plugin in &project.plugins {
        manifest(fs, trees, plugin, &mut out);
    }
    frontmatter(fs, trees, project, &mut out);
    subagent_servers(project, &mut out);
    super::copilot_tools::check(project, &mut out);
    // What each host reads into the context at start depends on every
    // skill's and assistant's frontmatter: redone with these on each update.
    out.extend(crate::budget::check(project));
    collection_of_rules(project, &mut out);
    Checked { diagnostics: out, listed }
}

/// How many rules of one kind must match nothing before they are told as one.
const COLLECTION: usize = 10;

/// A repository that keeps rules to copy elsewhere (a collection of Cursor
/// or Claude Code rules for many stacks) matches few of their globs itself:
/// when [`COLLECTION`] or more rules of one kind match no file, they are one
/// warning at the first, naming how many, not one each.
fn collection_of_rules(project: &Project, out: &mut Vec<Diagnostic>) {
    let dialect_of: std::collections::HashMap<&RelPath, agentc_schema::Dialect> =
        project.configs.iter().map(|c| (&c.source.path, c.file.dialect)).collect();
    let mut unmatched: BTreeMap<agentc_schema::Dialect, BTreeSet<RelPath>> = BTreeMap::new();
    for diagnostic in out.iter().filter(|d| d.code == Code::UnmatchedGlob) {
        let file = &diagnostic.location.file;
        if let Some(dialect) = dialect_of.get(file) {
            unmatched.entry(*dialect).or_default().insert(file.clone());
        }
    }
    for (dialect, files) in unmatched.into_iter().filter(|(_, files)| files.len() >= COLLECTION) {
        let Some(first) = files.first().cloned() else { continue };
        let Some(at) =
            out.iter().position(|d| d.code == Code::UnmatchedGlob && d.location.file == first)
        else {
            continue;
        };
        let mut summary = out[at].clone();
        out.retain(|d| !(d.code == Code::UnmatchedGlob && files.contains(&d.location.file)));
        summary.message = format!(
            "the globs of {} {} files match no file in the repository, this one's among them",
            files.len(),
            dialect.name()
        );
        summary.help = Some(
            "a rule whose globs match nothing never applies; if this repository keeps rules to \
             copy into others, that is expected — otherwise give each rule globs that match the \
             files it is for"
                .to_owned(),
        );
        summary.fix = None;
        out.push(summary);
    }
}

/// The files an extension's `contextFileName` names, beside its manifest:
/// Gemini CLI loads none that is missing, silently.
fn context_files(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    names: &Option<serde_json::Value>,
    out: &mut Vec<Diagnostic>,
) {
    if names.is_none() {
        return;
    }
    let Ok(parsed) = crate::parse::json::parse(&source.text) else {
        return;
    };
    let Some(node) = entry_value(&parsed.root, "contextFileName") else {
        return;
    };
    let folder = Path::new(&*source.path.path).parent().unwrap_or(Path::new(""));
    for pattern in crate::hosts::patterns(node, false) {
        let named = Named {
            code: Code::MissingPath,
            what: "context file",
            path: &pattern.text,
            span: pattern.span,
            relative_to: "the extension's folder",
        };
        if let Some(diagnostic) = missing(fs, trees, source, folder, &named) {
            out.push(diagnostic.with_severity(Severity::Warning));
        }
    }
}

/// A hooks file's own rules, and that each script it names exists.
fn hooks_file(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    file: &HooksFile,
    plugin: Option<&RelPath>,
    out: &mut Vec<Diagnostic>,
) {
    hooks::check(source, &file.hooks, out);
    for hook in file.hooks.values().flatten().flat_map(|group| &group.hooks) {
        let (Some(HookType::Command), Some(command)) =
            (hook.value.hook_type(), &hook.value.command)
        else {
            continue;
        };
        let Some((base, path, span)) = hooks::script_path(command) else {
            continue;
        };
        let (folder, relative_to) = match (base, plugin) {
            (Base::Plugin, Some(plugin)) => (plugin.path.to_string(), "the plugin's folder"),
            (Base::Plugin, None) => {
                out.push(
                    Diagnostic::at(
                        Code::InvalidValue,
                        &source.path,
                        span,
                        "`${CLAUDE_PLUGIN_ROOT}` is set only for a plugin's hooks",
                    )
                    .with_severity(Severity::Warning)
                    .with_help(
                        "in project settings, name scripts from the project: \
                         `\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/<script>`",
                    ),
                );
                continue;
            }
            (Base::Project, _) => (String::new(), "the project's top"),
        };
        let named =
            Named { code: Code::MissingPath, what: "hook script", path: &path, span, relative_to };
        out.extend(missing(fs, trees, source, Path::new(&folder), &named));
    }
}

/// A plugin manifest's component paths: written `./…`, and there.
fn manifest(fs: &dyn Fs, trees: &Trees<'_>, plugin: &Plugin, out: &mut Vec<Diagnostic>) {
    let Some((source, doc)) = &plugin.manifest else {
        return;
    };
    let folder = plugin.dir.folder.path.to_string();
    let value = &doc.value;
    if let Some(agents) = &value.agents {
        plugins::agent_files(source, agents, out);
    }
    for (paths, what) in [
        (&value.commands, "command path"),
        (&value.agents, "agent path"),
        (&value.skills, "skill path"),
        (&value.output_styles, "output style path"),
    ] {
        let Some(paths) = paths else {
            continue;
        };
        plugins::relative(source, paths, true, out);
        for path in paths.iter() {
            let named = Named {
                code: Code::MissingPath,
                what,
                path: path.value.as_str(),
                span: path.span,
                relative_to: "the plugin's folder",
            };
            out.extend(missing(fs, trees, source, Path::new(&folder), &named));
        }
    }
    let plugin_folder = Some(&plugin.dir.folder);
    if let Some(node) = entry_value(&doc.tree, "hooks") {
        match &node.value {
            Value::Map(_) => {
                // Inline: the hooks file's shape.
                if let Some(file) = decode_quietly::<HooksFile>(node) {
                    hooks_file(fs, trees, source, &file, plugin_folder, out);
                }
            }
            _ => paths_in(fs, trees, source, node, &folder, "hooks file", out),
        }
    }
    if let Some(node) = entry_value(&doc.tree, "mcpServers") {
        match &node.value {
            Value::Map(_) => {
                if let Some(servers) = decode_quietly::<McpServers>(node) {
                    mcp::servers(source, &servers, Reader::ClaudeCode, None, out);
                }
            }
            _ => paths_in(fs, trees, source, node, &folder, "MCP configuration", out),
        }
    }
}

/// What frontmatter configures beside the file itself: the `hooks` of a
/// Claude Code subagent, command or skill (Claude Code's hooks shape), and a
/// Copilot agent's `mcp-servers`.
fn frontmatter(fs: &dyn Fs, trees: &Trees<'_>, project: &Project, out: &mut Vec<Diagnostic>) {
    let folder_of = |plugin: Option<&str>| {
        let plugin = plugin?;
        project.plugins.iter().find(|p| p.dir.name == plugin).map(|p| &p.dir.folder)
    };
    // A tree let go is built again only for a file with the key, and only
    // for the moment.
    let hooks = |source: &Source, tree: &Tree, plugin: Option<&str>, out: &mut Vec<_>| {
        if !tree.has_key("hooks") {
            return;
        }
        let hooks = tree.with(|tree| {
            entry_value(tree, "hooks").and_then(decode_quietly::<agentc_schema::hooks::Hooks>)
        });
        if let Some(hooks) = hooks {
            let file = HooksFile { schema: None, description: None, hooks, modules: None };
            hooks_file(fs, trees, source, &file, folder_of(plugin), out);
        }
    };
    for assistant in &project.assistants {
        let source = &assistant.source;
        let plugin = assistant.file.plugin.as_deref();
        match &assistant.doc {
            AssistantDoc::Subagent(md) => hooks(source, &md.front.tree, plugin, out),
            AssistantDoc::Command(md) => hooks(source, &md.front.tree, plugin, out),
            AssistantDoc::Copilot(md) if md.front.tree.has_key("mcp-servers") => {
                let servers = md.front.tree.with(|tree| {
                    entry_value(tree, "mcp-servers").and_then(decode_quietly::<McpServers>)
                });
                if let Some(servers) = servers {
                    mcp::servers(source, &servers, Reader::Copilot, None, out);
                }
            }
            AssistantDoc::Copilot(_) => {}
        }
    }
    for skill in
        project.skills.iter().filter(|s| s.file.dialect == agentc_schema::Dialect::ClaudeSkill)
    {
        let plugin = match &skill.file.owner {
            crate::discover::Owner::Plugin(name) => Some(name.as_str()),
            _ => None,
        };
        hooks(&skill.source, &skill.parsed.front.tree, plugin, out);
    }
}

/// A value the manifest's own decode already reported on, decoded again
/// into the type of what it configures.
fn decode_quietly<T: serde::de::DeserializeOwned>(node: &Node) -> Option<T> {
    decode::<T>(node).value
}

/// The paths of a manifest value written as one path or a list.
fn paths_in(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    node: &Node,
    folder: &str,
    what: &str,
    out: &mut Vec<Diagnostic>,
) {
    for item in node.one_or_many() {
        let Value::Str(path) = &item.value else {
            continue;
        };
        let span = match item.text_at {
            Some(at) => Span::new(at, at + path.len()),
            None => item.span,
        };
        let named =
            Named { code: Code::MissingPath, what, path, span, relative_to: "the plugin's folder" };
        out.extend(missing(fs, trees, source, Path::new(folder), &named));
    }
}

/// The servers of the project's own `.mcp.json` (not a plugin's).
fn project_servers(project: &Project) -> Vec<String> {
    let mut names = Vec::new();
    for config in &project.configs {
        if let (ConfigDoc::Mcp(doc), None) = (&config.doc, &config.file.plugin) {
            names.extend(doc.value.mcp_servers.keys().map(|k| k.value.clone()));
        }
    }
    names
}

/// Each MCP server a Claude Code subagent names — in `mcpServers`, or as
/// the `<server>` of an `mcp__<server>__<tool>` tool — is configured: in the
/// project's `.mcp.json`, by a plugin (`plugin_<plugin>_<server>`), or
/// inline in the subagent.
fn subagent_servers(project: &Project, out: &mut Vec<Diagnostic>) {
    let mut configured: BTreeSet<String> = BTreeSet::new();
    let mut any_config = false;
    for config in &project.configs {
        let ConfigDoc::Mcp(doc) = &config.doc else {
            continue;
        };
        any_config = true;
        let plugin =
            config.file.plugin.as_ref().and_then(|folder| {
                project.plugins.iter().find(|p| same_folder(&p.dir.folder, folder))
            });
        for name in doc.value.mcp_servers.keys() {
            match plugin {
                Some(plugin) => {
                    configured.insert(plugin_server(&plugin.dir.name, &name.value));
                    // A plugin's own subagents may name its servers plainly.
                    configured.insert(tool_form(&name.value));
                }
                None => {
                    configured.insert(tool_form(&name.value));
                }
            }
        }
    }
    for plugin in &project.plugins {
        let Some((_, doc)) = &plugin.manifest else {
            continue;
        };
        if let Some(node) = entry_value(&doc.tree, "mcpServers")
            && let Value::Map(entries) = &node.value
        {
            any_config = true;
            for entry in entries {
                configured.insert(plugin_server(&plugin.dir.name, &entry.key));
                configured.insert(tool_form(&entry.key));
            }
        }
    }
    let known = NameIndex::new(configured.iter().map(String::as_str));
    for assistant in &project.assistants {
        let AssistantDoc::Subagent(md) = &assistant.doc else {
            continue;
        };
        let source = &assistant.source;
        let claude_mcp::Named { names: named, inline } = claude_mcp::named(md);
        for (name, span) in named {
            let form = tool_form(&name);
            if configured.contains(&form) || inline.contains(&form) {
                continue;
            }
            let (what, scope) = if any_config {
                ("configured in this project", "`.mcp.json` or a plugin")
            } else {
                ("configured anywhere agentc can see", "no `.mcp.json`")
            };
            let mut diagnostic = Diagnostic::at(
                Code::UnknownMcpServer,
                &source.path,
                span,
                format!("the MCP server `{name}` is not {what}"),
            );
            let near = known.near(&form);
            match confident(&form, near.iter().copied()) {
                Some(fix) => {
                    diagnostic = diagnostic
                        .with_severity(Severity::Error)
                        .with_help(format!(
                            "did you mean `{fix}`? Claude Code gives the subagent no server by \
                             another name, and its tools never appear"
                        ))
                        .with_fix(format!("write `{fix}`"), &source.path, Some(span), fix);
                }
                None => {
                    let close = did_you_mean(&form, near.iter().copied());
                    let help = match close {
                        Some(close) => format!("did you mean `{close}`? "),
                        None => String::new(),
                    };
                    diagnostic = diagnostic.with_severity(Severity::Warning).with_help(format!(
                        "{help}the project has {scope} defining it; if people configure it in \
                         their own settings (`claude mcp add`), ignore this"
                    ));
                    // No near miss: most such servers are the user's own,
                    // configured where agentc cannot see.
                    if close.is_none() {
                        diagnostic = diagnostic.pedantic();
                    }
                }
            }
            out.push(diagnostic);
        }
    }
}

/// A server named in settings that the project's `.mcp.json` does not
/// define; `servers`, the ones it defines near the name.
fn unknown_server(
    source: &Source,
    span: Span,
    name: &str,
    servers: &[&str],
    file: &str,
) -> Diagnostic {
    let near = did_you_mean(name, servers.iter().copied());
    let help = match near {
        Some(close) => {
            format!("did you mean `{close}`? Claude Code ignores a name {file} does not define")
        }
        None => format!(
            "Claude Code ignores a name {file} does not define; the project's servers are listed in `.mcp.json` under `mcpServers`"
        ),
    };
    let diagnostic = Diagnostic::at(
        Code::UnknownMcpServer,
        &source.path,
        span,
        format!("the MCP server `{name}` is not in the project's {file}"),
    )
    .with_severity(Severity::Warning)
    .with_help(help);
    match confident(name, servers.iter().copied()).filter(|f| near == Some(*f)) {
        Some(fix) => diagnostic.with_fix(
            format!("replace `{name}` with `{fix}`"),
            &source.path,
            crate::parse::misspelt::written_span(&source.text, span, name),
            fix,
        ),
        None => diagnostic,
    }
}

/// The folder two levels up from a file (`x/.claude-plugin/marketplace.json` → `x`).
fn grandparent(file: &RelPath) -> String {
    let path = Path::new(&*file.path);
    path.parent()
        .and_then(Path::parent)
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default()
}

fn top_join(top: &str, path: &str) -> std::sync::Arc<str> {
    let path = path.trim_end_matches('/');
    let joined = if top.is_empty() { format!("{path}/") } else { format!("{top}/{path}/") };
    joined.into()
}

fn same_folder(a: &RelPath, b: &RelPath) -> bool {
    a.origin == b.origin && a.path.trim_end_matches('/') == b.path.trim_end_matches('/')
}

/// The files a Codex plugin's manifest names (`skills`, `mcpServers`,
/// `apps`, `hooks`, `interface`'s images), relative to the plugin's folder.
/// Codex loads the plugin without the missing part: a warning.
fn codex_plugin_paths(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    tree: &Node,
    out: &mut Vec<Diagnostic>,
) {
    use crate::hosts::codex::plugin::refused;
    let manifest = Path::new(&*source.path.path);
    let Some(folder) = manifest.parent().and_then(Path::parent) else {
        return;
    };
    let Value::Map(entries) = &tree.value else {
        return;
    };
    let mut named: Vec<(&str, &Node)> = Vec::new();
    for entry in entries {
        match entry.key.as_str() {
            "skills" | "mcpServers" | "apps" | "hooks" => named.push(("component", &entry.value)),
            "interface" => {
                if let Value::Map(fields) = &entry.value.value {
                    for field in fields {
                        if matches!(
                            field.key.as_str(),
                            "composerIcon" | "logo" | "logoDark" | "screenshots"
                        ) {
                            named.push(("image", &field.value));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    for (what, node) in named {
        for item in node.one_or_many() {
            let Value::Str(path) = &item.value else {
                continue;
            };
            if path.is_empty() || refused(path).is_some() {
                continue;
            }
            let span = match item.text_at {
                Some(at) => Span::new(at, at + path.len()),
                None => item.span,
            };
            let named = Named {
                code: Code::MissingPath,
                what,
                path,
                span,
                relative_to: "the plugin's folder",
            };
            if let Some(diagnostic) = missing(fs, trees, source, folder, &named) {
                // Codex loads the plugin without the part, and a manifest
                // generated for many plugins names `./skills/` in each
                // (wshobson/agents: 41), most with none: what the host
                // tolerates is pedantic.
                out.push(diagnostic.with_severity(Severity::Warning).pedantic().with_help(
                    "create it or correct the path; Codex 0.171.0 loads the plugin without it",
                ));
            }
        }
    }
}
