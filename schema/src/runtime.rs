//! The types generated Rust code is made of.
//!
//! `agentc::agents!("agents")` and `agentc::build::Config` turn an agents
//! directory into three enums — `Agent`, `Skill`, `Tool` — and static data
//! built from the types below: one [`AgentDef`] per agent, a [`SkillDef`] per
//! skill, a [`ToolDef`] per tool, and the runbook graph as [`RouteDef`]s. `S`
//! and `T` are the generated `Skill` and `Tool` enums, so every reference is
//! typed: a route's target is a `Skill`, not a string.
//!
//! ```
//! use agentc_schema::runtime::{RouteDef, Status};
//!
//! #[derive(Clone, Copy, Debug, PartialEq)]
//! enum Skill { Billing, Escalation }
//! #[derive(Clone, Copy, Debug, PartialEq)]
//! enum Tool { IssueRefund }
//!
//! let route: RouteDef<Skill, Tool> = RouteDef {
//!     target: Skill::Escalation,
//!     on_tool: Some(Tool::IssueRefund),
//!     statuses: &[Status::Denied],
//! };
//! assert!(route.fires(Tool::IssueRefund, Status::Denied));
//! assert!(!route.fires(Tool::IssueRefund, Status::Success));
//! ```

use std::fmt;
use std::future::Future;

use serde::{Deserialize, Serialize};

pub use crate::agent::{ContextMode, Effort, Memory};
pub use crate::guard::Status;
pub use crate::lockfile::{AgentStyle, PromptScope, ScopeKind};
pub use crate::skill::OnSkip;

/// A compiled agent.
#[derive(Debug)]
pub struct AgentDef<S: 'static, T: 'static> {
    /// The folder name.
    pub id: &'static str,
    pub style: AgentStyle,
    pub display_name: Option<&'static str>,
    pub version: Option<&'static str>,
    pub description: Option<&'static str>,
    /// `<provider>/<model>`.
    pub model: Option<&'static str>,
    /// The tools the agent may call, private ones included.
    pub tools: &'static [T],
    /// The skills the agent activates, private ones included.
    pub skills: &'static [S],
    pub disallowed_tools: &'static [T],
    /// Context providers the host injects.
    pub context: &'static [&'static str],
    /// Where the runbook starts.
    pub start: Option<S>,
    pub hooks: &'static [&'static str],
    pub file_patterns: &'static [&'static str],
    pub keywords: &'static [&'static str],
    pub tags: &'static [&'static str],
    pub role: Option<&'static str>,
    pub context_mode: Option<ContextMode>,
    pub max_iterations: Option<u32>,
    pub effort: Option<Effort>,
    pub memory: Option<Memory>,
    pub platforms: &'static [&'static str],
    pub scopes: &'static [&'static str],
    pub permissions: &'static [&'static str],
    /// The prompt, layer by layer.
    pub prompt_layers: &'static [PromptLayerDef],
    /// The layers composed into one text.
    pub instructions: &'static str,
}

impl<S: PartialEq, T: PartialEq> AgentDef<S, T> {
    /// Whether the agent may call `tool`.
    pub fn allows(&self, tool: T) -> bool {
        self.tools.contains(&tool) && !self.disallowed_tools.contains(&tool)
    }

    /// Whether the agent activates `skill`.
    pub fn activates(&self, skill: S) -> bool {
        self.skills.contains(&skill)
    }
}

/// One layer of an agent's prompt.
#[derive(Debug)]
pub struct PromptLayerDef {
    pub scope: PromptScope,
    /// The file the text comes from, relative to the root.
    pub source: &'static str,
    pub heading: Option<&'static str>,
    pub text: &'static str,
}

/// A compiled skill: its runbook is `tools`, `steps` and `routes`.
#[derive(Debug)]
pub struct SkillDef<S: 'static, T: 'static> {
    pub name: &'static str,
    /// Unique: `agent__<agent>__<name>` for private skills.
    pub qualified: &'static str,
    pub scope: ScopeKind,
    pub agent: Option<&'static str>,
    pub description: &'static str,
    pub body: &'static str,
    pub tools: &'static [T],
    pub steps: &'static [StepDef<T>],
    pub on_skip: Option<OnSkip>,
    pub routes: &'static [RouteDef<S, T>],
}

