//! The README and the documentation it links tell the truth: the code table is
//! the catalog's, the example diagnostics are what agentc prints for the
//! mistakes they describe, the snippets are the examples' code.

mod common;
use common::copy_dir;
use std::path::{Path, PathBuf};

use agentc_cli::{Io, run};
use agentc_compiler::catalog::markdown_table;

/// The README, then the pages of `docs/` its reference moved to, as one text:
/// each test finds its block wherever it lives.
fn readme() -> String {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pages =
        ["README.md", "docs/compiler.md", "docs/rust.md", "docs/lockfile.md", "docs/editors.md"];
    let pages = pages.into_iter().chain(["docs/pictures.md", "docs/dependencies.md"]);
    pages.map(|page| std::fs::read_to_string(top.join(page)).unwrap()).collect()
}

#[test]
fn code_table_matches_the_catalog() {
    let readme = readme();
    let start = readme.find("<!-- codes:start -->\n").unwrap() + "<!-- codes:start -->\n".len();
    let end = readme.find("<!-- codes:end -->").unwrap();
    assert_eq!(
        &readme[start..end],
        markdown_table(),
        "the README's code table is stale; replace it with the output of `agentc explain --list`"
    );
}

#[test]
fn example_diagnostic_is_real() {
    let example = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/support-desk");
    let temp = tempfile::tempdir().unwrap();
    let copy = temp.path().join("support-desk");
    copy_dir(&example, &copy);
    let skill = copy.join("agents/skills/verify-identity/SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    let mutated: String = text
        .lines()
        .map(|line| {
            if line.starts_with("description: Confirm a customer") {
                "description: Verify: confirm the customer with a one-time code".to_owned()
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(text.trim_end(), mutated, "the README's mistake no longer applies to the example");
    std::fs::write(&skill, mutated + "\n").unwrap();

    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let args = [
        "agentc".to_owned(),
        "check".into(),
        copy.join("agents").display().to_string(),
        "--workspace".into(),
        copy.display().to_string(),
        "--registry".into(),
        copy.join("registry.yaml").display().to_string(),
    ];
    let code = run(
        &args,
        &mut Io { stdout: &mut stdout, stderr: &mut stderr, color: false, progress: false },
    );
    assert_eq!(code, 1);
    // The README runs the command from the repository's top.
    let shown_from = format!("{}/", temp.path().display());
    let human = String::from_utf8(stderr).unwrap().replace(&shown_from, "examples/");
    assert!(
        readme().contains(human.trim_end()),
        "the README's example diagnostic differs from agentc's output:\n{human}"
    );
}

#[test]
fn wild_formats_example_is_real() {
    let project = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/readme-wild");
    let args =
        ["agentc".to_owned(), "check".into(), project.display().to_string(), "--verbose".into()];
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = run(
        &args,
        &mut Io { stdout: &mut stdout, stderr: &mut stderr, color: false, progress: false },
    );
    assert_eq!(code, 1);
    // The README runs the command in the project's folder.
    let from_here =
        format!("{}/", project.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display());
    let human = String::from_utf8(stderr).unwrap().replace(&from_here, "");
    let shown = format!("$ agentc check . --verbose\n{}", human.trim_end());
    assert!(
        readme().contains(&shown),
        "the README's example for the formats of the wild differs from agentc's output:\n{human}"
    );
}

#[test]
fn the_build_script_shown_is_the_example_s() {
    let readme = readme();
    let shown = readme.rfind("```rust\n// build.rs\n").expect("the README's build.rs");
    let body = &readme[shown + "```rust\n// build.rs\n".len()..];
    let body = &body[..body.find("```").unwrap()];
    let example = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/support-desk/build.rs"),
    )
    .unwrap();
    let code: String =
        example.lines().filter(|l| !l.starts_with("//!")).collect::<Vec<_>>().join("\n");
    assert_eq!(body.trim(), code.trim(), "the README's build.rs is not the example's");
}

#[test]
fn the_schema_path_shown_resolves_from_the_example_s_file() {
    let readme = readme();
    let at = readme.find("{ \"$schema\": \"").unwrap() + "{ \"$schema\": \"".len();
    let path = &readme[at..at + readme[at..].find('"').unwrap()];
    let example =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/support-desk/agents/escalations");
    assert!(example.join(path).is_file(), "{path} does not resolve from {}", example.display());
    let written = std::fs::read_to_string(example.join("agent.json")).unwrap();
    assert!(
        written.contains(&format!("\"$schema\": \"{path}\"")),
        "the example's agent.json differs"
    );
}

#[test]
fn the_set_up_commands_are_what_ci_runs() {
    let readme = readme();
    let ci =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run")).unwrap();
    assert!(readme.contains("cargo run -p agentc-cli -- check examples/support-desk\n"));
    assert!(
        readme.contains("\ncargo test --workspace\n") && ci.contains("\ncargo test --workspace\n")
    );
    assert!(readme.contains("cargo install --locked --path cli"));
}

#[test]
fn the_service_snippet_is_the_example_s_test() {
    let readme = readme();
    let start = readme.find("```rust\nuse agentc::Lockfile;\n").expect("the service snippet");
    let body = &readme[start + "```rust\n".len()..];
    let shown: Vec<&str> = body[..body.find("```").unwrap()]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let test = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/support-desk/tests/service.rs"),
    )
    .unwrap();
    let run = &test[test.find("// README: begin").unwrap()..test.find("// README: end").unwrap()];
    // Shown whole: a `main` whose `Result` the `?` returns into.
    let mut ran: Vec<&str> =
        vec!["use agentc::Lockfile;", "fn main() -> Result<(), Box<dyn std::error::Error>> {"];
    ran.extend(run.lines().skip(1).map(str::trim).filter(|l| !l.is_empty()));
    ran.extend(["Ok(())", "}"]);
    assert_eq!(shown, ran, "the README's service snippet is not what the example's test runs");
}

#[test]
fn the_project_file_shown_is_valid() {
    use agentc::schema::ProjectFile;
    use agentc_compiler::parse::files::{Reading, Syntax, decode_text};
    let readme = readme();
    let start = readme.find("```toml\n# agentc.toml").expect("the README's agentc.toml");
    let body = &readme[start + "```toml\n".len()..];
    let text = &body[..body.find("```").unwrap()];
    let source =
        agentc_compiler::source::Source::new(agentc_compiler::RelPath::given("agentc.toml"), text);
    let mut out = Vec::new();
    let reading = Reading { syntax: Syntax::Toml, ..Reading::JSON };
    let doc = decode_text::<ProjectFile>(&source, text, 0, reading, &mut out);
    assert!(doc.is_some() && out.is_empty(), "{out:?}");
    // Its keys are the ones the example's project file uses.
    let example = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/support-desk/agentc.toml"),
    )
    .unwrap();
    for key in [
        "root = \"agents\"",
        "workspace = \".\"",
        "registry = \"registry.yaml\"",
        "lockfile = \"agentc.lock\"",
    ] {
        assert!(text.contains(key) && example.contains(key), "{key}");
    }
}

/// Every dependency of every crate of the workspace is in the README's table
/// of dependencies (docs/dependencies.md), which says why it is there.
#[test]
fn every_dependency_is_explained() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members_line = manifest.lines().find(|l| l.starts_with("members")).unwrap();
    let members = members_line.split('"').skip(1).step_by(2);
    let table = std::fs::read_to_string(root.join("docs/dependencies.md")).unwrap();
    let mut missing = Vec::new();
    for crate_dir in std::iter::once(".").chain(members) {
        let text = std::fs::read_to_string(root.join(crate_dir).join("Cargo.toml")).unwrap();
        let mut in_dependencies = false;
        for line in text.lines() {
            if line.starts_with('[') {
                in_dependencies = line.trim_end_matches(']').ends_with("dependencies");
                continue;
            }
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            if in_dependencies
                && !name.is_empty()
                && !name.starts_with("agentc")
                && !name.starts_with('#')
                && !table.contains(&format!("`{name}`"))
            {
                missing.push(format!("{name} ({crate_dir})"));
            }
        }
    }
    assert!(missing.is_empty(), "not in the README's dependency table: {missing:?}");
}

