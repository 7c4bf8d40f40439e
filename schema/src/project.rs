//! `agentc.toml`: the project file, which every door reads (the command line,
//! `agents!()`, `build.rs`), so they cannot disagree about what to compile.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::span::Spanned;
use crate::values::{List, Text};

/// The project file's name.
pub const PROJECT_FILE: &str = "agentc.toml";

/// # agentc.toml — an agentc project
///
/// At the top of a project, as `Cargo.toml` is. Paths are relative to the
/// folder holding this file. Every key is optional: an empty file compiles the
/// folder it sits in, with every layout agentc knows.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "agentc.toml", extend("$id" = "https://agentc.dev/schemas/project.schema.json"))]
pub struct ProjectFile {
    /// # Root
    ///
    /// The agents directory, or the folder holding the coding assistants'
    /// layouts (`.claude/`, `.github/agents/`). Default: this file's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"agents")]
    pub root: Option<Spanned<Text>>,

    /// # Workspace
    ///
    /// The repository root that adds `AGENTS.md` and `.agents/skills`, `.agents/tools`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &".")]
    pub workspace: Option<Spanned<Text>>,

    /// # Registry
    ///
    /// The host's registry file (JSON or YAML): the tools it implements, its
    /// models and context providers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"registry.yaml")]
    pub registry: Option<Spanned<Text>>,

    /// # Lockfile
    ///
    /// Where `agentc lock` writes. Default: `agentc.lock` beside the root folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"agentc.lock")]
    pub lockfile: Option<Spanned<Text>>,

    /// # Excluded scopes
    ///
    /// Scopes switched off: `system-prompt`, `agent-prompt`, `repo-prompt`,
    /// `global-skills`, `agent-skills`, `repo-skills`, `global-tools`,
    /// `agent-tools`, `repo-tools`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("repo-skills"))]
    pub exclude: Option<List<Text>>,

    /// # Layouts
    ///
    /// The layouts to read: `agentc`, `agent-skills`, `claude`,
    /// `claude-plugins`, `copilot`, `memory`, `cursor`, `cline`, `opencode`,
    /// `gemini`, `kiro`. Default: every layout found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = crate::values::example_list("agentc claude"))]
    pub layouts: Option<List<Text>>,

    /// # Largest file
    ///
    /// The largest file agentc reads, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = 16777216)]
    pub max_file_size: Option<Spanned<u64>>,

    /// # Lint levels
    ///
    /// The level of any diagnostic code (`agentc explain --list` prints them),
    /// as Cargo's `[lints]` sets rustc's: `allow` drops the diagnostic, `warn`
    /// makes it a warning, `deny` an error. A code not named keeps its default.
    /// `pedantic` names the group of what the hosts tolerate and of portability
    /// rules, allowed by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        with = "Option<BTreeMap<String, LintLevel>>",
        extend("propertyNames" = { "pattern": "^[a-z][a-z0-9]*(-[a-z0-9]+)*$" }),
        example = serde_json::json!({ "unmatched-glob": "allow", "stray-entry": "deny" })
    )]
    pub lints: Option<BTreeMap<Spanned<String>, Spanned<Text>>>,

    /// # Levels per path
    ///
    /// Levels for some paths only, as ruff's `per-file-ignores` and ESLint's
    /// `overrides`: each table's `lints` applies to the files its `paths`
    /// globs match, over `[lints]`; when several tables match a file, the
    /// last one that names a diagnostic's code (or its group) wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!([{
        "paths": [".claude/skills/legacy/**"],
        "lints": { "unknown-field": "allow" }
    }]))]
    pub overrides: Option<Vec<Override>>,
}

/// # Override
///
/// Lint levels for the files some globs match.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Override {
    /// # Paths
    ///
    /// Globs relative to the folder holding `agentc.toml`, matched against
    /// each file's path (`/`-separated): `*` and `?` stay within a folder,
    /// `**` crosses folders, `{a,b}` and `[...]` as in a shell; a glob that
    /// names a folder also matches everything under it.
    #[schemars(example = crate::values::example_list(".claude/skills/legacy/**"))]
    pub paths: List<Text, 1>,

    /// # Lint levels
    ///
    /// The same map as `[lints]`: a diagnostic code (or `pedantic`) to
    /// `allow`, `warn` or `deny`.
    #[schemars(
        with = "BTreeMap<String, LintLevel>",
        extend("propertyNames" = { "pattern": "^[a-z][a-z0-9]*(-[a-z0-9]+)*$" }),
        example = serde_json::json!({ "unknown-field": "allow" })
    )]
    pub lints: BTreeMap<Spanned<String>, Spanned<Text>>,
}

/// # Lint level
///
/// What becomes of a diagnostic with this code.
// The project file holds the level as text, so that a misspelt one is
// reported with "did you mean" (the compiler parses it with
// [`LintLevel::parse`]); this type names the levels once, for the compiler
// and for the schema's enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LintLevel {
    /// The diagnostic is not reported.
    Allow,
    /// The diagnostic is a warning.
    Warn,
    /// The diagnostic is an error.
    Deny,
}

impl LintLevel {
    pub const ALL: [LintLevel; 3] = [LintLevel::Allow, LintLevel::Warn, LintLevel::Deny];

    /// The level as written in `agentc.toml`.
    pub const fn as_str(self) -> &'static str {
        match self {
            LintLevel::Allow => "allow",
            LintLevel::Warn => "warn",
            LintLevel::Deny => "deny",
        }
    }

    pub fn parse(name: &str) -> Option<LintLevel> {
        LintLevel::ALL.into_iter().find(|level| level.as_str() == name)
    }
}
