//! Workspace symbols: every skill, tool, agent, subagent, Copilot agent and
//! command of the project by name, found by what was typed — whole name,
//! start, start of a word, anywhere, then its letters in order — ignoring
//! case. The names are listed once per compilation, so a query is one pass
//! over them, whatever the size of the files.

use agentc_schema::{Dialect, Span, Spanned, Text};

use super::{Analysis, Place};
use agentc_compiler::dialects::AssistantDoc;
use agentc_compiler::discover::Owner;
use agentc_compiler::project::AgentKind;
use agentc_compiler::resolve::RefKind;

/// What a workspace symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SymbolKind {
    Skill,
    Tool,
    /// agentc's own agent: an `AGENT.md` bundle or an `agent.json` package.
    Agent,
    Subagent,
    CopilotAgent,
    Command,
}

/// A named thing of the project, and where its name is written (the start
/// of its file when nothing writes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectSymbol {
    pub name: String,
    pub kind: SymbolKind,
    /// What it is and whose: `claude-skill`, `skill, agent billing`.
    pub container: String,
    pub place: Place,
    /// `name` in lowercase, for matching.
    lowered: String,
}

/// How well a name matches a query: lower is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    Whole,
    Start,
    WordStart,
    Inside,
    Letters,
}

fn written(value: &Spanned<Text>) -> Span {
    value.verbatim(0..value.value.as_str().len()).unwrap_or(value.span)
}

/// Every symbol of the compilation, in project order.
pub(super) fn list(analysis: &Analysis<'_>) -> Vec<ProjectSymbol> {
    let compilation = analysis.compilation;
    let project = &compilation.project;
    let mut out = Vec::new();
    let mut push = |name: &str, kind, container: String, place: Place| {
        let lowered = name.to_lowercase();
        out.push(ProjectSymbol { name: name.to_owned(), kind, container, place, lowered });
    };
    let whose = |label: &str, owner: &Owner| match owner {
        Owner::Agent(agent) => format!("{label}, agent {agent}"),
        Owner::Plugin(plugin) => format!("{label}, plugin {plugin}"),
        Owner::Nested(folder) => format!("{label}, {folder}"),
        Owner::Global | Owner::Repo => label.to_owned(),
    };
    for skill in &project.skills {
        let name = &skill.parsed.front.value.name;
        let label = match skill.file.dialect {
            Dialect::Runbook => "skill".to_owned(),
            dialect => dialect.to_string(),
        };
        let place = Place { file: skill.source.path.clone(), span: written(name) };
        push(name.value.as_str(), SymbolKind::Skill, whose(&label, &skill.file.owner), place);
    }
    let tools = &compilation.names.tools;
    for (i, def) in tools.defs.iter().enumerate() {
        let symbol = super::Symbol { kind: RefKind::Tool, index: i };
        let Some(place) = analysis.definition(symbol) else {
            continue;
        };
        let container = match (def.source, &def.agent) {
            (None, _) => "tool, declared by the host".to_owned(),
            (Some(_), Some(agent)) => format!("tool, agent {agent}"),
            (Some(_), None) => "tool".to_owned(),
        };
        push(&def.qualified, SymbolKind::Tool, container, place.clone());
    }
    for agent in &project.agents {
        let (label, name) = match &agent.kind {
            AgentKind::Bundle(md) => ("agent-md", md.front.value.name.as_ref()),
            AgentKind::Package { manifest, .. } => ("agent", Some(&manifest.value.name)),
        };
        // A package's `name` is a display name: only a bundle's is the id.
        let span = match (label, name) {
            ("agent-md", Some(name)) => written(name),
            _ => Span::new(0, 0),
        };
        let place = Place { file: agent.source.path.clone(), span };
        push(&agent.dir.id, SymbolKind::Agent, label.to_owned(), place);
    }
    for assistant in &project.assistants {
        let kind = match assistant.file.dialect {
            Dialect::ClaudeSubagent => SymbolKind::Subagent,
            Dialect::CopilotAgent => SymbolKind::CopilotAgent,
            _ => SymbolKind::Command,
        };
        let name = match &assistant.doc {
            AssistantDoc::Subagent(md) if !md.front.value.name.span.is_unknown() => {
                Some(&md.front.value.name)
            }
            _ => assistant.copilot_name(),
        };
        let span = name.map_or(Span::new(0, 0), written);
        let place = Place { file: assistant.source.path.clone(), span };
        let container = assistant.file.dialect.to_string();
        push(&assistant.id(), kind, container, place);
    }
    out
}

/// How `name` (lowercase) matches `query` (lowercase), if it does.
fn tier(name: &str, query: &str) -> Option<Tier> {
    if query.is_empty() || name == query {
        return Some(Tier::Whole);
    }
    if name.starts_with(query) {
        return Some(Tier::Start);
    }
    let mut inside = false;
    for (at, _) in name.match_indices(query) {
        let before = name[..at].chars().next_back();
        if before.is_some_and(|c| !c.is_alphanumeric()) {
            return Some(Tier::WordStart);
        }
        inside = true;
    }
    if inside {
        return Some(Tier::Inside);
    }
    let mut letters = name.chars();
    query.chars().all(|q| letters.any(|c| c == q)).then_some(Tier::Letters)
}

/// How well a symbol matches a query, comparable across projects: lower is
/// better (the better match, then the shorter name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rank {
    tier: Tier,
    len: usize,
}

fn order(a: &(Rank, &ProjectSymbol), b: &(Rank, &ProjectSymbol)) -> std::cmp::Ordering {
    (a.0, &a.1.name, &a.1.place.file, a.1.place.span.start, a.1.kind).cmp(&(
        b.0,
        &b.1.name,
        &b.1.place.file,
        b.1.place.span.start,
        b.1.kind,
    ))
}

/// The symbols matching `query`, best first, at most `limit`: by how they
/// match, then the shorter name, then name, file and place.
pub(super) fn find<'s>(
    symbols: &'s [ProjectSymbol],
    query: &str,
    limit: usize,
) -> Vec<(Rank, &'s ProjectSymbol)> {
    let query = query.trim().to_lowercase();
    let mut found: Vec<(Rank, &ProjectSymbol)> = (symbols.iter())
        .filter_map(|s| Some((Rank { tier: tier(&s.lowered, &query)?, len: s.name.len() }, s)))
        .collect();
    if found.len() > limit {
        found.select_nth_unstable_by(limit, order);
        found.truncate(limit);
    }
    found.sort_by(order);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_whole_then_start_then_word_then_inside_then_letters() {
        let q = "ref";
        assert_eq!(tier("ref", q), Some(Tier::Whole));
        assert_eq!(tier("refund", q), Some(Tier::Start));
        assert_eq!(tier("issue-refund", q), Some(Tier::WordStart));
        assert_eq!(tier("prefix", q), Some(Tier::Inside));
        assert_eq!(tier("read-file", q), Some(Tier::Letters));
        assert_eq!(tier("fer", q), None);
        assert_eq!(tier("anything", ""), Some(Tier::Whole));
    }
}
