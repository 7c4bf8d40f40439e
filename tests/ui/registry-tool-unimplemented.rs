// The registry says the host implements `issue_refund`, but the crate never
// names the function that does: `Tool::IssueRefund.host()` would have nothing.
agentc::agents!(
    "registry-tool-unimplemented/agents",
    registry = "registry-tool-unimplemented/registry.yaml",
);

fn main() {
    // The items are generated for everything that resolved: naming them adds no error.
    let _ = (Agent::Billing.def(), Skill::RefundReview.def(), Tool::IssueRefund.host());
}
