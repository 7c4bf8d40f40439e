//! The hosts' catalogues — Claude Code's tools and models, Copilot's tools —
//! as completions and hover text: the same lists the compiler's diagnostics
//! check a file against (`agentc_schema::assistant`, `hosts::claude_code`),
//! so the editor offers exactly what `agentc check` accepts.

use agentc_compiler::dialects::config::ConfigDoc;
use agentc_compiler::hosts::claude_code::mcp::tool_form;
use agentc_compiler::hosts::claude_code::{claude_family, dated_only};
use agentc_compiler::hosts::copilot::prompts::EXCLUDABLE_AGENTS;
use agentc_schema::Kind;
use agentc_schema::assistant::{
    CLAUDE_MODEL_ALIASES, CLAUDE_MODEL_FAMILIES, CLAUDE_RENAMED_TOOLS, CLAUDE_TOOLS, COPILOT_TOOLS,
};

use super::Analysis;
use super::complete::{Completion, CompletionKind};
use super::keys::Step;

/// Where each host documents what its catalogue lists ([TOOLS], [VSC-TOOLS],
/// [GH] and the model configuration page in `docs/formats.md`).
const CLAUDE_TOOLS_DOC: &str = "https://code.claude.com/docs/en/tools-reference";
const CLAUDE_MODELS_DOC: &str = "https://code.claude.com/docs/en/model-config";
const COPILOT_TOOLS_DOC: &str =
    "https://code.visualstudio.com/docs/agents/reference/tools-reference";
const COPILOT_ALIASES_DOC: &str =
    "https://docs.github.com/en/copilot/reference/custom-agents-configuration";

/// A list the value of a key is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Catalogue {
    ClaudeTools,
    /// Tool names alone, as a hook's `matcher` lists them.
    ClaudeToolNames,
    ClaudeModels,
    CopilotTools,
    /// GitHub's agents an instructions file may skip.
    CopilotExcludable,
}

/// The catalogue the compiler checks `key` of a `kind` file against.
pub(super) fn catalogue(kind: Kind, key: &str) -> Option<Catalogue> {
    Some(match (kind, key) {
        (Kind::ClaudeSkill | Kind::ClaudeCommand, "allowed-tools" | "disallowed-tools")
        | (Kind::ClaudeSubagent, "tools" | "disallowedTools") => Catalogue::ClaudeTools,
        (Kind::ClaudeSkill | Kind::ClaudeCommand | Kind::ClaudeSubagent, "model") => {
            Catalogue::ClaudeModels
        }
        (Kind::CopilotAgent | Kind::CopilotPrompt, "tools") => Catalogue::CopilotTools,
        (Kind::CopilotInstructions, "excludeAgent") => Catalogue::CopilotExcludable,
        _ => return None,
    })
}

/// The catalogue the compiler checks what is at `path` against: a
/// top-level key's value (or its list's items), a settings file's
/// permission rules, a hook's `matcher`.
pub(super) fn catalogue_at(kind: Kind, path: &[Step]) -> Option<Catalogue> {
    let key =
        |step: &Step, names: &[&str]| matches!(step, Step::Key(k) if names.contains(&k.as_str()));
    match path {
        [Step::Key(top)] | [Step::Key(top), Step::Item] => catalogue(kind, top),
        [permissions, list, Step::Item]
            if kind == Kind::ClaudeSettings
                && key(permissions, &["permissions"])
                && key(list, &["allow", "ask", "deny"]) =>
        {
            Some(Catalogue::ClaudeTools)
        }
        [hooks, Step::Key(_), Step::Item, matcher]
            if matches!(kind, Kind::ClaudeHooks | Kind::ClaudeSettings)
                && key(hooks, &["hooks"])
                && key(matcher, &["matcher"]) =>
        {
            Some(Catalogue::ClaudeToolNames)
        }
        _ => None,
    }
}

/// Claude Code's permission rules with a specifier, as its permissions page
/// ([PERM]) writes them; the editor fills in the part in braces.
const CLAUDE_PATTERNS: &[(&str, &str, &str)] = &[
    ("Bash(…:*)", "Bash(${1:git log}:*)", "commands starting with a prefix"),
    ("Read(…)", "Read(${1:./src/**})", "files matching a path pattern"),
    ("Edit(…)", "Edit(${1:./src/**})", "edits to files matching a path pattern"),
    ("WebFetch(domain:…)", "WebFetch(domain:${1:example.com})", "fetches from one domain"),
    ("Agent(…)", "Agent(${1:Explore})", "one subagent type"),
];

