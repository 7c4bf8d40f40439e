//! Context budgets: what each host puts in the model's context from the
//! project's files, at the start of every session (each skill's name and
//! description, a subagent's description, a memory file) and on demand (a
//! body, when it is used), measured against the limits the host documents.
//!
//! Each host module says what it loads, in which sets (the project's own
//! files, each plugin), and its limits; this module measures them. A limit
//! that decides what a host does is counted the host's way — characters as
//! JavaScript counts them, bytes, or Claude Code's own estimate of four
//! characters a token — so `check` needs no tokenizer and agrees with the
//! host. A report (`agentc budget`) adds real token counts through
//! [`Tokens`], for the limits given in tokens and for the table.

mod agent_skills;
mod claude_code;
mod codex;
mod copilot;

use agentc_schema::Span;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::hosts::Host;
use crate::project::Project;
use crate::source::Source;

/// Counts a text's tokens with a real tokenizer.
pub trait Tokens {
    fn count(&self, text: &str) -> usize;
    /// Which tokenizer, for the report.
    fn name(&self) -> &'static str;
}

/// When the host reads a text into the context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    /// At the start of every session.
    Start,
    /// When the item is used (a skill invoked, a file matched, an agent chosen).
    OnDemand,
}

/// One file as a host loads it.
#[derive(Clone, Debug)]
pub struct Item<'p> {
    pub source: &'p Source,
    /// What it is to the host: `skill`, `command`, `subagent`, `memory`…
    pub kind: &'static str,
    /// The name the host lists it by.
    pub name: String,
    /// What the host lists for it at start, as it composes it (`name:
    /// description`), and where the description is written.
    pub listed: Option<Listed>,
    /// Its text read whole when used: the body.
    pub body: Span,
    /// When the body is read.
    pub body_load: Load,
    /// How much the host reads before this body into the same place (Codex
    /// joins each folder's `AGENTS.md` from the top down), in bytes.
    pub before: usize,
}

impl<'p> Item<'p> {
    /// A skill as the specification's hosts load it: its name and
    /// description at start, its body when used.
    pub fn skill(skill: &'p crate::project::Skill) -> Item<'p> {
        let front = &skill.parsed.front.value;
        Item {
            source: &skill.source,
            kind: "skill",
            name: front.name.value.to_string(),
            listed: Some(Listed {
                text: front.description.value.to_string(),
                span: front.description.span,
            }),
            body: skill.parsed.body_span,
            body_load: Load::OnDemand,
            before: 0,
        }
    }
}

/// What a host lists for an item at start.
#[derive(Clone, Debug)]
pub struct Listed {
    pub text: String,
    /// The description as written (the whole value), where a diagnostic about
    /// the listing points.
    pub span: Span,
}

/// What a limit counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Characters as JavaScript counts them (UTF-16 code units).
    Chars,
    Bytes,
    Lines,
    /// The host's own estimate: characters ÷ 4, rounded (Claude Code).
    HostTokens,
    /// Tokens of the report's tokenizer.
    Tokens,
}

impl Unit {
    pub const fn as_str(self) -> &'static str {
        match self {
            Unit::Chars => "characters",
            Unit::Bytes => "bytes",
            Unit::Lines => "lines",
            Unit::HostTokens => "tokens (host's estimate)",
            Unit::Tokens => "tokens",
        }
    }
}

/// A limit a host documents, or guidance it gives.
#[derive(Debug)]
pub struct Limit {
    /// What is limited, in a few words (`skill listing`).
    pub what: &'static str,
    /// Whether the limit is on the sum over the set's items, or on each.
    pub total: bool,
    /// What one item counts, in `unit` (`None`: the item is not counted).
    pub count: for<'a, 'p> fn(&'a Item<'p>) -> Option<Text<'a>>,
    /// How many units the host puts between two items of a total.
    pub joined_by: usize,
    pub unit: Unit,
    pub max: usize,
    /// A diagnostic (`context-budget`) past the limit, at this level; `None`
    /// for guidance shown only in the report.
    pub level: Option<Severity>,
    /// What the host does past the limit.
    pub effect: &'static str,
    pub fix: &'static str,
    /// Where the host documents it, with the date it was read.
    pub source: &'static str,
}

/// The text an item counts toward a limit, and where in its file it is.
#[derive(Clone, Debug)]
pub struct Text<'a> {
    pub text: std::borrow::Cow<'a, str>,
    /// Where a diagnostic points; `verbatim` when `text` is the file's text
    /// there, so the first unit over the limit can be found.
    pub span: Span,
    pub verbatim: bool,
    /// Units counted on top of the text (the folder's `AGENTS.md` before it).
    pub carried: usize,
}

