//! Emit Rust: the resolved model as typed items, for the `agents!` macro and
//! the build.rs API alike (both call [`generate`], so their output is the same).
//!
//! The items: enums `Agent`, `Skill` and `Tool` (with `ALL`, `name()`,
//! `def()`, `from_name()`, `FromStr`, `Display` and serde by name), `Model`
//! and `Context` (the registry's closed sets; see the `names` module), one `static` per agent
//! (`TRIAGE: AgentDef<Skill, Tool>`), the skills' runbooks with their routes
//! as typed data, `Tool::host()` returning the host's implementation of each
//! host-declared tool, the typed tool contract (`input::*` types generated
//! from each tool's `input_schema`, the `Tools` trait; see the `contract` module), and
//! `LOCK_DIGEST`. The data types are in `agentc::runtime`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use agentc_schema::lockfile::{self, AgentStyle, PromptScope, ScopeKind};
use agentc_schema::{ContextMode, Effort, Memory, OnSkip, Status};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::model::Model;

mod contract;
mod names;

/// A host-declared tool and the path of its implementation in the host crate.
#[derive(Clone)]
pub struct HostTool {
    /// The tool's name, as agent files name it.
    pub name: String,
    /// The Rust path of the implementation (an `agentc::HostTool`).
    pub path: syn::Path,
}

/// What to generate from.
pub struct Input<'a> {
    pub model: &'a Model,
    /// The lockfile's root digest.
    pub lock_digest: &'a str,
    pub host_tools: &'a [HostTool],
    /// Every input file: each is included (`include_str!` or
    /// `include_bytes!`) so that cargo rebuilds when one changes.
    pub inputs: &'a [InputFile],
    /// Generate the `Tools` trait with async methods.
    pub async_tools: bool,
    /// The registry's models and context providers: `Model` and `Context`
    /// hold these (and any the agents name besides).
    pub models: &'a [String],
    pub contexts: &'a [String],
}

/// A file the generated code depends on.
pub struct InputFile {
    /// Absolute.
    pub path: PathBuf,
    /// The text agentc read from it, for a file read as text: a body sliced
    /// from this text is emitted as a slice of the file's `include_str!`
    /// rather than as a string literal, so the expansion does not repeat it.
    pub text: Option<Arc<str>>,
}

/// `refund-review` → `RefundReview`; `2fa` → `N2fa`.
fn camel(name: &str) -> String {
    let mut out = String::new();
    // Names follow the naming rule; anything else is dropped rather than
    // allowed to make an invalid identifier.
    let name: String =
        name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    for part in name.split(['-', '_']).filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'N');
    }
    if out == "Self" {
        out.push('_');
    }
    out
}

/// Variant names for a sorted list of (qualified name, agent, plain name),
/// unique even where two names camel-case alike (`a-b`, `a_b`).
fn variants(items: &[(String, Option<String>, String)]) -> Vec<Ident> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    items
        .iter()
        .map(|(_, agent, name)| {
            let base = match agent {
                Some(agent) => format!("{}{}", camel(agent), camel(name)),
                None => camel(name),
            };
            let count = seen.entry(base.clone()).or_insert(0);
            *count += 1;
            let text = if *count == 1 { base } else { format!("{base}_{count}") };
            Ident::new(&text, Span::call_site())
        })
        .collect()
}

/// Definitions are spread over this many modules: in an incremental build each
/// module is a codegen unit of its own, so an edit to one skill regenerates
/// the machine code of one module's definitions, not of all of them.
const SHARDS: u64 = 16;

/// The module of the definition named `name`: by a hash of the name, so a
/// definition stays in its module when others come and go.
fn shard(name: &str) -> Ident {
    // FNV-1a: stable across Rust versions and platforms, unlike `Hash`.
    let hash = name
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format_ident!("__agentc_defs_{}", hash % SHARDS)
}

