//! The support desk's runbooks, run by `agentc-runtime` against the typed
//! tools in `src/tools.rs`: one test per kind of route, `onSkip` both ways,
//! and what the runbook refuses.

use agentc::runtime::{OnSkip, Outcome, Status};
use agentc::serde_json::{Value, json};
use agentc_runtime::{Action, Error, Event, Move, Planner, Run, drive};
use support_desk::desk::{Agent, Skill, Tool};
use support_desk::tools::Desk;

const DESK: Desk = Desk { refund_limit_cents: 50_000 };

fn run(agent: Agent, at: Skill) -> Run<Skill> {
    Run::starting_at(agent.def(), at).unwrap()
}

fn call(run: &mut Run<Skill>, tool: Tool, input: Value) -> Outcome {
    run.call(&DESK, tool, input).unwrap()
}

fn customer(value: &str) -> Value {
    json!({ "by": "email", "value": value })
}

#[test]
fn a_run_starts_at_the_agents_start() {
    let run = Run::new(Agent::Triage.def()).unwrap();
    assert_eq!(run.skill(), Skill::Intake);
    assert_eq!(run.offered(), [Tool::LookupCustomer, Tool::UpdateTicket]);
    assert_eq!(run.expected().map(|s| s.tool), Some(Tool::LookupCustomer));
}

#[test]
fn on_tool_with_status_fires_on_that_tool_and_status() {
    // intake: `classify-request: on lookup_customer status=success`
    let mut run = run(Agent::Triage, Skill::Intake);
    let outcome = call(&mut run, Tool::LookupCustomer, customer("ada@example.com"));
    assert_eq!(outcome.status, Status::Success);
    assert_eq!(run.skill(), Skill::ClassifyRequest);
    assert_eq!(
        run.trail()[1],
        Event::Moved {
            from: Skill::Intake,
            to: Skill::ClassifyRequest,
            by: Move::Route { tool: Tool::LookupCustomer, status: Status::Success },
        }
    );
}

#[test]
fn status_lists_fire_on_any_of_their_statuses() {
    // intake: `verify-identity: on lookup_customer status=absent,denied`
    for (who, status) in [("nobody", Status::Absent), ("locked-7", Status::Denied)] {
        let mut run = run(Agent::Triage, Skill::Intake);
        assert_eq!(call(&mut run, Tool::LookupCustomer, customer(who)).status, status);
        assert_eq!(run.skill(), Skill::VerifyIdentity, "{status}");
        assert_eq!(run.last(), Some((Tool::LookupCustomer, status)));
    }
}

#[test]
fn on_tool_alone_fires_on_any_status() {
    // classify-request: `answer-from-kb: on search_kb`; the search finds nothing.
    let mut run = run(Agent::Triage, Skill::ClassifyRequest);
    let outcome = call(&mut run, Tool::SearchKb, json!({ "query": "opening hours" }));
    assert_eq!(outcome.status, Status::Absent);
    assert_eq!(run.skill(), Skill::AnswerFromKb);
    // answer-from-kb: `escalate-to-human: on search_kb status=absent`
    call(&mut run, Tool::SearchKb, json!({ "query": "opening hours" }));
    assert_eq!(run.skill(), Skill::EscalateToHuman);
}

#[test]
fn status_alone_fires_after_any_tool_of_the_skill() {
    // verify-identity: `classify-request: status=success`, here after the
    // email (a registry tool, implemented by the function in `tools = [...]`).
    let mut run = run(Agent::Triage, Skill::VerifyIdentity);
    let email = json!({ "customer_id": "cus_1", "body": "Your identity is confirmed." });
    let outcome = call(&mut run, Tool::SendCustomerEmail, email);
    assert_eq!(outcome.output, json!({ "queued": true, "to": "cus_1" }));
    assert_eq!(run.skill(), Skill::ClassifyRequest);
}

#[test]
fn a_registry_tool_gets_its_typed_input_from_the_registry() {
    // The registry gives `send_customer_email` an input schema: an input that
    // does not fit it never reaches the function, and says why.
    let mut run = run(Agent::Triage, Skill::VerifyIdentity);
    let outcome = call(&mut run, Tool::SendCustomerEmail, json!({ "customer_id": "cus_1" }));
    assert_eq!(outcome.status, Status::Invalid);
    let error = outcome.output["error"].as_str().unwrap_or_default();
    assert!(error.contains("missing field `body`"), "{error}");
    assert_eq!(
        Tool::SendCustomerEmail.def().description,
        Some("Send an email to the customer on file.")
    );
}

