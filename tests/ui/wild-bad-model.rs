// A Claude Code subagent whose model the API does not know fails when it runs: a compile error.
agentc::agents!("wild-bad-model/project");

fn main() {
    // The items are generated for everything that resolved: naming them adds no error.
    let _ = (Agent::ALL, Skill::ALL, Tool::ALL);
}
