//! What a client sees of a compile: `$/progress` from its start to its end.

use serde_json::json;

use crate::client::{Client, url};
use crate::common;

/// A client that shows progress is asked to create a token, then told the
/// compile began and how it ended, before its first answer.
#[test]
fn the_first_compile_reports_its_progress() {
    let (_dir, root) = common::example_project();
    let mut client = Client::start(&root);
    let skill = url(&root.join("agents/skills/intake/SKILL.md"));
    client.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": skill } }));
    let create = (client.pending.iter())
        .find(|m| m["method"] == "window/workDoneProgress/create")
        .expect("a token is created");
    let token = create["params"]["token"].clone();
    assert_eq!(token, "agentc/compile/0");
    let progress: Vec<_> = (client.pending.iter())
        .filter(|m| m["method"] == "$/progress" && m["params"]["token"] == token)
        .map(|m| m["params"]["value"].clone())
        .collect();
    assert_eq!(progress.len(), 2, "{progress:?}");
    assert_eq!(progress[0]["kind"], "begin");
    assert_eq!(progress[0]["title"], "agentc");
    let folder = root.canonicalize().unwrap();
    assert_eq!(progress[0]["message"], format!("compiling {}", folder.display()));
    assert_eq!(progress[1]["kind"], "end");
    let end = progress[1]["message"].as_str().unwrap();
    assert!(end.ends_with(" files, 0 problems"), "{end}");
    let files: usize = end.split(' ').next().unwrap().parse().unwrap();
    assert!(files > 10, "{end}");
    client.shutdown();
}
