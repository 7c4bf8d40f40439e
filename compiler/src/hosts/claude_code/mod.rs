//! Claude Code: its tools and models, and how it stands on the Agent Skills
//! specification's rules. Its frontmatter reader is `parse::lenient`'s
//! `Reader::ClaudeCode`. Sources: `docs/formats.md` ([TOOLS], [MODEL],
//! [CC-JS]) and `docs/research/claude-codex.md`.

pub mod hooks;
pub mod mcp;
pub mod plugins;
pub mod rules;
pub mod settings;
pub mod settings_keys;
pub mod upload;

use agentc_schema::assistant::{
    CLAUDE_MODEL_ALIASES, CLAUDE_MODEL_FAMILIES, CLAUDE_RENAMED_TOOLS, CLAUDE_TOOLS,
};
use agentc_schema::{Dialect, Spanned, Text, ToolRules};

use super::Declared;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::tree::Node;
use crate::source::Source;
use crate::suggest::{did_you_mean, list_names};

/// The files Claude Code reads at a project's top besides its folders of
/// skills, subagents and commands: settings, MCP servers, and a plugin
/// marketplace (the settings, MCP and plugin marketplace references).
pub const PROJECT_FILES: &[Declared] = &[
    Declared { path: ".claude/settings.json", dialect: Dialect::ClaudeSettings },
    Declared { path: ".claude/settings.local.json", dialect: Dialect::ClaudeSettings },
    Declared { path: ".mcp.json", dialect: Dialect::McpJson },
    Declared { path: ".claude-plugin/marketplace.json", dialect: Dialect::ClaudeMarketplace },
    Declared { path: ".claude/rules/**/*.md", dialect: Dialect::ClaudeRule },
    Declared { path: ".claude/output-styles/*.md", dialect: Dialect::ClaudeOutputStyle },
];

/// The files a plugin holds at fixed places (the plugins reference): its
/// hooks and its MCP servers, read unless its manifest names others.
pub const PLUGIN_FILES: &[Declared] = &[
    Declared { path: "hooks/hooks.json", dialect: Dialect::ClaudeHooks },
    Declared { path: ".mcp.json", dialect: Dialect::McpJson },
];

/// `name` and `paths`, skill fields that Claude Code ignores in a command
/// file: what to say (message, help) instead of "unknown field".
///
/// A `name` equal to the file's (after a namespace: `plugin:stem`) is
/// harmless: Claude Code 2.1.332 names the command after its file either way
/// (a plugin's too), so only another name is a likely mistake.
pub fn ignored_in_command(
    source: &Source,
    key: &str,
    text: Option<&str>,
) -> Option<(String, String)> {
    let help = match key {
        "name" => {
            let path: &str = source.path.path.as_ref();
            let file = path.rsplit('/').next().unwrap_or(path);
            let stem = file.strip_suffix(".md").unwrap_or(file);
            // `learnship:add-phase` in a plugin's `add-phase.md` spells the
            // name Claude Code gives it, its namespace included.
            if text.is_some_and(|name| name.trim().rsplit(':').next() == Some(stem)) {
                return None;
            }
            format!(
                "a command is named by its file (and folders): this one is `/{stem}`; rename the \
                 file to rename the command, or remove `name`"
            )
        }
        "paths" => "`paths` applies to skills only; move the command to \
                    `.claude/skills/<name>/SKILL.md` to use it"
            .to_owned(),
        _ => return None,
    };
    Some((format!("Claude Code ignores `{key}` in a command file (kept as metadata)"), help))
}

/// Why a specification rule is a warning under Claude Code.
pub const LOADS_UNPORTABLE_SKILLS: &str = "Claude Code loads this skill, but the skill is not \
    portable: the Agent Skills specification, its `skills-ref` validator and Anthropic's skill \
    upload refuse it";

/// The tool a Claude Code tool entry names: `Bash` of `Bash(git log:*)`.
fn claude_tool_name(entry: &str) -> &str {
    entry.split_once('(').map_or(entry, |(name, _)| name).trim()
}

