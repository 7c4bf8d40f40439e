agentc::agents!("missing-entry-point/agents");

fn main() {
    // The items are generated for everything that resolved: naming them adds no error.
    let _ = (Agent::Escalations.def(), Agent::ALL, Skill::ALL, Tool::ALL);
}
