//! The two doors to Rust code — the `agents!` macro and the build.rs API —
//! share this driver: compile the directory (or load a committed lockfile
//! after verifying it), then generate the items with [`codegen::generate`].

use std::path::{Path, PathBuf};

use agentc_schema::Lockfile;
use proc_macro2::TokenStream;

use crate::codegen::{self, HostTool};
use crate::compile::{Compilation, SetupError, compile};
use crate::diagnostic::{Origin, Severity};
use crate::emit::{self, Bases};
use crate::fs::RealFs;
use crate::lock::lockfile;
use crate::model::Model;
use crate::options::{Options, Scope};

/// What to generate, with paths already resolved against the crate.
#[derive(Clone)]
pub struct Request {
    pub root: PathBuf,
    pub workspace: Option<PathBuf>,
    pub registry: Option<PathBuf>,
    pub host_tools: Vec<HostTool>,
    pub exclude: Vec<String>,
    /// Generate from this committed lockfile instead of compiling.
    pub lockfile: Option<PathBuf>,
    /// How paths are shown in diagnostics (as the user wrote them).
    pub shown_root: String,
    pub shown_lockfile: Option<String>,
    pub shown_workspace: Option<String>,
}

/// Generated items and what they were made from.
pub struct Generated {
    pub tokens: TokenStream,
    /// Every file read (for `cargo:rerun-if-changed`).
    pub inputs: Vec<PathBuf>,
    /// Warnings, rendered.
    pub warnings: Vec<String>,
}

/// Why nothing could be generated: rendered text for the user.
#[derive(Debug)]
pub struct Failure(pub String);

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

fn options(request: &Request) -> Result<Options, Failure> {
    let mut opts = Options::new(&request.root);
    opts.workspace = request.workspace.clone();
    opts.registry = request.registry.clone();
    opts.host_tools = request.host_tools.iter().map(|h| h.name.clone()).collect();
    for scope in &request.exclude {
        opts.exclude.extend(Scope::parse_list(scope).map_err(|e| Failure(e.to_string()))?);
    }
    Ok(opts)
}

/// Absolute paths of the files a compilation read.
fn input_paths(compilation: &Compilation, opts: &Options) -> Vec<PathBuf> {
    let absolute = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let root = absolute(&opts.root);
    let workspace = opts.workspace.as_deref().map(absolute);
    let mut inputs: Vec<PathBuf> = compilation
        .sources
        .keys()
        .filter_map(|rel| match rel.origin {
            Origin::Root => Some(root.join(&rel.path)),
            Origin::Workspace => workspace.as_ref().map(|ws| ws.join(&rel.path)),
        })
        .collect();
    inputs.extend(opts.registry.as_deref().map(absolute));
    inputs
}

fn render(compilation: &Compilation, request: &Request, severity: Severity) -> Vec<String> {
    let bases = Bases {
        root: Some(request.shown_root.clone()),
        workspace: request.shown_workspace.clone(),
    };
    compilation
        .diagnostics
        .iter()
        .filter(|d| d.severity == severity)
        .map(|d| emit::human_from(d, &compilation.sources, false, &bases))
        .collect()
}

/// Tools only the registry declares must be implemented in the crate: the
/// generated `Tool::host()` refers to each, which is how rustc checks it.
fn check_host_tools(model: &Model, request: &Request) -> Result<(), Failure> {
    let missing: Vec<&str> = model
        .tools
        .iter()
        .filter(|t| t.scope == agentc_schema::lockfile::ScopeKind::Host)
        .filter(|t| !request.host_tools.iter().any(|h| h.name == t.qualified))
        .map(|t| t.qualified.as_str())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = missing.iter().map(|n| format!("`{n}`")).collect();
    Err(Failure(format!(
        "the registry declares {} but the crate names no implementation for {}\n\
         help: add {} to `tools = [...]` (the macro) or `.tool(...)` (the build API), \
         naming the function that implements {}",
        names.join(", "),
        if missing.len() == 1 { "it" } else { "them" },
        if missing.len() == 1 { "it" } else { "each" },
        if missing.len() == 1 { "it" } else { "each" },
    )))
}

/// Compiles (or loads the lockfile) and generates.
pub fn run(request: &Request) -> Result<Generated, Failure> {
    let opts = options(request)?;
    if let Some(lock) = &request.lockfile {
        return from_lockfile(request, &opts, lock);
    }
    let compilation = match compile(&RealFs, &opts) {
        Ok(compilation) => compilation,
        Err(SetupError::Registry(compilation)) => {
            let errors = render(&compilation, request, Severity::Error);
            return Err(Failure(format!(
                "the registry file has errors:\n\n{}",
                errors.join("\n\n")
            )));
        }
        Err(err) => return Err(Failure(err.to_string())),
    };
    let errors = render(&compilation, request, Severity::Error);
    if !errors.is_empty() {
        let count = errors.len();
        let noun = if count == 1 { "error" } else { "errors" };
        return Err(Failure(format!(
            "agentc found {count} {noun} in `{}`:\n\n{}",
            request.shown_root,
            errors.join("\n\n")
        )));
    }
    check_host_tools(&compilation.model, request)?;
    let lock = lockfile(&compilation);
    let inputs = input_paths(&compilation, &opts);
    let tokens = codegen::generate(&codegen::Input {
        model: &compilation.model,
        lock_digest: &lock.root_digest,
        host_tools: &request.host_tools,
        inputs: &inputs,
    });
    Ok(Generated { tokens, inputs, warnings: render(&compilation, request, Severity::Warning) })
}

fn from_lockfile(request: &Request, opts: &Options, path: &Path) -> Result<Generated, Failure> {
    let shown = request.shown_lockfile.clone().unwrap_or_else(|| path.display().to_string());
    let lock = Lockfile::load(path).map_err(|e| Failure(format!("`{shown}`: {e}")))?;
    let changes = lock.verify(&opts.root, opts.workspace.as_deref());
    if !changes.is_empty() {
        let files: Vec<String> = changes
            .iter()
            .map(|c| match c {
                agentc_schema::lockfile::FileChange::Changed(p) => format!("{p} (changed)"),
                agentc_schema::lockfile::FileChange::Missing(p) => format!("{p} (missing)"),
                agentc_schema::lockfile::FileChange::Invalid(p) => {
                    format!("{p} (not a path inside the directory)")
                }
            })
            .collect();
        return Err(Failure(format!(
            "`{shown}` is stale: {} no longer {} it: {}\nhelp: run `agentc lock` and commit the result",
            if files.len() == 1 { "this file" } else { "these files" },
            if files.len() == 1 { "matches" } else { "match" },
            files.join(", ")
        )));
    }
    let model = Model {
        agents: lock.agents.clone(),
        skills: lock.skills.clone(),
        tools: lock.tools.clone(),
    };
    let mut inputs: Vec<PathBuf> = lock
        .files
        .iter()
        .filter_map(|f| match f.path.strip_prefix("@workspace/") {
            Some(rel) => opts.workspace.as_ref().map(|ws| ws.join(rel)),
            None if f.path == agentc_schema::lockfile::REGISTRY_PATH => None,
            None => Some(opts.root.join(&f.path)),
        })
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
        .collect();
    inputs.push(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()));
    let tokens = codegen::generate(&codegen::Input {
        model: &model,
        lock_digest: &lock.root_digest,
        host_tools: &request.host_tools,
        inputs: &inputs,
    });
    Ok(Generated { tokens, inputs, warnings: Vec::new() })
}
