//! The build.rs door: generate the agents module into `$OUT_DIR`.
//!
//! ```no_run
//! // in build.rs's `main`:
//! agentc_compiler::build_api::Config::new("agents")
//!     .registry("registry.yaml")
//!     .tools(["lookup_order", "issue_refund"])
//!     .compile()
//!     .unwrap();
//! ```
//!
//! and in the crate: `include!(concat!(env!("OUT_DIR"), "/agents.rs"));`

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::codegen::{self, HostTool};
use crate::embed::{Door, Failure, Request, run};

/// Configures and runs code generation from a build script.
#[derive(Clone)]
pub struct Config {
    request: Request,
    out_file: Option<PathBuf>,
    invalid: Vec<String>,
}

/// Paths in a build script are relative to the package, as cargo runs it there.
fn from_manifest(path: &Path) -> PathBuf {
    match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(dir) if path.is_relative() => PathBuf::from(dir).join(path),
        _ => path.to_path_buf(),
    }
}

impl Config {
    /// Generate from the agents directory `root`.
    pub fn new(root: impl AsRef<Path>) -> Config {
        let root = root.as_ref();
        let request = Request {
            door: Door::BuildScript,
            ..Request::new(from_manifest(root), root.display().to_string())
        };
        Config { request, out_file: None, invalid: Vec::new() }
    }

    /// Generate what the project file says: the nearest `agentc.toml` at or
    /// above the package's folder, read as `agentc check` reads it, so the
    /// command line and the build cannot disagree. Host tools are still named
    /// here ([`Config::tool`]), as they are Rust paths.
    pub fn from_project() -> Config {
        Config::from_project_in(&from_manifest(Path::new(".")))
    }

    fn from_project_in(dir: &Path) -> Config {
        match Request::from_project(dir, Door::BuildScript) {
            Ok(request) => Config { request, out_file: None, invalid: Vec::new() },
            Err(failure) => {
                // A project file with errors is still watched: fixing it reruns.
                let project_file = crate::project_file::find(&crate::fs::RealFs, dir);
                let request = Request {
                    project_file,
                    door: Door::BuildScript,
                    ..Request::new(dir.to_path_buf(), ".".to_owned())
                };
                Config { request, out_file: None, invalid: vec![failure.message] }
            }
        }
    }

    /// The repository root contributing `AGENTS.md` and `.agents/`.
    pub fn workspace(mut self, dir: impl AsRef<Path>) -> Config {
        self.request.workspace = Some(from_manifest(dir.as_ref()));
        self.request.shown_workspace = Some(dir.as_ref().display().to_string());
        self
    }

    /// The host's registry file (JSON or YAML).
    pub fn registry(mut self, file: impl AsRef<Path>) -> Config {
        self.request.registry = Some(from_manifest(file.as_ref()));
        self
    }

    /// Tools the host implements, each by a function (or value implementing
    /// `agentc::runtime::HostTool`) of the same name in scope where the
    /// generated file is included.
    pub fn tools<I: IntoIterator<Item = S>, S: AsRef<str>>(mut self, names: I) -> Config {
        for name in names {
            let name = name.as_ref();
            self = self.tool(name, name);
        }
        self
    }

    /// A tool the host implements at `path` (e.g. `crate::tools::lookup_order`).
    pub fn tool(mut self, name: &str, path: &str) -> Config {
        match syn::parse_str::<syn::Path>(path) {
            Ok(path) => self.request.host_tools.push(HostTool { name: name.to_owned(), path }),
            Err(err) => self
                .invalid
                .push(format!("`{path}` (for the tool `{name}`) is not a Rust path: {err}")),
        }
        self
    }

    /// Generates the `Tools` trait with async methods (`fn tool(&self, input)
    /// -> impl Future<Output = Outcome> + Send`, which an `async fn`
    /// implements), as the macro's `async_tools = true` does.
    pub fn async_tools(mut self, on: bool) -> Config {
        self.request.async_tools = on;
        self
    }

    /// Switches a scope off (`repo-skills`, …), as `--exclude` does.
    pub fn exclude(mut self, scope: &str) -> Config {
        self.request.exclude.push(scope.to_owned());
        self
    }

    /// Generates from this committed lockfile, after verifying its digests.
    pub fn lockfile(mut self, path: impl AsRef<Path>) -> Config {
        self.request.lockfile = Some(from_manifest(path.as_ref()));
        self.request.shown_lockfile = Some(path.as_ref().display().to_string());
        self
    }

    /// Where to write (default: `$OUT_DIR/agents.rs`).
    pub fn out_file(mut self, path: impl AsRef<Path>) -> Config {
        self.out_file = Some(path.as_ref().to_path_buf());
        self
    }

