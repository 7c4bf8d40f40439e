//! Claude Code plugin marketplaces (`.claude-plugin/marketplace.json`), and
//! how a plugin's manifest or marketplace entry names its component files.
//!
//! Fields and rules follow Claude Code's plugin marketplace reference and
//! the schema its `claude plugin validate` checks (`docs/formats.md`,
//! "Claude Code plugins and marketplaces").

use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};

use crate::span::Spanned;
use crate::values::Text;

/// # Claude Code marketplace
///
/// `.claude-plugin/marketplace.json`: a catalogue of plugins people add with
/// `/plugin marketplace add`.
#[derive(Clone, Debug, serde::Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Claude Code marketplace.json",
    extend("$id" = "https://agentc.dev/schemas/claude-marketplace.schema.json")
)]
pub struct Marketplace {
    /// # Schema
    ///
    /// The JSON Schema the file follows, for editors.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://anthropic.com/claude-code/marketplace.schema.json")]
    pub schema: Option<String>,

    /// # Name
    ///
    /// The marketplace's name in kebab-case: people install `<plugin>@<name>`.
    #[schemars(example = &"company-tools")]
    pub name: Spanned<Text>,

    /// # Owner
    ///
    /// Who maintains the marketplace.
    #[schemars(example = serde_json::json!({"name": "Platform team"}))]
    pub owner: Spanned<Person>,

    /// # Description
    ///
    /// What the value is for, shown when it is asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Plugins for the platform team")]
    pub description: Option<Spanned<Text>>,

    /// # Version
    ///
    /// The version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"1.0.0")]
    pub version: Option<serde_json::Value>,

    /// # Metadata
    ///
    /// Further properties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"pluginRoot": "./plugins"}))]
    pub metadata: Option<MarketplaceMetadata>,

    /// # Plugins
    ///
    /// The plugins offered.
    #[schemars(example = serde_json::json!([{"name": "formatter", "source": "./plugins/formatter"}]))]
    pub plugins: Vec<Spanned<MarketplacePlugin>>,

    /// # Cross-marketplace dependencies
    ///
    /// Marketplaces whose plugins this one's may depend on.
    #[serde(
        rename = "allowCrossMarketplaceDependenciesOn",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(example = serde_json::json!(["company-tools"]))]
    pub allow_cross_marketplace_dependencies_on: Option<serde_json::Value>,

    /// # Renames
    ///
    /// Old plugin names to new ones (or `null` for removed plugins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"old-name": "new-name"}))]
    pub renames: Option<serde_json::Value>,

    /// # Remove deleted plugins
    ///
    /// Uninstall plugins the marketplace no longer lists.
    #[serde(
        rename = "forceRemoveDeletedPlugins",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(example = false)]
    pub force_remove_deleted_plugins: Option<bool>,
}

/// # Person
///
/// A person or team.
#[derive(Clone, Debug, serde::Deserialize, Serialize, JsonSchema)]
pub struct Person {
    /// # Name
    ///
    /// The name.
    pub name: Spanned<Text>,
    /// # Email
    ///
    /// An email address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<serde_json::Value>,
    /// # URL
    ///
    /// A web address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<serde_json::Value>,
}

/// # Marketplace metadata
///
/// About the marketplace as a whole.
#[derive(Clone, Debug, serde::Deserialize, Serialize, JsonSchema)]
pub struct MarketplaceMetadata {
    /// # Description
    ///
    /// What the value is for, shown when it is asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<serde_json::Value>,
    /// # Version
    ///
    /// The version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<serde_json::Value>,
    /// # Plugin root
    ///
    /// The folder relative plugin sources are resolved from
    /// (`"./plugins"` lets entries write `"source": "formatter"`).
    #[serde(rename = "pluginRoot", default, skip_serializing_if = "Option::is_none")]
    pub plugin_root: Option<Spanned<Text>>,
}

