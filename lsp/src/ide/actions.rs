//! Code actions beyond a diagnostic's own fix: the choices a diagnostic
//! leaves to the author (rename the name or the folder; declare the tool or
//! correct the guard), and every fix of a file at once.

use agentc_schema::{NameKind, Span, check_name};

use agentc_compiler::catalog::Code;
use agentc_compiler::compile::Compilation;
use agentc_compiler::diagnostic::{Diagnostic, Edit, RelPath};
use agentc_compiler::parse::tree::{Node, Value};

/// One action: text edits, and a folder to move after them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    pub edits: Vec<Edit>,
    /// A folder and its new path (a resource operation: only for a client
    /// that can rename files).
    pub folder: Option<(RelPath, RelPath)>,
}

/// The actions `diagnostic` offers besides its fix; a folder move only when
/// `move_folders` (the client can rename, and nothing is at the new path).
pub fn extra(
    compilation: &Compilation,
    diagnostic: &Diagnostic,
    move_folders: &dyn Fn(&RelPath) -> bool,
) -> Vec<Action> {
    match diagnostic.code {
        Code::NameMismatch => name_mismatch(compilation, diagnostic, move_folders),
        Code::GuardToolUndeclared | Code::StepToolUndeclared => {
            declare_tool(compilation, diagnostic).into_iter().collect()
        }
        _ => Vec::new(),
    }
}

/// Every fix of the diagnostics in `file` whose edits are all in it and
/// overlap no fix taken before (in report order, as `agentc check --fix`
/// takes them): the edits, and how many fixes they come from.
pub fn fix_all(compilation: &Compilation, file: &RelPath) -> (Vec<Edit>, usize) {
    let mut taken: Vec<Edit> = Vec::new();
    let mut count = 0;
    let fixes = (compilation.diagnostics.iter())
        .filter(|d| d.location.file == *file)
        .filter_map(|d| d.fix.as_ref())
        .filter(|fix| !fix.edits.is_empty() && fix.edits.iter().all(|e| e.file == *file));
    for fix in fixes {
        let overlaps =
            |a: Span, b: Span| a.start < b.end.max(b.start + 1) && b.start < a.end.max(a.start + 1);
        if fix.edits.iter().any(|e| taken.iter().any(|t| overlaps(t.span, e.span))) {
            continue;
        }
        taken.extend(fix.edits.iter().cloned());
        count += 1;
    }
    taken.sort_by_key(|e| e.span.start);
    (taken, count)
}

