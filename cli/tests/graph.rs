//! `agentc graph`: the pictures are what the runbooks say, and the tools that
//! draw them accept them — DOT is rendered by Graphviz itself.

mod common;

use std::path::{Path, PathBuf};

use common::{agentc, pipe, text, write};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixture(name: &str) -> PathBuf {
    repo().join("tests/fixtures").join(name)
}

/// `agentc graph` on a fixture (as its expectations were written) in `format`.
fn graph_of(name: &str, format: &str, extra: &[&str]) -> std::process::Output {
    let mut args: Vec<String> = vec!["graph".into(), "--format".into(), format.into()];
    args.extend(common::case_args(&fixture(name), &repo()));
    args.extend(extra.iter().map(|a| a.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    agentc(&args, &repo())
}

/// Fixtures drawn in both languages and handed to Graphviz and Mermaid:
/// every marking (unreachable, cycle, dead end, start), assistants with
/// handoffs and skills, and projects with errors.
const DRAWN: [&str; 7] = [
    "code-unreachable-skill",
    "code-route-cycle",
    "code-routes-never-fire",
    "code-start-routes-nowhere",
    "wild-layouts-accepted",
    "wild-subagent-unknown-skill",
    "code-duplicate-name",
];

fn json_of(name: &str) -> Value {
    let out = graph_of(name, "json", &[]);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The node named `name` in the group of agent `agent` (`None`: outside).
fn node<'g>(graph: &'g Value, agent: Option<&str>, name: &str) -> &'g Value {
    let group = agent.map(|agent| {
        graph["groups"].as_array().unwrap().iter().position(|g| g["agent"] == agent).unwrap()
    });
    graph["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == name && n["group"].as_u64().map(|g| g as usize) == group)
        .unwrap_or_else(|| panic!("no node {name} in {agent:?}"))
}

/// Graphviz's `dot`, when installed (CI installs it).
fn graphviz() -> Option<&'static str> {
    common::installed("dot", "-V", "Graphviz `dot`").then_some("dot")
}

/// Renders DOT with Graphviz; panics with its complaint if it refuses.
fn render(dot_text: &str) -> Vec<u8> {
    let dot = graphviz().expect("checked by the caller");
    let out = pipe(dot, &["-Tsvg".as_ref()], &repo(), dot_text);
    let complaint = text(&out.stderr);
    assert!(
        out.status.success() && complaint.is_empty(),
        "Graphviz refused:\n{complaint}\n{dot_text}"
    );
    out.stdout
}

/// A project whose Copilot agent's name holds characters that end or mark
/// up labels in both languages (`"`, `#`, `<`, `\\`).
fn odd_names() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let agents = dir.path().join(".github/agents");
    let odd = r#"say"hi#1<b>\"#;
    let handoff = format!(
        "---\ndescription: Plans.\nhandoffs:\n  - label: Go\n    agent: '{odd}'\n---\nPlan.\n"
    );
    write(&agents.join("planner.agent.md"), handoff);
    write(&agents.join(format!("{odd}.agent.md")), "---\ndescription: Says hi.\n---\nHi.\n");
    dir
}

