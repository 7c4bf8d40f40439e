//! Using the generated items: look up agents, walk the runbook graph, match on tools.

use agentc::runtime::{AgentStyle, Status};
use desk::{Agent, Skill, Tool};
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
