//! Tool descriptors (`tools/<tool>/manifest.json`) and the host registry file.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::span::Spanned;
use crate::values::{List, Text};

/// A JSON object, kept as written.
pub type JsonObject = serde_json::Map<String, serde_json::Value>;

/// # manifest.json — a tool descriptor
///
/// Describes a tool the host implements. The folder holding it is the tool's id;
/// nothing in the folder is ever run by agentc.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Tool manifest.json", extend("$id" = "https://agentc.dev/schemas/tool.schema.json"))]
pub struct ToolManifest {
    /// # Schema
    ///
    /// The JSON Schema this file follows, for editors. agentc ignores it.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"../../../generated/tool.schema.json")]
    pub schema: Option<String>,

    /// # Name
    ///
    /// The tool's name; when given it must equal the folder name, which is the id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"lookup_order")]
    pub name: Option<Spanned<Text>>,

    /// # Description
    ///
    /// What the tool does, as the model will read it.
    #[schemars(example = &"Look up an order by its number.")]
    pub description: Spanned<Text>,

    /// # Input schema
    ///
    /// A JSON Schema object describing the tool's arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}))]
    pub input_schema: Option<Spanned<JsonObject>>,

    /// # Metadata
    ///
    /// Free-form data for the host, kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"owner": "payments"}))]
    pub metadata: Option<Spanned<JsonObject>>,
}

/// # Registry — what the host provides
///
/// The file given with `--registry` (JSON or YAML): tool names the host
/// implements, the models it can run, and the context providers it injects.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "agentc registry", extend("$id" = "https://agentc.dev/schemas/registry.schema.json"))]
pub struct Registry {
    /// # Schema
    ///
    /// The JSON Schema this file follows, for editors. agentc ignores it.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"generated/registry.schema.json")]
    pub schema: Option<String>,

    /// # Tools
    ///
    /// Names of tools the host implements. A descriptor of the same name on disk is the same tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("send_customer_email"))]
    pub tools: Option<List<Text>>,

    /// # Models
    ///
    /// The models agents may use, as `<provider>/<model>`. When given, any other model is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("anthropic/claude-sonnet-4-5"))]
    pub models: Option<List<Text>>,

    /// # Context providers
    ///
    /// Names of the context providers the host injects. Agents may name no others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("customer-profile"))]
    pub context: Option<List<Text>>,
}
