//! Hover: what a name stands for, what a key means, what a guard matches.

use agentc_schema::Span;
use agentc_schema::guard::parse_guard;

use super::{Analysis, Item, Symbol, keys};

mod values;
use agentc_compiler::diagnostic::RelPath;
use agentc_compiler::parse::tree::Value;
use agentc_compiler::resolve::RefKind;

pub(super) fn hover(
    analysis: &Analysis<'_>,
    file: &RelPath,
    offset: usize,
) -> Option<(String, Span)> {
    if let Some((symbol, span)) = analysis.symbol_at(file, offset) {
        return Some((symbol_text(analysis, symbol), span));
    }
    if let Some(found) = super::agents::hover(analysis, file, offset) {
        return Some(found);
    }
    if let Some(found) = guard(analysis, file, offset) {
        return Some(found);
    }
    key(analysis, file, offset).or_else(|| values::hover(analysis, file, offset))
}

fn symbol_text(analysis: &Analysis<'_>, symbol: Symbol) -> String {
    let def = analysis.def(symbol);
    let model = &analysis.compilation.model;
    let mut text = String::new();
    match symbol.kind {
        RefKind::Skill => {
            text.push_str(&format!("**skill** `{}`", def.qualified));
            if let Some(skill) = def.source.map(|i| &analysis.compilation.project.skills[i]) {
                let description = skill.parsed.front.value.description.value.as_str();
                text.push_str(&format!(
                    "\n\n{description}\n\n*defined in* `{}`",
                    skill.source.path
                ));
            }
        }
        RefKind::Tool => {
            text.push_str(&format!("**tool** `{}`", def.qualified));
            let compiled = model.tool(&def.qualified);
            match compiled.and_then(|t| t.description.as_deref()) {
                Some(description) => text.push_str(&format!("\n\n{description}")),
                None if def.source.is_none() => {
                    text.push_str(&format!("\n\ndeclared by the host in `{}`", def.site.file));
                }
                None => {}
            }
            if let Some(schema) = compiled.and_then(|t| t.input_schema.as_ref()) {
                let pretty = serde_json::to_string_pretty(schema).unwrap_or_default();
                text.push_str(&format!("\n\ninput:\n```json\n{pretty}\n```"));
            }
            if let Some(place) = analysis.definition(symbol).filter(|_| def.source.is_some()) {
                text.push_str(&format!("\n\n*defined in* `{}`", place.file));
            }
        }
    }
    text
}

/// A route's guard, in words.
fn guard(analysis: &Analysis<'_>, file: &RelPath, offset: usize) -> Option<(String, Span)> {
    let Item::Skill(i) = analysis.file(file)?.item else {
        return None;
    };
    let skill = &analysis.compilation.project.skills[i];
    let route = skill.parsed.front.value.routes.iter().flatten().find(|route| {
        route.guard.as_ref().is_some_and(|g| g.span.start <= offset && offset <= g.span.end)
    })?;
    let written = route.guard.as_ref()?;
    let text = match parse_guard(&written.value) {
        Ok(guard) => {
            let statuses: Vec<String> =
                guard.statuses.iter().map(|s| format!("`{}`", s.value)).collect();
            let statuses = match statuses.as_slice() {
                [] => None,
                [one] => Some(one.clone()),
                [rest @ .., last] => Some(format!("{} or {last}", rest.join(", "))),
            };
            let target = route.target.value.as_str();
            match (&guard.on, statuses) {
                (Some(on), Some(statuses)) => format!(
                    "**guard**: goes to `{target}` when the tool `{}` returns {statuses}",
                    on.value
                ),
                (Some(on), None) => format!(
                    "**guard**: goes to `{target}` whenever the tool `{}` has run, whatever it returned",
                    on.value
                ),
                (None, Some(statuses)) => {
                    format!("**guard**: goes to `{target}` when any tool returns {statuses}")
                }
                (None, None) => format!("**guard**: goes to `{target}`"),
            }
        }
        Err(_) => format!("**guard**: {}", agentc_schema::guard::GUARD_GRAMMAR),
    };
    Some((text, written.span))
}

/// A top-level key, with what the schema says of it.
fn key(analysis: &Analysis<'_>, file: &RelPath, offset: usize) -> Option<(String, Span)> {
    let info = analysis.file(file)?;
    let Value::Map(entries) = &analysis.tree(file)?.value else {
        return None;
    };
    let entry = entries.iter().find(|e| e.key_span.start <= offset && offset <= e.key_span.end)?;
    let doc = keys::key(info.kind, &entry.key)?;
    Some((key_text(doc), entry.key_span))
}

/// What the schema says of a key, as Markdown.
pub(super) fn key_text(doc: &keys::KeyDoc) -> String {
    let mut text = match &doc.title {
        Some(title) => format!("**{title}** (`{}`)", doc.key),
        None => format!("`{}`", doc.key),
    };
    if doc.required {
        text.push_str(" — required");
    }
    text.push_str(&format!("\n\n{}", doc.description));
    if !doc.values.is_empty() {
        text.push_str("\n\nvalues:");
        for (value, meaning) in &doc.values {
            match meaning {
                Some(meaning) => text.push_str(&format!("\n- `{value}`: {meaning}")),
                None => text.push_str(&format!("\n- `{value}`")),
            }
        }
    }
    text
}