#[test]
fn the_example_is_drawn_as_its_runbooks_say() {
    let out = agentc(&["graph", "examples/support-desk"], &repo());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mermaid = text(&out.stdout);
    assert!(mermaid.starts_with("flowchart LR\n"), "{mermaid}");
    for group in ["agent billing", "agent escalations", "agent triage"] {
        assert!(mermaid.contains(&format!("[\"{group}\"]")), "{group} missing:\n{mermaid}");
    }
    // Guards label their routes as the grammar writes them; a bare route has no label.
    assert!(mermaid.contains("-->|\"on lookup_customer status=absent,denied\"|"), "{mermaid}");
    assert!(mermaid.contains("-->|\"on issue_refund status=denied\"|"), "{mermaid}");

    let graph: Value = serde_json::from_slice(
        &agentc(&["graph", "examples/support-desk", "--format", "json"], &repo()).stdout,
    )
    .unwrap();
    let intake = node(&graph, Some("triage"), "intake");
    assert_eq!(intake["start"], true);
    assert_eq!(node(&graph, Some("triage"), "wrap-up")["terminal"], true);
    assert_eq!(
        node(&graph, Some("billing"), "refund-review")["qualified"],
        "agent__billing__refund-review"
    );
    // A skill two agents activate is drawn in each.
    let tone_checks =
        graph["nodes"].as_array().unwrap().iter().filter(|n| n["name"] == "tone-check").count();
    assert_eq!(tone_checks, 3);
    // Every route of triage's skills is an edge inside triage's group.
    let routes = graph["edges"].as_array().unwrap().iter().filter(|e| e["kind"] == "route").count();
    assert_eq!(routes, 31);
    assert!(
        graph["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["unreachable"] == false && n["dead_end"] == false)
    );
}

#[test]
fn dot_output_is_rendered_by_graphviz() {
    if graphviz().is_none() {
        eprintln!("skipped: Graphviz `dot` is not installed");
        return;
    }
    let example = agentc(&["graph", "examples/support-desk", "--format", "dot"], &repo());
    // Graphviz writes a hyphen in SVG text as a character reference.
    let svg = text(&render(&text(&example.stdout))).replace("&#45;", "-");
    for name in ["intake", "charge-lookup", "on fetch_invoice status=success", "agent triage"] {
        assert!(svg.contains(name), "{name} not drawn");
    }
    for case in DRAWN {
        let out = graph_of(case, "dot", &[]);
        assert!(out.status.code().unwrap_or(2) < 2, "{case}: {}", text(&out.stderr));
        render(&text(&out.stdout));
    }
    let odd = odd_names();
    let out = agentc(&["graph", ".", "--format", "dot"], odd.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let svg = text(&render(&text(&out.stdout)));
    assert!(svg.contains("say&quot;hi#1&lt;b&gt;\\"), "the name is drawn as written:\n{svg}");
}

/// Mermaid's own parser (`cli/tests/mermaid/`), when installed (CI
/// installs it).
fn mermaid() -> Option<PathBuf> {
    common::node_harness("mermaid", "mermaid")
}

/// What Mermaid's parser says of `text`: the diagram type, or its complaint.
fn mermaid_parse(dir: &Path, text: &str) -> Result<String, String> {
    let out = pipe("node", &[dir.join("parse.mjs").as_os_str()], dir, text);
    if out.status.success() { Ok(text_of(&out.stdout)) } else { Err(text_of(&out.stderr)) }
}

fn text_of(bytes: &[u8]) -> String {
    text(bytes).trim().to_owned()
}

#[test]
fn mermaid_output_is_parsed_by_mermaid() {
    let Some(dir) = mermaid() else {
        eprintln!("skipped: node or mermaid is not installed (cd cli/tests/mermaid && npm ci)");
        return;
    };
    // The parser is live: a label with a raw quote is refused.
    assert!(mermaid_parse(&dir, "flowchart LR\n  n0[\"a \"b\" c\"]\n").is_err());
    let example = text(&agentc(&["graph", "examples/support-desk"], &repo()).stdout);
    assert_eq!(mermaid_parse(&dir, &example), Ok("flowchart-v2".to_owned()), "{example}");
    for case in DRAWN {
        let drawn = text(&graph_of(case, "mermaid", &[]).stdout);
        assert_eq!(mermaid_parse(&dir, &drawn), Ok("flowchart-v2".to_owned()), "{case}:\n{drawn}");
    }
    let odd = odd_names();
    let drawn = text(&agentc(&["graph", "."], odd.path()).stdout);
    assert!(drawn.contains("{{\"say#quot;hi#35;1#lt;b#gt;\\\"}}"), "{drawn}");
    assert_eq!(mermaid_parse(&dir, &drawn), Ok("flowchart-v2".to_owned()), "{drawn}");
}

#[test]
fn a_graph_too_big_for_mermaid_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // 101 skills, each routing to the next five on a status: 505 edges, none
    // of them a mistake.
    let statuses = ["success", "failure", "denied", "pending", "absent"];
    for i in 0..101 {
        let routes: String = (1..=5)
            .map(|k| format!("  - s{}: status={}\n", (i + k) % 101, statuses[k - 1]))
            .collect();
        let skill =
            format!("---\nname: s{i}\ndescription: Step {i}.\nroutes:\n{routes}---\nDo it.\n");
        write(&dir.path().join(format!("skills/s{i}/SKILL.md")), skill);
    }
    let out = agentc(&["graph", "."], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let warning = text(&out.stderr);
    assert!(
        warning.starts_with(
            "warning: Mermaid draws at most 500 edges and 50000 characters, and this graph has 505 edges"
        ),
        "{warning}"
    );
    assert!(warning.contains("`--agent NAME`") && warning.contains("`--format dot`"), "{warning}");
    if let Some(dir) = mermaid() {
        let refused = mermaid_parse(&dir, &text(&out.stdout)).unwrap_err();
        assert!(refused.contains("Edge limit exceeded"), "{refused}");
    }
    // DOT has no such bound, and the example is far below it.
    let out = agentc(&["graph", ".", "--format", "dot"], dir.path());
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
    let out = agentc(&["graph", "examples/support-desk"], &repo());
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
}

#[test]
fn unreachable_skills_dead_ends_and_routes_that_cannot_fire_are_drawn_apart() {
    let graph = json_of("code-unreachable-skill");
    assert_eq!(node(&graph, Some("triage"), "case-summary")["unreachable"], true);
    assert_eq!(node(&graph, Some("triage"), "classify-request")["unreachable"], false);

    let graph = json_of("code-routes-never-fire");
    let review = node(&graph, Some("billing"), "refund-review");
    assert_eq!(review["dead_end"], true);
    let unusable: Vec<&Value> =
        graph["edges"].as_array().unwrap().iter().filter(|e| e["usable"] == false).collect();
    assert_eq!(unusable.len(), 2);
    assert!(unusable.iter().all(|e| e["guard"].as_str().unwrap().starts_with("on issue_refund")));

    let out = graph_of("code-routes-never-fire", "mermaid", &[]);
    let mermaid = text(&out.stdout);
    // The edges after the start's are numbered from 1; refund-review's two are 3 and 4.
    assert!(mermaid.contains("\n  linkStyle 3,4 stroke:#cc0000"), "{mermaid}");
    assert!(mermaid.contains("\n  class n3 deadEnd\n"), "{mermaid}");

    let mermaid = text(&graph_of("code-unreachable-skill", "mermaid", &[]).stdout);
    let id = mermaid
        .lines()
        .map(str::trim_start)
        .find(|line| line.contains("\"case-summary\""))
        .and_then(|line| line.split(['[', '(']).next())
        .unwrap();
    let unreachable = mermaid
        .lines()
        .find_map(|line| line.strip_prefix("  class ")?.strip_suffix(" unreachable"))
        .unwrap_or_else(|| panic!("no unreachable class:\n{mermaid}"));
    assert!(unreachable.split(',').any(|n| n == id), "{id} not unreachable:\n{mermaid}");
}

#[test]
fn handoffs_and_subagent_skills_are_edges() {
    let graph = json_of("wild-layouts-accepted");
    let edges = graph["edges"].as_array().unwrap();
    let named = |i: &Value| {
        graph["nodes"][i.as_u64().unwrap() as usize]["name"].as_str().unwrap().to_owned()
    };
    let handoffs: Vec<(String, String)> = edges
        .iter()
        .filter(|e| e["kind"] == "handoff")
        .map(|e| (named(&e["from"]), named(&e["to"])))
        .collect();
    assert_eq!(handoffs, [("planner".to_owned(), "implementer".to_owned())]);
    let skills: Vec<(String, String)> = edges
        .iter()
        .filter(|e| e["kind"] == "skill")
        .map(|e| (named(&e["from"]), named(&e["to"])))
        .collect();
    assert_eq!(skills, [("release:release-manager".to_owned(), "tag-version".to_owned())]);
    assert_eq!(node(&graph, None, "planner")["kind"], "assistant");
}

#[test]
fn one_agent_is_drawn_alone() {
    let out = agentc(
        &["graph", "examples/support-desk", "--agent", "billing", "--format", "json"],
        &repo(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let graph: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(graph["groups"].as_array().unwrap().len(), 1);
    assert_eq!(graph["groups"][0]["agent"], "billing");
    assert!(graph["nodes"].as_array().unwrap().iter().all(|n| n["group"] == 0));

    let out = agentc(&["graph", "examples/support-desk", "--agent", "biling"], &repo());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "error: there is no agent `biling`; did you mean `billing`?"
    );
}

#[test]
fn a_project_with_errors_is_drawn_but_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("runbook.mmd");
    write(&output, "the previous picture\n");
    let case = fixture("code-routes-never-fire");
    let root = case.join("root").display().to_string();
    let registry = case.join("registry.yaml").display().to_string();
    let out = agentc(&["graph", &root, "--registry", &registry], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("flowchart LR\n"));
    assert!(text(&out.stderr).contains("error[routes-never-fire]"), "{}", text(&out.stderr));

    let out = agentc(&["graph", &root, "--registry", &registry, "-o", "runbook.mmd"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("`runbook.mmd` is not written"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&output).unwrap(), "the previous picture\n");
}

#[test]
fn a_written_graph_replaces_the_file_and_never_an_input() {
    let (_dir, root) = common::example_project();
    let out = agentc(&["graph", ".", "--format", "dot", "-o", "runbook.dot"], &root);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(root.join("runbook.dot")).unwrap();
    assert!(written.starts_with("digraph agents {\n"));

    let out = agentc(&["graph", ".", "-o", "agents/triage/AGENT.md"], &root);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("which this compile reads"), "{}", text(&out.stderr));
    assert!(
        std::fs::read_to_string(root.join("agents/triage/AGENT.md")).unwrap().starts_with("---\n")
    );

    // Diagnostics as JSON would share stdout with the picture.
    let out = agentc(&["graph", ".", "--message-format", "json"], &root);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).contains("\"code\":\"cannot-run\""), "{}", text(&out.stdout));
}

