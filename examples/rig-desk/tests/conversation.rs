//! The triage runbook driven by rig-core's scripted model through rig-core
//! tools: no network.

use agentc::runtime::Status;
use agentc::serde_json::json;
use agentc_runtime::{Event, Move};
use futures::executor::block_on;
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use rig_desk::desk::{Agent, Skill, Tool};
use rig_desk::{Session, Stopped, converse, host::Desk};

fn moves(trail: &[Event<Skill>]) -> Vec<(Skill, Skill)> {
    (trail.iter())
        .filter_map(|e| match e {
            Event::Moved { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_ticket_goes_from_intake_to_wrap_up() {
    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call(
            "c1",
            "lookup_customer",
            json!({ "by": "email", "value": "ada@example.com" }),
        ),
        MockTurn::tool_call("c2", "lookup_order", json!({ "order_id": "NW-000001" })),
        MockTurn::tool_call("c3", "lookup_order", json!({ "order_id": "NW-000001" })),
        MockTurn::tool_call("c4", "redact_pii", json!({ "text": "It ships tomorrow." })),
        MockTurn::tool_call(
            "c5",
            "send_customer_email",
            json!({ "customer_id": "cus_1", "body": "Verified." }),
        ),
        MockTurn::tool_call(
            "c6",
            "update_ticket",
            json!({ "ticket_id": "T-1", "status": "solved" }),
        ),
        MockTurn::text("Your order ships tomorrow."),
    ]);
    let session = Session::new(Agent::Triage, Desk).unwrap();
    let answer = block_on(converse(&model, &session, "Where is NW-000001?", 10)).unwrap();
    assert_eq!(answer, "Your order ships tomorrow.");
    let trail = block_on(session.trail());
    assert_eq!(
        moves(&trail),
        [
            (Skill::Intake, Skill::ClassifyRequest),
            (Skill::ClassifyRequest, Skill::OrderStatus),
            (Skill::OrderStatus, Skill::ToneCheck),
            (Skill::ToneCheck, Skill::WrapUp),
        ]
    );
    assert_eq!(trail.last(), Some(&Event::Finished { skill: Skill::WrapUp }));

    // Each turn offered the current skill's tools, as the descriptors describe them.
    let requests = model.requests();
    let offered = |i: usize| -> Vec<String> {
        requests[i].tools.iter().map(|t| t.name.as_str().to_owned()).collect()
    };
    assert_eq!(offered(0), ["lookup_customer", "update_ticket"]);
    assert_eq!(offered(3), ["redact_pii"]);
    let lookup = &requests[0].tools[0];
    assert_eq!(Some(lookup.description.as_str()), Tool::LookupCustomer.def().description);
    assert_eq!(lookup.parameters["required"], json!(["by", "value"]));
    // The preamble is the agent's instructions and the skill's body.
    assert!(format!("{:?}", requests[0]).contains("# Intake"));
}

#[test]
fn an_outcome_routes_and_a_refused_call_does_not() {
    let model = MockCompletionModel::from_turns([
        // Not a tool of intake: refused, the model is told, the run stays.
        MockTurn::tool_call("c1", "search_kb", json!({ "query": "warranty" })),
        // Nobody by that address: `verify-identity: on lookup_customer status=absent,denied`.
        MockTurn::tool_call(
            "c2",
            "lookup_customer",
            json!({ "by": "email", "value": "who@elsewhere.org" }),
        ),
        // Input the schema refuses (`by` is an enum): `invalid`, which no route of
        // verify-identity names; the run stays.
        MockTurn::tool_call("c3", "lookup_customer", json!({ "by": "fax", "value": "0123" })),
        MockTurn::text("Could you send the code we emailed?"),
    ]);
    let session = Session::new(Agent::Triage, Desk).unwrap();
    let stopped = block_on(converse(&model, &session, "Hi", 10));
    // verify-identity has routes onward: a text answer there is not an end.
    assert!(matches!(stopped, Err(Stopped::NotAnEnd(_))), "{stopped:?}");
    let trail = block_on(session.trail());
    assert_eq!(
        trail[1],
        Event::Moved {
            from: Skill::Intake,
            to: Skill::VerifyIdentity,
            by: Move::Route { tool: Tool::LookupCustomer, status: Status::Absent },
        }
    );
    assert_eq!(
        trail[2],
        Event::Called {
            skill: Skill::VerifyIdentity,
            tool: Tool::LookupCustomer,
            status: Status::Invalid
        }
    );
    let requests = model.requests();
    let second = format!("{:?}", requests[1]);
    assert!(second.contains("does not offer the tool"), "{second}");
}
