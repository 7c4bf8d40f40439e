//! Code actions through a real client, per dialect: each asked for at its
//! diagnostic, its edit applied as an editor applies it, the file checked
//! again — the diagnostic is gone — and at the end `agentc check` passes.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::client::{Client, position, url};
use crate::common;

/// A copy of a fixture case in `<temp>/desk`, canonical, with an
/// `agentc.toml` compiling its `root` (and its registry, when it has one).
fn project(case: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let desk = dir.path().canonicalize().unwrap().join("desk");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures").join(case);
    common::copy_dir(&fixture, &desk);
    let registry =
        if desk.join("registry.yaml").exists() { "registry = \"registry.yaml\"\n" } else { "" };
    common::write(&desk.join("agentc.toml"), format!("root = \"root\"\n{registry}"));
    (dir, desk)
}

/// A project of the given files under `<temp>/desk/root`, compiled as above.
fn project_of(files: &[(&str, &str)], registry: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let desk = dir.path().canonicalize().unwrap().join("desk");
    for (path, text) in files {
        common::write(&desk.join("root").join(path), text);
    }
    let mut toml = "root = \"root\"\n".to_owned();
    if let Some(registry) = registry {
        common::write(&desk.join("registry.yaml"), registry);
        toml.push_str("registry = \"registry.yaml\"\n");
    }
    // Every fix on offer, those of the pedantic group too.
    toml.push_str("[lints]\npedantic = \"warn\"\n");
    common::write(&desk.join("agentc.toml"), toml);
    (dir, desk)
}

/// `agentc check` in the project: its exit code and report.
fn check(desk: &Path) -> (Option<i32>, String) {
    let out = common::agentc(&["check"], desk);
    (out.status.code(), common::text(&out.stderr))
}

fn offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().unwrap() as usize;
    let character = position["character"].as_u64().unwrap() as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    // The texts here are ASCII: a UTF-16 unit is a byte.
    start + character
}

