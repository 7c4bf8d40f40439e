//! Claude Code plugins and marketplaces, the rules that need only the file:
//! names in kebab-case, each plugin listed once, component paths written
//! `./…` inside the plugin, and which plugin sources are folders of this
//! repository (checked on disk by `check::config`) and which are remote
//! (noted, never fetched).

use std::collections::HashMap;

use agentc_schema::names::{NameKind, check_name, suggest_name};
use agentc_schema::{Marketplace, Paths, Span, Spanned, Text};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;

/// Where a marketplace entry's plugin comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source_ {
    /// A folder of the marketplace's repository, relative to its top (with
    /// `metadata.pluginRoot` applied), as written and where.
    Local(String, Span),
    /// Elsewhere (GitHub, a git URL, npm): not fetched, not checked.
    Remote(String),
}

/// The sources every plugin entry names, in order (`None` where the entry's
/// source is unusable, which is reported).
pub fn marketplace(
    source: &Source,
    market: &Marketplace,
    out: &mut Vec<Diagnostic>,
) -> Vec<(Spanned<Text>, Option<Source_>, Option<bool>)> {
    let file = &source.path;
    kebab(source, &market.name, "marketplace", out);
    let root =
        market.metadata.as_ref().and_then(|m| m.plugin_root.as_ref()).map(|root| {
            root.value.as_str().trim_start_matches("./").trim_end_matches('/').to_owned()
        });
    let mut seen: HashMap<&str, Span> = HashMap::new();
    let mut sources = Vec::new();
    for entry in &market.plugins {
        let plugin = &entry.value;
        let name = &plugin.name;
        kebab(source, name, "plugin", out);
        if let Some(first) = seen.get(name.value.as_str()) {
            out.push(
                Diagnostic::at(
                    Code::DuplicateName,
                    file,
                    name.span,
                    format!("the marketplace lists the plugin `{}` twice", name.value),
                )
                .with_label(file, Some(*first), "first listed here")
                .with_help("list each plugin once; people install plugins by name"),
            );
        } else {
            seen.insert(name.value.as_str(), name.span);
        }
        let found = plugin_source(source, &plugin.source, root.as_deref(), out);
        sources.push((name.clone(), found, plugin.strict));
        for paths in [&plugin.commands, &plugin.agents, &plugin.skills, &plugin.output_styles]
            .into_iter()
            .flatten()
        {
            relative(source, paths, false, out);
        }
    }
    sources
}

/// A plugin entry's `source`: a relative folder, or an object naming a
/// remote place.
fn plugin_source(
    source: &Source,
    written: &Spanned<serde_json::Value>,
    root: Option<&str>,
    out: &mut Vec<Diagnostic>,
) -> Option<Source_> {
    match &written.value {
        serde_json::Value::String(path) => {
            let bare = path.trim_start_matches("./");
            // `.`, the marketplace's own folder, is accepted as `./` is
            // (Claude Code 2.1.332 validates and installs it).
            let here = path == ".";
            if !path.starts_with("./") && !here && root.is_none() {
                out.push(
                    Diagnostic::at(
                        Code::InvalidValue,
                        &source.path,
                        written.span,
                        format!("the plugin source `{path}` does not start with `./`"),
                    )
                    .with_help(format!(
                        "write `./{bare}`: a source in this repository is a path from the \
                         marketplace's top, starting with `./`; a remote one is an object such \
                         as `{{\"source\": \"github\", \"repo\": \"owner/repo\"}}`"
                    )),
                );
                return None;
            }
            let joined = match root {
                _ if here => String::new(),
                Some(root) if !path.starts_with("./") && !root.is_empty() => {
                    format!("{root}/{bare}")
                }
                _ => bare.to_owned(),
            };
            Some(Source_::Local(joined, written.span))
        }
        serde_json::Value::Object(fields) => {
            let kind = fields.get("source").and_then(|s| s.as_str()).unwrap_or_default();
            let place = ["repo", "url", "package"]
                .iter()
                .find_map(|key| fields.get(*key).and_then(|v| v.as_str()))
                .unwrap_or_default();
            if kind.is_empty() {
                out.push(
                    Diagnostic::at(
                        Code::MissingField,
                        &source.path,
                        written.span,
                        "a plugin source object needs `source`: where the plugin comes from",
                    )
                    .with_help(
                        "write `\"source\": \"github\"` with `repo`, `\"source\": \"url\"` with \
                         `url`, or give a folder of this repository as `\"./plugins/<name>\"`",
                    ),
                );
                return None;
            }
            Some(Source_::Remote(format!("{kind} {place}").trim().to_owned()))
        }
        _ => {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    &source.path,
                    written.span,
                    "a plugin source is a folder (`\"./plugins/<name>\"`) or an object",
                )
                .with_help("write `\"source\": \"./plugins/<name>\"`"),
            );
            None
        }
    }
}

