//! Completion: what may be typed where the cursor is.
//!
//! The context is read from the text around the cursor, not from the parsed
//! tree: a file being typed in is often not valid YAML, and completion matters
//! most exactly then.

use agentc_schema::guard::Status;
use agentc_schema::hooks::HOOK_EVENTS;
use agentc_schema::{Kind, Span};

use super::keys::Step;
use super::places::{self, Place};
use super::{Analysis, Item, hosts, keys};
use agentc_compiler::catalog::Code;
use agentc_compiler::diagnostic::RelPath;
use agentc_compiler::options::{LayoutKind, Scope};
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
    /// A snippet: `${1:…}` marks what the user fills in.
    Pattern,
    /// A Copilot agent or subagent (or a built-in agent of VS Code).
    Agent,
}

/// Characters of a name (or a key) being typed: tool names such as
/// `mcp__github__get_issue` and `github/*`, model ids such as
/// `us.anthropic.claude-opus-4-1`.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/' | '*' | '.')
}

/// Where the word of `part` characters ending at `offset` begins: after
/// the last character before it that is not one, whatever its length in
/// bytes (a zero-width space is three).
pub(super) fn word_start(text: &str, offset: usize, part: impl Fn(char) -> bool) -> usize {
    let before = text[..offset].char_indices().rev().find(|&(_, c)| !part(c));
    before.map_or(0, |(i, c)| i + c.len_utf8())
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
    let start = word_start(text, offset, is_word);
    let word = Span::new(start, offset);
    if let Some(items) = super::agents::complete(analysis, file, text, start) {
        return (filter(items, &text[start..offset]), word);
    }
    let Some(info) = analysis.file(file) else {
        return (Vec::new(), word);
    };
    let items = match syntax(info.kind, text) {
        Some(Syntax::Json) => json(analysis, text, start, info),
        Some(Syntax::Toml) => toml(text, start, info.kind),
        Some(Syntax::Yaml { begin, end }) => yaml(analysis, text, start, info, begin, end),
        None => Vec::new(),
    };
    (filter(items, &text[start..offset]), word)
}

/// How a file of a kind is written.
pub(super) enum Syntax {
    Json,
    Toml,
    /// YAML between `begin` and `end`: the frontmatter, or the whole file.
    Yaml {
        begin: usize,
        end: usize,
    },
}

/// How `text`, a file of `kind`, is written; none for a Markdown file
/// without frontmatter.
pub(super) fn syntax(kind: Kind, text: &str) -> Option<Syntax> {
    Some(match kind {
        Kind::Project | Kind::GeminiCommand | Kind::CodexConfig | Kind::CodexAgent => Syntax::Toml,
        Kind::Registry if text.trim_start().starts_with('{') => Syntax::Json,
        // YAML documents of their own, not frontmatter.
        Kind::Registry | Kind::CodexMetadata | Kind::CopilotSetupSteps => {
            Syntax::Yaml { begin: 0, end: text.len() }
        }
        Kind::Agent
        | Kind::Tool
        | Kind::Lockfile
        | Kind::Message
        | Kind::ClaudePlugin
        | Kind::ClaudeMarketplace
        | Kind::ClaudeHooks
        | Kind::ClaudeSettings
        | Kind::McpJson
        | Kind::VscodeMcp
        | Kind::OpencodeConfig
        | Kind::GeminiExtension
        | Kind::GeminiSettings
        | Kind::CodexPlugin
        | Kind::CursorHooks
        | Kind::CursorEnvironment
        | Kind::CursorCli
        | Kind::CopilotHooks
        | Kind::CodexHooks
        | Kind::GeminiHooks => Syntax::Json,
        // Listed, not matched with `_`: a new kind must say how it is written.
        Kind::AgentMd
        | Kind::Skill
        | Kind::AgentSkill
        | Kind::ClaudeSkill
        | Kind::CodexSkill
        | Kind::CopilotSkill
        | Kind::ClaudeSubagent
        | Kind::ClaudeCommand
        | Kind::CopilotAgent
        | Kind::CopilotPrompt
        | Kind::CopilotInstructions
        | Kind::CursorRule
        | Kind::ClineRule
        | Kind::OpencodeAgent
        | Kind::OpencodeCommand
        | Kind::GeminiAgent
        | Kind::CursorAgent
        | Kind::KiroSteering
        | Kind::ClaudeRule
        | Kind::ClaudeOutputStyle => Syntax::Yaml { begin: 4, end: frontmatter_end(text)? },
    })
}

