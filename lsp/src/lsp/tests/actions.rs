//! Code actions that depend on what the client can do and on the disk: a
//! folder is moved only by a client that can rename files, and never onto
//! something that is there.

use super::*;

const SKILL: &str = "skills/refund/SKILL.md";

fn titles(client: &mut Client) -> Vec<String> {
    let at = position(&client.disk.text(SKILL), "refund-review", 0);
    let params = json!({ "textDocument": { "uri": uri(SKILL) }, "range": { "start": at, "end": at },
        "context": { "diagnostics": [] } });
    let response = client.request("textDocument/codeAction", params);
    let actions = response["result"].as_array().unwrap();
    actions.iter().map(|a| a["title"].as_str().unwrap().to_owned()).collect()
}

fn files(extra: Option<&str>) -> MemFs {
    let mut files = MemFs::new();
    let text = "---\nname: refund-review\ndescription: Review a refund.\n---\nReview.\n";
    files.insert(SKILL, text).unwrap();
    if let Some(path) = extra {
        files.insert(path, "# Notes\n").unwrap();
    }
    files
}

#[test]
fn a_folder_is_moved_only_by_a_client_that_can_and_onto_nothing() {
    let to_name = "rename the skill to `refund`, as its folder";
    let to_folder = "rename the folder `refund` to `refund-review`";
    let mut able = Client::on(files(None));
    let advertised = able.initialize();
    let kinds = &advertised["result"]["capabilities"]["codeActionProvider"]["codeActionKinds"];
    assert_eq!(kinds, &json!(["quickfix", "source.fixAll", "source.fixAll.agentc"]));
    assert_eq!(titles(&mut able), [to_name, to_folder]);

    let mut unable = Client::on(files(None));
    let params = json!({ "processId": null, "rootUri": "file:///", "capabilities": {} });
    unable.request("initialize", params);
    assert_eq!(titles(&mut unable), [to_name]);

    let mut taken = Client::on(files(Some("skills/refund-review/notes.md")));
    taken.initialize();
    assert_eq!(titles(&mut taken), [to_name]);
}
