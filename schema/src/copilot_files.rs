//! VS Code's customization files besides custom agents: prompt files
//! (`.github/prompts/<name>.prompt.md`) and instructions files
//! (`.github/instructions/**/<name>.instructions.md`). Each field follows VS
//! Code's `promptFileParser.ts` and `promptValidator.ts` and the VS Code
//! documentation (`docs/formats.md`, `docs/research/other-formats.md` §1–2).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::dialect::{OneOrMany, ToolRules};
use crate::span::Spanned;
use crate::values::Text;

/// The keys VS Code's validator allows in a prompt file's header.
pub const COPILOT_PROMPT_FIELDS: &[&str] =
    &["name", "description", "argument-hint", "agent", "mode", "model", "tools"];

/// The keys VS Code's validator allows in an instructions file's header.
pub const COPILOT_INSTRUCTIONS_FIELDS: &[&str] =
    &["name", "description", "applyTo", "excludeAgent"];

/// # VS Code prompt file
///
/// The YAML frontmatter of `.github/prompts/<name>.prompt.md` (optional);
/// the Markdown after it is the prompt, run as `/<name>` in chat.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "VS Code prompt file frontmatter",
    extend("$id" = "https://agentc.dev/schemas/copilot-prompt.schema.json")
)]
pub struct CopilotPromptFrontmatter {
    /// # Name
    ///
    /// The name typed after `/` in chat; the file's name without
    /// `.prompt.md` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"create-react-form")]
    pub name: Option<Spanned<Text>>,

    /// # Description
    ///
    /// What the prompt does, shown beside it in chat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Generate a new React form component")]
    pub description: Option<Spanned<Text>>,

    /// # Argument hint
    ///
    /// Hint text shown in the chat input after the prompt's name.
    #[serde(rename = "argument-hint", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"the form's fields")]
    pub argument_hint: Option<Spanned<Text>>,

    /// # Agent
    ///
    /// The agent the prompt runs with: `ask`, `edit`, `agent`, `plan` or a
    /// custom agent's name; `agent` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"agent")]
    pub agent: Option<Spanned<Text>>,

    /// # Mode (deprecated)
    ///
    /// The older name of `agent`; VS Code still reads it when `agent` is absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"agent")]
    pub mode: Option<Spanned<Text>>,

    /// # Model
    ///
    /// The language model, or a list of models in order of preference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Claude Sonnet 4.5")]
    pub model: Option<OneOrMany>,

    /// # Tools
    ///
    /// The tools and tool sets available to the prompt (`<server>/*` for a
    /// whole MCP server); only agents use them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("search fetch github/*"))]
    pub tools: Option<ToolRules>,
}

/// # VS Code instructions file
///
/// The YAML frontmatter of `.github/instructions/**/<name>.instructions.md`
/// (optional); the Markdown after it is added to requests about the files
/// `applyTo` matches.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "VS Code instructions file frontmatter",
    extend("$id" = "https://agentc.dev/schemas/copilot-instructions.schema.json")
)]
pub struct CopilotInstructionsFrontmatter {
    /// # Name
    ///
    /// The name shown in the UI; the file's name when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Python standards")]
    pub name: Option<Spanned<Text>>,

    /// # Description
    ///
    /// What the instructions are about; VS Code also picks a file by it for
    /// a matching task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Coding conventions for Python files")]
    pub description: Option<Spanned<Text>>,

    /// # Apply to
    ///
    /// Glob patterns, relative to the workspace's top and separated by
    /// commas, of the files the instructions apply to (`**` for every file).
    #[serde(rename = "applyTo", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"**/*.ts,**/*.tsx")]
    pub apply_to: Option<Spanned<Text>>,

    /// # Exclude agent
    ///
    /// GitHub's agents that skip the file: `code-review`, `coding-agent`, or
    /// a list of them.
    #[serde(rename = "excludeAgent", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"code-review")]
    pub exclude_agent: Option<OneOrMany>,
}
