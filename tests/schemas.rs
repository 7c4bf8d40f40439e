//! The published JSON Schemas: current, valid draft-07, and in agreement with
//! the compiler, checked with an independent validator (`jsonschema`).

use std::path::{Path, PathBuf};

use agentc::schema::{
    AgentFrontmatter, AgentManifest, ClaudeCommandFrontmatter, ClaudeOutputStyleFrontmatter,
    ClaudeRuleFrontmatter, ClaudeSubagentFrontmatter, ClineRuleFrontmatter,
    CopilotAgentFrontmatter, CopilotInstructionsFrontmatter, CopilotPromptFrontmatter,
    CursorAgentFrontmatter, CursorRuleFrontmatter, Dialect, GeminiAgentFrontmatter, Kind,
    KiroSteeringFrontmatter, OpencodeAgentFrontmatter, OpencodeCommandFrontmatter, PluginManifest,
    ProjectFile, Registry, SkillFrontmatter, ToolManifest,
};
use agentc_compiler::RelPath;
use agentc_compiler::diagnostic::Severity;
use agentc_compiler::parse::files::{Reading, Syntax, decode_text};
use agentc_compiler::parse::yaml;
use agentc_compiler::source::Source;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn generated_schemas_are_current() {
    let dir = workspace().join("generated");
    let mut stale = Vec::new();
    for kind in Kind::ALL {
        let path = dir.join(kind.file_name());
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        if on_disk != kind.schema_text() {
            stale.push(kind.file_name());
        }
    }
    let mut extra: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !Kind::ALL.iter().any(|k| &k.file_name() == name))
        .collect();
    extra.sort();
    assert!(
        stale.is_empty() && extra.is_empty(),
        "generated/ is stale (changed: {stale:?}, not generated: {extra:?}); \
         regenerate it with: cargo run -p agentc-cli -- schema --out generated"
    );
}

#[test]
fn schemas_are_valid_draft_07_with_docs_on_every_field() {
    for kind in Kind::ALL {
        let schema = kind.schema();
        assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#", "{kind:?}");
        jsonschema::draft7::meta::validate(&schema).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        // The message schema is a choice of objects, told apart by their
        // `type`, whose `const` says what it is.
        let variants: Vec<&serde_json::Value> = match schema["oneOf"].as_array() {
            Some(variants) if kind == Kind::Message => variants.iter().collect(),
            _ => vec![&schema],
        };
        let properties = variants
            .iter()
            .flat_map(|v| v["properties"].as_object().unwrap())
            .filter(|(name, property)| !(*name == "type" && property.get("const").is_some()));
        for (name, property) in properties {
            assert!(property.get("description").is_some(), "{kind:?}.{name} has no description");
            // Outputs are read by programs, not written in an editor.
            if kind != Kind::Lockfile && kind != Kind::Message {
                assert!(property.get("title").is_some(), "{kind:?}.{name} has no title");
                assert!(property.get("examples").is_some(), "{kind:?}.{name} has no example");
            }
        }
        // Nested objects (trigger rules, the lockfile's agents…) explain their fields too.
        for (def, schema) in schema["definitions"].as_object().into_iter().flatten() {
            for (name, property) in schema["properties"].as_object().into_iter().flatten() {
                let described = property.get("description").is_some()
                    || property.get("$ref").is_some()
                    || property.get("allOf").is_some();
                assert!(described, "{kind:?}: {def}.{name} has no description");
            }
        }
    }
}

/// Reads a fixture as JSON: `.json` as is, `.yaml` through agentc's YAML reader.
fn instance(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).unwrap()
    } else if path.extension().is_some_and(|e| e == "toml") {
        agentc_compiler::parse::toml::parse(&text).unwrap().to_json()
    } else {
        yaml::parse(&text, 0).unwrap().root.unwrap().to_json()
    }
}

