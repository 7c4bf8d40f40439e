//! `agents!("agents")`: an agents directory as typed Rust items.
//!
//! A thin shell over `agentc-compiler`: it parses its arguments, resolves
//! paths against the invoking crate, and emits what the compiler generates —
//! or, when the directory has errors, one `compile_error!` per diagnostic
//! (file, line, column, the source line, help), each at the argument it is
//! about, beside the items for what did resolve, so the rest of the crate
//! does not fail in unrelated ways. Warnings are shown as rustc warnings (a
//! deprecated item used at the argument: stable Rust gives a macro no other
//! way). Use it through the `agentc` crate, which documents it.
//!
//! A macro on stable Rust can make rustc watch only files it reads
//! (`include_str!`): a file added to or removed from the agents directory
//! is seen only when cargo re-runs the crate's build script, which
//! `cargo:rerun-if-changed=<dir>` makes it do for any change below `<dir>`.
//! The build script says so with `cargo:rustc-env=AGENTC_TRACKED=<dir>`; the
//! macro asks for those lines when they are missing.

use std::path::PathBuf;

use agentc_compiler::codegen::{self, HostTool};
use agentc_compiler::embed::{About, Request, run};
use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, LitStr, Token, bracketed};

/// The macro's arguments: `"dir"` (or nothing: the project file says) then
/// `key = value` options.
struct Args {
    root: Option<LitStr>,
    workspace: Option<LitStr>,
    registry: Option<LitStr>,
    tools: Vec<(String, syn::Path)>,
    /// Where `tools = [...]` is written.
    tools_at: Option<Span>,
    exclude: Vec<LitStr>,
    lock: Option<LitStr>,
    async_tools: bool,
}

/// One entry of `tools = [...]`: `path` (named by its last segment) or `"name" = path`.
struct ToolEntry(String, syn::Path);

impl Parse for ToolEntry {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.peek(LitStr) {
            let name: LitStr = input.parse()?;
            input.parse::<Token![=]>()?;
            return Ok(ToolEntry(name.value(), input.parse()?));
        }
        let path: syn::Path = input.parse()?;
        let name = path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
        Ok(ToolEntry(name, path))
    }
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let root: Option<LitStr> = if input.peek(LitStr) { Some(input.parse()?) } else { None };
        let mut args = Args {
            root,
            workspace: None,
            registry: None,
            tools: Vec::new(),
            tools_at: None,
            exclude: Vec::new(),
            lock: None,
            async_tools: false,
        };
        let mut seen = std::collections::HashSet::new();
        let mut first = args.root.is_none();
        while !input.is_empty() {
            if !std::mem::take(&mut first) {
                input.parse::<Token![,]>()?;
            }
            if input.is_empty() {
                break;
            }
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            let name = key.to_string();
            if !seen.insert(name.clone()) {
                return Err(syn::Error::new(
                    key.span(),
                    format!("the option `{name}` is given twice"),
                ));
            }
            match name.as_str() {
                "workspace" => args.workspace = Some(input.parse()?),
                "registry" => args.registry = Some(input.parse()?),
                "lock" => args.lock = Some(input.parse()?),
                "async_tools" => args.async_tools = input.parse::<syn::LitBool>()?.value,
                "tools" => {
                    args.tools_at = Some(key.span());
                    let content;
                    bracketed!(content in input);
                    let entries = Punctuated::<ToolEntry, Token![,]>::parse_terminated(&content)?;
                    args.tools
                        .extend(entries.into_iter().map(|ToolEntry(name, path)| (name, path)));
                }
                "exclude" => {
                    let content;
                    bracketed!(content in input);
                    args.exclude
                        .extend(Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?);
                }
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown option `{other}`; the options are workspace, registry, tools, exclude, lock and async_tools"
                        ),
                    ));
                }
            }
        }
        Ok(args)
    }
}

/// Resolves `path` against the invoking crate: its manifest directory, or
/// (when the path is not there, as under trybuild, whose crates live in
/// `target/`) the directory of the invoking source file.
fn resolve(path: &str) -> PathBuf {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_default();
    let from_manifest = manifest.join(path);
    if from_manifest.exists() {
        return from_manifest;
    }
    let file = proc_macro::Span::call_site().local_file();
    let from_file = file.and_then(|file| {
        let file = if file.is_relative() { std::env::current_dir().ok()?.join(file) } else { file };
        Some(file.parent()?.join(path))
    });
    match from_file {
        Some(candidate) if candidate.exists() => candidate,
        _ => from_manifest,
    }
}

