//! A secret the `secret` rule finds is masked in every output and every
//! file agentc writes, whatever the rule's level: the lockfile, pictures,
//! budgets, suggestions in every message format.

use std::path::Path;

mod common;
use common::{agentc, text, write};

/// A GitHub token in gitleaks' format (made up).
const TOKEN: &str = "ghp_Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo";
/// Its part that is never shown (the first four characters are).
const HIDDEN: &str = "Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo";

/// A project whose skill quotes a token, a server whose address carries
/// credentials, and `secret` only a warning; with `named`, a skill named
/// with the token too (an error: no lockfile is written).
fn project(named: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path();
    write(
        &top.join("agentc.toml"),
        "root = \"agents\"\nworkspace = \".\"\n[lints]\nsecret = \"warn\"\n",
    );
    write(
        &top.join("agents/skills/billing/SKILL.md"),
        format!(
            "---\nname: billing\ndescription: Calls the API with {TOKEN}.\n---\nUse {TOKEN}.\n"
        ),
    );
    if named {
        write(
            &top.join("agents/skills/deploy/SKILL.md"),
            format!("---\nname: {TOKEN}\ndescription: Deploys.\n---\nDeploy.\n"),
        );
    }
    write(
        &top.join(".mcp.json"),
        r#"{"mcpServers": {"billing": {"type": "http", "url": "https://bot:s3cr3tpass@api.example.com/mcp?api_key=sk12345678&region=${REGION}"}}}"#,
    );
    dir
}

fn run(dir: &Path, args: &[&str]) -> String {
    let out = agentc(args, dir);
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

#[test]
fn no_output_shows_a_found_secret() {
    let dir = project(true);
    let surfaces: &[&[&str]] = &[
        &["check"],
        &["check", "--message-format", "json"],
        &["check", "--message-format", "github"],
        &["check", "--message-format", "sarif"],
        &["graph", "--format", "mermaid"],
        &["graph", "--format", "dot"],
        &["graph", "--format", "json"],
        &["budget"],
        &["budget", "--format", "json"],
    ];
    for args in surfaces {
        let said = run(dir.path(), args);
        assert!(!said.contains(HIDDEN), "agentc {}: {said}", args.join(" "));
        // Nor a name made from it, as a suggestion makes one.
        assert!(!said.to_lowercase().contains(&HIDDEN.to_lowercase()), "agentc {}", args.join(" "));
    }
    // The picture and the message are there, masked.
    assert!(run(dir.path(), &["graph", "--format", "json"]).contains("ghp_****"));
    assert!(run(dir.path(), &["check"]).contains("the skill name `ghp_****"));
}

/// A file named after a secret, whose other lines hold the secret's body
/// without its prefix: neither the path nor the lines shown carry it, in
/// any format, though only the token in `model` is what the rule finds.
#[test]
fn no_path_and_no_line_shown_carries_a_found_secret() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path();
    write(&top.join("agentc.toml"), "[lints]\nsecret = \"warn\"\n");
    write(
        &top.join(format!(".claude/agents/{TOKEN}.md")),
        format!("---\nname: Ghp {HIDDEN}\ndescription: d\nmodel: {TOKEN}\n---\nb\n"),
    );
    for format in ["human", "json", "github", "sarif"] {
        let said = run(top, &["check", "--message-format", format]);
        assert!(!said.contains(HIDDEN), "--message-format {format}: {said}");
        // The diagnostics are there, each at its masked file.
        assert!(said.contains("ghp_****"), "--message-format {format}: {said}");
    }
    let human = run(top, &["check"]);
    assert!(human.contains("name: Ghp ****"), "{human}");
}

#[test]
fn the_lockfile_holds_no_found_secret_and_no_credential_in_an_address() {
    let dir = project(false);
    let out = agentc(&["lock"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(dir.path().join("agents.lock"))
        .or_else(|_| std::fs::read_to_string(dir.path().join("agentc.lock")))
        .unwrap();
    assert!(!written.contains(HIDDEN), "{written}");
    assert!(written.contains(&format!("Calls the API with ghp_{}.", "*".repeat(HIDDEN.len()))));
    assert!(
        written.contains(
            "\"url\": \"https://**************@api.example.com/mcp?api_key=**********&region=${REGION}\""
        ),
        "{written}"
    );
    // Written again the same, and current.
    let check = agentc(&["lock", "--check"], dir.path());
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
}
