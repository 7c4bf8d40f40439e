//! What Claude Code puts in the context, and its limits (Claude Code
//! 2.1.332, read 2026-12-03; `docs/formats.md`, "Context budgets").
//!
//! At start it lists every skill and command the model may invoke — `- name:
//! description` (a skill's `when_to_use` after ` - `), each description cut
//! at 1,536 characters — in a budget of 1% of the context window at four
//! characters a token: 8,000 characters for a 200,000-token window.
//! Past it, skills are listed by name only. Subagents' `name: description`
//! are listed to the model too; past 15,000 tokens by its own estimate
//! (characters ÷ 4) it warns at start-up. The top memory files are read
//! whole at start (nested folders' when Claude reads there); one over
//! 40,000 characters draws a start-up warning. Each plugin is installed on
//! its own, so its files are a set apart from the project's.

use std::borrow::Cow;

use agentc_schema::Dialect;

use super::{HostBudget, Item, Limit, Listed, Load, Text, Unit, body_text, listed_text};
use crate::diagnostic::Severity;
use crate::dialects::AssistantDoc;
use crate::dialects::config::ConfigDoc;
use crate::discover::Owner;
use crate::hosts::Host;
use crate::project::Project;

/// How long a description may be in the skill listing.
const LISTED_DESCRIPTION: usize = 1_536;

const SKILLS_DOC: &str = "code.claude.com/docs/en/skills and Claude Code 2.1.332's listing, \
                          read 2026-12-03";

static LIMITS: [Limit; 5] = [
    Limit {
        what: "skill listing",
        total: true,
        count: listing_entry,
        joined_by: 1,
        unit: Unit::Chars,
        max: 8_000,
        level: Some(Severity::Warning),
        effect: "past its budget (1% of the context window, 8,000 characters for a \
                 200,000-token window) Claude Code lists skills by name only, so the model \
                 cannot tell when to use them",
        fix: "shorten the longest descriptions, set `disable-model-invocation: true` on what \
              only people start, or raise the budget with SLASH_COMMAND_TOOL_CHAR_BUDGET",
        source: SKILLS_DOC,
    },
    Limit {
        what: "description in the skill listing",
        total: false,
        count: listing_description,
        joined_by: 0,
        unit: Unit::Chars,
        max: LISTED_DESCRIPTION,
        level: Some(Severity::Warning),
        effect: "Claude Code cuts a description (with `when_to_use`) at 1,536 characters in \
                 its skill listing, so the model never reads the rest",
        fix: "put what the model needs to choose the skill first and move detail into the \
              body, or raise the cap with the `skillListingMaxDescChars` setting",
        source: SKILLS_DOC,
    },
    Limit {
        what: "subagent descriptions",
        total: true,
        count: subagent_entry,
        joined_by: 0,
        unit: Unit::HostTokens,
        max: 15_000,
        level: Some(Severity::Warning),
        effect: "Claude Code warns at start-up that agent descriptions are over its \
                 15,000-token limit: they are in the context of every session",
        fix: "shorten the longest descriptions: say when to delegate, and keep the how in \
              the subagent's prompt",
        source: "Claude Code 2.1.332's start-up notice `large-agent-descriptions`, read \
                 2026-12-03",
    },
    Limit {
        what: "memory file",
        total: false,
        count: memory_body,
        joined_by: 0,
        unit: Unit::Chars,
        max: 40_000,
        level: Some(Severity::Warning),
        effect: "Claude Code warns that a memory file over 40,000 characters (for a \
                 200,000-token window) will impact performance, and reads all of it into \
                 every session",
        fix: "move detail into files the memory file links to or imports only where needed, \
              or into skills",
        source: "code.claude.com/docs/en/memory and Claude Code 2.1.332's start-up notice \
                 `large-memory-files`, read 2026-12-03",
    },
    Limit {
        what: "skill body",
        total: false,
        count: skill_body,
        joined_by: 0,
        unit: Unit::Lines,
        max: 500,
        level: None,
        effect: "Anthropic's guidance keeps SKILL.md under 500 lines",
        fix: "move reference material into files the skill links to",
        source: SKILLS_DOC,
    },
];

