//! Check: the MCP tools a Copilot custom agent or a VS Code prompt file
//! names in `tools`, written `<server>/<tool>` or `<server>/*` (VS Code's
//! form). The server is one of VS Code's built-in tool sets, a server the
//! repository configures (`.vscode/mcp.json`, `.mcp.json`, the agent's own
//! `mcp-servers`), or one each user installs — which agentc cannot see, so
//! only a near miss of a known server is reported: VS Code and the Copilot
//! CLI ignore a tool whose server they do not have.

use std::collections::BTreeSet;

use agentc_schema::{Spanned, ToolRules};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::dialects::AssistantDoc;
use crate::dialects::config::ConfigDoc;
use crate::project::Project;
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// The prefixes VS Code and Copilot give their own tools: VS Code's tool
/// sets (`read/problems`, `edit/editFiles`, `execute/runInTerminal`…) and
/// the MCP servers GitHub's agents have built in (`github/*`,
/// `playwright/*`).
pub const BUILT_IN_SETS: &[&str] = &[
    "agent",
    "browser",
    "edit",
    "execute",
    "read",
    "search",
    "todo",
    "vscode",
    "web",
    "github",
    "playwright",
];

/// Every `<server>/<tool>` of the Copilot agents' and prompt files' `tools`.
pub fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    let mut configured: BTreeSet<String> = BTreeSet::new();
    for config in &project.configs {
        match &config.doc {
            ConfigDoc::VscodeMcp(doc) => {
                configured.extend(doc.value.servers.keys().map(|k| k.value.clone()));
            }
            ConfigDoc::Mcp(doc) if config.file.plugin.is_none() => {
                configured.extend(doc.value.mcp_servers.keys().map(|k| k.value.clone()));
            }
            _ => {}
        }
    }
    for assistant in &project.assistants {
        let AssistantDoc::Copilot(md) = &assistant.doc else {
            continue;
        };
        let front = &md.front.value;
        let Some(tools) = &front.tools else {
            continue;
        };
        let own = front.mcp_servers.as_ref().and_then(|v| v.as_object());
        let mut known = configured.clone();
        known.extend(own.into_iter().flat_map(|m| m.keys().cloned()));
        servers(&assistant.source, tools, &known, out);
    }
    for config in &project.configs {
        if let ConfigDoc::Prompt(md) = &config.doc
            && let Some(tools) = &md.front.value.tools
        {
            servers(&config.source, tools, &configured, out);
        }
    }
}

/// The `<server>/…` entries of one `tools` list.
fn servers(
    source: &Source,
    tools: &ToolRules,
    known: &BTreeSet<String>,
    out: &mut Vec<Diagnostic>,
) {
    for entry in tools.iter() {
        let name = entry.value.as_str();
        // A server's own name may hold `/` (`microsoftdocs/mcp`, as VS Code
        // names servers from its gallery): the tool is after the last one.
        let Some((server, tool)) = name.rsplit_once('/') else {
            continue;
        };
        if server.is_empty() || tool.is_empty() {
            out.push(
                Diagnostic::at(
                    Code::UnknownTool,
                    &source.path,
                    entry.span,
                    format!("`{name}` names no tool"),
                )
                .with_severity(Severity::Warning)
                .with_help(
                    "an MCP tool is written `<server>/<tool>`, and all of a server's tools \
                     `<server>/*`; as written it matches nothing, and the agent goes without",
                ),
            );
            continue;
        }
        // An extension's tool is `<publisher>.<extension>/<tool>`.
        let first = name.split('/').next().unwrap_or(name);
        let lower = name.to_ascii_lowercase();
        let is_known = BUILT_IN_SETS.iter().any(|b| b.eq_ignore_ascii_case(first))
            || known.iter().any(|k| lower.starts_with(&format!("{}/", k.to_ascii_lowercase())));
        if first.contains('.') || is_known {
            continue;
        }
        let candidates: Vec<&str> = known.iter().map(String::as_str).collect();
        let Some(close) = did_you_mean(server, candidates.iter().copied()) else {
            continue;
        };
        let mut diagnostic = Diagnostic::at(
            Code::UnknownMcpServer,
            &source.path,
            entry.span,
            format!("no MCP server `{server}` is configured here"),
        )
        .with_severity(Severity::Warning)
        .with_help(format!(
            "did you mean `{close}/{tool}`? VS Code and the Copilot CLI ignore a tool whose \
             server they do not have, and the agent goes without it; if `{server}` is a server \
             each user installs, ignore this"
        ));
        if let Some(fix) = confident(server, candidates.iter().copied()).filter(|f| *f == close) {
            diagnostic = diagnostic.with_fix(
                format!("write `{fix}/{tool}`"),
                &source.path,
                written(entry, server.len()),
                fix,
            );
        }
        out.push(diagnostic);
    }
}

/// Where the first `len` bytes of an entry are written verbatim.
fn written(entry: &Spanned<String>, len: usize) -> Option<agentc_schema::Span> {
    entry.verbatim(0..len)
}
