//! The closed name sets beside `Agent`, `Skill` and `Tool`: `Model` and
//! `Context` (the registry's lists, or the names the agents use where it
//! lists none), the typed links between them (`Skill::agent()`,
//! `Agent::model()`, `Agent::context()`), and serde for every name enum, by
//! name, so a name read from a request or a config file is checked as it is
//! parsed.

use std::collections::{BTreeSet, HashMap};

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::model::Model;

/// Names for `Model` and `Context`: what the registry lists, with any name an
/// agent uses that it does not (an error already reported, but the partial
/// items must still name it).
pub struct Closed {
    pub models: Vec<String>,
    pub contexts: Vec<String>,
}

impl Closed {
    pub fn new(model: &Model, models: &[String], contexts: &[String]) -> Closed {
        let models: BTreeSet<&str> = (models.iter().map(String::as_str))
            .chain(model.agents.iter().filter_map(|a| a.model.as_deref()))
            .collect();
        let contexts: BTreeSet<&str> = (contexts.iter().map(String::as_str))
            .chain(model.agents.iter().flat_map(|a| a.context.iter().map(String::as_str)))
            .collect();
        Closed {
            models: models.into_iter().map(str::to_owned).collect(),
            contexts: contexts.into_iter().map(str::to_owned).collect(),
        }
    }
}

/// The path generated code reaches serde by.
fn serde() -> TokenStream {
    quote!(::agentc::__private::serde)
}

/// `Serialize` and `Deserialize` by name: a name the set does not hold is a
/// deserialization error saying so.
pub fn serde_by_name(ident: &Ident, noun: &str) -> TokenStream {
    let serde = serde();
    let rt = quote!(::agentc::runtime);
    quote! {
        impl #serde::Serialize for #ident {
            fn serialize<S: #serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }

        impl<'de> #serde::Deserialize<'de> for #ident {
            fn deserialize<D: #serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let name = <::std::string::String as #serde::Deserialize>::deserialize(deserializer)?;
                #ident::from_name(&name).ok_or_else(|| {
                    <D::Error as #serde::de::Error>::custom(#rt::UnknownName::new(#noun, &name))
                })
            }
        }
    }
}

/// Variant names for `names` (sorted): `anthropic/claude-sonnet-4-5` →
/// `AnthropicClaudeSonnet45`.
fn variants(names: &[String]) -> Vec<Ident> {
    let keys: Vec<(String, Option<String>, String)> = names
        .iter()
        .map(|n| (n.clone(), None, n.replace(|c: char| !c.is_ascii_alphanumeric(), "-")))
        .collect();
    super::variants(&keys)
}

/// An enum over a closed set of names, with `ALL`, `name()`, `from_name()`,
/// `FromStr`, `Display` and serde.
fn closed_enum(ident: &Ident, noun: &'static str, doc: &str, names: &[String]) -> TokenStream {
    let rt = quote!(::agentc::runtime);
    let variants = variants(names);
    let docs = names.iter().map(|n| format!("`{n}`"));
    let serde = serde_by_name(ident, noun);
    let from_doc = format!("The {noun} with this name.");
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types, dead_code)]
        pub enum #ident {
            #( #[doc = #docs] #variants, )*
        }

        #[allow(dead_code)]
        impl #ident {
            /// Every name, in name order.
            pub const ALL: &'static [#ident] = &[#(#ident::#variants),*];
            const NAMES: &'static [&'static str] = &[#(#names),*];

            /// The name as the registry and the agent files write it.
            pub const fn name(self) -> &'static str {
                #ident::NAMES[self as usize]
            }

            #[doc = #from_doc]
            pub fn from_name(name: &str) -> ::core::option::Option<#ident> {
                #ident::NAMES.binary_search(&name).ok().map(|i| #ident::ALL[i])
            }
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

/// `Model`, `Context`, and the tables behind `Skill::agent()`,
/// `Agent::model()` and `Agent::context()`.
pub fn generate(model: &Model, closed: &Closed, agents: &[Ident]) -> TokenStream {
    let (model_ident, context_ident) = (format_ident!("Model"), format_ident!("Context"));
    let models = closed_enum(
        &model_ident,
        "model",
        "The models agents may run on: the registry's `models`, as `<provider>/<model>`.",
        &closed.models,
    );
    let contexts = closed_enum(
        &context_ident,
        "context provider",
        "The context providers the host injects: the registry's `context`.",
        &closed.contexts,
    );
    let model_of: HashMap<&str, Ident> =
        closed.models.iter().map(String::as_str).zip(variants(&closed.models)).collect();
    let context_of: HashMap<&str, Ident> =
        closed.contexts.iter().map(String::as_str).zip(variants(&closed.contexts)).collect();
    let agent_of: HashMap<&str, &Ident> =
        model.agents.iter().map(|a| a.id.as_str()).zip(agents).collect();
    let agent_models =
        model.agents.iter().map(|a| match a.model.as_deref().and_then(|m| model_of.get(m)) {
            Some(v) => quote!(::core::option::Option::Some(Model::#v)),
            None => quote!(::core::option::Option::None),
        });
    let agent_contexts = model.agents.iter().map(|a| {
        let items = a.context.iter().filter_map(|c| context_of.get(c.as_str()));
        quote!(&[#(Context::#items),*])
    });
    let skill_agents =
        model.skills.iter().map(|s| match s.agent.as_deref().and_then(|id| agent_of.get(id)) {
            Some(v) => quote!(::core::option::Option::Some(Agent::#v)),
            None => quote!(::core::option::Option::None),
        });
    let (agent_count, skill_count) = (model.agents.len(), model.skills.len());
    quote! {
        #models

        #contexts

        #[allow(dead_code)]
        static AGENT_MODELS: [::core::option::Option<Model>; #agent_count] = [#(#agent_models),*];
        #[allow(dead_code)]
        static AGENT_CONTEXT: [&[Context]; #agent_count] = [#(#agent_contexts),*];
        #[allow(dead_code)]
        static SKILL_AGENTS: [::core::option::Option<Agent>; #skill_count] = [#(#skill_agents),*];

        #[allow(dead_code)]
        impl Agent {
            /// The model the agent names, typed (none where it names none).
            pub const fn model(self) -> ::core::option::Option<Model> {
                AGENT_MODELS[self as usize]
            }

            /// The context providers the agent asks the host for.
            pub const fn context(self) -> &'static [Context] {
                AGENT_CONTEXT[self as usize]
            }
        }

        #[allow(dead_code)]
        impl Skill {
            /// The agent owning a private skill; none for a shared one.
            pub const fn agent(self) -> ::core::option::Option<Agent> {
                SKILL_AGENTS[self as usize]
            }
        }
    }
}
