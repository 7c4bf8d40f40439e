//! `agentc budget`: what each host reads into the model's context from the
//! project, in tokens, against the limits the host documents.
//!
//! The core says what each host loads and its limits
//! (`agentc_compiler::budget`); this counts tokens with OpenAI's `o200k_base`
//! encoding (`tiktoken-rs`) and prints the table. `o200k_base` is the exact
//! tokenizer of the GPT models Codex and Copilot run; Anthropic publishes no
//! tokenizer for its current models (only a counting API, which agentc never
//! calls), so for Claude the counts are an estimate of the same order, and
//! the limits Claude Code acts on are measured its own way (characters, and
//! characters ÷ 4) whatever the tokenizer says.

use std::io::Write;

use agentc_compiler::budget::{self, HostBudget, Limit, Load, Measured, Tokens, Unit, thousands};
use agentc_compiler::compile::Compilation;
use clap::ValueEnum;
use rayon::prelude::*;
use serde_json::{Value, json};

/// How to print the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BudgetFormat {
    /// A table per host, for people.
    Human,
    /// One JSON document, for tools.
    Json,
}

/// OpenAI's `o200k_base`, built once.
struct O200k(tiktoken_rs::CoreBPE);

impl Tokens for O200k {
    fn count(&self, text: &str) -> usize {
        self.0.encode_ordinary(text).len()
    }

    fn name(&self) -> &'static str {
        "o200k_base"
    }
}

// Counted from several threads: the encoder is immutable once built.
impl O200k {
    fn new() -> Result<O200k, Box<dyn std::error::Error>> {
        tiktoken_rs::o200k_base()
            .map(O200k)
            .map_err(|err| format!("cannot build the o200k_base tokenizer: {err}").into())
    }
}

/// One item's tokens: what it adds at start, and its body when used.
struct Counted {
    start: usize,
    on_demand: usize,
}

