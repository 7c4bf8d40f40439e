//! GitHub Copilot (VS Code, the Copilot CLI and cloud agent): its tools, and
//! how it stands on the Agent Skills specification's rules. It reads YAML as
//! PyYAML and the JavaScript parsers agree (`parse::lenient`'s
//! `Reader::Hosts`). Sources: `docs/formats.md` ([GH], [VSC], [VSC-TOOLS],
//! [VSC-SKILLS]) and `docs/research/copilot.md`.

use agentc_schema::assistant::COPILOT_TOOLS;
use agentc_schema::{Dialect, ToolRules};

use super::Declared;

pub mod prompts;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;

/// The files VS Code reads at a workspace's top besides its folders of
/// agents and skills: its MCP servers (the VS Code MCP reference), prompt
/// files, instructions files (in `.github/instructions/` and every folder
/// below) and the repository's instructions. Every Markdown file of
/// `.github/prompts/` is found, so one VS Code skips for its name is said.
pub const PROJECT_FILES: &[Declared] = &[
    Declared { path: ".vscode/mcp.json", dialect: Dialect::VscodeMcp },
    Declared { path: ".github/prompts/*.md", dialect: Dialect::CopilotPrompt },
    Declared {
        path: ".github/instructions/**/*.instructions.md",
        dialect: Dialect::CopilotInstructions,
    },
    Declared { path: ".github/copilot-instructions.md", dialect: Dialect::CopilotRepoInstructions },
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
