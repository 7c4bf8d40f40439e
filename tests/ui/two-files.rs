fn issue_refund(input: agentc::serde_json::Value) -> Result<agentc::serde_json::Value, String> {
    Ok(input)
}

// A mistake in each of two files: two rustc errors, each its own; the stray
// file beside them: a rustc warning.
agentc::agents!("two-files/agents", tools = [issue_refund]);

fn main() {}