    /// The generated tokens, without writing anything (what the macro emits).
    pub fn generate(&self) -> Result<proc_macro2::TokenStream, Failure> {
        if !self.invalid.is_empty() {
            return Err(Failure::new(self.invalid.join("\n")));
        }
        run(&self.request).map(|g| g.tokens)
    }

    /// Generates, prints `cargo:rerun-if-changed` for every input, the
    /// directories (so added files are seen) and `agentc.toml`, and
    /// `cargo:rustc-env=AGENTC_TRACKED` naming those directories (for an
    /// `agents!` in the same crate, which then sees added files), prints
    /// warnings, and writes the formatted file if its content changed.
    /// Returns the file's path; on failure, the rendered diagnostics, printed
    /// by nothing here so that `.expect(…)` shows them once.
    pub fn compile(self) -> Result<PathBuf, Failure> {
        self.compile_to(&mut std::io::stdout().lock())
    }

    /// [`Config::compile`], its instructions to cargo written to `cargo`.
    fn compile_to(self, cargo: &mut dyn Write) -> Result<PathBuf, Failure> {
        let mut say = |line: String| {
            writeln!(cargo, "{line}")
                .map_err(|e| Failure::new(format!("cannot write to cargo: {e}")))
        };
        say(format!("cargo:rerun-if-changed={}", self.request.root.display()))?;
        let mut watched = vec![self.request.root.display().to_string()];
        if let Some(ws) = &self.request.workspace {
            say(format!("cargo:rerun-if-changed={}", ws.join("AGENTS.md").display()))?;
            say(format!("cargo:rerun-if-changed={}", ws.join(".agents").display()))?;
            if ws.join(".agents").is_dir() {
                watched.push(ws.join(".agents").display().to_string());
            }
        }
        // The folders cargo now watches, for an `agents!` in the same crate:
        // it asks for this line when its folders are not among them.
        say(format!("cargo:rustc-env=AGENTC_TRACKED={}", watched.join(",")))?;
        let request = &self.request;
        for path in
            [&request.registry, &request.lockfile, &request.project_file].into_iter().flatten()
        {
            say(format!("cargo:rerun-if-changed={}", path.display()))?;
        }
        if !self.invalid.is_empty() {
            return Err(Failure::new(self.invalid.join("\n")));
        }
        let generated = run(&self.request)?;
        for input in &generated.inputs {
            say(format!("cargo:rerun-if-changed={}", input.display()))?;
        }
        for warning in &generated.warnings {
            for line in warning.lines() {
                say(format!("cargo:warning={line}"))?;
            }
        }
        let out = match self.out_file {
            Some(path) => path,
            None => {
                let dir = std::env::var_os("OUT_DIR").ok_or_else(|| {
                    Failure::new("OUT_DIR is not set: call `compile()` from a build script, or set `out_file`")
                })?;
                PathBuf::from(dir).join("agents.rs")
            }
        };
        // A found secret never reaches a file agentc writes, generated code
        // included: the items hold it masked, as the lockfile does.
        let text = codegen::format(&generated.tokens);
        let text = generated.redactor.clean(&text).into_owned();
        if std::fs::read_to_string(&out).ok().as_deref() != Some(text.as_str()) {
            crate::write::write_atomic(&out, text.as_bytes())
                .map_err(|e| Failure::new(format!("cannot write {}: {e}", out.display())))?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A project whose one skill uses `issue_refund`, which only the registry declares.
    fn project(toml: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let skill = root.join("agents/skills/refund/SKILL.md");
        std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
        std::fs::write(
            &skill,
            "---\nname: refund\ndescription: Use when a customer asks for a refund.\n\
             tools: issue_refund\n---\nRefund the order.\n",
        )
        .unwrap();
        std::fs::write(root.join("registry.yaml"), "tools: [issue_refund]\n").unwrap();
        std::fs::write(root.join("agentc.toml"), toml).unwrap();
        (dir, root)
    }

    fn rerun_lines(cargo: &[u8]) -> Vec<String> {
        let text = String::from_utf8(cargo.to_vec()).unwrap();
        text.lines()
            .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
            .map(String::from)
            .collect()
    }

    #[test]
    fn an_edit_to_the_project_file_reruns_the_build_script() {
        let (_dir, root) = project("root = \"agents\"\nregistry = \"registry.yaml\"\n");
        let mut cargo = Vec::new();
        let out = Config::from_project_in(&root)
            .tool("issue_refund", "crate::issue_refund")
            .out_file(root.join("agents.rs"))
            .compile_to(&mut cargo)
            .unwrap();
        assert_eq!(out, root.join("agents.rs"));
        let reruns = rerun_lines(&cargo);
        for file in ["agentc.toml", "registry.yaml", "agents/skills/refund/SKILL.md"] {
            let path = root.join(file).display().to_string();
            assert!(reruns.contains(&path), "no rerun-if-changed for {file}: {reruns:#?}");
        }
    }

    #[test]
    fn a_project_file_with_errors_is_still_watched() {
        let (_dir, root) = project("root = 3\n");
        let mut cargo = Vec::new();
        let failure = Config::from_project_in(&root).compile_to(&mut cargo).unwrap_err();
        assert!(failure.message.contains("has errors"), "{failure}");
        let path = root.join("agentc.toml").display().to_string();
        assert!(rerun_lines(&cargo).contains(&path), "{}", String::from_utf8_lossy(&cargo));
    }

    /// The generated code holds a secret the `secret` rule found masked, as
    /// every file agentc writes does, whatever the rule's level.
    #[test]
    fn the_generated_code_holds_no_found_secret() {
        let (_dir, root) = project(
            "root = \"agents\"\nregistry = \"registry.yaml\"\n[lints]\nsecret = \"warn\"\n",
        );
        let hidden = "Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo";
        std::fs::write(
            root.join("agents/skills/refund/SKILL.md"),
            format!(
                "---\nname: refund\ndescription: Refunds with ghp_{hidden}.\n\
                 tools: issue_refund\n---\nRefund the order.\n"
            ),
        )
        .unwrap();
        Config::from_project_in(&root)
            .tool("issue_refund", "crate::issue_refund")
            .out_file(root.join("agents.rs"))
            .compile_to(&mut Vec::new())
            .unwrap();
        let written = std::fs::read_to_string(root.join("agents.rs")).unwrap();
        assert!(!written.contains(hidden), "{written}");
        assert!(written.contains(&format!("Refunds with ghp_{}.", "*".repeat(hidden.len()))));
    }

    /// The macro's expansion holds a found secret masked, as the build
    /// script's file does.
    #[test]
    fn the_macro_expands_no_found_secret() {
        let (_dir, root) = project(
            "root = \"agents\"\nregistry = \"registry.yaml\"\n[lints]\nsecret = \"warn\"\n",
        );
        let hidden = "Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo";
        std::fs::write(
            root.join("agents/skills/refund/SKILL.md"),
            format!(
                "---\nname: refund\ndescription: Refunds with ghp_{hidden}.\n\
                 tools: issue_refund\n---\nRefund the order.\n"
            ),
        )
        .unwrap();
        let mut request = Request::from_project(&root, Door::Macro).unwrap();
        request.host_tools.push(HostTool {
            name: "issue_refund".to_owned(),
            path: syn::parse_str("crate::issue_refund").unwrap(),
        });
        let generated = run(&request).unwrap();
        assert!(generated.tokens.to_string().contains(hidden));
        let expanded = generated.masked_tokens().unwrap_or_else(|f| panic!("{}", f.message));
        let expanded = expanded.to_string();
        assert!(!expanded.contains(hidden), "{expanded}");
        assert!(expanded.contains(&format!("Refunds with ghp_{}.", "*".repeat(hidden.len()))));
    }

    /// The macro includes the project file, so rustc re-expands it on an edit.
    #[test]
    fn the_macro_includes_the_project_file() {
        let (_dir, root) = project("root = \"agents\"\nregistry = \"registry.yaml\"\n");
        let mut request = Request::from_project(&root, Door::Macro).unwrap();
        request.host_tools.push(HostTool {
            name: "issue_refund".to_owned(),
            path: syn::parse_str("crate::issue_refund").unwrap(),
        });
        let generated = run(&request).unwrap();
        assert!(generated.inputs.contains(&root.join("agentc.toml")), "{:#?}", generated.inputs);
    }

    /// A build script is told what it can write, not the macro's syntax.
    #[test]
    fn a_missing_implementation_is_explained_for_the_door_used() {
        let (_dir, root) = project("root = \"agents\"\nregistry = \"registry.yaml\"\n");
        let failure = Config::from_project_in(&root).compile_to(&mut Vec::new()).unwrap_err();
        assert_eq!(
            failure.message,
            "the agents use `issue_refund`, which the registry declares, but the crate names no \
             implementation for it\n\
             help: call `.tool(\"issue_refund\", \"crate::path::to::issue_refund\")` on the build \
             script's `Config`, naming the function that implements it"
        );
        let macro_failure = match run(&Request::from_project(&root, Door::Macro).unwrap()) {
            Err(failure) => failure.message,
            Ok(_) => panic!("generated without the host tool"),
        };
        assert!(
            macro_failure.ends_with(
                "help: add it to the macro's `tools = [...]`, naming the function that implements it"
            ),
            "{macro_failure}"
        );
    }
}
