//! `workspace/symbol` through a real client: one project holding each kind
//! of named thing — agentc's skill, tool and agent, a Claude Code skill,
//! subagent and command, a Copilot agent — found by what is typed.

use serde_json::{Value, json};

use super::client::{Client, url};
use super::common;

#[test]
fn workspace_symbols_of_every_dialect() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let files = [
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            "agents/skills/refund/SKILL.md",
            "---\nname: refund\ndescription: Refund an order.\ntools: [issue_refund]\n---\nRefund it.\n",
        ),
        ("agents/tools/issue_refund/manifest.json", r#"{"description": "Refund an order."}"#),
        (
            "agents/billing/AGENT.md",
            "---\ndescription: Bills.\ntools: [issue_refund]\nskills:\n  - refund\nstart: refund\n---\nBill.\n",
        ),
        (
            ".claude/skills/refund-policy/SKILL.md",
            "---\nname: refund-policy\ndescription: The refund policy.\n---\nPolicy.\n",
        ),
        (
            ".claude/agents/refund-reviewer.md",
            "---\nname: refund-reviewer\ndescription: Reviews refunds.\n---\nReview.\n",
        ),
        (".claude/commands/refund.md", "---\ndescription: Start a refund.\n---\nRefund.\n"),
        (
            ".github/agents/refunds.agent.md",
            "---\nname: Refunds\ndescription: Handles refunds.\n---\nHandle.\n",
        ),
    ];
    for (path, text) in files {
        common::write(&root.join(path), text);
    }
    let mut client = Client::start(&root);
    let caps = client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": url(&root.join("agents/skills/refund/SKILL.md")) } }),
    );
    assert_eq!(caps[0]["name"], "name", "the project is compiled: {caps}");

    // Each symbol: its name, kind, container, and where its name is written
    // (line, first and last column), or the start of its file.
    let symbol = |name: &str, kind: u64, container: &str, path: &str, line: u64, from: u64| {
        let to = if from == 0 && line == 0 { 0 } else { from + name.len() as u64 };
        json!({
            "name": name,
            "kind": kind,
            "containerName": container,
            "location": {
                "uri": url(&root.join(path)),
                "range": {
                    "start": { "line": line, "character": from },
                    "end": { "line": line, "character": to },
                },
            },
        })
    };
    let query = |client: &mut Client, query: &str| -> Value {
        client.request("workspace/symbol", json!({ "query": query }))
    };
    // Whole names first, then names starting with it, then a word of them,
    // shorter first; ignoring case.
    assert_eq!(
        query(&mut client, "Refund"),
        json!([
            symbol("refund", 6, "claude-command", ".claude/commands/refund.md", 0, 0),
            symbol("refund", 2, "skill", "agents/skills/refund/SKILL.md", 1, 6),
            symbol("Refunds", 5, "copilot-agent", ".github/agents/refunds.agent.md", 1, 6),
            symbol(
                "refund-policy",
                2,
                "claude-skill",
                ".claude/skills/refund-policy/SKILL.md",
                1,
                6
            ),
            symbol(
                "refund-reviewer",
                5,
                "claude-subagent",
                ".claude/agents/refund-reviewer.md",
                1,
                6
            ),
            symbol("issue_refund", 12, "tool", "agents/tools/issue_refund/manifest.json", 0, 0),
        ])
    );
    // Letters in order, anywhere in the name.
    assert_eq!(
        query(&mut client, "rfrv"),
        json!([symbol(
            "refund-reviewer",
            5,
            "claude-subagent",
            ".claude/agents/refund-reviewer.md",
            1,
            6
        )])
    );
    assert_eq!(
        query(&mut client, "BILLING"),
        json!([symbol("billing", 5, "agent-md", "agents/billing/AGENT.md", 0, 0)])
    );
    assert_eq!(query(&mut client, "nothing-like-it"), json!([]));
    let all = query(&mut client, "");
    let names: Vec<&str> =
        all.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "refund",
            "refund",
            "Refunds",
            "billing",
            "issue_refund",
            "refund-policy",
            "refund-reviewer"
        ]
    );
    client.shutdown();
}

/// Many skills: the answer is capped at the best 128, in a stable order.
#[test]
fn workspace_symbols_are_capped_at_the_best_matches() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::write(&root.join(".git/HEAD"), "ref: refs/heads/main\n");
    for i in 0..300 {
        let name = format!("skill-{i:03}");
        common::write(
            &root.join(format!(".claude/skills/{name}/SKILL.md")),
            format!("---\nname: {name}\ndescription: Skill {i}.\n---\nDo {i}.\n"),
        );
    }
    let mut client = Client::start(&root);
    let any = url(&root.join(".claude/skills/skill-000/SKILL.md"));
    client.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": any } }));
    let found = client.request("workspace/symbol", json!({ "query": "skill" }));
    let names: Vec<&str> =
        found.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    let expected: Vec<String> = (0..128).map(|i| format!("skill-{i:03}")).collect();
    assert_eq!(names, expected);
    // The names starting with it, then those holding its letters in order.
    let found = client.request("workspace/symbol", json!({ "query": "skill-2" }));
    let names: Vec<&str> =
        found.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    let starting: Vec<String> = (200..300).map(|i| format!("skill-{i}")).collect();
    assert_eq!(names[..100], starting);
    assert_eq!(names[100..103], ["skill-002", "skill-012", "skill-020"]);
    assert_eq!(names.len(), 128);
    client.shutdown();
}

/// What the server answers quotes the files, and a secret the `secret` rule
/// found in them is masked in every answer: symbols, hover, completion.
#[test]
fn no_answer_shows_a_found_secret() {
    let hidden = "Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo";
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let skill = format!(
        "---\nname: ghp_{hidden}\ndescription: Calls the API with ghp_{hidden}.\n---\nUse it.\n"
    );
    let agent = format!(
        "---\ndescription: Bills.\nskills:\n  - ghp_{hidden}\nstart: ghp_{hidden}\n---\nBill.\n"
    );
    common::write(&root.join(".git/HEAD"), "ref: refs/heads/main\n");
    common::write(&root.join("agents/skills/deploy/SKILL.md"), &skill);
    common::write(&root.join("agents/billing/AGENT.md"), &agent);
    let mut client = Client::start(&root);
    let skill_uri = url(&root.join("agents/skills/deploy/SKILL.md"));
    let agent_uri = url(&root.join("agents/billing/AGENT.md"));
    let answers = [
        client.request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": skill_uri } }),
        ),
        client.request("workspace/symbol", json!({ "query": "ghp" })),
        client.request(
            "textDocument/hover",
            super::client::doc(&agent_uri, super::client::position(&agent, "ghp_", 0)),
        ),
        client.request(
            "textDocument/completion",
            super::client::doc(&agent_uri, super::client::position(&agent, "ghp_", 1)),
        ),
    ];
    for answer in &answers {
        assert!(!answer.to_string().contains(hidden), "{answer}");
    }
    // The answers are there, with the secret masked.
    assert!(answers[0].to_string().contains("ghp_****"), "{}", answers[0]);
    assert!(answers[1].to_string().contains("ghp_****"), "{}", answers[1]);
    client.shutdown();
}
