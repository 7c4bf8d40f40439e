//! Dialects: each file of the formats of the wild decoded in its dialect,
//! with the file-local rules its host applies (Agent Skills, Claude Code,
//! Copilot, and the configuration files of the others). A stage of its own
//! above [`crate::parse`], whose trees it decodes, and [`crate::hosts`],
//! whose rules it consults; see `docs/formats.md` for the sources and where
//! agentc is stricter.

pub mod config;
pub mod skill;

use agentc_schema::dialect::{MAX_COMPATIBILITY_LEN, MAX_DESCRIPTION_LEN};
use agentc_schema::names::{SpecNameError, check_spec_name, normalize_spec_name};
use agentc_schema::{
    ClaudeCommandFrontmatter, ClaudeSubagentFrontmatter, CopilotAgentFrontmatter, Dialect,
    PluginManifest, SkillFrontmatter, Spanned, Text,
};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::hosts::{Host, Level, SpecRule, claude_code, copilot};
use crate::parse::files::{
    Document, Frontmatter, Markdown, Reading, decode_text, entry_value, key_or, markdown,
};
use crate::parse::tree::Node;
use crate::source::Source;

/// A parsed assistant agent file, by dialect.
#[derive(Clone, Debug)]
pub enum AssistantDoc {
    Subagent(Markdown<ClaudeSubagentFrontmatter>),
    Command(Markdown<ClaudeCommandFrontmatter>),
    Copilot(Markdown<CopilotAgentFrontmatter>),
}

impl AssistantDoc {
    /// Lets the frontmatter's tree go ([`crate::parse::tree::Tree::release`]).
    pub fn release_tree(&mut self) {
        match self {
            AssistantDoc::Subagent(md) => md.front.tree.release(),
            AssistantDoc::Command(md) => md.front.tree.release(),
            AssistantDoc::Copilot(md) => md.front.tree.release(),
        }
    }

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
    let host = Host::of(dialect);
    match check_spec_name(name.value.as_str()) {
        Err(err) => out.push({
            let rule = match err {
                SpecNameError::TooLong { .. } => SpecRule::NameLength,
                _ => SpecRule::Name,
            };
            let (level, who) = host.spec_rule(rule);
            Diagnostic::at(
                Code::BadName,
                file,
                name.span,
                format!(
                    "the skill name `{}` breaks the Agent Skills naming rule: {err}",
                    name.value
                ),
            )
            .with_help(format!(
                "{who}; Agent Skills names are 1-64 lowercase letters and digits, with single \
                 hyphens between them, and equal to the skill's folder name"
            ))
            .at_level(level)
        }),
        Ok(())
            if !folder.is_empty()
                && normalize_spec_name(name.value.as_str()) != normalize_spec_name(folder) =>
        {
            let (level, who) = host.spec_rule(SpecRule::Folder);
            let mut diagnostic = Diagnostic::at(
                Code::NameMismatch,
                file,
                name.span,
                format!("the skill is named `{}` but its folder is `{folder}`", name.value),
            )
            .with_help(format!(
                "{who}; the specification requires the name to equal the folder's name: rename \
                 one of them"
            ))
            .at_level(level);
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
            claude_code::tools(source, rules, out);
        }
        if let Some(model) = &front.model {
            claude_code::model(source, model, out);
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
    let host = Host::of(dialect);
    if !front.description.span.is_unknown() {
        let rule = host.spec_rule(SpecRule::DescriptionLength);
        too_long(source, "description", &front.description, MAX_DESCRIPTION_LEN, rule, out);
    }
    if let Some(compatibility) = &front.compatibility {
        let rule = host.spec_rule(SpecRule::CompatibilityLength);
        too_long(source, "compatibility", compatibility, MAX_COMPATIBILITY_LEN, rule, out);
    }
}

fn too_long(
    source: &Source,
    field: &str,
    value: &Spanned<Text>,
    max: usize,
    (level, who): (Level, &str),
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
            // Where the specification is the host, the limit speaks for itself.
            .with_help(match (level, Host::spec_is_the_host(who)) {
                (Level::Error, true) => shorten,
                _ => format!("{who}; {shorten}"),
            })
            .at_level(level),
        );
    }
}

/// A specification rule at the level its host gives it.
trait ByHost {
    fn at_level(self, level: Level) -> Self;
}

impl ByHost for Diagnostic {
    fn at_level(self, level: Level) -> Diagnostic {
        level.apply(self)
    }
}

