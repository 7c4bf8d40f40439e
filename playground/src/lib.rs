//! agentc in the browser: the compiler, built for WebAssembly, checks files
//! held in memory ([`agentc_compiler::memfs::MemFs`]) as `agentc check`
//! checks them on disk, and a static page (`playground/www/`) shows the
//! diagnostics as the files are typed.
//!
//! The page talks to the module through a small C ABI ([`abi`], exported
//! by the WebAssembly build) carrying JSON: [`check_json`] takes the files and answers
//! with every diagnostic as `agentc check --message-format json` writes it,
//! plus its rendering as `agentc check` prints it. Nothing here decides a
//! diagnostic: the project is compiled by
//! [`agentc_compiler::folder::compile_folder`], what `agentc check`, the
//! language server and `agentc mcp` compile a folder with.

use std::sync::Arc;

use agentc_compiler::Code;
use agentc_compiler::diagnostic::{Counts, Diagnostic, Origin, RelPath};
use agentc_compiler::emit::{self, Bases, Sources};
use agentc_compiler::folder::compile_folder;
use agentc_compiler::memfs::MemFs;
use agentc_schema::message::{self, Message};
use serde::{Deserialize, Serialize};

pub mod abi;
mod examples;

pub use examples::{EXAMPLES, Example};

/// What makes the files a repository's top, put among them unless they hold
/// `.git` already: an empty file, as a git worktree's `.git` is a file.
pub const MARKER: &str = ".git";

/// One file of the project: its path from the project's top (`/`-separated)
/// and its text.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub struct File {
    pub path: String,
    pub text: String,
}

/// What the page asks for: the project's files.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub files: Vec<File>,
}

/// What a check found.
#[derive(Clone, Debug, Serialize)]
pub struct Checked {
    /// In report order.
    pub diagnostics: Vec<Shown>,
    pub summary: message::Summary,
}

/// One diagnostic: the fields of a line of `agentc check --message-format
/// json`, and the text `agentc check` prints for it (without colour).
#[derive(Clone, Debug, Serialize)]
pub struct Shown {
    #[serde(flatten)]
    pub diagnostic: message::Diagnostic,
    pub rendered: String,
}

/// Compiles `files` as `agentc check` compiles a repository holding them
/// and nothing else (and [`MARKER`]), run at its top: its `agentc.toml` when
/// there is one, else every layout the repository's top holds.
pub fn check(files: &[File]) -> Result<Checked, String> {
    let mut fs = MemFs::new();
    for file in files {
        let shown = emit::escape_controls(&file.path);
        let replaced = fs
            .insert(&file.path, file.text.as_bytes())
            .map_err(|err| format!("the file `{shown}` cannot be placed: {err}"))?;
        if replaced.is_some() {
            return Err(format!("two files are at `{shown}`"));
        }
    }
    // Files are a repository's. Outside one, agentc reads a top-level
    // `skills/` as its own runbooks, not as the hosts' Agent Skills.
    let repository = fs.files().any(|(path, _)| path == MARKER || path.starts_with(".git/"));
    if !repository {
        fs.insert(MARKER, Vec::new()).map_err(|err| err.to_string())?;
    }
    let mut compilation = compile_folder(&fs, fs.root(), None);
    compilation.diagnostics.iter_mut().for_each(unroot_given);
    compilation.diagnostics.iter_mut().for_each(root_as_dot);
    let bases = Bases {
        root: Some(shown(&compilation.root)),
        workspace: compilation.workspace.as_deref().map(shown),
    };
    // As `agentc check` reports: the project file's text too when a
    // diagnostic is in it, every secret found masked in all that is shown.
    let mut sources = Sources::new();
    for (path, source) in compilation
        .sources
        .iter()
        .chain((compilation.project_source.iter()).map(|project| (&project.path, project)))
    {
        let mut path = path.clone();
        unroot(&mut path);
        sources.entry(path).or_insert_with(|| source.clone());
    }
    let redactor = compilation.redactor();
    let mut diagnostics = Vec::with_capacity(compilation.diagnostics.len());
    for diagnostic in &compilation.diagnostics {
        let json = emit::escape_json(emit::json(diagnostic, &sources, &bases).to_string());
        let clean = redactor.clean(&json);
        let diagnostic_json = match serde_json::from_str(&clean) {
            Ok(Message::Diagnostic(shown)) => *shown,
            Ok(Message::Summary(_)) | Err(_) => {
                return Err(format!("a diagnostic could not be read back from its JSON: {clean}"));
            }
        };
        let human = emit::human_from(diagnostic, &sources, false, &bases);
        let rendered = redactor.clean(&human).into_owned();
        diagnostics.push(Shown { diagnostic: diagnostic_json, rendered });
    }
    let counts = Counts::of(&compilation.diagnostics);
    let summary = message::Summary { errors: counts.errors, warnings: counts.warnings };
    Ok(Checked { diagnostics, summary })
}

/// [`check`] from and to JSON: `{"files": [{"path", "text"}, ...]}` in,
/// [`Checked`] out, or `{"error": "..."}` when the request cannot be
/// checked (not JSON of that shape, a path that names no file).
pub fn check_json(request: &[u8]) -> String {
    let answer = serde_json::from_slice::<Request>(request)
        .map_err(|err| {
            format!("the request is not `{{\"files\": [{{\"path\", \"text\"}}]}}`: {err}")
        })
        .and_then(|request| check(&request.files))
        .and_then(|checked| serde_json::to_value(checked).map_err(|err| err.to_string()));
    match answer {
        Ok(value) => value.to_string(),
        Err(error) => serde_json::json!({ "error": error }).to_string(),
    }
}

