//! The published schemas and the compiler agree: the same wrong files, fed to
//! agentc and to an independent validator (`jsonschema`), are refused by both
//! — except for the rules a schema cannot say, listed here with the reason.

use std::path::Path;

use agentc::schema::Kind;
use agentc_compiler::fs::RealFs;
use agentc_compiler::{Options, Severity, compile};
use serde_json::{Value, json};

/// Whether agentc reports an error in `file` of the agents directory `root`.
fn agentc_refuses(root: &Path, file: &str) -> bool {
    let compilation = compile(&RealFs, &Options::new(root)).unwrap();
    compilation
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error && &*d.location.file.path == file)
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A package agent that compiles clean.
fn package() -> Value {
    json!({
        "name": "Escalations",
        "version": "1.2.0",
        "description": "Takes over the cases the front line could not resolve.",
        "trigger_rules": { "keywords": ["complaint"] },
        "entry_points": ["system.md", "boundaries.md", "conventions.md"],
        "max_iterations": 12
    })
}

/// A change to the baseline that breaks one rule.
type Mutation = Box<dyn Fn(&mut Value)>;

/// How a variant is expected to be judged.
#[derive(Debug, PartialEq)]
enum Only {
    /// Both refuse it.
    Both,
    /// Only agentc can: the rule spans files, which a schema of one file cannot see.
    Agentc(&'static str),
}

/// What is wrong with a variant's verdicts, if anything.
fn disagreement(what: &str, only: &Only, schema: bool, compiler: bool) -> Option<String> {
    let expected = match only {
        Only::Both => (true, true),
        Only::Agentc(_) => (false, true),
    };
    ((schema, compiler) != expected)
        .then(|| format!("{what}: schema refuses {schema}, agentc refuses {compiler}"))
}

#[test]
fn agent_json_variants_are_refused_by_both() {
    let validator = jsonschema::draft7::new(&Kind::Agent.schema()).unwrap();
    let variants: Vec<(&str, Mutation, Only)> = vec![
        ("max_iterations zero", Box::new(|v| v["max_iterations"] = json!(0)), Only::Both),
        ("max_iterations negative", Box::new(|v| v["max_iterations"] = json!(-3)), Only::Both),
        ("max_iterations a string", Box::new(|v| v["max_iterations"] = json!("12")), Only::Both),
        (
            "entry_points without system.md",
            Box::new(|v| v["entry_points"] = json!(["boundaries.md", "conventions.md"])),
            Only::Both,
        ),
        (
            "an entry point outside the agent",
            Box::new(|v| {
                v["entry_points"] =
                    json!(["system.md", "boundaries.md", "conventions.md", "../shared.md"])
            }),
            Only::Both,
        ),
        (
            "an entry point that is not Markdown",
            Box::new(|v| {
                v["entry_points"] = json!(["system.md", "boundaries.md", "conventions.md", "x.txt"])
            }),
            Only::Both,
        ),
        (
            "an entry point listed twice",
            Box::new(|v| {
                v["entry_points"] =
                    json!(["system.md", "boundaries.md", "conventions.md", "system.md"])
            }),
            Only::Both,
        ),
        ("version not semver", Box::new(|v| v["version"] = json!("1.2")), Only::Both),
        ("context_mode unknown", Box::new(|v| v["context_mode"] = json!("copy")), Only::Both),
        ("an unknown key", Box::new(|v| v["owner"] = json!("me")), Only::Both),
        ("description blank", Box::new(|v| v["description"] = json!("  ")), Only::Both),
        (
            "no trigger_rules",
            Box::new(|v| drop(v.as_object_mut().unwrap().remove("trigger_rules"))),
            Only::Both,
        ),
        ("tools a string", Box::new(|v| v["tools"] = json!("lookup_order")), Only::Both),
        (
            "a tool nobody defines",
            Box::new(|v| v["tools"] = json!(["lookup_order"])),
            Only::Agentc("a tool is defined by another file (a descriptor) or by the host"),
        ),
        (
            "a listed entry point that does not exist",
            Box::new(|v| {
                v["entry_points"] =
                    json!(["system.md", "boundaries.md", "conventions.md", "extra.md"])
            }),
            Only::Agentc("whether a file exists is not in the file"),
        ),
    ];
    let mut disagreements = Vec::new();
    for (what, mutate, only) in variants {
        let dir = tempfile::tempdir().unwrap();
        let agent = dir.path().join("escalations");
        for name in ["system.md", "boundaries.md", "conventions.md"] {
            write(&agent.join(name), "Some prompt text.\n");
        }
        let mut value = package();
        // The baseline compiles clean under both, so each variant tests one rule.
        assert!(validator.is_valid(&value));
        mutate(&mut value);
        write(&agent.join("agent.json"), &serde_json::to_string_pretty(&value).unwrap());
        let schema_refuses = !validator.is_valid(&value);
        let compiler_refuses = agentc_refuses(dir.path(), "escalations/agent.json");
        disagreements.extend(disagreement(what, &only, schema_refuses, compiler_refuses));
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn skill_frontmatter_variants_are_refused_by_both() {
    let validator = jsonschema::draft7::new(&Kind::Skill.schema()).unwrap();
    let base = json!({ "name": "refund-review", "description": "Decide whether a charge qualifies for a refund." });
    let variants: Vec<(&str, Value, Only)> = vec![
        ("a name with capitals", json!({ "name": "Refund-Review" }), Only::Both),
        ("a name with an underscore", json!({ "name": "refund_review" }), Only::Both),
        (
            "a description over 1,024 characters",
            json!({ "description": "x".repeat(1025) }),
            Only::Both,
        ),
        ("onSkip unknown", json!({ "tools": "lookup_order", "onSkip": "skip" }), Only::Both),
        (
            "a route with a bad guard",
            json!({ "routes": [{ "wrap-up": "when it fails" }] }),
            Only::Both,
        ),
        (
            "compatibility over 500 characters",
            json!({ "compatibility": "x".repeat(501) }),
            Only::Both,
        ),
        (
            "a route to a skill that does not exist",
            json!({ "routes": ["wrap-up"] }),
            Only::Agentc("the target is another file"),
        ),
    ];
    let mut disagreements = Vec::new();
    for (what, patch, only) in variants {
        let mut value = base.clone();
        for (key, field) in patch.as_object().unwrap() {
            value[key] = field.clone();
        }
        let dir = tempfile::tempdir().unwrap();
        let yaml: String =
            value.as_object().unwrap().iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
        write(
            &dir.path().join("skills/refund-review/SKILL.md"),
            &format!("---\n{yaml}---\nBody.\n"),
        );
        let schema_refuses = !validator.is_valid(&value);
        let compiler_refuses = agentc_refuses(dir.path(), "skills/refund-review/SKILL.md");
        disagreements.extend(disagreement(what, &only, schema_refuses, compiler_refuses));
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
