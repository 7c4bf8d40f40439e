//! The compiled model, as written to `agentc.lock`.
//!
//! Everything here is resolved: names are qualified, prompts are composed, and no
//! value points back into a source file except by its relative path. A runtime
//! loads this without re-validating.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::agent::{ContextMode, Effort, Memory};
use crate::dialect::Dialect;
use crate::guard::Status;
use crate::shared::SharedStr;
use crate::skill::OnSkip;
use crate::tool::JsonObject;

/// The lockfile format this crate reads and writes.
pub const LOCKFILE_VERSION: u32 = 1;

/// # agentc.lock — a compiled agents directory
///
/// The validated, self-contained result of compiling an agents directory.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "agentc.lock", extend("$id" = "https://agentc.dev/schemas/lockfile.schema.json"))]
pub struct Lockfile {
    /// # Lockfile version
    ///
    /// The format version; a reader refuses versions it does not know.
    #[schemars(example = 1)]
    pub lockfile_version: u32,
    /// # agentc version
    ///
    /// The version of agentc that wrote the file.
    #[schemars(example = &"0.1.0")]
    pub agentc_version: String,
    /// # Root digest
    ///
    /// Lowercase hex sha256 of one record `<path>\0<sha256>\n` per entry of
    /// `files`, in the order `files` lists them (`@registry` included), the
    /// records concatenated with nothing between them (see docs/lockfile.md).
    #[schemars(regex(pattern = r"^[0-9a-f]{64}$"))]
    pub root_digest: String,
    /// # Input files
    ///
    /// Every file the model is compiled from, with its digest: the root's
    /// files in path order, then the workspace's (`@workspace/…`), then the
    /// registry file (`@registry`) when the compile was given one.
    pub files: Vec<FileDigest>,
    /// Agents
    pub agents: Vec<Agent>,
    /// Skills
    pub skills: Vec<Skill>,
    /// Tools
    pub tools: Vec<Tool>,
    /// Coding assistants' agents: Claude Code subagents and commands, Copilot
    /// custom agents.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assistants: Vec<Assistant>,
    /// Claude Code plugins, with what each holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugins: Vec<Plugin>,
    /// The MCP servers the project configures, and the agents that use each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<McpServer>,
    /// Claude Code hooks, by file and event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<HookSet>,
}

/// A Claude Code plugin and its components.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Plugin {
    /// The namespace of its components: its manifest's `name`, else its folder's.
    pub name: String,
    /// Its folder.
    pub folder: String,
    /// Its `.claude-plugin/plugin.json`, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<String>,
    /// The manifest's `version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The manifest's `description`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Qualified names of its skills.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<String>,
    /// Ids of its subagents and commands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assistants: Vec<String>,
    /// Ids of the MCP servers it configures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<String>,
    /// The events its hooks run at.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hook_events: Vec<String>,
}

/// An MCP server a host starts, as configured (never its environment or
/// headers, which may hold secrets: only their names).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpServer {
    /// How tools name it: `mcp__<id>__<tool>` (`plugin_<plugin>_<name>` for a
    /// plugin's server).
    pub id: String,
    /// The name it is configured under.
    pub name: String,
    /// The file configuring it.
    pub source: String,
    /// Who reads that file: `claude-code`, `vscode` or `gemini-cli`.
    pub host: String,
    /// The plugin configuring it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
    /// `stdio`, `http` or `sse`.
    pub transport: String,
    /// A local server's program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// A remote server's address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The names of the environment variables it is given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<String>,
    /// Ids of the assistants that name it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub used_by: Vec<String>,
}

/// The hooks of one event in one file.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HookSet {
    /// The file they are written in.
    pub source: String,
    /// The plugin they belong to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
    /// The event they run at.
    pub event: String,
    /// The matchers and hooks, as written.
    pub matchers: Vec<serde_json::Value>,
}

