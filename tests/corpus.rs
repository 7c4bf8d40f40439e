//! The shared corpus of real agent files (`../shared/corpus/`, 578 files from
//! public repositories), arranged as one project the way each host lays its
//! files out, and checked with no flag.
//!
//! The snapshot holds the count of diagnostics by code and every error in
//! full, so a change in what agentc reports on real files is reviewed, never
//! silent. `docs/formats.md` says how each reported problem was checked
//! against its format's published rules.

mod common;
use common::copy_dir;
use std::path::{Path, PathBuf};

use agentc_cli::{Io, run};
use agentc_compiler::fs::RealFs;
use agentc_compiler::{Options, compile};

fn corpus() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(
        dir.join("README.md").is_file(),
        "the shared corpus is missing at {}; it lives beside the repository as shared/corpus",
        dir.display()
    );
    dir
}

/// The corpus as a project: Anthropic's skills as Claude Code skills,
/// VoltAgent's subagents (in their category folders) as Claude Code subagents,
/// each of wshobson's plugins as a Claude Code plugin (its manifest written,
/// as the copy holds only agent files), and spec-kit's Copilot agents.
fn arrange(project: &Path) {
    let corpus = corpus();
    copy_dir(&corpus.join("anthropics-skills/skills"), &project.join(".claude/skills"));
    copy_dir(&corpus.join("voltagent-subagents/categories"), &project.join(".claude/agents"));
    copy_dir(&corpus.join("spec-kit-agents/.github"), &project.join(".github"));
    for plugin in std::fs::read_dir(corpus.join("wshobson-agents/plugins")).unwrap() {
        let plugin = plugin.unwrap();
        let name = plugin.file_name().into_string().unwrap();
        let target = project.join("plugins").join(&name);
        copy_dir(&plugin.path(), &target);
        std::fs::create_dir_all(target.join(".claude-plugin")).unwrap();
        let manifest = format!("{{\"name\": \"{name}\"}}\n");
        std::fs::write(target.join(".claude-plugin/plugin.json"), manifest).unwrap();
    }
}

/// Counts of the corpus's definition files, by the rule each host uses.
fn definition_files(dir: &Path, skills: &mut usize, markdown: &mut usize) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            definition_files(&path, skills, markdown);
        } else if name == "SKILL.md" {
            *skills += 1;
        } else if name.ends_with(".md") && name != "README.md" && name != "AGENTS.md" {
            *markdown += 1;
        }
    }
}

#[test]
fn the_corpus_as_one_project() {
    let project = tempfile::tempdir().unwrap();
    arrange(project.path());

    // Every definition file is read, whatever its format.
    let compilation = compile(&RealFs, &Options::new(project.path())).unwrap();
    let (mut skills, mut agents) = (0, 0);
    definition_files(&corpus(), &mut skills, &mut agents);
    let unparsed = compilation
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "yaml-syntax" || d.code.as_str() == "bad-frontmatter")
        .count();
    assert_eq!(compilation.project.skills.len(), skills, "skills read");
    assert_eq!(compilation.project.assistants.len() + unparsed, agents, "agent files read");
    assert!(!compilation.diagnostics.iter().any(|d| d.code.as_str() == "stray-entry"));

    let args =
        ["agentc", "check", &project.path().display().to_string(), "--message-format", "json"];
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = run(
        args,
        &mut Io { stdout: &mut stdout, stderr: &mut stderr, color: false, progress: false },
    );
    // Paths are shown from the current folder; the project is a temporary one.
    let shown_from = format!("{}/", project.path().display());
    let mut counts = std::collections::BTreeMap::new();
    let mut errors = Vec::new();
    for line in String::from_utf8(stdout).unwrap().lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        if value["type"] != "diagnostic" {
            continue;
        }
        let file = value["file"].as_str().unwrap().replace(&shown_from, "");
        let key = format!(
            "{} ({})",
            value["code"].as_str().unwrap(),
            value["severity"].as_str().unwrap()
        );
        *counts.entry(key).or_insert(0) += 1;
        if value["severity"] == "error" {
            errors.push(format!(
                "{}:{} {}: {}",
                file,
                value["line"],
                value["code"].as_str().unwrap(),
                value["message"].as_str().unwrap()
            ));
        }
    }
    let mut report = format!("exit code: {code}\nskills: {skills}, agent files: {agents}\n\n");
    for (key, count) in &counts {
        report.push_str(&format!("{count:>4} {key}\n"));
    }
    report.push_str("\nerrors:\n");
    for error in &errors {
        report.push_str(&format!("{error}\n"));
    }
    insta::assert_snapshot!("corpus", report);
}