impl<S: Copy, T: Copy + PartialEq> SkillDef<S, T> {
    /// Where the work goes after `tool` returned `status`: the first route
    /// whose guard fires, in the order the skill lists them.
    pub fn next(&self, tool: T, status: Status) -> Option<S> {
        self.routes.iter().find(|r| r.fires(tool, status)).map(|r| r.target)
    }
}

/// A step of a runbook.
#[derive(Debug)]
pub struct StepDef<T: 'static> {
    pub tool: T,
    pub why: &'static str,
}

/// A route to another skill, taken when its guard fires.
#[derive(Debug)]
pub struct RouteDef<S: 'static, T: 'static> {
    pub target: S,
    /// `on <tool>`: fires only after this tool.
    pub on_tool: Option<T>,
    /// `status=…`: fires only on these outcomes (any outcome when empty).
    pub statuses: &'static [Status],
}

impl<S, T: PartialEq> RouteDef<S, T> {
    /// Whether the guard fires after `tool` returned `status`. A route without
    /// a guard never fires on an outcome: the model takes it by choice.
    pub fn fires(&self, tool: T, status: Status) -> bool {
        if self.on_tool.is_none() && self.statuses.is_empty() {
            return false;
        }
        self.on_tool.as_ref().is_none_or(|on| *on == tool)
            && (self.statuses.is_empty() || self.statuses.contains(&status))
    }
}

/// A compiled tool.
#[derive(Debug)]
pub struct ToolDef {
    pub name: &'static str,
    pub qualified: &'static str,
    pub scope: ScopeKind,
    pub agent: Option<&'static str>,
    pub description: Option<&'static str>,
    /// The descriptor's input schema, as JSON text.
    pub input_schema: Option<&'static str>,
    /// Whether the host declared it (`tools = [...]` or the registry).
    pub host: bool,
}

/// The bytes `start..end` of an embedded file's text, as agentc read it (a
/// leading byte-order mark skipped): generated code takes each skill's body
/// out of the `include_str!` of its file this way, so the expansion does not
/// repeat the text, and cargo already tracks the file. Evaluated at compile
/// time; a range off the text (the file changed while the crate was being
/// built) fails the build there, and the next build regenerates.
///
/// ```
/// const FILE: &str = "---\nname: a\n---\nThe body.\n";
/// const BODY: &str = agentc_schema::runtime::text_slice(FILE, 16, 26);
/// assert_eq!(BODY, "The body.\n");
/// ```
pub const fn text_slice(file: &'static str, start: usize, end: usize) -> &'static str {
    let bom = match file.as_bytes() {
        [0xEF, 0xBB, 0xBF, ..] => 3,
        _ => 0,
    };
    let (head, _) = file.split_at(bom + end);
    head.split_at(bom + start).1
}

/// The error a tool implementation returns.
pub type ToolError = Box<dyn std::error::Error + Send + Sync>;

/// A host's implementation of a tool, called with the tool's JSON input.
///
/// Any function `fn(serde_json::Value) -> Result<serde_json::Value, E>` is
/// one; name it in the macro's `tools = [...]` list and the generated
/// `Tool::host()` returns it.
///
/// ```
/// use agentc_schema::runtime::HostTool;
/// use serde_json::{Value, json};
///
/// fn lookup_order(input: Value) -> Result<Value, String> {
///     Ok(json!({ "order": input["order_id"], "status": "shipped" }))
/// }
///
/// let tool: &dyn HostTool = &lookup_order;
/// assert_eq!(tool.call(json!({"order_id": "NW-1"})).unwrap()["status"], "shipped");
/// ```
pub trait HostTool: Sync {
    fn call(&self, input: serde_json::Value) -> Result<serde_json::Value, ToolError>;
}

impl<F, E> HostTool for F
where
    F: Fn(serde_json::Value) -> Result<serde_json::Value, E> + Sync,
    E: Into<ToolError>,
{
    fn call(&self, input: serde_json::Value) -> Result<serde_json::Value, ToolError> {
        self(input).map_err(Into::into)
    }
}

/// What a tool call came to: the [`Status`] routes fire on, and the output
/// the model reads.
///
/// ```
/// use agentc_schema::runtime::{Outcome, Status};
/// use serde_json::json;
///
/// let denied = Outcome::denied(json!({"reason": "over the refund limit"}));
/// assert_eq!(denied.status, Status::Denied);
/// let failed = Outcome::from_result(Err::<serde_json::Value, _>("timed out"));
/// assert_eq!((failed.status, failed.output["error"].as_str()), (Status::Failure, Some("timed out")));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub status: Status,
    pub output: serde_json::Value,
}