/// What to compile: the directory named, or what the project file says;
/// options written in the macro add to (or, for paths, replace) the file's.
fn request(args: &Args, resolve: &dyn Fn(&str) -> PathBuf) -> Result<Request, String> {
    let lit = |l: &Option<LitStr>| l.as_ref().map(|l| resolve(&l.value()));
    let mut request = match &args.root {
        Some(root) => Request::new(resolve(&root.value()), root.value()),
        None => {
            // Where the project file is, as a path in the macro would be found.
            let file = resolve(agentc_compiler::project_file::PROJECT_FILE);
            let start = file.parent().map(PathBuf::from).unwrap_or_else(|| resolve("."));
            Request::from_project(&start, agentc_compiler::embed::Door::Macro)
                .map_err(|f| f.message)?
        }
    };
    if let Some(workspace) = &args.workspace {
        request.workspace = lit(&args.workspace);
        request.shown_workspace = Some(workspace.value());
    }
    if args.registry.is_some() {
        request.registry = lit(&args.registry);
    }
    request.host_tools = args
        .tools
        .iter()
        .map(|(name, path)| HostTool { name: name.clone(), path: path.clone() })
        .collect();
    request.exclude.extend(args.exclude.iter().map(LitStr::value));
    request.async_tools = args.async_tools;
    request.lockfile = lit(&args.lock);
    request.shown_lockfile = args.lock.as_ref().map(LitStr::value);
    Ok(request)
}

/// Checks each option where it is written, so an error points at it.
fn check_args(args: &Args) -> syn::Result<()> {
    if let Some(lit) = &args.root
        && agentc_compiler::fs::is_remote(&lit.value())
    {
        let root = lit.value();
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "`{root}` is not a local directory; agentc reads only a directory in the crate, never a URL or a network share"
            ),
        ));
    }
    for scope in &args.exclude {
        if let Err(err) = agentc_compiler::Scope::parse_list(&scope.value()) {
            return Err(syn::Error::new(scope.span(), err.to_string()));
        }
    }
    for (lit, what) in [
        (&args.workspace, "workspace"),
        (&args.registry, "registry file"),
        (&args.lock, "lockfile"),
    ] {
        if let Some(lit) = lit
            && !resolve(&lit.value()).exists()
        {
            let shown = lit.value();
            return Err(syn::Error::new(
                lit.span(),
                format!("the {what} `{shown}` does not exist (paths are relative to Cargo.toml)"),
            ));
        }
    }
    Ok(())
}

