//! `agentc mcp` under the official Python SDK's client (PyPI `mcp`, pinned
//! in `.ci/run`): `cli/tests/mcp/client.py` starts the server over stdio in a
//! project with a planted mistake, initializes, lists the tools, checks the
//! project (the exact code and line) and a text not saved yet, lists the
//! fixes, explains a code and gets a schema. Where the SDK is not installed
//! the test is skipped, except in CI (`CI` set), where that fails it.

mod common;
use common::{text, write};

use std::path::Path;
use std::process::Command;

/// Whether `python3` imports the SDK's client; in CI its absence fails.
fn sdk_installed() -> bool {
    let found = Command::new("python3")
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .is_ok_and(|out| out.status.success());
    assert!(
        found || std::env::var_os("CI").is_none(),
        "the MCP Python SDK is missing in CI (.ci/run installs it: pip install mcp)"
    );
    found
}

#[test]
fn the_python_sdk_client_checks_a_project_and_explains_a_code() {
    if !sdk_installed() {
        eprintln!("skipped: the MCP Python SDK is not installed (pip install mcp)");
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let project = temp.path();
    std::fs::create_dir(project.join(".git")).unwrap();
    write(
        &project.join(".claude/agents/reviewer.md"),
        "---\nname: reviewer\ndescription: Reviews a change for bugs before it is merged.\n\
         tools: Read, Grpe\n---\nReview the diff. Report each bug with its file and line.\n",
    );
    let client = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py");
    let out = Command::new("python3")
        .arg(&client)
        .arg(env!("CARGO_BIN_EXE_agentc"))
        .arg(project)
        .current_dir(project)
        .output()
        .expect("python3 runs");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "the client failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("agentc mcp: passed"), "{stdout}\n{stderr}");
}

#[test]
fn mcp_help_says_how_to_register_it() {
    let out = common::agentc(&["mcp", "--help"], Path::new("."));
    let help = text(&out.stdout);
    assert!(out.status.success(), "{help}");
    for host in ["claude mcp add agentc -- agentc mcp", ".vscode/mcp.json", "[mcp_servers.agentc]"]
    {
        assert!(help.contains(host), "`agentc mcp --help` names {host}:\n{help}");
    }
}

/// The README's registrations (each code block after `<!-- mcp: PATH -->`),
/// written at their paths in a repository: agentc reads each as its host's
/// file, and finds nothing to report, pedantic group included.
#[test]
fn the_readme_registrations_are_files_their_hosts_read() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let temp = tempfile::tempdir().unwrap();
    std::fs::create_dir(temp.path().join(".git")).unwrap();
    let mut written = Vec::new();
    for (at, _) in readme.match_indices("<!-- mcp: ") {
        let rest = &readme[at + "<!-- mcp: ".len()..];
        let (path, rest) = rest.split_once(" -->\n```").unwrap();
        let (_language, rest) = rest.split_once('\n').unwrap();
        let (block, _) = rest.split_once("```").unwrap();
        write(&temp.path().join(path), block);
        written.push(path);
    }
    assert_eq!(written, [".mcp.json", ".vscode/mcp.json", ".codex/config.toml"]);
    let out = common::agentc(&["check", "--verbose", "--pedantic"], temp.path());
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for found in
        ["claude         in .mcp.json", "copilot        in .vscode/", "codex          in .codex/"]
    {
        assert!(stderr.contains(found), "agentc reads {found}:\n{stderr}");
    }
    assert!(stderr.contains("no problems found"), "{stderr}");
}
