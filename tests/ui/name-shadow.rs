fn issue_refund(input: agentc::serde_json::Value) -> Result<agentc::serde_json::Value, String> {
    Ok(input)
}

agentc::agents!("name-shadow/agents", workspace = "name-shadow/workspace", tools = [issue_refund]);

fn main() {}
