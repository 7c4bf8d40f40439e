fn issue_refund(input: agentc::serde_json::Value) -> Result<agentc::serde_json::Value, String> {
    Ok(input)
}

agentc::agents!("unknown-route-target/agents", tools = [issue_refund]);

fn main() {}