impl Outcome {
    pub fn new(status: Status, output: serde_json::Value) -> Outcome {
        Outcome { status, output }
    }

    /// The tool did what was asked.
    pub fn success(output: serde_json::Value) -> Outcome {
        Outcome::new(Status::Success, output)
    }

    /// The tool tried and failed (an error, a timeout).
    pub fn failure(output: serde_json::Value) -> Outcome {
        Outcome::new(Status::Failure, output)
    }

    /// The tool refused: a policy, a limit, a permission.
    pub fn denied(output: serde_json::Value) -> Outcome {
        Outcome::new(Status::Denied, output)
    }

    /// The input was not acceptable.
    pub fn invalid(output: serde_json::Value) -> Outcome {
        Outcome::new(Status::Invalid, output)
    }

    /// Part of what was asked was done.
    pub fn partial(output: serde_json::Value) -> Outcome {
        Outcome::new(Status::Partial, output)
    }

    /// Accepted, finished later.
    pub fn pending(output: serde_json::Value) -> Outcome {
        Outcome::new(Status::Pending, output)
    }

    /// What was looked for does not exist.
    pub fn absent(output: serde_json::Value) -> Outcome {
        Outcome::new(Status::Absent, output)
    }

    /// `Ok` is a success; `Err` a failure whose output is `{"error": <message>}`.
    pub fn from_result<E: fmt::Display>(result: Result<serde_json::Value, E>) -> Outcome {
        match result {
            Ok(output) => Outcome::success(output),
            Err(e) => Outcome::failure(serde_json::json!({ "error": e.to_string() })),
        }
    }

    /// The model's input did not fit the tool's input type: `invalid`, with
    /// the reason for the model to read.
    pub fn invalid_input(tool: &str, error: impl fmt::Display) -> Outcome {
        Outcome::invalid(serde_json::json!({
            "error": format!("the input of `{tool}` does not fit its input schema: {error}")
        }))
    }
}

/// A generated `Tool` enum: each variant knows its definition. The runtime
/// (`agentc-runtime`) is written against this.
pub trait ToolId: Copy + Eq + fmt::Debug + 'static {
    fn def(self) -> &'static ToolDef;
}

/// A generated `Skill` enum: each variant knows its definition.
pub trait SkillId: Copy + Eq + fmt::Debug + 'static {
    type Tool: ToolId;
    fn def(self) -> &'static SkillDef<Self, Self::Tool>;
}

/// Calls the host's implementation of a tool with the model's JSON input:
/// generated for the `Tool` enum over every `H` implementing the generated
/// `Tools` trait. The input is deserialized into the tool's input type; one
/// that does not fit comes back as [`Status::Invalid`] without a call.
pub trait Dispatch<H: ?Sized>: ToolId {
    fn dispatch(self, host: &H, input: serde_json::Value) -> Outcome;
}

/// [`Dispatch`] for a crate that asked for async tools (`async_tools = true`).
pub trait AsyncDispatch<H: ?Sized>: ToolId {
    fn dispatch(self, host: &H, input: serde_json::Value) -> impl Future<Output = Outcome> + Send;
}

/// A name that is not an agent, skill or tool of the generated set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    pub kind: &'static str,
    pub name: String,
}

impl UnknownName {
    pub fn new(kind: &'static str, name: &str) -> UnknownName {
        UnknownName { kind, name: name.to_owned() }
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a known {}", self.name, self.kind)
    }
}

impl std::error::Error for UnknownName {}
