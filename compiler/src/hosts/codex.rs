//! OpenAI's Codex, as it reads `.agents/skills/<s>/SKILL.md`: strict YAML
//! (`serde_yaml`), `name` at most 64 characters and `description` at most
//! 1,024, and no rule on a name's characters or its folder. A skill that
//! breaks a rule Codex applies is skipped with one start-up warning. Source:
//! `docs/research/claude-codex.md` §8 (Codex's `core-skills` loader and its
//! 0.171.0 binary, read 2026-12-02). A skill's `agents/openai.yaml` is read
//! fail-open (`docs/research/other-formats.md` §4).

use agentc_schema::codex::CodexMetadata;
use agentc_schema::{Dialect, Span};

use super::{Host, Level, SpecRule};
use crate::budget::{HostBudget, Item, Limit, Load, Text, Unit, body_text, listed_text};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::discover::Owner;
use crate::parse::config::ConfigDoc;
use crate::project::Project;
use crate::source::Source;

/// How deep Codex looks for `SKILL.md` below a skill folder
/// (`MAX_SCAN_DEPTH` in its `core-skills` loader).
pub const MAX_SCAN_DEPTH: usize = 6;
/// How many folders Codex scans in one skill folder
/// (`MAX_SKILLS_DIRS_PER_ROOT`).
pub const MAX_SKILL_DIRS: usize = 2000;

/// How the specification's rules stand under Codex.
pub const fn spec_rule(rule: SpecRule) -> (Level, &'static str) {
    match rule {
        SpecRule::NameLength | SpecRule::DescriptionLength => (
            Level::Error,
            "Codex skips a skill whose name is over 64 characters or whose description is over \
             1,024, with one start-up warning",
        ),
        SpecRule::Name | SpecRule::Folder | SpecRule::CompatibilityLength | SpecRule::Metadata => (
            Level::Pedantic,
            "Codex loads this skill, but the skill is not portable: the Agent Skills \
             specification, its `skills-ref` validator and Anthropic's skill upload refuse it",
        ),
    }
}

/// The rules of a skill's `agents/openai.yaml`, as Codex's loader applies
/// them: each field it drops is a warning (Codex reads the file fail-open).
/// The icons' existence is asked of the file system by `check::config`.
pub fn metadata(source: &Source, metadata: &CodexMetadata, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    let warn = |out: &mut Vec<Diagnostic>, span, message: String, help: &str| {
        out.push(
            Diagnostic::at(Code::InvalidValue, file, span, message)
                .with_severity(Severity::Warning)
                .with_help(format!("{help}; Codex drops the field and loads the rest")),
        );
    };
    if let Some(interface) = &metadata.interface {
        for (field, value, max) in [
            ("display_name", &interface.display_name, 64),
            ("short_description", &interface.short_description, 1024),
            ("default_prompt", &interface.default_prompt, 1024),
        ] {
            if let Some(value) = value
                && value.value.chars().count() > max
            {
                let message = format!(
                    "`interface.{field}` is {} characters; Codex takes at most {max}",
                    value.value.chars().count()
                );
                warn(out, value.span, message, "shorten it");
            }
        }
        if let Some(color) = &interface.brand_color {
            let text = color.value.as_str();
            let hex = text.len() == 7
                && text.starts_with('#')
                && text[1..].bytes().all(|b| b.is_ascii_hexdigit());
            if !hex {
                let message = format!("`interface.brand_color` is `{text}`, not `#RRGGBB`");
                warn(out, color.span, message, "write six hexadecimal digits after `#`");
            }
        }
        for (field, icon) in
            [("icon_small", &interface.icon_small), ("icon_large", &interface.icon_large)]
        {
            if let Some(icon) = icon
                && icon_path(&icon.value).is_none()
            {
                let message = format!(
                    "`interface.{field}` is `{}`, which is not a path under the skill's `assets/`",
                    icon.value
                );
                warn(
                    out,
                    icon.span,
                    message,
                    "put the icon in the skill's `assets/` and write `assets/<file>`",
                );
            }
        }
    }
    for tool in metadata.dependencies.iter().flat_map(|d| &d.tools) {
        for (field, present) in
            [("type", tool.value.kind.is_some()), ("value", tool.value.value.is_some())]
        {
            if !present {
                out.push(
                    Diagnostic::at(
                        Code::MissingField,
                        file,
                        tool.span,
                        format!("a tool dependency needs `{field}`"),
                    )
                    .with_severity(Severity::Warning)
                    .with_help(format!(
                        "add `{field}` (e.g. `type: mcp`, `value: <server>`); Codex drops the \
                         dependency without it"
                    )),
                );
            }
        }
    }
}

/// An icon path as Codex takes it: relative, under `assets/` once a leading
/// `./` is removed, never climbing out.
pub fn icon_path(written: &str) -> Option<&str> {
    let path = written.strip_prefix("./").unwrap_or(written);
    (path.starts_with("assets/") && !path.split('/').any(|part| part == "..")).then_some(path)
}

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