/// Claude Code's model aliases, with what each stands for (the model
/// configuration page; `docs/research/claude-codex.md` §4).
const CLAUDE_ALIASES: &[(&str, &str)] = &[
    ("sonnet", "the latest Sonnet model (Sonnet 5 on the Anthropic API), for everyday coding"),
    ("opus", "the latest Opus model (Opus 5 on the Anthropic API), for complex reasoning"),
    ("haiku", "the fast, efficient Haiku model (Haiku 4.5), for simple tasks"),
    ("fable", "the latest Fable model (`claude-fable-5`)"),
    ("best", "an alias Claude Code 2.1.332 lists; Claude Code chooses the model it stands for"),
    ("inherit", "the model of the conversation that starts it (the subagents' default)"),
    ("default", "the recommended model for the account's type; not itself a model alias"),
    ("opusplan", "Opus while in plan mode, then Sonnet to carry the plan out"),
    ("sonnet[1m]", "Sonnet with a one-million-token context window"),
    ("opus[1m]", "Opus with a one-million-token context window"),
    ("fable[1m]", "Fable with a one-million-token context window"),
];

/// Copilot's tool aliases ([GH]'s table), each with the other names it
/// stands for.
const COPILOT_ALIASES: &[(&str, &str, &[&str])] = &[
    ("execute", "runs a command in a shell", &["shell", "Bash", "powershell"]),
    ("read", "reads the contents of files", &["Read", "NotebookRead"]),
    ("edit", "edits files", &["Edit", "MultiEdit", "Write", "NotebookEdit"]),
    ("search", "searches for files or text in files", &["Grep", "Glob"]),
    ("agent", "starts another custom agent", &["custom-agent", "Task"]),
    ("web", "fetches URLs and searches the web", &["WebSearch", "WebFetch"]),
    ("todo", "keeps a structured list of tasks", &["TodoWrite"]),
];

/// What may be written from `catalogue`: its names, then the MCP servers the
/// project configures.
pub(super) fn items(analysis: &Analysis<'_>, catalogue: Catalogue) -> Vec<Completion> {
    let item = |label: &str, kind, detail: String, insert: &str| Completion {
        label: label.to_owned(),
        kind,
        detail: Some(detail),
        insert: insert.to_owned(),
    };
    match catalogue {
        Catalogue::ClaudeTools => {
            let mut out: Vec<Completion> = (CLAUDE_TOOLS.iter())
                .map(|t| item(t, CompletionKind::Tool, "Claude Code tool".to_owned(), t))
                .collect();
            out.extend(CLAUDE_PATTERNS.iter().map(|(label, snippet, what)| {
                item(label, CompletionKind::Pattern, format!("permission rule: {what}"), snippet)
            }));
            out.extend(servers(analysis, false).into_iter().map(|(server, file)| {
                let rule = format!("mcp__{}", tool_form(&server));
                item(
                    &rule,
                    CompletionKind::Tool,
                    format!("every tool of `{server}` ({file})"),
                    &rule,
                )
            }));
            out
        }
        Catalogue::ClaudeToolNames => (CLAUDE_TOOLS.iter())
            .map(|t| item(t, CompletionKind::Tool, "Claude Code tool".to_owned(), t))
            .collect(),
        Catalogue::CopilotExcludable => (EXCLUDABLE_AGENTS.iter())
            .map(|agent| item(agent, CompletionKind::Value, excludable(agent).to_owned(), agent))
            .collect(),
        Catalogue::CopilotTools => {
            let mut out: Vec<Completion> = (COPILOT_TOOLS.iter())
                .map(|t| item(t, CompletionKind::Tool, copilot_detail(t), t))
                .collect();
            out.extend(servers(analysis, true).into_iter().map(|(server, file)| {
                let all = format!("{server}/*");
                item(&all, CompletionKind::Tool, format!("every tool of `{server}` ({file})"), &all)
            }));
            out
        }
        Catalogue::ClaudeModels => {
            let mut out: Vec<Completion> = (CLAUDE_ALIASES.iter())
                .map(|(alias, what)| item(alias, CompletionKind::Value, (*what).to_owned(), alias))
                .collect();
            // The families written without a date are model ids themselves;
            // the others need one, which is the user's to choose.
            out.extend(CLAUDE_MODEL_FAMILIES.iter().filter(|f| !dated_only(f)).map(|family| {
                item(family, CompletionKind::Value, "Claude model id".to_owned(), family)
            }));
            out
        }
    }
}

fn copilot_detail(tool: &str) -> String {
    match COPILOT_ALIASES.iter().find(|(alias, _, others)| *alias == tool || others.contains(&tool))
    {
        Some((alias, what, _)) if *alias == tool => format!("Copilot tool alias: {what}"),
        Some((alias, _, _)) => format!("Copilot reads it as `{alias}`"),
        None => "Copilot tool or tool set".to_owned(),
    }
}

