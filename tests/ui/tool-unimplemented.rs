// The impl leaves out the agent's private tool: rustc names it.
mod desk {
    agentc::agents!("typed-tools/agents");
}

use agentc::runtime::Outcome;

struct Host;

impl desk::Tools for Host {
    fn lookup_order(&self, _: desk::input::LookupOrderInput) -> Outcome {
        Outcome::success(agentc::serde_json::json!({}))
    }
}

fn main() {}
