//! agentc's Model Context Protocol server, `agentc mcp`: a coding agent
//! that writes a skill, a subagent or a hooks file asks agentc about it over
//! stdio, with four tools — `check` (a path, or a file's text as if it were
//! at a path), `explain` (a diagnostic code), `fixes` (the edits `check
//! --fix` would make, as edits, nothing written) and `schema` (a format's
//! JSON Schema).
//!
//! The protocol is the official Rust SDK's (`rmcp`); what the tools do is
//! in [`project`], over the core compiler alone: the project compiled as
//! `agentc check` compiles it in the server's folder, unsaved text laid over
//! the disk as the language server lays an editor's buffers.

pub mod planted;
pub mod project;

use std::path::Path;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

use project::{Checked, Fixes, Project};

/// What the server tells the agent when it connects.
const INSTRUCTIONS: &str = "agentc checks the files that configure AI coding assistants — \
    Claude Code's skills, subagents, commands, hooks, settings and plugins, GitHub Copilot's \
    agents, prompts and instructions, Codex, Cursor, Gemini CLI, OpenCode, Kiro and Cline \
    files, AGENTS.md, MCP server configurations and agentc's own agents — the way each host \
    reads them. Call `check` after writing or editing such a file (or with its `text` before \
    writing it): each diagnostic has a stable `code`, the line and column at fault, a `help` \
    and sometimes a mechanical `fix`. `explain` gives a code's page, `fixes` the edits \
    `agentc check --fix` would make, and `schema` a format's JSON Schema. Paths are relative \
    to the project's folder, and only the project is read.";

/// The arguments of `check` and `fixes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckParams {
    /// A file or folder of the project.
    #[serde(default)]
    #[schemars(description = "A file or folder of the project, relative to the folder the \
        server runs in (absolute paths are taken inside the project). Only what is at or under \
        it is reported; without it, the whole project.")]
    pub path: Option<String>,
    /// The text of the file at `path`.
    #[serde(default)]
    #[schemars(description = "The text of the file at `path`, checked as if it were saved \
        there: the file may exist (its text on disk is ignored) or not yet (it is checked \
        where it would be written). Nothing is written.")]
    pub text: Option<String>,
}

/// The argument of `explain`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplainParams {
    /// A diagnostic code.
    #[schemars(description = "A diagnostic code, as `check` reports it: `unknown-tool`, \
        `invalid-value`, `unknown-field`...")]
    pub code: String,
}

/// The argument of `schema`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchemaParams {
    /// The format, as `agentc schema` names it.
    #[schemars(schema_with = "kind_schema")]
    pub kind: String,
}

/// The formats `schema` knows, each with what it describes.
fn kind_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let kinds = agentc_schema::Kind::ALL;
    let described: Vec<String> =
        kinds.iter().map(|k| format!("`{}`: {}", k.name(), k.describes())).collect();
    schemars::json_schema!({
        "type": "string",
        "enum": kinds.iter().map(|k| k.name()).collect::<Vec<_>>(),
        "description": format!("The format, as `agentc schema` names it. {}.", described.join("; ")),
    })
}

/// The server: a project and the tools over it.
#[derive(Clone)]
pub struct Server {
    project: Project,
    tool_router: ToolRouter<Server>,
}

#[tool_router]
impl Server {
    /// The server for the project found in `folder`.
    pub fn new(folder: &Path) -> Result<Server, String> {
        Ok(Server { project: Project::new(folder)?, tool_router: Self::tool_router() })
    }

