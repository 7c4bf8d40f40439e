fn issue_refund(input: agentc::serde_json::Value) -> Result<agentc::serde_json::Value, String> {
    Ok(input)
}

mod desk {
    // One mistake in the directory: the only error must be agentc's, not one per use below.
    agentc::agents!("no-cascade/agents", tools = [super::issue_refund]);
}

fn main() {
    let _ = desk::Agent::Billing.def();
    let _ = desk::Skill::WrapUp.def().routes;
    let _ = desk::Tool::IssueRefund.host();
}