/// The diagnostics agentc's decoder gives for a fixture, errors only.
fn compiler_errors(kind: Kind, path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let source = Source::new(RelPath::root(path.display().to_string()), text.as_str());
    let syntax =
        if path.extension().is_some_and(|e| e == "json") { Syntax::Json } else { Syntax::Yaml };
    let json = Reading { syntax, ..Reading::JSON };
    let front = Reading { syntax, ..Reading::FRONTMATTER };
    let skill = |dialect: Dialect, out: &mut Vec<_>| {
        let reading = Reading { fields: Some(dialect.skill_fields()), ..front };
        drop(decode_text::<SkillFrontmatter>(&source, &text, 0, reading, out))
    };
    let config = |dialect: Dialect, out: &mut Vec<_>| {
        drop(agentc_compiler::dialects::config::config(&source, dialect, false, out))
    };
    let mut out = Vec::new();
    match kind {
        Kind::Agent => drop(decode_text::<AgentManifest>(&source, &text, 0, json, &mut out)),
        Kind::AgentMd => drop(decode_text::<AgentFrontmatter>(&source, &text, 0, front, &mut out)),
        Kind::Skill => skill(Dialect::Runbook, &mut out),
        Kind::AgentSkill => skill(Dialect::AgentSkill, &mut out),
        Kind::ClaudeSkill => skill(Dialect::ClaudeSkill, &mut out),
        Kind::CodexSkill => skill(Dialect::CodexSkill, &mut out),
        Kind::CopilotSkill => skill(Dialect::CopilotSkill, &mut out),
        Kind::Tool => drop(decode_text::<ToolManifest>(&source, &text, 0, json, &mut out)),
        Kind::Registry => drop(decode_text::<Registry>(&source, &text, 0, json, &mut out)),
        Kind::ClaudeSubagent => {
            drop(decode_text::<ClaudeSubagentFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::ClaudeCommand => {
            drop(decode_text::<ClaudeCommandFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::CopilotAgent => {
            drop(decode_text::<CopilotAgentFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::CopilotPrompt => {
            drop(decode_text::<CopilotPromptFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::CopilotInstructions => {
            drop(decode_text::<CopilotInstructionsFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::ClaudePlugin => {
            drop(decode_text::<PluginManifest>(&source, &text, 0, json, &mut out))
        }
        Kind::Project => drop(decode_text::<ProjectFile>(
            &source,
            &text,
            0,
            Reading { syntax: Syntax::Toml, ..Reading::JSON },
            &mut out,
        )),
        Kind::ClaudeMarketplace => config(Dialect::ClaudeMarketplace, &mut out),
        Kind::ClaudeHooks => config(Dialect::ClaudeHooks, &mut out),
        Kind::ClaudeSettings => config(Dialect::ClaudeSettings, &mut out),
        Kind::McpJson => config(Dialect::McpJson, &mut out),
        Kind::VscodeMcp => config(Dialect::VscodeMcp, &mut out),
        Kind::CodexMetadata => config(Dialect::CodexMetadata, &mut out),
        Kind::OpencodeConfig => config(Dialect::OpencodeConfig, &mut out),
        Kind::GeminiCommand => config(Dialect::GeminiCommand, &mut out),
        Kind::GeminiExtension => config(Dialect::GeminiExtension, &mut out),
        Kind::GeminiSettings => config(Dialect::GeminiSettings, &mut out),
        Kind::GeminiAgent => {
            drop(decode_text::<GeminiAgentFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::CodexConfig => config(Dialect::CodexConfig, &mut out),
        Kind::CodexHooks => config(Dialect::CodexHooks, &mut out),
        Kind::CodexAgent => config(Dialect::CodexAgent, &mut out),
        Kind::CodexPlugin => config(Dialect::CodexPlugin, &mut out),
        Kind::GeminiHooks => config(Dialect::GeminiHooks, &mut out),
        Kind::CursorHooks => config(Dialect::CursorHooks, &mut out),
        Kind::CursorEnvironment => config(Dialect::CursorEnvironment, &mut out),
        Kind::CursorCli => config(Dialect::CursorCli, &mut out),
        Kind::CursorAgent => {
            drop(decode_text::<CursorAgentFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::CursorRule => {
            drop(decode_text::<CursorRuleFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::ClineRule => {
            drop(decode_text::<ClineRuleFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::CopilotHooks => config(Dialect::CopilotHooks, &mut out),
        Kind::CopilotSetupSteps => config(Dialect::CopilotSetupSteps, &mut out),
        Kind::KiroSteering => {
            drop(decode_text::<KiroSteeringFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::ClaudeRule => {
            drop(decode_text::<ClaudeRuleFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::ClaudeOutputStyle => {
            drop(decode_text::<ClaudeOutputStyleFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::OpencodeAgent => {
            drop(decode_text::<OpencodeAgentFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::OpencodeCommand => {
            drop(decode_text::<OpencodeCommandFrontmatter>(&source, &text, 0, front, &mut out))
        }
        Kind::Lockfile | Kind::Message => unreachable!(),
    }
    out.into_iter().filter(|d| d.severity == Severity::Error).map(|d| d.message).collect()
}

fn fixtures(kind: Kind, which: &str) -> Vec<PathBuf> {
    let dir = workspace().join("tests/schema-fixtures").join(kind.name()).join(which);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
}

#[test]
fn valid_fixtures_pass_the_schema_and_the_compiler() {
    for kind in Kind::ALL.into_iter().filter(|k| ![Kind::Lockfile, Kind::Message].contains(k)) {
        let validator = jsonschema::draft7::new(&kind.schema()).unwrap();
        for path in fixtures(kind, "valid") {
            let errors: Vec<String> =
                validator.iter_errors(&instance(&path)).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{} fails its schema: {errors:?}", path.display());
            let found = compiler_errors(kind, &path);
            assert!(found.is_empty(), "{} fails to decode: {found:?}", path.display());
        }
    }
}

#[test]
fn invalid_fixtures_fail_the_schema() {
    for kind in Kind::ALL.into_iter().filter(|k| ![Kind::Lockfile, Kind::Message].contains(k)) {
        let validator = jsonschema::draft7::new(&kind.schema()).unwrap();
        for path in fixtures(kind, "invalid") {
            assert!(
                !validator.is_valid(&instance(&path)),
                "{} passes its schema but is invalid",
                path.display()
            );
        }
    }
}
