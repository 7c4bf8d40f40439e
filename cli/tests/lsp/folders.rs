//! A workspace of several folders, each a project, as VS Code and Neovim
//! send them: served from the start, and as folders are added and removed.

use serde_json::{Value, json};

use crate::client::{Client, url};
use crate::common;

const INTAKE: &str = "agents/skills/intake/SKILL.md";

/// A copy of the example with a route target misspelt on disk.
fn broken_desk() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, root) = common::example_project();
    let path = root.join(INTAKE);
    let text = std::fs::read_to_string(&path).unwrap();
    let typo = text.replace("- classify-request:", "- classify-requst:");
    assert_ne!(typo, text);
    std::fs::write(&path, typo).unwrap();
    (dir, root)
}

fn codes(diagnostics: &[Value]) -> Vec<&str> {
    diagnostics.iter().map(|d| d["code"].as_str().unwrap()).collect()
}

#[test]
fn folders_are_projects_as_they_come_and_go() {
    let (_one, one) = broken_desk();
    let (_two, two) = broken_desk();
    let (_three, three) = broken_desk();
    let mut client = Client::start_in(&[&one, &two]);
    assert_eq!(
        client.capabilities["workspace"]["workspaceFolders"],
        json!({ "supported": true, "changeNotifications": true })
    );
    // Each folder compiled as its own project.
    for root in [&one, &two] {
        let found = client.diagnostics(&url(&root.join(INTAKE)), None);
        assert_eq!(codes(&found), ["unknown-route-target"], "{}", root.display());
    }

    // One removed, one added: the removed one's diagnostics are withdrawn,
    // the added one is compiled and answers requests.
    let folder = |root: &std::path::Path| json!({ "uri": url(root), "name": "desk" });
    client.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({ "event": { "added": [folder(&three)], "removed": [folder(&one)] } }),
    );
    assert_eq!(client.diagnostics(&url(&one.join(INTAKE)), None), Vec::<Value>::new());
    let found = client.diagnostics(&url(&three.join(INTAKE)), None);
    assert_eq!(codes(&found), ["unknown-route-target"]);
    let intake = url(&three.join(INTAKE));
    let outline =
        client.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": intake } }));
    assert!(!outline.as_array().unwrap().is_empty(), "{outline}");

    // The folder left is no longer served: healing it publishes nothing,
    // while healing the one kept does.
    let original = |root: &std::path::Path| {
        let text = std::fs::read_to_string(root.join(INTAKE)).unwrap();
        text.replace("- classify-requst:", "- classify-request:")
    };
    std::fs::write(one.join(INTAKE), original(&one)).unwrap();
    std::fs::write(two.join(INTAKE), original(&two)).unwrap();
    let two_intake = url(&two.join(INTAKE));
    client.diagnostics_once(&two_intake, <[Value]>::is_empty);
    let one_intake = url(&one.join(INTAKE));
    let outline = client
        .request("textDocument/documentSymbol", json!({ "textDocument": { "uri": one_intake } }));
    assert_eq!(outline, Value::Null, "not a file of any project");
    assert!(
        !client.pending.iter().any(|m| m["params"]["uri"] == one_intake),
        "{:?}",
        client.pending
    );
    client.shutdown();
}
