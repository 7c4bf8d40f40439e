//! A seeded generator of agents directories for benchmarks: runbook skills of
//! about 5 KiB (tools, steps, guarded routes, a prose body), tool descriptors,
//! a host registry, and agents in both styles, with mistakes at chosen rates;
//! optionally the coding assistants' formats beside them (Claude Code skills
//! and subagents, Copilot agents with handoffs), and on its own a folder of
//! Agent Skills for the reference validator.
//!
//! The same seed and [`Spec`] give the same bytes, so a table measured today
//! can be measured again on another machine.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Spec {
    /// Runbook skills, in agents of [`SKILLS_PER_AGENT`].
    pub skills: usize,
    /// Host tools the registry declares (skills use some of them).
    pub registry_tools: usize,
    /// Fraction of skills with a near miss: a route to a misspelt skill name.
    pub near: f64,
    /// Fraction of skills naming a tool that exists nowhere.
    pub far: f64,
    /// Items of each coding assistant's format beside the runbooks: Claude
    /// Code skills and subagents, and Copilot agents that hand off to each other.
    pub wild: usize,
    pub seed: u64,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec { skills: 10_000, registry_tools: 5_000, near: 0.0, far: 0.0, wild: 0, seed: 1 }
    }
}

/// Skills per agent; every agent starts at its first skill.
pub const SKILLS_PER_AGENT: usize = 100;
/// One tool descriptor on disk per this many skills.
const SKILLS_PER_DESCRIPTOR: usize = 10;

/// Words names are made of, so names differ the way real ones do (not only in
/// a trailing number) and "did you mean" has real work to do.
const VERBS: &[&str] = &[
    "review",
    "verify",
    "lookup",
    "classify",
    "escalate",
    "summarize",
    "refund",
    "route",
    "draft",
    "check",
    "update",
    "notify",
    "triage",
    "approve",
    "archive",
    "merge",
    "schedule",
    "resolve",
    "import",
    "export",
    "audit",
    "tag",
    "assign",
    "close",
    "reopen",
    "translate",
    "redact",
    "score",
    "rank",
    "fetch",
    "sync",
    "validate",
];
const NOUNS: &[&str] = &[
    "order",
    "invoice",
    "ticket",
    "customer",
    "refund",
    "shipment",
    "account",
    "payment",
    "contract",
    "report",
    "incident",
    "release",
    "policy",
    "claim",
    "lead",
    "quote",
    "booking",
    "subscription",
    "warranty",
    "return",
    "dispute",
    "article",
    "survey",
    "campaign",
    "vendor",
    "asset",
    "license",
    "deployment",
    "backlog",
    "budget",
    "forecast",
    "timesheet",
];
const STATUSES: &[&str] = &["success", "failure", "denied", "invalid", "partial", "pending"];
const PROSE: &[&str] = &[
    "Read the request twice before acting and restate it in one sentence.",
    "Quote the record you relied on, with its identifier, so a reviewer can check it.",
    "When a field is missing, ask for it once; do not guess values the customer did not give.",
    "Keep the reply under five sentences and lead with the answer, not the process.",
    "Never promise a date the systems do not show; say what happens next instead.",
    "If the tool reports a partial result, say which part is missing and why.",
    "Record every change you make as an internal note with the time and the reason.",
    "Hand over with a summary that lets the next step start without re-reading the thread.",
];

/// The name of the generated skill number `i`.
pub fn skill_name(i: usize) -> String {
    let verb = VERBS[i % VERBS.len()];
    let noun = NOUNS[(i / VERBS.len()) % NOUNS.len()];
    format!("{verb}-{noun}-{}", i / (VERBS.len() * NOUNS.len()))
}

fn descriptor_tool(t: usize) -> String {
    format!("{}_{}_{t}", VERBS[(t * 7) % VERBS.len()], NOUNS[(t * 3) % NOUNS.len()])
}

