//! The editor features on small projects held in memory.

use super::*;
use agentc_compiler::memfs::MemFs;
use agentc_compiler::{Options, compile};

/// A shared tool, an agent with a private tool and a private skill, and a
/// shared skill routing to another.
fn project() -> Compilation {
    let mut fs = MemFs::new();
    let files = [
        (
            "tools/lookup_order/manifest.json",
            r#"{"name": "lookup_order", "description": "Fetch an order."}"#,
        ),
        ("billing/tools/issue_refund/manifest.json", r#"{"description": "Refund an order."}"#),
        (
            "billing/AGENT.md",
            "---\ndescription: Bills.\ntools:\n  - issue_refund\n  - lookup_order\nskills:\n  - agent__billing__refund\n  - wrap-up\nstart: refund\n---\nBill.\n",
        ),
        (
            "billing/skills/refund/SKILL.md",
            "---\nname: refund\ndescription: Refund an order.\ntools:\n  - issue_refund\n  - lookup_order\nsteps:\n  - lookup_order: find it\nroutes:\n  - wrap-up: on issue_refund status=success\n---\nRefund.\n",
        ),
        (
            "skills/wrap-up/SKILL.md",
            "---\nname: wrap-up\ndescription: Close the ticket.\ntools:\n  - lookup_order\n---\nClose.\n",
        ),
    ];
    for (path, text) in files {
        fs.insert(path, text).unwrap();
    }
    let compilation = compile(&fs, &Options::new(fs.root())).unwrap();
    assert!(!compilation.has_errors(), "{:#?}", compilation.diagnostics);
    compilation
}

fn offset(c: &Compilation, file: &str, needle: &str) -> usize {
    let text = &c.sources[&RelPath::root(file)].text;
    text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in {file}"))
}

#[test]
fn a_qualified_reference_keeps_its_prefix_when_renamed() {
    let c = project();
    let index = Index::new(&c);
    let a = Analysis::new(&c, &index);
    let agent = RelPath::root("billing/AGENT.md");
    let at = offset(&c, "billing/AGENT.md", "agent__billing__refund") + 3;
    let (symbol, span) = a.symbol_at(&agent, at).unwrap();
    assert_eq!(a.def(symbol).qualified, "agent__billing__refund");
    assert_eq!(c.sources[&agent].slice(span), "agent__billing__refund");

    let plan = a.rename(symbol, "repay").unwrap();
    let edits: Vec<(String, &str, &str)> = plan
        .edits
        .iter()
        .map(|e| (e.file.to_string(), c.sources[&e.file].slice(e.span), e.replacement.as_str()))
        .collect();
    assert_eq!(
        edits,
        [
            ("billing/AGENT.md".to_owned(), "agent__billing__refund", "agent__billing__repay"),
            ("billing/AGENT.md".to_owned(), "refund", "repay"),
            ("billing/skills/refund/SKILL.md".to_owned(), "refund", "repay"),
        ]
    );
    assert_eq!(
        plan.folder,
        Some((RelPath::root("billing/skills/refund/"), RelPath::root("billing/skills/repay/")))
    );
}

#[test]
fn a_rename_to_a_taken_or_bad_name_is_refused() {
    let c = project();
    let index = Index::new(&c);
    let a = Analysis::new(&c, &index);
    let skill = RelPath::root("billing/skills/refund/SKILL.md");
    let (symbol, _) =
        a.symbol_at(&skill, offset(&c, "billing/skills/refund/SKILL.md", "wrap-up")).unwrap();
    assert_eq!(a.def(symbol).name, "wrap-up");
    let taken = a.rename(symbol, "refund").unwrap_err();
    assert!(taken.contains("already visible"), "{taken}");
    let bad = a.rename(symbol, "Wrap Up").unwrap_err();
    assert!(bad.starts_with("`Wrap Up` "), "{bad}");
}

#[test]
fn references_and_definitions_of_a_tool() {
    let c = project();
    let index = Index::new(&c);
    let a = Analysis::new(&c, &index);
    let skill = RelPath::root("billing/skills/refund/SKILL.md");
    let at = offset(&c, "billing/skills/refund/SKILL.md", "issue_refund status");
    let (symbol, _) = a.symbol_at(&skill, at).unwrap();
    // A private tool without `name` in its descriptor: its definition is the
    // descriptor's start.
    let place = a.definition(symbol).unwrap();
    assert_eq!(place.file, RelPath::root("billing/tools/issue_refund/manifest.json"));
    let files: Vec<String> =
        a.references(symbol, false).iter().map(|p| p.file.to_string()).collect();
    assert_eq!(
        files,
        ["billing/skills/refund/SKILL.md", "billing/skills/refund/SKILL.md", "billing/AGENT.md"]
    );
    // From the shared tool's `name` to its users.
    let manifest = RelPath::root("tools/lookup_order/manifest.json");
    let (shared, _) = a
        .symbol_at(&manifest, offset(&c, "tools/lookup_order/manifest.json", "lookup_order"))
        .unwrap();
    assert_eq!(a.references(shared, true).len(), 5);
}

fn labels(items: &[Completion]) -> Vec<&str> {
    items.iter().map(|i| i.label.as_str()).collect()
}

#[test]
fn completion_follows_the_cursor() {
    let mut c = project();
    let skill = RelPath::root("billing/skills/refund/SKILL.md");
    // An empty line in the frontmatter: the keys not yet written.
    let text =
        c.sources[&skill].text.replace("steps:", "\nsteps:").replace("=success", "=success,");
    c.sources
        .insert(skill.clone(), agentc_compiler::source::Source::new(skill.clone(), text.as_str()));
    let index = Index::new(&c);
    let a = Analysis::new(&c, &index);
    let (keys, _) = a.complete(&skill, text.find("\nsteps").unwrap() + 1);
    let keys = labels(&keys);
    assert!(
        keys.contains(&"onSkip") && !keys.contains(&"tools") && !keys.contains(&"name"),
        "{keys:?}"
    );

    // In `tools`: the tools visible from the agent, its private one included,
    // narrowed to what is typed.
    let (tools, _) = a.complete(&skill, text.find("issue_refund").unwrap());
    assert_eq!(labels(&tools), ["issue_refund", "lookup_order"]);
    let (tools, span) = a.complete(&skill, text.find("issue_refund").unwrap() + 2);
    assert_eq!(labels(&tools), ["issue_refund"]);
    assert_eq!(&text[span.start..span.end], "is");

    // After `on` in a guard: the tools the skill declares; after `status=`,
    // the statuses not yet written.
    let on = text.find("on issue_refund").unwrap() + 3;
    assert_eq!(labels(&a.complete(&skill, on).0), ["issue_refund", "lookup_order"]);
    let status = text.find("status=success,").unwrap() + "status=success,".len();
    let statuses = labels(&a.complete(&skill, status).0).join(",");
    assert!(!statuses.contains("success") && statuses.contains("denied"), "{statuses}");

    // The agent's `skills`: skills visible from the agent.
    let agent = RelPath::root("billing/AGENT.md");
    let at = offset(&c, "billing/AGENT.md", "wrap-up");
    assert_eq!(labels(&a.complete(&agent, at).0), ["refund", "wrap-up"]);
    assert_eq!(labels(&a.complete(&agent, at + 1).0), ["wrap-up"]);
}

#[test]
fn hover_and_outline() {
    let c = project();
    let index = Index::new(&c);
    let a = Analysis::new(&c, &index);
    let skill = RelPath::root("billing/skills/refund/SKILL.md");
    let (text, _) =
        a.hover(&skill, offset(&c, "billing/skills/refund/SKILL.md", "wrap-up")).unwrap();
    assert_eq!(
        text,
        "**skill** `wrap-up`\n\nClose the ticket.\n\n*defined in* `skills/wrap-up/SKILL.md`"
    );
    let (guard, _) =
        a.hover(&skill, offset(&c, "billing/skills/refund/SKILL.md", "status=success")).unwrap();
    assert_eq!(
        guard,
        "**guard**: goes to `wrap-up` when the tool `issue_refund` returns `success`"
    );
    let (key, _) = a.hover(&skill, offset(&c, "billing/skills/refund/SKILL.md", "routes")).unwrap();
    assert!(key.starts_with("**Routes** (`routes`)"), "{key}");

    let outline = a.outline(&skill);
    let names: Vec<&str> = outline.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["name", "description", "tools", "steps", "routes"]);
    let steps: Vec<(&str, Option<&str>)> =
        outline[3].children.iter().map(|i| (i.name.as_str(), i.detail.as_deref())).collect();
    assert_eq!(steps, [("lookup_order", Some("find it"))]);
}

