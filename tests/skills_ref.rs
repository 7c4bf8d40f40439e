//! agentc against the Agent Skills reference validator (`skills-ref` on PyPI,
//! `skills_ref.validator.validate`) on the specification's rules: names,
//! lengths and fields. Both judge the same skill folders; they must agree on
//! every case, except where `docs/formats.md` says why agentc differs (each
//! such case is marked here with the difference it shows).
//!
//! `.ci/run` installs the validator. Elsewhere the test says so and passes
//! without it, unless `CI` is set.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use agentc_compiler::catalog::Code;
use agentc_compiler::fs::RealFs;
use agentc_compiler::options::LayoutKind;
use agentc_compiler::{Options, Severity, compile};
use agentc_schema::LintLevel;

/// How the two are expected to judge a skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Both accept it, or both refuse it.
    Agree,
    /// The reference validator refuses a key outside the specification;
    /// agentc warns and keeps it as metadata (hosts such as Claude Code read
    /// more keys than the specification defines).
    UnknownKeyIsAWarning,
    /// The reference validator reads YAML with strictyaml, which refuses flow
    /// collections; agentc reads YAML 1.2, as the hosts do.
    FlowYaml,
    /// The reference validator does not check the type of `metadata` and
    /// `allowed-tools` (0.1.1); agentc holds them to the specification.
    TypeChecked,
}

/// (folder, frontmatter, expectation). Every body is the same short text.
const CASES: &[(&str, &str, Expect)] = &[
    ("pdf-forms", "name: pdf-forms\ndescription: Fill in PDF forms.", Expect::Agree),
    ("données", "name: données\ndescription: Nettoie les données.", Expect::Agree),
    ("技能", "name: 技能\ndescription: A skill named in Chinese.", Expect::Agree),
    ("a1-b2-c3", "name: a1-b2-c3\ndescription: Digits and hyphens.", Expect::Agree),
    ("PDF", "name: PDF\ndescription: Uppercase.", Expect::Agree),
    ("pdf--forms", "name: pdf--forms\ndescription: A doubled hyphen.", Expect::Agree),
    ("-pdf", "name: -pdf\ndescription: A leading hyphen.", Expect::Agree),
    ("pdf-", "name: pdf-\ndescription: A trailing hyphen.", Expect::Agree),
    ("pdf_forms", "name: pdf_forms\ndescription: An underscore.", Expect::Agree),
    ("pdf.forms", "name: pdf.forms\ndescription: A dot.", Expect::Agree),
    ("mismatch", "name: other-name\ndescription: Not its folder.", Expect::Agree),
    ("résumé", "name: résumé\ndescription: NFC and NFD are one name.", Expect::Agree),
    ("ﬁle", "name: ﬁle\ndescription: NFKC folds the ligature.", Expect::Agree),
    ("no-description", "name: no-description", Expect::Agree),
    ("no-name", "description: The name is missing.", Expect::Agree),
    ("license", "name: license\ndescription: d\nlicense: Apache-2.0", Expect::Agree),
    ("compat-ok", "name: compat-ok\ndescription: d\ncompatibility: Needs git.", Expect::Agree),
    ("metadata-ok", "name: metadata-ok\ndescription: d\nmetadata:\n  author: me", Expect::Agree),
    ("tools-ok", "name: tools-ok\ndescription: d\nallowed-tools: Read Bash(git:*)", Expect::Agree),
    (
        "version-key",
        "name: version-key\ndescription: d\nversion: 1.0.0",
        Expect::UnknownKeyIsAWarning,
    ),
    (
        "tools-list",
        "name: tools-list\ndescription: d\nallowed-tools: [Read, Grep]",
        Expect::FlowYaml,
    ),
    (
        "metadata-nested",
        "name: metadata-nested\ndescription: d\nmetadata:\n  a:\n    b: c",
        Expect::TypeChecked,
    ),
];