fn host_tool(h: usize) -> String {
    format!("host_{}_{}_{h}", NOUNS[h % NOUNS.len()], VERBS[(h / NOUNS.len()) % VERBS.len()])
}

/// `name` with two neighbouring letters of its first word swapped: the typo
/// "did you mean" exists for.
fn misspelt(name: &str) -> String {
    let mut chars: Vec<char> = name.chars().collect();
    if let Some(i) = (1..chars.len() - 1).find(|&i| chars[i] != chars[i + 1]) {
        chars.swap(i, i + 1);
    }
    chars.into_iter().collect()
}

/// Writes the directory: `agentc.toml`, `registry.yaml` and `agents/`.
pub fn generate(dir: &Path, spec: &Spec) -> io::Result<Stats> {
    let mut rng = fastrand::Rng::with_seed(spec.seed);
    let mut stats = Stats::default();
    let root = dir.join("agents");
    let mut write = |path: &Path, text: &str| -> io::Result<()> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        stats.files += 1;
        stats.bytes += text.len() as u64;
        std::fs::write(path, text)
    };
    write(
        &dir.join("agentc.toml"),
        "root = \"agents\"\nregistry = \"registry.yaml\"\nlockfile = \"agentc.lock\"\n",
    )?;
    // An empty block list would read as `tools: null`.
    let mut registry =
        String::from(if spec.registry_tools == 0 { "tools: []\n" } else { "tools:\n" });
    for h in 0..spec.registry_tools {
        writeln!(registry, "  - {}", host_tool(h)).ok();
    }
    write(&dir.join("registry.yaml"), &registry)?;

    let descriptors = spec.skills.div_ceil(SKILLS_PER_DESCRIPTOR);
    for t in 0..descriptors {
        write(&root.join(format!("tools/{}/manifest.json", descriptor_tool(t))), &manifest(t))?;
    }
    let agents = spec.skills.div_ceil(SKILLS_PER_AGENT);
    for a in 0..agents {
        let members: Vec<usize> =
            (a * SKILLS_PER_AGENT..((a + 1) * SKILLS_PER_AGENT).min(spec.skills)).collect();
        let mut agent_tools = Vec::new();
        for &s in &members {
            let mut tools = vec![descriptor_tool(s / SKILLS_PER_DESCRIPTOR)];
            if spec.registry_tools > 0 {
                tools.push(host_tool(rng.usize(..spec.registry_tools)));
            }
            let mut unknown = None;
            if rng.f64() < spec.far {
                unknown = Some(format!("retired_{}_tool", NOUNS[rng.usize(..NOUNS.len())]));
                stats.mistakes += 1;
            }
            let near = rng.f64() < spec.near;
            stats.mistakes += usize::from(near);
            let at = |k: usize| members[(s - members[0] + k) % members.len()];
            let targets = [at(1), at(7)].map(skill_name);
            let text = skill(&mut rng, s, &tools, unknown.as_deref(), &targets, near);
            write(&root.join(format!("skills/{}/SKILL.md", skill_name(s))), &text)?;
            agent_tools.extend(tools);
        }
        agent_tools.sort();
        agent_tools.dedup();
        let skills: Vec<String> = members.iter().copied().map(skill_name).collect();
        let id = format!("desk-{a}");
        if a % 2 == 0 {
            write(&root.join(format!("{id}/AGENT.md")), &bundle(a, &agent_tools, &skills))?;
        } else {
            write(&root.join(format!("{id}/agent.json")), &package(a, &agent_tools, &skills))?;
            for (file, what) in [
                ("system.md", "You are the desk's agent"),
                ("boundaries.md", "Never act outside the desk's tools"),
                ("conventions.md", "Write in plain sentences"),
            ] {
                write(&root.join(format!("{id}/{file}")), &format!("# {what}\n\n{what}.\n"))?;
            }
        }
    }
    for w in 0..spec.wild {
        let (text, path) = claude_skill(&mut rng, w);
        write(&root.join(path), &text)?;
        write(&root.join(format!(".claude/agents/reviewer-{w}.md")), &subagent(w))?;
        let next = (w + 1) % spec.wild;
        write(&root.join(format!(".github/agents/planner-{w}.agent.md")), &copilot(w, next))?;
    }
    Ok(stats)
}

