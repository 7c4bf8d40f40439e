//! The tools' work, without the protocol: a real project on disk, checked
//! whole, by path and with text laid over a path; requests that leave the
//! project refused.

use std::path::Path;

use agentc_mcp::project::{self, Project};

const REVIEWER: &str = "---\nname: reviewer\ndescription: Reviews a change for bugs before it is \
                        merged.\ntools: Read, Grpe\n---\nReview the diff.\n";

const CLEAN: &str = "---\nname: reviewer\ndescription: Reviews a change for bugs before it is \
                     merged.\ntools: Read, Grep\n---\nReview the diff.\n";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A repository with a subagent that names a tool Claude Code does not have.
fn repository() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    std::fs::create_dir(temp.path().join(".git")).unwrap();
    write(&temp.path().join(".claude/agents/reviewer.md"), REVIEWER);
    write(&temp.path().join("README.md"), "# A project\n");
    temp
}

#[test]
fn check_reports_the_planted_mistake_as_the_json_output_does() {
    let repo = repository();
    let project = Project::new(repo.path()).unwrap();
    for path in [None, Some(".claude"), Some(".claude/agents/reviewer.md"), Some(".")] {
        let checked = project.check(path, None).unwrap();
        assert_eq!(checked.summary.warnings, 1, "{path:?}: {checked:?}");
        let found = &checked.diagnostics[0];
        assert_eq!(found.code, "unknown-tool");
        assert_eq!(found.file.as_deref(), Some(".claude/agents/reviewer.md"));
        assert_eq!((found.line, found.column), (Some(4), Some(14)));
        assert_eq!(
            found.help.as_deref(),
            Some("did you mean `Grep`? tool names are case-sensitive")
        );
    }
}

#[test]
fn a_folder_without_the_mistake_reports_nothing() {
    let repo = repository();
    write(&repo.path().join("docs/guide.md"), "# Guide\n");
    let project = Project::new(repo.path()).unwrap();
    let checked = project.check(Some("docs"), None).unwrap();
    assert!(checked.diagnostics.is_empty(), "{checked:?}");
}

#[test]
fn fixes_are_the_edits_check_fix_makes_and_nothing_is_written() {
    let repo = repository();
    let project = Project::new(repo.path()).unwrap();
    let fixes = project.fixes(None, None).unwrap().fixes;
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    assert_eq!(fixes[0].code, "unknown-tool");
    let edit = &fixes[0].fix.edits[0];
    assert_eq!(edit.file, ".claude/agents/reviewer.md");
    assert_eq!((edit.line, edit.column, edit.end_column), (Some(4), Some(14), Some(18)));
    assert_eq!(edit.replacement, "Grep");
    assert_eq!(&REVIEWER[edit.start..edit.end], "Grpe");
    let on_disk = std::fs::read_to_string(repo.path().join(".claude/agents/reviewer.md")).unwrap();
    assert_eq!(on_disk, REVIEWER, "nothing is written");
}

#[test]
fn text_is_checked_as_the_file_at_its_path_saved_or_not() {
    let repo = repository();
    let project = Project::new(repo.path()).unwrap();
    // Over the file on disk: its text there is not read.
    let checked = project.check(Some(".claude/agents/reviewer.md"), Some(CLEAN)).unwrap();
    assert!(checked.diagnostics.is_empty(), "{checked:?}");
    // A file not written yet, in folders not made yet, with the project around it.
    let skill =
        "---\nname: deploy\ndescription: Deploys the service.\nallowed_tools: Bash\n---\nDeploy.\n";
    let path = ".claude/skills/deploy/SKILL.md";
    let checked = project.check(Some(path), Some(skill)).unwrap();
    let codes: Vec<_> = checked.diagnostics.iter().map(|d| (&*d.code, d.line)).collect();
    assert_eq!(codes, [("unknown-field", Some(4))], "{checked:?}");
    assert_eq!(checked.diagnostics[0].file.as_deref(), Some(path));
    assert!(!repo.path().join(".claude/skills").exists(), "nothing is written");
    let fixes = project.fixes(Some(path), Some(skill)).unwrap().fixes;
    assert_eq!(fixes[0].fix.edits[0].replacement, "allowed-tools");
    // The rest of the project is not reported on.
    assert!(checked.diagnostics.iter().all(|d| d.file.as_deref() == Some(path)));
}

#[test]
fn a_file_no_host_reads_is_an_error_not_an_empty_report() {
    let repo = repository();
    let project = Project::new(repo.path()).unwrap();
    let err = project.check(Some("README.md"), None).unwrap_err();
    assert!(err.contains("is not a file a host agentc knows reads"), "{err}");
    let err = project.check(Some(".claude/agent/reviewer.md"), Some(CLEAN)).unwrap_err();
    assert!(err.contains("is not a file a host agentc knows reads"), "{err}");
    let err = project.check(Some("missing.md"), None).unwrap_err();
    assert!(err.contains("does not exist"), "{err}");
    let err = project.check(None, Some(CLEAN)).unwrap_err();
    assert!(err.contains("give `path` too"), "{err}");
    let err = project.check(Some(".claude"), Some(CLEAN)).unwrap_err();
    assert!(err.contains("is not a file"), "{err}");
}

#[test]
fn paths_outside_the_project_are_refused_before_anything_there_is_read() {
    let repo = repository();
    let outside = tempfile::tempdir().unwrap();
    write(&outside.path().join(".claude/agents/secret.md"), REVIEWER);
    let project = Project::new(repo.path()).unwrap();
    let absolute = outside.path().join(".claude/agents/secret.md");
    let escape = format!("../{}/x.md", outside.path().file_name().unwrap().to_string_lossy());
    for path in [absolute.to_str().unwrap(), "../x.md", &escape, "/etc/passwd"] {
        let err = project.check(Some(path), None).unwrap_err();
        assert!(err.contains("is outside the project"), "{path}: {err}");
        let err = project.check(Some(path), Some(CLEAN)).unwrap_err();
        assert!(err.contains("is outside the project"), "{path}: {err}");
        let err = project.fixes(Some(path), None).unwrap_err();
        assert!(err.contains("is outside the project"), "{path}: {err}");
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.path(), repo.path().join("elsewhere")).unwrap();
        let err = project.check(Some("elsewhere/.claude/agents/secret.md"), None).unwrap_err();
        assert!(err.contains("leads outside the project"), "{err}");
        let err = project.check(Some("elsewhere/new.md"), Some(CLEAN)).unwrap_err();
        assert!(err.contains("leads outside the project"), "{err}");
    }
}

#[test]
fn explain_and_schema_answer_from_the_catalogue_and_the_published_schemas() {
    let page = project::explain("unknown-tool").unwrap();
    assert!(page.starts_with("# unknown-tool"), "{page}");
    assert!(page.contains("agentc.toml"), "the page says how to change the level: {page}");
    let err = project::explain("unknown-tol").unwrap_err();
    assert!(err.contains("did you mean `unknown-tool`?"), "{err}");
    let schema = project::schema("claude-subagent").unwrap();
    assert_eq!(schema, agentc_schema::Kind::from_name("claude-subagent").unwrap().schema_text());
    let err = project::schema("subagent").unwrap_err();
    assert!(err.contains("`claude-subagent`"), "{err}");
}
