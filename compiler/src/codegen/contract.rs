//! The typed tool contract: per tool an input type generated from its
//! `input_schema` (by `typify`, here at generation time, never in the user's
//! program), one `Tools` trait with a method per tool, and the glue the
//! runtime calls through (`Dispatch`, `ToolId`, `SkillId`).
//!
//! A tool some agent or skill uses is a required method, so an
//! implementation that leaves one out fails with rustc's "not all trait items
//! implemented, missing: `<tool>`". A tool nobody uses has a default that
//! reports a failure; a tool named in `tools = [...]` (or `.tool(...)`) has
//! that function as its default.

use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};

use proc_macro2::{Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::quote;

use super::HostTool;
use crate::model::Model;

/// The module the input types are generated in.
const INPUT_MOD: &str = "input";

/// Where generated code finds the crates typify's output names.
const PRIVATE: &str = "__private";

/// `agent__billing__issue_refund` → `billing_issue_refund`; names that are
/// keywords or start with a digit get a suffix or prefix; unique.
pub(super) fn methods(model: &Model) -> Vec<Ident> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    model
        .tools
        .iter()
        .map(|t| {
            let raw = match &t.agent {
                Some(agent) => format!("{agent}_{}", t.name),
                None => t.name.clone(),
            };
            let mut name = String::new();
            for c in raw.chars() {
                let c = if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' };
                if !(c == '_' && (name.is_empty() || name.ends_with('_'))) {
                    name.push(c);
                }
            }
            while name.ends_with('_') {
                name.pop();
            }
            if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                name.insert_str(0, "tool_");
            }
            if syn::parse_str::<Ident>(&name).is_err() || name == "self" || name == "super" {
                name.push('_');
            }
            let count = seen.entry(name.clone()).or_insert(0);
            *count += 1;
            let text = if *count == 1 { name } else { format!("{name}_{count}") };
            Ident::new(&text, Span::call_site())
        })
        .collect()
}

/// The tools some agent or skill uses: their methods are required.
fn used(model: &Model) -> HashSet<&str> {
    model
        .agents
        .iter()
        .flat_map(|a| a.tools.iter().map(|t| t.qualified.as_str()))
        .chain(model.skills.iter().flat_map(|s| s.tools.iter().map(String::as_str)))
        .collect()
}

/// The input types: the `input` module's items, and per tool the path of
/// its input type (`serde_json::Value` where there is no schema or typify
/// cannot express it).
struct Inputs {
    items: TokenStream,
    types: Vec<TokenStream>,
}

fn value_type() -> TokenStream {
    quote!(::agentc::serde_json::Value)
}

fn inputs(model: &Model, variants: &[Ident]) -> Inputs {
    let fallback = || Inputs {
        items: TokenStream::new(),
        types: model.tools.iter().map(|_| value_type()).collect(),
    };
    // typify asserts its own invariants with panics; a schema that trips one
    // must not take the build down, only lose its typed input.
    let typed = catch_unwind(AssertUnwindSafe(|| typify_inputs(model, variants)));
    typed.unwrap_or_else(|_| fallback())
}

fn settings() -> typify::TypeSpaceSettings {
    let mut settings = typify::TypeSpaceSettings::default();
    settings.with_type_mod(INPUT_MOD).with_struct_builder(false);
    settings
}

/// The schema as typify takes it, when it is one typify can turn into a type
/// the generated crate can compile (no `$ref`s to definitions elsewhere, no
/// formats that need chrono or uuid).
fn schema_of(
    schema: &serde_json::Map<String, serde_json::Value>,
) -> Option<schemars08::schema::Schema> {
    let value = serde_json::Value::Object(schema.clone());
    let schema: schemars08::schema::Schema = serde_json::from_value(value).ok()?;
    Some(schema)
}

fn typify_inputs(model: &Model, variants: &[Ident]) -> Inputs {
    let mut space = typify::TypeSpace::new(&settings());
    let mut ids = Vec::with_capacity(model.tools.len());
    for (tool, variant) in model.tools.iter().zip(variants) {
        let name = format!("{variant}Input");
        let schema = tool.input_schema.as_ref().and_then(schema_of);
        let id = schema.and_then(|schema| {
            // First alone, so a schema typify refuses leaves nothing half
            // added in the shared space.
            let mut trial = typify::TypeSpace::new(&settings());
            trial.add_type_with_name(&schema, Some(name.clone())).ok()?;
            if trial.uses_chrono() || trial.uses_uuid() {
                return None;
            }
            space.add_type_with_name(&schema, Some(name)).ok()
        });
        ids.push(id);
    }
    let types = ids
        .iter()
        .map(|id| {
            let ty = id.as_ref().and_then(|id| space.get_type(id).ok()).map(|t| t.ident());
            private_paths(ty.unwrap_or_else(value_type))
        })
        .collect();
    let body = private_paths(space.to_stream());
    let items = match syn::parse2::<syn::File>(body) {
        Ok(mut file) => {
            serde_crate(&mut file.items);
            let body = &file.items;
            let module = Ident::new(INPUT_MOD, Span::call_site());
            quote! {
                /// The tools' input types, generated from their `input_schema`s.
                #[allow(
                    dead_code,
                    clippy::all,
                    clippy::pedantic,
                    unused_imports,
                    missing_docs,
                    non_camel_case_types
                )]
                pub mod #module {
                    #(#body)*
                }
            }
        }
        Err(_) => return fallback_all(model),
    };
    Inputs { items, types }
}

