//! Levels per path (`[[overrides]]` in agentc.toml) and baselines
//! (`check --write-baseline`, `check --baseline`), as a user runs them.

mod common;

use std::path::Path;

use common::{agentc, text, write};

/// A skill whose frontmatter misspells `allowed-tools` (an `unknown-field`
/// warning on line `4`).
fn typo(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name}.\nallowed_tools: Bash\n---\nRun it.\n")
}

/// A repository with two Claude Code skills, each with the typo.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    for name in ["legacy", "deploy"] {
        write(&dir.path().join(format!(".claude/skills/{name}/SKILL.md")), typo(name));
    }
    dir
}

/// The `(file:line, code, severity)` of each diagnostic `check` reports as
/// JSON, and its exit code.
fn reported(dir: &Path, args: &[&str]) -> (Vec<String>, Option<i32>) {
    let mut all = vec!["check", "--message-format", "json"];
    all.extend_from_slice(args);
    let out = agentc(&all, dir);
    let lines = text(&out.stdout)
        .lines()
        .filter_map(|line| {
            let json: serde_json::Value = serde_json::from_str(line).unwrap();
            (json["type"] == "diagnostic").then(|| {
                format!(
                    "{}:{} {} {}",
                    json["file"].as_str().unwrap_or("-"),
                    json["line"],
                    json["code"].as_str().unwrap_or("-"),
                    json["severity"].as_str().unwrap_or("-"),
                )
            })
        })
        .collect();
    (lines, out.status.code())
}

#[test]
fn an_override_allows_a_code_only_where_its_paths_match() {
    let dir = repository();
    let toml = "[[overrides]]\npaths = [\".claude/skills/legacy/**\"]\n\
                lints = { unknown-field = \"allow\" }\n";
    write(&dir.path().join("agentc.toml"), toml);
    // The typo planted in `deploy` is still reported.
    assert_eq!(
        reported(dir.path(), &[]),
        (vec![".claude/skills/deploy/SKILL.md:4 unknown-field warning".to_owned()], Some(0))
    );
}

#[test]
fn the_last_matching_override_wins_over_lints_and_earlier_tables() {
    let dir = repository();
    let toml = "[lints]\nunknown-field = \"allow\"\n\n\
                [[overrides]]\npaths = [\".claude/skills/*/SKILL.md\"]\n\
                lints = { unknown-field = \"deny\" }\n\n\
                [[overrides]]\n# a folder's path matches everything under it\n\
                paths = [\".claude/skills/legacy\"]\nlints = { unknown-field = \"warn\" }\n";
    write(&dir.path().join("agentc.toml"), toml);
    let expected = vec![
        ".claude/skills/deploy/SKILL.md:4 unknown-field error".to_owned(),
        ".claude/skills/legacy/SKILL.md:4 unknown-field warning".to_owned(),
    ];
    assert_eq!(reported(dir.path(), &[]), (expected, Some(1)));
}

