//! Resolve the assistants' configuration into the model: each plugin with
//! its components, each MCP server with the assistants that name it, and
//! the hooks by file and event — what the lockfile carries and `agentc
//! graph` draws. Problems with these files are the checks' (`check::config`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use agentc_schema::lockfile::{HookSet, McpServer, Plugin};
use agentc_schema::mcp::McpServers;

use crate::diagnostic::RelPath;
use crate::dialects::AssistantDoc;
use crate::dialects::config::ConfigDoc;
use crate::hosts::claude_code::mcp::{self, plugin_server, tool_form};
use crate::model::Model;
use crate::parse::files::entry_value;
use crate::parse::tree::{Node, Value};
use crate::project::Project;

/// Fills in the model's plugins, MCP servers and hooks, and each
/// assistant's servers.
pub fn resolve(project: &Project, model: &mut Model) {
    let plugin_of = |folder: &RelPath| {
        project
            .plugins
            .iter()
            .find(|p| p.dir.folder.origin == folder.origin && p.dir.folder.path == folder.path)
            .map(|p| p.dir.name.clone())
    };
    let mut servers = Vec::new();
    let mut hooks = Vec::new();
    for config in &project.configs {
        let source = config.source.path.to_string();
        let plugin = config.file.plugin.as_ref().and_then(plugin_of);
        match &config.doc {
            ConfigDoc::Mcp(doc) => {
                let list = &doc.value.mcp_servers;
                servers.extend(server_list(list, &source, "claude-code", plugin.as_deref()));
            }
            ConfigDoc::VscodeMcp(doc) => {
                servers.extend(server_list(&doc.value.servers, &source, "vscode", None));
            }
            ConfigDoc::Hooks(doc) => {
                hooks.extend(
                    entry_value(&doc.tree, "hooks")
                        .map_or_else(Vec::new, |node| hook_sets(node, &source, plugin.as_deref())),
                );
            }
            ConfigDoc::Settings(doc) => {
                hooks.extend(
                    entry_value(&doc.tree, "hooks")
                        .map_or_else(Vec::new, |node| hook_sets(node, &source, None)),
                );
            }
            ConfigDoc::GeminiExtension(doc) => {
                if let Some(list) = &doc.value.mcp_servers {
                    servers.extend(server_list(list, &source, "gemini-cli", None));
                }
            }
            ConfigDoc::Marketplace(_)
            | ConfigDoc::CodexMetadata(_)
            | ConfigDoc::Prompt(_)
            | ConfigDoc::Instructions(_)
            | ConfigDoc::Markdown { .. }
            | ConfigDoc::CursorRule(_)
            | ConfigDoc::ClineRule(_)
            | ConfigDoc::OpencodeAgent(_)
            | ConfigDoc::OpencodeCommand(_)
            | ConfigDoc::OpencodeConfig(_)
            | ConfigDoc::GeminiCommand(_)
            | ConfigDoc::KiroSteering(_)
            | ConfigDoc::CopilotHooks(_)
            | ConfigDoc::CopilotSetupSteps(_)
            | ConfigDoc::ClaudeRule(_)
            | ConfigDoc::OutputStyle(_)
            | ConfigDoc::CodexConfig(_)
            | ConfigDoc::CodexHooks(_)
            | ConfigDoc::CursorHooks(_)
            | ConfigDoc::CursorEnvironment(_)
            | ConfigDoc::CursorCli(_)
            | ConfigDoc::CursorAgent(_)
            | ConfigDoc::CodexAgent(_)
            | ConfigDoc::GeminiSettings(_)
            | ConfigDoc::GeminiAgent(_) => {}
            ConfigDoc::CodexPlugin(_) | ConfigDoc::GeminiHooks(_) => {}
        }
    }
    for plugin in &project.plugins {
        let Some((source, doc)) = &plugin.manifest else {
            continue;
        };
        let file = source.path.to_string();
        let name = Some(plugin.dir.name.as_str());
        if let Some(node) = entry_value(&doc.tree, "mcpServers")
            && matches!(node.value, Value::Map(_))
            && let Some(list) = crate::parse::decode::decode::<McpServers>(node).value
        {
            servers.extend(server_list(&list, &file, "claude-code", name));
        }
        if let Some(node) = entry_value(&doc.tree, "hooks")
            && matches!(node.value, Value::Map(_))
        {
            // Inline: `{"hooks": {<event>: …}}`, the hooks file's shape.
            let events = entry_value(node, "hooks").unwrap_or(node);
            hooks.extend(hook_sets(events, &file, name));
        }
    }
    used_by(project, model, &mut servers);
    servers.sort_by(|a, b| (&a.id, &a.source).cmp(&(&b.id, &b.source)));
    hooks.sort_by(|a, b| (&a.source, &a.event).cmp(&(&b.source, &b.event)));
    model.plugins = project
        .plugins
        .iter()
        .map(|p| {
            let manifest = p.manifest.as_ref();
            let text = |field: &Option<agentc_schema::Spanned<agentc_schema::Text>>| {
                field.as_ref().map(|v| v.value.as_str().to_owned())
            };
            let name = &p.dir.name;
            Plugin {
                name: name.clone(),
                folder: p.dir.folder.to_string(),
                manifest: manifest.map(|(source, _)| source.path.to_string()),
                version: manifest
                    .and_then(|(_, doc)| doc.value.version.as_ref())
                    .map(|v| v.value.0.clone()),
                description: manifest.and_then(|(_, doc)| text(&doc.value.description)),
                skills: (model.skills.iter())
                    .filter(|s| s.plugin.as_ref() == Some(name))
                    .map(|s| s.qualified.clone())
                    .collect(),
                assistants: (model.assistants.iter())
                    .filter(|a| a.plugin.as_ref() == Some(name))
                    .map(|a| a.id.clone())
                    .collect(),
                mcp_servers: (servers.iter())
                    .filter(|s| s.plugin.as_ref() == Some(name))
                    .map(|s| s.id.clone())
                    .collect(),
                hook_events: (hooks.iter())
                    .filter(|h| h.plugin.as_ref() == Some(name))
                    .map(|h| h.event.clone())
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect(),
            }
        })
        .collect();
    model.plugins.sort_by(|a, b| a.folder.cmp(&b.folder));
    model.mcp_servers = servers;
    model.hooks = hooks;
}

