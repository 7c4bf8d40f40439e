//! OpenAI's Codex, as it reads `.agents/skills/<s>/SKILL.md`: strict YAML
//! (`serde_yaml`), `name` at most 64 characters and `description` at most
//! 1,024, and no rule on a name's characters or its folder. A skill that
//! breaks a rule Codex applies is skipped with one start-up warning. Source:
//! `docs/research/claude-codex.md` §8 (Codex's `core-skills` loader and its
//! 0.171.0 binary, read 2026-12-02). A skill's `agents/openai.yaml` is read
//! fail-open (`docs/research/other-formats.md` §4).

pub mod agents;
pub mod config;
pub mod hooks;
pub mod plugin;

use agentc_schema::Dialect;
use agentc_schema::codex::CodexMetadata;

use super::{Declared, Level, SpecRule};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;

/// The project's configuration, hooks and custom agents (Codex reads them
/// in a trusted project).
pub const PROJECT_FILES: &[Declared] = &[
    Declared { path: ".codex/config.toml", dialect: Dialect::CodexConfig },
    Declared { path: ".codex/hooks.json", dialect: Dialect::CodexHooks },
    Declared { path: ".codex/agents/*.toml", dialect: Dialect::CodexAgent },
    Declared { path: ".codex-plugin/plugin.json", dialect: Dialect::CodexPlugin },
];

/// A plugin folder's Codex manifest, beside a Claude Code plugin's.
pub const PLUGIN_FILES: &[Declared] =
    &[Declared { path: ".codex-plugin/plugin.json", dialect: Dialect::CodexPlugin }];

/// The hooks file a Codex plugin's manifest leaves Codex reading, below the
/// plugin's folder, when it names none (Codex 0.171.0 reads it by default).
pub const PLUGIN_HOOKS: &str = "hooks/hooks.json";

/// The hooks files a Codex plugin's manifest (its JSON) has Codex read, below
/// the plugin's folder: those `hooks` names by `./` path (one or a list),
/// [`PLUGIN_HOOKS`] when it has no `hooks`, none when `hooks` is written
/// inline or is not a path Codex takes (it ignores the field then).
pub fn plugin_hooks(manifest: &serde_json::Value) -> Vec<String> {
    let path = |value: &serde_json::Value| {
        let text = value.as_str()?;
        let path = text.strip_prefix("./")?;
        (!path.is_empty() && !path.split('/').any(|part| part == "..")).then(|| path.to_owned())
    };
    match manifest.get("hooks") {
        None | Some(serde_json::Value::Null) => vec![PLUGIN_HOOKS.to_owned()],
        Some(serde_json::Value::Array(items)) => items.iter().filter_map(path).collect(),
        Some(value) => path(value).into_iter().collect(),
    }
}

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
