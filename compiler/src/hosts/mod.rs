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
pub mod copilot;

use agentc_schema::Dialect;

use crate::diagnostic::Severity;

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
    Copilot,
}

impl Host {
    /// The host whose loader decides what happens to a file of `dialect`.
    pub const fn of(dialect: Dialect) -> Host {
        match dialect {
            Dialect::Runbook => Host::Agentc,
            Dialect::AgentSkill => Host::AgentSkills,
            Dialect::ClaudeSkill | Dialect::ClaudeSubagent | Dialect::ClaudeCommand => {
                Host::ClaudeCode
            }
            Dialect::CopilotSkill | Dialect::CopilotAgent => Host::Copilot,
        }
    }

    /// How the host reads frontmatter that strict YAML refuses; `None` for
    /// agentc's own formats, which stay strict.
    pub const fn reader(self) -> Option<Reader> {
        match self {
            Host::Agentc => None,
            Host::ClaudeCode => Some(Reader::ClaudeCode),
            Host::AgentSkills | Host::Copilot => Some(Reader::Hosts),
        }
    }

    /// How an Agent Skills rule counts under the host: an error where the
    /// specification is the host, a warning where the host loads the skill
    /// anyway, with the words that say so.
    pub const fn spec_rule(self) -> (Severity, &'static str) {
        match self {
            Host::ClaudeCode => (Severity::Warning, claude_code::LOADS_UNPORTABLE_SKILLS),
            Host::Copilot => (Severity::Warning, copilot::LOADS_UNPORTABLE_SKILLS),
            Host::Agentc | Host::AgentSkills => {
                (Severity::Error, "the Agent Skills specification requires it")
            }
        }
    }
}
