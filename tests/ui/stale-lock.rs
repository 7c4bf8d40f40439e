fn issue_refund(input: agentc::serde_json::Value) -> Result<agentc::serde_json::Value, String> {
    Ok(input)
}

// wrap-up/SKILL.md was edited after agentc.lock was written.
agentc::agents!(
    "stale-lock/agents",
    registry = "stale-lock/registry.yaml",
    tools = [issue_refund],
    lock = "stale-lock/agentc.lock",
);

fn main() {
    // The items are generated for everything that resolved: naming them adds no error.
    let _ = (Agent::Billing.def(), Skill::RefundReview.def(), Tool::IssueRefund.host(), LOCK_DIGEST);
}
