//! A real editor nobody here wrote: Neovim, headless, with its built-in LSP
//! client set up by the README's own Lua block (cut from README.md here, as a
//! user would paste it), which loads the plugin in `editors/nvim/` from this
//! repository, starting `agentc lsp` on a copy of the example whose intake
//! skill has a mistake, and on a repository holding only `.claude/`.
//! Debian's Neovim 0.7.2 is the one on `PATH` (`.ci/run` installs it), and
//! `.ci/run` names a Neovim 0.11 in `AGENTC_NVIM_0_11`. The session script
//! (`tests/neovim/session.lua`) reports what the editor holds.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agentc_compiler::repository::MARKERS;
use serde_json::{Value, json};

mod common;

/// Where the README's block says a clone of the repository is.
const CLONE: &str = "~/src/agentc";

/// This repository's top.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

/// The Lua block of the README's "In the editor" section.
fn readme_snippet() -> String {
    let readme = std::fs::read_to_string(repository().join("README.md")).unwrap();
    let section = &readme[readme.find("## In the editor").unwrap()..];
    let start = section.find("```lua\n").expect("the README has a Neovim block") + "```lua\n".len();
    let end = start + section[start..].find("```\n").unwrap();
    section[start..end].to_owned()
}

/// The README's block with this repository where it says a clone is.
fn snippet_here() -> String {
    let snippet = readme_snippet();
    assert!(snippet.contains(CLONE), "the README's Neovim block names {CLONE}: {snippet}");
    snippet.replace(CLONE, repository().to_str().unwrap())
}

/// The plugin's module, which the README's block loads.
fn plugin_module() -> PathBuf {
    repository().join("editors/nvim/lua/agentc/init.lua")
}

#[test]
fn the_plugin_finds_projects_by_agentc_checks_markers() {
    let module = std::fs::read_to_string(plugin_module()).unwrap();
    let start = module.find("M.markers = {").unwrap();
    let end = start + module[start..].find('}').unwrap();
    let markers: Vec<&str> = module[start..end].split('"').skip(1).step_by(2).collect();
    assert_eq!(
        markers, MARKERS,
        "editors/nvim/lua/agentc/init.lua must find the repository as `agentc check` does"
    );
}