fn fallback_all(model: &Model) -> Inputs {
    Inputs { items: TokenStream::new(), types: model.tools.iter().map(|_| value_type()).collect() }
}

/// `::serde`, `::serde_json` and `::regress` in typify's output become
/// `::agentc::__private::…`: the generated crate depends on agentc only.
fn private_paths(tokens: TokenStream) -> TokenStream {
    let crates = ["serde", "serde_json", "regress"];
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), private_paths(g.stream()));
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
            }
            TokenTree::Punct(p)
                if p.as_char() == ':'
                    && p.spacing() == Spacing::Joint
                    && matches!(tokens.get(i + 1), Some(TokenTree::Punct(q)) if q.as_char() == ':')
                    && matches!(tokens.get(i + 2), Some(TokenTree::Ident(id)) if crates.contains(&id.to_string().as_str()))
                    && leading(out.last()) =>
            {
                for segment in ["agentc", PRIVATE] {
                    out.push(TokenTree::Punct(Punct::new(':', Spacing::Joint)));
                    out.push(TokenTree::Punct(Punct::new(':', Spacing::Alone)));
                    out.push(TokenTree::Ident(Ident::new(segment, Span::call_site())));
                }
                out.push(TokenTree::Punct(Punct::new(':', Spacing::Joint)));
                out.push(TokenTree::Punct(Punct::new(':', Spacing::Alone)));
                i += 2;
                continue;
            }
            other => out.push(other.clone()),
        }
        i += 1;
    }
    out.into_iter().collect()
}

/// Whether a `::` after `previous` starts a path (`as ::serde::…`) rather
/// than continuing one (`a::serde`).
fn leading(previous: Option<&TokenTree>) -> bool {
    match previous {
        Some(TokenTree::Group(_)) => false,
        Some(TokenTree::Ident(id)) => {
            let text = id.to_string();
            // A keyword (`as`, `dyn`, `impl`, …) is not a path segment;
            // `self`, `super`, `crate` and `Self` are.
            !matches!(text.as_str(), "self" | "super" | "crate" | "Self")
                && syn::parse_str::<Ident>(&text).is_err()
        }
        _ => true,
    }
}