/// Paragraphs of prose appended until `text` is about 5 KiB, the size of a
/// real skill.
fn fill_prose(rng: &mut fastrand::Rng, text: &mut String) {
    while text.len() < 5 * 1024 {
        for _ in 0..4 {
            text.push_str(PROSE[rng.usize(..PROSE.len())]);
            text.push(' ');
        }
        text.push_str("\n\n");
    }
}

/// A Claude Code skill (`.claude/skills/<name>/SKILL.md`) with a prose body.
fn claude_skill(rng: &mut fastrand::Rng, w: usize) -> (String, String) {
    let name = format!("cc-{}", skill_name(w));
    let mut text = format!(
        "---\nname: {name}\ndescription: Use to {} in the editor.\n\
         allowed-tools: Read Grep Bash(git:*)\nmodel: sonnet\n---\n# {name}\n\n",
        name.replace('-', " ")
    );
    fill_prose(rng, &mut text);
    (text, format!(".claude/skills/{name}/SKILL.md"))
}

/// A Claude Code subagent using the Claude skill of the same number.
fn subagent(w: usize) -> String {
    format!(
        "---\nname: reviewer-{w}\ndescription: Reviews the work of desk {w}.\n\
         tools: Read, Grep, Glob\nskills: cc-{}\nmodel: sonnet\n---\nReview what desk {w} changed.\n",
        skill_name(w)
    )
}

/// A Copilot agent handing off to the next one.
fn copilot(w: usize, next: usize) -> String {
    format!(
        "---\ndescription: Plans the work of desk {w}.\ntools: [search, edit]\n\
         handoffs:\n  - label: Hand over\n    agent: planner-{next}\n    prompt: Carry on.\n---\nPlan.\n"
    )
}

/// Writes `count` skills in the Agent Skills format (`skills/<name>/SKILL.md`:
/// `name`, `description`, `license`, `metadata` and a prose body of about
/// 5 KiB), the folder the reference validator and `agentc check --layout
/// agent-skills` both read.
pub fn generate_agent_skills(dir: &Path, count: usize, seed: u64) -> io::Result<Stats> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut stats = Stats::default();
    for s in 0..count {
        let name = skill_name(s);
        let mut text = format!(
            "---\nname: {name}\ndescription: Use to {} for the desk; says what it changed.\n\
             license: Apache-2.0\nmetadata:\n  author: desk-{}\n  version: \"1.0\"\n---\n# {name}\n\n",
            name.replace('-', " "),
            s / SKILLS_PER_AGENT
        );
        fill_prose(&mut rng, &mut text);
        let path = dir.join(format!("skills/{name}/SKILL.md"));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, &text)?;
        stats.files += 1;
        stats.bytes += text.len() as u64;
    }
    Ok(stats)
}

/// What a generation wrote.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub files: usize,
    pub bytes: u64,
    /// Skills with a near miss or a far name.
    pub mistakes: usize,
}

fn manifest(t: usize) -> String {
    format!(
        r#"{{
  "name": "{name}",
  "description": "Tool number {t}: fetches or changes one record of the desk's system.",
  "input_schema": {{
    "type": "object",
    "properties": {{
      "id": {{ "type": "string", "description": "The record's identifier." }},
      "note": {{ "type": "string", "description": "Why the change is made." }}
    }},
    "required": ["id"],
    "additionalProperties": false
  }}
}}
"#,
        name = descriptor_tool(t)
    )
}

