//! The Agent Skills specification's budget: a skill collection read by the
//! specification alone (`--layout agent-skills`). It loads each skill's
//! `name` and `description` at start and the body when the skill is used,
//! and recommends a body under 5,000 tokens and 500 lines — guidance, shown
//! in the budget report only (agentskills.io/specification, "Progressive
//! disclosure", read 2026-12-03).

use agentc_schema::Dialect;

use super::{HostBudget, Item, Limit, Text, Unit, body_text};
use crate::hosts::Host;
use crate::project::Project;

const SPECIFICATION: &str = "agentskills.io/specification, read 2026-12-03";

static LIMITS: [Limit; 2] = [
    Limit {
        what: "skill body",
        total: false,
        count: skill_body,
        joined_by: 0,
        unit: Unit::Tokens,
        max: 5_000,
        level: None,
        effect: "the specification recommends instructions under 5,000 tokens, read whole \
                 when the skill is used",
        fix: "move reference material into files the skill links to",
        source: SPECIFICATION,
    },
    Limit {
        what: "skill body",
        total: false,
        count: skill_body,
        joined_by: 0,
        unit: Unit::Lines,
        max: 500,
        level: None,
        effect: "the specification recommends a SKILL.md under 500 lines",
        fix: "move reference material into files the skill links to",
        source: SPECIFICATION,
    },
];

/// The collection's one set.
pub fn budget<'p>(project: &'p Project, out: &mut Vec<HostBudget<'p>>) {
    let items: Vec<Item<'p>> = project
        .skills
        .iter()
        .filter(|s| s.file.dialect == Dialect::AgentSkill)
        .map(|skill| {
            let mut item = Item::skill(skill);
            // The specification's hosts list `name: description`.
            if let Some(listed) = &mut item.listed {
                listed.text = format!("{}: {}", item.name, listed.text);
            }
            item
        })
        .collect();
    if !items.is_empty() {
        out.push(HostBudget {
            host: Host::AgentSkills,
            name: "Agent Skills",
            set: "the collection".to_owned(),
            items,
            limits: &LIMITS,
        });
    }
}

fn skill_body<'a>(item: &'a Item<'_>) -> Option<Text<'a>> {
    Some(body_text(item))
}
