//! The two doors to Rust code — the `agents!` macro and the build.rs API —
//! share this driver: compile the directory (or load a committed lockfile
//! after verifying it), then generate the items with [`codegen::generate`].

use std::path::{Path, PathBuf};

use agentc_schema::Lockfile;
use proc_macro2::TokenStream;

use crate::codegen::{self, HostTool, InputFile};
use crate::compile::{Compilation, SetupError, compile};
use crate::diagnostic::{Origin, Severity};
use crate::emit::{self, Bases};
use crate::fs::RealFs;
use crate::lock::{describe_difference, lockfile};
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
    /// The layouts to read (all when empty), as `--layout`.
    pub layouts: std::collections::BTreeSet<crate::options::LayoutKind>,
    pub max_file_size: Option<u64>,
    /// The levels `[lints]` sets in `agentc.toml`.
    pub lints: std::collections::BTreeMap<crate::catalog::Code, crate::options::LintLevel>,
    /// The levels per path `[[overrides]]` sets there.
    pub overrides: Option<crate::overrides::Overrides>,
    /// The `agentc.toml` the request was read from: an input like the others,
    /// so editing it regenerates.
    pub project_file: Option<PathBuf>,
    /// Which door the request came through, so help names what the user wrote.
    pub door: Door,
    /// Generate the `Tools` trait with async methods.
    pub async_tools: bool,
}

pub use crate::options::Door;

impl Request {
    /// A request for the agents directory `root`, shown as `shown`.
    pub fn new(root: PathBuf, shown: String) -> Request {
        Request {
            root,
            workspace: None,
            registry: None,
            host_tools: Vec::new(),
            exclude: Vec::new(),
            lockfile: None,
            shown_root: shown,
            shown_lockfile: None,
            shown_workspace: None,
            layouts: Default::default(),
            max_file_size: None,
            lints: Default::default(),
            overrides: None,
            project_file: None,
            door: Door::Macro,
            async_tools: false,
        }
    }

    /// The request `agentc.toml` describes: the nearest one at or above
    /// `dir` (the crate's folder), read as the command line reads it.
    pub fn from_project(dir: &Path, door: Door) -> Result<Request, Failure> {
        let fs = crate::fs::RealFs;
        let file = crate::project_file::find(&fs, dir).ok_or_else(|| {
            let named = match door {
                Door::Macro => "`agents!(\"agents\", …)`",
                Door::BuildScript => "`Config::new(\"agents\")`",
                Door::CommandLine => "`agentc check agents`",
            };
            Failure::new(format!(
                "no agentc.toml in `{}` or a folder above it; write one (`agentc init` does), \
                 or name the agents directory: {named}",
                dir.display()
            ))
        })?;
        let project = crate::project_file::load(&fs, &file, "agentc.toml").map_err(|failed| {
            let rendered: Vec<String> =
                failed.diagnostics.iter().map(|d| emit::human(d, &failed.sources, false)).collect();
            Failure::new(format!("{} has errors:\n\n{}", file.display(), rendered.join("\n\n")))
        })?;
        let base = file.parent().unwrap_or(dir);
        let shown = |p: &Path| p.strip_prefix(base).unwrap_or(p).display().to_string();
        let opts = project.options;
        Ok(Request {
            shown_root: shown(&opts.root),
            shown_workspace: opts.workspace.as_deref().map(shown),
            workspace: opts.workspace.clone(),
            registry: opts.registry.clone(),
            exclude: opts.exclude.iter().map(|s| s.as_str().to_owned()).collect(),
            layouts: opts.layouts.clone(),
            max_file_size: Some(opts.max_file_size),
            lints: opts.lints.clone(),
            overrides: opts.overrides.clone(),
            project_file: Some(file.clone()),
            door,
            ..Request::new(opts.root.clone(), String::new())
        })
    }
}

/// Generated items and what they were made from.
pub struct Generated {
    pub tokens: TokenStream,
    /// Every file read (for `cargo:rerun-if-changed`).
    pub inputs: Vec<PathBuf>,
    /// Warnings, rendered.
    pub warnings: Vec<String>,
    /// Masks the secrets found in the files in what is written of the items.
    pub redactor: crate::secrets::Redactor,
}

/// Why the items could not be generated: rendered text for the user, and,
/// when the directory could be read, the items for what did resolve — so code
/// using them fails only where it names something broken.
pub struct Failure {
    /// Everything, as one text (what a build script prints).
    pub message: String,
    /// Each problem on its own, rendered: the macro makes each its own
    /// compile error. Empty when `message` is the one problem.
    pub errors: Vec<String>,
    /// The part of the request the problem is about, so the macro points at
    /// the argument that names it.
    pub about: About,
    /// The warnings of the compile, rendered, when it got that far.
    pub warnings: Vec<String>,
    pub partial: Option<TokenStream>,
}