/// Each entry of a Claude Code tool list: a built-in tool (optionally with a
/// permission specifier), an MCP tool, or a renamed tool (a warning).
pub fn tools(source: &Source, rules: &ToolRules, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    for entry in rules.iter() {
        let name = claude_tool_name(&entry.value);
        if name.starts_with("mcp__") || CLAUDE_TOOLS.contains(&name) {
            continue;
        }
        // The tool's name is the first token of the entry, so its span is exact.
        let name_span = entry_name_span(entry, name);
        if let Some((_, new)) = CLAUDE_RENAMED_TOOLS.iter().find(|(old, _)| *old == name) {
            out.push(
                Diagnostic::at(
                    Code::Deprecated,
                    file,
                    name_span,
                    format!("Claude Code renamed the tool `{name}` to `{new}`"),
                )
                // The old name still works in Claude Code 2.1.332.
                .pedantic()
                .with_help(format!("write `{new}`; the old name may stop working"))
                .with_fix(
                    format!("replace `{name}` with `{new}`"),
                    file,
                    entry.verbatim(0..name.len()),
                    *new,
                ),
            );
            continue;
        }
        // Claude Code 2.1.332 loads the file and leaves the tool out: a
        // likely mistake, not a refusal.
        let diagnostic = Diagnostic::at(
            Code::UnknownTool,
            file,
            name_span,
            format!("`{name}` is not a Claude Code tool"),
        )
        .with_severity(crate::diagnostic::Severity::Warning);
        out.push(super::near_miss(
            diagnostic,
            file,
            entry,
            name,
            CLAUDE_TOOLS,
            "tool names are case-sensitive",
            "Claude Code drops a tool it does not know, silently; list built-in tools \
             (`Read`, `Bash(git log:*)`), MCP tools as `mcp__<server>__<tool>`, or \
             `Agent(<type>)`",
        ));
    }
}

/// The span of `name` at the start of `entry`: exact where it is written
/// verbatim, else the entry's.
fn entry_name_span(entry: &Spanned<String>, name: &str) -> agentc_schema::Span {
    entry.verbatim(0..name.len()).unwrap_or(entry.span)
}

/// A Claude Code model: an alias, or a model id of a Claude model family
/// (dated, dateless from the 4.6 generation on, or a cloud provider's form).
/// Anything else fails at run time with no fallback
/// (anthropics/claude-code#92190): an error. A `claude-` id agentc does not
/// know is a warning, as the catalogue may be older than the model.
pub fn model(source: &Source, model: &Spanned<Text>, out: &mut Vec<Diagnostic>) {
    let text = model.value.as_str();
    if CLAUDE_MODEL_ALIASES.contains(&text) || text.eq_ignore_ascii_case("inherit") {
        return;
    }
    let family = claude_family(text);
    if family.is_some_and(|(family, dated)| {
        CLAUDE_MODEL_FAMILIES.contains(&family) && (dated || !dated_only(family))
    }) {
        return;
    }
    let file = &source.path;
    let known = || {
        CLAUDE_MODEL_ALIASES
            .iter()
            .chain(CLAUDE_MODEL_FAMILIES.iter().filter(|f| !dated_only(f)))
            .copied()
    };
    let close = did_you_mean(text, known());
    let (severity, message) = match family {
        Some(_) => (Severity::Warning, format!("`{text}` is not a Claude model id agentc knows")),
        None => (Severity::Error, format!("`{text}` is not a Claude Code model alias or model id")),
    };
    let aliases = list_names(CLAUDE_MODEL_ALIASES.iter().copied());
    let mut help = match close {
        Some(close) => format!("did you mean `{close}`? the aliases are {aliases}"),
        None => format!(
            "write an alias ({aliases}) or a model id such as `claude-sonnet-5` or \
             `claude-sonnet-4-5-20250929`"
        ),
    };
    help.push_str(match family {
        Some(_) => {
            "; agentc's list of Claude models may be older than the model: if Claude \
                    Code runs it, ignore this"
        }
        None => {
            "; Claude Code passes an unknown model to the API, and the subagent or skill \
                 fails when it runs"
        }
    });
    let mut diagnostic = Diagnostic::at(Code::BadModel, file, model.span, message)
        .with_severity(severity)
        .with_help(help);
    // A misspelt alias is fixed; a version written another way (`sonnet-4`,
    // `claude-sonnet-4`) is only pointed at: the nearest name may be another
    // model.
    if let Some(close) =
        close.filter(|_| family.is_none() && !text.bytes().any(|b| b.is_ascii_digit()))
    {
        diagnostic = diagnostic.with_fix(
            format!("replace `{text}` with `{close}`"),
            file,
            model.verbatim(0..text.len()),
            close,
        );
    }
    out.push(diagnostic);
}

