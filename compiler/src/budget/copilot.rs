//! What GitHub Copilot puts in the context, and the limits GitHub
//! documents (`docs/formats.md`, "Context budgets"; read 2026-12-03).
//!
//! VS Code lists every skill's name and description at start (its loader
//! cuts a description at 1,024 characters) and reads
//! `.github/copilot-instructions.md` into every request; a custom agent's
//! prompt, a matching instructions file and a prompt file are read when
//! used. The limits here are reported elsewhere when Copilot acts on them
//! (a prompt over 30,000 characters is `invalid-value`, a description over
//! 1,024 the specification's rule), so the report only shows them.

use agentc_schema::Dialect;

use super::{HostBudget, Item, Limit, Load, Text, Unit, body_text, listed_text};
use crate::dialects::AssistantDoc;
use crate::dialects::config::ConfigDoc;
use crate::hosts::Host;
use crate::project::Project;

static LIMITS: [Limit; 2] = [
    Limit {
        what: "skill description",
        total: false,
        count: listed_text,
        joined_by: 0,
        unit: Unit::Chars,
        max: 1_024,
        level: None,
        effect: "VS Code cuts a skill's description at 1,024 characters",
        fix: "put what the model needs to choose the skill first",
        source: "VS Code's Agent Skills reference and loader, read 2026-12-03",
    },
    Limit {
        what: "custom agent prompt",
        total: false,
        count: agent_body,
        joined_by: 0,
        unit: Unit::Chars,
        max: 30_000,
        level: None,
        effect: "GitHub documents at most 30,000 characters for a custom agent's prompt",
        fix: "move reference material into files the agent reads, or a skill",
        source: "docs.github.com custom agents configuration, read 2026-12-03",
    },
];

/// The project's one set.
pub fn sets<'p>(project: &'p Project, out: &mut Vec<HostBudget<'p>>) {
    let copilot = project.skills.iter().filter(|s| s.file.dialect == Dialect::CopilotSkill);
    let mut items: Vec<Item<'p>> = copilot.map(Item::skill).collect();
    for assistant in &project.assistants {
        if let AssistantDoc::Copilot(md) = &assistant.doc {
            items.push(Item {
                source: &assistant.source,
                kind: "agent",
                name: assistant.id(),
                listed: None,
                body: md.body_span,
                body_load: Load::OnDemand,
                before: 0,
            });
        }
    }
    for config in &project.configs {
        let path = &*config.source.path.path;
        let (kind, body, load) = match (&config.doc, config.file.dialect) {
            (ConfigDoc::Markdown { body }, Dialect::CopilotRepoInstructions) => {
                ("instructions", *body, Load::Start)
            }
            (ConfigDoc::Instructions(md), _) => ("instructions", md.body_span, Load::OnDemand),
            (ConfigDoc::Prompt(md), _) => ("prompt", md.body_span, Load::OnDemand),
            _ => continue,
        };
        items.push(Item {
            source: &config.source,
            kind,
            name: path.to_owned(),
            listed: None,
            body,
            body_load: load,
            before: 0,
        });
    }
    if !items.is_empty() {
        out.push(HostBudget {
            host: Host::Copilot,
            name: "GitHub Copilot",
            set: "the project".to_owned(),
            items,
            limits: &LIMITS,
        });
    }
}

fn agent_body<'a>(item: &'a Item<'_>) -> Option<Text<'a>> {
    (item.kind == "agent").then(|| body_text(item))
}
