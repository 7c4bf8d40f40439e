//! Using the generated items: look up agents, walk the runbook graph, match on tools.

use agentc::runtime::{AgentStyle, Status};
use desk::{Agent, Context, Model, Skill, Tool};
use support_desk::{built, desk};

#[test]
fn agents_are_typed_and_named() {
    assert_eq!(Agent::ALL, &[Agent::Billing, Agent::Escalations, Agent::Triage]);
    let triage: Agent = "triage".parse().unwrap();
    assert_eq!(triage, Agent::Triage);
    assert!("nobody".parse::<Agent>().is_err());
    let def = triage.def();
    assert_eq!(def.model, Some("anthropic/claude-haiku-4-5"));
    assert_eq!(def.style, AgentStyle::Bundle);
    assert_eq!(def.start, Some(Skill::Intake));
    assert!(def.activates(Skill::ClassifyRequest));
    assert!(def.allows(Tool::LookupOrder));
    assert!(std::ptr::eq(def, &desk::TRIAGE));
}

#[test]
fn the_package_agent_keeps_its_manifest() {
    let escalations = Agent::Escalations.def();
    assert_eq!(escalations.style, AgentStyle::Package);
    assert_eq!(escalations.version, Some("1.2.0"));
    assert!(escalations.disallowed_tools.contains(&Tool::ApplyAccountCredit));
    assert!(!escalations.allows(Tool::ApplyAccountCredit));
    let headings: Vec<_> = escalations.prompt_layers.iter().filter_map(|l| l.heading).collect();
    assert_eq!(&headings[..3], ["system.md", "boundaries.md", "conventions.md"]);
    assert!(escalations.instructions.starts_with("## system.md"));
}

#[test]
fn private_skills_and_tools_belong_to_their_agent() {
    let billing = Agent::Billing.def();
    assert!(billing.activates(Skill::BillingRefundReview));
    assert!(billing.allows(Tool::BillingIssueRefund));
    assert_eq!(Skill::BillingRefundReview.name(), "agent__billing__refund-review");
    assert_eq!(Skill::BillingRefundReview.def().agent, Some("billing"));
}

#[test]
fn models_context_providers_and_owners_are_typed() {
    // The registry closes both sets: its models and context providers are enums.
    assert_eq!(
        Model::ALL,
        &[Model::AnthropicClaudeHaiku45, Model::AnthropicClaudeSonnet45, Model::OpenaiGpt5Mini]
    );
    assert_eq!(Agent::Triage.model(), Some(Model::AnthropicClaudeHaiku45));
    assert_eq!(Model::AnthropicClaudeHaiku45.name(), "anthropic/claude-haiku-4-5");
    assert_eq!("openai/gpt-5-mini".parse::<Model>(), Ok(Model::OpenaiGpt5Mini));
    assert_eq!(
        Agent::Billing.context(),
        &[Context::CustomerProfile, Context::OrderHistory, Context::TicketThread]
    );
    assert_eq!(Agent::Escalations.context(), &[]);
    let unknown = "ticket-threads".parse::<Context>().unwrap_err();
    assert_eq!(unknown.to_string(), "`ticket-threads` is not a known context provider");
    // A private skill's owner is an `Agent`, a shared skill has none.
    assert_eq!(Skill::BillingRefundReview.agent(), Some(Agent::Billing));
    assert_eq!(Skill::Intake.agent(), None);
}

#[test]
fn names_take_plain_names_where_they_are_unique() {
    assert_eq!(Skill::from_name("agent__billing__refund-review"), Some(Skill::BillingRefundReview));
    assert_eq!(Skill::from_name("refund-review"), Some(Skill::BillingRefundReview));
    assert_eq!("issue_refund".parse::<Tool>(), Ok(Tool::BillingIssueRefund));
    assert_eq!(Skill::from_name("refund"), None);
}

#[test]
fn names_are_serde_values() {
    use agentc::serde_json::{self, json};
    let request = json!({ "agent": "triage", "skill": "intake", "model": "openai/gpt-5-mini" });
    let (agent, skill, model): (Agent, Skill, Model) = (
        serde_json::from_value(request["agent"].clone()).unwrap(),
        serde_json::from_value(request["skill"].clone()).unwrap(),
        serde_json::from_value(request["model"].clone()).unwrap(),
    );
    assert_eq!((agent, skill, model), (Agent::Triage, Skill::Intake, Model::OpenaiGpt5Mini));
    assert_eq!(serde_json::to_value(Tool::LookupOrder).unwrap(), json!("lookup_order"));
    let wrong = serde_json::from_value::<Agent>(json!("helpdsk")).unwrap_err();
    assert_eq!(wrong.to_string(), "`helpdsk` is not a known agent");
}

#[test]
fn the_runbook_graph_can_be_walked() {
    // From the triage agent's start, follow every route and collect what is reached.
    let triage = Agent::Triage.def();
    let mut reached = vec![triage.start.unwrap()];
    let mut i = 0;
    while i < reached.len() {
        for route in reached[i].def().routes {
            if triage.activates(route.target) && !reached.contains(&route.target) {
                reached.push(route.target);
            }
        }
        i += 1;
    }
    for skill in triage.skills {
        assert!(reached.contains(skill), "{skill} is not reachable");
    }
    // A guarded route fires on the tool and status it names.
    let refund = Skill::BillingRefundReview.def();
    assert_eq!(refund.next(Tool::BillingIssueRefund, Status::Denied), Some(Skill::EscalateToHuman));
    assert_eq!(refund.next(Tool::BillingIssueRefund, Status::Success), Some(Skill::ToneCheck));
}

#[test]
fn tools_dispatch_to_the_host() {
    let describe = |tool: Tool| match tool {
        Tool::SendCustomerEmail | Tool::FetchInvoice | Tool::TransferConversation => "host",
        Tool::BillingIssueRefund => "private",
        _ => "descriptor",
    };
    assert_eq!(describe(Tool::FetchInvoice), "host");
    let output = Tool::FetchInvoice
        .host()
        .unwrap()
        .call(agentc::serde_json::json!({"invoice_id": "INV-7"}))
        .unwrap();
    assert_eq!(output["status"], "paid");
    assert!(Tool::LookupOrder.host().is_none());
    assert!(Tool::LookupOrder.def().input_schema.unwrap().contains("\"order_id\""));
}

#[test]
fn both_doors_agree() {
    assert_eq!(desk::LOCK_DIGEST, built::LOCK_DIGEST);
    let names = |all: &[desk::Skill]| all.iter().map(|s| s.name()).collect::<Vec<_>>();
    let built_names: Vec<_> = built::Skill::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(names(desk::Skill::ALL), built_names);
    assert_eq!(desk::TRIAGE.instructions, built::TRIAGE.instructions);
}

#[test]
fn the_digest_is_the_lockfile_root_digest() {
    let lock = agentc::Lockfile::load(concat!(env!("CARGO_MANIFEST_DIR"), "/agentc.lock")).unwrap();
    assert_eq!(desk::LOCK_DIGEST, lock.root_digest);
}