/// `text` with the protocol's text edits applied, last first.
fn apply_edits(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let range = &e["range"];
            (
                offset(text, &range["start"]),
                offset(text, &range["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort_by_key(|(start, ..)| std::cmp::Reverse(*start));
    let mut out = text.to_owned();
    for (start, end, new) in spans {
        out.replace_range(start..end, new);
    }
    out
}

fn path_of(uri: &str) -> PathBuf {
    PathBuf::from(uri.strip_prefix("file://").unwrap())
}

/// Applies a workspace edit on disk as an editor does: text edits by file,
/// then any rename. Returns the files it changed, with their new text.
fn apply(edit: &Value) -> Vec<(String, String)> {
    let mut changed = Vec::new();
    let mut edit_file = |uri: &str, edits: &[Value]| {
        let path = path_of(uri);
        let text = apply_edits(&std::fs::read_to_string(&path).unwrap(), edits);
        std::fs::write(&path, &text).unwrap();
        changed.push((uri.to_owned(), text));
    };
    if let Some(changes) = edit["changes"].as_object() {
        for (uri, edits) in changes {
            edit_file(uri, edits.as_array().unwrap());
        }
    }
    for operation in edit["documentChanges"].as_array().into_iter().flatten() {
        if operation["kind"] == "rename" {
            let (from, to) = (
                path_of(operation["oldUri"].as_str().unwrap()),
                path_of(operation["newUri"].as_str().unwrap()),
            );
            assert!(!to.exists(), "the rename overwrites {}", to.display());
            std::fs::rename(from, to).unwrap();
        } else {
            let uri = operation["textDocument"]["uri"].as_str().unwrap();
            edit_file(uri, operation["edits"].as_array().unwrap());
        }
    }
    changed
}

fn titles(actions: &Value) -> Vec<&str> {
    actions.as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap()).collect()
}

/// One editor session over a project: documents opened as they are needed.
struct Session {
    client: Client,
    desk: PathBuf,
    versions: std::collections::HashMap<String, i64>,
    /// The diagnostics last published for each open document.
    latest: std::collections::HashMap<String, Vec<Value>>,
}

impl Session {
    fn start(desk: &Path) -> Session {
        Session {
            client: Client::start(desk),
            desk: desk.to_owned(),
            versions: Default::default(),
            latest: Default::default(),
        }
    }

    fn uri(&self, file: &str) -> String {
        url(&self.desk.join("root").join(file))
    }

    /// The document's diagnostics, opening it first.
    fn diagnostics(&mut self, file: &str) -> Vec<Value> {
        let uri = self.uri(file);
        if !self.versions.contains_key(&uri) {
            let text = std::fs::read_to_string(path_of(&uri)).unwrap();
            self.client.open(&uri, &text);
            self.versions.insert(uri.clone(), 1);
            let published = self.client.diagnostics(&uri, Some(1));
            self.latest.insert(uri.clone(), published);
        }
        self.latest[&uri].clone()
    }

    /// The one diagnostic of `file` with `code` whose message has `needle`.
    fn diagnostic(&mut self, file: &str, code: &str, needle: &str) -> Value {
        let diagnostics = self.diagnostics(file);
        let found: Vec<&Value> = diagnostics
            .iter()
            .filter(|d| d["code"] == code && d["message"].as_str().unwrap().contains(needle))
            .collect();
        assert_eq!(found.len(), 1, "{file}: {code} `{needle}` in {diagnostics:#?}");
        found[0].clone()
    }

    /// The actions at `range` of `file`, of the kinds `only` (all if none).
    fn actions(&mut self, file: &str, range: &Value, only: Option<&[&str]>) -> Value {
        let mut context = json!({ "diagnostics": [] });
        if let Some(only) = only {
            context["only"] = json!(only);
        }
        let uri = self.uri(file);
        self.client.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": uri }, "range": range, "context": context }),
        )
    }

    /// Applies the action titled `title` on disk and tells the server of
    /// every open document it changed; returns the action.
    fn take(&mut self, actions: &Value, title: &str) -> Value {
        let action = actions
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["title"] == title)
            .unwrap_or_else(|| panic!("no action `{title}` in {:?}", titles(actions)))
            .clone();
        for (uri, text) in apply(&action["edit"]) {
            if let Some(version) = self.versions.get_mut(&uri) {
                *version += 1;
                let version = *version;
                self.client.change(&uri, version, &text);
                let published = self.client.diagnostics(&uri, Some(version));
                self.latest.insert(uri, published);
            }
        }
        action
    }

    /// Fixes the diagnostic through the action titled `title`: then `file`
    /// reads `line` where the misspelling was and the diagnostic is gone.
    fn fix(&mut self, file: &str, code: &str, needle: &str, title: &str, line: &str) {
        let d = self.diagnostic(file, code, needle);
        let actions = self.actions(file, &d["range"], None);
        let action = self.take(&actions, title);
        assert_eq!(action["kind"], "quickfix", "{title}");
        assert_eq!(action["diagnostics"][0]["code"], code, "{title}");
        let uri = self.uri(file);
        let text = std::fs::read_to_string(path_of(&uri)).unwrap();
        assert!(text.lines().any(|l| l == line), "{file}: no line `{line}` in\n{text}");
        let after = self.diagnostics(file);
        let again = after.iter().filter(|a| a["code"] == code && a["message"] == d["message"]);
        assert_eq!(again.count(), 0, "{file}: {code} is still there: {after:#?}");
    }
}

/// agentc's own formats: skills, AGENT.md, agent.json, tool manifests.
#[test]
fn each_near_miss_of_agentcs_own_formats_is_fixed() {
    let (_dir, desk) = project("fix-did-you-mean-runbook");
    let mut s = Session::start(&desk);
    let skill = "skills/refund-review/SKILL.md";
    s.fix(
        skill,
        "step-tool-undeclared",
        "`lookup_ordr`",
        "replace `lookup_ordr` with `lookup_order`",
        "  - lookup_order: find the order and its payment",
    );
    s.fix(skill, "unknown-field", "`onSkp`", "rename `onSkp` to `onSkip`", "onSkip: hold");
    s.fix(
        skill,
        "guard-tool-undeclared",
        "`issue_refnd`",
        "replace `issue_refnd` with `issue_refund`",
        "  - wrap-up: on issue_refund status=denid",
    );
    s.fix(
        skill,
        "bad-status",
        "`denid`",
        "replace `denid` with `denied`",
        "  - wrap-up: on issue_refund status=denied",
    );
    let agent = "triage/AGENT.md";
    s.fix(
        agent,
        "unknown-model",
        "claude-sonet",
        "replace `anthropic/claude-sonet-4-5` with `anthropic/claude-sonnet-4-5`",
        "model: anthropic/claude-sonnet-4-5",
    );
    s.fix(
        agent,
        "unknown-context",
        "ticket-histroy",
        "replace `ticket-histroy` with `ticket-history`",
        "  - ticket-history",
    );
    s.fix(
        "escalations/agent.json",
        "unknown-field",
        "descripton",
        "rename `descripton` to `description`",
        "  \"description\": \"Prepares escalated tickets for a human support lead.\",",
    );
    s.fix(
        "tools/lookup_order/manifest.json",
        "unknown-field",
        "desciption",
        "rename `desciption` to `description`",
        "  \"description\": \"Looks an order up by its number.\",",
    );
    s.client.shutdown();
    assert_eq!(check(&desk), (Some(0), "no problems found\n".to_owned()));
}