#[test]
fn partial_routes_fire() {
    // order-status: `billing-handoff: on lookup_order status=partial`
    let mut run = run(Agent::Triage, Skill::OrderStatus);
    call(&mut run, Tool::LookupOrder, json!({ "order_id": "NW-000002" }));
    assert_eq!(run.skill(), Skill::BillingHandoff);
}

#[test]
fn pending_and_failure_routes_fire() {
    // billing-handoff: `escalate-to-human: on transfer_conversation status=failure,pending`
    let mut run = run(Agent::Triage, Skill::BillingHandoff);
    let outcome = call(&mut run, Tool::TransferConversation, json!({ "queue": "overflow" }));
    assert_eq!(outcome.status, Status::Pending);
    assert_eq!(run.skill(), Skill::EscalateToHuman);
    // A host function's error is a failure: `{}` has no queue.
    let mut run = run_at_handoff();
    assert_eq!(call(&mut run, Tool::TransferConversation, json!({})).status, Status::Failure);
    assert_eq!(run.skill(), Skill::EscalateToHuman);
    // and `wrap-up: on transfer_conversation status=success`
    let mut run = run_at_handoff();
    call(&mut run, Tool::TransferConversation, json!({ "queue": "billing" }));
    assert_eq!(run.skill(), Skill::WrapUp);
}

fn run_at_handoff() -> Run<Skill> {
    run(Agent::Triage, Skill::BillingHandoff)
}

#[test]
fn denied_routes_fire_on_a_private_tool() {
    // billing's refund-review: `escalate-to-human: on issue_refund status=denied`,
    // `tone-check: on issue_refund status=success`; issue_refund is billing's own tool.
    let refund =
        |cents: u64| json!({ "order_id": "NW-123456", "amount_cents": cents, "reason": "damaged" });
    let mut over = run(Agent::Billing, Skill::BillingRefundReview);
    assert_eq!(call(&mut over, Tool::BillingIssueRefund, refund(90_000)).status, Status::Denied);
    assert_eq!(over.skill(), Skill::EscalateToHuman);
    let mut within = run(Agent::Billing, Skill::BillingRefundReview);
    assert_eq!(call(&mut within, Tool::BillingIssueRefund, refund(1_200)).status, Status::Success);
    assert_eq!(within.skill(), Skill::ToneCheck);
}

#[test]
fn input_that_does_not_fit_the_schema_is_invalid_and_routes() {
    // The order id breaks the schema's pattern: the tool is not called, the
    // outcome is `invalid`, and refund-review's `charge-lookup: status=invalid` fires.
    let mut run = run(Agent::Billing, Skill::BillingRefundReview);
    let bad = json!({ "order_id": "12", "amount_cents": 100, "reason": "damaged" });
    let outcome = call(&mut run, Tool::BillingIssueRefund, bad);
    assert_eq!(outcome.status, Status::Invalid);
    let error = outcome.output["error"].as_str().unwrap();
    assert!(error.contains("agent__billing__issue_refund"), "{error}");
    assert_eq!(run.skill(), Skill::BillingChargeLookup);
}

#[test]
fn unguarded_routes_are_taken_by_choice_only() {
    // classify-request: `- billing-handoff`, the one route without a guard.
    let mut run = run(Agent::Triage, Skill::ClassifyRequest);
    assert_eq!(run.choices(), [Skill::BillingHandoff]);
    assert_eq!(
        run.take(Skill::OrderStatus),
        Err(Error::NoRoute { from: Skill::ClassifyRequest, to: Skill::OrderStatus })
    );
    run.take(Skill::BillingHandoff).unwrap();
    assert_eq!(run.skill(), Skill::BillingHandoff);
    assert!(matches!(run.trail().last(), Some(Event::Moved { by: Move::Choice, .. })));
}

#[test]
fn without_a_firing_guard_the_run_stays_and_the_step_advances() {
    // classify-request: no route fires on an absent order; the step is done.
    let mut run = run(Agent::Triage, Skill::ClassifyRequest);
    assert_eq!(run.expected().map(|s| s.tool), Some(Tool::LookupOrder));
    call(&mut run, Tool::LookupOrder, json!({ "order_id": "NW-000404" }));
    assert_eq!(run.skill(), Skill::ClassifyRequest);
    assert_eq!(run.expected().map(|s| s.tool), Some(Tool::SearchKb));
}

