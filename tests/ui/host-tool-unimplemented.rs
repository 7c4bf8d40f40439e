// The agents need `issue_refund`; the crate declares it but never implements it.
agentc::agents!("host-tool-unimplemented/agents", tools = [crate::tools::issue_refund]);

mod tools {}

fn main() {
    // The items are generated for everything that resolved: naming them adds no error.
    let _ = (Agent::Billing.def(), Skill::WrapUp.def(), Tool::LookupOrder.def());
}