/// While a skill's frontmatter does not parse, completion still offers what
/// its place in the layout allows.
#[test]
fn completion_in_a_file_that_does_not_parse() {
    let mut fs = MemFs::new();
    fs.insert("tools/lookup_order/manifest.json", r#"{"description": "Fetch an order."}"#).unwrap();
    let text = "---\nname: refund\ndescription: [unclosed\ntools:\n  - lo\n---\nRefund.\n";
    fs.insert("skills/refund/SKILL.md", text).unwrap();
    let c = compile(&fs, &Options::new(fs.root())).unwrap();
    assert!(c.has_errors());
    let index = Index::new(&c);
    let a = Analysis::new(&c, &index);
    let skill = RelPath::root("skills/refund/SKILL.md");
    let (items, _) = a.complete(&skill, text.find("  - lo").unwrap() + 6);
    assert_eq!(labels(&items), ["lookup_order"]);
}

/// A route without a guard, as a block item (`- b`) or in a flow list
/// (`[b]`), is as renameable as one with a guard.
#[test]
fn a_skill_reached_by_unguarded_routes_is_renamed() {
    let mut fs = MemFs::new();
    let files = [
        ("skills/a/SKILL.md", "---\nname: a\ndescription: A.\nroutes:\n  - b\n---\nA.\n"),
        ("skills/c/SKILL.md", "---\nname: c\ndescription: C.\nroutes: [b]\n---\nC.\n"),
        ("skills/b/SKILL.md", "---\nname: b\ndescription: B.\n---\nB.\n"),
    ];
    for (path, text) in files {
        fs.insert(path, text).unwrap();
    }
    let c = compile(&fs, &Options::new(fs.root())).unwrap();
    assert!(!c.has_errors(), "{:#?}", c.diagnostics);
    let index = Index::new(&c);
    let a = Analysis::new(&c, &index);
    let from = RelPath::root("skills/a/SKILL.md");
    let (symbol, span) = a.symbol_at(&from, offset(&c, "skills/a/SKILL.md", "- b") + 2).unwrap();
    assert_eq!(c.sources[&from].slice(span), "b");
    let plan = a.rename(symbol, "bee").unwrap();
    let edits: Vec<(String, usize, &str, &str)> = plan
        .edits
        .iter()
        .map(|e| {
            let text = c.sources[&e.file].slice(e.span);
            (e.file.to_string(), e.span.start, text, e.replacement.as_str())
        })
        .collect();
    assert_eq!(
        edits,
        [
            ("skills/a/SKILL.md".to_owned(), 40, "b", "bee"),
            ("skills/b/SKILL.md".to_owned(), 10, "b", "bee"),
            ("skills/c/SKILL.md".to_owned(), 37, "b", "bee"),
        ]
    );
    assert_eq!(plan.folder, Some((RelPath::root("skills/b/"), RelPath::root("skills/bee/"))));
}

/// A project of the coding assistants' files, compiled from memory.
fn assistants(files: &[(&str, &str)]) -> Compilation {
    let mut fs = MemFs::new();
    for (path, text) in files {
        fs.insert(path, *text).unwrap();
    }
    compile(&fs, &Options::new(fs.root())).unwrap()
}

/// Completes at the end of `typed`, written in place of `marker` in `file`.
fn complete_at(files: &[(&str, &str)], file: &str, marker: &str, typed: &str) -> Vec<String> {
    let (_, original) = files.iter().find(|(p, _)| *p == file).unwrap();
    let at = original.find(marker).unwrap() + typed.len();
    let files: Vec<(&str, String)> = (files.iter())
        .map(|(p, t)| (*p, if *p == file { t.replace(marker, typed) } else { t.to_string() }))
        .collect();
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let c = assistants(&borrowed);
    let index = Index::new(&c);
    let a = Analysis::new(&c, &index);
    a.complete(&RelPath::root(file), at).0.into_iter().map(|i| i.label).collect()
}

#[test]
fn claude_and_copilot_values_come_from_the_compiler_s_catalogues() {
    let subagent = "---\nname: rev\ndescription: Reviews.\nHERE\n---\nReview.\n";
    let files = [
        (".claude/agents/rev.md", subagent),
        (".mcp.json", r#"{"mcpServers": {"git hub": {"command": "gh"}}}"#),
    ];
    let at = |typed: &str| complete_at(&files, ".claude/agents/rev.md", "HERE", typed);
    // Those it begins, then those holding it.
    let re =
        ["Read", "ReadMcpResourceTool", "RemoteTrigger", "ReportFindings", "Read(…)", "CronCreate"];
    assert_eq!(at("tools: Re")[..6], re);
    assert_eq!(at("tools: mcp")[..2], ["mcp__git_hub", "ListMcpResourcesTool"]);
    assert_eq!(at("tools: Bash(gi"), Vec::<String>::new());
    assert_eq!(at("model: op")[..4], ["opus", "opusplan", "opus[1m]", "claude-opus-4-0"]);
    assert_eq!(at("permissionMode: a"), ["acceptEdits", "auto"]);
    assert_eq!(at("background: t"), ["true"]);
    // Keys after a one-letter prefix, those written left out.
    assert_eq!(at("d"), ["disallowedTools"]);
    assert_eq!(at("m"), ["model", "maxTurns", "mcpServers", "memory"]);

    let agent = "---\ndescription: Plans.\nHERE\n---\nPlan.\n";
    let files = [
        (".github/agents/plan.agent.md", agent),
        (".vscode/mcp.json", r#"{"servers": {"docs": {"command": "d"}}}"#),
    ];
    let at = |typed: &str| complete_at(&files, ".github/agents/plan.agent.md", "HERE", typed);
    assert_eq!(at("tools: ['rea"), ["read", "Read", "createAndRunTask", "NotebookRead"]);
    assert_eq!(at("tools: [do"), ["docs/*", "todo", "todos", "TodoWrite"]);
    assert_eq!(at("target: v"), ["vscode"]);
}

/// Where a Copilot agent or a prompt names an agent, completion offers the
/// agents that may be named there, and nothing of the kind elsewhere; a
/// Copilot agent whose frontmatter does not parse is known by its place.
#[test]
fn agents_are_completed_where_an_agent_is_named() {
    let mut fs = MemFs::new();
    let lead = "---\nname: Lead\ndescription: Leads.\nagents: [docs, ]\nhandoffs:\n  - label: Write\n    agent: docs\n---\nLead.\n";
    for (path, text) in [
        (".git/HEAD", "ref: refs/heads/main\n"),
        (".github/agents/lead.agent.md", lead),
        (".github/agents/docs.agent.md", "---\ndescription: Writes docs.\n---\nWrite.\n"),
        (".github/agents/broken.agent.md", "---\ndescription: [\nhandoffs:\n  - agent: \n---\n"),
        (".claude/agents/checker.md", "---\nname: checker\ndescription: Checks.\n---\nCheck.\n"),
        (".claude/skills/notes/SKILL.md", "---\nname: notes\ndescription: Notes.\n---\nNote.\n"),
        (
            ".github/prompts/write.prompt.md",
            "---\ndescription: Writes.\nagent: docs\n---\nWrite.\n",
        ),
    ] {
        fs.insert(path, text).unwrap();
    }
    let c = compile(&fs, &Options::new(fs.root())).unwrap();
    let index = Index::new(&c);
    let a = Analysis::new(&c, &index);
    // The labels offered, sorted, each an agent.
    let at = |file: &str, needle: &str| {
        let rel = RelPath::root(file);
        let offset = c.sources[&rel].text.find(needle).unwrap() + needle.len();
        let (items, _) = a.complete(&rel, offset);
        assert!(items.iter().all(|i| i.kind == CompletionKind::Agent), "{items:?}");
        let mut labels: Vec<String> = items.into_iter().map(|i| i.label).collect();
        labels.sort();
        labels
    };
    // VS Code's agents: the Copilot agents that parse, the subagent, its own.
    let vs_code = ["Lead", "agent", "ask", "checker", "docs", "edit", "explore", "plan"];
    let lead = ".github/agents/lead.agent.md";
    assert_eq!(at(lead, "agents: [docs, "), vs_code);
    assert_eq!(at(lead, "agent: "), vs_code);
    let rel = RelPath::root(lead);
    let label = c.sources[&rel].text.find("label: W").unwrap() + "label: W".len();
    assert!(a.complete(&rel, label).0.iter().all(|i| i.kind != CompletionKind::Agent));
    // A prompt: the Copilot agents and the built-in ones a prompt may name.
    assert_eq!(
        at(".github/prompts/write.prompt.md", "agent: "),
        ["Lead", "agent", "ask", "docs", "edit", "plan"]
    );
    assert_eq!(at(".github/agents/broken.agent.md", "agent: "), vs_code);
}
