//! Renames through the protocol, each applied to the files as an editor
//! applies it, compiled, and compared with the same rename done by hand:
//! the files must be the same bytes, the compile the same, and the project
//! must mean what it meant (the same problems, by code).

use lsp_types as lsp;

use super::*;
use crate::lsp::compile_folder;
use crate::lsp::convert::{Encoding, Lines};

/// A project of a skill using the host's tool `fetch_invoice`, declared in
/// `registry` (the project file names it).
fn with_registry(registry: &str, text: &str) -> MemFs {
    let mut fs = MemFs::new();
    let skill = "---\nname: billing\ndescription: Bills.\ntools: [fetch_invoice, send_email]\nsteps:\n  - fetch_invoice: load it\nroutes:\n  - done: on fetch_invoice status=success\n---\nBill.\n";
    for (path, text) in [
        ("agentc.toml", format!("registry = \"{registry}\"\n").as_str()),
        (registry, text),
        ("skills/billing/SKILL.md", skill),
        ("skills/done/SKILL.md", "---\nname: done\ndescription: Done.\n---\nDone.\n"),
    ] {
        fs.insert(path, text).unwrap();
    }
    fs
}

/// `fs` with `edit`, a `WorkspaceEdit`, applied as a client applies it: each
/// document's edits against its text before them, none overlapping (LSP's
/// `TextDocumentEdit` and `TextEdit`, as lsp-types documents them, read
/// 2026-12-03), then each operation in turn. Every position must be inside
/// its line.
pub(super) fn apply(fs: &mut MemFs, edit: &Value) {
    let mut steps: Vec<&Value> = Vec::new();
    let changes = edit["changes"].as_object().into_iter().flatten();
    let edits: Vec<Value> = changes
        .map(|(uri, edits)| json!({ "textDocument": { "uri": uri }, "edits": edits }))
        .collect();
    steps.extend(&edits);
    steps.extend(edit["documentChanges"].as_array().into_iter().flatten());
    assert!(!steps.is_empty(), "an empty edit: {edit}");
    for step in steps {
        let path = |key: &str| step[key].as_str().unwrap().strip_prefix("file:///").unwrap();
        if step["kind"] == "rename" {
            let (from, to) = (path("oldUri"), path("newUri"));
            if let Some(text) = fs.remove(from) {
                assert!(fs.get(to).is_none(), "{to} exists already");
                fs.insert(to, text).unwrap();
                continue;
            }
            let moved: Vec<String> = (fs.files())
                .map(|(file, _)| file.to_owned())
                .filter(|file| file.strip_prefix(from).is_some_and(|rest| rest.starts_with('/')))
                .collect();
            assert!(!moved.is_empty(), "nothing to move at {from}");
            for file in moved {
                let text = fs.remove(&file).unwrap();
                fs.insert(&format!("{to}{}", &file[from.len()..]), text).unwrap();
            }
            continue;
        }
        let file = step["textDocument"]["uri"].as_str().unwrap().strip_prefix("file:///").unwrap();
        let text =
            String::from_utf8(fs.get(file).expect("an edited file exists").to_vec()).unwrap();
        let lines = Lines::new(&text, Encoding::Utf16);
        let offset = |at: &Value| {
            let at: lsp::Position = serde_json::from_value(at.clone()).unwrap();
            let offset = lines.offset(at);
            assert_eq!(lines.position(offset), at, "a position past its line in {file}");
            offset
        };
        let mut edits: Vec<(usize, usize, &str)> = (step["edits"].as_array().unwrap().iter())
            .map(|e| {
                (
                    offset(&e["range"]["start"]),
                    offset(&e["range"]["end"]),
                    e["newText"].as_str().unwrap(),
                )
            })
            .collect();
        edits.sort();
        assert!(edits.windows(2).all(|w| w[0].1 <= w[1].0), "overlapping edits in {file}");
        let mut edited = text.clone();
        for (start, end, new_text) in edits.into_iter().rev() {
            edited.replace_range(start..end, new_text);
        }
        fs.insert(file, edited).unwrap();
    }
}