/// One host's set, counted.
struct Report<'c, 'p> {
    set: &'c HostBudget<'p>,
    counted: Vec<Counted>,
    limits: Vec<(&'static Limit, Option<Measured>)>,
}

/// Prints the budget of `compilation`'s project; `top` largest items per list.
pub fn print(
    compilation: &Compilation,
    format: BudgetFormat,
    top: usize,
    out: &mut dyn Write,
) -> Result<(), Box<dyn std::error::Error>> {
    let tokens = O200k::new()?;
    let sets = budget::budgets(&compilation.project);
    let reports: Vec<Report<'_, '_>> = sets
        .iter()
        .map(|set| {
            let counted = set
                .items
                .par_iter()
                .map(|item| {
                    let listed = item.listed.as_ref().map_or(0, |l| tokens.count(&l.text));
                    let body = tokens.count(item.source.slice(item.body));
                    match item.body_load {
                        Load::Start => Counted { start: listed + body, on_demand: 0 },
                        Load::OnDemand => Counted { start: listed, on_demand: body },
                    }
                })
                .collect();
            let limits =
                set.limits.iter().map(|limit| (limit, limit.measure(set, Some(&tokens)))).collect();
            Report { set, counted, limits }
        })
        .collect();
    // Made whole, then shown with the project's secrets masked: an item's
    // name or path may be one.
    let mut made = Vec::new();
    match format {
        BudgetFormat::Human => human(&reports, tokens.name(), top, &mut made)?,
        BudgetFormat::Json => {
            let hosts: Vec<Value> = reports.iter().map(|r| json_report(r, top)).collect();
            let document = json!({ "tokenizer": tokens.name(), "sets": hosts });
            writeln!(made, "{}", serde_json::to_string_pretty(&document)?)?;
        }
    }
    let made = String::from_utf8_lossy(&made);
    out.write_all(compilation.redactor().clean(&made).as_bytes())?;
    Ok(())
}

fn human(
    reports: &[Report<'_, '_>],
    tokenizer: &str,
    top: usize,
    out: &mut dyn Write,
) -> Result<(), Box<dyn std::error::Error>> {
    if reports.is_empty() {
        writeln!(out, "No host loads anything from this project into a model's context.")?;
        return Ok(());
    }
    writeln!(
        out,
        "Tokens counted with {tokenizer} (exact for GPT models, an estimate for Claude)."
    )?;
    for report in reports {
        let set = report.set;
        let (start, on_demand) = totals(report);
        writeln!(out, "\n{} — {}", set.name, agentc_compiler::emit::escape_controls(&set.set))?;
        writeln!(out, "  at start    {:>5} items  {:>9} tokens", start.0, thousands(start.1))?;
        writeln!(
            out,
            "  on demand   {:>5} items  {:>9} tokens",
            on_demand.0,
            thousands(on_demand.1)
        )?;
        let measured: Vec<_> =
            report.limits.iter().filter_map(|(l, m)| Some((*l, m.as_ref()?))).collect();
        if !measured.is_empty() {
            writeln!(out, "  limits")?;
        }
        for (limit, m) in measured {
            let over = m.value > limit.max;
            let verdict = match (over, limit.level) {
                (false, _) => "ok".to_owned(),
                (true, Some(_)) => "OVER".to_owned(),
                (true, None) => "over (guidance)".to_owned(),
            };
            let what = match limit.total {
                true => limit.what.to_owned(),
                false => format!("{}, largest", limit.what),
            };
            let which = match (limit.total, over) {
                (false, true) => {
                    let (i, _) = m.items[0];
                    format!(
                        ": {} of {}, first `{}`",
                        m.items.iter().filter(|(_, n)| *n > limit.max).count(),
                        m.items.len(),
                        escaped(&set.items[i].name)
                    )
                }
                _ => String::new(),
            };
            writeln!(
                out,
                "    {what:<42} {:>9} of {:<7} {:<25} {verdict}{which}",
                thousands(m.value),
                thousands(limit.max),
                limit.unit.as_str(),
            )?;
        }
        for (title, pick) in [("largest at start", true), ("largest on demand", false)] {
            let largest = largest(report, pick, top);
            if largest.is_empty() {
                continue;
            }
            writeln!(out, "  {title}")?;
            for (i, n) in largest {
                let item = &set.items[i];
                let path = item.source.path.to_string();
                let name = match item.name == path {
                    true => String::new(),
                    false => format!(" {}", escaped(&item.name)),
                };
                writeln!(out, "    {:>9}  {}{name}  {}", thousands(n), item.kind, escaped(&path))?;
            }
        }
    }
    // Each host's sources once, after its sets.
    let mut hosts: Vec<(&str, Vec<&str>)> = Vec::new();
    for report in reports {
        let set = report.set;
        let at = match hosts.iter().position(|(name, _)| *name == set.name) {
            Some(at) => at,
            None => {
                hosts.push((set.name, Vec::new()));
                hosts.len() - 1
            }
        };
        for limit in set.limits {
            if !hosts[at].1.contains(&limit.source) {
                hosts[at].1.push(limit.source);
            }
        }
    }
    writeln!(out, "\nSources")?;
    for (name, sources) in hosts {
        writeln!(out, "  {name}: {}", sources.join("; "))?;
    }
    Ok(())
}

fn json_report(report: &Report<'_, '_>, top: usize) -> Value {
    let set = report.set;
    let (start, on_demand) = totals(report);
    let item = |i: usize, n: usize| {
        let item = &set.items[i];
        json!({ "file": item.source.path.to_string(), "kind": item.kind, "name": item.name, "value": n })
    };
    let limits: Vec<Value> = report
        .limits
        .iter()
        .map(|(limit, m)| {
            json!({
                "what": limit.what,
                "scope": if limit.total { "total" } else { "each" },
                "unit": unit_name(limit.unit),
                "max": limit.max,
                "value": m.as_ref().map(|m| m.value),
                "over": m.as_ref().is_some_and(|m| m.value > limit.max),
                "diagnostic": limit.level.map(|level| level.as_str()),
                "largest": m.as_ref().map_or_else(Vec::new, |m| {
                    m.items.iter().take(top).map(|&(i, n)| item(i, n)).collect()
                }),
                "effect": limit.effect,
                "source": limit.source,
            })
        })
        .collect();
    let list =
        |pick| largest(report, pick, top).into_iter().map(|(i, n)| item(i, n)).collect::<Vec<_>>();
    json!({
        "host": set.name,
        "set": set.set,
        "start": { "items": start.0, "tokens": start.1, "largest": list(true) },
        "on_demand": { "items": on_demand.0, "tokens": on_demand.1, "largest": list(false) },
        "limits": limits,
    })
}

fn unit_name(unit: Unit) -> &'static str {
    match unit {
        Unit::Chars => "characters",
        Unit::Bytes => "bytes",
        Unit::Lines => "lines",
        Unit::HostTokens => "host-estimated-tokens",
        Unit::Tokens => "tokens",
    }
}

/// (items, tokens) at start and on demand.
fn totals(report: &Report<'_, '_>) -> ((usize, usize), (usize, usize)) {
    let mut start = (0, 0);
    let mut on_demand = (0, 0);
    for (item, counted) in report.set.items.iter().zip(&report.counted) {
        if item.listed.is_some() || item.body_load == Load::Start {
            start.0 += 1;
            start.1 += counted.start;
        }
        if item.body_load == Load::OnDemand {
            on_demand.0 += 1;
            on_demand.1 += counted.on_demand;
        }
    }
    (start, on_demand)
}

/// The `top` items adding most at start (`true`) or on demand, largest
/// first, ties in item order.
fn largest(report: &Report<'_, '_>, start: bool, top: usize) -> Vec<(usize, usize)> {
    let mut all: Vec<(usize, usize)> = report
        .counted
        .iter()
        .enumerate()
        .map(|(i, c)| (i, if start { c.start } else { c.on_demand }))
        .filter(|(_, n)| *n > 0)
        .collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(top);
    all
}

fn escaped(text: &str) -> String {
    agentc_compiler::emit::escape_controls(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(8_000), "8,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn o200k_counts_as_openai_publishes() {
        let tokens = O200k::new().expect("the encoding is built in");
        // "hello world" is two tokens in every OpenAI encoding since GPT-3.
        assert_eq!(tokens.count("hello world"), 2);
        assert_eq!(tokens.count(""), 0);
    }
}
