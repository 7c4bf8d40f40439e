//! Document links and go to definition on paths, through a real client:
//! relative Markdown links in each kind of Markdown file agentc reads, an
//! `agent.json`'s `entry_points`, and the paths of `agentc.toml`. Only a
//! path that leads to something inside the project is a link.

use std::path::Path;

use serde_json::{Value, json};

use super::agents::{range, text};
use super::client::{Client, doc, position, url};
use super::common;

/// The example, with a Markdown file of each kind linking somewhere: a
/// runbook skill and an `AGENT.md` in the root; a Claude Code skill with a
/// bundled file, a subagent, a Copilot agent, a prompt file and `CLAUDE.md`
/// in the workspace.
fn project() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, root) = common::example_project();
    let append = |path: &str, more: &str| {
        let path = root.join(path);
        let text = std::fs::read_to_string(&path).unwrap();
        common::write(&path, format!("{text}{more}"));
    };
    append(
        "agents/skills/intake/SKILL.md",
        "\nFields: [the fields](references/fields.md), [none](references/none.md), [out](../../../README.md).\n",
    );
    common::write(&root.join("agents/skills/intake/references/fields.md"), "The fields.\n");
    append("agents/triage/AGENT.md", "\nFirst: [intake](../skills/intake/SKILL.md).\n");
    for (path, text) in [
        (
            ".claude/skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: Fills PDF forms.\n---\nSee [the forms](references/forms.md), not [that](out/secret.md).\n",
        ),
        (
            ".claude/skills/pdf/references/forms.md",
            "Start from [an example](examples/w9.md) or [this one](../examples/w9.md#top).\n",
        ),
        (".claude/skills/pdf/examples/w9.md", "A W-9.\n"),
        ("docs/review.md", "# Review\n"),
        (
            ".claude/agents/reviewer.md",
            "---\nname: reviewer\ndescription: Reviews.\n---\nFollow [the guide](../../docs/review.md).\n",
        ),
        (
            ".github/agents/planner.agent.md",
            "---\ndescription: Plans.\n---\nRead [the guide](../../docs/review.md).\n",
        ),
        (
            ".github/prompts/ship.prompt.md",
            "---\ndescription: Ships.\n---\nSee [the guide](../../docs/review.md).\n",
        ),
        ("CLAUDE.md", "# Notes\nSee [the guide](docs/review.md) and [gone](docs/gone.md).\n"),
    ] {
        common::write(&root.join(path), text);
    }
    // A file outside the project, reached through a link in it: never a link.
    let outside = root.parent().unwrap().join("outside");
    common::write(&outside.join("secret.md"), "Secret.\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, root.join(".claude/skills/pdf/out")).unwrap();
    (dir, root)
}

fn links(client: &mut Client, root: &Path, path: &str) -> Value {
    let uri = url(&root.join(path));
    client.request("textDocument/documentLink", json!({ "textDocument": { "uri": uri } }))
}

fn link(range: Value, target: &Path) -> Value {
    json!({ "range": range, "target": url(target) })
}