/// # Marketplace plugin
///
/// One plugin of the catalogue: where it comes from, and — when `strict` is
/// false — its components, written here instead of in a `plugin.json`.
#[derive(Clone, Debug, serde::Deserialize, Serialize, JsonSchema)]
pub struct MarketplacePlugin {
    /// # Name
    ///
    /// The plugin's name in kebab-case.
    #[schemars(example = &"code-formatter")]
    pub name: Spanned<Text>,

    /// # Source
    ///
    /// A folder of this repository (`"./plugins/formatter"`), or an object:
    /// `{"source": "github", "repo": "owner/repo"}`, `{"source": "url",
    /// "url": "…"}`, `{"source": "git-subdir", …}`, `{"source": "npm", …}`.
    pub source: Spanned<serde_json::Value>,

    /// # Strict
    ///
    /// Whether the plugin's own `plugin.json` is the authority (the
    /// default); when false the entry defines the plugin and a `plugin.json`
    /// is not needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,

    /// # Description
    ///
    /// What the value is for, shown when it is asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<serde_json::Value>,
    /// # Version
    ///
    /// The version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<serde_json::Value>,
    /// # Author
    ///
    /// Who wrote the plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<serde_json::Value>,
    /// # Homepage
    ///
    /// The plugin's documentation page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homepage: Option<serde_json::Value>,
    /// # Repository
    ///
    /// Where the plugin's source lives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<serde_json::Value>,
    /// # License
    ///
    /// The plugin's license.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<serde_json::Value>,
    /// # Keywords
    ///
    /// Words for finding the plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keywords: Option<serde_json::Value>,
    /// # Category
    ///
    /// The category the plugin is listed under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<serde_json::Value>,
    /// # Tags
    ///
    /// Tags for finding the plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<serde_json::Value>,
    /// # Dependencies
    ///
    /// Plugins this one needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<serde_json::Value>,

    /// # Commands
    ///
    /// Command files or folders, replacing `commands/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commands: Option<Paths>,
    /// # Agents
    ///
    /// Subagent files, replacing `agents/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<Paths>,
    /// # Skills
    ///
    /// Further skill folders, besides `skills/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skills: Option<Paths>,
    /// # Output styles
    ///
    /// Output style files or folders.
    #[serde(rename = "outputStyles", default, skip_serializing_if = "Option::is_none")]
    pub output_styles: Option<Paths>,
    /// # Hooks
    ///
    /// Hooks: paths to hooks files, or the hooks inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hooks: Option<serde_json::Value>,
    /// # MCP servers
    ///
    /// MCP servers: paths to `.mcp.json` files, or the servers inline.
    #[serde(rename = "mcpServers", default, skip_serializing_if = "Option::is_none")]
    pub mcp_servers: Option<serde_json::Value>,
    /// # LSP servers
    ///
    /// Language servers: paths, or inline.
    #[serde(rename = "lspServers", default, skip_serializing_if = "Option::is_none")]
    pub lsp_servers: Option<serde_json::Value>,
    /// # displayName
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "displayName", default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<serde_json::Value>,
    /// # headers
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "headers", default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<serde_json::Value>,
    /// # headersHelper
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "headersHelper", default, skip_serializing_if = "Option::is_none")]
    pub headers_helper: Option<serde_json::Value>,
    /// # relevance
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "relevance", default, skip_serializing_if = "Option::is_none")]
    pub relevance: Option<serde_json::Value>,
    /// # defaultEnabled
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "defaultEnabled", default, skip_serializing_if = "Option::is_none")]
    pub default_enabled: Option<serde_json::Value>,
    /// # optionalDependencies
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "optionalDependencies", default, skip_serializing_if = "Option::is_none")]
    pub optional_dependencies: Option<serde_json::Value>,
    /// # engines
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "engines", default, skip_serializing_if = "Option::is_none")]
    pub engines: Option<serde_json::Value>,
    /// # network
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "network", default, skip_serializing_if = "Option::is_none")]
    pub network: Option<serde_json::Value>,
    /// # themes
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "themes", default, skip_serializing_if = "Option::is_none")]
    pub themes: Option<serde_json::Value>,
    /// # workflows
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "workflows", default, skip_serializing_if = "Option::is_none")]
    pub workflows: Option<serde_json::Value>,
    /// # monitors
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "monitors", default, skip_serializing_if = "Option::is_none")]
    pub monitors: Option<serde_json::Value>,
    /// # channels
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "channels", default, skip_serializing_if = "Option::is_none")]
    pub channels: Option<serde_json::Value>,
    /// # userConfig
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "userConfig", default, skip_serializing_if = "Option::is_none")]
    pub user_config: Option<serde_json::Value>,
    /// # settings
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "settings", default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<serde_json::Value>,
    /// # types
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "types", default, skip_serializing_if = "Option::is_none")]
    pub types: Option<serde_json::Value>,
    /// # binaries
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "binaries", default, skip_serializing_if = "Option::is_none")]
    pub binaries: Option<serde_json::Value>,
    /// # experimental
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "experimental", default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<serde_json::Value>,
    /// # metadata
    ///
    /// As in `plugin.json`; not checked.
    #[serde(rename = "metadata", default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Value>,
}

