//! A `SKILL.md`: its frontmatter read in its dialect, and the checks that
//! need only the file — a body, the naming rule of its host, `onSkip`.

use agentc_schema::names::{NameKind, check_name, suggest_name};
use agentc_schema::{Dialect, SkillFrontmatter, Spanned, Text};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::hosts::{Host, Level, SpecRule};
use crate::parse::files::{Frontmatter, Markdown, Reading, entry_value, markdown};
use crate::source::Source;

/// `metadata` that is not a map of strings breaks the Agent Skills
/// specification, which Claude Code and VS Code do not apply: where the host
/// loads the skill, its `invalid-value` is a warning that says so.
fn metadata_by_host(
    parsed: &Markdown<SkillFrontmatter>,
    dialect: Dialect,
    found: &mut [Diagnostic],
) {
    let (level, who) = Host::of(dialect).spec_rule(SpecRule::Metadata);
    if level != Level::Pedantic {
        return;
    }
    for diagnostic in crate::parse::files::invalid_values_of(&parsed.front.tree, "metadata", found)
    {
        diagnostic.severity = Severity::Warning;
        diagnostic.pedantic = true;
        diagnostic.help = Some(format!(
            "{who}: its `metadata` maps keys to strings only; quote the value, or keep \
             nested data in the skill's files"
        ));
    }
}

/// Why a plugin's skill wants a `description` Claude Code does not require.
const DESCRIPTION_HELP: &str = "Claude Code 2.1.332 loads it as a command to type, but never \
    uses it by itself: it picks skills by their description; write `description: <when to use it>`";

