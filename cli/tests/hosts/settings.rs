//! `claude doctor` as the judge of Claude Code's settings. Claude Code
//! 2.1.332 lists under "Invalid settings" every problem it found in a
//! project's `.claude/settings.json`: a value its settings schema refuses
//! ("Expected boolean, but received string") makes it skip the whole file —
//! the session then starts as if the file were not there — while a value a
//! repair step drops ("… was ignored") leaves the rest loaded. Every key
//! agentc knows is given a value of each JSON kind, and agentc must say the
//! same of each key: an error where the host skips the file, a warning where
//! it drops the value, and no error where it takes the value.

use std::collections::BTreeMap;
use std::path::Path;

use agentc_compiler::hosts::claude_code::settings::{Field, Inner, Shape};
use agentc_compiler::hosts::claude_code::settings_keys::SETTINGS;
use serde_json::{Value, json};

use super::{claude, claude_command, common};

/// What Claude Code did with a key's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Doctor {
    Takes,
    /// The value failed the settings schema: the file is skipped.
    SkipsFile,
    /// A repair step dropped the value (or the key) and loaded the rest.
    Drops,
}

impl Doctor {
    /// What a problem `claude doctor` lists did to the file.
    fn of(message: &str) -> Doctor {
        let drops = ["ignored", "was skipped", "was removed", "While it is present"];
        match drops.iter().any(|w| message.contains(w)) {
            true => Doctor::Drops,
            false => Doctor::SkipsFile,
        }
    }
}

/// One value of each JSON kind, and some of each kind Claude Code bounds.
fn probes() -> Vec<(&'static str, Value)> {
    vec![
        ("object", json!({ "probe": 1 })),
        ("text", json!("probe")),
        ("number", json!(5)),
        ("zero", json!(0)),
        ("fraction", json!(0.5)),
        ("boolean", json!(true)),
        ("list of text", json!(["probe"])),
        ("list of numbers", json!([5])),
        ("null", Value::Null),
    ]
}

/// The settings file: one key a line, so each line names its key.
fn settings(keys: &[&str], value: &Value) -> String {
    let lines: Vec<String> = keys.iter().map(|key| format!("  {key:?}: {value}")).collect();
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

/// What `claude doctor` said of each top-level key of the project at `top`.
fn doctor(claude: &Path, home: &Path, top: &Path) -> BTreeMap<String, (Doctor, String)> {
    let out = claude_command(claude, home, top).arg("doctor").output().expect("Claude Code runs");
    let text = common::text(&out.stdout);
    let mut said = BTreeMap::new();
    let Some((_, section)) = text.split_once("Invalid settings\n") else { return said };
    let section = section.split("\n\n").next().unwrap_or_default();
    for line in section.lines() {
        let Some((_, problem)) = line.split_once(" › ") else { continue };
        let Some((path, message)) = problem.split_once(": ") else { continue };
        let key = path.split('.').next().unwrap_or(path).to_owned();
        let verdict = Doctor::of(message);
        let at = said.entry(key).or_insert((verdict, message.to_owned()));
        if verdict == Doctor::SkipsFile {
            *at = (verdict, message.to_owned());
        }
    }
    said
}

/// The most severe thing agentc said of each key of the settings file.
fn agentc(top: &Path, keys: &[&str]) -> BTreeMap<String, (String, String)> {
    let out = common::agentc(&["check", "--message-format", "json"], top);
    let mut said: BTreeMap<String, (String, String)> = BTreeMap::new();
    for line in common::text(&out.stdout).lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        let (Some(severity), Some(line)) = (value["severity"].as_str(), value["line"].as_u64())
        else {
            continue;
        };
        assert_eq!(value["file"], ".claude/settings.json", "{value}");
        let Some(key) = (line as usize).checked_sub(2).and_then(|i| keys.get(i)) else {
            panic!("a diagnostic outside the keys: {value}")
        };
        let message = value["message"].as_str().unwrap_or_default().to_owned();
        let at = said.entry((*key).to_owned()).or_insert((severity.to_owned(), message.clone()));
        if severity == "error" {
            *at = (severity.to_owned(), message);
        }
    }
    said
}