/// The hosts' formats: Claude Code, Agent Skills, Copilot, plugins, hooks, MCP.
#[test]
fn each_near_miss_of_the_hosts_formats_is_fixed() {
    let (_dir, desk) = project("fix-did-you-mean-hosts");
    let mut s = Session::start(&desk);
    let rename = "rename `descripton` to `description`";
    // A required key misspelt: the diagnostic is about the file, its fix
    // where the key is; the action is offered at the key.
    for file in [
        ".claude/skills/release/SKILL.md",
        ".claude/agents/fixer.md",
        ".github/agents/planner.agent.md",
    ] {
        let d = s.diagnostic(file, "missing-field", "`description`");
        let text = std::fs::read_to_string(path_of(&s.uri(file))).unwrap();
        let at = position(&text, "descripton", 0);
        let actions = s.actions(file, &json!({ "start": at, "end": at }), None);
        assert_eq!(titles(&actions), [rename], "{file}");
        assert_eq!(actions[0]["isPreferred"], true);
        assert_eq!(actions[0]["diagnostics"][0]["message"], d["message"]);
        s.take(&actions, rename);
        let codes: Vec<Value> = s.diagnostics(file).iter().map(|d| d["code"].clone()).collect();
        assert!(!codes.contains(&json!("missing-field")), "{file}: {codes:?}");
    }
    let line = "description: Ships a build.";
    s.fix(".claude/commands/ship.md", "unknown-field", "descripton", rename, line);
    s.fix(
        ".github/prompts/review.prompt.md",
        "unknown-field",
        "descripton",
        rename,
        "description: Review the current change",
    );
    s.fix(
        ".github/prompts/review.prompt.md",
        "unknown-route-target",
        "`planer`",
        "replace `planer` with `planner`",
        "agent: planner",
    );
    s.fix(
        ".github/instructions/ts.instructions.md",
        "unknown-field",
        "applyto",
        "rename `applyto` to `applyTo`",
        "applyTo: \"src/**/*.ts\"",
    );
    s.fix(
        ".agents/skills/deploy/SKILL.md",
        "unknown-field",
        "licence",
        "rename `licence` to `license`",
        "license: MIT",
    );
    s.fix(
        ".claude/agents/reviewer.md",
        "unknown-field",
        "tols",
        "rename `tols` to `tools`",
        "tools: Read, Grep",
    );
    s.fix(
        ".claude/agents/reviewer.md",
        "bad-model",
        "sonet",
        "replace `sonet` with `sonnet`",
        "model: sonnet",
    );
    s.fix(
        "plugins/formatter/.claude-plugin/plugin.json",
        "unknown-field",
        "descripton",
        rename,
        "  \"description\": \"Formats code after every edit.\"",
    );
    s.fix(".claude-plugin/marketplace.json", "unknown-field", "descripton", rename, "  \"plugins\": [{ \"name\": \"formatter\", \"source\": \"./plugins/formatter\", \"description\": \"Formats code.\" }]");
    s.fix("plugins/formatter/hooks/hooks.json", "unknown-field", "comand", "rename `comand` to `command`", "      { \"matcher\": \"Edit|Write\", \"hooks\": [{ \"type\": \"command\", \"command\": \"${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh\" }] }");
    s.fix(".mcp.json", "unknown-field", "comand", "rename `comand` to `command`", "    \"files\": { \"type\": \"stdio\", \"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\"] }");
    s.fix(
        ".claude/settings.json",
        "unknown-mcp-server",
        "filse",
        "replace `filse` with `files`",
        "  \"enabledMcpjsonServers\": [\"files\"]",
    );
    s.client.shutdown();
    assert_eq!(check(&desk), (Some(0), "no problems found\n".to_owned()));
}