/// Component paths: one path or a list, each relative to the plugin's
/// folder and written `./…`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paths(pub Vec<Spanned<Text>>);

impl Paths {
    pub fn iter(&self) -> std::slice::Iter<'_, Spanned<Text>> {
        self.0.iter()
    }
}

impl Serialize for Paths {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Paths {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match PathsOr::<de::IgnoredAny>::deserialize(deserializer)? {
            PathsOr::Paths(paths) => Ok(paths),
            PathsOr::Inline(_) => Err(de::Error::custom(
                "expected a path (`\"./agents\"`) or a list of paths, not an object",
            )),
        }
    }
}

impl JsonSchema for Paths {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Paths".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A path relative to the plugin's folder (`./agents`), or a list of them.",
            "oneOf": [
                { "type": "string", "minLength": 1 },
                { "type": "array", "items": { "type": "string", "minLength": 1 } }
            ]
        })
    }
}

/// Paths to files of a kind, or the configuration written inline (a
/// plugin's `hooks` and `mcpServers`).
#[derive(Clone, Debug)]
pub enum PathsOr<T> {
    Paths(Paths),
    Inline(T),
}

impl<T: Serialize> Serialize for PathsOr<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            PathsOr::Paths(paths) => paths.serialize(serializer),
            PathsOr::Inline(inline) => inline.serialize(serializer),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for PathsOr<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let written = Spanned::<Form<T>>::deserialize(deserializer)?;
        Ok(match written.value {
            Form::One(text) => PathsOr::Paths(Paths(vec![Spanned {
                value: Text(text),
                span: written.span,
                text_at: written.text_at,
            }])),
            Form::List(items) => PathsOr::Paths(Paths(items)),
            Form::Inline(inline) => PathsOr::Inline(inline),
        })
    }
}

impl<T: JsonSchema> JsonSchema for PathsOr<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("PathsOr{}", T::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let inline = generator.subschema_for::<T>();
        json_schema!({
            "oneOf": [
                { "type": "string", "minLength": 1 },
                { "type": "array", "items": { "type": "string", "minLength": 1 } },
                inline
            ]
        })
    }
}

/// How a [`PathsOr`] is written, before the one path gets its span.
enum Form<T> {
    One(String),
    List(Vec<Spanned<Text>>),
    Inline(T),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Form<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FormVisitor<T>(std::marker::PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for FormVisitor<T> {
            type Value = Form<T>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a path, a list of paths, or the configuration as an object")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Form<T>, E> {
                if text.trim().is_empty() {
                    return Err(E::custom(
                        "the path is blank; write `./<folder>` or remove the key",
                    ));
                }
                Ok(Form::One(text.to_owned()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Form<T>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Spanned<Text>>()? {
                    items.push(item);
                }
                Ok(Form::List(items))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Form<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Form::Inline)
            }
        }

        deserializer.deserialize_any(FormVisitor(std::marker::PhantomData))
    }
}