/// Replaces each `from` in the file `path` with `to`, as a user would.
pub(super) fn replace(fs: &mut MemFs, path: &str, from: &str, to: &str) {
    let text = String::from_utf8(fs.get(path).unwrap().to_vec()).unwrap();
    assert!(text.contains(from), "`{from}` is not in {path}");
    fs.insert(path, text.replace(from, to)).unwrap();
}

/// Moves the folder `from` to `to`, as a user would.
pub(super) fn move_folder(fs: &mut MemFs, from: &str, to: &str) {
    let edit = json!({ "documentChanges": [{ "kind": "rename", "oldUri": uri(from), "newUri": uri(to) }] });
    apply(fs, &edit);
}

/// Renames the name at the `nth` `needle` in `file` of `files` to
/// `new_name` through the server; the edit applied must give the files
/// `by_hand` makes, and they must compile as they do, to the same problems
/// as before. Returns the edit.
pub(super) fn assert_rename(
    files: MemFs,
    (file, needle, nth): (&str, &str, usize),
    new_name: &str,
    by_hand: impl FnOnce(&mut MemFs),
) -> Value {
    let mut client = Client::on(files.clone());
    client.initialize();
    let at = position(&client.disk.text(file), needle, nth);
    let params =
        json!({ "textDocument": { "uri": uri(file) }, "position": at, "newName": new_name });
    let response = client.request("textDocument/rename", params);
    let edit = &response["result"];
    assert!(edit.is_object(), "{response}");
    let mut edited = files.clone();
    apply(&mut edited, edit);
    let mut expected = files.clone();
    by_hand(&mut expected);

    let texts = |fs: &MemFs| -> Vec<(String, String)> {
        fs.files().map(|(p, b)| (p.to_owned(), String::from_utf8_lossy(b).into_owned())).collect()
    };
    assert_eq!(texts(&edited), texts(&expected), "the edit: {edit}");
    let compiled = |fs: &MemFs| {
        let compilation = compile_folder(fs, fs.root(), None);
        (compilation.diagnostics.iter())
            .map(|d| {
                (d.location.file.to_string(), d.location.span, d.code.as_str(), d.message.clone())
            })
            .collect::<Vec<_>>()
    };
    let (renamed, before) = (compiled(&edited), compiled(&files));
    assert_eq!(renamed, compiled(&expected));
    let codes = |found: &[(String, _, &'static str, String)]| -> Vec<&'static str> {
        found.iter().map(|d| d.2).collect()
    };
    assert_eq!(codes(&renamed), codes(&before), "the rename changed what the project means");
    edit.clone()
}

/// The error a rename at the `nth` `needle` in `file` is refused with.
pub(super) fn refused(
    client: &mut Client,
    (file, needle, nth): (&str, &str, usize),
    new_name: &str,
) -> String {
    let at = position(&client.disk.text(file), needle, nth);
    let params =
        json!({ "textDocument": { "uri": uri(file) }, "position": at, "newName": new_name });
    let response = client.request("textDocument/rename", params);
    assert_eq!(response["error"]["code"], -32803, "{response}");
    response["error"]["message"].as_str().unwrap().to_owned()
}

/// Issue #26: renaming the host's `fetch_invoice` from a skill of the
/// example inserted `get_invoice` before the registry's comment and left
/// the entry. The entry is renamed where it is written, comments kept.
#[test]
fn a_registry_tool_renamed_from_a_skill_is_renamed_in_the_registry() {
    let skill = "agents/billing/skills/charge-lookup/SKILL.md";
    assert_rename(example(), (skill, "fetch_invoice", 0), "get_invoice", |fs| {
        for file in ["registry.yaml", skill, "agents/billing/AGENT.md"] {
            replace(fs, file, "fetch_invoice", "get_invoice");
        }
    });
}

/// The registry in each way it may be written — YAML block and flow lists,
/// quoted, with comments; JSON — renamed from a skill and from the registry.
#[test]
fn a_registry_entry_is_renamed_in_place_however_it_is_written() {
    let registries = [
        (
            "registry.yaml",
            "# The host's tools.\ntools:\n  - send_email\n  - fetch_invoice # billing\n",
        ),
        (
            "registry.yaml",
            "tools: [send_email, fetch_invoice]  # both\nmodels: [openai/gpt-5-mini]\n",
        ),
        ("registry.yml", "tools:\n- 'send_email'\n- \"fetch_invoice\"\n"),
        (
            "registry.json",
            "{\n  \"tools\": [\n    \"send_email\",\n    \"fetch_invoice\"\n  ]\n}\n",
        ),
        ("hosts/registry.json", "{\"tools\":[\"send_email\",\"fetch_invoice\"]}"),
    ];
    for (registry, text) in registries {
        for from in ["skills/billing/SKILL.md", registry] {
            let nth = if from == registry { 0 } else { 1 };
            assert_rename(
                with_registry(registry, text),
                (from, "fetch_invoice", nth),
                "get_invoice",
                |fs| {
                    replace(fs, registry, "fetch_invoice", "get_invoice");
                    replace(fs, "skills/billing/SKILL.md", "fetch_invoice", "get_invoice");
                },
            );
        }
    }
}

/// An entry written with escapes cannot be renamed by replacing its text.
#[test]
fn a_registry_entry_written_with_escapes_is_left_to_the_user() {
    let files =
        with_registry("registry.yaml", "tools:\n  - send_email\n  - \"fetch\\x5Finvoice\"\n");
    let mut client = Client::on(files);
    client.initialize();
    let message =
        refused(&mut client, ("skills/billing/SKILL.md", "fetch_invoice", 0), "get_invoice");
    assert!(message.contains("written with escapes"), "{message}");
}

/// A descriptor the registry also declares: its `name`, the registry's
/// entry, every use, and its folder.
#[test]
fn a_tool_both_described_and_declared_is_renamed_in_both() {
    let mut files = with_registry("registry.yaml", "tools:\n  - send_email\n  - fetch_invoice\n");
    let manifest = r#"{"name": "fetch_invoice", "description": "Fetch an invoice."}"#;
    files.insert("tools/fetch_invoice/manifest.json", manifest).unwrap();
    assert_rename(files, ("skills/billing/SKILL.md", "fetch_invoice", 2), "get_invoice", |fs| {
        for file in
            ["registry.yaml", "skills/billing/SKILL.md", "tools/fetch_invoice/manifest.json"]
        {
            replace(fs, file, "fetch_invoice", "get_invoice");
        }
        move_folder(fs, "tools/fetch_invoice", "tools/get_invoice");
    });
}

/// A skill that unguarded routes reach, a block item (`- c`) and a flow
/// list (`[c]`): both edited, and its folder moved.
#[test]
fn a_skill_renamed_with_its_routes_and_folder() {
    let edit = assert_rename(
        crate::fuzzing::lsp_project(),
        ("skills/a/SKILL.md", "c\n", 0),
        "sea",
        |fs| {
            replace(fs, "skills/a/SKILL.md", "  - c\n", "  - sea\n");
            replace(fs, "skills/b/SKILL.md", "routes: [c]", "routes: [sea]");
            replace(fs, "skills/c/SKILL.md", "name: c", "name: sea");
            move_folder(fs, "skills/c", "skills/sea");
        },
    );
    // The folder moves after the edits, which name files by their old paths.
    let operations = edit["documentChanges"].as_array().unwrap();
    assert_eq!(
        operations.last().unwrap(),
        &json!({ "kind": "rename", "oldUri": "file:///skills/c", "newUri": "file:///skills/sea" })
    );
}

/// A private skill named by a qualified name keeps the prefix.
#[test]
fn a_qualified_name_renamed_keeps_its_prefix() {
    let files = crate::fuzzing::lsp_project();
    assert_rename(files, ("desk/AGENT.md", "agent__desk__d", 0), "dd", |fs| {
        replace(fs, "desk/AGENT.md", "agent__desk__d\n", "agent__desk__dd\n");
        replace(fs, "desk/AGENT.md", "start: d\n", "start: dd\n");
        replace(fs, "desk/skills/d/SKILL.md", "name: d\n", "name: dd\n");
        move_folder(fs, "desk/skills/d", "desk/skills/dd");
    });
}

/// A described tool: the descriptor's `name`, the skill's list, step and
/// guard, the agent's list, and the folder.
#[test]
fn a_described_tool_renamed_everywhere_it_is_used() {
    let files = crate::fuzzing::lsp_project();
    assert_rename(files, ("skills/a/SKILL.md", "t]", 0), "lookup", |fs| {
        replace(fs, "tools/t/manifest.json", "\"t\"", "\"lookup\"");
        replace(fs, "skills/a/SKILL.md", "[t]", "[lookup]");
        replace(fs, "skills/a/SKILL.md", "- t: find", "- lookup: find");
        replace(fs, "skills/a/SKILL.md", "on t status", "on lookup status");
        replace(fs, "desk/AGENT.md", "  - t\n", "  - lookup\n");
        move_folder(fs, "tools/t", "tools/lookup");
    });
}

/// A descriptor without `name` is named by its folder: the rename moves it
/// and edits nothing in it; a client that cannot move folders is told so
/// rather than given an edit that renames the uses alone.
#[test]
fn a_tool_named_by_its_folder_is_renamed_by_moving_it() {
    let mut files = MemFs::new();
    for (path, text) in [
        ("billing/tools/issue_refund/manifest.json", r#"{"description": "Refund an order."}"#),
        (
            "billing/AGENT.md",
            "---\ndescription: Bills.\ntools:\n  - issue_refund\nskills:\n  - agent__billing__refund\nstart: refund\n---\nBill.\n",
        ),
        (
            "billing/skills/refund/SKILL.md",
            "---\nname: refund\ndescription: Refund.\ntools:\n  - issue_refund\nsteps:\n  - issue_refund: refund it\n---\nRefund.\n",
        ),
    ] {
        files.insert(path, text).unwrap();
    }
    let skill = "billing/skills/refund/SKILL.md";
    assert_rename(files.clone(), (skill, "issue_refund", 1), "refund_order", |fs| {
        replace(fs, skill, "issue_refund", "refund_order");
        replace(fs, "billing/AGENT.md", "issue_refund", "refund_order");
        move_folder(fs, "billing/tools/issue_refund", "billing/tools/refund_order");
    });

    let mut client = Client::on(files);
    let params = json!({ "processId": null, "rootUri": "file:///", "capabilities": {} });
    client.request("initialize", params);
    let message = refused(&mut client, (skill, "issue_refund", 1), "refund_order");
    assert!(message.contains("named by its folder alone"), "{message}");
}

/// The example's rename of `verify-identity` (the editor session in
/// `cli/tests/lsp.rs`): its `name`, the route and the agent naming it, and
/// its folder.
#[test]
fn a_skill_of_the_example_renamed_with_its_folder() {
    let intake = "agents/skills/intake/SKILL.md";
    assert_rename(example(), (intake, "verify-identity", 0), "confirm-identity", |fs| {
        for file in [intake, "agents/triage/AGENT.md", "agents/skills/verify-identity/SKILL.md"] {
            replace(fs, file, "verify-identity", "confirm-identity");
        }
        move_folder(fs, "agents/skills/verify-identity", "agents/skills/confirm-identity");
    });
}