fn expand(input: TokenStream) -> TokenStream {
    let args: Args = match syn::parse2(input) {
        Ok(args) => args,
        Err(err) => return err.to_compile_error(),
    };
    if let Err(err) = check_args(&args) {
        let mut tokens = err.to_compile_error();
        tokens.extend(codegen::stub());
        return tokens;
    }
    let span = args.root.as_ref().map_or_else(Span::call_site, LitStr::span);
    let request = match request(&args, &resolve) {
        Ok(request) => request,
        Err(message) => return failure_tokens(span, &message, codegen::stub()),
    };
    let untracked = untracked(&request);
    let (items, errors, about, warnings) = match run(&request) {
        Ok(generated) => {
            let warnings = generated.warnings.clone();
            match generated.masked_tokens() {
                Ok(tokens) => (tokens, Vec::new(), About::Root, warnings),
                Err(failure) => (codegen::stub(), vec![failure.message], About::Root, warnings),
            }
        }
        Err(failure) => {
            let errors = failure.problems().into_iter().map(str::to_owned).collect();
            let items = failure.partial.unwrap_or_else(codegen::stub);
            (items, errors, failure.about, failure.warnings)
        }
    };
    let at = match about {
        About::Root => span,
        About::Registry => args.registry.as_ref().map_or(span, LitStr::span),
        About::HostTools => args.tools_at.unwrap_or(span),
        About::Lockfile => args.lock.as_ref().map_or(span, LitStr::span),
    };
    let mut tokens = TokenStream::new();
    let mut untracked = untracked;
    for (i, error) in errors.iter().enumerate() {
        // The first error asks for what makes the next build see added files.
        // rustc writes `error: ` before it: `error: agentc[unknown-tool]: …`.
        let error = match error.strip_prefix("error[") {
            Some(rest) => format!("agentc[{rest}"),
            None => error.clone(),
        };
        let error = match (i, untracked.take()) {
            (0, Some(ask)) => format!("{error}\n\nnote: {ask}"),
            _ => error,
        };
        tokens.extend(quote_spanned! {at=> ::core::compile_error!(#error); });
    }
    for warning in warnings.iter().chain(untracked.as_ref()) {
        tokens.extend(warning_tokens(span, warning));
    }
    tokens.extend(items);
    tokens
}

/// A rustc warning at `span` reading `message`, on stable Rust: a deprecated
/// constant, used there, whose note is the message (as the
/// `proc-macro-warning` crate does). `#[allow(deprecated)]` silences it.
fn warning_tokens(span: Span, message: &str) -> TokenStream {
    let note = format!("\n{message}");
    quote_spanned! {span=>
        const _: () = {
            #[deprecated(note = #note)]
            #[allow(non_upper_case_globals)]
            const agentc: () = ();
            agentc
        };
    }
}

/// The environment variable a build script sets to say which folders it has
/// cargo watch (`cargo:rerun-if-changed`): folders, relative to the crate's
/// `Cargo.toml`, joined as `PATH` is.
const TRACKED: &str = "AGENTC_TRACKED";

/// What to add to the crate's build script so that a file added to or
/// removed from the folders the macro reads is seen by the next build, when
/// it is not there yet.
fn untracked(request: &Request) -> Option<String> {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    let canonical = |p: &std::path::Path| std::fs::canonicalize(p).ok();
    let tracked: Vec<PathBuf> = std::env::var(TRACKED)
        .map(|v| v.split(',').filter_map(|p| canonical(&manifest.join(p.trim()))).collect())
        .unwrap_or_default();
    // Each folder with how a build script names it: relative to Cargo.toml.
    let manifest = canonical(&manifest).unwrap_or(manifest);
    let written = |folder: &std::path::Path, as_written: String| match folder
        .strip_prefix(&manifest)
    {
        Ok(inside) if !inside.as_os_str().is_empty() => inside.display().to_string(),
        // From agentc.toml, whose paths are relative to its own folder.
        _ if request.project_file.is_some() => relative(folder, &manifest).display().to_string(),
        // As the macro names it, relative to Cargo.toml.
        _ => as_written,
    };
    let mut folders = Vec::new();
    folders.extend(canonical(&request.root).map(|f| (f, request.shown_root.clone())));
    // The workspace's `.agents/`, when it is there: its `AGENTS.md` is a
    // file the macro reads, and the workspace as a whole (the repository,
    // `target/` in it) is not a folder to watch.
    if let Some(workspace) = &request.workspace {
        let shown = request.shown_workspace.as_deref().unwrap_or(".");
        let dot_agents = workspace.join(".agents");
        folders.extend(
            canonical(&dot_agents).filter(|d| d.is_dir()).map(|d| (d, format!("{shown}/.agents"))),
        );
    }
    if folders.iter().all(|(f, _)| tracked.iter().any(|t| f.starts_with(t))) {
        return None;
    }
    let shown: Vec<String> = folders
        .into_iter()
        .map(|(folder, as_written)| written(&folder, as_written).replace('\\', "/"))
        .collect();
    let joined = shown.join(",");
    let mut lines: Vec<String> =
        shown.iter().map(|f| format!("    println!(\"cargo:rerun-if-changed={f}\");")).collect();
    lines.push(format!("    println!(\"cargo:rustc-env={TRACKED}={joined}\");"));
    Some(format!(
        "a file added to or removed from `{}` is not seen until a Rust file of the crate \
         changes: on stable Rust a macro can watch only the files it reads, and cargo watches \
         a folder only for a build script\n\
         help: add to the crate's build.rs (beside Cargo.toml; `agentc init` writes it):\n\
         fn main() {{\n{}\n}}",
        request.shown_root,
        lines.join("\n")
    ))
}

/// `path` as written from `base` (`../x` when it is beside it).
fn relative(path: &std::path::Path, base: &std::path::Path) -> PathBuf {
    let common = path.components().zip(base.components()).take_while(|(a, b)| a == b).count();
    let ups = base.components().count() - common;
    let mut out: PathBuf = std::iter::repeat_n("..", ups).collect();
    out.extend(path.components().skip(common));
    if out.as_os_str().is_empty() { PathBuf::from(".") } else { out }
}

fn failure_tokens(span: Span, message: &str, items: TokenStream) -> TokenStream {
    quote_spanned! {span=>
        ::core::compile_error!(#message);
        #items
    }
}

/// See the `agentc` crate for documentation.
#[proc_macro]
pub fn agents(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = TokenStream::from(input);
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| expand(input))) {
        Ok(tokens) => tokens.into(),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            let message = format!(
                "agentc panicked while expanding `agents!`: {what}\n\
                 This is a bug in agentc, not in your agents directory; please report it at \
                 https://github.com/agentc/agentc/issues with the directory that triggers it."
            );
            failure_tokens(Span::call_site(), &message, codegen::stub()).into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agentc_compiler::build_api::Config;
    use std::path::Path;

    /// The macro and the build API are one emitter behind two doors: the same
    /// directory and options give the same tokens.
    #[test]
    fn both_doors_generate_the_same_tokens() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let example = repo.join("examples/support-desk");
        let args: Args = syn::parse_str(
            r#""agents", workspace = ".", registry = "registry.yaml",
               tools = [crate::tools::send_customer_email, "fetch_invoice" = crate::tools::fetch_invoice,
                        crate::tools::transfer_conversation]"#,
        )
        .unwrap();
        let from_macro = run(&request(&args, &|p: &str| example.join(p)).unwrap()).unwrap().tokens;
        let from_build = Config::new(example.join("agents"))
            .workspace(&example)
            .registry(example.join("registry.yaml"))
            .tool("send_customer_email", "crate::tools::send_customer_email")
            .tool("fetch_invoice", "crate::tools::fetch_invoice")
            .tool("transfer_conversation", "crate::tools::transfer_conversation")
            .generate()
            .unwrap();
        assert_eq!(from_macro.to_string(), from_build.to_string());
    }

    #[test]
    fn unknown_options_are_refused() {
        let err = syn::parse_str::<Args>(r#""agents", registy = "r.yaml""#).err().unwrap();
        assert!(err.to_string().contains("unknown option `registy`"), "{err}");
    }
}
