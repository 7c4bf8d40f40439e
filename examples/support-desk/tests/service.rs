//! The README's service snippet, run as it is written there: cargo runs a
//! package's tests in the package's folder, where `agentc.lock` is.

use agentc::Lockfile;

#[test]
fn a_service_loads_the_lockfile_without_validating_again() -> Result<(), Box<dyn std::error::Error>>
{
    // README: begin
    let lock = Lockfile::load("agentc.lock")?; // refuses an unknown lockfile_version
    let changed = lock.verify("agents", Some(".".as_ref())); // files edited since the lock
    assert!(changed.is_empty(), "agents/ changed since agentc.lock was written: {changed:?}");
    let triage = lock.agents.iter().find(|a| a.id == "triage").unwrap();
    println!("{} runs {:?} with {} tools", triage.id, triage.model, triage.tools.len());
    // README: end
    Ok(())
}
