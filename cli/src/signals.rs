//! On SIGINT or SIGTERM, the temporary files being written are removed
//! before the process exits 130 or 143 (128 + the signal, as a shell reports
//! a run it stopped).

/// Installs the handler, once: it runs on a thread of its own, so the
/// cleanup ([`agentc_compiler::write::remove_temporaries_and_exit`]) need not
/// be async-signal-safe. Where signals cannot be watched, a killed run's
/// temporary file is left for the next write to the same folder to sweep.
#[cfg(unix)]
pub fn remove_temporaries_on_signals() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                agentc_compiler::write::remove_temporaries_and_exit(128 + signal);
            }
        });
    });
}
