//! The support desk's triage agent with a Rust agent framework, end to end:
//!
//! - `agentc::agents!` compiles the support desk's agents folder (every
//!   mistake a compile error) into typed items and an async `Tools` trait
//!   ([`host::Desk`] implements it, each method taking its tool's typed
//!   input);
//! - each tool the triage agent may call is a rig-core [`Tool`]
//!   ([`rig_tools!`]), its description and JSON Schema the ones from the
//!   tool's descriptor, so that is what the model is shown;
//! - [`converse`] is the agent loop: it asks a rig-core completion model for
//!   the next step, offering only the tools the current skill lists, runs the
//!   calls through the rig tools, and lets `agentc-runtime`'s [`Run`] move
//!   between skills along the routes each outcome fires, ending where the
//!   runbook ends.
//!
//! The tests script the model with rig-core's `MockCompletionModel`: no
//! network, no key.

use std::sync::Arc;

use agentc::runtime::Outcome;
use agentc::serde_json::{self, Value};
use agentc_runtime::Run;
use futures::lock::Mutex;
use rig_core::completion::{CompletionRequest, Message, ToolDefinition};
use rig_core::tool::{Tool, ToolContext, tool_definition};

pub mod host;

/// The agents, with async tools.
pub mod desk {
    agentc::agents!(
        "../support-desk/agents",
        workspace = "../support-desk",
        registry = "../support-desk/registry.yaml",
        tools = [
            crate::host::send_customer_email,
            crate::host::fetch_invoice,
            crate::host::transfer_conversation,
        ],
        async_tools = true,
    );
}

use desk::Skill;

/// One conversation: the runbook in progress and the tools it calls.
pub struct Session {
    run: Mutex<Run<Skill>>,
    host: host::Desk,
}

/// A call the runbook refused (a tool the current skill does not offer, no
/// calls left, a finished run): the model is told, the run does not move.
#[derive(Debug)]
pub struct Refused(pub agentc_runtime::Error<Skill>);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Refused {}

impl Session {
    /// A conversation with `agent`, from its start skill.
    pub fn new(agent: desk::Agent, host: host::Desk) -> Result<Arc<Session>, Refused> {
        let run = Run::new(agent.def()).map_err(Refused)?;
        Ok(Arc::new(Session { run: Mutex::new(run), host }))
    }

    /// Calls `tool` through the runbook: refused unless the current skill
    /// offers it; afterwards the run moves along the route the outcome fires.
    pub async fn call(&self, tool: desk::Tool, input: Value) -> Result<Outcome, Refused> {
        let mut run = self.run.lock().await;
        run.call_async(&self.host, tool, input).await.map_err(Refused)
    }

    /// What happened so far.
    pub async fn trail(&self) -> Vec<agentc_runtime::Event<Skill>> {
        self.run.lock().await.trail().to_vec()
    }
}

/// Declares one rig-core [`Tool`] per agentc tool: its name, description and
/// parameters are the compiled tool's (the descriptor's `input_schema`), and
/// a call goes through the session's runbook. The arguments stay JSON so an
/// input that does not fit the schema reaches the runbook as an `invalid`
/// outcome, which routes can fire on, rather than failing in the framework.
macro_rules! rig_tools {
    ($($rig:ident => $tool:ident, $name:literal;)*) => {
        $(
            #[doc = concat!("`", $name, "` as a rig-core tool.")]
            pub struct $rig(pub Arc<Session>);

            impl Tool for $rig {
                const NAME: &'static str = $name;
                type Args = Value;
                type Output = Value;
                type Error = Refused;

                fn description(&self) -> String {
                    desk::Tool::$tool.def().description.unwrap_or_default().to_owned()
                }

                fn parameters(&self) -> Value {
                    let schema = desk::Tool::$tool.def().input_schema.unwrap_or("{}");
                    serde_json::from_str(schema).unwrap_or_default()
                }

                async fn call(&self, _: &mut ToolContext, args: Value) -> Result<Value, Refused> {
                    let outcome = self.0.call(desk::Tool::$tool, args).await?;
                    Ok(serde_json::json!({ "status": outcome.status, "output": outcome.output }))
                }
            }
        )*

        /// The rig-core tool of `tool`, as its definition for the model.
        pub fn definition(tool: desk::Tool, session: &Arc<Session>) -> Option<ToolDefinition> {
            match tool {
                $(desk::Tool::$tool => Some(tool_definition(&$rig(session.clone()))),)*
                _ => None,
            }
        }

        /// Calls `tool`'s rig-core tool.
        pub async fn call_tool(
            tool: desk::Tool,
            session: &Arc<Session>,
            args: Value,
        ) -> Option<Result<Value, Refused>> {
            let mut context = ToolContext::new();
            Some(match tool {
                $(desk::Tool::$tool => $rig(session.clone()).call(&mut context, args).await,)*
                _ => return None,
            })
        }
    };
}

