// The agents need `issue_refund`; the crate declares it but never implements it.
agentc::agents!("host-tool-unimplemented/agents", tools = [crate::tools::issue_refund]);

mod tools {}

fn main() {}