/// On `runtimepath` with plugins loaded, `plugin/agentc.lua` sets agentc up
/// with the defaults, once.
#[test]
fn the_plugin_file_sets_agentc_up_when_the_configuration_does_not() {
    if !common::installed("nvim", "--version", "Neovim (`nvim`)") {
        eprintln!("skipped: Neovim (`nvim`) is not installed");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("init.lua");
    let plugin = repository().join("editors/nvim");
    common::write(&config, format!("vim.opt.runtimepath:append({:?})\n", plugin.to_str().unwrap()));
    let out = Command::new("nvim")
        .args(["--headless", "-i", "NONE", "-n", "-u"])
        .arg(&config)
        .args(["-c", "lua io.stdout:write(tostring(require('agentc').configured), ' ', tostring(vim.g.loaded_agentc))", "-c", "qa!"])
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("XDG_STATE_HOME", home.path().join("state"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(common::text(&out.stdout), "true true", "{}", common::text(&out.stderr));
}

#[test]
fn neovim_runs_the_readme_snippet() {
    if !common::installed("nvim", "--version", "Neovim (`nvim`)") {
        eprintln!("skipped: Neovim (`nvim`) is not installed");
        return;
    }
    if std::env::var_os("CI").is_some() {
        // The README names the Neovim CI runs its block on: Debian bookworm's.
        let version = Command::new("nvim").arg("--version").output().unwrap();
        let version = common::text(&version.stdout);
        assert!(version.starts_with("NVIM v0.7.2\n"), "the README names Neovim 0.7.2: {version}");
    }
    session(Path::new("nvim"));
}

#[test]
fn neovim_0_11_runs_the_readme_snippet() {
    let Some(nvim) = std::env::var_os("AGENTC_NVIM_0_11") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "AGENTC_NVIM_0_11 is not set in CI (.ci/run sets it)"
        );
        eprintln!("skipped: AGENTC_NVIM_0_11 does not name a Neovim 0.11 (.ci/run installs one)");
        return;
    };
    let version = Command::new(&nvim).arg("--version").output().unwrap();
    assert!(common::text(&version.stdout).starts_with("NVIM v0.11."));
    session(Path::new(&nvim));
}

/// Runs the session in `nvim` and checks what the editor held.
fn session(nvim: &Path) {
    let (dir, root) = common::example_project();
    let intake = root.join("agents/skills/intake/SKILL.md");
    let original = std::fs::read_to_string(&intake).unwrap();
    let mistaken = original.replace("- classify-request:", "- classify-requst:");
    assert_ne!(original, mistaken);
    std::fs::write(&intake, &mistaken).unwrap();
    // A repository holding only a Claude Code subagent, with a mistake.
    let claude_only = root.with_file_name("reviews");
    common::write(
        &claude_only.join(".claude/agents/x.md"),
        "---\nname: reviewer\ndescription: Reviews changes.\ntools: Reed, Grep\n---\nReview the diff.\n",
    );
    let loose = root.with_file_name("notes").join("todo.md");
    common::write(&loose, "# To do\n");

    let snippet = dir.path().join("agentc.lua");
    std::fs::write(&snippet, snippet_here()).unwrap();
    let out = dir.path().join("out.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/neovim/session.lua");
    let mut nvim = Command::new(nvim)
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("AGENTC_ROOT", &root)
        .env("AGENTC_CLAUDE_ONLY", &claude_only)
        .env("AGENTC_LOOSE", &loose)
        .env("AGENTC_SNIPPET", &snippet)
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
    // The README's block calls nothing the Neovim running it has deprecated,
    // and the plugin it loads is this repository's.
    let messages = report["messages"].as_str().unwrap();
    assert!(!messages.contains("deprecated"), "{messages}");
    assert_eq!(report["plugin"], format!("@{}", plugin_module().display()), "{report:#}");

    // One client a project root, whatever the buffers and file types: the
    // example's (found by its `agentc.toml`) and the `.claude`-only
    // repository's (found by `.claude`); a file in no project gets none.
    let clients = report["clients"].as_array().unwrap();
    let roots: Vec<_> = clients.iter().map(|c| (c["name"].clone(), c["root"].clone())).collect();
    assert_eq!(
        roots,
        [
            (json!("agentc"), json!(root.to_str().unwrap())),
            (json!("agentc"), json!(claude_only.to_str().unwrap()))
        ],
        "{report:#}"
    );
    let desk = &clients[0]["id"];
    assert_eq!(report["filetype"], "markdown");
    assert_eq!(report["attached"], json!([desk]));
    let attached_too: Vec<_> = report["attached_too"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["filetype"].as_str().unwrap(), a["clients"].clone()))
        .collect();
    assert_eq!(
        attached_too,
        [("toml", json!([desk])), ("yaml", json!([desk])), ("json", json!([desk]))],
        "{report:#}"
    );
    assert_eq!(report["claude_only"]["clients"], json!([clients[1]["id"]]));
    let lone: Vec<_> = report["claude_only"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (d["code"].as_str().unwrap(), d["lnum"].as_u64().unwrap(), d["col"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(lone, [("unknown-tool", 3, 7)], "{report:#}");
    assert_eq!(report["loose_clients"], json!([]));

    // The diagnostic the editor holds, once: code, place and message as the CLI's.
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
    // Asked three characters into a route's target: the skills they begin.
    let completion: Vec<&str> =
        report["completion"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert_eq!(completion, ["classify-request"]);

    // Go to definition jumped to the target skill's `name` (line 2, column 6).
    let verify = root.join("agents/skills/verify-identity/SKILL.md");
    assert_eq!(report["definition"]["file"], verify.to_str().unwrap());
    assert_eq!(report["definition"]["cursor"], serde_json::json!([2, 6]));

    // Rename edited the skill's `name` and the route naming it. Neovim
    // before 0.10 cannot move a folder through the protocol, so the server
    // sends it the text edits alone; later ones move the folder too.
    assert_eq!(report["renamed"], true, "{report:#}");
    assert_eq!(report["renamed_route"], true, "{report:#}");
    let version: Vec<u64> =
        report["version"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    let moves = version[..] >= [0, 10][..];
    let folder = if moves { "confirm-identity" } else { "verify-identity" };
    let renamed = root.join("agents/skills").join(folder).join("SKILL.md");
    assert_eq!(report["renamed_file"], renamed.to_str().unwrap(), "{report:#}");
}
