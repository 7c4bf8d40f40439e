//! The host's implementations of the tools the registry declares.
//!
//! Each is a plain function from the tool's JSON input to its JSON output;
//! naming it in `tools = [...]` (or `.tool(...)`) makes `Tool::host()` return it.

use agentc::serde_json::{Value, json};

/// Sends an email to the customer on file.
pub fn send_customer_email(input: Value) -> Result<Value, String> {
    let to = input["customer_id"].as_str().ok_or("`customer_id` is required")?;
    Ok(json!({ "queued": true, "to": to }))
}

/// Fetches an invoice by number.
pub fn fetch_invoice(input: Value) -> Result<Value, String> {
    let number = input["invoice_id"].as_str().ok_or("`invoice_id` is required")?;
    Ok(json!({ "invoice_id": number, "status": "paid" }))
}

/// Hands the conversation to another queue.
pub fn transfer_conversation(input: Value) -> Result<Value, String> {
    let queue = input["queue"].as_str().ok_or("`queue` is required")?;
    Ok(json!({ "transferred_to": queue }))
}