/// The project's set and each plugin's.
pub fn sets<'p>(project: &'p Project, out: &mut Vec<HostBudget<'p>>) {
    let mut sets: Vec<(Option<String>, Vec<Item<'p>>)> = vec![(None, Vec::new())];
    let mut set_of = |plugin: Option<&str>| -> usize {
        match sets.iter().position(|(p, _)| p.as_deref() == plugin) {
            Some(i) => i,
            None => {
                sets.push((plugin.map(str::to_owned), Vec::new()));
                sets.len() - 1
            }
        }
    };
    let mut items: Vec<(usize, Item<'p>)> = Vec::new();
    for skill in &project.skills {
        if skill.file.dialect != Dialect::ClaudeSkill {
            continue;
        }
        let front = &skill.parsed.front.value;
        let plugin = match &skill.file.owner {
            Owner::Plugin(plugin) => Some(plugin.as_str()),
            _ => None,
        };
        let name = match plugin {
            Some(plugin) => format!("{plugin}:{}", front.name.value),
            None => front.name.value.to_string(),
        };
        let listed = (front.disable_model_invocation != Some(true)).then(|| {
            let mut text = front.description.value.to_string();
            if let Some(when) = &front.when_to_use {
                text = format!("{text} - {}", when.value);
            }
            Listed { text, span: front.description.span }
        });
        items.push((
            set_of(plugin),
            Item {
                source: &skill.source,
                kind: "skill",
                name,
                listed,
                body: skill.parsed.body_span,
                body_load: Load::OnDemand,
                before: 0,
            },
        ));
    }
    for assistant in &project.assistants {
        let (kind, listed) = match &assistant.doc {
            AssistantDoc::Subagent(md) => {
                let front = &md.front.value;
                let text = front.description.value.to_string();
                ("subagent", Some(Listed { text, span: front.description.span }))
            }
            AssistantDoc::Command(md) => {
                let front = &md.front.value;
                let listed = (front.disable_model_invocation != Some(true)).then(|| {
                    match &front.description {
                        Some(d) => Listed { text: d.value.to_string(), span: d.span },
                        None => Listed {
                            text: first_line(md.body(&assistant.source)),
                            span: md.body_span,
                        },
                    }
                });
                ("command", listed)
            }
            AssistantDoc::Copilot(_) => continue,
        };
        items.push((
            set_of(assistant.file.plugin.as_deref()),
            Item {
                source: &assistant.source,
                kind,
                name: assistant.id(),
                listed,
                body: assistant.doc.body_span(),
                body_load: Load::OnDemand,
                before: 0,
            },
        ));
    }
    for config in &project.configs {
        let (Dialect::ClaudeMd, ConfigDoc::Markdown { body }) = (config.file.dialect, &config.doc)
        else {
            continue;
        };
        let path = &*config.source.path.path;
        let top = matches!(path, "CLAUDE.md" | ".claude/CLAUDE.md" | "CLAUDE.local.md");
        items.push((
            set_of(None),
            Item {
                source: &config.source,
                kind: "memory",
                name: path.to_owned(),
                listed: None,
                body: *body,
                body_load: if top { Load::Start } else { Load::OnDemand },
                before: 0,
            },
        ));
    }
    for (set, item) in items {
        sets[set].1.push(item);
    }
    for (plugin, items) in sets {
        if items.is_empty() {
            continue;
        }
        out.push(HostBudget {
            host: Host::ClaudeCode,
            name: "Claude Code",
            set: match plugin {
                Some(plugin) => format!("plugin `{plugin}`"),
                None => "the project".to_owned(),
            },
            items,
            limits: &LIMITS,
        });
    }
}

/// What a command with no `description` is listed with: its first line of
/// text (a heading's words), cut at 100 characters, else `Custom command`.
fn first_line(body: &str) -> String {
    let Some(line) = body.lines().map(str::trim).find(|l| !l.is_empty()) else {
        return "Custom command".to_owned();
    };
    let heading = line.trim_start_matches('#');
    let line = match heading.len() < line.len() && heading.starts_with([' ', '\t']) {
        true if !heading.trim().is_empty() => heading.trim(),
        _ => line,
    };
    match line.chars().count() > 100 {
        true => format!("{}...", line.chars().take(97).collect::<String>()),
        false => line.to_owned(),
    }
}

/// A skill or command's line in the listing: `- name: description`, the
/// description cut at [`LISTED_DESCRIPTION`].
fn listing_entry<'a>(item: &'a Item<'_>) -> Option<Text<'a>> {
    if !matches!(item.kind, "skill" | "command") {
        return None;
    }
    let listed = item.listed.as_ref()?;
    let cut: String = match listed.text.chars().map(char::len_utf16).sum::<usize>() {
        n if n > LISTED_DESCRIPTION => {
            let mut units = 0;
            listed
                .text
                .chars()
                .take_while(|c| {
                    units += c.len_utf16();
                    units < LISTED_DESCRIPTION
                })
                .chain(['…'])
                .collect()
        }
        _ => listed.text.clone(),
    };
    Some(Text {
        text: Cow::Owned(format!("- {}: {cut}", item.name)),
        span: listed.span,
        verbatim: false,
        carried: 0,
    })
}

/// A skill's or command's description with its `when_to_use`, as the
/// listing cuts it.
fn listing_description<'a>(item: &'a Item<'_>) -> Option<Text<'a>> {
    listed_text(item).filter(|_| matches!(item.kind, "skill" | "command"))
}

/// A subagent as Claude Code counts it: `name: description`.
fn subagent_entry<'a>(item: &'a Item<'_>) -> Option<Text<'a>> {
    let listed = item.listed.as_ref().filter(|_| item.kind == "subagent")?;
    Some(Text {
        text: Cow::Owned(format!("{}: {}", item.name, listed.text)),
        span: listed.span,
        verbatim: false,
        carried: 0,
    })
}

fn memory_body<'a>(item: &'a Item<'_>) -> Option<Text<'a>> {
    (item.kind == "memory").then(|| body_text(item))
}

fn skill_body<'a>(item: &'a Item<'_>) -> Option<Text<'a>> {
    (item.kind == "skill").then(|| body_text(item))
}

#[cfg(test)]
mod tests {
    use super::first_line;

    #[test]
    fn a_command_without_description_is_listed_by_its_first_line() {
        assert_eq!(first_line("\n\n# Review the diff\nsteps"), "Review the diff");
        assert_eq!(first_line("Run the tests.\n"), "Run the tests.");
        assert_eq!(first_line("  \n"), "Custom command");
        let long = "x".repeat(120);
        assert_eq!(first_line(&long), format!("{}...", "x".repeat(97)));
    }
}