/// Names holding control characters (`common::control_names`) are drawn
/// escaped in each language's own way — Mermaid's entity codes, DOT's
/// escaped backslash (Graphviz would draw an entity as the raw character),
/// JSON's `\u` escapes — and both tools still accept the text.
#[test]
fn control_characters_are_drawn_escaped() {
    let dir = common::control_names();
    let drawn = |format: &str| {
        let out = agentc(&["graph", ".", "--format", format], dir.path());
        // The project has an error (the handoff); it is drawn all the same.
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let flowchart = drawn("mermaid");
    assert!(
        flowchart.starts_with(
            "flowchart LR\n  n0{{\"S1#27;]0;TITLE#7;#27;[2J#9;#155;#127;\"}}\n  n1{{\"pl#27;[2Jan\"}}\n"
        ),
        "{flowchart}"
    );
    let dot = drawn("dot");
    assert!(
        dot.contains(
            "\n  n0 [label=\"S1\\\\u{1b}]0;TITLE\\\\u{7}\\\\u{1b}[2J\\\\t\\\\u{9b}\\\\u{7f}\", shape=hexagon];\n  n1 [label=\"pl\\\\u{1b}[2Jan\", shape=hexagon];\n"
        ),
        "{dot}"
    );
    let json = drawn("json");
    assert!(
        json.contains("\"name\": \"S1\\u001b]0;TITLE\\u0007\\u001b[2J\\t\\u009b\\u007f\",\n"),
        "{json}"
    );
    for (format, out) in [("mermaid", &flowchart), ("dot", &dot), ("json", &json)] {
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{format}: {out:?}");
    }
    if graphviz().is_some() {
        let svg = text(&render(&dot));
        assert!(
            svg.contains(">S1\\u{1b}]0;TITLE\\u{7}\\u{1b}[2J\\t\\u{9b}\\u{7f}</text>"),
            "{svg}"
        );
        assert!(!svg.chars().any(|c| c.is_control() && c != '\n'), "{svg:?}");
    } else {
        eprintln!("skipped Graphviz: `dot` is not installed");
    }
    match mermaid() {
        Some(harness) => {
            assert_eq!(mermaid_parse(&harness, &flowchart), Ok("flowchart-v2".to_owned()))
        }
        None => eprintln!("skipped Mermaid: cd cli/tests/mermaid && npm ci"),
    }
}
