//! Tool descriptors (`tools/<tool>/manifest.json`) and the host registry file.

use std::fmt;
use std::hash::{Hash, Hasher};

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::span::{SHORTHAND_NAME, Spanned, error_at};
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
    /// Tools the host implements: each a name, or an object with the name, the description the
    /// model reads and the input's JSON Schema. A descriptor of the same name on disk is the same
    /// tool, and what it says wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("send_customer_email"))]
    pub tools: Option<List<RegistryTool>>,

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

/// One tool the registry declares: `send_customer_email`, or
/// `{ name, description, input_schema }` to carry what the model reads.
#[derive(Clone, Debug)]
pub struct RegistryTool {
    /// The name; for the short form, the whole entry.
    pub name: Spanned<Text>,
    pub description: Option<Spanned<Text>>,
    pub input_schema: Option<Spanned<JsonObject>>,
}

/// The long form, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Described {
    name: Spanned<Text>,
    #[serde(default)]
    description: Option<Spanned<Text>>,
    #[serde(default)]
    input_schema: Option<Spanned<JsonObject>>,
}

const DESCRIBED_FIELDS: &[&str] = &["name", "description", "input_schema"];

enum Written {
    Name(Text),
    Described(Described),
}

impl<'de> Deserialize<'de> for Written {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct WrittenVisitor;

        impl<'de> Visitor<'de> for WrittenVisitor {
            type Value = Written;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a tool name, or a mapping with `name`, `description` and `input_schema`",
                )
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Written, E> {
                Text::deserialize(de::value::StrDeserializer::<E>::new(v)).map(Written::Name)
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Written, A::Error> {
                Described::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(Written::Described)
            }
        }

        deserializer.deserialize_struct(SHORTHAND_NAME, DESCRIBED_FIELDS, WrittenVisitor)
    }
}

impl<'de> Deserialize<'de> for RegistryTool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let written = Spanned::<Written>::deserialize(deserializer)?;
        Ok(match written.value {
            Written::Name(name) => RegistryTool {
                name: Spanned { value: name, span: written.span, text_at: written.text_at },
                description: None,
                input_schema: None,
            },
            Written::Described(d) => {
                if d.input_schema.as_ref().is_some_and(|s| s.value.is_empty()) {
                    let span = d.input_schema.as_ref().map(|s| s.span).unwrap_or_default();
                    return Err(error_at(
                        span,
                        "the input schema is empty; describe the input (`type: object`, \
                         `properties`) or remove the key",
                    ));
                }
                RegistryTool {
                    name: d.name,
                    description: d.description,
                    input_schema: d.input_schema,
                }
            }
        })
    }
}

impl Serialize for RegistryTool {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        if self.description.is_none() && self.input_schema.is_none() {
            return self.name.value.serialize(serializer);
        }
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", &self.name.value)?;
        if let Some(description) = &self.description {
            map.serialize_entry("description", &description.value)?;
        }
        if let Some(schema) = &self.input_schema {
            map.serialize_entry("input_schema", &schema.value)?;
        }
        map.end()
    }
}

/// Entries are the same tool when their names are: the registry's list
/// refuses a name twice, whichever form each is written in.
impl PartialEq for RegistryTool {
    fn eq(&self, other: &Self) -> bool {
        self.name.value == other.name.value
    }
}

impl Eq for RegistryTool {}

impl Hash for RegistryTool {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.value.hash(state);
    }
}

impl fmt::Display for RegistryTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.name.value.fmt(f)
    }
}

impl JsonSchema for RegistryTool {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RegistryTool".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let name = json_schema!({ "type": "string", "minLength": 1, "pattern": "\\S" });
        json_schema!({
            "description": "A tool the host implements: its name, or an object with its name, the description the model reads and its input's JSON Schema.",
            "oneOf": [
                name.clone(),
                {
                    "type": "object",
                    "properties": {
                        "name": { "description": "The tool's name.", "type": "string", "minLength": 1, "pattern": "\\S" },
                        "description": { "description": "What the tool does, as the model will read it.", "type": "string", "minLength": 1, "pattern": "\\S" },
                        "input_schema": { "description": "A JSON Schema object describing the tool's arguments.", "type": "object", "minProperties": 1 }
                    },
                    "required": ["name"],
                    "additionalProperties": false
                }
            ]
        })
    }
}
