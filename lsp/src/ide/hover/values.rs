//! Hover where no name resolves: a value a schema or a host's catalogue
//! fixes (`onSkip: hold`, `model: opus`, `tools: Read`), and a key the
//! located tree does not reach — in the registry, `agentc.toml`, nested in
//! JSON, or in a file that does not parse.

use agentc_compiler::catalog::Code;
use agentc_compiler::diagnostic::RelPath;
use agentc_schema::{Kind, Span};

use super::super::complete::{Syntax, syntax};
use super::super::keys::{self, Step};
use super::super::places::{self, Place};
use super::super::{Analysis, hosts};
use super::key_text;

pub(in super::super) fn hover(
    analysis: &Analysis<'_>,
    file: &RelPath,
    offset: usize,
) -> Option<(String, Span)> {
    let kind = analysis.file(file)?.kind;
    let text: &str = &analysis.compilation.source(file)?.text;
    let span = token(text, offset)?;
    let written = &text[span.start..span.end];
    let place = match syntax(kind, text)? {
        Syntax::Json => places::json(text, span.start)?,
        Syntax::Toml => places::toml(text, span.start)?,
        Syntax::Yaml { begin, end } if span.start >= begin && span.end <= end => {
            places::yaml(text, begin, span.start)?
        }
        Syntax::Yaml { .. } => return None,
    };
    let shown = match place {
        Place::Key { path, .. } => {
            // A key is followed by its separator; a word at a line's start is not always one.
            let rest = text[span.end..].trim_start_matches(['"', '\'', ' ', '\t']);
            if !rest.starts_with([':', '=']) {
                return None;
            }
            key(kind, &path, written)?
        }
        Place::Value { path, .. } => value(kind, &path, written)?,
    };
    Some((shown, span))
}

fn key(kind: Kind, path: &[Step], written: &str) -> Option<String> {
    if let Some(doc) = keys::keys_at(kind, path).iter().find(|doc| doc.key == written) {
        return Some(key_text(doc));
    }
    // `[lints]` names diagnostic codes.
    let code = Code::parse(written).filter(|_| kind == Kind::Project && path.len() == 1)?;
    Some(format!("**diagnostic** `{code}`\n\n{}", code.summary()))
}

fn value(kind: Kind, path: &[Step], written: &str) -> Option<String> {
    if let Some(catalogue) = hosts::catalogue_at(kind, path) {
        return hosts::hover(catalogue, written);
    }
    let mut values = keys::values_at(kind, path);
    if values.is_empty() && kind == Kind::ClaudeCommand {
        values = keys::values_at(Kind::ClaudeSkill, path);
    }
    let (value, meaning) = values.iter().find(|(value, _)| value == written)?;
    let mut text = match meaning {
        Some(meaning) => format!("`{value}`: {meaning}"),
        None => format!("`{value}`"),
    };
    let key = match path {
        [Step::Key(key)] | [Step::Key(key), Step::Item] => keys::key(kind, key),
        _ => None,
    };
    if let Some(doc) = key {
        text.push_str(&format!("\n\na value of `{}`: {}", doc.key, doc.description));
        if meaning.is_none() {
            let all: Vec<String> = doc.values.iter().map(|(v, _)| format!("`{v}`")).collect();
            text.push_str(&format!("\n\nvalues: {}", all.join(", ")));
        }
    }
    Some(text)
}

/// The name written around `offset`: a tool (`Bash(git` of a rule is cut at
/// the space), a model (`sonnet[1m]`), a value — without the brackets of a
/// list around it.
fn token(text: &str, offset: usize) -> Option<Span> {
    let part = |c: char| c.is_ascii_alphanumeric() || "_-/*.@[]()".contains(c);
    let offset = offset.min(text.len());
    let start = crate::ide::complete::word_start(text, offset, part);
    let end = text[offset..].find(|c| !part(c)).map_or(text.len(), |i| offset + i);
    let (mut start, mut end) = (start, end);
    loop {
        let word = &text[start..end];
        if word.starts_with(['[', '(']) {
            start += 1;
        } else if word.ends_with(']') && word.matches('[').count() < word.matches(']').count()
            || word.ends_with(')') && word.matches('(').count() < word.matches(')').count()
        {
            end -= 1;
        } else {
            break;
        }
    }
    (start < end && start <= offset && offset <= end).then(|| Span::new(start, end))
}
