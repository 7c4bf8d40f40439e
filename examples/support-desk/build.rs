//! The build.rs door: generates `$OUT_DIR/agents.rs`, included by `src/built.rs`.

fn main() {
    // The paths come from agentc.toml, as `agentc check` reads them.
    agentc::build::Config::from_project()
        .tool("send_customer_email", "crate::tools::send_customer_email")
        .tool("fetch_invoice", "crate::tools::fetch_invoice")
        .tool("transfer_conversation", "crate::tools::transfer_conversation")
        .compile()
        .expect("the support desk's agents directory has errors");
}
