//! Completion: what may be typed where the cursor is.
//!
//! The context is read from the text around the cursor, not from the parsed
//! tree: a file being typed in is often not valid YAML, and completion matters
//! most exactly then.

use agentc_schema::guard::Status;
use agentc_schema::{Kind, Span};

use super::{Analysis, Item, keys};
use agentc_compiler::diagnostic::RelPath;
use agentc_compiler::resolve::RefKind;

/// One thing that may be typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    /// A short note beside the label (a skill's description).
    pub detail: Option<String>,
    /// What the editor inserts in place of the word at the cursor.
    pub insert: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Key,
    Value,
    Skill,
    Tool,
    Status,
    /// A Copilot agent or subagent (or a built-in agent of VS Code).
    Agent,
}

/// Characters of a name (or a key) being typed.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

pub(super) fn complete(
    analysis: &Analysis<'_>,
    file: &RelPath,
    offset: usize,
) -> (Vec<Completion>, Span) {
    let Some(source) = analysis.compilation.source(file) else {
        return (Vec::new(), Span::new(offset, offset));
    };
    let text = &*source.text;
    let offset = offset.min(text.len());
    let offset = (0..=offset).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let start = text[..offset].rfind(|c: char| !is_word(c)).map_or(0, |i| i + 1);
    let word = Span::new(start, offset);
    if let Some(items) = super::agents::complete(analysis, file, text, start) {
        return (items, word);
    }
    let Some(info) = analysis.file(file) else {
        return (Vec::new(), word);
    };
    let items = match info.kind {
        Kind::Agent | Kind::Tool | Kind::ClaudePlugin => json(analysis, text, start, info),
        _ => yaml(analysis, text, start, info),
    };
    (items, word)
}

/// Inside YAML frontmatter: a key at the start of a line, or a value of the
/// key the cursor is under.
fn yaml(analysis: &Analysis<'_>, text: &str, at: usize, info: &super::FileInfo) -> Vec<Completion> {
    let Some(end) = frontmatter_end(text) else {
        return Vec::new();
    };
    if at > end || at < 4 {
        return Vec::new();
    }
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    if before.is_empty() {
        return key_items(text, end, info.kind);
    }
    // The top-level key this line belongs to: its own, or the nearest above.
    let top = if !before.starts_with([' ', '\t', '-']) {
        before.split_once(':').map(|(key, _)| key.trim())
    } else {
        text[..line_start]
            .lines()
            .rev()
            .find(|line| !line.is_empty() && !line.starts_with([' ', '\t', '-', '#']))
            .and_then(|line| line.split_once(':').map(|(key, _)| key.trim()))
    };
    let Some(top) = top else {
        return Vec::new();
    };
    let item = before.trim_start().strip_prefix("- ");
    let after_colon = item.and_then(|item| item.split_once(':').map(|(_, rest)| rest));
    match (top, after_colon) {
        ("routes", Some(guard)) => guard_items(analysis, info, guard),
        ("routes" | "skills" | "start", _) => names(analysis, info, RefKind::Skill),
        ("steps", None) => declared_tools(analysis, info),
        ("tools", _) if matches!(info.kind, Kind::Skill | Kind::AgentMd) => {
            names(analysis, info, RefKind::Tool)
        }
        ("context", _) => registry_items(analysis, |r| r.context.as_ref()),
        ("model", _) => registry_items(analysis, |r| r.models.as_ref()),
        (key, _) => keys::key(info.kind, key).map_or_else(Vec::new, |doc| {
            (doc.values.iter())
                .map(|(value, meaning)| Completion {
                    label: value.clone(),
                    kind: CompletionKind::Value,
                    detail: meaning.clone(),
                    insert: value.clone(),
                })
                .collect()
        }),
    }
}

/// Where the frontmatter's closing `---` starts (the end of the text when it
/// is not written yet); none when the file has no frontmatter.
pub(super) fn frontmatter_end(text: &str) -> Option<usize> {
    let rest = text.strip_prefix("---")?;
    let first = rest.find('\n')? + 4;
    let mut at = first;
    for line in text[first..].split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some(at);
        }
        at += line.len();
    }
    Some(text.len())
}

/// The keys of `kind` not yet written at the top level.
fn key_items(text: &str, end: usize, kind: Kind) -> Vec<Completion> {
    let written: Vec<&str> = text[..end]
        .lines()
        .filter(|line| !line.starts_with([' ', '\t', '-', '#']))
        .filter_map(|line| line.split_once(':').map(|(key, _)| key.trim()))
        .collect();
    (keys::keys(kind).iter())
        .filter(|doc| !written.contains(&doc.key.as_str()))
        .map(|doc| Completion {
            label: doc.key.clone(),
            kind: CompletionKind::Key,
            detail: Some(doc.description.clone()),
            insert: format!("{}: ", doc.key),
        })
        .collect()
}