    #[tool(
        description = "Check the project's agent files as `agentc check` does, and return every \
                       problem as structured diagnostics (code, severity, message, file, line, \
                       column, help, fix). With `path`, only what is at or under that file or \
                       folder; with `path` and `text`, the text is checked as the file at \
                       `path`, saved or not, with the rest of the project around it. Nothing \
                       is written.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn check(
        &self,
        Parameters(params): Parameters<CheckParams>,
    ) -> Result<Json<Checked>, String> {
        let project = self.project.clone();
        blocking(move || project.check(params.path.as_deref(), params.text.as_deref()))
            .await
            .map(Json)
    }

    #[tool(
        description = "Explain a diagnostic code: what it means, a failing example and its fix, \
                       and how to change its level in agentc.toml (the page `agentc explain \
                       CODE` prints, in Markdown).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn explain(
        &self,
        Parameters(params): Parameters<ExplainParams>,
    ) -> Result<String, String> {
        project::explain(&params.code)
    }

    #[tool(
        description = "List the mechanical fixes `agentc check --fix` would apply, as edits \
                       (file, line and column range, byte offsets, replacement text), without \
                       writing anything. `path` and `text` are taken as `check` takes them, so \
                       the edits of a text not saved yet apply to that text.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn fixes(
        &self,
        Parameters(params): Parameters<CheckParams>,
    ) -> Result<Json<Fixes>, String> {
        let project = self.project.clone();
        blocking(move || project.fixes(params.path.as_deref(), params.text.as_deref()))
            .await
            .map(Json)
    }

    #[tool(
        description = "Return the JSON Schema (draft-07) of a format agentc reads — a Claude Code \
                       subagent's or skill's front matter, settings, hooks, a plugin manifest, a \
                       Copilot agent, agentc.toml... — as `agentc schema KIND` prints it.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn schema(&self, Parameters(params): Parameters<SchemaParams>) -> Result<String, String> {
        project::schema(&params.kind)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("agentc", env!("CARGO_PKG_VERSION")).with_title("agentc"),
            )
            .with_instructions(INSTRUCTIONS)
    }
}

/// Runs `work` (a compile) on a thread of the runtime's blocking pool; a
/// panic in it is the request's error, and the server goes on.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    match tokio::task::spawn_blocking(work).await {
        Ok(result) => result,
        Err(err) => Err(format!("agentc failed on this request (a bug; please report it): {err}")),
    }
}

/// Serves the project found in `folder` over stdin and stdout until the
/// client closes them.
pub fn run_stdio(folder: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::new(folder)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        let running = server.serve(rmcp::transport::stdio()).await?;
        running.waiting().await?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tools_are_listed_read_only_with_their_schemas() {
        let folder = tempfile::tempdir().unwrap();
        let server = Server::new(folder.path()).unwrap();
        let tools = server.tool_router.list_all();
        let mut names: Vec<&str> = tools.iter().map(|tool| &*tool.name).collect();
        names.sort();
        assert_eq!(names, ["check", "explain", "fixes", "schema"]);
        for tool in &tools {
            let annotations = tool.annotations.as_ref().expect("annotated");
            assert_eq!(annotations.read_only_hint, Some(true), "{}", tool.name);
            let description = tool.description.as_deref().unwrap_or_default();
            assert!(description.len() > 80, "{}: {description}", tool.name);
            assert!(!description.contains('\n'), "{}: {description}", tool.name);
        }
        let check = tools.iter().find(|tool| tool.name == "check").unwrap();
        let input = serde_json::Value::Object((*check.input_schema).clone());
        assert_eq!(input["properties"]["path"]["type"], serde_json::json!(["string", "null"]));
        assert!(check.output_schema.is_some(), "check returns structured content");
        let schema = tools.iter().find(|tool| tool.name == "schema").unwrap();
        let input = serde_json::Value::Object((*schema.input_schema).clone());
        let kinds = input["properties"]["kind"]["enum"].as_array().unwrap();
        assert_eq!(kinds.len(), agentc_schema::Kind::ALL.len());
    }

    #[test]
    fn a_folder_that_is_not_there_is_said_so() {
        let err = Server::new(Path::new("/nonexistent/agentc-mcp")).err().unwrap();
        assert!(err.contains("cannot be opened"), "{err}");
    }
}