/// An input file and its content digest.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileDigest {
    /// Where the file is: a `/`-separated path relative to the root (the
    /// agents directory); `@workspace/` and a path relative to the workspace
    /// for the workspace's files; or exactly `@registry` for the host's
    /// registry file, which lives outside both (its location is not
    /// recorded, so moving it does not change the lockfile).
    #[schemars(example = &"skills/billing/SKILL.md", example = &"@workspace/AGENTS.md", example = &"@registry")]
    pub path: String,
    /// Lowercase hex sha256 of the file's bytes, exactly as on disk.
    #[schemars(regex(pattern = r"^[0-9a-f]{64}$"))]
    pub sha256: String,
}

/// Where a definition lives.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, Serialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum ScopeKind {
    /// The root's `skills/`, `tools/` and flat skills.
    Global,
    /// The workspace's `.agents/`.
    Repo,
    /// One agent's private `skills/` and `tools/`.
    Agent,
    /// Declared by the host's registry only.
    Host,
    /// One Claude Code plugin's components (`<plugin>:<name>`).
    Plugin,
}

/// A resolved reference to a skill or tool.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    /// The name as written.
    pub name: String,
    /// The unique name (`agent__<agent>__<name>` for private definitions).
    pub qualified: String,
    /// The scope the name resolved in.
    pub scope: ScopeKind,
}

/// How an agent is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AgentStyle {
    /// `AGENT.md` with frontmatter.
    Bundle,
    /// `agent.json` with entry points.
    Package,
}

/// Which scope a prompt layer comes from (each can be excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PromptScope {
    SystemPrompt,
    AgentPrompt,
    RepoPrompt,
}

/// One layer of an agent's prompt.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PromptLayer {
    /// The scope the layer comes from; `--exclude` can switch each off.
    pub scope: PromptScope,
    /// The file the text comes from.
    pub source: String,
    /// The section heading, for package-style agents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
    /// The layer's text, trimmed.
    pub text: String,
}

/// A compiled agent.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Agent {
    /// The folder name.
    pub id: String,
    /// How the agent is written: `bundle` (AGENT.md) or `package` (agent.json).
    pub style: AgentStyle,
    /// The manifest or AGENT.md path.
    pub source: String,
    /// The declared name: `name` in agent.json or AGENT.md.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// The package version (package style).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What the agent does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `<provider>/<model>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The tools the agent may call, private ones included, resolved.
    pub tools: Vec<Reference>,
    /// The skills the agent activates, private ones included, resolved.
    pub skills: Vec<Reference>,
    /// The tools the agent must never call, resolved.
    pub disallowed_tools: Vec<Reference>,
    /// The context providers the host injects.
    pub context: Vec<String>,
    /// The qualified name of the skill the runbook starts at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The names of the agent's hooks (folders of `hooks/`).
    pub hooks: Vec<String>,
    /// `trigger_rules.file_patterns`.
    pub file_patterns: Vec<String>,
    /// `trigger_rules.keywords`.
    pub keywords: Vec<String>,
    /// Free labels.
    pub tags: Vec<String>,
    /// The agent's role in a team of agents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// `fork` or `fresh`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_mode: Option<ContextMode>,
    /// How many model turns the agent may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_iterations: Option<u32>,
    /// How hard the model should think.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<Effort>,
    /// How long the agent's memory lives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Memory>,
    /// The chat platforms the agent serves.
    pub platforms: Vec<String>,
    /// The conversation kinds the agent may join.
    pub scopes: Vec<String>,
    /// Permission expressions a caller must satisfy.
    pub permissions: Vec<String>,
    /// The prompt, layer by layer, in order.
    pub prompt_layers: Vec<PromptLayer>,
    /// The layers composed into one text.
    pub instructions: String,
}