/// The page of a diagnostic code, as `agentc explain CODE` prints it.
pub fn explain(code: &str) -> Option<String> {
    Code::parse(code.trim()).map(|code| format!("{}{}", code.explanation(), code.level_help()))
}

/// The examples as JSON: `[{"id", "title", "files": [{"path", "text"}]}]`.
pub fn examples_json() -> String {
    let examples: Vec<serde_json::Value> = EXAMPLES
        .iter()
        .map(|example| {
            serde_json::json!({
                "id": example.id,
                "title": example.title,
                "files": example.files(),
            })
        })
        .collect();
    serde_json::Value::Array(examples).to_string()
}

/// The tree's root as a path is shown from it: `.` for the top, else the
/// folder below it (`agents` when `agentc.toml` says `root = "agents"`).
fn shown(path: &std::path::Path) -> String {
    match path.strip_prefix("/") {
        Ok(below) if !below.as_os_str().is_empty() => below.to_string_lossy().into_owned(),
        _ => ".".to_owned(),
    }
}

/// The project file is read by its absolute path in the tree (`/agentc.toml`)
/// and shown as given; `agentc check` run at the top shows it as
/// `agentc.toml`, and so does the page.
fn unroot(file: &mut RelPath) {
    if file.origin == Origin::Given
        && let Some(relative) = file.path.strip_prefix('/')
    {
        file.path = Arc::from(relative);
    }
}

/// The tree's root is `/`; `agentc check` run at the top of a repository
/// names it `.`. The one diagnostic that names the root folder by its path
/// (the root is empty: `empty-root`, which may suggest a folder below) says
/// `.` here too.
fn root_as_dot(diagnostic: &mut Diagnostic) {
    if diagnostic.code == Code::EmptyRoot {
        diagnostic.message = diagnostic.message.replacen("`/`", "`.`", 1);
        if let Some(help) = &mut diagnostic.help {
            *help = help.replacen("`agentc check /", "`agentc check ./", 1);
        }
    }
}

/// [`unroot`] on every path of `diagnostic`.
fn unroot_given(diagnostic: &mut Diagnostic) {
    unroot(&mut diagnostic.location.file);
    diagnostic.labels.iter_mut().for_each(|label| unroot(&mut label.location.file));
    if let Some(fix) = &mut diagnostic.fix {
        fix.edits.iter_mut().for_each(|edit| unroot(&mut edit.file));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, text: &str) -> File {
        File { path: path.to_owned(), text: text.to_owned() }
    }

    #[test]
    fn a_planted_mistake_is_found_at_its_place() {
        let skill =
            "---\nname: deploy\ndescription: Deploys.\nallowed-tools: Read Grpe\n---\nGo.\n";
        let checked = check(&[file(".claude/skills/deploy/SKILL.md", skill)]).unwrap();
        let [shown] = checked.diagnostics.as_slice() else { panic!("{checked:?}") };
        let d = &shown.diagnostic;
        assert_eq!((d.code.as_str(), d.line, d.column), ("unknown-tool", Some(4), Some(21)));
        assert_eq!(d.file.as_deref(), Some(".claude/skills/deploy/SKILL.md"));
        assert!(shown.rendered.starts_with("warning[unknown-tool]: `Grpe` is not"), "{shown:?}");
    }

    #[test]
    fn the_project_file_is_shown_from_the_top() {
        let checked = check(&[file("agentc.toml", "[lints]\nunknown-tol = \"deny\"\n")]).unwrap();
        let [shown] = checked.diagnostics.as_slice() else { panic!("{checked:?}") };
        assert_eq!(shown.diagnostic.file.as_deref(), Some("agentc.toml"));
        assert!(shown.rendered.contains("--> agentc.toml:2:1"), "{}", shown.rendered);
    }

    #[test]
    fn a_request_that_names_no_file_is_refused() {
        let answer = |json: &str| -> serde_json::Value {
            serde_json::from_str(&check_json(json.as_bytes())).unwrap()
        };
        for request in [
            "not json",
            r#"{"files": [{"path": "../x.md", "text": ""}]}"#,
            r#"{"files": [{"path": "a", "text": ""}, {"path": "a/b", "text": ""}]}"#,
            r#"{"files": [{"path": "a", "text": ""}, {"path": "./a", "text": ""}]}"#,
            r#"{"files": [], "flags": []}"#,
        ] {
            assert!(answer(request)["error"].is_string(), "{request}");
        }
        // No file is a project, as an empty folder is to `agentc check`.
        let empty = answer(r#"{"files": []}"#);
        assert_eq!(empty["diagnostics"][0]["code"], "empty-root", "{empty}");
    }

    #[test]
    fn every_code_a_diagnostic_can_have_is_explained() {
        for code in Code::ALL {
            let page = explain(code.as_str()).unwrap();
            assert!(page.contains("## Changing its level"), "{code:?}");
        }
        assert_eq!(explain("no-such-code"), None);
    }
}