/// Every skill or tool visible from the file's scope.
fn names(analysis: &Analysis<'_>, info: &super::FileInfo, kind: RefKind) -> Vec<Completion> {
    let table = analysis.table(kind);
    let project = &analysis.compilation.project;
    (table.visible(info.agent.as_deref()).into_iter())
        .map(|(name, index)| {
            let def = &table.defs[index];
            let detail = match kind {
                RefKind::Skill => def.source.map(|i| {
                    project.skills[i].parsed.front.value.description.value.as_str().to_owned()
                }),
                RefKind::Tool => (analysis.compilation.model.tool(&def.qualified))
                    .and_then(|t| t.description.clone()),
            };
            let kind = match kind {
                RefKind::Skill => CompletionKind::Skill,
                RefKind::Tool => CompletionKind::Tool,
            };
            Completion { label: name.to_owned(), kind, detail, insert: name.to_owned() }
        })
        .collect()
}

/// The tools the skill declares (what its steps and guards may name), or
/// every visible tool while its frontmatter does not parse.
fn declared_tools(analysis: &Analysis<'_>, info: &super::FileInfo) -> Vec<Completion> {
    let Item::Skill(i) = info.item else {
        return names(analysis, info, RefKind::Tool);
    };
    let front = &analysis.compilation.project.skills[i].parsed.front.value;
    (front.tools.iter().flatten())
        .map(|tool| Completion {
            label: tool.value.clone(),
            kind: CompletionKind::Tool,
            detail: None,
            insert: tool.value.clone(),
        })
        .collect()
}

/// A guard: `on <tool>` first, then `status=` and the statuses.
fn guard_items(analysis: &Analysis<'_>, info: &super::FileInfo, guard: &str) -> Vec<Completion> {
    let words: Vec<&str> = guard.split_whitespace().collect();
    let typing_word = !guard.ends_with([' ', '\t']);
    let done: &[&str] = if typing_word { &words[..words.len().saturating_sub(1)] } else { &words };
    if let Some(statuses) =
        words.last().and_then(|w| w.strip_prefix("status=")).filter(|_| typing_word)
    {
        let written: Vec<&str> = statuses.split(',').collect();
        return (Status::ALL.iter())
            .filter(|s| !written.contains(&s.as_str()))
            .map(|s| Completion {
                label: s.as_str().to_owned(),
                kind: CompletionKind::Status,
                detail: None,
                insert: s.as_str().to_owned(),
            })
            .collect();
    }
    match done {
        [.., "on"] => declared_tools(analysis, info),
        [] => {
            let mut items = vec![keyword("on", "on ", "the tool the guard waits for")];
            items.push(keyword("status=", "status=", "the outcomes the guard fires on"));
            items
        }
        [.., _] if !done.iter().any(|w| w.starts_with("status=")) => {
            vec![keyword("status=", "status=", "the outcomes the guard fires on")]
        }
        _ => Vec::new(),
    }
}

fn keyword(label: &str, insert: &str, detail: &str) -> Completion {
    Completion {
        label: label.to_owned(),
        kind: CompletionKind::Key,
        detail: Some(detail.to_owned()),
        insert: insert.to_owned(),
    }
}

/// The names the registry lists under one key.
fn registry_items(
    analysis: &Analysis<'_>,
    list: impl Fn(&agentc_schema::Registry) -> Option<&agentc_schema::List<agentc_schema::Text>>,
) -> Vec<Completion> {
    let registry = analysis.compilation.project.registry.as_ref();
    (registry.and_then(list).into_iter().flatten())
        .map(|name| Completion {
            label: name.value.as_str().to_owned(),
            kind: CompletionKind::Value,
            detail: None,
            insert: name.value.as_str().to_owned(),
        })
        .collect()
}

/// Inside a JSON file: the names a string in `tools`, `skills` or
/// `disallowed_tools` may hold.
fn json(analysis: &Analysis<'_>, text: &str, at: usize, info: &super::FileInfo) -> Vec<Completion> {
    let before = &text[..at];
    // Inside a string: an odd number of unescaped quotes since the last key.
    let Some(key_end) = before.rfind("\":") else {
        return Vec::new();
    };
    let key_start = before[..key_end].rfind('"').map_or(0, |i| i + 1);
    let key = &before[key_start..key_end];
    let since = &before[key_end + 2..];
    let in_string = since.matches('"').count() % 2 == 1;
    if !in_string || since.contains(']') {
        return Vec::new();
    }
    match key {
        "tools" | "disallowed_tools" => names(analysis, info, RefKind::Tool),
        "skills" => names(analysis, info, RefKind::Skill),
        _ => Vec::new(),
    }
}