const REGISTRY: &str = "tools:\n  - lookup_order\n  - issue_refund\n  - update_ticket\n";
const WRAP_UP: &str =
    "---\nname: wrap-up\ndescription: Close the ticket.\ntools: [update_ticket]\n---\nClose it.\n";

/// A skill whose `name` is not its folder's, in agentc's skills, Agent
/// Skills and tool manifests: one action writes the folder's name, the other
/// moves the folder to the name; either checks clean.
#[test]
fn a_name_and_its_folder_are_made_to_agree_either_way() {
    let files = [
        (
            "skills/refund/SKILL.md",
            "---\nname: refund-review\ndescription: Review a refund.\n---\nReview.\n",
        ),
        (
            ".claude/skills/deploy/SKILL.md",
            "---\nname: deploy-site\ndescription: Deploys the site. Use when a release is tagged.\n---\nDeploy.\n",
        ),
        (
            "tools/lookup_order/manifest.json",
            "{\n  \"name\": \"lookup_orders\",\n  \"description\": \"Looks an order up.\",\n  \"input_schema\": { \"type\": \"object\" }\n}\n",
        ),
    ];
    let cases = [
        (0, "refund-review", "skill", "refund", "name: refund"),
        (1, "deploy-site", "skill", "deploy", "name: deploy"),
        (2, "lookup_orders", "tool", "lookup_order", "  \"name\": \"lookup_order\","),
    ];
    for by_folder in [false, true] {
        let (_dir, desk) = project_of(&files, Some(REGISTRY));
        let mut s = Session::start(&desk);
        for (i, name, what, folder, line) in cases {
            let file = files[i].0;
            let d = s.diagnostic(file, "name-mismatch", name);
            let actions = s.actions(file, &d["range"], None);
            let to_name = format!("rename the {what} to `{folder}`");
            let to_name = if i == 1 { to_name } else { format!("{to_name}, as its folder") };
            let to_folder = format!("rename the folder `{folder}` to `{name}`");
            assert_eq!(titles(&actions), [to_name.as_str(), to_folder.as_str()], "{file}");
            if by_folder {
                let action = s.take(&actions, &to_folder);
                let parent = Path::new(file).parent().unwrap();
                let moved = parent.with_file_name(name);
                assert_eq!(
                    action["edit"]["documentChanges"],
                    json!([{
                        "kind": "rename",
                        "oldUri": url(&desk.join("root").join(parent)),
                        "newUri": url(&desk.join("root").join(moved)),
                    }]),
                    "{file}"
                );
            } else {
                s.fix(file, "name-mismatch", name, &to_name, line);
            }
        }
        s.client.shutdown();
        assert_eq!(check(&desk), (Some(0), "no problems found\n".to_owned()), "{by_folder}");
    }
}

/// A guard or a step naming a tool the skill does not declare: the action
/// adds it to `tools` in the form the list is written in.
#[test]
fn a_tool_is_declared_in_every_form_of_the_list() {
    let route = "routes:\n  - wrap-up: on update_ticket\n---\nReview.\n";
    let flow =
        format!("---\nname: flow\ndescription: A flow list.\ntools: [lookup_order]\n{route}");
    let block = format!(
        "---\nname: block\ndescription: A block list.\ntools:\n  - lookup_order  # first\n{route}"
    );
    let comma = format!(
        "---\nname: comma\ndescription: A comma string.\ntools: lookup_order, issue_refund\n{route}"
    );
    let none = format!("---\nname: none\ndescription: No tools yet.\n{route}");
    let step = "---\nname: step\ndescription: A step.\ntools:\n    - lookup_order\nsteps:\n  - update_ticket: note the refund\n---\nStep.\n";
    let files = [
        ("skills/wrap-up/SKILL.md", WRAP_UP),
        ("skills/flow/SKILL.md", flow.as_str()),
        ("skills/block/SKILL.md", block.as_str()),
        ("skills/comma/SKILL.md", comma.as_str()),
        ("skills/none/SKILL.md", none.as_str()),
        ("skills/step/SKILL.md", step),
    ];
    let (_dir, desk) = project_of(&files, Some(REGISTRY));
    let mut s = Session::start(&desk);
    let title = "add `update_ticket` to the skill's `tools`";
    let guard = "guard-tool-undeclared";
    s.fix(
        "skills/flow/SKILL.md",
        guard,
        "update_ticket",
        title,
        "tools: [lookup_order, update_ticket]",
    );
    s.fix("skills/block/SKILL.md", guard, "update_ticket", title, "  - update_ticket");
    s.fix(
        "skills/comma/SKILL.md",
        guard,
        "update_ticket",
        title,
        "tools: lookup_order, issue_refund, update_ticket",
    );
    s.fix("skills/none/SKILL.md", guard, "update_ticket", title, "tools: [update_ticket]");
    s.fix(
        "skills/step/SKILL.md",
        "step-tool-undeclared",
        "update_ticket",
        title,
        "    - update_ticket",
    );
    s.client.shutdown();
    let block = std::fs::read_to_string(desk.join("root/skills/block/SKILL.md")).unwrap();
    assert!(
        block.contains("tools:\n  - lookup_order  # first\n  - update_ticket\nroutes:"),
        "{block}"
    );
    assert_eq!(check(&desk), (Some(0), "no problems found\n".to_owned()));
}

