//! Every fixture directory under `tests/fixtures/` compiled through the real
//! command line, with its exact output snapshotted in both formats.
//!
//! A case is `tests/fixtures/<case>/` holding `root/` (the agents directory),
//! and optionally `workspace/`, `registry.yaml` and `args` (extra arguments,
//! one per line). `CASE.md` says what the case is about.

use std::path::Path;

mod common;

use agentc_cli::{Io, run};

/// The published schema of a `--message-format json` line, which every line
/// of every case must pass.
static MESSAGE_SCHEMA: std::sync::LazyLock<jsonschema::Validator> =
    std::sync::LazyLock::new(|| {
        jsonschema::draft7::new(&agentc::schema::Kind::Message.schema()).expect("a valid schema")
    });

/// Runs `agentc check` on a case; returns (exit code, stdout, stderr).
fn check(case: &Path, format: &str) -> (i32, String, String) {
    let mut args: Vec<String> = vec!["agentc".into(), "check".into()];
    args.extend(common::case_args(case, Path::new(env!("CARGO_MANIFEST_DIR"))));
    args.extend(["--message-format".into(), format.into()]);
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = run(
        &args,
        &mut Io { stdout: &mut stdout, stderr: &mut stderr, color: false, progress: false },
    );
    (code, String::from_utf8(stdout).unwrap(), String::from_utf8(stderr).unwrap())
}

/// Checks one case: the exit code agrees across formats, `layout-`, `seed-`
/// and `-accepted` cases compile clean, and both outputs match the snapshot.
fn check_case(case: &Path) -> Result<(), libtest_mimic::Failed> {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let (code, _, human) = check(case, "human");
    let (json_code, json, _) = check(case, "json");
    if code != json_code {
        return Err(format!("{name}: the exit code depends on the format").into());
    }
    if (name.starts_with("layout-") || name.starts_with("seed-") || name.ends_with("-accepted"))
        && human.trim() != "no problems found"
    {
        return Err(format!("{name} must compile clean:\n{human}").into());
    }
    for line in json.lines() {
        let value: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("{name}: a JSON line does not parse ({e}): {line}"))?;
        if let Some(error) = MESSAGE_SCHEMA.iter_errors(&value).next() {
            return Err(
                format!("{name}: a line fails message.schema.json ({error}): {line}").into()
            );
        }
    }
    let report = format!("exit code: {code}\n\n--- human ---\n{human}\n--- json ---\n{json}");
    let secrets = secrets_in(case);
    if name.starts_with("secret-") && secrets.is_empty() {
        return Err(format!("{name}: the case holds no secret").into());
    }
    if let Some(secret) = secrets.iter().find(|s| report.contains(s.as_str())) {
        return Err(format!("{name}: the output shows the secret text `{secret}`").into());
    }
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_input_file(case.join("CASE.md"));
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        settings.bind(|| insta::assert_snapshot!(name, report))
    }))
    .map_err(|_| libtest_mimic::Failed::from("the output differs from the snapshot (see above)"))
}

/// The text agentc must never print of every secret in a case's files.
fn secrets_in(case: &Path) -> Vec<String> {
    let mut texts = Vec::new();
    let mut folders = vec![case.join("root"), case.join("workspace")];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                let path = path.to_string_lossy();
                for found in agentc_compiler::secrets::scan(&path, &text) {
                    texts.extend(found.hidden.iter().map(|s| text[s.start..s.end].to_owned()));
                }
            }
        }
    }
    texts
}

/// One test per fixture directory, so every failing case is listed.
fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("CASE.md").is_file())
        .collect();
    cases.sort();
    assert!(cases.len() >= 40, "only {} fixture cases", cases.len());
    let tests = cases
        .into_iter()
        .map(|case| {
            let name = case.file_name().unwrap().to_string_lossy().into_owned();
            libtest_mimic::Trial::test(name, move || check_case(&case))
        })
        .collect();
    libtest_mimic::run(&args, tests).exit();
}