#[test]
fn on_skip_advance_moves_on_and_hold_keeps_the_step() {
    let mut advance = run(Agent::Triage, Skill::ClassifyRequest); // onSkip: advance
    assert_eq!(advance.skip(), Ok(OnSkip::Advance));
    assert_eq!(advance.expected().map(|s| s.tool), Some(Tool::SearchKb));
    let mut hold = run(Agent::Triage, Skill::Intake); // onSkip: hold
    assert_eq!(hold.skip(), Ok(OnSkip::Hold));
    assert_eq!(hold.expected().map(|s| s.tool), Some(Tool::LookupCustomer));
    assert_eq!(
        hold.trail(),
        [Event::Skipped { skill: Skill::Intake, step: 0, on_skip: OnSkip::Hold }]
    );
    // A skill whose steps are all done has nothing to skip.
    let mut done = run(Agent::Triage, Skill::AnswerFromKb);
    done.skip().unwrap();
    assert_eq!(done.skip(), Err(Error::NoStep { skill: Skill::AnswerFromKb }));
}

#[test]
fn tools_the_skill_does_not_offer_are_refused() {
    let mut triage = run(Agent::Triage, Skill::Intake);
    let refused = triage.call(&DESK, Tool::BillingIssueRefund, json!({}));
    assert_eq!(
        refused,
        Err(Error::NotOffered { skill: Skill::Intake, tool: Tool::BillingIssueRefund })
    );
    assert!(triage.trail().is_empty());
    // refund-review lists apply_account_credit, and billing allows it.
    let billing = run(Agent::Billing, Skill::BillingRefundReview);
    assert!(billing.offered().contains(&Tool::ApplyAccountCredit));
    assert_eq!(
        Run::starting_at(Agent::Triage.def(), Skill::BillingRefundReview).err(),
        Some(Error::NotActivated { skill: Skill::BillingRefundReview })
    );
}

#[test]
fn max_iterations_caps_the_calls() {
    // escalations: `max_iterations: 12`; a found customer routes nowhere in case-summary.
    let mut run = run(Agent::Escalations, Skill::CaseSummary);
    for _ in 0..12 {
        call(&mut run, Tool::LookupCustomer, customer("ada@example.com"));
    }
    assert_eq!(
        run.call(&DESK, Tool::LookupCustomer, customer("ada@example.com")),
        Err(Error::Exhausted { max: 12 })
    );
}

#[test]
fn a_run_finishes_only_where_the_runbook_ends() {
    let mut intake = run(Agent::Triage, Skill::Intake);
    assert_eq!(intake.finish(), Err(Error::NotAnEnd { skill: Skill::Intake }));
    let mut wrap = run(Agent::Triage, Skill::WrapUp);
    wrap.finish().unwrap();
    assert!(wrap.is_finished());
    assert_eq!(
        wrap.call(&DESK, Tool::UpdateTicket, json!({ "ticket_id": "T-1" })),
        Err(Error::Finished)
    );
}

/// A scripted model: it answers each skill with the call its runbook asks for.
struct Script;

impl Planner<Skill> for Script {
    fn next(&mut self, run: &Run<Skill>, _last: Option<&Outcome>) -> Action<Skill> {
        let call = |tool, input| Action::Call { tool, input };
        match run.skill() {
            Skill::Intake => call(Tool::LookupCustomer, customer("ada@example.com")),
            Skill::ClassifyRequest => call(Tool::LookupOrder, json!({ "order_id": "NW-000001" })),
            Skill::OrderStatus => call(Tool::LookupOrder, json!({ "order_id": "NW-000001" })),
            Skill::ToneCheck => call(Tool::RedactPii, json!({ "text": "Card 4111 is fine." })),
            Skill::WrapUp => match run.expected() {
                Some(step) if step.tool == Tool::SendCustomerEmail => {
                    call(Tool::SendCustomerEmail, json!({ "customer_id": "cus_1" }))
                }
                Some(_) => {
                    call(Tool::UpdateTicket, json!({ "ticket_id": "T-1", "status": "solved" }))
                }
                None => Action::Finish,
            },
            other => panic!("the script has no answer in {other}"),
        }
    }
}

#[test]
fn a_whole_ticket_is_driven_from_start_to_end() {
    let mut run = Run::new(Agent::Triage.def()).unwrap();
    drive(&mut run, &DESK, &mut Script).unwrap();
    let path: Vec<Skill> = (run.trail().iter())
        .filter_map(|e| match e {
            Event::Moved { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(path, [Skill::ClassifyRequest, Skill::OrderStatus, Skill::ToneCheck, Skill::WrapUp]);
    assert_eq!(run.trail().last(), Some(&Event::Finished { skill: Skill::WrapUp }));
}