/// Names the generated module uses for itself; an agent static never takes one.
const RESERVED: &[&str] = &[
    "LOCK_DIGEST",
    "AGENT_DEFS",
    "SKILL_DEFS",
    "TOOL_DEFS",
    "AGENT_MODELS",
    "AGENT_CONTEXT",
    "SKILL_AGENTS",
];

/// One static name per agent id, unique even where two ids upper-case alike
/// (a suffix is bumped until the name is free, never taking a reserved name).
fn statics<'a>(ids: impl Iterator<Item = &'a str>) -> Vec<Ident> {
    let ids: Vec<&str> = ids.collect();
    let mut taken: std::collections::HashSet<String> =
        RESERVED.iter().map(|r| r.to_string()).collect();
    let mut wanted: Vec<String> = ids.iter().map(|id| screaming(id).to_string()).collect();
    // First come the names that need no suffix, so a suffix never takes one.
    let unique: std::collections::HashSet<&String> =
        wanted.iter().filter(|w| wanted.iter().filter(|o| o == w).count() == 1).collect();
    let unique: Vec<String> = unique.into_iter().cloned().collect();
    taken.extend(unique.iter().cloned());
    let mut seen = std::collections::HashSet::new();
    for name in wanted.iter_mut() {
        if unique.contains(name) || seen.insert(name.clone()) && !taken.contains(name) {
            taken.insert(name.clone());
            continue;
        }
        let base = name.clone();
        let mut n = 2;
        while taken.contains(&format!("{base}_{n}")) {
            n += 1;
        }
        *name = format!("{base}_{n}");
        taken.insert(name.clone());
    }
    wanted.iter().map(|w| Ident::new(w, Span::call_site())).collect()
}

/// `billing-desk` → `BILLING_DESK`.
fn screaming(id: &str) -> Ident {
    // A broken agent still gets its static in the partial output, so an id
    // outside the naming rule (`coding.v2`) must not make an invalid identifier.
    let mut text: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .map(|c| if c == '-' { '_' } else { c.to_ascii_uppercase() })
        .collect();
    if !text.starts_with(|c: char| c.is_ascii_alphabetic()) {
        text.insert_str(0, "AGENT_");
    }
    if RESERVED.contains(&text.as_str()) {
        text.push_str("_AGENT");
    }
    Ident::new(&text, Span::call_site())
}

fn opt_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