/// The Claude model family a model id names, and whether it carries a date:
/// `claude-sonnet-4-5-20250929`, `us.anthropic.claude-opus-4-1-20250805-v1:0`
/// (Bedrock), `claude-opus-4-5@20251101` (Vertex), `claude-sonnet-5[1m]`.
/// `None` when it names no Claude model at all.
pub fn claude_family(id: &str) -> Option<(&str, bool)> {
    let at = id.find("claude-")?;
    let mut rest = &id[at..];
    if rest.chars().any(char::is_whitespace) {
        return None;
    }
    rest = rest.strip_suffix("[1m]").unwrap_or(rest);
    let mut dated = false;
    if let Some((head, _)) = rest.split_once('@') {
        (rest, dated) = (head, true);
    }
    // Bedrock's version suffix: `-v1:0`, `-v2`.
    if let Some((head, version)) = rest.rsplit_once("-v")
        && !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_digit() || b == b':')
    {
        rest = head;
    }
    if let Some(head) = rest.strip_suffix("-latest") {
        (rest, dated) = (head, true);
    }
    if let Some((head, date)) = rest.rsplit_once('-')
        && date.len() == 8
        && date.bytes().all(|b| b.is_ascii_digit())
    {
        (rest, dated) = (head, true);
    }
    Some((rest, dated))
}

/// Families whose ids always carry a date (or `-latest`): the Claude 3
/// models, and Sonnet 4 and Opus 4 (their dateless aliases end in `-0`).
pub fn dated_only(family: &str) -> bool {
    family.starts_with("claude-3-") || matches!(family, "claude-sonnet-4" | "claude-opus-4")
}

/// The subagent fields whose bad value Claude Code logs and drops, loading
/// the subagent without it (2.1.332's agent loader: `color` silently,
/// the others with "Agent file … has invalid …").
const SUBAGENT_DROPPED_WHEN_INVALID: &[&str] =
    &["color", "background", "memory", "isolation", "effort", "permissionMode", "maxTurns"];

/// Makes the `invalid-value` of a subagent field Claude Code drops a
/// warning that says so: the subagent runs, without that setting.
pub fn ignored_values(tree: &Node, found: &mut [Diagnostic]) {
    for key in SUBAGENT_DROPPED_WHEN_INVALID {
        for diagnostic in crate::parse::files::invalid_values_of(tree, key, found) {
            diagnostic.severity = Severity::Warning;
            let help = diagnostic.help.take().map_or_else(String::new, |h| format!("{h}; "));
            diagnostic.help =
                Some(format!("{help}Claude Code drops the value and runs the subagent without it"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::claude_family;

    #[test]
    fn model_ids_name_their_family() {
        for (id, family) in [
            ("claude-sonnet-4-5-20250929", Some(("claude-sonnet-4-5", true))),
            ("us.anthropic.claude-opus-4-1-20250805-v1:0", Some(("claude-opus-4-1", true))),
            ("claude-opus-4-5@20251101", Some(("claude-opus-4-5", true))),
            ("claude-sonnet-5[1m]", Some(("claude-sonnet-5", false))),
            ("claude-3-5-sonnet-latest", Some(("claude-3-5-sonnet", true))),
            ("claude-sonnet-4", Some(("claude-sonnet-4", false))),
            ("gpt-4o", None),
            ("claude- sonnet", None),
        ] {
            assert_eq!(claude_family(id), family, "{id}");
        }
    }
}
