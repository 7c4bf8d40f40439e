// `issue_refund` has no descriptor, so only the host can provide it: leaving it
// out of `tools = [...]` leaves the skill asking for a tool nobody registered.
agentc::agents!("host-tool-undeclared/agents", tools = []);

fn main() {
    // The items are generated for everything that resolved: naming them adds no error.
    let _ = (Agent::Billing.def(), Skill::WrapUp.def(), Tool::LookupOrder.def());
}
