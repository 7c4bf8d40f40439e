//! A real editor nobody here wrote: Neovim (Debian's package; `.ci/run`
//! installs it), headless, with its built-in LSP client starting `agentc lsp`
//! on a copy of the example whose intake skill has a mistake. The session
//! script (`tests/neovim/session.lua`) reports what the editor holds.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;

#[test]
fn neovim_shows_diagnostics_and_applies_fixes() {
    if !common::installed("nvim", "--version", "Neovim (`nvim`)") {
        eprintln!("skipped: Neovim (`nvim`) is not installed");
        return;
    }
    let (dir, root) = common::example_project();
    let intake = root.join("agents/skills/intake/SKILL.md");
    let original = std::fs::read_to_string(&intake).unwrap();
    let mistaken = original.replace("- classify-request:", "- classify-requst:");
    assert_ne!(original, mistaken);
    std::fs::write(&intake, &mistaken).unwrap();

    let out = dir.path().join("out.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/neovim/session.lua");
    let mut nvim = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("AGENTC_ROOT", &root)
        .env("AGENTC_OUT", &out)
        .env("AGENTC_BIN", env!("CARGO_BIN_EXE_agentc"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(180);
    while nvim.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = nvim.kill();
            panic!("Neovim did not finish the session in time");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(report["ok"], true, "the session failed: {report:#}");

    // The diagnostic the editor holds: code, place and message as the CLI's.
    assert_eq!(report["diagnosed"], true);
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{report:#}");
    let d = &diagnostics[0];
    assert_eq!(
        (d["code"].as_str(), d["lnum"].as_u64(), d["col"].as_u64(), d["end_col"].as_u64()),
        (Some("unknown-route-target"), Some(11), Some(4), Some(19))
    );
    assert!(d["message"].as_str().unwrap().starts_with(
        "the route leads to `classify-requst`, which is not a skill visible here\nhelp: did you mean `classify-request`?"
    ));

    // The quick fix, applied and saved, restores the file; the diagnostic goes.
    assert_eq!(report["action"], "replace `classify-requst` with `classify-request`");
    assert_eq!(report["fixed_text"].as_str().unwrap(), original.trim_end_matches('\n'));
    assert_eq!(std::fs::read_to_string(&intake).unwrap(), original);
    assert_eq!(report["healed"], true);

    // A mistake typed (unsaved) is diagnosed, and cleared when undone.
    assert_eq!(
        (report["typed"].as_bool(), report["typed_code"].as_str()),
        (Some(true), Some("step-tool-undeclared"))
    );
    assert_eq!(report["untyped"], true);

    let hover = report["hover"].as_str().unwrap();
    assert!(
        hover.starts_with("**tool** `update_ticket`\n\nAdd an internal note to a ticket"),
        "{hover}"
    );
    let completion: Vec<&str> =
        report["completion"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(
        completion.contains(&"classify-request") && completion.contains(&"wrap-up"),
        "{completion:?}"
    );

    // Go to definition jumped to the target skill's `name` (line 2, column 6).
    let verify = root.join("agents/skills/verify-identity/SKILL.md");
    assert_eq!(report["definition"]["file"], verify.to_str().unwrap());
    assert_eq!(report["definition"]["cursor"], serde_json::json!([2, 6]));

    // Rename edited the skill's `name` and the route naming it. (Neovim 0.7
    // cannot move a folder through the protocol, so the server sends it the
    // text edits alone; tests/lsp.rs covers the folder's move.)
    assert_eq!(report["renamed"], true, "{report:#}");
    assert_eq!(report["renamed_route"], true, "{report:#}");
}
