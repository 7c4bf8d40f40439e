// Every tool is a method of the generated `Tools` trait, the agent's private
// `issue_refund` included, each taking the input type generated from its schema.
mod desk {
    agentc::agents!("typed-tools/agents");
}

use agentc::runtime::{Dispatch, Outcome, Status};
use agentc::serde_json::json;

struct Host;

impl desk::Tools for Host {
    fn lookup_order(&self, input: desk::input::LookupOrderInput) -> Outcome {
        Outcome::success(json!({ "order_id": input.order_id }))
    }

    fn billing_issue_refund(&self, input: desk::input::BillingIssueRefundInput) -> Outcome {
        Outcome::denied(json!({ "asked": input.amount_cents.get() }))
    }
}

mod asynchronous {
    agentc::agents!("typed-tools/agents", async_tools = true);
}

struct AsyncHost;

impl asynchronous::Tools for AsyncHost {
    async fn lookup_order(&self, input: asynchronous::input::LookupOrderInput) -> Outcome {
        Outcome::success(json!({ "order_id": input.order_id }))
    }

    async fn billing_issue_refund(&self, _: asynchronous::input::BillingIssueRefundInput) -> Outcome {
        Outcome::pending(json!({}))
    }
}

fn main() {
    let found = desk::Tool::LookupOrder.dispatch(&Host, json!({ "order_id": "NW-1" }));
    assert_eq!((found.status, found.output), (Status::Success, json!({ "order_id": "NW-1" })));
    let refund = desk::Tool::BillingIssueRefund.dispatch(&Host, json!({ "order_id": "NW-1", "amount_cents": 5 }));
    assert_eq!(refund.status, Status::Denied);
    // An input that does not fit the schema never reaches the method.
    let bad = desk::Tool::BillingIssueRefund.dispatch(&Host, json!({ "order_id": "NW-1", "amount_cents": 0 }));
    assert_eq!(bad.status, Status::Invalid);
    // The async trait's futures are `Send`.
    fn send<F: Send>(_: F) {}
    send(agentc::runtime::AsyncDispatch::dispatch(asynchronous::Tool::LookupOrder, &AsyncHost, json!({})));
}