/// The most completions one answer holds: the protocol layer says the list
/// is incomplete past it, and the editor asks again as more is typed.
pub const LIMIT: usize = 100;

/// The items `typed` may stand for: those it begins (ignoring case) first,
/// then — once two characters are typed — those holding it elsewhere, each
/// group in the order given.
fn filter(items: Vec<Completion>, typed: &str) -> Vec<Completion> {
    if typed.is_empty() {
        return items;
    }
    let typed = typed.to_lowercase();
    let (mut prefixed, mut rest): (Vec<_>, Vec<_>) =
        items.into_iter().partition(|item| item.label.to_lowercase().starts_with(&typed));
    rest.retain(|item| typed.len() > 1 && item.label.to_lowercase().contains(&typed));
    prefixed.append(&mut rest);
    prefixed
}

/// Inside YAML between `begin` and `end` (the frontmatter, or a whole YAML
/// document): a key at the start of a line, or a value of the key the
/// cursor is under.
fn yaml(
    analysis: &Analysis<'_>,
    text: &str,
    at: usize,
    info: &super::FileInfo,
    begin: usize,
    end: usize,
) -> Vec<Completion> {
    if at > end || at < begin {
        return Vec::new();
    }
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    if before.is_empty() {
        return key_items(text, begin, end, line_start, info.kind);
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
        ("context", _) if matches!(info.kind, Kind::Skill | Kind::AgentMd) => {
            registry_items(analysis, |r| r.context.as_ref())
        }
        ("model", _) if matches!(info.kind, Kind::Skill | Kind::AgentMd) => {
            registry_items(analysis, |r| r.models.as_ref())
        }
        (key, _) => match hosts::catalogue(info.kind, key) {
            // Inside a permission rule's specifier (`Bash(git …`): the user's.
            Some(_) if before.rfind('(') > before.rfind(')') => Vec::new(),
            Some(catalogue) => hosts::items(analysis, catalogue),
            None => schema_values(info.kind, &[Step::Key(key.to_owned())]),
        },
    }
}