#[test]
fn links_in_every_markdown_file_and_manifest() {
    let (_dir, root) = project();
    let mut client = Client::start(&root);
    let file = |path: &str| root.join(path);

    // agentc's runbook skill: the file there, not the missing one, nor one
    // out of the root; and the `AGENT.md`.
    let skill = "agents/skills/intake/SKILL.md";
    let skill_text = text(&root, skill);
    assert_eq!(
        links(&mut client, &root, skill),
        json!([link(
            range(&skill_text, "references/fields.md", 0),
            &file("agents/skills/intake/references/fields.md")
        )])
    );
    let agent = "agents/triage/AGENT.md";
    assert_eq!(
        links(&mut client, &root, agent),
        json!([link(
            range(&text(&root, agent), "../skills/intake/SKILL.md", 0),
            &file("agents/skills/intake/SKILL.md")
        )])
    );

    // An `agent.json`'s entry points.
    let package = "agents/escalations/agent.json";
    let package_text = text(&root, package);
    let entries: Vec<Value> = ["system.md", "boundaries.md", "conventions.md", "handoff.md"]
        .iter()
        .map(|name| {
            link(range(&package_text, name, 0), &file(&format!("agents/escalations/{name}")))
        })
        .collect();
    assert_eq!(links(&mut client, &root, package), json!(entries));

    // A Claude Code skill, and the file it bundles, whose link is written
    // from the skill's folder and from its own.
    let pdf = ".claude/skills/pdf/SKILL.md";
    assert_eq!(
        links(&mut client, &root, pdf),
        json!([link(
            range(&text(&root, pdf), "references/forms.md", 0),
            &file(".claude/skills/pdf/references/forms.md")
        )])
    );
    let forms = ".claude/skills/pdf/references/forms.md";
    let forms_text = text(&root, forms);
    let w9 = file(".claude/skills/pdf/examples/w9.md");
    assert_eq!(
        links(&mut client, &root, forms),
        json!([
            link(range(&forms_text, "examples/w9.md", 0), &w9),
            link(range(&forms_text, "../examples/w9.md#top", 0), &w9),
        ])
    );

    // A subagent, a Copilot agent, a prompt file and a memory file.
    let guide = file("docs/review.md");
    for (path, written) in [
        (".claude/agents/reviewer.md", "../../docs/review.md"),
        (".github/agents/planner.agent.md", "../../docs/review.md"),
        (".github/prompts/ship.prompt.md", "../../docs/review.md"),
        ("CLAUDE.md", "docs/review.md"),
    ] {
        assert_eq!(
            links(&mut client, &root, path),
            json!([link(range(&text(&root, path), written, 0), &guide)]),
            "{path}"
        );
    }

    // Go to definition on a link: the file, from its start.
    let start =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } });
    let at = position(&forms_text, "examples/w9.md", 0);
    let definition = client.request("textDocument/definition", doc(&url(&file(forms)), at));
    assert_eq!(definition, json!({ "uri": url(&w9), "range": start }));
    let at = position(&package_text, "handoff.md", 0);
    let definition = client.request("textDocument/definition", doc(&url(&file(package)), at));
    assert_eq!(
        definition,
        json!({ "uri": url(&file("agents/escalations/handoff.md")), "range": start })
    );
    // A link that leads nowhere leads nowhere.
    let at = position(&skill_text, "references/none.md", 0);
    let definition = client.request("textDocument/definition", doc(&url(&file(skill)), at));
    assert_eq!(definition, Value::Null);
    client.shutdown();
}

/// `agentc.toml`: its root and workspace folders, registry and lockfile;
/// definition on a file's path opens it.
#[test]
fn links_in_the_project_file() {
    let (_dir, root) = project();
    // The lockfile `agentc lock` would write; a link only once it is there.
    std::fs::write(root.join("agentc.lock"), "").unwrap();
    let mut client = Client::start(&root);
    let toml = root.join("agentc.toml");
    let toml_text = std::fs::read_to_string(&toml).unwrap();
    let uri = url(&toml);
    // The project is compiled before the file is asked about.
    client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": url(&root.join("agents/skills/intake/SKILL.md")) } }),
    );
    let found =
        client.request("textDocument/documentLink", json!({ "textDocument": { "uri": uri } }));
    let mut dot = range(&toml_text, "\".\"", 0);
    for end in ["start", "end"] {
        dot[end]["character"] = json!(dot[end]["character"].as_u64().unwrap() + 1);
    }
    dot["end"]["character"] = json!(dot["end"]["character"].as_u64().unwrap() - 2);
    assert_eq!(
        found,
        json!([
            link(range(&toml_text, "agents", 0), &root.join("agents")),
            link(dot, &root),
            link(range(&toml_text, "registry.yaml", 0), &root.join("registry.yaml")),
            link(range(&toml_text, "agentc.lock", 0), &root.join("agentc.lock")),
        ])
    );
    let at = position(&toml_text, "registry.yaml", 0);
    let definition = client.request("textDocument/definition", doc(&uri, at));
    assert_eq!(
        definition,
        json!({ "uri": url(&root.join("registry.yaml")), "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } } })
    );
    // A path not there is no link, as typed in the editor.
    client.open(&uri, &toml_text.replace("registry.yaml", "registry.yml"));
    let found =
        client.request("textDocument/documentLink", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(found.as_array().unwrap().len(), 3, "{found}");
    client.shutdown();
}