/// A skill's frontmatter and body, with its file-local checks.
///
/// A skill without a usable `name` has no id: its problems are reported and
/// it is left out of everything that follows. A plugin's (`plugin`) is named
/// after its folder instead, and needs no frontmatter, as Claude Code 2.1.332
/// loads it.
pub fn skill(
    source: &Source,
    folder: &str,
    dialect: Dialect,
    plugin: bool,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<SkillFrontmatter>> {
    // The Copilot CLI and VS Code read a project's `.claude/skills/` too.
    let read_by_others = dialect == Dialect::ClaudeSkill && !plugin;
    // Claude Code 2.1.332 loads a project's skill as it loads a plugin's.
    let plugin = plugin || dialect == Dialect::ClaudeSkill;
    let reading = Reading {
        fields: Some(dialect.skill_fields()),
        lenient: Host::of(dialect).reader(),
        defaulted: if plugin { &["name", "description"] } else { &[] },
        // agentc refuses a key its runbooks do not define; the hosts a
        // collection is installed into ignore one.
        ignores_unknown: dialect != Dialect::Runbook,
        read_by_others,
        ..Reading::FRONTMATTER
    };
    let frontmatter = if plugin { Frontmatter::Optional } else { Frontmatter::Required };
    let before = out.len();
    let mut parsed = markdown::<SkillFrontmatter>(
        source,
        frontmatter,
        "name: refund-review\ndescription: Use when a customer asks for a refund.",
        reading,
        out,
    )?;
    metadata_by_host(&parsed, dialect, &mut out[before..]);
    if dialect == Dialect::AgentSkill {
        runbook_keys(&parsed, &mut out[before..]);
    }
    if plugin {
        super::plugin_description(source, &parsed.front.tree, DESCRIPTION_HELP, &mut out[before..]);
        // A misspelt `description` is already reported, with its fix.
        let misspelt = out[before..]
            .iter()
            .any(|d| d.code == Code::MissingField && d.message.contains("`description`"));
        if parsed.front.value.description.span.is_unknown()
            && entry_value(&parsed.front.tree, "description").is_none()
            && !misspelt
        {
            out.push(
                Diagnostic::on_path(
                    Code::MissingField,
                    &source.path,
                    "the skill has no `description`",
                )
                .with_severity(Severity::Warning)
                .with_help(DESCRIPTION_HELP),
            );
        }
        let front = &mut parsed.front.value;
        if front.name.span.is_unknown() && entry_value(&parsed.front.tree, "name").is_none() {
            // Its span stays unknown: nothing in the file names it.
            front.name.value = Text(folder.to_owned());
        }
    }
    if parsed.body(source).trim().is_empty() {
        let diagnostic = Diagnostic::on_path(
            Code::EmptyBody,
            &source.path,
            "the skill has no body after its frontmatter",
        )
        .with_help("write the skill's instructions in Markdown after the closing `---`");
        // Claude Code 2.1.332 loads it, with nothing to follow.
        out.push(if plugin { diagnostic.with_severity(Severity::Warning) } else { diagnostic });
    }
    recode_on_skip(source, &parsed, out);
    let name = &parsed.front.value.name;
    // A plugin's skill named after its folder has a name but no span.
    if name.span.is_unknown() && (!plugin || name.value.as_str().is_empty()) {
        return None;
    }
    super::skill_lengths(source, &parsed.front.value, dialect, out);
    if dialect == Dialect::Runbook {
        runbook_name(source, name, folder, out);
    } else {
        super::spec_skill(source, &parsed.front.value, folder, dialect, out);
    }
    // Skills that may be uploaded to Anthropic: Claude Code's, and the
    // specification's own collections.
    if matches!(dialect, Dialect::ClaudeSkill | Dialect::AgentSkill) {
        crate::hosts::claude_code::upload::check(source, &parsed.front.value, out);
    }
    Some(parsed)
}

/// agentc's runbook keys in a collection of Agent Skills: the hosts ignore
/// them, and the author most likely meant a runbook, read as one only where
/// `agentc.toml` (or agentc's own files) marks the top. A warning, not a
/// matter of portability.
fn runbook_keys(parsed: &Markdown<SkillFrontmatter>, found: &mut [Diagnostic]) {
    for key in ["routes", "steps", "onSkip"] {
        if !parsed.front.extra.iter().any(|(k, _)| k == key) {
            continue;
        }
        let unknown = format!("unknown field `{key}`");
        for diagnostic in found
            .iter_mut()
            .filter(|d| d.code == Code::UnknownField && d.message.starts_with(&unknown))
        {
            diagnostic.pedantic = false;
            diagnostic.help = Some(format!(
                "`{key}` is a key of agentc's runbooks, which the Agent Skills hosts ignore: \
                 this `skills/` is read as a collection of Agent Skills because the \
                 repository's top holds no `agentc.toml`; add one (`agentc init` writes it) to \
                 check these skills as runbooks"
            ));
        }
    }
}

/// The runbook's naming rule: agentc's ASCII rule, and a folder that differs
/// is only a warning (the `name` is the id).
fn runbook_name(source: &Source, name: &Spanned<Text>, folder: &str, out: &mut Vec<Diagnostic>) {
    match check_name(NameKind::Skill, name.value.as_str()) {
        Err(err) => {
            // The folder's own name, when it follows the rule, is the likeliest intent.
            let folder_ok = !folder.is_empty() && check_name(NameKind::Skill, folder).is_ok();
            let better = if folder_ok {
                Some(folder.to_owned())
            } else {
                suggest_name(NameKind::Skill, name.value.as_str())
            };
            let diagnostic = Diagnostic::at(
                Code::BadName,
                &source.path,
                name.span,
                format!("the skill name `{}` breaks the naming rule: {err}", name.value),
            );
            out.push(match better {
                Some(better) => diagnostic
                    .with_help(format!(
                        "did you mean `{better}`? names use lowercase letters, digits and `-`"
                    ))
                    .with_fix(
                        format!("rename the skill to `{better}`"),
                        &source.path,
                        name.verbatim(0..name.value.as_str().len()),
                        better,
                    ),
                None => diagnostic.with_help(
                    "names use lowercase letters, digits and `-`, at most 64 characters",
                ),
            });
        }
        Ok(()) if !folder.is_empty() && name.value.as_str() != folder => {
            out.push(
                Diagnostic::at(
                    Code::NameMismatch,
                    &source.path,
                    name.span,
                    format!("the skill is named `{}` but its folder is `{folder}`", name.value),
                )
                .with_help(
                    "a skill's id is its `name`; rename the folder to match so people find it",
                ),
            );
        }
        Ok(()) => {}
    }
}

/// An `onSkip` outside `advance`/`hold` is `bad-on-skip`, the more specific
/// code than the decoder's `invalid-value`.
fn recode_on_skip(source: &Source, parsed: &Markdown<SkillFrontmatter>, out: &mut [Diagnostic]) {
    let Some(value) = entry_value(&parsed.front.tree, "onSkip") else {
        return;
    };
    for d in out.iter_mut() {
        if d.code == Code::InvalidValue
            && d.location.file == source.path
            && d.location.span == Some(value.span)
        {
            d.code = Code::BadOnSkip;
            d.help = Some("`onSkip` is `advance` (go on to the next step) or `hold` (stay)".into());
        }
    }
}
