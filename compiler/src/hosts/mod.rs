//! The hosts: whoever reads a file and decides what happens to it — Claude
//! Code, GitHub Copilot (VS Code, the Copilot CLI and cloud agent), the Agent
//! Skills specification, and agentc's own runtimes. Each host is a module
//! holding what agentc knows of it: its frontmatter reader, how the Agent
//! Skills specification's rules stand there, and its catalogues (tools,
//! models), checked with "did you mean". `docs/formats.md` cites the
//! documentation and code each comes from.
//!
//! The dialects (`parse::dialects`) decode a file by where it lives; the host
//! of that dialect then says what its loader would do with it.

pub mod claude_code;
pub mod codex;
pub mod copilot;
pub mod mcp;
pub mod memory;

use agentc_schema::{Dialect, Spanned};

use crate::diagnostic::{Diagnostic, RelPath, Severity};
use crate::suggest::{confident, did_you_mean};

/// A file a host reads at a fixed place: its path from the project's top
/// (or, for [`plugin_files`], from a plugin's folder), and its dialect.
#[derive(Clone, Copy, Debug)]
pub struct Declared {
    pub path: &'static str,
    pub dialect: Dialect,
}

/// The files the hosts read at fixed places of a project: discovery looks
/// for each, and reads those it finds.
pub fn project_files() -> impl Iterator<Item = &'static Declared> {
    claude_code::PROJECT_FILES.iter().chain(copilot::PROJECT_FILES).chain(memory::PROJECT_FILES)
}

/// The files a Claude Code plugin holds at fixed places besides its
/// component folders.
pub fn plugin_files() -> impl Iterator<Item = &'static Declared> {
    claude_code::PLUGIN_FILES.iter()
}

/// Whose reader a host's frontmatter is read with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// The constructs PyYAML and the JavaScript parsers agree on
    /// (`parse::lenient`).
    Hosts,
    /// Claude Code's: besides those, a top-level `key: value` line whose
    /// value strict YAML refuses (`description: Use when: x`,
    /// `argument-hint: [pr] [priority]`) is read as the text after the
    /// first `:`. Claude Code 1.0 and 2.0 read frontmatter line by line that
    /// way (`docs/formats.md`, "YAML as the hosts read it").
    ClaudeCode,
}

/// Whoever reads a file of a dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// agentc's own runtimes: its formats, strict YAML, every rule an error.
    Agentc,
    /// A skill collection read by the specification alone (`--layout
    /// agent-skills`): the specification, and its `skills-ref` validator.
    AgentSkills,
    ClaudeCode,
    /// OpenAI's Codex, reading `.agents/skills/` (and VS Code, which reads
    /// that folder too and applies no rule of its own).
    Codex,
    Copilot,
    /// Google's Gemini CLI, reading `GEMINI.md`.
    Gemini,
}

/// Why a specification rule is an error where the specification is the host.
const SPECIFICATION: &str = "the Agent Skills specification requires it";

/// The Agent Skills specification's rules, which hosts apply differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecRule {
    /// The name's characters: lowercase letters, digits, single hyphens.
    Name,
    /// The name at most 64 characters.
    NameLength,
    /// The name equal to the folder's.
    Folder,
    /// The description at most 1,024 characters.
    DescriptionLength,
    /// `compatibility` at most 500 characters.
    CompatibilityLength,
    /// `metadata` maps keys to strings.
    Metadata,
}

impl Host {
    /// The host whose loader decides what happens to a file of `dialect`.
    pub const fn of(dialect: Dialect) -> Host {
        match dialect {
            Dialect::Runbook => Host::Agentc,
            Dialect::AgentSkill => Host::AgentSkills,
            Dialect::ClaudeSkill
            | Dialect::ClaudeSubagent
            | Dialect::ClaudeCommand
            | Dialect::ClaudePlugin
            | Dialect::ClaudeMarketplace
            | Dialect::ClaudeHooks
            | Dialect::ClaudeSettings
            | Dialect::McpJson => Host::ClaudeCode,
            Dialect::ClaudeMd => Host::ClaudeCode,
            // Codex introduced `AGENTS.md`; it reads it with no syntax of its own.
            Dialect::CodexSkill | Dialect::CodexMetadata | Dialect::AgentsMd => Host::Codex,
            Dialect::CopilotSkill
            | Dialect::CopilotAgent
            | Dialect::VscodeMcp
            | Dialect::CopilotPrompt
            | Dialect::CopilotInstructions
            | Dialect::CopilotRepoInstructions => Host::Copilot,
            Dialect::GeminiMd => Host::Gemini,
        }
    }

    /// How the host reads frontmatter that strict YAML refuses; `None` for
    /// agentc's own formats and Codex's `serde_yaml`, which stay strict.
    pub const fn reader(self) -> Option<Reader> {
        match self {
            Host::Agentc | Host::Codex => None,
            Host::ClaudeCode => Some(Reader::ClaudeCode),
            Host::AgentSkills | Host::Copilot | Host::Gemini => Some(Reader::Hosts),
        }
    }

    /// How an Agent Skills rule counts under the host: an error where the
    /// specification is the host or the host skips the skill, a warning
    /// where the host loads it anyway, with the words that say so.
    pub const fn spec_rule(self, rule: SpecRule) -> (Severity, &'static str) {
        match self {
            Host::ClaudeCode => (Severity::Warning, claude_code::LOADS_UNPORTABLE_SKILLS),
            // Gemini CLI reads no skill agentc checks; its memory files have no frontmatter.
            Host::Copilot | Host::Gemini => (Severity::Warning, copilot::LOADS_UNPORTABLE_SKILLS),
            Host::Codex => codex::spec_rule(rule),
            Host::Agentc | Host::AgentSkills => (Severity::Error, SPECIFICATION),
        }
    }

    /// Whether `who`, from [`Host::spec_rule`], says the specification is
    /// the host (no host of its own to name).
    pub fn spec_is_the_host(who: &str) -> bool {
        who == SPECIFICATION
    }
}

/// `diagnostic`, about a tool `name` (written at the start of `entry`) that
/// is not in a host's `catalogue`, with its help: "did you mean" and `near`
/// when a name is close, and the fix only when the near miss is confident
/// (one edit or a difference of case, and unique); `none` when nothing is.
fn near_miss(
    diagnostic: Diagnostic,
    file: &RelPath,
    entry: &Spanned<String>,
    name: &str,
    catalogue: &[&str],
    near: &str,
    none: &str,
) -> Diagnostic {
    let Some(close) = did_you_mean(name, catalogue.iter().copied()) else {
        return diagnostic.with_help(none);
    };
    let diagnostic = diagnostic.with_help(format!("did you mean `{close}`? {near}"));
    match confident(name, catalogue.iter().copied()) {
        Some(fix) => diagnostic.with_fix(
            format!("replace `{name}` with `{fix}`"),
            file,
            entry.verbatim(0..name.len()),
            fix,
        ),
        None => diagnostic,
    }
}
