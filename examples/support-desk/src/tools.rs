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

/// The desk's implementation of every tool, typed by the generated
/// [`crate::desk::Tools`] trait: each method takes the input type generated
/// from the tool's `input_schema`, and returns an [`Outcome`] whose status the
/// runbook's routes fire on. The answers are canned, keyed on the input, so
/// the tests can walk each route.
pub struct Desk {
    /// The largest refund the refund tool grants, in cents.
    pub refund_limit_cents: u64,
}

use crate::desk::input;
use agentc::runtime::Outcome;

impl crate::desk::Tools for Desk {
    fn billing_issue_refund(&self, input: input::BillingIssueRefundInput) -> Outcome {
        let amount = input.amount_cents.get();
        if amount > self.refund_limit_cents {
            return Outcome::denied(json!({ "reason": "over the refund limit" }));
        }
        Outcome::success(json!({ "refunded_cents": amount, "order_id": *input.order_id }))
    }

    fn apply_account_credit(&self, input: input::ApplyAccountCreditInput) -> Outcome {
        Outcome::success(json!({ "credited_cents": input.amount_cents.get() }))
    }

    fn lookup_customer(&self, input: input::LookupCustomerInput) -> Outcome {
        match input.value.as_str() {
            v if v.starts_with("locked") => Outcome::denied(json!({ "reason": "record locked" })),
            v if v.ends_with("@example.com") => {
                Outcome::success(json!({ "customer_id": "cus_1", "verified": true }))
            }
            _ => Outcome::absent(json!({ "matches": 0 })),
        }
    }

    fn lookup_order(&self, input: input::LookupOrderInput) -> Outcome {
        match input.order_id.as_str() {
            "NW-000001" => Outcome::success(json!({ "state": "shipped" })),
            "NW-000002" => Outcome::partial(json!({ "state": "partly shipped" })),
            "NW-000500" => Outcome::failure(json!({ "error": "orders service unavailable" })),
            _ => Outcome::absent(json!({ "state": "no such order" })),
        }
    }

    fn page_oncall(&self, input: input::PageOncallInput) -> Outcome {
        Outcome::success(json!({ "paged": input.severity.to_string() }))
    }

    fn redact_pii(&self, input: input::RedactPiiInput) -> Outcome {
        Outcome::success(json!({ "text": input.text.replace("4111", "****") }))
    }

    fn search_kb(&self, input: input::SearchKbInput) -> Outcome {
        if input.query.contains("warranty") {
            Outcome::success(json!({ "article": "kb/warranty" }))
        } else {
            Outcome::absent(json!({ "articles": [] }))
        }
    }

    fn update_ticket(&self, input: input::UpdateTicketInput) -> Outcome {
        Outcome::success(json!({ "ticket_id": input.ticket_id }))
    }

    /// Overrides the default (the host function named in `tools = [...]`):
    /// the overflow queue accepts a transfer for later.
    fn transfer_conversation(&self, input: Value) -> Outcome {
        if input["queue"] == "overflow" {
            return Outcome::pending(json!({ "queued": "overflow" }));
        }
        Outcome::from_result(transfer_conversation(input))
    }
}
