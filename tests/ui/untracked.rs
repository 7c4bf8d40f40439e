// No build script watches `untracked/`: the first error says what to add.
fn issue_refund(input: agentc::serde_json::Value) -> Result<agentc::serde_json::Value, String> {
    Ok(input)
}

agentc::agents!("untracked/agents", tools = [issue_refund]);

fn main() {
    // The items are generated for everything that resolved: naming them adds no error.
    let _ = (Agent::Billing.def(), Skill::WrapUp.def(), Skill::RefundReview.def(), Tool::LookupOrder.def());
}
