//! The file-local rules of the formats of the wild: Agent Skills, Claude Code
//! and Copilot. Each rule comes from its host's published definition; see
//! `docs/formats.md` for the sources and where agentc is stricter.

use agentc_schema::assistant::{
    CLAUDE_MODEL_ALIASES, CLAUDE_MODEL_FAMILIES, CLAUDE_RENAMED_TOOLS, CLAUDE_TOOLS, COPILOT_TOOLS,
};
use agentc_schema::dialect::{MAX_COMPATIBILITY_LEN, MAX_DESCRIPTION_LEN};
use agentc_schema::names::{check_spec_name, normalize_spec_name};
use agentc_schema::{
    ClaudeCommandFrontmatter, ClaudeSubagentFrontmatter, CopilotAgentFrontmatter, Dialect,
    PluginManifest, SkillFrontmatter, Spanned, Text, ToolRules,
};

use super::files::{Document, Frontmatter, Markdown, Reading, decode_text, entry_value, markdown};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;
use crate::suggest::{confident, did_you_mean, list_names};

/// A parsed assistant agent file, by dialect.
#[derive(Debug)]
pub enum AssistantDoc {
    Subagent(Markdown<ClaudeSubagentFrontmatter>),
    Command(Markdown<ClaudeCommandFrontmatter>),
    Copilot(Markdown<CopilotAgentFrontmatter>),
}

impl AssistantDoc {
    /// Where the body is in the file's text.
    pub fn body_span(&self) -> agentc_schema::Span {
        match self {
            AssistantDoc::Subagent(md) => md.body_span,
            AssistantDoc::Command(md) => md.body_span,
            AssistantDoc::Copilot(md) => md.body_span,
        }
    }

    /// Keys the dialect does not define, as written.
    pub fn extra(&self) -> &[(String, serde_json::Value)] {
        match self {
            AssistantDoc::Subagent(md) => &md.front.extra,
            AssistantDoc::Command(md) => &md.front.extra,
            AssistantDoc::Copilot(md) => &md.front.extra,
        }
    }
}

/// How an Agent Skills rule counts in `dialect`: an error where the
/// specification is the host (skill collections), a warning where the host
/// reading the file does not apply it (Claude Code loads such a skill), with
/// the words that say so.
pub(crate) fn spec_rule(dialect: Dialect) -> (Severity, &'static str) {
    match dialect {
        Dialect::ClaudeSkill => (
            Severity::Warning,
            "Claude Code loads this skill, but the skill is not portable: the Agent Skills \
             specification, its `skills-ref` validator and Anthropic's skill upload refuse it",
        ),
        Dialect::CopilotSkill => (
            Severity::Warning,
            "VS Code's Copilot loads this skill (under its folder's name), but the skill is not \
             portable: the Agent Skills specification, its `skills-ref` validator and \
             Anthropic's skill upload refuse it",
        ),
        _ => (Severity::Error, "the Agent Skills specification requires it"),
    }
}

/// The Agent Skills rules of a `SKILL.md` outside agentc's runbook layout:
/// the name rule and the folder (errors where the specification is the host,
/// as the reference validator has them; warnings under Claude Code, which
/// does not apply them), and — under `.claude/` — Claude Code's tools and
/// models.
pub fn spec_skill(
    source: &Source,
    front: &SkillFrontmatter,
    folder: &str,
    dialect: Dialect,
    out: &mut Vec<Diagnostic>,
) {
    let file = &source.path;
    let name = &front.name;
    let (severity, who) = spec_rule(dialect);
    match check_spec_name(name.value.as_str()) {
        Err(err) => out.push(
            Diagnostic::at(
                Code::BadName,
                file,
                name.span,
                format!(
                    "the skill name `{}` breaks the Agent Skills naming rule: {err}",
                    name.value
                ),
            )
            .with_severity(severity)
            .with_help(format!(
                "{who}; Agent Skills names are 1-64 lowercase letters and digits, with single \
                 hyphens between them, and equal to the skill's folder name"
            )),
        ),
        Ok(())
            if !folder.is_empty()
                && normalize_spec_name(name.value.as_str()) != normalize_spec_name(folder) =>
        {
            let mut diagnostic = Diagnostic::at(
                Code::NameMismatch,
                file,
                name.span,
                format!("the skill is named `{}` but its folder is `{folder}`", name.value),
            )
            .with_severity(severity)
            .with_help(format!(
                "{who}; the specification requires the name to equal the folder's name: rename \
                 one of them"
            ));
            if check_spec_name(folder).is_ok() {
                diagnostic = diagnostic.with_fix(
                    format!("rename the skill to `{folder}`"),
                    file,
                    name.verbatim(0..name.value.as_str().len()),
                    folder,
                );
            }
            out.push(diagnostic);
        }
        Ok(()) => {}
    }
    if dialect == Dialect::ClaudeSkill {
        for rules in [&front.allowed_tools, &front.disallowed_tools].into_iter().flatten() {
            claude_tools(source, rules, out);
        }
        if let Some(model) = &front.model {
            claude_model(source, model, out);
        }
    }
}

