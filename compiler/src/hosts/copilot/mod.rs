//! GitHub Copilot (VS Code, the Copilot CLI and cloud agent): its tools, and
//! how it stands on the Agent Skills specification's rules. It reads YAML as
//! PyYAML and the JavaScript parsers agree (`parse::lenient`'s
//! `Reader::Hosts`). Sources: `docs/formats.md` ([GH], [VSC], [VSC-TOOLS],
//! [VSC-SKILLS]) and `docs/research/copilot.md`.

use agentc_schema::assistant::COPILOT_TOOLS;
use agentc_schema::{Dialect, Span, ToolRules};

use super::Declared;

pub mod hooks;
pub mod prompts;
pub mod setup;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;

/// The files VS Code reads at a workspace's top besides its folders of
/// agents and skills: its MCP servers (the VS Code MCP reference), prompt
/// files, instructions files (in `.github/instructions/` and every folder
/// below) and the repository's instructions; and those of the Copilot CLI
/// and cloud agent: hooks, and the cloud agent's setup workflow. Every Markdown file of
/// `.github/prompts/` is found, so one VS Code skips for its name is said.
pub const PROJECT_FILES: &[Declared] = &[
    Declared { path: ".vscode/mcp.json", dialect: Dialect::VscodeMcp },
    Declared { path: ".github/prompts/*.md", dialect: Dialect::CopilotPrompt },
    Declared {
        path: ".github/instructions/**/*.instructions.md",
        dialect: Dialect::CopilotInstructions,
    },
    Declared { path: ".github/copilot-instructions.md", dialect: Dialect::CopilotRepoInstructions },
    // The Copilot CLI reads every `.json` below `.github/hooks/` (1.0.102
    // loads `.github/hooks/sub/a.json`, and no `.jsonc`).
    Declared { path: ".github/hooks/**/*.json", dialect: Dialect::CopilotHooks },
    Declared {
        path: ".github/workflows/copilot-setup-steps.yml",
        dialect: Dialect::CopilotSetupSteps,
    },
];

/// Why a specification rule is a warning under VS Code's Copilot.
pub const LOADS_UNPORTABLE_SKILLS: &str = "VS Code's Copilot loads this skill (under its \
    folder's name), but the skill is not portable: the Agent Skills specification, its \
    `skills-ref` validator and Anthropic's skill upload refuse it";

/// Each entry of a Copilot agent's `tools`: an alias, a built-in tool or tool
/// set, or an MCP or extension tool (`<server>/<tool>`). Copilot ignores a
/// tool it does not know, so an unknown name is a warning.
pub fn tools(source: &Source, rules: &ToolRules, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    for entry in rules.iter() {
        let name = entry.value.as_str();
        if name.contains('/') || COPILOT_TOOLS.iter().any(|t| t.eq_ignore_ascii_case(name)) {
            continue;
        }
        let diagnostic = Diagnostic::at(
            Code::UnknownTool,
            file,
            entry.span,
            format!("`{name}` is not a Copilot tool, alias or tool set"),
        )
        .with_severity(Severity::Warning);
        out.push(super::near_miss(
            diagnostic,
            file,
            entry,
            name,
            COPILOT_TOOLS,
            "Copilot ignores a tool that nothing installed provides",
            "Copilot ignores a tool that nothing installed provides; use an alias (`read`, \
             `edit`, `search`, `execute`, `web`, `agent`, `todo`), a tool set (`vscode`, \
             `browser`) or an MCP tool as `<server>/<tool>` or `<server>/*` — or, if an \
             extension your team installs provides this tool, ignore this warning",
        ));
    }
}
/// The longest prompt (a custom agent's body) GitHub documents: "The
/// prompt can be a maximum of 30,000 characters" (custom agents
/// configuration, `docs/research/copilot.md` §7).
pub const MAX_AGENT_PROMPT: usize = 30_000;

/// A custom agent's body past [`MAX_AGENT_PROMPT`] characters, reported
/// at the first character over, to the end of its line. A warning: VS Code does not enforce the
/// limit, and what GitHub's agents do past it is not documented.
pub fn body_length(source: &Source, body: Span, out: &mut Vec<Diagnostic>) {
    let text = source.slice(body);
    let Some((over, _)) = text.char_indices().nth(MAX_AGENT_PROMPT) else {
        return;
    };
    let count = text.chars().count();
    // The line where the limit falls: the whole rest would be a page of source.
    let line_end = text[over..].find('\n').map_or(text.len(), |i| over + i);
    out.push(
        Diagnostic::at(
            Code::InvalidValue,
            &source.path,
            Span::new(body.start + over, body.start + line_end),
            format!(
                "the agent's prompt is {count} characters; GitHub documents at most {MAX_AGENT_PROMPT}"
            ),
        )
        .with_severity(Severity::Warning)
        .with_help(
            "move reference material into files the agent reads (or a skill) and keep the \
             prompt under 30,000 characters; GitHub does not document what its agents do past \
             the limit, and VS Code does not enforce it",
        ),
    );
}