/// A compiled skill.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    /// The skill's `name`.
    pub name: String,
    /// The unique name: `agent__<agent>__<name>` for private skills,
    /// `<plugin>:<name>` for a plugin's, `<folder>/<name>` for a skill of a
    /// nested Codex skill folder (`<folder>/.agents/skills`).
    pub qualified: String,
    /// Where the skill is defined.
    pub scope: ScopeKind,
    /// The owning agent, for private skills.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The SKILL.md path.
    // Shared with the compile's own.
    pub source: SharedStr,
    /// When to use the skill.
    // Its text in the skill's file, shared.
    pub description: SharedStr,
    /// The Markdown after the frontmatter.
    pub body: SharedStr,
    /// Qualified tool names.
    pub tools: Vec<String>,
    /// The runbook's steps, in order.
    pub steps: Vec<CompiledStep>,
    /// What happens when a step is skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_skip: Option<OnSkip>,
    /// Where the work goes next: the edges of the runbook graph.
    pub routes: Vec<CompiledRoute>,
    /// Frontmatter keys agentc does not interpret, as written.
    pub metadata: BTreeMap<String, serde_json::Value>,
    /// The format the skill is written in (absent for a runbook).
    #[serde(default, skip_serializing_if = "Dialect::is_runbook")]
    pub dialect: Dialect,
    /// The Claude Code plugin defining the skill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
    /// The dialect's other fields (`license`, `metadata`, `allowed-tools`…),
    /// kept as written for the host that reads them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, serde_json::Value>,
}

/// A coding assistant's agent, compiled: its references checked, its
/// settings kept as written for the host.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Assistant {
    /// The name the host knows it by: a subagent's `name`, a Copilot agent's
    /// `name` when it declares one, otherwise the file's name; `<plugin>:<name>`
    /// inside a plugin.
    pub id: String,
    /// The format.
    pub dialect: Dialect,
    /// The file's path.
    pub source: String,
    /// The Claude Code plugin defining it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
    /// What it does and when to use it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Qualified names of the skills it loads (a subagent's `skills`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<String>,
    /// Ids of the agents it hands off to (Copilot `handoffs`), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handoffs: Vec<String>,
    /// Ids of the configured MCP servers it names (`mcpServers`, and the
    /// `<server>` of `mcp__<server>__<tool>` tools).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<String>,
    /// The prompt: the Markdown after the frontmatter.
    pub body: SharedStr,
    /// Every other frontmatter field, as written (tools, model, handoff labels…).
    pub fields: BTreeMap<String, serde_json::Value>,
}

/// A step of a compiled runbook.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompiledStep {
    /// Qualified tool name.
    pub tool: String,
    /// Why the step calls the tool.
    // Its text in the skill's file, shared.
    pub why: SharedStr,
}

/// A route between skills.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompiledRoute {
    /// Qualified skill name.
    pub target: String,
    /// `on <tool>`: the qualified tool the route fires after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_tool: Option<String>,
    /// `status=…`: the outcomes the route fires on (any when empty).
    pub statuses: Vec<Status>,
}

/// A compiled tool.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    /// The tool's folder name (or host-declared name).
    pub name: String,
    /// The unique name: `agent__<agent>__<name>` for private tools.
    pub qualified: String,
    /// Where the tool is defined.
    pub scope: ScopeKind,
    /// The owning agent, for private tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The descriptor, when one exists on disk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Whether the host's registry declares it.
    pub host: bool,
    /// What the tool does, from its descriptor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The descriptor's JSON Schema for the tool's input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<JsonObject>,
}

/// Lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    sha256_hex_of(&[bytes])
}

/// [`sha256_hex`] of `parts` one after another, without joining them first
/// (a file's BOM, then its text).
pub fn sha256_hex_of(parts: &[&[u8]]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hex(&hasher.finalize())
}

