//! Each file kind from text to its schema type, with every syntax and schema
//! problem as a [`Diagnostic`] and the file-local checks (names, bodies).

use agentc_schema::names::{NameKind, check_name, suggest_name};
use agentc_schema::{
    AgentFrontmatter, AgentManifest, Registry, SkillFrontmatter, Span, ToolManifest,
};
use serde::de::DeserializeOwned;

use super::decode::{Problem, decode, one_of};
use super::tree::{Node, Value};
use super::{frontmatter, json, yaml};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;
use crate::suggest::did_you_mean;

/// Which syntax a text is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Yaml,
    Json,
}

/// A decoded document with what the typed value does not carry.
#[derive(Debug)]
pub struct Document<T> {
    pub value: T,
    pub tree: Node,
    /// Top-level keys the type does not declare, with their values.
    pub extra: Vec<(String, serde_json::Value)>,
}

/// Parses and decodes `text` (at byte `base` of `source`) as `T`.
///
/// Every problem goes to `out`; the value comes back when the text parsed and
/// every decode problem could be stepped around. `unknown` is the severity of
/// an unknown key.
pub fn decode_text<T: DeserializeOwned>(
    source: &Source,
    text: &str,
    base: usize,
    syntax: Syntax,
    unknown: Severity,
    out: &mut Vec<Diagnostic>,
) -> Option<Document<T>> {
    let file = &source.path;
    let (tree, duplicates, bad_keys) = match syntax {
        Syntax::Yaml => match yaml::parse(text, base) {
            Ok(parsed) => {
                let root = parsed.root.unwrap_or(Node {
                    span: Span::new(base, base),
                    value: Value::Map(Vec::new()),
                });
                (root, parsed.duplicates, parsed.bad_keys)
            }
            Err(err) => {
                out.push(
                    Diagnostic::at(
                        Code::YamlSyntax,
                        file,
                        err.span,
                        format!("invalid YAML: {}", err.message),
                    )
                    .with_help(yaml_help(&err.message)),
                );
                return None;
            }
        },
        Syntax::Json => match json::parse(text) {
            Ok(parsed) => (parsed.root, parsed.duplicates, Vec::new()),
            Err(err) => {
                out.push(Diagnostic::at(
                    Code::JsonSyntax,
                    file,
                    err.span,
                    format!("invalid JSON: {}", err.message),
                ));
                return None;
            }
        },
    };
    for dup in duplicates {
        out.push(
            Diagnostic::at(
                Code::DuplicateKey,
                file,
                dup.second,
                format!("the key `{}` appears twice", dup.key),
            )
            .with_label(file, Some(dup.first), "first defined here")
            .with_help("keep one of them; agentc never lets a later key silently win"),
        );
    }
    for span in bad_keys {
        out.push(Diagnostic::at(
            Code::InvalidValue,
            file,
            span,
            "a mapping key must be a plain string",
        ));
    }
    let decoded = decode::<T>(&tree);
    for problem in decoded.problems {
        out.push(problem_diagnostic(source, problem, unknown));
    }
    decoded.value.map(|value| Document {
        value,
        tree,
        extra: decoded.extra,
    })
}

fn yaml_help(message: &str) -> String {
    if message.contains("mapping values are not allowed") {
        "a value containing `: ` must be quoted, e.g. `description: \"Use when: …\"`".into()
    } else if message.contains("anchor or alias") {
        "`*` starts a YAML alias; quote the value, e.g. `tools: \"*\"`".into()
    } else if message.contains("more than") {
        "remove the aliases that multiply the document".into()
    } else {
        "fix the YAML syntax at this position".into()
    }
}

fn problem_diagnostic(source: &Source, problem: Problem, unknown: Severity) -> Diagnostic {
    let file = &source.path;
    match problem {
        Problem::MissingField { field, .. } => Diagnostic::on_path(
            Code::MissingField,
            file,
            format!("the required field `{field}` is missing"),
        )
        .with_help(format!("add `{field}`")),
        Problem::Invalid { span, message } => {
            Diagnostic::at(Code::InvalidValue, file, span, message)
        }
        Problem::UnknownField {
            key,
            span,
            expected,
        } => {
            let help = match did_you_mean(&key, expected.iter().copied()) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("the known fields are {}", one_of(expected)),
            };
            let tail = if unknown == Severity::Warning {
                " (kept as metadata)"
            } else {
                ""
            };
            Diagnostic::at(
                Code::UnknownField,
                file,
                span,
                format!("unknown field `{key}`{tail}"),
            )
            .with_severity(unknown)
            .with_help(help)
        }
    }
}

/// The span of a top-level key, for diagnostics about a field as a whole.
pub fn key_span(tree: &Node, key: &str) -> Option<Span> {
    match &tree.value {
        Value::Map(entries) => entries.iter().find(|e| e.key == key).map(|e| e.key_span),
        _ => None,
    }
}