/// The values the schema fixes for what is at `path`. A command reads a
/// skill's fields (Claude Code merged the two), so it takes their values.
fn schema_values(kind: Kind, path: &[Step]) -> Vec<Completion> {
    let mut values = keys::values_at(kind, path);
    if values.is_empty() && kind == Kind::ClaudeCommand {
        values = keys::values_at(Kind::ClaudeSkill, path);
    }
    (values.into_iter())
        .map(|(value, meaning)| Completion {
            label: value.clone(),
            kind: CompletionKind::Value,
            detail: meaning,
            insert: value,
        })
        .collect()
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

/// The keys of `kind` not yet written at the top level (the line at
/// `line_start`, being typed, aside).
fn key_items(
    text: &str,
    begin: usize,
    end: usize,
    line_start: usize,
    kind: Kind,
) -> Vec<Completion> {
    let mut at = begin;
    let mut written: Vec<&str> = Vec::new();
    for line in text[begin..end].split_inclusive('\n') {
        if at != line_start && !line.starts_with([' ', '\t', '-', '#']) {
            written.extend(line.split_once(':').map(|(key, _)| key.trim()));
        }
        at += line.len();
    }
    let keys = keys::keys(kind).iter().filter(|doc| !written.contains(&doc.key.as_str()));
    keys.map(|doc| key_item(doc, format!("{}: ", doc.key))).collect()
}

fn key_item(doc: &keys::KeyDoc, insert: String) -> Completion {
    Completion {
        label: doc.key.clone(),
        kind: CompletionKind::Key,
        detail: Some(doc.description.clone()),
        insert,
    }
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

/// Inside a JSON file: a key the schema names for the object the cursor is
/// in, a value it fixes, or (in agentc's own files) the names a string in
/// `tools`, `skills` or `disallowed_tools` may hold.
fn json(analysis: &Analysis<'_>, text: &str, at: usize, info: &super::FileInfo) -> Vec<Completion> {
    let names = names_in_json(analysis, text, at, info);
    if !names.is_empty() {
        return names;
    }
    match places::json(text, at) {
        // Claude Code's hook events, which the schema leaves open.
        Some(Place::Key { path, written })
            if path == [Step::Key("hooks".to_owned())]
                && matches!(info.kind, Kind::ClaudeHooks | Kind::ClaudeSettings) =>
        {
            (HOOK_EVENTS.iter())
                .filter(|event| !written.iter().any(|w| w == *event))
                .map(|event| Completion {
                    label: (*event).to_owned(),
                    kind: CompletionKind::Key,
                    detail: Some("Claude Code hook event".to_owned()),
                    insert: (*event).to_owned(),
                })
                .collect()
        }
        Some(Place::Key { path, written }) => (keys::keys_at(info.kind, &path).iter())
            .filter(|doc| !written.contains(&doc.key))
            .map(|doc| key_item(doc, doc.key.clone()))
            .collect(),
        Some(Place::Value { path, quoted: true }) => match hosts::catalogue_at(info.kind, &path) {
            Some(catalogue) => hosts::items(analysis, catalogue),
            None => schema_values(info.kind, &path),
        },
        _ => Vec::new(),
    }
}

/// In a TOML file (`agentc.toml`): a key of the top or of a table, or a
/// value the schema or the compiler's catalogue fixes, quoted unless the
/// quote is typed.
fn toml(text: &str, at: usize, kind: Kind) -> Vec<Completion> {
    match places::toml(text, at) {
        Some(Place::Key { path, written }) => {
            let mut keys: Vec<Completion> = (keys::keys_at(kind, &path).iter())
                .filter(|doc| !written.contains(&doc.key))
                .map(|doc| key_item(doc, format!("{} = ", doc.key)))
                .collect();
            if kind == Kind::Project && path == [Step::Key("lints".to_owned())] {
                keys.extend(
                    Code::ALL.iter().filter(|c| !written.iter().any(|w| w == c.as_str())).map(
                        |code| Completion {
                            label: code.as_str().to_owned(),
                            kind: CompletionKind::Key,
                            detail: Some(code.summary().to_owned()),
                            insert: format!("{} = ", code.as_str()),
                        },
                    ),
                );
            }
            keys
        }
        Some(Place::Value { path, quoted }) => {
            let mut values = schema_values(kind, &path);
            if kind == Kind::Project {
                values.extend(project_values(&path));
            }
            for value in values.iter_mut().filter(|_| !quoted) {
                if !matches!(value.insert.as_str(), "true" | "false") {
                    value.insert = format!("\"{}\"", value.insert);
                }
            }
            values
        }
        None => Vec::new(),
    }
}

/// The names `agentc.toml`'s lists take, which the compiler checks them
/// against.
fn project_values(path: &[Step]) -> Vec<Completion> {
    let value = |label: &str, detail: &str| Completion {
        label: label.to_owned(),
        kind: CompletionKind::Value,
        detail: Some(detail.to_owned()),
        insert: label.to_owned(),
    };
    match path.first() {
        Some(Step::Key(key)) if key == "layouts" => {
            LayoutKind::ALL.iter().map(|l| value(l.name(), "a layout agentc reads")).collect()
        }
        Some(Step::Key(key)) if key == "exclude" => {
            Scope::ALL.iter().map(|s| value(s.as_str(), "a scope to switch off")).collect()
        }
        _ => Vec::new(),
    }
}

/// The names a string in `tools`, `skills` or `disallowed_tools` of an
/// agentc JSON file may hold.
fn names_in_json(
    analysis: &Analysis<'_>,
    text: &str,
    at: usize,
    info: &super::FileInfo,
) -> Vec<Completion> {
    if !matches!(info.kind, Kind::Agent | Kind::Tool | Kind::ClaudePlugin) {
        return Vec::new();
    }
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