/// The part of a request a [`Failure`] is about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum About {
    /// The agents directory (or the request as a whole).
    #[default]
    Root,
    /// The registry file.
    Registry,
    /// The tools the host implements (`tools = [...]`).
    HostTools,
    /// The committed lockfile.
    Lockfile,
}

impl Generated {
    /// The items as the macro expands them: a secret the `secret` rule found
    /// is masked, as in every file agentc writes. Re-read from their masked
    /// text only when they hold one; an error when masking leaves no valid
    /// Rust (a secret in a name).
    pub fn masked_tokens(self) -> Result<TokenStream, Failure> {
        match self.redactor.clean(&self.tokens.to_string()) {
            std::borrow::Cow::Borrowed(_) => Ok(self.tokens),
            std::borrow::Cow::Owned(text) => text.parse().map_err(|_| {
                Failure::new(
                    "a secret the `secret` rule found is part of a name agentc would generate; \
                     rename the agent, skill or tool that holds it",
                )
            }),
        }
    }
}

impl Failure {
    pub fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            errors: Vec::new(),
            about: About::Root,
            warnings: Vec::new(),
            partial: None,
        }
    }

    fn about(self, about: About) -> Failure {
        Failure { about, ..self }
    }

    /// Each problem's text: the [`Failure::errors`], or the message as one.
    pub fn problems(&self) -> Vec<&str> {
        match self.errors.is_empty() {
            true => vec![self.message.as_str()],
            false => self.errors.iter().map(String::as_str).collect(),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The rendered diagnostics, as `Display` has them: `build.rs`'s
/// `.expect(…)` prints `Debug`, and the generated items are no reading matter.
impl std::fmt::Debug for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

fn options(request: &Request) -> Result<Options, Failure> {
    let mut seen = std::collections::HashSet::new();
    for host in &request.host_tools {
        if let Err(err) = agentc_schema::check_name(agentc_schema::NameKind::Tool, &host.name) {
            return Err(Failure::new(format!(
                "the host tool name `{}` breaks the naming rule: {err}",
                host.name
            )));
        }
        if !seen.insert(host.name.as_str()) {
            return Err(Failure::new(format!(
                "the host tool `{}` is named twice; give each tool one implementation",
                host.name
            )));
        }
    }
    let mut opts = Options::new(&request.root);
    opts.workspace = request.workspace.clone();
    opts.registry = request.registry.clone();
    opts.host_tools = request.host_tools.iter().map(|h| h.name.clone()).collect();
    for scope in &request.exclude {
        opts.exclude.extend(Scope::parse_list(scope).map_err(|e| Failure::new(e.to_string()))?);
    }
    opts.layouts = request.layouts.clone();
    opts.lints = request.lints.clone();
    opts.overrides = request.overrides.clone();
    opts.door = request.door;
    // Code generation navigates by the model, not by references.
    opts.references = false;
    if let Some(max) = request.max_file_size {
        opts.max_file_size = max;
    }
    Ok(opts)
}

/// The files a compilation read, with absolute paths and their text.
fn input_files(compilation: &Compilation, opts: &Options) -> Vec<InputFile> {
    let absolute = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let root = absolute(&opts.root);
    let workspace = opts.workspace.as_deref().map(absolute);
    let mut inputs: Vec<InputFile> = compilation
        .sources
        .iter()
        .filter_map(|(rel, source)| {
            let path = match rel.origin {
                Origin::Root => root.join(&*rel.path),
                Origin::Workspace => workspace.as_ref()?.join(&*rel.path),
                // The registry, added below.
                Origin::Given => return None,
            };
            Some(InputFile { path, text: Some(source.text.clone()) })
        })
        .collect();
    inputs.extend(opts.registry.as_deref().map(|p| InputFile { path: absolute(p), text: None }));
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
    // A registry often describes more tools than one program runs: only the
    // ones an agent or a skill uses need an implementation here.
    let used: std::collections::HashSet<&str> = model
        .agents
        .iter()
        .flat_map(|a| a.tools.iter().map(|t| t.qualified.as_str()))
        .chain(model.skills.iter().flat_map(|s| s.tools.iter().map(String::as_str)))
        .collect();
    let missing: Vec<&str> = model
        .tools
        .iter()
        .filter(|t| t.scope == agentc_schema::lockfile::ScopeKind::Host)
        .filter(|t| used.contains(t.qualified.as_str()))
        .filter(|t| !request.host_tools.iter().any(|h| h.name == t.qualified))
        .map(|t| t.qualified.as_str())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = missing.iter().map(|n| format!("`{n}`")).collect();
    let (them, each) = if missing.len() == 1 { ("it", "it") } else { ("them", "each") };
    let help = match request.door {
        // Code generation is asked for in Rust, never on the command line.
        Door::Macro | Door::CommandLine => format!(
            "add {each} to the macro's `tools = [...]`, naming the function that implements {each}"
        ),
        Door::BuildScript => {
            let calls: Vec<String> = missing
                .iter()
                .map(|n| format!("`.tool(\"{n}\", \"crate::path::to::{n}\")`"))
                .collect();
            format!(
                "call {} on the build script's `Config`, naming the function that implements {each}",
                calls.join(", ")
            )
        }
    };
    Err(Failure::new(format!(
        "the agents use {}, which the registry declares, but the crate names no implementation for {them}\n\
         help: {help}",
        names.join(", "),
    ))
    .about(About::HostTools))
}

/// Compiles the directory and generates; with a lockfile, also requires the
/// lockfile to be exactly what compiling gives now.
pub fn run(request: &Request) -> Result<Generated, Failure> {
    let opts = options(request)?;
    let compilation = match compile(&RealFs, &opts) {
        Ok(compilation) => compilation,
        Err(SetupError::Registry(compilation)) => {
            let errors = render(&compilation, request, Severity::Error);
            return Err(Failure {
                message: format!("the registry file has errors:\n\n{}", errors.join("\n\n")),
                errors,
                ..Failure::new("").about(About::Registry)
            });
        }
        Err(err) => return Err(Failure::new(err.to_string())),
    };
    let mut inputs = input_files(&compilation, &opts);
    if let Some(path) = &request.project_file {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        inputs.push(InputFile { path, text: None });
    }
    let registry = compilation.project.registry.as_ref();
    let listed = |list: Option<&agentc_schema::List<agentc_schema::Text>>| -> Vec<String> {
        list.into_iter().flatten().map(|n| n.value.as_str().to_owned()).collect()
    };
    let registered = (
        listed(registry.and_then(|r| r.models.as_ref())),
        listed(registry.and_then(|r| r.context.as_ref())),
    );
    let generate = |model: &Model, digest: &str, inputs: &[InputFile]| {
        codegen::generate(&codegen::Input {
            model,
            lock_digest: digest,
            host_tools: &request.host_tools,
            inputs,
            async_tools: request.async_tools,
            models: &registered.0,
            contexts: &registered.1,
        })
    };
    let errors = render(&compilation, request, Severity::Error);
    if !errors.is_empty() {
        let count = errors.len();
        let noun = if count == 1 { "error" } else { "errors" };
        return Err(Failure {
            message: format!(
                "agentc found {count} {noun} in `{}`:\n\n{}",
                request.shown_root,
                errors.join("\n\n")
            ),
            errors,
            about: About::Root,
            warnings: render(&compilation, request, Severity::Warning),
            partial: Some(generate(&compilation.model, "", &inputs)),
        });
    }
    let fresh = lockfile(&compilation);
    if let Some(path) = &request.lockfile {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        inputs.push(InputFile { path, text: None });
    }
    let tokens = generate(&compilation.model, &fresh.root_digest, &inputs);
    // The directory compiled: whatever else is wrong, the items are whole, so
    // code that names them reports nothing but this.
    let warnings = render(&compilation, request, Severity::Warning);
    let whole = |failure: Failure| Failure {
        partial: Some(tokens.clone()),
        warnings: warnings.clone(),
        ..failure
    };
    check_host_tools(&compilation.model, request).map_err(whole)?;
    if let Some(path) = &request.lockfile {
        check_lockfile(request, path, &fresh).map_err(|f| whole(f.about(About::Lockfile)))?;
    }
    Ok(Generated {
        tokens,
        inputs: inputs.into_iter().map(|f| f.path).collect(),
        warnings,
        redactor: compilation.redactor(),
    })
}

/// The committed lockfile must be what compiling gives now, as
/// `agentc lock --check` requires.
fn check_lockfile(request: &Request, path: &Path, fresh: &Lockfile) -> Result<(), Failure> {
    let shown = request.shown_lockfile.clone().unwrap_or_else(|| path.display().to_string());
    let committed = Lockfile::load(path).map_err(|e| Failure::new(format!("`{shown}`: {e}")))?;
    if committed.to_json() == fresh.to_json() {
        return Ok(());
    }
    // Paths shown as the diagnostics show them.
    let bases = Bases {
        root: Some(request.shown_root.clone()),
        workspace: request.shown_workspace.clone(),
    };
    let show = |path: &str| crate::lock::show_path(path, &bases, None);
    let lines: Vec<String> = describe_difference(&committed, fresh, &show)
        .into_iter()
        .map(|l| format!("  {l}"))
        .collect();
    Err(Failure::new(format!(
        "`{shown}` is stale: the agents directory no longer compiles to it\n{}\n\
         help: run `agentc lock` and commit the result",
        lines.join("\n")
    )))
}
