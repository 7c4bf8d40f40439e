//! The MCP servers a Claude Code subagent names, and how Claude Code writes
//! a server's name in tool names: what both the cross-file check and the
//! model's "who uses which server" read.

use std::collections::BTreeSet;

use agentc_schema::{ClaudeSubagentFrontmatter, Span};

use crate::parse::files::{Markdown, entry_value};
use crate::parse::tree::Value;

/// Claude Code's name for a server in tool names: characters outside
/// `[A-Za-z0-9_-]` become `_`.
pub fn tool_form(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .collect()
}

/// The id of a plugin's server in tool names: `plugin_<plugin>_<server>`.
pub fn plugin_server(plugin: &str, server: &str) -> String {
    tool_form(&format!("plugin_{plugin}_{server}"))
}

/// The servers a subagent names — in `mcpServers` and as the `<server>` of
/// `mcp__<server>__<tool>` tools, with where each is written — and those it
/// defines inline (in tool form).
pub struct Named {
    pub names: Vec<(String, Span)>,
    pub inline: BTreeSet<String>,
}

pub fn named(md: &Markdown<ClaudeSubagentFrontmatter>) -> Named {
    let mut names = Vec::new();
    let mut inline = BTreeSet::new();
    // A tree let go is built again only for a file with the key, and only
    // for the moment.
    let tree = &md.front.tree;
    if tree.has_key("mcpServers") {
        tree.with(|tree| {
            if let Some(node) = entry_value(tree, "mcpServers")
                && let Value::Seq(items) = &node.value
            {
                for item in items {
                    match &item.value {
                        Value::Str(name) => names.push((name.clone(), item.span)),
                        Value::Map(entries) => {
                            inline.extend(entries.iter().map(|e| tool_form(&e.key)));
                        }
                        _ => {}
                    }
                }
            }
        });
    }
    for rule in md.front.value.tools.iter().flat_map(|t| t.iter()) {
        let Some(rest) = rule.value.strip_prefix("mcp__") else {
            continue;
        };
        let server = rest.split("__").next().unwrap_or(rest);
        if !server.is_empty() {
            names.push((server.to_owned(), rule.token_span(5..5 + server.len())));
        }
    }
    Named { names, inline }
}