/// The Agent Skills length limits, which hold for every `SKILL.md` (a runbook
/// is an Agent Skill too).
pub fn skill_lengths(
    source: &Source,
    front: &SkillFrontmatter,
    dialect: Dialect,
    out: &mut Vec<Diagnostic>,
) {
    let rule = spec_rule(dialect);
    if !front.description.span.is_unknown() {
        too_long(source, "description", &front.description, MAX_DESCRIPTION_LEN, rule, out);
    }
    if let Some(compatibility) = &front.compatibility {
        too_long(source, "compatibility", compatibility, MAX_COMPATIBILITY_LEN, rule, out);
    }
}

fn too_long(
    source: &Source,
    field: &str,
    value: &Spanned<Text>,
    max: usize,
    (severity, who): (Severity, &str),
    out: &mut Vec<Diagnostic>,
) {
    let len = value.value.as_str().chars().count();
    if len > max {
        let shorten = match len - max {
            1 => "shorten it by 1 character".to_owned(),
            over => format!("shorten it by {over} characters"),
        };
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                value.span,
                format!("`{field}` is {len} characters long, over the limit of {max}"),
            )
            .with_severity(severity)
            .with_help(match severity {
                Severity::Error => shorten,
                _ => format!("{who}; {shorten}"),
            }),
        );
    }
}

/// The tool a Claude Code tool entry names: `Bash` of `Bash(git log:*)`.
fn claude_tool_name(entry: &str) -> &str {
    entry.split_once('(').map_or(entry, |(name, _)| name).trim()
}

