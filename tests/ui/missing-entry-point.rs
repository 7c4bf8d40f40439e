agentc::agents!("missing-entry-point/agents");

fn main() {}
