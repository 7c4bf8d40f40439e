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

use std::path::{Path, PathBuf};

use crate::codegen::{self, HostTool};
use crate::embed::{Failure, Request, run};

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
        Config {
            request: Request::new(from_manifest(root), root.display().to_string()),
            out_file: None,
            invalid: Vec::new(),
        }
    }

    /// Generate what the project file says: the nearest `agentc.toml` at or
    /// above the package's folder, read as `agentc check` reads it, so the
    /// command line and the build cannot disagree. Host tools are still named
    /// here ([`Config::tool`]), as they are Rust paths.
    pub fn from_project() -> Config {
        let dir = from_manifest(Path::new("."));
        match Request::from_project(&dir) {
            Ok(request) => Config { request, out_file: None, invalid: Vec::new() },
            Err(failure) => Config {
                request: Request::new(dir, ".".to_owned()),
                out_file: None,
                invalid: vec![failure.message],
            },
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

    /// Generates, prints `cargo:rerun-if-changed` for every input and the
    /// directories (so added files are seen), prints warnings, and writes the
    /// formatted file if its content changed. Returns the file's path.
    pub fn compile(self) -> Result<PathBuf, Failure> {
        println!("cargo:rerun-if-changed={}", self.request.root.display());
        if let Some(ws) = &self.request.workspace {
            println!("cargo:rerun-if-changed={}", ws.join("AGENTS.md").display());
            println!("cargo:rerun-if-changed={}", ws.join(".agents").display());
        }
        for path in [&self.request.registry, &self.request.lockfile].into_iter().flatten() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        if !self.invalid.is_empty() {
            let failure = Failure::new(self.invalid.join("\n"));
            eprintln!("{failure}");
            return Err(failure);
        }
        let generated = match run(&self.request) {
            Ok(generated) => generated,
            Err(failure) => {
                eprintln!("{failure}");
                return Err(failure);
            }
        };
        for input in &generated.inputs {
            println!("cargo:rerun-if-changed={}", input.display());
        }
        for warning in &generated.warnings {
            for line in warning.lines() {
                println!("cargo:warning={line}");
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
        let text = codegen::format(&generated.tokens);
        if std::fs::read_to_string(&out).ok().as_deref() != Some(text.as_str()) {
            crate::write::write_atomic(&out, text.as_bytes())
                .map_err(|e| Failure::new(format!("cannot write {}: {e}", out.display())))?;
        }
        Ok(out)
    }
}