/// The servers of one configuration, each as its host names it in tools.
fn server_list(
    list: &McpServers,
    source: &str,
    host: &str,
    plugin: Option<&str>,
) -> Vec<McpServer> {
    list.iter()
        .map(|(name, server)| {
            let server = &server.value;
            let transport = match server.kind.as_ref().map(|k| k.value.as_str()) {
                Some("local") | None if server.url.is_none() => "stdio",
                None => "http",
                Some(kind) => kind,
            };
            McpServer {
                id: plugin
                    .map_or_else(|| tool_form(&name.value), |p| plugin_server(p, &name.value)),
                name: name.value.clone(),
                source: source.to_owned(),
                host: host.to_owned(),
                plugin: plugin.map(str::to_owned),
                transport: transport.to_owned(),
                command: server.command.as_ref().map(|c| c.value.as_str().to_owned()),
                url: server.url.as_ref().map(|u| u.value.as_str().to_owned()),
                env: server.env.iter().flatten().map(|(k, _)| k.clone()).collect(),
                used_by: Vec::new(),
            }
        })
        .collect()
}

/// The hooks of an events object (`{<event>: [<matcher>…]}`), one set per
/// event, as written.
fn hook_sets(events: &Node, source: &str, plugin: Option<&str>) -> Vec<HookSet> {
    let Value::Map(entries) = &events.value else {
        return Vec::new();
    };
    entries
        .iter()
        .map(|entry| HookSet {
            source: source.to_owned(),
            plugin: plugin.map(str::to_owned),
            event: entry.key.clone(),
            matchers: match entry.value.to_json() {
                serde_json::Value::Array(items) => items,
                other => vec![other],
            },
        })
        .collect()
}

/// Which Claude Code subagents name which configured servers (Claude Code's
/// servers only: VS Code's are not a subagent's).
fn used_by(project: &Project, model: &mut Model, servers: &mut [McpServer]) {
    // The servers by the forms a subagent names them in — its id, and a
    // plugin's server plainly within its plugin (a plugin's own subagents
    // may) — so a name is looked up, not compared with every server.
    let mut by_id: HashMap<String, Vec<usize>> = HashMap::new();
    let mut by_plain: HashMap<(String, String), Vec<usize>> = HashMap::new();
    for (i, server) in servers.iter().enumerate().filter(|(_, s)| s.host == "claude-code") {
        by_id.entry(server.id.clone()).or_default().push(i);
        if let Some(plugin) = &server.plugin {
            by_plain.entry((plugin.clone(), tool_form(&server.name))).or_default().push(i);
        }
    }
    let mut by_assistant: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for assistant in &project.assistants {
        let AssistantDoc::Subagent(md) = &assistant.doc else {
            continue;
        };
        let named = mcp::named(md);
        let plugin = assistant.file.plugin.as_deref();
        for (name, _) in &named.names {
            let form = tool_form(name);
            let plain = plugin.and_then(|p| by_plain.get(&(p.to_owned(), form.clone())));
            let found = by_id.get(&form).into_iter().chain(plain).flatten();
            for &i in found {
                let server = &mut servers[i];
                let id = assistant.id();
                server.used_by.push(id.clone());
                by_assistant.entry(id).or_default().insert(server.id.clone());
            }
        }
    }
    for server in servers.iter_mut() {
        server.used_by.sort();
        server.used_by.dedup();
    }
    for assistant in &mut model.assistants {
        if let Some(ids) = by_assistant.remove(&assistant.id) {
            assistant.mcp_servers = ids.into_iter().collect();
        }
    }
}