/// A parsed Markdown file with frontmatter.
#[derive(Debug)]
pub struct Markdown<T> {
    pub front: Document<T>,
    pub body: String,
    pub body_span: Span,
}

/// Parses a Markdown file with YAML frontmatter.
pub fn markdown<T: DeserializeOwned>(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<T>> {
    let text: &str = &source.text;
    let split = match frontmatter::split(text) {
        Ok(split) => split,
        Err(err) => {
            out.push(
                Diagnostic::at(Code::BadFrontmatter, &source.path, err.span, err.message)
                    .with_help(err.help),
            );
            return None;
        }
    };
    let front = decode_text::<T>(
        source,
        split.yaml,
        split.yaml_start,
        Syntax::Yaml,
        Severity::Warning,
        out,
    )?;
    Some(Markdown {
        front,
        body: split.body.to_owned(),
        body_span: Span::new(split.body_start, text.len()),
    })
}

/// Reports a declared name that differs from the folder it lives in.
pub fn name_mismatch(
    source: &Source,
    declared: &agentc_schema::Spanned<agentc_schema::Text>,
    folder: &str,
    what: &str,
) -> Option<Diagnostic> {
    (declared.value.as_str() != folder).then(|| {
        Diagnostic::at(
            Code::NameMismatch,
            &source.path,
            declared.span,
            format!(
                "the {what} is named `{}` but its folder is `{folder}`",
                declared.value
            ),
        )
        .with_help(format!(
            "rename one so they match; the folder name `{folder}` is what agentc uses"
        ))
    })
}

/// A skill's frontmatter and body, with its file-local checks.
pub fn skill(
    source: &Source,
    folder: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<SkillFrontmatter>> {
    let parsed = markdown::<SkillFrontmatter>(source, out)?;
    let name = &parsed.front.value.name;
    match check_name(NameKind::Skill, name.value.as_str()) {
        Err(err) => {
            let mut d = Diagnostic::at(
                Code::BadName,
                &source.path,
                name.span,
                format!(
                    "the skill name `{}` breaks the naming rule: {err}",
                    name.value
                ),
            );
            d = d.with_help(match suggest_name(NameKind::Skill, name.value.as_str()) {
                Some(better) => {
                    format!("did you mean `{better}`? names use lowercase letters, digits and `-`")
                }
                None => "names use lowercase letters, digits and `-`, at most 64 characters".into(),
            });
            out.push(d);
        }
        Ok(()) if !folder.is_empty() && name.value.as_str() != folder => {
            out.push(
                Diagnostic::at(
                    Code::NameMismatch,
                    &source.path,
                    name.span,
                    format!(
                        "the skill is named `{}` but its folder is `{folder}`",
                        name.value
                    ),
                )
                .with_help(
                    "a skill's id is its `name`; rename the folder to match so people find it",
                ),
            );
        }
        Ok(()) => {}
    }
    if parsed.body.trim().is_empty() {
        out.push(
            Diagnostic::on_path(
                Code::EmptyBody,
                &source.path,
                "the skill has no body after its frontmatter",
            )
            .with_help("write the skill's instructions in Markdown after the closing `---`"),
        );
    }
    Some(parsed)
}

/// An `AGENT.md` bundle.
pub fn agent_md(
    source: &Source,
    id: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<AgentFrontmatter>> {
    let parsed = markdown::<AgentFrontmatter>(source, out)?;
    if let Some(name) = &parsed.front.value.name {
        out.extend(name_mismatch(source, name, id, "agent"));
    }
    Some(parsed)
}

/// An `agent.json` package manifest.
pub fn agent_json(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<AgentManifest>> {
    decode_text(source, &source.text, 0, Syntax::Json, Severity::Error, out)
}

/// A tool's `manifest.json`.
pub fn tool_manifest(
    source: &Source,
    folder: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Document<ToolManifest>> {
    let doc =
        decode_text::<ToolManifest>(source, &source.text, 0, Syntax::Json, Severity::Error, out)?;
    if let Some(name) = &doc.value.name {
        out.extend(name_mismatch(source, name, folder, "tool"));
    }
    Some(doc)
}

/// The host's registry, JSON or YAML by its extension (JSON when it starts with `{`).
pub fn registry(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Registry> {
    let path = source.path.path.as_str();
    let syntax = if path.ends_with(".json")
        || (!path.ends_with(".yaml")
            && !path.ends_with(".yml")
            && source.text.trim_start().starts_with('{'))
    {
        Syntax::Json
    } else {
        Syntax::Yaml
    };
    decode_text::<Registry>(source, &source.text, 0, syntax, Severity::Error, out).map(|d| d.value)
}