/// Serde's derives name `serde` as a crate of their own unless told where it
/// is: each type deriving one is told.
fn serde_crate(items: &mut [syn::Item]) {
    let path = format!("::agentc::{PRIVATE}::serde");
    for item in items {
        let attrs = match item {
            syn::Item::Struct(s) => &mut s.attrs,
            syn::Item::Enum(e) => &mut e.attrs,
            syn::Item::Mod(m) => {
                if let Some((_, items)) = &mut m.content {
                    serde_crate(items);
                }
                continue;
            }
            _ => continue,
        };
        let derives_serde = attrs.iter().any(|a| {
            a.path().is_ident("derive") && {
                let text = a.meta.to_token_stream_string();
                text.contains("Serialize") || text.contains("Deserialize")
            }
        });
        if derives_serde {
            attrs.push(syn::parse_quote!(#[serde(crate = #path)]));
        }
    }
}

trait MetaText {
    fn to_token_stream_string(&self) -> String;
}

impl MetaText for syn::Meta {
    fn to_token_stream_string(&self) -> String {
        quote!(#self).to_string()
    }
}

/// The contract's items: the input types, the `Tools` trait, and the
/// runtime's impls for `Tool` and `Skill`.
pub(super) fn generate(
    model: &Model,
    variants: &[Ident],
    host_tools: &[HostTool],
    asynchronous: bool,
) -> TokenStream {
    let rt = quote!(::agentc::runtime);
    let inputs = inputs(model, variants);
    let methods = methods(model);
    let used = used(model);
    let outcome = quote!(#rt::Outcome);
    let signature_output = if asynchronous {
        quote!(impl ::core::future::Future<Output = #outcome> + ::core::marker::Send)
    } else {
        outcome.clone()
    };
    let trait_methods = model.tools.iter().zip(&methods).zip(&inputs.types).map(|((t, m), ty)| {
        let mut doc = match &t.description {
            Some(d) => format!("`{}`: {d}", t.qualified),
            None => format!("The tool `{}`.", t.qualified),
        };
        let host = host_tools.iter().find(|h| h.name == t.qualified);
        let body = if let Some(host) = host {
            doc.push_str("\n\nDefaults to the function named in `tools = [...]`.");
            let path = &host.path;
            Some(quote! {
                let input = ::agentc::serde_json::to_value(&input)
                    .unwrap_or(::agentc::serde_json::Value::Null);
                #outcome::from_result(#rt::HostTool::call(&#path, input))
            })
        } else if !used.contains(t.qualified.as_str()) {
            doc.push_str("\n\nNo agent or skill uses it: the default reports a failure.");
            let message = format!("the tool `{}` is not implemented", t.qualified);
            Some(quote! {
                let _ = input;
                #outcome::failure(::agentc::serde_json::json!({ "error": #message }))
            })
        } else {
            None
        };
        match (body, asynchronous) {
            (Some(body), false) => quote! {
                #[doc = #doc]
                fn #m(&self, input: #ty) -> #signature_output { #body }
            },
            (Some(body), true) => quote! {
                #[doc = #doc]
                fn #m(&self, input: #ty) -> #signature_output { async move { #body } }
            },
            (None, _) => quote! {
                #[doc = #doc]
                fn #m(&self, input: #ty) -> #signature_output;
            },
        }
    });
    let arms = model.tools.iter().zip(variants).zip(&methods).zip(&inputs.types).map(
        |(((t, v), m), ty)| {
            let name = &t.qualified;
            let call =
                if asynchronous { quote!(host.#m(input).await) } else { quote!(host.#m(input)) };
            quote! {
                Tool::#v => match ::agentc::serde_json::from_value::<#ty>(input) {
                    ::core::result::Result::Ok(input) => #call,
                    ::core::result::Result::Err(e) => #outcome::invalid_input(#name, e),
                },
            }
        },
    );
    let dispatch = if asynchronous {
        quote! {
            impl<H: Tools + ::core::marker::Sync + ?::core::marker::Sized> #rt::AsyncDispatch<H> for Tool {
                fn dispatch(
                    self,
                    host: &H,
                    input: ::agentc::serde_json::Value,
                ) -> impl ::core::future::Future<Output = #outcome> + ::core::marker::Send {
                    async move {
                        match self {
                            #(#arms)*
                        }
                    }
                }
            }
        }
    } else {
        quote! {
            impl<H: Tools + ?::core::marker::Sized> #rt::Dispatch<H> for Tool {
                fn dispatch(self, host: &H, input: ::agentc::serde_json::Value) -> #outcome {
                    match self {
                        #(#arms)*
                    }
                }
            }
        }
    };
    let trait_doc = if asynchronous {
        "The host's tools, one async method per tool, each taking the tool's typed input: \
         implement it once, and a tool the agents use but the impl leaves out is a compile \
         error naming it."
    } else {
        "The host's tools, one method per tool, each taking the tool's typed input: implement it \
         once, and a tool the agents use but the impl leaves out is a compile error naming it."
    };
    let items = inputs.items;
    quote! {
        #items

        #[doc = #trait_doc]
        #[allow(dead_code, unused_variables)]
        pub trait Tools {
            #(#trait_methods)*
        }

        #dispatch

        impl #rt::ToolId for Tool {
            fn def(self) -> &'static #rt::ToolDef {
                Tool::def(self)
            }
        }

        impl #rt::SkillId for Skill {
            type Tool = Tool;
            fn def(self) -> &'static #rt::SkillDef<Skill, Tool> {
                Skill::def(self)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Delimiter;

    #[test]
    fn private_paths_are_rewritten_only_at_the_start() {
        let out = private_paths(quote!(
            ::serde::Deserialize; a::serde::X; #[derive(::serde_json::Value)] <E as ::serde::de::Error>
        ));
        let text = out.to_string();
        assert!(text.contains("as :: agentc :: __private :: serde :: de"), "{text}");
        assert!(text.contains(":: agentc :: __private :: serde :: Deserialize"), "{text}");
        assert!(text.contains("a :: serde :: X"), "{text}");
        assert!(text.contains(":: agentc :: __private :: serde_json :: Value"), "{text}");
    }

    #[test]
    fn method_names_are_snake_case_and_unique() {
        let tool = |name: &str, agent: Option<&str>| agentc_schema::lockfile::Tool {
            name: name.into(),
            qualified: match agent {
                Some(a) => format!("agent__{a}__{name}"),
                None => name.into(),
            },
            scope: agentc_schema::lockfile::ScopeKind::Global,
            agent: agent.map(Into::into),
            source: None,
            host: false,
            description: None,
            input_schema: None,
        };
        let model = Model {
            tools: vec![
                tool("issue_refund", Some("billing")),
                tool("search-kb", None),
                tool("search_kb", None),
                tool("type", None),
                tool("2fa", None),
            ],
            ..Model::default()
        };
        let names: Vec<String> = methods(&model).iter().map(Ident::to_string).collect();
        assert_eq!(
            names,
            ["billing_issue_refund", "search_kb", "search_kb_2", "type_", "tool_2fa"]
        );
    }

    #[test]
    fn groups_keep_their_delimiters() {
        let out = private_paths(quote!(f(::regress::Regex::new("x"))));
        let TokenTree::Group(g) = out.into_iter().nth(1).unwrap() else { panic!() };
        assert_eq!(g.delimiter(), Delimiter::Parenthesis);
    }
}
