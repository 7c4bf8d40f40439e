// A method taking another input than the tool's generated input type.
mod desk {
    agentc::agents!("typed-tools/agents");
}

use agentc::runtime::Outcome;

struct Host;

impl desk::Tools for Host {
    fn lookup_order(&self, order_id: String) -> Outcome {
        Outcome::success(agentc::serde_json::json!({ "order_id": order_id }))
    }

    fn billing_issue_refund(&self, _: desk::input::BillingIssueRefundInput) -> Outcome {
        Outcome::denied(agentc::serde_json::json!({}))
    }
}

fn main() {}
