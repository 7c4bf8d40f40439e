// A Claude Code subagent's tool that Claude Code does not have is a compile error.
agentc::agents!("wild-unknown-tool/project");

fn main() {}
