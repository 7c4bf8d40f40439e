// A Claude Code subagent's tool that Claude Code does not have is a compile error.
agentc::agents!("wild-unknown-tool/project");

fn main() {
    // The items are generated for everything that resolved: naming them adds no error.
    let _ = (Agent::ALL, Skill::ALL, Tool::ALL);
}