fn skill(
    rng: &mut fastrand::Rng,
    s: usize,
    tools: &[String],
    unknown: Option<&str>,
    targets: &[String; 2],
    near: bool,
) -> String {
    let name = skill_name(s);
    let mut text = format!(
        "---\nname: {name}\ndescription: Runbook {s} to {} for the desk, then hand over.\ntools:\n",
        name.replace('-', " ")
    );
    let listed: Vec<&str> = tools.iter().map(String::as_str).chain(unknown).collect();
    for tool in &listed {
        writeln!(text, "  - {tool}").ok();
    }
    text.push_str("steps:\n");
    for tool in &listed {
        writeln!(text, "  - {tool}: {}", PROSE[rng.usize(..PROSE.len())]).ok();
    }
    text.push_str("onSkip: advance\nroutes:\n");
    let first = if near { misspelt(&targets[0]) } else { targets[0].clone() };
    let (a, b) = (STATUSES[rng.usize(..STATUSES.len())], STATUSES[rng.usize(..STATUSES.len())]);
    writeln!(text, "  - {first}: on {} status={a}", tools[0]).ok();
    writeln!(text, "  - {}: status={b}", targets[1]).ok();
    write!(text, "---\n# Runbook {s}\n\n").ok();
    fill_prose(rng, &mut text);
    text
}

fn bundle(a: usize, tools: &[String], skills: &[String]) -> String {
    let mut text = format!("---\nname: desk-{a}\ndescription: Desk {a}'s agent.\ntools:\n");
    for tool in tools {
        writeln!(text, "  - {tool}").ok();
    }
    text.push_str("skills:\n");
    for skill in skills {
        writeln!(text, "  - {skill}").ok();
    }
    write!(text, "start: {}\n---\nYou are desk {a}'s agent.\n", skills[0]).ok();
    text
}

fn package(a: usize, tools: &[String], skills: &[String]) -> String {
    let list =
        |names: &[String]| names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ");
    format!(
        "{{\n  \"name\": \"Desk {a}\",\n  \"version\": \"1.0.0\",\n  \"description\": \"Desk {a}'s agent.\",\n  \
         \"trigger_rules\": {{\"keywords\": [\"desk-{a}\"]}},\n  \
         \"entry_points\": [\"system.md\", \"boundaries.md\", \"conventions.md\"],\n  \
         \"tools\": [{}],\n  \"skills\": [{}]\n}}\n",
        list(tools),
        list(skills)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_valid() {
        let names: std::collections::HashSet<String> = (0..5_000).map(skill_name).collect();
        assert_eq!(names.len(), 5_000);
        assert!(
            names.iter().all(|n| n
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'))
        );
        assert_ne!(misspelt("review-order-0"), "review-order-0");
    }

    /// A generated project compiles clean, every format included, and each
    /// mistake generated is one error.
    #[test]
    fn generated_projects_compile_as_intended() {
        use agentc_compiler::{Options, Severity, compile, fs::RealFs};
        let dir = std::env::temp_dir().join(format!("agentc-bench-test-{}", std::process::id()));
        let errors = |spec: &Spec| {
            let _ = std::fs::remove_dir_all(&dir);
            let stats = generate(&dir, spec).unwrap();
            let mut opts = Options::new(dir.join("agents"));
            opts.registry = Some(dir.join("registry.yaml"));
            let compilation = compile(&RealFs, &opts).unwrap();
            let errors =
                compilation.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
            (stats.mistakes, errors, compilation.model.skills.len())
        };
        let spec = Spec { skills: 300, registry_tools: 20, wild: 30, ..Spec::default() };
        let (mistakes, found, skills) = errors(&spec);
        assert_eq!((mistakes, found), (0, 0));
        assert_eq!(skills, 300 + 30, "the runbooks and the Claude Code skills");
        let (mistakes, found, _) = errors(&Spec { near: 0.5, far: 0.2, ..spec });
        assert!(mistakes > 0);
        assert_eq!(found, mistakes);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