/// Component paths are relative to the plugin's folder and start with `./`.
/// In `plugin.json` one without is refused (Claude Code 2.1.332 loads nothing
/// of the plugin: "commands: Invalid input"), so `refused` makes it an error;
/// in a marketplace entry it is a warning.
pub fn relative(source: &Source, paths: &Paths, refused: bool, out: &mut Vec<Diagnostic>) {
    for path in paths.iter() {
        let text = path.value.as_str();
        if text.starts_with("./") {
            continue;
        }
        let bare = text.trim_start_matches('/');
        let (severity, message) = match refused {
            true => (
                Severity::Error,
                format!(
                    "Claude Code 2.1.332 does not load this plugin: the component path `{text}` \
                     does not start with `./`"
                ),
            ),
            false => {
                (Severity::Warning, format!("the component path `{text}` does not start with `./`"))
            }
        };
        out.push(
            Diagnostic::at(Code::InvalidValue, &source.path, path.span, message)
                .with_severity(severity)
                .with_help(format!(
                    "write `./{bare}`: Claude Code's plugin reference has every component path \
                     relative to the plugin's folder, starting with `./`"
                ))
                .with_fix(
                    format!("write `./{bare}`"),
                    &source.path,
                    path.verbatim(0..text.len()),
                    format!("./{bare}"),
                ),
        );
    }
}

/// `agents` in `plugin.json` names agent files: Claude Code 2.1.332 refuses
/// the plugin when a path does not end in `.md` ("agents: Invalid string:
/// must end with \".md\""), a folder such as `./agents/` included.
pub fn agent_files(source: &Source, paths: &Paths, out: &mut Vec<Diagnostic>) {
    for path in paths.iter().filter(|p| !p.value.as_str().ends_with(".md")) {
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                path.span,
                format!(
                    "Claude Code 2.1.332 does not load this plugin: the agent path `{}` does not \
                     name a `.md` file",
                    path.value.as_str()
                ),
            )
            .with_help(
                "list each agent's file (`\"agents\": [\"./agents/reviewer.md\"]`), or drop \
                 `agents`: Claude Code reads the plugin's `agents/` folder without it",
            ),
        );
    }
}

/// A plugin or marketplace name. Claude Code refuses an empty name and one
/// with blanks or control characters (a marketplace's also with characters
/// outside `[A-Za-z0-9._-]`): errors. Kebab-case is what `claude plugin
/// validate` asks for and Claude Code does not enforce: a warning.
pub fn kebab(source: &Source, name: &Spanned<Text>, what: &str, out: &mut Vec<Diagnostic>) {
    if name.span.is_unknown() {
        return;
    }
    let text = name.value.as_str();
    let Err(err) = check_name(NameKind::Skill, text) else {
        return;
    };
    let refused = text.chars().any(|c| c.is_whitespace() || c.is_control())
        || (what == "marketplace"
            && !text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')));
    let mut diagnostic = Diagnostic::at(
        Code::BadName,
        &source.path,
        name.span,
        format!("the {what} name `{text}` breaks the naming rule: {err}"),
    );
    let rule = match refused {
        true => format!(
            "Claude Code refuses it; {what} names are kebab-case: lowercase letters, digits and `-`"
        ),
        false => {
            diagnostic = diagnostic.with_severity(Severity::Warning);
            "Claude Code loads it, but `claude plugin validate` asks for kebab-case: \
             lowercase letters, digits and `-`"
                .to_owned()
        }
    };
    diagnostic = match suggest_name(NameKind::Skill, text) {
        Some(better) => diagnostic.with_help(format!("write `{better}`; {rule}")),
        None => diagnostic.with_help(rule),
    };
    out.push(diagnostic);
}
