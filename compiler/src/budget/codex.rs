//! What Codex puts in the context: each skill's name and description at
//! start, and the `AGENTS.md` files from the top down to where it works,
//! stopped at 32 KiB (`project_doc_max_bytes`).

use agentc_schema::{Dialect, Span};

use super::{HostBudget, Item, Limit, Load, Text, Unit, body_text, listed_text};
use crate::diagnostic::Severity;
use crate::dialects::config::ConfigDoc;
use crate::discover::Owner;
use crate::hosts::Host;
use crate::project::Project;

static LIMITS: [Limit; 2] = [
    Limit {
        what: "project instructions",
        total: false,
        count: agents_md,
        joined_by: 0,
        unit: Unit::Bytes,
        max: 32 * 1024,
        level: Some(Severity::Warning),
        effect: "Codex reads the `AGENTS.md` files from the top down to the working folder \
                 and stops at 32 KiB (`project_doc_max_bytes`): the model never sees the rest",
        fix: "move detail into files `AGENTS.md` points to, or into skills; or raise \
              `project_doc_max_bytes` in Codex's config.toml",
        source: "developers.openai.com/codex/guides/agents-md, read 2026-12-03",
    },
    Limit {
        what: "skill description",
        total: false,
        count: listed_text,
        joined_by: 0,
        unit: Unit::Chars,
        max: 1_024,
        level: None,
        effect: "Codex skips a skill whose description is over 1,024 characters",
        fix: "shorten the description",
        source: "Codex 0.171.0's skill loader, read 2026-12-02",
    },
];

/// What Codex puts in the context: each skill's name and description at
/// start, and the `AGENTS.md` files from the top down to where it works.
/// A nested skill folder (`web/.agents/skills`) is a set of its own, read
/// when working there.
pub fn budget<'p>(project: &'p Project, out: &mut Vec<HostBudget<'p>>) {
    let mut sets: Vec<(String, Vec<Item<'p>>)> = vec![("the project".to_owned(), Vec::new())];
    for skill in project.skills.iter().filter(|s| s.file.dialect == Dialect::CodexSkill) {
        let set = match &skill.file.owner {
            Owner::Nested(folder) => format!("`{folder}/`"),
            _ => "the project".to_owned(),
        };
        let item = Item::skill(skill);
        match sets.iter_mut().find(|(name, _)| *name == set) {
            Some((_, items)) => items.push(item),
            None => sets.push((set, vec![item])),
        }
    }
    let docs: Vec<(&str, &crate::project::Config, Span)> = project
        .configs
        .iter()
        .filter_map(|config| match (&config.doc, config.file.dialect) {
            (ConfigDoc::Markdown { body }, Dialect::AgentsMd) => {
                Some((&*config.source.path.path, config, *body))
            }
            _ => None,
        })
        .collect();
    for &(path, config, body) in &docs {
        let folder = path.strip_suffix("AGENTS.md").unwrap_or("");
        // Codex joins the files of the folders above this one first.
        let before = docs
            .iter()
            .filter(|(other, _, _)| {
                let above = other.strip_suffix("AGENTS.md").unwrap_or("");
                above.len() < folder.len() && folder.starts_with(above)
            })
            .map(|(_, _, body)| body.len())
            .sum();
        sets[0].1.push(Item {
            source: &config.source,
            kind: "instructions",
            name: path.to_owned(),
            listed: None,
            body,
            body_load: if folder.is_empty() { Load::Start } else { Load::OnDemand },
            before,
        });
    }
    for (set, items) in sets {
        if !items.is_empty() {
            out.push(HostBudget { host: Host::Codex, name: "Codex", set, items, limits: &LIMITS });
        }
    }
}

fn agents_md<'a>(item: &'a Item<'_>) -> Option<Text<'a>> {
    (item.kind == "instructions").then(|| body_text(item))
}