fn strs(values: &[String]) -> TokenStream {
    quote!(&[#(#values),*])
}

fn opt<T>(value: Option<T>, f: impl FnOnce(T) -> TokenStream) -> TokenStream {
    match value {
        Some(v) => {
            let inner = f(v);
            quote!(::core::option::Option::Some(#inner))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn scope(scope: ScopeKind) -> TokenStream {
    let variant = format_ident!(
        "{}",
        match scope {
            ScopeKind::Global => "Global",
            ScopeKind::Repo => "Repo",
            ScopeKind::Agent => "Agent",
            ScopeKind::Host => "Host",
            ScopeKind::Plugin => "Plugin",
        }
    );
    quote!(::agentc::runtime::ScopeKind::#variant)
}

fn status(status: Status) -> TokenStream {
    let variant = format_ident!("{}", camel(status.as_str()));
    quote!(::agentc::runtime::Status::#variant)
}

/// Generates the items for `input`.
pub fn generate(input: &Input<'_>) -> TokenStream {
    let model = input.model;
    let rt = quote!(::agentc::runtime);

    let skill_keys: Vec<_> = model
        .skills
        .iter()
        .map(|s| (s.qualified.clone(), s.agent.clone(), s.name.clone()))
        .collect();
    let tool_keys: Vec<_> = model
        .tools
        .iter()
        .map(|t| (t.qualified.clone(), t.agent.clone(), t.name.clone()))
        .collect();
    let skill_idents = variants(&skill_keys);
    let tool_idents = variants(&tool_keys);
    let skill_of: HashMap<&str, &Ident> =
        model.skills.iter().map(|s| s.qualified.as_str()).zip(&skill_idents).collect();
    let tool_of: HashMap<&str, &Ident> =
        model.tools.iter().map(|t| t.qualified.as_str()).zip(&tool_idents).collect();
    let skill = |q: &str| skill_of.get(q).map(|v| quote!(Skill::#v));
    let tool = |q: &str| tool_of.get(q).map(|v| quote!(Tool::#v));

    let agent_keys: Vec<_> =
        model.agents.iter().map(|a| (a.id.clone(), None, a.id.clone())).collect();
    let agent_idents = variants(&agent_keys);
    let agent_statics = statics(model.agents.iter().map(|a| a.id.as_str()));
    let agent_docs: Vec<String> = model
        .agents
        .iter()
        .map(|a| a.description.clone().unwrap_or_else(|| format!("The agent `{}`.", a.id)))
        .collect();

    let skill_docs: Vec<&str> = model.skills.iter().map(|s| s.description.as_str()).collect();
    // The file each text came from, found by the text's address.
    let file_of: HashMap<*const u8, &PathBuf> =
        input.inputs.iter().filter_map(|f| Some((f.text.as_ref()?.as_ptr(), &f.path))).collect();
    let body = |body: &agentc_schema::SharedStr| {
        let (text, range) = body.parts();
        match file_of.get(&text.as_ptr()) {
            Some(path) => {
                let path = path.to_string_lossy();
                let (start, end) = (range.start, range.end);
                quote!(#rt::text_slice(::core::include_str!(#path), #start, #end))
            }
            None => {
                let text = body.as_str();
                quote!(#text)
            }
        }
    };
    // One static per definition, not one array of them all: rustc's
    // incremental cache then re-checks only the definitions an edit changed.
    let skill_statics: Vec<Ident> =
        skill_idents.iter().map(|v| format_ident!("__agentc_skill_{}", v)).collect();
    let skill_shards: Vec<Ident> = model.skills.iter().map(|s| shard(&s.qualified)).collect();
    let skill_defs = model.skills.iter().zip(&skill_statics).map(|(s, item)| {
        let (name, qualified, description) = (&s.name, &s.qualified, s.description.as_str());
        let body = body(&s.body);
        let scope = scope(s.scope);
        let agent = opt_str(s.agent.as_deref());
        let tools = s.tools.iter().filter_map(|t| tool(t));
        let steps = s.steps.iter().filter_map(|step| {
            let t = tool(&step.tool)?;
            let why = step.why.as_str();
            Some(quote!(#rt::StepDef { tool: #t, why: #why }))
        });
        let on_skip = opt(s.on_skip, |o| match o {
            OnSkip::Advance => quote!(#rt::OnSkip::Advance),
            OnSkip::Hold => quote!(#rt::OnSkip::Hold),
        });
        let routes = s.routes.iter().filter_map(|r| {
            let target = skill(&r.target)?;
            let on_tool = opt(r.on_tool.as_deref().and_then(&tool), |t| t);
            let statuses = r.statuses.iter().map(|s| status(*s));
            Some(quote!(#rt::RouteDef { target: #target, on_tool: #on_tool, statuses: &[#(#statuses),*] }))
        });
        quote! {
            #[allow(non_upper_case_globals, dead_code)]
            pub(super) static #item: #rt::SkillDef<Skill, Tool> = #rt::SkillDef {
                name: #name,
                qualified: #qualified,
                scope: #scope,
                agent: #agent,
                description: #description,
                body: #body,
                tools: &[#(#tools),*],
                steps: &[#(#steps),*],
                on_skip: #on_skip,
                routes: &[#(#routes),*],
            };
        }
    });
    let skill_count = model.skills.len();

    let tool_docs: Vec<String> = model
        .tools
        .iter()
        .map(|t| t.description.clone().unwrap_or_else(|| format!("The tool `{}`.", t.name)))
        .collect();
    let tool_statics: Vec<Ident> =
        tool_idents.iter().map(|v| format_ident!("__agentc_tool_{}", v)).collect();
    let tool_shards: Vec<Ident> = model.tools.iter().map(|t| shard(&t.qualified)).collect();
    let tool_defs = model.tools.iter().zip(&tool_statics).map(|(t, item)| {
        let (name, qualified) = (&t.name, &t.qualified);
        let scope = scope(t.scope);
        let agent = opt_str(t.agent.as_deref());
        let description = opt_str(t.description.as_deref());
        let schema =
            t.input_schema.as_ref().map(|s| serde_json::Value::Object(s.clone()).to_string());
        let input_schema = opt_str(schema.as_deref());
        let host = t.host || input.host_tools.iter().any(|h| h.name == t.qualified);
        quote! {
            #[allow(non_upper_case_globals, dead_code)]
            pub(super) static #item: #rt::ToolDef = #rt::ToolDef {
                name: #name,
                qualified: #qualified,
                scope: #scope,
                agent: #agent,
                description: #description,
                input_schema: #input_schema,
                host: #host,
            };
        }
    });
    let tool_count = model.tools.len();
    let host_arms = model.tools.iter().zip(&tool_idents).filter_map(|(t, v)| {
        let host = input.host_tools.iter().find(|h| h.name == t.qualified)?;
        let path = &host.path;
        Some(quote!(Tool::#v => ::core::option::Option::Some(&#path),))
    });

    let agent_defs = model
        .agents
        .iter()
        .zip(&agent_statics)
        .map(|(a, ident)| agent_def(a, ident, &skill, &tool));
    let digest = input.lock_digest;
    // Naming a tool's implementation in `tools = [...]` uses it, even where the
    // crate never calls `Tool::host()`: no dead-code warning on the host's side.
    let host_uses = input.host_tools.iter().map(|h| {
        let path = &h.path;
        quote!(const _: fn() = || { let _ = &#path; };)
    });
    // Files a body already includes need no second include.
    let sliced: std::collections::HashSet<*const u8> =
        model.skills.iter().map(|s| s.body.parts().0.as_ptr()).collect();
    let includes = input.inputs.iter().filter_map(|f| match &f.text {
        Some(text) if sliced.contains(&text.as_ptr()) => None,
        _ => {
            let path = f.path.to_string_lossy();
            Some(quote!(
                const _: &[u8] = ::core::include_bytes!(#path);
            ))
        }
    });
    let agent_count = model.agents.len();
    let mut shards: std::collections::BTreeMap<String, Vec<TokenStream>> = Default::default();
    for (shard, def) in skill_shards.iter().zip(skill_defs).chain(tool_shards.iter().zip(tool_defs))
    {
        shards.entry(shard.to_string()).or_default().push(def);
    }
    let shard_modules = shards.into_iter().map(|(name, defs)| {
        let name = Ident::new(&name, Span::call_site());
        quote! {
            #[doc(hidden)]
            mod #name {
                #[allow(unused_imports)]
                use super::{Skill, Tool};
                #(#defs)*
            }
        }
    });

    let agent_enum = name_enum(&NameEnum {
        ident: format_ident!("Agent"),
        noun: "agent",
        doc: "The agents of the directory, one variant per agent folder.",
        order: "id",
        name_doc: "The agent's id (its folder name).",
        variants: &agent_idents,
        name_field: format_ident!("id"),
        docs: &agent_docs.iter().map(String::as_str).collect::<Vec<_>>(),
        def_doc: "The compiled agent.",
        def_type: quote!(#rt::AgentDef<Skill, Tool>),
        def: quote!(AGENT_DEFS[self as usize]),
        plain_names: false,
        extra: TokenStream::new(),
    });
    let skill_enum = name_enum(&NameEnum {
        ident: format_ident!("Skill"),
        noun: "skill",
        doc: "The skills, one variant per skill; private skills are prefixed with their agent.",
        order: "qualified-name",
        name_doc: "The skill's unique name (`agent__<agent>__<name>` for private skills).",
        variants: &skill_idents,
        name_field: format_ident!("qualified"),
        docs: &skill_docs,
        def_doc: "The compiled skill: its runbook and routes.",
        def_type: quote!(#rt::SkillDef<Skill, Tool>),
        def: quote!(SKILL_DEFS[self as usize]),
        plain_names: true,
        extra: TokenStream::new(),
    });
    let tool_enum = name_enum(&NameEnum {
        ident: format_ident!("Tool"),
        noun: "tool",
        doc: "The tools, one variant per tool; private tools are prefixed with their agent.",
        order: "qualified-name",
        name_doc: "The tool's unique name (`agent__<agent>__<name>` for private tools).",
        variants: &tool_idents,
        name_field: format_ident!("qualified"),
        docs: &tool_docs.iter().map(String::as_str).collect::<Vec<_>>(),
        def_doc: "The compiled tool: its description and input schema.",
        def_type: quote!(#rt::ToolDef),
        def: quote!(TOOL_DEFS[self as usize]),
        plain_names: true,
        extra: quote! {
            /// The host's implementation, for tools the host declared.
            #[allow(unreachable_patterns)]
            pub fn host(self) -> ::core::option::Option<&'static dyn #rt::HostTool> {
                match self {
                    #(#host_arms)*
                    _ => ::core::option::Option::None,
                }
            }
        },
    });

    let contract = contract::generate(model, &tool_idents, input.host_tools, input.async_tools);
    let closed = names::Closed::new(model, input.models, input.contexts);
    let closed = names::generate(model, &closed, &agent_idents);

    quote! {
        #agent_enum

        #skill_enum

        #tool_enum

        #contract

        #closed

        // Generated items are an API: a crate uses the part it needs, which
        // is no reason for a warning about the rest.
        #(#shard_modules)*

        #[allow(dead_code)]
        static SKILL_DEFS: [&#rt::SkillDef<Skill, Tool>; #skill_count] =
            [#(&#skill_shards::#skill_statics),*];

        #[allow(dead_code)]
        static TOOL_DEFS: [&#rt::ToolDef; #tool_count] = [#(&#tool_shards::#tool_statics),*];

        #(#agent_defs)*

        #[allow(dead_code)]
        static AGENT_DEFS: [&#rt::AgentDef<Skill, Tool>; #agent_count] = [#(&#agent_statics),*];

        /// The root digest of the inputs, equal to `root_digest` in `agentc.lock`.
        #[allow(dead_code)]
        pub const LOCK_DIGEST: &str = #digest;

        #(#host_uses)*

        #(#includes)*
    }
}

/// One of the generated name enums (`Agent`, `Skill`, `Tool`).
struct NameEnum<'a> {
    ident: Ident,
    /// For parse errors: "agent", "skill", "tool".
    noun: &'static str,
    doc: &'static str,
    /// What `ALL` is sorted by.
    order: &'static str,
    name_doc: &'static str,
    /// In name order, which is the definitions' table order.
    variants: &'a [Ident],
    /// The definition's field holding the name.
    name_field: Ident,
    docs: &'a [&'a str],
    def_doc: &'static str,
    def_type: TokenStream,
    /// `def()`'s body: the variant's entry in its table.
    def: TokenStream,
    /// `from_name` also takes a plain name only one definition has (the
    /// definitions have a `name` beside the qualified one).
    plain_names: bool,
    /// More methods for the `impl` block.
    extra: TokenStream,
}

/// The enum with `ALL`, `name()`, `def()`, `from_name()`, `FromStr` and
/// `Display`. The methods look the variant up in tables rather than match on
/// it: with thousands of variants, a match per method is most of what rustc
/// would compile.
fn name_enum(e: &NameEnum<'_>) -> TokenStream {
    let rt = quote!(::agentc::runtime);
    let NameEnum {
        ident,
        noun,
        doc,
        name_doc,
        variants,
        name_field,
        docs,
        def_doc,
        def_type,
        def,
        plain_names,
        extra,
        ..
    } = e;
    let all_doc = format!("Every {noun}, in {} order.", e.order);
    let serde = names::serde_by_name(ident, noun);
    let (from_doc, plain) = if *plain_names {
        let doc = format!(
            "The {noun} with this name: its qualified name, or a plain name only one {noun} has \
             (a private {noun}'s `refund-review` for `agent__billing__refund-review`)."
        );
        let plain = quote! {
            let mut plain = all.iter().filter(|v| v.def().name == name);
            match (plain.next(), plain.next()) {
                (::core::option::Option::Some(v), ::core::option::Option::None) => ::core::option::Option::Some(*v),
                _ => ::core::option::Option::None,
            }
        };
        (doc, plain)
    } else {
        (format!("The {noun} with this name."), quote!(::core::option::Option::None))
    };
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types, dead_code)]
        pub enum #ident {
            #( #[doc = #docs] #variants, )*
        }

        #[allow(dead_code)]
        impl #ident {
            #[doc = #all_doc]
            pub const ALL: &'static [#ident] = &[#(#ident::#variants),*];

            #[doc = #name_doc]
            // The name is its definition's, whose field is called otherwise.
            #[allow(clippy::misnamed_getters)]
            pub const fn name(self) -> &'static str {
                self.def().#name_field
            }

            #[doc = #def_doc]
            pub const fn def(self) -> &'static #def_type {
                #def
            }

            #[doc = #from_doc]
            pub fn from_name(name: &str) -> ::core::option::Option<#ident> {
                let all = #ident::ALL;
                if let ::core::result::Result::Ok(i) = all.binary_search_by(|v| v.name().cmp(name)) {
                    return ::core::option::Option::Some(all[i]);
                }
                #plain
            }

            #extra
        }

        impl ::core::str::FromStr for #ident {
            type Err = #rt::UnknownName;
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                #ident::from_name(s).ok_or_else(|| #rt::UnknownName::new(#noun, s))
            }
        }

        impl ::core::fmt::Display for #ident {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }

        #serde
    }
}

fn agent_def(
    a: &lockfile::Agent,
    ident: &Ident,
    skill: &dyn Fn(&str) -> Option<TokenStream>,
    tool: &dyn Fn(&str) -> Option<TokenStream>,
) -> TokenStream {
    let rt = quote!(::agentc::runtime);
    let id = &a.id;
    let style = match a.style {
        AgentStyle::Bundle => quote!(#rt::AgentStyle::Bundle),
        AgentStyle::Package => quote!(#rt::AgentStyle::Package),
    };
    let display_name = opt_str(a.display_name.as_deref());
    let version = opt_str(a.version.as_deref());
    let description = opt_str(a.description.as_deref());
    let model = opt_str(a.model.as_deref());
    let tools = a.tools.iter().filter_map(|r| tool(&r.qualified));
    let skills = a.skills.iter().filter_map(|r| skill(&r.qualified));
    let disallowed = a.disallowed_tools.iter().filter_map(|r| tool(&r.qualified));
    let context = strs(&a.context);
    let start = opt(a.start.as_deref().and_then(skill), |s| s);
    let hooks = strs(&a.hooks);
    let file_patterns = strs(&a.file_patterns);
    let keywords = strs(&a.keywords);
    let tags = strs(&a.tags);
    let role = opt_str(a.role.as_deref());
    let context_mode = opt(a.context_mode, |c| match c {
        ContextMode::Fork => quote!(#rt::ContextMode::Fork),
        ContextMode::Fresh => quote!(#rt::ContextMode::Fresh),
    });
    let max_iterations = opt(a.max_iterations, |n| quote!(#n));
    let effort = opt(a.effort, |e| {
        let v = format_ident!(
            "{}",
            match e {
                Effort::Low => "Low",
                Effort::Medium => "Medium",
                Effort::High => "High",
                Effort::Max => "Max",
            }
        );
        quote!(#rt::Effort::#v)
    });
    let memory = opt(a.memory, |m| {
        let v = format_ident!(
            "{}",
            match m {
                Memory::User => "User",
                Memory::Session => "Session",
                Memory::Agent => "Agent",
            }
        );
        quote!(#rt::Memory::#v)
    });
    let platforms = strs(&a.platforms);
    let scopes = strs(&a.scopes);
    let permissions = strs(&a.permissions);
    let layers = a.prompt_layers.iter().map(|l| {
        let scope = match l.scope {
            PromptScope::SystemPrompt => quote!(#rt::PromptScope::SystemPrompt),
            PromptScope::AgentPrompt => quote!(#rt::PromptScope::AgentPrompt),
            PromptScope::RepoPrompt => quote!(#rt::PromptScope::RepoPrompt),
        };
        let (source, text) = (&l.source, &l.text);
        let heading = opt_str(l.heading.as_deref());
        quote!(#rt::PromptLayerDef { scope: #scope, source: #source, heading: #heading, text: #text })
    });
    let instructions = &a.instructions;
    let doc = format!("The agent `{id}`.");
    quote! {
        #[doc = #doc]
        #[allow(dead_code)]
        pub static #ident: #rt::AgentDef<Skill, Tool> = #rt::AgentDef {
            id: #id,
            style: #style,
            display_name: #display_name,
            version: #version,
            description: #description,
            model: #model,
            tools: &[#(#tools),*],
            skills: &[#(#skills),*],
            disallowed_tools: &[#(#disallowed),*],
            context: #context,
            start: #start,
            hooks: #hooks,
            file_patterns: #file_patterns,
            keywords: #keywords,
            tags: #tags,
            role: #role,
            context_mode: #context_mode,
            max_iterations: #max_iterations,
            effort: #effort,
            memory: #memory,
            platforms: #platforms,
            scopes: #scopes,
            permissions: #permissions,
            prompt_layers: &[#(#layers),*],
            instructions: #instructions,
        };
    }
}

/// The items with nothing in them, emitted beside a `compile_error!` so the
/// code using them fails only where it names something specific.
pub fn stub() -> TokenStream {
    generate(&Input {
        model: &Model::default(),
        lock_digest: "",
        host_tools: &[],
        inputs: &[],
        async_tools: false,
        models: &[],
        contexts: &[],
    })
}

/// The tokens as formatted Rust source, for a file in `OUT_DIR`.
pub fn format(tokens: &TokenStream) -> String {
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(_) => tokens.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(camel("refund-review"), "RefundReview");
        assert_eq!(camel("lookup_order"), "LookupOrder");
        assert_eq!(camel("2fa"), "N2fa");
        assert_eq!(camel("self"), "Self_");
        assert_eq!(screaming("billing-desk").to_string(), "BILLING_DESK");
        assert_eq!(screaming("2nd").to_string(), "AGENT_2ND");
        assert_eq!(screaming("coding.v2").to_string(), "CODINGV2");
        assert_eq!(screaming("_").to_string(), "AGENT__");
        assert_eq!(screaming("é").to_string(), "AGENT_");
        assert_eq!(screaming("lock-digest").to_string(), "LOCK_DIGEST_AGENT");
        let v = variants(&[("a-b".into(), None, "a-b".into()), ("a_b".into(), None, "a_b".into())]);
        assert_eq!(v.iter().map(Ident::to_string).collect::<Vec<_>>(), ["AB", "AB_2"]);
        let names = |ids: &[&str]| -> Vec<String> {
            statics(ids.iter().copied()).iter().map(Ident::to_string).collect()
        };
        assert_eq!(
            names(&["a", "a-", "2nd", "agent-2nd"]),
            ["A", "A_", "AGENT_2ND", "AGENT_2ND_2"]
        );
        assert_eq!(
            names(&["2nd", "agent-2nd", "agent-2nd-2", "lock-digest"]),
            ["AGENT_2ND", "AGENT_2ND_3", "AGENT_2ND_2", "LOCK_DIGEST_AGENT"]
        );
    }

    #[test]
    fn the_stub_is_valid_rust() {
        let text = format(&stub());
        assert!(text.contains("pub enum Agent {}"), "{text}");
    }
}
