//! Claude Code's project settings, `.claude/settings.json` and
//! `.claude/settings.local.json`: what agentc checks in them — permission
//! rules (written in the tool grammar of a subagent's `tools`), hooks, and
//! the MCP servers and plugins they enable. The other keys are Claude Code's
//! own and taken as written (`docs/formats.md`, "Claude Code settings").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::hooks::Hooks;
use crate::span::Spanned;
use crate::values::Text;

/// # Claude Code settings
///
/// `.claude/settings.json` (shared) or `.claude/settings.local.json` (personal).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Claude Code settings.json",
    extend("$id" = "https://agentc.dev/schemas/claude-settings.schema.json")
)]
pub struct ClaudeSettings {
    /// # Schema
    ///
    /// The JSON Schema the file follows, for editors.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"https://json.schemastore.org/claude-code-settings.json")]
    pub schema: Option<String>,

    /// # Permissions
    ///
    /// Which tool uses are allowed, asked about or denied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"allow": ["Bash(npm run lint)"], "deny": ["Read(./.env)"]}))]
    pub permissions: Option<Permissions>,

    /// # Hooks
    ///
    /// By event name: the matchers and the hooks each runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"SessionStart": [{"hooks": [{"type": "command", "command": "echo ready"}]}]}))]
    pub hooks: Option<Hooks>,

    /// # Enabled `.mcp.json` servers
    ///
    /// Servers of the project's `.mcp.json` approved without asking.
    #[serde(rename = "enabledMcpjsonServers", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["github"]))]
    pub enabled_mcpjson_servers: Option<Spanned<ServerNames>>,

    /// # Disabled `.mcp.json` servers
    ///
    /// Servers of the project's `.mcp.json` refused without asking.
    #[serde(rename = "disabledMcpjsonServers", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["filesystem"]))]
    pub disabled_mcpjson_servers: Option<Spanned<ServerNames>>,

    /// # Enabled plugins
    ///
    /// `<plugin>@<marketplace>` to whether it is on.
    #[serde(rename = "enabledPlugins", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"formatter@company-tools": true}))]
    pub enabled_plugins: Option<BTreeMap<Spanned<String>, serde_json::Value>>,

    /// # Extra marketplaces
    ///
    /// Marketplaces the project offers its people, by name.
    #[serde(rename = "extraKnownMarketplaces", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"company-tools": {"source": {"source": "github", "repo": "example/tools"}}}))]
    pub extra_known_marketplaces: Option<serde_json::Value>,
}

/// # Server names
///
/// A list of server names, or one name alone (Claude Code reads
/// `"github"` as `["github"]`).
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ServerNames {
    One(String),
    Many(Vec<Spanned<String>>),
}

impl ServerNames {
    /// Each name with where it is written; a lone name is at `whole`.
    pub fn names(&self, whole: crate::span::Span) -> Vec<Spanned<String>> {
        match self {
            ServerNames::One(name) => vec![Spanned::new(name.clone(), whole)],
            ServerNames::Many(names) => names.clone(),
        }
    }
}

impl<'de> Deserialize<'de> for ServerNames {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NamesVisitor;

        impl<'de> serde::de::Visitor<'de> for NamesVisitor {
            type Value = ServerNames;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of server names, or one name")
            }

            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<ServerNames, E> {
                Ok(ServerNames::One(name.to_owned()))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<ServerNames, A::Error> {
                let mut names = Vec::new();
                while let Some(name) = seq.next_element()? {
                    names.push(name);
                }
                Ok(ServerNames::Many(names))
            }
        }

        deserializer.deserialize_any(NamesVisitor)
    }
}

/// # Permissions
///
/// Permissions.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct Permissions {
    /// # Allow
    ///
    /// Rules for tool uses that need no asking: `Read`, `Bash(npm run test:*)`,
    /// `WebFetch(domain:example.com)`, `mcp__github`, `mcp__github__get_issue`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["Bash(npm run lint)", "Read(~/.zshrc)"]))]
    pub allow: Option<Vec<Spanned<String>>>,

    /// # Ask
    ///
    /// Rules for tool uses that always ask.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<Vec<Spanned<String>>>,

    /// # Deny
    ///
    /// Rules for tool uses that are refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!(["Read(./.env)", "Bash(curl:*)"]))]
    pub deny: Option<Vec<Spanned<String>>>,

    /// # Default mode
    ///
    /// The permission mode sessions start in.
    #[serde(rename = "defaultMode", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"acceptEdits")]
    pub default_mode: Option<Spanned<Text>>,

    /// # Additional directories
    ///
    /// Folders outside the project Claude Code may work in.
    #[serde(rename = "additionalDirectories", default, skip_serializing_if = "Option::is_none")]
    pub additional_directories: Option<Vec<Spanned<String>>>,

    /// # Disable bypass permissions mode
    ///
    /// Disable bypass permissions mode.
    #[serde(
        rename = "disableBypassPermissionsMode",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub disable_bypass_permissions_mode: Option<serde_json::Value>,
}