rig_tools! {
    LookupCustomer => LookupCustomer, "lookup_customer";
    LookupOrder => LookupOrder, "lookup_order";
    UpdateTicket => UpdateTicket, "update_ticket";
    SearchKb => SearchKb, "search_kb";
    SendCustomerEmail => SendCustomerEmail, "send_customer_email";
    TransferConversation => TransferConversation, "transfer_conversation";
    PageOncall => PageOncall, "page_oncall";
    RedactPii => RedactPii, "redact_pii";
}

/// Why a conversation stopped early.
#[derive(Debug)]
pub enum Stopped {
    /// The model's provider failed.
    Model(rig_core::error::ProviderError),
    /// The model answered in text where the runbook does not end.
    NotAnEnd(agentc_runtime::Error<Skill>),
    /// The model ran out of turns (`max_turns`).
    Turns,
}

/// The agent loop: `prompt` to `model`, each turn offering the current
/// skill's tools with the agent's instructions and the skill's body as the
/// preamble; tool calls go through the rig tools and the runbook; a text
/// answer ends the conversation where the runbook ends. Returns the answer.
pub async fn converse(
    model: &rig_core::test_utils::MockCompletionModel,
    session: &Arc<Session>,
    prompt: &str,
    max_turns: usize,
) -> Result<String, Stopped> {
    // The conversation so far; its last message is the turn's prompt.
    let mut history = vec![Message::user(prompt)];
    for _ in 0..max_turns {
        let (agent, skill, offered) = {
            let run = session.run.lock().await;
            (run.agent(), run.skill(), run.offered())
        };
        let tools = offered.iter().filter_map(|t| definition(*t, session)).collect();
        let preamble = format!("{}\n\n{}", agent.instructions, skill.def().body);
        let (last, earlier) = match history.split_last() {
            Some((last, earlier)) => (last.clone(), earlier.to_vec()),
            None => return Err(Stopped::Turns),
        };
        let request =
            CompletionRequest::new(last).messages(earlier).preamble(preamble).tools(tools);
        let response = model.call(request).await.map_err(Stopped::Model)?;
        let calls: Vec<_> = response.tool_calls().cloned().collect();
        if calls.is_empty() {
            session.run.lock().await.finish().map_err(Stopped::NotAnEnd)?;
            return Ok(response.text());
        }
        history.extend(response.message());
        // Each call in turn: a call can move the run, and the next one is
        // then judged in the skill it moved to.
        for call in calls {
            let name = call.function.name.clone();
            let args = Value::Object(call.function.arguments.clone());
            let result = match desk::Tool::from_name(name.as_str()) {
                Some(tool) => call_tool(tool, session, args).await,
                None => None,
            };
            let content = match result {
                Some(Ok(output)) => output.to_string(),
                Some(Err(refused)) => {
                    serde_json::json!({ "refused": refused.to_string() }).to_string()
                }
                None => serde_json::json!({ "refused": format!("no tool `{}`", name.as_str()) })
                    .to_string(),
            };
            history.push(Message::tool_result(call.id.clone(), name, content));
        }
    }
    Err(Stopped::Turns)
}
