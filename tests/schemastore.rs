//! agentc accepts what SchemaStore's Claude Code schemas accept: every
//! positive test SchemaStore checks `claude-code-settings.json`,
//! `claude-code-plugin-manifest.json` and `claude-code-marketplace.json`
//! against (copied into `tests/schemastore/`, see its SOURCE.txt), placed
//! where Claude Code reads it and checked with no flag, gives no error of
//! the file's own. What agentc checks across files (a marketplace's plugin
//! folder exists) is not the schema's to say, and warnings (keys Claude
//! Code 2.1.332 no longer reads) are allowed; `docs/formats.md` lists where
//! agentc is stricter than SchemaStore and why.

use std::path::{Path, PathBuf};

use agentc_compiler::fs::RealFs;
use agentc_compiler::{Options, Severity, compile};

/// Codes about other files than the one checked.
const ACROSS_FILES: &[&str] = &["missing-path", "unknown-mcp-server"];

fn tests_of(schema: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemastore").join(schema);
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty(), "no SchemaStore tests in {}", dir.display());
    files
}

/// The errors agentc gives on `file` placed at `place` in a repository.
fn errors(file: &Path, place: &str) -> Vec<String> {
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(project.path().join(".git")).unwrap();
    let target = project.path().join(place);
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::copy(file, &target).unwrap();
    let compilation = compile(&RealFs, &Options::new(project.path())).unwrap();
    compilation
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && !ACROSS_FILES.contains(&d.code.as_str()))
        .map(|d| format!("{}: {} ({})", file.display(), d.message, d.code.as_str()))
        .collect()
}

#[test]
fn agentc_accepts_what_schemastore_accepts() {
    let mut refused = Vec::new();
    for (schema, place) in [
        ("claude-code-settings", ".claude/settings.json"),
        ("claude-code-plugin-manifest", ".claude-plugin/plugin.json"),
        ("claude-code-marketplace", ".claude-plugin/marketplace.json"),
    ] {
        for file in tests_of(schema) {
            refused.extend(errors(&file, place));
        }
    }
    // `defaultMode: "delegate"`: SchemaStore lists the mode, Claude Code
    // 2.1.332 does not, and skips a settings file that holds it.
    let names: Vec<String> = refused
        .iter()
        .map(|r| r.rsplit_once('/').map_or(r.as_str(), |(_, name)| name).to_owned())
        .collect();
    assert_eq!(
        names,
        ["complete-config.json: `delegate` is not a Claude Code permission mode (invalid-value)"],
        "agentc refuses what SchemaStore accepts beyond the one known difference"
    );
}
