fn issue_refund(input: agentc::serde_json::Value) -> Result<agentc::serde_json::Value, String> {
    Ok(input)
}

mod desk {
    agentc::agents!("pass/agents", tools = [super::issue_refund]);
}

fn main() {
    let billing = desk::Agent::Billing.def();
    assert_eq!(billing.start, Some(desk::Skill::RefundReview));
    let next = desk::Skill::RefundReview.def().next(desk::Tool::IssueRefund, agentc::runtime::Status::Success);
    assert_eq!(next, Some(desk::Skill::WrapUp));
    assert!(desk::Tool::IssueRefund.host().is_some());
}