/// Cases built from lengths, written as (folder, frontmatter).
fn length_cases() -> Vec<(String, String)> {
    let name64 = "a".repeat(64);
    let name65 = "a".repeat(65);
    vec![
        (name64.clone(), format!("name: {name64}\ndescription: d")),
        (name65.clone(), format!("name: {name65}\ndescription: d")),
        ("desc-1024".into(), format!("name: desc-1024\ndescription: {}", "é".repeat(1024))),
        ("desc-1025".into(), format!("name: desc-1025\ndescription: {}", "é".repeat(1025))),
        (
            "compat-500".into(),
            format!("name: compat-500\ndescription: d\ncompatibility: {}", "x".repeat(500)),
        ),
        (
            "compat-501".into(),
            format!("name: compat-501\ndescription: d\ncompatibility: {}", "x".repeat(501)),
        ),
    ]
}

/// The reference validator's errors for each skill folder under `skills`.
fn reference(skills: &Path) -> Option<BTreeMap<String, Vec<String>>> {
    let script = r#"
import json, pathlib, sys
from skills_ref.validator import validate
root = pathlib.Path(sys.argv[1])
print(json.dumps({d.name: validate(d) for d in sorted(root.iterdir())}))
"#;
    let out = Command::new("python3").args(["-c", script]).arg(skills).output().ok()?;
    if !out.status.success() {
        eprintln!("skills-ref did not run: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}

#[test]
fn agentc_and_the_reference_validator_agree_on_the_spec_rules() {
    let project = tempfile::tempdir().unwrap();
    // A skill collection read by the specification alone, where its rules are the host's;
    // under `.claude/skills` they are warnings, since Claude Code does not apply them.
    let skills = project.path().join("skills");
    let mut expect = BTreeMap::new();
    let cases = CASES
        .iter()
        .map(|(folder, front, how)| (folder.to_string(), front.to_string(), *how))
        .chain(length_cases().into_iter().map(|(f, front)| (f, front, Expect::Agree)));
    for (folder, front, how) in cases {
        let dir = skills.join(&folder);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), format!("---\n{front}\n---\nThe skill's body.\n"))
            .unwrap();
        expect.insert(folder, how);
    }
    // The folder `résumé` is written decomposed (NFD), its name composed.
    let nfd = "re\u{301}sume\u{301}";
    std::fs::rename(skills.join("résumé"), skills.join(nfd)).unwrap();
    let how = expect.remove("résumé").unwrap();
    expect.insert(nfd.to_owned(), how);

    let Some(reference) = reference(&skills) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install the reference validator: pip install skills-ref==0.1.1"
        );
        eprintln!(
            "skipped: the reference validator is not installed (pip install skills-ref==0.1.1)"
        );
        return;
    };

    // Held to the validator as `[lints] pedantic = "deny"`, `invalid-value = "deny"` and
    // `bad-name = "deny"` hold a collection: by default the rules the hosts do not apply
    // are pedantic, and a length the specification limits a warning (no host loads a
    // collection in place).
    let mut options = Options::new(project.path());
    options.layouts = [LayoutKind::AgentSkills].into();
    options.pedantic = LintLevel::Deny;
    options.lints = [
        (Code::InvalidValue, LintLevel::Deny),
        (Code::BadName, LintLevel::Deny),
        (Code::UnknownField, LintLevel::Warn),
    ]
    .into_iter()
    .collect();
    let compilation = compile(&RealFs, &options).unwrap();
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut warnings: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for d in &compilation.diagnostics {
        let Some(folder) = d.location.file.path.split('/').nth(1) else { continue };
        let into = if d.severity == Severity::Error { &mut errors } else { &mut warnings };
        into.entry(folder.to_owned()).or_default().push(format!("{}: {}", d.code, d.message));
    }
    let mut disagreements = Vec::new();
    for (folder, how) in &expect {
        let theirs = reference.get(folder).cloned().unwrap_or_default();
        let ours = errors.get(folder).cloned().unwrap_or_default();
        let agree = theirs.is_empty() == ours.is_empty();
        let explained = match how {
            Expect::Agree => agree,
            Expect::UnknownKeyIsAWarning => {
                !theirs.is_empty() && ours.is_empty() && warnings.contains_key(folder)
            }
            Expect::FlowYaml => !theirs.is_empty() && ours.is_empty(),
            Expect::TypeChecked => theirs.is_empty() && !ours.is_empty(),
        };
        if !explained {
            disagreements
                .push(format!("{folder} ({how:?}): skills-ref {theirs:?}, agentc {ours:?}"));
        }
    }
    assert!(disagreements.is_empty(), "disagreements:\n{}", disagreements.join("\n"));
}