/// `digest` in lowercase hex.
fn hex(digest: &[u8]) -> String {
    use std::fmt::Write;
    digest.iter().fold(String::with_capacity(64), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// The root digest: sha256 over each file's path and digest, in the order given
/// (the order of `files`, `@registry` last), one `path\0sha256\n` record per
/// file, as docs/lockfile.md describes for loaders in other languages; hashed
/// as the records come, not gathered first.
pub fn root_digest(files: &[FileDigest]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for file in files {
        hasher.update(file.path.as_bytes());
        hasher.update([0]);
        hasher.update(file.sha256.as_bytes());
        hasher.update(b"\n");
    }
    hex(&hasher.finalize())
}

/// The path under which the registry file is recorded: it lives outside the
/// root, and where it lives must not change the lockfile.
pub const REGISTRY_PATH: &str = "@registry";

/// Why a lockfile could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    Io(std::io::Error),
    /// Not JSON, or not a lockfile.
    Invalid(serde_json::Error),
    /// Written in a format this version does not read.
    Version {
        found: Option<u64>,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io(err) => write!(f, "cannot read the lockfile: {err}"),
            LoadError::Invalid(err) => write!(f, "not a valid lockfile: {err}"),
            LoadError::Version { found: Some(v) } => write!(
                f,
                "the lockfile has format version {v}; this reader knows version {LOCKFILE_VERSION}"
            ),
            LoadError::Version { found: None } => {
                write!(f, "the lockfile has no `lockfile_version`; it is not an agentc.lock")
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// A file whose content no longer matches the lockfile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileChange {
    /// The file's digest differs.
    Changed(String),
    /// The file is gone, or is no longer a regular file inside the directory.
    Missing(String),
    /// The lockfile names a path that cannot be an input (absolute, or with
    /// `..`): it was edited by hand, and is not read.
    Invalid(String),
    /// `root_digest` is not the digest of the `files` listed: the list or the
    /// digest was edited by hand (a file dropped from the list, say), so the
    /// files above cannot vouch for the lockfile.
    RootDigest,
}

/// The largest input file `verify` reads, as `agentc` does by default.
pub const VERIFY_MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// Reads `relative` inside `base` only if it stays inside and is a regular
/// file of reasonable size; `None` otherwise.
fn read_inside(base: &std::path::Path, relative: &str) -> Result<Option<Vec<u8>>, ()> {
    use std::path::Component;
    let rel = std::path::Path::new(relative);
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(());
    }
    let path = base.join(rel);
    let (Ok(canonical), Ok(base)) = (std::fs::canonicalize(&path), std::fs::canonicalize(base))
    else {
        return Ok(None);
    };
    let regular =
        std::fs::metadata(&canonical).is_ok_and(|m| m.is_file() && m.len() <= VERIFY_MAX_FILE_SIZE);
    if !canonical.starts_with(&base) || !regular {
        return Ok(None);
    }
    Ok(std::fs::read(&canonical).ok())
}

/// Whether `start`, the first bytes of a file, is agentc's lockfile, which
/// agentc may replace: a JSON object whose first key is `lockfile_version`,
/// as agentc writes it (whatever the version, and even cut short by an
/// interrupted write), or nothing but white space. Anything else was written
/// by someone else (another tool's `agents.lock` is TOML) and is never
/// replaced.
///
/// ```
/// use agentc_schema::lockfile::written_by_agentc;
/// assert!(written_by_agentc(b"{\n  \"lockfile_version\": 1,\n  \"agentc_ver"));
/// assert!(!written_by_agentc(b"# Auto-generated by dotagents. Do not edit.\nversion = 1\n"));
/// assert!(!written_by_agentc(b"{\"skills\": []}"));
/// ```
pub fn written_by_agentc(start: &[u8]) -> bool {
    const KEY: &[u8] = b"\"lockfile_version\"";
    let start = start.strip_prefix("\u{feff}".as_bytes()).unwrap_or(start);
    let rest = start.trim_ascii_start();
    let Some(rest) = rest.strip_prefix(b"{") else {
        return rest.is_empty();
    };
    let rest = rest.trim_ascii_start();
    // Cut short inside the key still counts: the bytes agentc wrote are there.
    let n = rest.len().min(KEY.len());
    rest[..n] == KEY[..n]
}

/// How many bytes of a file [`written_by_agentc`] needs.
pub const HEADER_LEN: usize = 256;

impl Lockfile {
    /// Parses a lockfile, refusing a format version this crate does not know.
    ///
    /// ```
    /// let text = r#"{"lockfile_version": 99}"#;
    /// let err = agentc_schema::Lockfile::from_json(text).unwrap_err();
    /// assert!(err.to_string().contains("format version 99"));
    /// ```
    pub fn from_json(text: &str) -> Result<Lockfile, LoadError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(LoadError::Invalid)?;
        let version = value.get("lockfile_version").and_then(serde_json::Value::as_u64);
        if version != Some(u64::from(LOCKFILE_VERSION)) {
            return Err(LoadError::Version { found: version });
        }
        serde_json::from_value(value).map_err(LoadError::Invalid)
    }

    /// Reads and parses `agentc.lock`: what a runtime does at start-up.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Lockfile, LoadError> {
        let text = std::fs::read_to_string(path).map_err(LoadError::Io)?;
        Lockfile::from_json(&text)
    }

    /// The file's exact bytes: pretty JSON, LF line ends, a trailing newline.
    pub fn to_json(&self) -> String {
        let mut text = Vec::new();
        // Writing to memory fails only where serializing does, which these
        // types never do (string keys, finite numbers).
        let _ = self.write_json(&mut text);
        String::from_utf8(text).unwrap_or_default()
    }

    /// [`Lockfile::to_json`], written to `out` as it is made.
    pub fn write_json(&self, mut out: impl std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut out, self)?;
        out.write_all(b"\n")
    }

    /// Recomputes the digest of every input file against `root` (and
    /// `workspace`, for `@workspace/` paths); returns the files that changed.
    ///
    /// The registry file (`@registry`) lives with the host and is not checked;
    /// the root digest is, against the list (last, as [`FileChange::RootDigest`]).
    /// Files added to the directory since the lock are not seen here; compile
    /// again (`agentc lock --check`) to find those.
    pub fn verify(
        &self,
        root: impl AsRef<std::path::Path>,
        workspace: Option<&std::path::Path>,
    ) -> Vec<FileChange> {
        let mut changes = Vec::new();
        for file in &self.files {
            if file.path == REGISTRY_PATH {
                continue;
            }
            let (base, relative) = match file.path.strip_prefix("@workspace/") {
                Some(rel) => match workspace {
                    Some(ws) => (ws, rel),
                    None => {
                        changes.push(FileChange::Missing(file.path.clone()));
                        continue;
                    }
                },
                None => (root.as_ref(), file.path.as_str()),
            };
            match read_inside(base, relative) {
                Err(()) => changes.push(FileChange::Invalid(file.path.clone())),
                Ok(Some(bytes)) if sha256_hex(&bytes) == file.sha256 => {}
                Ok(Some(_)) => changes.push(FileChange::Changed(file.path.clone())),
                Ok(None) => changes.push(FileChange::Missing(file.path.clone())),
            }
        }
        if root_digest(&self.files) != self.root_digest {
            changes.push(FileChange::RootDigest);
        }
        changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of docs/lockfile.md, which loaders written in other
    /// languages from that page check themselves against.
    #[test]
    fn the_root_digest_of_the_documented_example() {
        let skill = b"---\nname: intake\ndescription: Takes a request.\n---\nAsk what is wrong.\n";
        let files = [
            FileDigest { path: "intake/SKILL.md".into(), sha256: sha256_hex(skill) },
            FileDigest { path: REGISTRY_PATH.into(), sha256: sha256_hex(b"tools: []\n") },
        ];
        let digests = [
            "da454cdf19d9ac9c57258a88fdfbfd2caaecca7fb12e5681985ed08510f3ae1e",
            "754ceaf6b2f6e081e4da466ec43ac164e57bd9690db6f9370824fde667e0e766",
            "5f077e51fde8ef75f4b57fb41b802e330e9d26570d1c09e66b1635adb0ee48ab",
        ];
        assert_eq!([&*files[0].sha256, &*files[1].sha256, &root_digest(&files)], digests);
        assert_eq!(
            root_digest(&[]),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        // The page shows them, where it is (the published crate has no docs/).
        let page = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/lockfile.md");
        if let Ok(page) = std::fs::read_to_string(page) {
            assert!(digests.iter().all(|d| page.contains(d)), "docs/lockfile.md's example changed");
        }
    }
}