/// A host's view of one set of files it loads together (the project, one
/// plugin, one nested skill folder).
#[derive(Debug)]
pub struct HostBudget<'p> {
    pub host: Host,
    /// The host's name for people (`Claude Code`).
    pub name: &'static str,
    /// Which set (`the project`, `plugin deploy-tools`).
    pub set: String,
    pub items: Vec<Item<'p>>,
    pub limits: &'static [Limit],
}

/// A limit measured over a set.
#[derive(Debug)]
pub struct Measured {
    pub value: usize,
    /// Each item's share (an each-limit's largest), largest first, by index
    /// into the set's items; ties in item order.
    pub items: Vec<(usize, usize)>,
}

/// Every host's sets of the project, in host then set order.
pub fn budgets(project: &Project) -> Vec<HostBudget<'_>> {
    let mut all = Vec::new();
    claude_code::sets(project, &mut all);
    copilot::sets(project, &mut all);
    codex::budget(project, &mut all);
    agent_skills::budget(project, &mut all);
    all
}

/// How many `unit`s `text` is; `None` for tokens without a tokenizer.
pub fn units(text: &str, unit: Unit, tokens: Option<&dyn Tokens>) -> Option<usize> {
    Some(match unit {
        Unit::Chars => utf16_len(text),
        Unit::Bytes => text.len(),
        Unit::Lines => text.lines().count(),
        Unit::HostTokens => (utf16_len(text) as f64 / 4.0).round() as usize,
        Unit::Tokens => tokens?.count(text),
    })
}

fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

impl Limit {
    /// The limit over `set`; `None` when it counts tokens and there is no
    /// tokenizer, or no item counts.
    pub fn measure(&self, set: &HostBudget<'_>, tokens: Option<&dyn Tokens>) -> Option<Measured> {
        let mut items = Vec::new();
        for (i, item) in set.items.iter().enumerate() {
            let Some(text) = (self.count)(item) else { continue };
            items.push((i, text.carried + units(&text.text, self.unit, tokens)?));
        }
        if items.is_empty() {
            return None;
        }
        let value = match self.total {
            true => {
                items.iter().map(|(_, n)| n).sum::<usize>() + self.joined_by * (items.len() - 1)
            }
            false => items.iter().map(|(_, n)| *n).max().unwrap_or(0),
        };
        items.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Some(Measured { value, items })
    }
}

/// The `context-budget` diagnostics of every limit a host acts on.
pub fn check(project: &Project) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for set in budgets(project) {
        for limit in set.limits {
            let Some(level) = limit.level else { continue };
            let Some(measured) = limit.measure(&set, None) else { continue };
            if limit.total {
                if measured.value > limit.max {
                    out.push(over_total(&set, limit, level, &measured));
                }
                continue;
            }
            for &(i, value) in measured.items.iter().filter(|(_, n)| *n > limit.max) {
                let item = &set.items[i];
                if let Some(text) = (limit.count)(item) {
                    out.push(over_each(&set, limit, level, item, &text, value));
                }
            }
        }
    }
    out
}

fn over_total(
    set: &HostBudget<'_>,
    limit: &Limit,
    level: Severity,
    measured: &Measured,
) -> Diagnostic {
    let unit = limit.unit.as_str();
    let largest: Vec<String> = measured
        .items
        .iter()
        .take(3)
        .map(|&(i, n)| format!("`{}` {}", set.items[i].name, thousands(n)))
        .collect();
    let (first, _) = measured.items[0];
    let item = &set.items[first];
    let span = (limit.count)(item).map_or(item.body, |text| text.span);
    Diagnostic::at(
        Code::ContextBudget,
        &item.source.path,
        span,
        format!(
            "{} of {}: {} {unit}, over {}'s limit of {} ({} items; the largest: {})",
            limit.what,
            set.set,
            thousands(measured.value),
            set.name,
            thousands(limit.max),
            measured.items.len(),
            largest.join(", "),
        ),
    )
    .with_severity(level)
    .with_help(format!("{}; {} (source: {})", limit.effect, limit.fix, limit.source))
}

fn over_each(
    set: &HostBudget<'_>,
    limit: &Limit,
    level: Severity,
    item: &Item<'_>,
    text: &Text<'_>,
    value: usize,
) -> Diagnostic {
    // From the first unit over the limit to the end of its line, when the
    // text is the file's own: the whole rest would be a page of source.
    let span = match (text.verbatim, limit.unit) {
        (true, Unit::Chars | Unit::Bytes) => {
            let within = limit.max.saturating_sub(text.carried);
            let at = match limit.unit {
                Unit::Bytes => floor_char(&text.text, within),
                _ => utf16_offset(&text.text, within),
            };
            let end = text.text[at..].find('\n').map_or(text.text.len(), |n| at + n);
            Span::new(text.span.start + at, text.span.start + end.max(at))
        }
        _ => text.span,
    };
    let carried = match text.carried {
        0 => String::new(),
        n => format!(" with the {} read before it", thousands(n)),
    };
    Diagnostic::at(
        Code::ContextBudget,
        &item.source.path,
        span,
        format!(
            "{} of `{}`: {} {}{carried}, over {}'s limit of {}",
            limit.what,
            item.name,
            thousands(value),
            limit.unit.as_str(),
            set.name,
            thousands(limit.max)
        ),
    )
    .with_severity(level)
    .with_help(format!("{}; {} (source: {})", limit.effect, limit.fix, limit.source))
}

