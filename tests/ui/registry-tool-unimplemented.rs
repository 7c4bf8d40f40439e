// The registry says the host implements `issue_refund`, but the crate never
// names the function that does: `Tool::IssueRefund.host()` would have nothing.
agentc::agents!(
    "registry-tool-unimplemented/agents",
    registry = "registry-tool-unimplemented/registry.yaml",
);

fn main() {}