/// The MCP servers the project configures for Claude Code (`.mcp.json`) or
/// VS Code (`.vscode/mcp.json`), with the file naming each.
fn servers(analysis: &Analysis<'_>, vscode: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for config in &analysis.compilation.project.configs {
        let servers = match (&config.doc, vscode) {
            // A plugin's servers are named after the plugin; its own files say so.
            (ConfigDoc::Mcp(doc), false) if config.file.plugin.is_none() => &doc.value.mcp_servers,
            (ConfigDoc::VscodeMcp(doc), true) => &doc.value.servers,
            _ => continue,
        };
        let file = config.source.path.to_string();
        out.extend(servers.keys().map(|name| (name.value.clone(), file.clone())));
    }
    out
}

/// What skipping one of GitHub's agents means ([GH-INSTR]).
fn excludable(agent: &str) -> &'static str {
    match agent {
        "code-review" => "Copilot code review does not read the file",
        _ => "Copilot's cloud agent does not read the file",
    }
}

/// What a name written in `catalogue`'s place stands for, as Markdown.
pub(super) fn hover(catalogue: Catalogue, written: &str) -> Option<String> {
    match catalogue {
        Catalogue::CopilotExcludable => EXCLUDABLE_AGENTS
            .contains(&written)
            .then(|| format!("**GitHub's agent** `{written}`: {}", excludable(written))),
        Catalogue::ClaudeTools | Catalogue::ClaudeToolNames => {
            let name = written.split_once('(').map_or(written, |(name, _)| name).trim();
            if let Some(server) = name.strip_prefix("mcp__") {
                let server = server.split("__").next().unwrap_or(server);
                return Some(format!(
                    "**MCP tool** `{name}`\n\na tool of the MCP server `{server}`, which the \
                     project's `.mcp.json` or the subagent's `mcpServers` configures"
                ));
            }
            if let Some((_, new)) = CLAUDE_RENAMED_TOOLS.iter().find(|(old, _)| *old == name) {
                return Some(format!(
                    "**Claude Code tool** `{name}`\n\nthe old name of `{new}`, still accepted; \
                     see {CLAUDE_TOOLS_DOC}"
                ));
            }
            CLAUDE_TOOLS.contains(&name).then(|| {
                let rule = match written.contains('(') {
                    true => ", in a permission rule: only what its specifier matches",
                    false => "",
                };
                format!(
                    "**Claude Code tool** `{name}`{rule}\n\na tool built into Claude Code; what \
                     it does is in Claude Code's tools reference: {CLAUDE_TOOLS_DOC}"
                )
            })
        }
        Catalogue::CopilotTools => {
            if let Some((server, tool)) = written.split_once('/') {
                let what = match tool {
                    "*" => "every tool".to_owned(),
                    tool => format!("the tool `{tool}`"),
                };
                return Some(format!(
                    "**Copilot tool** `{written}`\n\n{what} of the MCP server or tool set `{server}`"
                ));
            }
            let tool = COPILOT_TOOLS.iter().find(|t| t.eq_ignore_ascii_case(written))?;
            let alias = COPILOT_ALIASES
                .iter()
                .find(|(alias, _, others)| alias == tool || others.contains(tool));
            Some(match alias {
                Some((alias, what, others)) if alias == tool => format!(
                    "**Copilot tool alias** `{tool}`: {what}\n\nalso written {}; see {COPILOT_ALIASES_DOC}",
                    others.iter().map(|o| format!("`{o}`")).collect::<Vec<_>>().join(", ")
                ),
                Some((alias, what, _)) => format!(
                    "**Copilot tool** `{tool}`: Copilot reads it as the alias `{alias}` ({what}); \
                     see {COPILOT_ALIASES_DOC}"
                ),
                None => format!(
                    "**Copilot tool** `{tool}`\n\na tool or tool set built into VS Code's Copilot; \
                     see its tools reference: {COPILOT_TOOLS_DOC}"
                ),
            })
        }
        Catalogue::ClaudeModels => {
            if let Some((alias, what)) = CLAUDE_ALIASES.iter().find(|(a, _)| *a == written) {
                return Some(format!(
                    "**Claude Code model alias** `{alias}`: {what}\n\nsee {CLAUDE_MODELS_DOC}"
                ));
            }
            if CLAUDE_MODEL_ALIASES.contains(&written) {
                return Some(format!(
                    "**Claude Code model alias** `{written}`\n\nsee {CLAUDE_MODELS_DOC}"
                ));
            }
            let (family, _) = claude_family(written)?;
            CLAUDE_MODEL_FAMILIES.contains(&family).then(|| {
                format!(
                    "**Claude model id** `{written}`: a model of the family `{family}`\n\nsee \
                     {CLAUDE_MODELS_DOC}"
                )
            })
        }
    }
}
