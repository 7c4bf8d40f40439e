fn issue_refund(input: agentc::serde_json::Value) -> Result<agentc::serde_json::Value, String> {
    Ok(input)
}

agentc::agents!("yaml-syntax/agents", tools = [issue_refund]);

fn main() {}