/// A link whose target has a near miss in its folder, in agentc's skills and
/// in a Claude Code skill: the action links to the file that is there.
#[test]
fn a_broken_link_is_pointed_at_its_near_miss() {
    let body = "See [the fields](references/feilds.md#top) first.\n";
    let runbook = format!("---\nname: review\ndescription: Review a refund.\n---\n{body}");
    let claude = format!("---\nname: deploy\ndescription: Deploys. Use when tagged.\n---\n{body}");
    let files = [
        ("skills/review/SKILL.md", runbook.as_str()),
        ("skills/review/references/fields.md", "# Fields\n"),
        (".claude/skills/deploy/SKILL.md", claude.as_str()),
        (".claude/skills/deploy/references/fields.md", "# Fields\n"),
    ];
    let (_dir, desk) = project_of(&files, None);
    let mut s = Session::start(&desk);
    let line = "See [the fields](references/fields.md#top) first.";
    for file in ["skills/review/SKILL.md", ".claude/skills/deploy/SKILL.md"] {
        s.fix(file, "broken-link", "feilds", "link to `references/fields.md`", line);
    }
    s.client.shutdown();
    assert_eq!(check(&desk), (Some(0), "no problems found\n".to_owned()));
}

/// Every fix of a file at once, asked for by kind (as on save) or offered
/// beside the quick fixes when a file has more than one.
#[test]
fn every_fix_of_a_file_is_applied_at_once() {
    let (_dir, desk) = project("fix-did-you-mean-runbook");
    let mut s = Session::start(&desk);
    let skill = "skills/refund-review/SKILL.md";
    s.diagnostics(skill);
    let start =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } });
    let actions = s.actions(skill, &start, Some(&["source.fixAll"]));
    assert_eq!(titles(&actions), ["apply agentc's 4 fixes in this file"]);
    assert_eq!(actions[0]["kind"], "source.fixAll.agentc");
    // Nothing but quick fixes when only they are asked for.
    let quick = s.actions(skill, &start, Some(&["quickfix"]));
    assert_eq!(titles(&quick), Vec::<&str>::new());
    s.take(&actions, "apply agentc's 4 fixes in this file");
    assert_eq!(s.diagnostics(skill), Vec::<Value>::new());
    // A file with one fix left offers it alone; asked by kind, fix-all too.
    let agent = "escalations/agent.json";
    let d = s.diagnostic(agent, "unknown-field", "descripton");
    assert_eq!(
        titles(&s.actions(agent, &d["range"], None)),
        ["rename `descripton` to `description`"]
    );
    let all = s.actions(agent, &start, Some(&["source"]));
    assert_eq!(titles(&all), ["apply agentc's 1 fix in this file"]);
    let prompt_case = project("fix-did-you-mean-hosts");
    let mut hosts = Session::start(&prompt_case.1);
    let prompt = ".github/prompts/review.prompt.md";
    let d = hosts.diagnostic(prompt, "unknown-route-target", "planer");
    let actions = hosts.actions(prompt, &d["range"], None);
    assert_eq!(
        titles(&actions),
        ["replace `planer` with `planner`", "apply agentc's 2 fixes in this file"]
    );
    hosts.take(&actions, "apply agentc's 2 fixes in this file");
    assert_eq!(hosts.diagnostics(prompt), Vec::<Value>::new());
    hosts.client.shutdown();
    s.client.shutdown();
}
