//! The VS Code extension (`editors/vscode`) packages as the Marketplace takes
//! it: `vsce package` (its own prepublish step type-checks and bundles)
//! warns about nothing, and the `.vsix` holds the bundle, the licences, the
//! schemas and the README, not a `node_modules` folder. Needs the folder's
//! `npm ci`, which `.ci/run` does.

use std::path::Path;
use std::process::{Command, Stdio};

mod common;

/// What the package holds besides the two files every `.vsix` has
/// (`[Content_Types].xml`, `extension.vsixmanifest`).
const FILES: [&str; 13] = [
    "LICENSE",
    "README.md",
    "dist/THIRD-PARTY-NOTICES.txt",
    "dist/extension.js",
    "package.json",
    "schemas/agent.schema.json",
    "schemas/claude-hooks.schema.json",
    "schemas/claude-marketplace.schema.json",
    "schemas/claude-plugin.schema.json",
    "schemas/claude-settings.schema.json",
    "schemas/gemini-extension.schema.json",
    "schemas/mcp-json.schema.json",
    "schemas/tool.schema.json",
];

#[test]
fn vscode_extension_packages_without_warnings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/vscode");
    let vsce = dir.join("node_modules/.bin/vsce");
    if !vsce.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "editors/vscode has no node_modules in CI (cd editors/vscode && npm ci)"
        );
        eprintln!("skipped: editors/vscode/node_modules is missing (cd editors/vscode && npm ci)");
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let vsix = out.path().join("agentc.vsix");
    let packaged = Command::new(&vsce)
        .arg("package")
        .arg("--out")
        .arg(&vsix)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = common::text(&packaged.stdout) + &common::text(&packaged.stderr);
    assert!(packaged.status.success(), "vsce package failed:\n{said}");
    let warnings: Vec<&str> =
        said.lines().filter(|line| line.to_lowercase().contains("warn")).collect();
    assert!(warnings.is_empty(), "vsce package warned:\n{said}");
    assert!(said.contains("(15 files, "), "the .vsix holds other files:\n{said}");
    assert!(vsix.is_file());

    let listed =
        Command::new(&vsce).arg("ls").current_dir(&dir).stdin(Stdio::null()).output().unwrap();
    assert!(listed.status.success(), "{}", common::text(&listed.stderr));
    let mut files: Vec<String> = common::text(&listed.stdout).lines().map(str::to_owned).collect();
    files.sort();
    assert_eq!(files, FILES);

    // The bundle is whole: it loads nothing but the editor's `vscode` and
    // Node's own modules.
    let builtins = Command::new("node")
        .args(["-e", "console.log(require('module').builtinModules.join('\\n'))"])
        .output()
        .unwrap();
    let builtins = common::text(&builtins.stdout);
    let bundle = std::fs::read_to_string(dir.join("dist/extension.js")).unwrap();
    let required: std::collections::BTreeSet<&str> =
        bundle.split("require(\"").skip(1).filter_map(|rest| rest.split('"').next()).collect();
    assert!(required.contains("vscode"), "{required:?}");
    for module in required {
        assert!(
            module == "vscode" || builtins.lines().any(|b| b == module),
            "the bundle requires `{module}`, which the package does not hold"
        );
    }
}
