//! Renames of Copilot agents and Claude Code subagents through the
//! protocol, each applied, compiled and compared with the same rename done
//! by hand ([`assert_rename`]).

use super::rename::{assert_rename, move_folder, refused, replace};
use super::*;

/// A lead Copilot agent naming, in `agents:` and handoffs, an agent with a
/// `name` (`SWE`), one without (`docs`) and a Claude Code subagent; two
/// prompt files run with an agent, by its name and by its file's name in
/// another case.
pub(super) fn team() -> MemFs {
    let mut fs = MemFs::new();
    for (path, text) in [
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            ".github/agents/swe-subagent.agent.md",
            "---\nname: 'SWE'\ndescription: Builds the feature.\n---\nBuild it.\n",
        ),
        (".github/agents/docs.agent.md", "---\ndescription: Writes the docs.\n---\nWrite them.\n"),
        (
            ".github/agents/lead.agent.md",
            "---\nname: Lead\ndescription: Leads the work.\ntools: ['agent']\nagents: ['SWE', docs, reviewer]\nhandoffs:\n  - label: Build\n    agent: SWE\n    prompt: Build it.\n  - label: Write\n    agent: docs\n  - label: Plan\n    agent: plan\n---\nLead.\n",
        ),
        (
            ".claude/agents/reviewer.md",
            "---\nname: reviewer\ndescription: Reviews the change.\n---\nReview it.\n",
        ),
        (".github/prompts/ship.prompt.md", "---\ndescription: Ships it.\nagent: swe\n---\nShip.\n"),
        (
            ".github/prompts/write.prompt.md",
            "---\ndescription: Writes it.\nagent: Docs\n---\nWrite.\n",
        ),
    ] {
        fs.insert(path, text).unwrap();
    }
    fs
}

const LEAD: &str = ".github/agents/lead.agent.md";

#[test]
fn the_team_compiles_clean() {
    let fs = team();
    let compiled = crate::lsp::compile_folder(&fs, fs.root(), None);
    assert_eq!(compiled.diagnostics, [], "{:#?}", compiled.diagnostics);
    assert_eq!(compiled.project.assistants.len(), 4);
    assert_eq!(compiled.project.configs.len(), 2);
}

/// A Copilot agent with a `name`: the `name`, the `agents:` entry, the
/// handoff and the prompt naming it (in another case) are renamed, from any
/// of them.
#[test]
fn a_copilot_agent_renamed_by_its_name() {
    let by_hand = |fs: &mut MemFs| {
        replace(fs, ".github/agents/swe-subagent.agent.md", "'SWE'", "'Builder'");
        replace(fs, LEAD, "['SWE',", "['Builder',");
        replace(fs, LEAD, "agent: SWE", "agent: Builder");
        replace(fs, ".github/prompts/ship.prompt.md", "agent: swe", "agent: Builder");
    };
    for from in [
        (LEAD, "SWE", 0),
        (LEAD, "SWE", 1),
        (".github/agents/swe-subagent.agent.md", "SWE", 0),
        (".github/prompts/ship.prompt.md", "swe", 0),
    ] {
        let edit = assert_rename(team(), from, "Builder", by_hand);
        assert!(edit["changes"].is_object(), "no file moves: {edit}");
    }
}

/// A Copilot agent without `name` is its file's name: the file is renamed,
/// and every use of the name with it.
#[test]
fn a_copilot_agent_named_by_its_file_is_renamed_by_moving_it() {
    let edit = assert_rename(team(), (LEAD, "docs", 0), "writer", |fs| {
        replace(fs, LEAD, " docs,", " writer,");
        replace(fs, LEAD, "agent: docs", "agent: writer");
        replace(fs, ".github/prompts/write.prompt.md", "agent: Docs", "agent: writer");
        move_folder(fs, ".github/agents/docs.agent.md", ".github/agents/writer.agent.md");
    });
    let operations = edit["documentChanges"].as_array().unwrap();
    assert_eq!(
        operations.last().unwrap(),
        &json!({
            "kind": "rename",
            "oldUri": "file:///.github/agents/docs.agent.md",
            "newUri": "file:///.github/agents/writer.agent.md",
        })
    );
}

/// A subagent VS Code reads as a custom agent: its `name` and the entry.
#[test]
fn a_claude_subagent_named_by_a_copilot_agent_is_renamed() {
    for from in [(LEAD, "reviewer", 0), (".claude/agents/reviewer.md", "reviewer", 0)] {
        assert_rename(team(), from, "critic", |fs| {
            replace(fs, LEAD, "reviewer]", "critic]");
            replace(fs, ".claude/agents/reviewer.md", "name: reviewer", "name: critic");
        });
    }
}

/// A name already taken, a built-in agent, a name YAML would not read as
/// itself, a subagent name Claude Code refuses, and a file rename the editor
/// cannot make are each refused, saying why.
#[test]
fn an_agent_rename_that_would_change_the_meaning_is_refused() {
    let mut client = Client::on(team());
    client.initialize();
    for (at, new_name, why) in [
        ((LEAD, "SWE", 0), "docs", "an agent named `docs` is already defined"),
        ((LEAD, "SWE", 0), "lead", "an agent named `lead` is already defined"),
        ((LEAD, "SWE", 0), "Plan", "`Plan` is one of VS Code's built-in agents"),
        ((LEAD, "SWE", 0), "Review: PR", "cannot be written as a plain name"),
        ((LEAD, "SWE", 0), "true", "cannot be written as a plain name"),
        ((LEAD, "reviewer", 0), "Critic", "is not a subagent name"),
    ] {
        let message = refused(&mut client, at, new_name);
        assert!(message.contains(why), "{new_name}: {message}");
    }

    let mut client = Client::on(team());
    let params = json!({ "processId": null, "rootUri": "file:///", "capabilities": {} });
    client.request("initialize", params);
    let message = refused(&mut client, (LEAD, "docs", 0), "writer");
    assert!(message.contains("named by its file alone"), "{message}");
}

/// A built-in agent and a missing one are no agent of the project: nothing
/// to rename there.
#[test]
fn a_built_in_agent_is_not_renamed() {
    let mut client = Client::on(team());
    client.initialize();
    let at = position(&client.disk.text(LEAD), "plan", 0);
    let params = json!({ "textDocument": { "uri": uri(LEAD) }, "position": at });
    let prepared = client.request("textDocument/prepareRename", params);
    assert_eq!(prepared["result"], Value::Null);
}

/// The server says it answers document links and workspace symbols.
#[test]
fn links_and_workspace_symbols_are_advertised() {
    let mut client = Client::on(team());
    let init = client.initialize();
    let caps = &init["result"]["capabilities"];
    assert_eq!(caps["documentLinkProvider"], json!({ "resolveProvider": false }));
    assert_eq!(caps["workspaceSymbolProvider"], true);
}
