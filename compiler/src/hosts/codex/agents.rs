//! Codex's custom agents, `.codex/agents/*.toml`: a role Codex may spawn,
//! its name, description and instructions, and the configuration keys it
//! overrides. Codex 0.171.0 drops an agent it cannot load ("Ignoring
//! malformed agent role definition", seen with `codex exec`), so each such
//! problem is an error; the role then never appears to the model.

use agentc_schema::Spanned;
use agentc_schema::codex_config::{CodexAgent, CodexConfig};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Document, Reading, Syntax, decode_text};
use crate::source::Source;

/// What Codex does with an agent it cannot load.
const DROPPED: &str = "Codex 0.171.0 drops the agent (\"Ignoring malformed agent role \
    definition\") and the model never sees it";

/// The agent file, read as Codex reads it: a key it does not know drops
/// the agent (`unknown field`), the configuration's keys excepted.
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<CodexAgent>> {
    let start = out.len();
    let reading = Reading {
        syntax: Syntax::Toml,
        unknown: Severity::Error,
        taken: super::config::is_config_key,
        ..Reading::JSON
    };
    let doc = decode_text::<CodexAgent>(source, &source.text, 0, reading, out);
    for diagnostic in &mut out[start..] {
        if diagnostic.code == Code::UnknownField && diagnostic.severity == Severity::Error {
            diagnostic.help = Some(format!(
                "an agent takes `name`, `description`, `developer_instructions`, \
                 `nickname_candidates` and the keys of `config.toml`; {DROPPED}"
            ));
        }
    }
    let doc = doc?;
    let agent = &doc.value;
    // The configuration keys it overrides, checked as in `config.toml`.
    let config = CodexConfig {
        model: None,
        approval_policy: None,
        approvals_reviewer: None,
        sandbox_mode: agent.sandbox_mode.clone(),
        sandbox_workspace_write: None,
        model_reasoning_effort: agent.model_reasoning_effort.clone(),
        plan_mode_reasoning_effort: None,
        model_reasoning_summary: None,
        model_verbosity: None,
        web_search: None,
        features: None,
        mcp_servers: agent.mcp_servers.clone(),
        hooks: None,
    };
    super::config::check(source, &config, out);
    for (field, value) in [("name", &agent.name), ("description", &agent.description)] {
        if let Some(value) = value.as_ref().filter(|v| v.value.trim().is_empty()) {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    &source.path,
                    value.span,
                    format!("the agent's `{field}` is blank"),
                )
                .with_help(format!("write its {field}; {DROPPED}")),
            );
        }
    }
    Some(doc)
}

/// What an agent must define itself: its name, description and
/// instructions, unless a role of `config.toml` names the file in its
/// `config_file`, and gives the name and description there.
pub fn required(source: &Source, agent: &CodexAgent, out: &mut Vec<Diagnostic>) {
    let fields: [(&str, &Option<Spanned<String>>, &str); 3] = [
        ("name", &agent.name, "the name Codex spawns it by, e.g. `name = \"reviewer\"`"),
        ("description", &agent.description, "when the model should spawn it"),
        (
            "developer_instructions",
            &agent.developer_instructions,
            "the agent's instructions, e.g. `developer_instructions = \"\"\"…\"\"\"`",
        ),
    ];
    for (field, value, what) in fields {
        if value.is_none() {
            out.push(
                Diagnostic::on_path(
                    Code::MissingField,
                    &source.path,
                    format!("this Codex agent has no `{field}`"),
                )
                .with_help(format!("add `{field}`: {what}; {DROPPED}")),
            );
        }
    }
}
