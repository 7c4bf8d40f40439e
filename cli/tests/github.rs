//! `--message-format github` as GitHub reads it: each line is parsed as the
//! Actions runner parses a workflow command and issued again by GitHub's
//! own `@actions/core` (`cli/tests/github/`, installed by `.ci/run`);
//! what comes out must be what agentc wrote, byte for byte — paths with
//! commas, colons and percent signs, multi-line messages and all.

mod common;

use std::path::Path;

use common::{agentc, pipe, text, write};

/// The folder with `@actions/core` installed, when it is (CI installs it).
fn toolkit() -> Option<std::path::PathBuf> {
    common::node_harness("github", "@actions/core")
}

/// `lines` after the runner's parse and @actions/core's reissue.
fn reissued(toolkit: &Path, lines: &str) -> String {
    let out = pipe("node", &[toolkit.join("reissue.mjs").as_os_str()], toolkit, lines);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn actions_core_writes_the_same_commands() {
    let Some(toolkit) = toolkit() else {
        eprintln!(
            "skipped: node or @actions/core is not installed (cd cli/tests/github && npm ci)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // A folder name with every character a property value escapes, a skill
    // with a mistake whose message has help on a line of its own, and a
    // duplicate whose message names the other definition.
    let odd = "agents/skills/odd,dir:50%/SKILL.md";
    write(
        &dir.path().join(odd),
        "---\nname: billing\ndescription: Billing 100% of the time.\ntools: lookup_ordr\n---\nAnswer.\n",
    );
    write(
        &dir.path().join("agents/skills/billing/SKILL.md"),
        "---\nname: billing\ndescription: Billing questions.\n---\nAnswer: quickly.\r\n",
    );
    write(
        &dir.path().join("agents/skills/refunds/SKILL.md"),
        "---\nname: refunds\ndescription: Refunds.\ntools: lookup_ordr\n---\nRefund.\n",
    );
    write(
        &dir.path().join("agents/tools/lookup_order/manifest.json"),
        r#"{ "name": "lookup_order", "description": "Look an order up." }"#,
    );
    let out = agentc(&["check", "--message-format", "github"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let ours = text(&out.stdout);
    assert!(ours.lines().count() >= 3, "{ours}");
    for escaped in ["%2C", "%3A", "%25", "%0A"] {
        assert!(ours.contains(escaped), "the case no longer needs {escaped}:\n{ours}");
    }
    assert_eq!(reissued(&toolkit, &ours), ours);

    let out = agentc(&["check", "missing,dir:50%", "--message-format", "github"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let ours = text(&out.stdout);
    assert!(ours.starts_with("::error title=agentc cannot-run::"), "{ours}");
    assert_eq!(reissued(&toolkit, &ours), ours);
}

/// Names and paths holding control characters (`common::control_names`) are
/// written escaped as the human report shows them (`\u{1b}`): an annotation
/// cannot retitle or clear the terminal of whoever reads the log. The line
/// breaks left are the message's own, which @actions/core still escapes the
/// same way.
#[test]
fn control_characters_reach_no_annotation_raw() {
    let dir = common::control_names();
    let out = agentc(&["check", "--message-format", "github"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let ours = text(&out.stdout);
    assert_eq!(
        ours,
        "::warning title=agentc bad-name,file=.claude/agents/review/reviewer.md,line=2,endLine=2,col=7,\
         endColumn=40::the subagent name `S1\\u{1b}]0;TITLE\\u{7}\\u{1b}[2J\\t\\u{9b}\\u{7f}` is \
         not lowercase letters, digits and hyphens%0Ahelp: Claude Code's documentation asks for \
         lowercase letters and hyphens, e.g. `s1-0-title-2j`; Claude Code loads this \
         subagent all the same\n\
         ::error title=agentc unknown-route-target,file=.github/agents/pl\\u{1b}[2Jan.agent.md,\
         line=5,endLine=5,col=12,endColumn=45::the handoff leads to \
         `S1\\u{1b}]0;TITLE\\u{7}\\u{1b}[2J\\t\\u{9b}\\u{7f}`, which is not a Copilot agent of \
         this project%0Ahelp: an agent is named by its `name`, or by its file (`<name>.agent.md`) \
         when it has none; the agents here \
         are `pl\\u{1b}[2Jan`\n"
    );
    let Some(toolkit) = toolkit() else {
        eprintln!(
            "skipped the reissue: node or @actions/core is not installed (cd cli/tests/github && npm ci)"
        );
        return;
    };
    assert_eq!(reissued(&toolkit, &ours), ours);
}