/// Each entry of a Claude Code tool list: a built-in tool (optionally with a
/// permission specifier), an MCP tool, or a renamed tool (a warning).
pub fn claude_tools(source: &Source, rules: &ToolRules, out: &mut Vec<Diagnostic>) {
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
        let close = did_you_mean(name, CLAUDE_TOOLS.iter().copied());
        let mut diagnostic = Diagnostic::at(
            Code::UnknownTool,
            file,
            name_span,
            format!("`{name}` is not a Claude Code tool"),
        );
        diagnostic = match close {
            Some(close) => {
                let diagnostic = diagnostic
                    .with_help(format!("did you mean `{close}`? tool names are case-sensitive"));
                match confident(name, CLAUDE_TOOLS.iter().copied()) {
                    Some(fix) => diagnostic.with_fix(
                        format!("replace `{name}` with `{fix}`"),
                        file,
                        entry.verbatim(0..name.len()),
                        fix,
                    ),
                    None => diagnostic,
                }
            }
            None => diagnostic.with_help(
                "Claude Code drops a tool it does not know, silently; list built-in tools \
                 (`Read`, `Bash(git log:*)`), MCP tools as `mcp__<server>__<tool>`, or \
                 `Agent(<type>)`",
            ),
        };
        out.push(diagnostic);
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
pub fn claude_model(source: &Source, model: &Spanned<Text>, out: &mut Vec<Diagnostic>) {
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
fn claude_family(id: &str) -> Option<(&str, bool)> {
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
fn dated_only(family: &str) -> bool {
    family.starts_with("claude-3-") || matches!(family, "claude-sonnet-4" | "claude-opus-4")
}

/// A Claude Code subagent.
pub fn subagent(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<ClaudeSubagentFrontmatter>> {
    let parsed = markdown::<ClaudeSubagentFrontmatter>(
        source,
        Frontmatter::Required,
        "name: code-reviewer\ndescription: Reviews code. Use after every change.\ntools: Read, Grep",
        Reading::CLAUDE_FRONTMATTER,
        out,
    )?;
    let front = &parsed.front.value;
    let file = &source.path;
    let name = &front.name;
    let text = name.value.as_str();
    let problem = if text.contains(':') {
        Some("it contains `:`")
    } else if text.starts_with('-') {
        Some("it starts with `-`")
    } else if text.chars().count() > 256 {
        Some("it is over 256 characters long")
    } else {
        None
    };
    if let (Some(problem), false) = (problem, name.span.is_unknown()) {
        out.push(
            Diagnostic::at(
                Code::BadName,
                file,
                name.span,
                format!("the subagent name `{text}` breaks Claude Code's rule: {problem}"),
            )
            .with_help("Claude Code skips such a subagent without a word; use lowercase letters and hyphens"),
        );
    }
    for rules in [&front.tools, &front.disallowed_tools].into_iter().flatten() {
        claude_tools(source, rules, out);
    }
    if let Some(tools) = &front.tools
        && tools.0.is_empty()
        && let Some(value) = entry_value(&parsed.front.tree, "tools")
    {
        out.push(
            Diagnostic::at(Code::InvalidValue, file, value.span, "the subagent would have no tools")
                .with_help("Claude Code refuses to start a subagent with zero tools; remove `tools` to inherit every tool, or list the ones it needs"),
        );
    }
    if let Some(model) = &front.model {
        claude_model(source, model, out);
    }
    Some(parsed)
}

/// A Claude Code slash command: every key is optional.
pub fn command(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<ClaudeCommandFrontmatter>> {
    let parsed = markdown::<ClaudeCommandFrontmatter>(
        source,
        Frontmatter::Optional,
        "description: Create a git commit\nallowed-tools: Bash(git commit:*)",
        Reading::CLAUDE_FRONTMATTER,
        out,
    )?;
    let front = &parsed.front.value;
    if let Some(rules) = &front.allowed_tools {
        claude_tools(source, rules, out);
    }
    if let Some(model) = &front.model {
        claude_model(source, model, out);
    }
    Some(parsed)
}

/// A Copilot custom agent (or an older chat mode).
pub fn copilot_agent(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<CopilotAgentFrontmatter>> {
    let parsed = markdown::<CopilotAgentFrontmatter>(
        source,
        Frontmatter::Required,
        "description: Plans a feature before any code is written.\ntools: ['read', 'search']",
        Reading::HOST_FRONTMATTER,
        out,
    )?;
    let front = &parsed.front.value;
    let file = &source.path;
    if source.path.path.ends_with(".chatmode.md") {
        out.push(
            Diagnostic::on_path(Code::Deprecated, file, "chat modes are now custom agents")
                .with_help(
                    "move the file to `.github/agents/<name>.agent.md`; VS Code reads both for now",
                ),
        );
    }
    for entry in front.tools.iter().flat_map(ToolRules::iter) {
        let name = entry.value.as_str();
        if name.contains('/') || COPILOT_TOOLS.iter().any(|t| t.eq_ignore_ascii_case(name)) {
            continue;
        }
        let mut diagnostic = Diagnostic::at(
            Code::UnknownTool,
            file,
            entry.span,
            format!("`{name}` is not a Copilot tool, alias or tool set"),
        )
        .with_severity(Severity::Warning);
        diagnostic = match did_you_mean(name, COPILOT_TOOLS.iter().copied()) {
            Some(close) => {
                let diagnostic = diagnostic.with_help(format!(
                    "did you mean `{close}`? Copilot ignores a tool it does not know"
                ));
                match confident(name, COPILOT_TOOLS.iter().copied()) {
                    Some(fix) => diagnostic.with_fix(
                        format!("replace `{name}` with `{fix}`"),
                        file,
                        entry.verbatim(0..name.len()),
                        fix,
                    ),
                    None => diagnostic,
                }
            }
            None => diagnostic.with_help(
                "Copilot ignores a tool it does not know; use an alias (`read`, `edit`, `search`, \
                 `execute`, `web`, `agent`, `todo`) or an MCP tool as `<server>/<tool>` or `<server>/*`",
            ),
        };
        out.push(diagnostic);
    }
    if let Some(infer) = &front.infer {
        let replacement = if infer.value {
            "`infer: true` is the default now; remove it"
        } else {
            "write `disable-model-invocation: true` instead of `infer: false`"
        };
        out.push(
            Diagnostic::at(
                Code::Deprecated,
                file,
                key_or(&parsed, "infer", infer.span),
                "`infer` is retired",
            )
            .with_help(replacement),
        );
    }
    if let Some(old) = &front.user_invokable {
        let key = key_or(&parsed, "user-invokable", old.span);
        out.push(
            Diagnostic::at(
                Code::Deprecated,
                file,
                key,
                "`user-invokable` is the old spelling of `user-invocable`",
            )
            .with_help("rename the key to `user-invocable`")
            .with_fix(
                "rename the key to `user-invocable`",
                file,
                Some(key),
                "user-invocable",
            ),
        );
    }
    Some(parsed)
}

fn key_or<T>(
    parsed: &Markdown<T>,
    key: &str,
    fallback: agentc_schema::Span,
) -> agentc_schema::Span {
    super::files::key_span(&parsed.front.tree, key).unwrap_or(fallback)
}

/// A Claude Code plugin's `.claude-plugin/plugin.json`. Claude Code ignores
/// keys it does not know, so they are warnings here.
pub fn plugin_manifest(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Document<PluginManifest>> {
    let reading = Reading { unknown: Severity::Warning, ..Reading::JSON };
    let doc = decode_text::<PluginManifest>(source, &source.text, 0, reading, out)?;
    let name = &doc.value.name;
    if !name.span.is_unknown()
        && let Err(err) =
            agentc_schema::names::check_name(agentc_schema::NameKind::Skill, name.value.as_str())
    {
        out.push(
            Diagnostic::at(
                Code::BadName,
                &source.path,
                name.span,
                format!("the plugin name `{}` breaks the naming rule: {err}", name.value),
            )
            .with_help("plugin names are kebab-case: lowercase letters, digits and `-`"),
        );
    }
    Some(doc)
}

#[cfg(test)]
mod model_tests {
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