/// `12345` as `12,345`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The byte offset in `text` after `units` UTF-16 code units.
fn utf16_offset(text: &str, units: usize) -> usize {
    let mut seen = 0;
    for (at, c) in text.char_indices() {
        if seen >= units {
            return at;
        }
        seen += c.len_utf16();
    }
    text.len()
}

fn floor_char(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The body of `source` at `span` as an item counts it.
pub fn body_text<'a>(item: &Item<'a>) -> Text<'a> {
    Text {
        text: std::borrow::Cow::Borrowed(item.source.slice(item.body)),
        span: item.body,
        verbatim: true,
        carried: item.before,
    }
}

/// What the host lists for an item, as it counts toward a limit.
pub fn listed_text<'a>(item: &'a Item<'_>) -> Option<Text<'a>> {
    let listed = item.listed.as_ref()?;
    Some(Text {
        text: std::borrow::Cow::Borrowed(&listed.text),
        span: listed.span,
        verbatim: false,
        carried: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::RelPath;

    fn item<'p>(source: &'p Source, kind: &'static str, listed: &str, before: usize) -> Item<'p> {
        Item {
            source,
            kind,
            name: source.path.path.to_string(),
            listed: Some(Listed { text: listed.to_owned(), span: Span::new(0, 1) }),
            body: Span::new(0, source.text.len()),
            body_load: Load::OnDemand,
            before,
        }
    }

    static TOTAL: Limit = Limit {
        what: "listing",
        total: true,
        count: listed_text,
        joined_by: 1,
        unit: Unit::Chars,
        max: 10,
        level: Some(Severity::Warning),
        effect: "e",
        fix: "f",
        source: "s",
    };

    static EACH: Limit = Limit {
        what: "body",
        total: false,
        count: |item| Some(body_text(item)),
        joined_by: 0,
        unit: Unit::Bytes,
        max: 10,
        level: Some(Severity::Warning),
        effect: "e",
        fix: "f",
        source: "s",
    };

    fn set<'p>(items: Vec<Item<'p>>, limits: &'static [Limit]) -> HostBudget<'p> {
        HostBudget {
            host: Host::ClaudeCode,
            name: "Host",
            set: "the project".into(),
            items,
            limits,
        }
    }

    #[test]
    fn a_total_adds_the_joins_and_ranks_the_items() {
        let (a, b) = (Source::new(RelPath::root("a"), "x"), Source::new(RelPath::root("b"), "x"));
        // "é" is one UTF-16 unit, "😀" two: JavaScript's length.
        let set = set(vec![item(&a, "skill", "ééé", 0), item(&b, "skill", "😀😀😀", 0)], &[]);
        let measured = TOTAL.measure(&set, None).unwrap();
        assert_eq!(measured.value, 3 + 6 + 1);
        assert_eq!(measured.items, [(1, 6), (0, 3)]);
    }

    #[test]
    fn tokens_are_not_measured_without_a_tokenizer() {
        let a = Source::new(RelPath::root("a"), "x");
        let limit = Limit { unit: Unit::Tokens, ..TOTAL };
        assert!(limit.measure(&set(vec![item(&a, "skill", "x", 0)], &[]), None).is_none());
    }

    #[test]
    fn a_file_over_is_reported_at_the_first_byte_past_with_what_came_before() {
        let text = "line one\nline two\n";
        let a = Source::new(RelPath::root("web/AGENTS.md"), text);
        let set = set(vec![item(&a, "instructions", "", 4)], std::slice::from_ref(&EACH));
        let measured = EACH.measure(&set, None).unwrap();
        assert_eq!(measured.value, 4 + text.len());
        let text = body_text(&set.items[0]);
        let diagnostic = over_each(&set, &EACH, Severity::Warning, &set.items[0], &text, 22);
        // 10 - 4 carried: the 7th byte, to the end of its line.
        assert_eq!(diagnostic.location.span, Some(Span::new(6, 8)));
        assert!(
            diagnostic.message.contains("22 bytes with the 4 read before it"),
            "{diagnostic:?}"
        );
    }

    #[test]
    fn offsets_count_utf16_units() {
        assert_eq!(utf16_offset("a😀b", 1), 1);
        assert_eq!(utf16_offset("a😀b", 3), 5);
        assert_eq!(utf16_offset("ab", 9), 2);
        assert_eq!(floor_char("a😀", 2), 1);
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