#[test]
fn claude_doctor_and_agentc_agree_on_every_setting() {
    let Some(claude) = claude() else { return };
    let keys: Vec<&str> = SETTINGS.iter().map(|setting| setting.name).collect();
    let mut disagreements = Vec::new();
    let mut judged = 0;
    for (probe, value) in probes() {
        let home = tempfile::tempdir().unwrap();
        let top = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(top.path().join(".git")).unwrap();
        std::fs::create_dir_all(top.path().join(".claude")).unwrap();
        std::fs::write(top.path().join(".claude/settings.json"), settings(&keys, &value)).unwrap();
        let host = doctor(&claude, home.path(), top.path());
        let ours = agentc(top.path(), &keys);
        for key in &keys {
            judged += 1;
            let (verdict, why) = host.get(*key).cloned().unwrap_or((Doctor::Takes, String::new()));
            let (severity, message) = ours.get(*key).cloned().unwrap_or_default();
            let agrees = match verdict {
                Doctor::SkipsFile => severity == "error",
                Doctor::Drops => severity == "warning",
                // agentc may warn where the host is silent (an unknown key
                // inside a value, a likely typo), never refuse.
                Doctor::Takes => severity != "error",
            };
            if !agrees {
                disagreements.push(format!(
                    "{key} = {value} ({probe}): claude doctor {verdict:?} {why:?}; agentc \
                     {severity:?} {message:?}"
                ));
            }
        }
    }
    assert!(judged > 1_000, "only {judged} values judged");
    assert!(
        disagreements.is_empty(),
        "{} disagreements with claude doctor:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

/// The fields of an object setting, every field down to those that hold no
/// object of their own, written one a line with `value` in each: the file,
/// and the dotted path each line is about.
fn nested(value: &Value) -> (String, Vec<String>) {
    fn write(
        fields: &[Field],
        at: &str,
        value: &Value,
        text: &mut String,
        lines: &mut Vec<String>,
    ) {
        for (i, field) in fields.iter().enumerate() {
            let path = format!("{at}.{}", field.name);
            let comma = if i + 1 < fields.len() { "," } else { "" };
            match field.inner {
                Inner::Fields(inner) => {
                    text.push_str(&format!("{:?}: {{\n", field.name));
                    lines.push(path.clone());
                    write(inner, &path, value, text, lines);
                    text.push_str(&format!("}}{comma}\n"));
                    lines.push(path);
                }
                _ => {
                    text.push_str(&format!("{:?}: {value}{comma}\n", field.name));
                    lines.push(path);
                }
            }
        }
    }
    let objects: Vec<_> = SETTINGS
        .iter()
        .filter_map(|setting| match setting.shape {
            Shape::Fields(fields) | Shape::Closed(fields) => Some((setting.name, fields)),
            _ => None,
        })
        .collect();
    let (mut text, mut lines) = ("{\n".to_owned(), vec![String::new()]);
    for (i, (name, fields)) in objects.iter().enumerate() {
        text.push_str(&format!("{name:?}: {{\n"));
        lines.push((*name).to_owned());
        write(fields, name, value, &mut text, &mut lines);
        text.push_str(if i + 1 < objects.len() { "},\n" } else { "}\n" });
        lines.push((*name).to_owned());
    }
    text.push_str("}\n");
    (text, lines)
}

/// The fields inside object settings (`sandbox` and its `network`,
/// `worktree`, `statusLine`, …): each given a
/// value of every kind, agentc must refuse exactly the values Claude Code's
/// schema refuses (the whole file is then skipped).
#[test]
fn claude_doctor_and_agentc_agree_on_nested_fields() {
    let Some(claude) = claude() else { return };
    let mut disagreements = Vec::new();
    let mut judged = 0;
    for (probe, value) in probes() {
        let (text, lines) = nested(&value);
        let home = tempfile::tempdir().unwrap();
        let top = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(top.path().join(".git")).unwrap();
        std::fs::create_dir_all(top.path().join(".claude")).unwrap();
        std::fs::write(top.path().join(".claude/settings.json"), &text).unwrap();
        let out = claude_command(&claude, home.path(), top.path()).arg("doctor").output().unwrap();
        let said = common::text(&out.stdout);
        let section = said.split_once("Invalid settings\n").map(|(_, s)| s).unwrap_or_default();
        // What the host did with each field: a problem inside a field's
        // value is about that field.
        let mut host: BTreeMap<String, Doctor> = BTreeMap::new();
        for line in section.split("\n\n").next().unwrap_or_default().lines() {
            let Some((path, message)) =
                line.split_once(" › ").and_then(|(_, p)| p.split_once(": "))
            else {
                continue;
            };
            let mut path = path.to_owned();
            while !lines.contains(&path) && path.contains('.') {
                path.truncate(path.rfind('.').unwrap_or(0));
            }
            let verdict = Doctor::of(message);
            let at = host.entry(path).or_insert(verdict);
            if verdict == Doctor::SkipsFile {
                *at = verdict;
            }
        }
        let out = common::agentc(&["check", "--message-format", "json"], top.path());
        let mut ours: BTreeMap<String, String> = BTreeMap::new();
        for line in common::text(&out.stdout).lines() {
            let value: Value = serde_json::from_str(line).unwrap();
            let (Some(severity), Some(n)) = (value["severity"].as_str(), value["line"].as_u64())
            else {
                continue;
            };
            let at = ours.entry(lines[n as usize - 1].clone()).or_default();
            if at.as_str() != "error" {
                *at = severity.to_owned();
            }
        }
        for path in lines.iter().filter(|path| path.contains('.')) {
            judged += 1;
            let verdict = host.get(path).copied().unwrap_or(Doctor::Takes);
            let severity = ours.get(path).map(String::as_str).unwrap_or_default();
            let agrees = match verdict {
                Doctor::SkipsFile => severity == "error",
                Doctor::Drops => severity == "warning",
                Doctor::Takes => severity != "error",
            };
            if !agrees {
                disagreements.push(format!(
                    "{path} = {value} ({probe}): claude doctor {verdict:?}; agentc {severity:?}"
                ));
            }
        }
    }
    assert!(judged > 300, "only {judged} values judged");
    disagreements.dedup();
    assert!(
        disagreements.is_empty(),
        "{} disagreements with claude doctor:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

/// The premise of the levels: a value the schema refuses makes Claude Code
/// start the session without the file (its `defaultMode` is not applied), a
/// value a repair step drops does not.
#[test]
fn a_refused_value_skips_the_whole_settings_file() {
    let Some(claude) = claude() else { return };
    let mode = |extra: Value| {
        let home = tempfile::tempdir().unwrap();
        let top = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(top.path().join(".claude")).unwrap();
        let mut file = json!({ "permissions": { "defaultMode": "plan" } });
        file.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        std::fs::write(top.path().join(".claude/settings.json"), file.to_string()).unwrap();
        let out = claude_command(&claude, home.path(), top.path())
            .args(["--settings", r#"{"disableAllHooks": true}"#, "--strict-mcp-config"])
            .args(["-p", "x", "--output-format", "stream-json", "--verbose"])
            .stdin(std::process::Stdio::null())
            .output()
            .expect("Claude Code runs");
        let text = common::text(&out.stdout);
        let init = text.lines().find(|line| line.contains(r#""subtype":"init""#)).unwrap_or("");
        let init: Value = serde_json::from_str(init).unwrap_or_default();
        init["permissionMode"].as_str().unwrap_or_default().to_owned()
    };
    assert_eq!(mode(json!({})), "plan");
    assert_eq!(mode(json!({ "cleanupPeriodDays": "30" })), "default");
    assert_eq!(mode(json!({ "tui": "full" })), "default");
    assert_eq!(mode(json!({ "teammateMode": "split" })), "plan");
    assert_eq!(mode(json!({ "hooks": { "OnStop": [] } })), "plan");
}

/// Permission rules as people write them, right and wrong.
const RULES: &[&str] = &[
    "Bash",
    "Bash(npm run test:*)",
    "Bash(npm run *)",
    "Bash(git * main)",
    "Bash(:*)",
    "Bash()",
    "Bash(**)",
    "Bash(echo \\(x)",
    "Bash(npm run build) ",
    "Bash (ls)",
    "Bash(FOO=* npm test)",
    "read",
    "Read",
    "Read(*)",
    "Read(:*)",
    "Read(./src/**)",
    "Read(~/.zshrc)",
    "Read(//etc/hosts)",
    "Edit(/src/**/*.ts)",
    "Edit(src/**:*)",
    "Write(./out)",
    "Glob(*.ts)",
    "NotebookEdit(x.ipynb)",
    "WebFetch",
    "WebFetch(https://example.com/docs)",
    "WebFetch(example.com)",
    "WebFetch(domain:example.com)",
    "WebFetch(domain:*.google.com)",
    "WebSearch",
    "WebSearch(rust*)",
    "WebSearch(rust docs)",
    "mcp__github",
    "mcp__github__get_issue",
    "mcp__github__*",
    "mcp__github__get_*",
    "mcp__*",
    "mcp__git*__x",
    "mcp__github(x)",
    "mcp__github__get_issue(42)",
    "Foo*",
    "Nonsense((",
    "",
    "Agent(Explore)",
    "Skill(deploy)",
    "Unknowntool",
];

/// Which rules of `allow`, `ask` and `deny` Claude Code's validator skips:
/// `claude doctor` names each, and agentc must give each an `invalid-value`
/// warning — and no other rule one.
#[test]
fn claude_doctor_and_agentc_agree_on_permission_rules() {
    let Some(claude) = claude() else { return };
    let lists = ["allow", "ask", "deny"];
    let mut lines = vec!["{".to_owned(), r#"  "permissions": {"#.to_owned()];
    let mut at = BTreeMap::new();
    for (i, list) in lists.iter().enumerate() {
        lines.push(format!("    {list:?}: ["));
        for (j, rule) in RULES.iter().enumerate() {
            at.insert(lines.len() + 1, (*list, *rule));
            let comma = if j + 1 < RULES.len() { "," } else { "" };
            lines.push(format!("      {}{comma}", Value::from(*rule)));
        }
        lines.push(if i + 1 < lists.len() { "    ],".into() } else { "    ]".into() });
    }
    lines.extend(["  }".to_owned(), "}".to_owned()]);
    let home = tempfile::tempdir().unwrap();
    let top = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(top.path().join(".git")).unwrap();
    std::fs::create_dir_all(top.path().join(".claude")).unwrap();
    std::fs::write(top.path().join(".claude/settings.json"), lines.join("\n")).unwrap();

    let out = claude_command(&claude, home.path(), top.path()).arg("doctor").output().unwrap();
    let text = common::text(&out.stdout);
    let mut skipped = std::collections::BTreeSet::new();
    for line in text.lines() {
        let Some((_, problem)) = line.split_once(" › permissions.") else { continue };
        let Some((list, message)) = problem.split_once(": ") else { continue };
        let Some(rule) = message
            .strip_prefix("Invalid permission rule \"")
            .and_then(|rest| rest.split_once("\" was skipped"))
            .map(|(rule, _)| rule)
        else {
            panic!("an unexpected problem: {line}")
        };
        skipped.insert((list.to_owned(), rule.replace("\\\\", "\\")));
    }
    assert!(skipped.len() >= 30, "claude doctor skipped only {skipped:?}");

    let out = common::agentc(&["check", "--message-format", "json"], top.path());
    let mut warned = std::collections::BTreeSet::new();
    for line in common::text(&out.stdout).lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        // A rule Claude Code loads but never consults (`Write(path)`) is
        // agentc's warning too, from the validator's own warning, which
        // `claude doctor` does not print.
        let skips = value["help"].as_str().is_some_and(|h| h.contains("skips this rule"));
        if value["code"] != "invalid-value" || !skips {
            continue;
        }
        assert_eq!(value["severity"], "warning", "{value}");
        let line = value["line"].as_u64().unwrap() as usize;
        let (list, rule) = at[&line];
        warned.insert((list.to_owned(), rule.to_owned()));
    }
    let missed: Vec<_> = skipped.difference(&warned).collect();
    let extra: Vec<_> = warned.difference(&skipped).collect();
    assert!(
        missed.is_empty() && extra.is_empty(),
        "claude doctor skips, agentc does not warn: {missed:?}\nagentc warns, claude doctor \
         loads: {extra:?}"
    );
}