/// Characters a name may hold to be written as a plain YAML scalar, in JSON
/// without escapes, and as a folder's name.
fn plain(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(['.', '-'])
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

/// The text written at `span` of `file` with its quotes taken off, and the
/// span of that text, when it holds no escape.
fn written(compilation: &Compilation, file: &RelPath, span: Span) -> Option<(String, Span)> {
    let text = compilation.source(file)?.text.get(span.start..span.end)?;
    let quoted = |q: char| text.len() >= 2 && text.starts_with(q) && text.ends_with(q);
    if quoted('"') || quoted('\'') {
        let inner = &text[1..text.len() - 1];
        let escaped = inner.contains(['\\', '"', '\'']);
        return (!escaped).then(|| (inner.to_owned(), Span::new(span.start + 1, span.end - 1)));
    }
    Some((text.to_owned(), span))
}

/// `name-mismatch`: write the folder's name as the name, or move the folder
/// to the name.
fn name_mismatch(
    compilation: &Compilation,
    diagnostic: &Diagnostic,
    move_folders: &dyn Fn(&RelPath) -> bool,
) -> Vec<Action> {
    let file = &diagnostic.location.file;
    let Some((name, span)) = diagnostic.location.span.and_then(|s| written(compilation, file, s))
    else {
        return Vec::new();
    };
    let Some((parent, _)) = file.path.rsplit_once('/') else {
        return Vec::new();
    };
    let (above, folder) = parent.rsplit_once('/').unwrap_or(("", parent));
    let kind = match file.path.rsplit('/').next() {
        Some("SKILL.md") => Some(NameKind::Skill),
        Some("manifest.json" | "tool.json") => Some(NameKind::Tool),
        _ => None,
    };
    let valid = |n: &str| plain(n) && kind.is_none_or(|kind| check_name(kind, n).is_ok());
    let what = match kind {
        Some(NameKind::Skill) => "skill",
        Some(NameKind::Tool) => "tool",
        _ => "agent",
    };
    let mut actions = Vec::new();
    let rename = Edit { file: file.clone(), span, replacement: folder.to_owned() };
    let already = diagnostic.fix.as_ref().is_some_and(|f| f.edits == [rename.clone()]);
    if valid(folder) && !already {
        actions.push(Action {
            title: format!("rename the {what} to `{folder}`, as its folder"),
            edits: vec![rename],
            folder: None,
        });
    }
    let from = RelPath { origin: file.origin, path: parent.into() }.as_folder();
    let to_path = if above.is_empty() { format!("{name}/") } else { format!("{above}/{name}/") };
    let to = RelPath { origin: file.origin, path: to_path.into() };
    if valid(&name) && move_folders(&to) {
        actions.push(Action {
            title: format!("rename the folder `{folder}` to `{name}`"),
            edits: Vec::new(),
            folder: Some((from, to)),
        });
    }
    actions
}

/// `guard-tool-undeclared`, `step-tool-undeclared`: add the tool to the
/// skill's `tools`, in the form the list is written in.
fn declare_tool(compilation: &Compilation, diagnostic: &Diagnostic) -> Option<Action> {
    let file = &diagnostic.location.file;
    let (tool, _) = written(compilation, file, diagnostic.location.span?)?;
    if !plain(&tool) {
        return None;
    }
    let skill = compilation.project.skills.iter().find(|s| s.source.path == *file)?;
    let text = &*skill.source.text;
    let tree = &skill.parsed.front.tree;
    let entry = match &tree.value {
        Value::Map(entries) => entries.iter().find(|e| e.key == "tools"),
        _ => None,
    };
    let (at, insert) = match entry {
        Some(entry) => append(text, &entry.value, &tool)?,
        // No `tools` yet: a line before the closing `---`.
        None => {
            let close = text.get(..skill.parsed.body_span.start)?;
            let close = close.trim_end_matches(['\n', '\r']).rfind('\n')? + 1;
            (close, format!("tools: [{tool}]\n"))
        }
    };
    Some(Action {
        title: format!("add `{tool}` to the skill's `tools`"),
        edits: vec![Edit { file: file.clone(), span: Span::new(at, at), replacement: insert }],
        folder: None,
    })
}

/// Where and what to insert to add `tool` to the list `value`: after the last
/// item of a flow list (`[a, b]`) or a comma string (`a, b`), or as a new
/// item line after the last of a block list (`- a`).
fn append(text: &str, value: &Node, tool: &str) -> Option<(usize, String)> {
    let written = text.get(value.span.start..value.span.end)?;
    match &value.value {
        Value::Seq(items) if written.starts_with('[') => {
            let close = value.span.start + written.rfind(']')?;
            match items.last() {
                Some(last) => Some((last.span.end, format!(", {tool}"))),
                None => Some((close, tool.to_owned())),
            }
        }
        Value::Seq(items) => {
            let last = items.last()?;
            let line_start = text.get(..last.span.start)?.rfind('\n').map_or(0, |i| i + 1);
            let prefix = text.get(line_start..last.span.start)?;
            // Only `- item` lines: the new item copies the last one's indent.
            if prefix.trim() != "-" {
                return None;
            }
            let rest = text.get(last.span.end..)?;
            let mut line_end = rest.find('\n').map_or(text.len(), |i| last.span.end + i);
            if text[..line_end].ends_with('\r') {
                line_end -= 1;
            }
            let newline = if text[line_end..].starts_with("\r\n") { "\r\n" } else { "\n" };
            Some((line_end, format!("{newline}{prefix}{tool}")))
        }
        Value::Str(list) => {
            let end = match value.text_at {
                Some(at) if text.get(at..at + list.len()) == Some(list.as_str()) => at + list.len(),
                _ => return None,
            };
            let separator = if list.trim().is_empty() { "" } else { ", " };
            Some((end, format!("{separator}{tool}")))
        }
        _ => None,
    }
}