/// Why a plugin's subagent wants a `description` Claude Code does not require.
const DESCRIPTION_HELP: &str = "Claude Code 2.1.332 loads it all the same, but Claude picks the \
    subagent to delegate to by its description: write `description: <when to use it>`";

/// A blank `description` in a plugin's subagent or skill (frontmatter
/// `tree`): Claude Code 2.1.332 loads it, so the decoder's error on the value
/// is a warning, with `help`.
pub(super) fn plugin_description(
    source: &Source,
    tree: &Node,
    help: &str,
    found: &mut [Diagnostic],
) {
    let Some(value) = entry_value(tree, "description") else {
        return;
    };
    let at = value.span;
    for diagnostic in found.iter_mut().filter(|d| {
        d.code == Code::InvalidValue
            && d.location.file == source.path
            && d.location.span.is_some_and(|s| s.start >= at.start && s.end <= at.end)
    }) {
        diagnostic.severity = Severity::Warning;
        diagnostic.help = Some(help.to_owned());
    }
}

/// A Claude Code subagent, a plugin's when `plugin`: Claude Code 2.1.332
/// loads a plugin's subagent without frontmatter, without `name` (named after
/// its file) and with a blank or no `description`, where a project's needs
/// both.
pub fn subagent(
    source: &Source,
    plugin: bool,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<ClaudeSubagentFrontmatter>> {
    let before = out.len();
    let (frontmatter, reading) = match plugin {
        true => (
            Frontmatter::Optional,
            Reading { defaulted: &["name", "description"], ..Reading::CLAUDE_FRONTMATTER },
        ),
        false => (Frontmatter::Required, Reading::CLAUDE_FRONTMATTER),
    };
    let parsed = markdown::<ClaudeSubagentFrontmatter>(
        source,
        frontmatter,
        "name: code-reviewer\ndescription: Reviews code. Use after every change.\ntools: Read, Grep",
        reading,
        out,
    )?;
    claude_code::ignored_values(&parsed.front.tree, &mut out[before..]);
    if plugin {
        plugin_description(source, &parsed.front.tree, DESCRIPTION_HELP, &mut out[before..]);
        if parsed.front.value.description.span.is_unknown()
            && entry_value(&parsed.front.tree, "description").is_none()
        {
            out.push(
                Diagnostic::on_path(
                    Code::MissingField,
                    &source.path,
                    "the plugin's subagent has no `description`",
                )
                .with_severity(Severity::Warning)
                .with_help(DESCRIPTION_HELP),
            );
        }
    }
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
    } else if !name.span.is_unknown()
        && !text.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        let lowered: String = text
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
            .collect();
        let suggested =
            lowered.split('-').filter(|part| !part.is_empty()).collect::<Vec<_>>().join("-");
        out.push(
            Diagnostic::at(
                Code::BadName,
                file,
                name.span,
                format!("the subagent name `{text}` is not lowercase letters, digits and hyphens"),
            )
            .with_severity(Severity::Warning)
            .with_help(format!(
                "Claude Code's documentation asks for lowercase letters and hyphens, e.g. \
                 `{suggested}`; Claude Code loads this subagent all the same"
            )),
        );
    }
    for rules in [&front.tools, &front.disallowed_tools].into_iter().flatten() {
        claude_code::tools(source, rules, out);
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
        claude_code::model(source, model, out);
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
        Reading {
            ignored: Some(claude_code::ignored_in_command),
            // Claude Code 2.1.332 loads a command whatever these hold.
            absent_when_empty: &["description", "argument-hint", "allowed-tools", "model"],
            ..Reading::CLAUDE_FRONTMATTER
        },
        out,
    )?;
    let front = &parsed.front.value;
    if let Some(rules) = &front.allowed_tools {
        claude_code::tools(source, rules, out);
    }
    if let Some(model) = &front.model {
        claude_code::model(source, model, out);
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
    copilot::body_length(source, parsed.body_span, out);
    if let Some(tools) = &front.tools {
        copilot::tools(source, tools, out);
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

/// A Claude Code plugin's `.claude-plugin/plugin.json`. Claude Code ignores
/// keys it does not know, so they are warnings here.
pub fn plugin_manifest(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Document<PluginManifest>> {
    let reading = Reading { unknown: Severity::Warning, ..Reading::JSON };
    let doc = decode_text::<PluginManifest>(source, &source.text, 0, reading, out)?;
    claude_code::plugins::kebab(source, &doc.value.name, "plugin", out);
    Some(doc)
}
