//! A Codex plugin's manifest, `.codex-plugin/plugin.json`, as Codex 0.171.0
//! reads it (`RawPluginManifest` in its `core-plugins` crate): a value of
//! the wrong type in a typed field fails the whole manifest; the component
//! paths (`skills`, `mcpServers`, `hooks`) take several shapes and a wrong
//! one is dropped with a warning; keys it does not know are ignored.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Spanned;

/// # Codex plugin manifest
///
/// `.codex-plugin/plugin.json` at the top of a plugin's folder.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "Codex plugin manifest",
    extend("$id" = "https://agentc.dev/schemas/codex-plugin.schema.json")
)]
pub struct CodexPlugin {
    /// # Name
    ///
    /// The plugin's name; blank, Codex names it after its folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"my-plugin")]
    pub name: Option<Spanned<String>>,
    /// # Version
    ///
    /// The plugin's version, a string; Codex refuses a number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"1.0.0")]
    pub version: Option<Spanned<String>>,
    /// # Description
    ///
    /// What the plugin does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Planning and review workflows.")]
    pub description: Option<Spanned<String>>,
    /// # Keywords
    ///
    /// Words to find the plugin by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["planning", "review"]))]
    pub keywords: Option<Vec<String>>,
    /// # Skills
    ///
    /// A folder of skills, or a list of them, each written `./…`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./skills/")]
    pub skills: Option<serde_json::Value>,
    /// # MCP servers
    ///
    /// A `./…` path to an MCP configuration, or the servers themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./.mcp.json")]
    pub mcp_servers: Option<serde_json::Value>,
    /// # Apps
    ///
    /// A `./…` path to the plugin's apps file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./.app.json")]
    pub apps: Option<Spanned<String>>,
    /// # Hooks
    ///
    /// A `./…` path (or list of them) to hooks files, or the hooks themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"./hooks/hooks.json")]
    pub hooks: Option<serde_json::Value>,
    /// # Interface
    ///
    /// How the plugin is shown in Codex's plugin list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"displayName": "My Plugin", "category": "Coding"}))]
    pub interface: Option<CodexPluginInterface>,
}

/// # Interface
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CodexPluginInterface {
    /// # Display name
    ///
    /// The name shown in the plugin list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// # Short description
    ///
    /// One line shown under the name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_description: Option<String>,
    /// # Long description
    ///
    /// The plugin's page text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_description: Option<String>,
    /// # Developer name
    ///
    /// Who made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub developer_name: Option<String>,
    /// # Category
    ///
    /// Its category in the plugin list (e.g. `Coding`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// # Capabilities
    ///
    /// What it may do (e.g. `Read`, `Write`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Vec<String>>,
    /// # Website
    ///
    /// Its website (also spelt `websiteURL`).
    #[serde(default, alias = "websiteURL", skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
    /// # Privacy policy
    ///
    /// Its privacy policy (also spelt `privacyPolicyURL`).
    #[serde(default, alias = "privacyPolicyURL", skip_serializing_if = "Option::is_none")]
    pub privacy_policy_url: Option<String>,
    /// # Terms of service
    ///
    /// Its terms (also spelt `termsOfServiceURL`).
    #[serde(default, alias = "termsOfServiceURL", skip_serializing_if = "Option::is_none")]
    pub terms_of_service_url: Option<String>,
    /// # Starter prompts
    ///
    /// A prompt or up to three, each at most 128 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_prompt: Option<serde_json::Value>,
    /// # Brand colour
    ///
    /// `#RRGGBB`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brand_color: Option<String>,
    /// # Composer icon
    ///
    /// A `./…` image in the plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub composer_icon: Option<Spanned<String>>,
    /// # Logo
    ///
    /// A `./…` image in the plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo: Option<Spanned<String>>,
    /// # Dark logo
    ///
    /// A `./…` image in the plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo_dark: Option<Spanned<String>>,
    /// # Screenshots
    ///
    /// `./…` images in the plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshots: Option<Vec<String>>,
}
