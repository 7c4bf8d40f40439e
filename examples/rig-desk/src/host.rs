//! The desk's tools: the three the registry declares as plain functions
//! (named in `tools = [...]`, they are the trait's defaults), and every other
//! tool as an async method of the generated `Tools` trait, typed by its input.

use agentc::runtime::Outcome;
use agentc::serde_json::{Value, json};

use crate::desk::{Tools, input};

pub fn send_customer_email(input: Value) -> Result<Value, String> {
    let to = input["customer_id"].as_str().ok_or("`customer_id` is required")?;
    Ok(json!({ "queued": true, "to": to }))
}

pub fn fetch_invoice(input: Value) -> Result<Value, String> {
    let number = input["invoice_id"].as_str().ok_or("`invoice_id` is required")?;
    Ok(json!({ "invoice_id": number, "status": "paid" }))
}

pub fn transfer_conversation(input: Value) -> Result<Value, String> {
    let queue = input["queue"].as_str().ok_or("`queue` is required")?;
    Ok(json!({ "transferred_to": queue }))
}

/// Canned answers, keyed on the input.
pub struct Desk;

impl Tools for Desk {
    async fn billing_issue_refund(&self, input: input::BillingIssueRefundInput) -> Outcome {
        match input.amount_cents.get() {
            cents if cents > 50_000 => Outcome::denied(json!({ "reason": "over the limit" })),
            cents => Outcome::success(json!({ "refunded_cents": cents })),
        }
    }

    async fn apply_account_credit(&self, input: input::ApplyAccountCreditInput) -> Outcome {
        Outcome::success(json!({ "credited_cents": input.amount_cents.get() }))
    }

    async fn lookup_customer(&self, input: input::LookupCustomerInput) -> Outcome {
        if input.value.ends_with("@example.com") {
            Outcome::success(json!({ "customer_id": "cus_1", "verified": true }))
        } else {
            Outcome::absent(json!({ "matches": 0 }))
        }
    }

    async fn lookup_order(&self, input: input::LookupOrderInput) -> Outcome {
        match input.order_id.as_str() {
            "NW-000001" => Outcome::success(json!({ "state": "shipped", "eta": "tomorrow" })),
            "NW-000002" => Outcome::partial(json!({ "state": "partly shipped" })),
            _ => Outcome::absent(json!({ "state": "no such order" })),
        }
    }

    async fn page_oncall(&self, input: input::PageOncallInput) -> Outcome {
        Outcome::success(json!({ "paged": input.severity.to_string() }))
    }

    async fn redact_pii(&self, input: input::RedactPiiInput) -> Outcome {
        Outcome::success(json!({ "text": input.text.replace("4111", "****") }))
    }

    async fn search_kb(&self, input: input::SearchKbInput) -> Outcome {
        Outcome::absent(json!({ "query": *input.query, "articles": [] }))
    }

    async fn update_ticket(&self, input: input::UpdateTicketInput) -> Outcome {
        Outcome::success(json!({ "ticket_id": input.ticket_id }))
    }
}