#[test]
fn mistakes_in_overrides_are_reported_in_agentc_toml() {
    let dir = repository();
    // A misspelt code stops the run, as in `[lints]`.
    let toml = "[[overrides]]\npaths = [\".claude/**\"]\nlints = { unknown-feild = \"allow\" }\n";
    write(&dir.path().join("agentc.toml"), toml);
    let out = agentc(&["check"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error[invalid-value]: `unknown-feild` is not a diagnostic code\n \
         --> agentc.toml:3:11\n  |\n\
         3 | lints = { unknown-feild = \"allow\" }\n  |           ^^^^^^^^^^^^^\n  |\n  \
         = help: did you mean `unknown-field`? `agentc explain --list` prints the codes\n\n\
         error: could not compile due to 1 error\n\
         error: agentc.toml has errors; agentc cannot run\n"
    );
    // A glob that matches no file agentc reads is a warning at the glob.
    let toml = "[[overrides]]\npaths = [\".claude/skills/legacy\", \"docs/**\"]\n\
                lints = { unknown-field = \"allow\" }\n";
    write(&dir.path().join("agentc.toml"), toml);
    let out = agentc(&["check"], dir.path());
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    let expected = "warning[unmatched-glob]: the glob `docs/**` of `[[overrides]]` matches no \
                    file agentc reads, so its levels apply to nothing\n \
                    --> agentc.toml:2:35\n  |\n\
                    2 | paths = [\".claude/skills/legacy\", \"docs/**\"]\n  \
                    |                                   ^^^^^^^^^\n";
    assert!(stderr.contains(expected), "{stderr}");
    // The planted typo outside the glob is still reported.
    assert!(stderr.starts_with("warning[unknown-field]"), "{stderr}");
    assert!(stderr.contains("--> .claude/skills/deploy/SKILL.md:4:1"), "{stderr}");
    assert!(stderr.ends_with("warning: 2 warnings emitted\n"), "{stderr}");
    // A glob that does not parse is an error.
    let toml = "[[overrides]]\npaths = [\"a/[b\"]\nlints = { unknown-field = \"allow\" }\n";
    write(&dir.path().join("agentc.toml"), toml);
    let out = agentc(&["check"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`a/[b` is not a valid glob"), "{}", text(&out.stderr));
}

#[test]
fn a_baseline_hides_the_problems_it_holds_and_reports_new_ones() {
    let dir = repository();
    let out = agentc(&["check", "--write-baseline", "agentc-baseline.json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "wrote agentc-baseline.json: 0 errors and 2 warnings recorded; `agentc check --baseline \
         agentc-baseline.json` reports only problems not in it\n"
    );
    let written = std::fs::read_to_string(dir.path().join("agentc-baseline.json")).unwrap();
    let entry = |skill: &str| {
        format!(
            "    {{\n      \"file\": \".claude/skills/{skill}/SKILL.md\",\n      \
             \"code\": \"unknown-field\",\n      \"fingerprint\": \"da3fff0267513626\",\n      \
             \"count\": 1,\n      \"message\": \"unknown field `allowed_tools` (kept as \
             metadata)\"\n    }}"
        )
    };
    assert_eq!(
        written,
        format!(
            "{{\n  \"version\": 1,\n  \"problems\": [\n{},\n{}\n  ]\n}}\n",
            entry("deploy"),
            entry("legacy")
        )
    );
    let out = agentc(&["check", "--baseline", "agentc-baseline.json"], dir.path());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stderr),
        "no problems found\nnote: 2 problems in the baseline `agentc-baseline.json` not reported\n"
    );
    // Lines added above the problem leave it known; a new problem in a new
    // skill is reported, and one fixed is counted as gone.
    let moved = "---\nname: deploy\n# moved down\n\ndescription: Does deploy.\n\
                 allowed_tools: Bash\n---\nRun it.\n";
    write(&dir.path().join(".claude/skills/deploy/SKILL.md"), moved);
    write(&dir.path().join(".claude/skills/legacy/SKILL.md"), typo("legacy").replace('_', "-"));
    write(&dir.path().join(".claude/skills/new/SKILL.md"), typo("new"));
    let (found, code) = reported(dir.path(), &["--baseline", "agentc-baseline.json"]);
    assert_eq!(
        (found, code),
        (vec![".claude/skills/new/SKILL.md:4 unknown-field warning".to_owned()], Some(0))
    );
    let out = agentc(&["check", "--baseline", "agentc-baseline.json"], dir.path());
    let stderr = text(&out.stderr);
    assert!(
        stderr.ends_with(
            "warning: 1 warning emitted\nnote: 1 problem in the baseline \
             `agentc-baseline.json` not reported; 1 problem it holds no longer occurs: \
             `agentc check --write-baseline agentc-baseline.json` shrinks it\n"
        ),
        "{stderr}"
    );
}

#[test]
fn a_baseline_allows_as_many_identical_problems_as_it_counts() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    // The same broken link on two lines of the same text: one key, count 2.
    let body = "See [the notes](notes.md).\n";
    let skill = format!("---\nname: deploy\ndescription: Deploys.\n---\n{body}{body}");
    let path = dir.path().join(".claude/skills/deploy/SKILL.md");
    write(&path, &skill);
    let out = agentc(&["check", "--write-baseline", "base.json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(dir.path().join("base.json")).unwrap();
    assert!(written.contains("\"count\": 2,"), "{written}");
    assert_eq!(reported(dir.path(), &["--baseline", "base.json"]), (vec![], Some(0)));
    // A third is one more than the baseline allows.
    write(&path, format!("{skill}{body}"));
    let (found, code) = reported(dir.path(), &["--baseline", "base.json"]);
    assert_eq!(found, [".claude/skills/deploy/SKILL.md:7 broken-link warning"]);
    assert_eq!(code, Some(0));
}

#[test]
fn a_malformed_baseline_is_an_error_at_its_place() {
    let dir = repository();
    write(
        &dir.path().join("base.json"),
        "{\n  \"version\": 1,\n  \"problems\": [\n    { \"file\": 3 }\n  ]\n}\n",
    );
    let out = agentc(&["check", "--baseline", "base.json"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: the baseline `base.json` is malformed: base.json:4:15: invalid type: integer `3`, \
         expected a string; a baseline is what `agentc check --write-baseline base.json` writes\n"
    );
    let out =
        agentc(&["check", "--baseline", "missing.json", "--message-format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).contains("the baseline `missing.json` does not exist"));
}

#[test]
fn explain_says_how_to_change_a_level() {
    let dir = tempfile::tempdir().unwrap();
    let out = agentc(&["explain", "unknown-field"], dir.path());
    let page = text(&out.stdout);
    let section = &page[page.find("## Changing its level").unwrap()..];
    assert!(
        section.contains(
            "[lints]\nunknown-field = \"warn\"\n\n[[overrides]]\n\
             paths = [\".claude/skills/legacy/**\"]\nlints = { unknown-field = \"allow\" }\n"
        ),
        "{section}"
    );
}