/// Runs agentc from the repository's top, as the README does; returns stdout.
fn agentc_at_top(args: &[&str]) -> String {
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.insert(0, "agentc".to_owned());
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let args: Vec<String> = args
        .into_iter()
        .map(|a| if a.starts_with("examples/") { top.join(&a).display().to_string() } else { a })
        .collect();
    let code = run(
        &args,
        &mut Io { stdout: &mut stdout, stderr: &mut stderr, color: false, progress: false },
    );
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&stderr));
    String::from_utf8(stdout).unwrap()
}

#[test]
fn the_runbook_pictures_are_current() {
    let readme = readme();
    let start = readme.find("<!-- graph:start -->\n```mermaid\n").unwrap()
        + "<!-- graph:start -->\n```mermaid\n".len();
    let end = readme.find("```\n<!-- graph:end -->").unwrap();
    assert_eq!(
        &readme[start..end],
        agentc_at_top(&["graph", "examples/support-desk"]),
        "the README's Mermaid block is stale; replace it with `agentc graph examples/support-desk`"
    );
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dot = std::fs::read_to_string(top.join("docs/images/support-desk.dot")).unwrap();
    assert_eq!(
        dot,
        agentc_at_top(&["graph", "examples/support-desk", "--format", "dot"]),
        "docs/images/support-desk.dot is stale: run `agentc graph examples/support-desk --format dot \
         -o docs/images/support-desk.dot`, then `dot -Tpng -Gdpi=72 docs/images/support-desk.dot \
         -o docs/images/support-desk.png`"
    );
    let png = std::fs::read(top.join("docs/images/support-desk.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "docs/images/support-desk.png is not a PNG");
    assert!(readme.contains("](images/support-desk.png)"), "docs/pictures.md shows the picture");
}
