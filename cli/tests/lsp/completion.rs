//! Issue #26: completion and hover know every dialect agentc reads — keys
//! after a typed prefix, the hosts' catalogues (Claude Code's tools and
//! models, Copilot's tools), the schemas' values, `agentc.toml` and the
//! registry — and a completion answer is filtered by what is typed and
//! capped.

use std::path::Path;

use serde_json::{Value, json};

use crate::client::{Client, doc, url};
use crate::common;

/// A project of every dialect the tests type in, checked clean by `agentc
/// check` but for the patterns of the instructions and the Cursor rule,
/// which match no file.
fn project(root: &Path) {
    let files: &[(&str, &str)] = &[
        (
            "agentc.toml",
            "registry = \"registry.yaml\"\nlayouts = [\"agentc\", \"claude\", \"copilot\", \"claude-plugins\", \"cursor\"]\n\n[lints]\nstray-entry = \"warn\"\n",
        ),
        ("registry.yaml", "# The host's tools.\ntools:\n  - send_email\n"),
        (
            "skills/intake/SKILL.md",
            "---\nname: intake\ndescription: Take a request.\ntools:\n  - lookup\nsteps:\n  - lookup: find it\nonSkip: hold\n---\nTake it.\n",
        ),
        ("tools/lookup/manifest.json", r#"{"description": "Look a customer up."}"#),
        (
            ".claude/agents/rev.md",
            "---\nname: rev\ndescription: Reviews code.\ntools: Read, Grep\nmodel: opus\npermissionMode: plan\n---\nReview.\n",
        ),
        (
            ".claude/commands/ship.md",
            "---\ndescription: Ship it.\nallowed-tools: Bash(git push:*)\n---\nShip.\n",
        ),
        (
            ".claude/skills/fmt/SKILL.md",
            "---\nname: fmt\ndescription: Formats code when asked to.\nallowed-tools: Read\n---\nFormat.\n",
        ),
        (
            ".github/agents/plan.agent.md",
            "---\ndescription: Plans a feature.\ntools: [read, search]\ntarget: vscode\n---\nPlan.\n",
        ),
        (
            ".github/prompts/tests.prompt.md",
            "---\ndescription: Write tests.\ntools: [read]\n---\nWrite tests.\n",
        ),
        (
            ".github/instructions/rust.instructions.md",
            "---\napplyTo: \"**/*.rs\"\n---\nUse rustfmt.\n",
        ),
        (
            ".mcp.json",
            r#"{"mcpServers": {"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"}}}"#,
        ),
        (
            ".cursor/rules/rust.mdc",
            "---\ndescription: Rust style.\nglobs: \"*.rs\"\nalwaysApply: false\n---\nUse rustfmt.\n",
        ),
        (".claude/settings.json", r#"{"permissions": {"allow": ["Read"]}}"#),
        (".vscode/mcp.json", r#"{"servers": {"docs": {"type": "stdio", "command": "docs-mcp"}}}"#),
        (
            ".claude-plugin/marketplace.json",
            r#"{"name": "market", "owner": {"name": "me"}, "plugins": [{"name": "p", "source": "./plugins/p"}]}"#,
        ),
        ("plugins/p/.claude-plugin/plugin.json", r#"{"name": "p", "description": "A plugin."}"#),
        (
            "plugins/p/hooks/hooks.json",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]}]}}"#,
        ),
    ];
    for (path, text) in files {
        common::write(&root.join(path), text);
    }
}

/// The line and character of `offset` in `text` (ASCII here).
fn at(text: &str, offset: usize) -> Value {
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": column })
}

/// An editor typing: each edit replaces `marker` of a file's text with what
/// is typed, and asks at the end of it. Moving to another file closes the
/// one before, so its text on disk counts again.
struct Typing<'c> {
    client: &'c mut Client,
    root: &'c Path,
    version: i64,
    open: Option<String>,
}

impl Typing<'_> {
    fn new<'c>(client: &'c mut Client, root: &'c Path) -> Typing<'c> {
        Typing { client, root, version: 1, open: None }
    }

    /// The completion list after `typed` replaces `marker` in `file`.
    fn complete(&mut self, file: &str, marker: &str, typed: &str) -> Value {
        let path = self.root.join(file);
        let original = std::fs::read_to_string(&path).unwrap();
        let offset = original.find(marker).unwrap_or_else(|| panic!("{marker} in {file}"));
        let text = original.replacen(marker, typed, 1);
        let uri = url(&path);
        if self.open.as_ref() != Some(&uri) {
            self.close();
            self.client.open(&uri, &original);
            self.open = Some(uri.clone());
        }
        self.version += 1;
        self.client.change(&uri, self.version, &text);
        self.client.diagnostics(&uri, Some(self.version));
        self.client.request("textDocument/completion", doc(&uri, at(&text, offset + typed.len())))
    }

    fn close(&mut self) {
        if let Some(uri) = self.open.take() {
            self.client.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
        }
    }

    /// The labels offered after `typed`, in order; the answer is a list that
    /// is complete.
    fn labels(&mut self, file: &str, marker: &str, typed: &str) -> Vec<String> {
        let list = self.complete(file, marker, typed);
        assert_eq!(list["isIncomplete"], false, "{file} after `{typed}`");
        labels(&list)
    }
}

fn labels(list: &Value) -> Vec<String> {
    let items = list["items"].as_array().unwrap_or_else(|| panic!("a completion list: {list}"));
    items.iter().map(|i| i["label"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn completion_in_every_dialect() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    project(&root);
    let mut client = Client::start(&root);
    let mut typing = Typing::new(&mut client, &root);

    // A Claude Code subagent: keys after one letter (those written left out),
    // its tools from Claude Code's catalogue and the project's MCP servers,
    // its model's aliases and ids, its enums.
    let sub = ".claude/agents/rev.md";
    let marker = "permissionMode: plan";
    assert_eq!(typing.labels(sub, marker, "d"), ["disallowedTools"]);
    assert_eq!(typing.labels(sub, marker, "m"), ["maxTurns", "mcpServers", "memory"]);
    assert_eq!(
        typing.labels(sub, "tools: Read, Grep", "tools: Read, We"),
        ["WebFetch", "WebSearch", "WebFetch(domain:…)", "PowerShell"]
    );
    assert_eq!(typing.labels(sub, "tools: Read, Grep", "tools: Read, mcp__")[0], "mcp__github");
    assert_eq!(typing.labels(sub, "tools: Read, Grep", "tools: Bash(gi"), Vec::<String>::new());
    assert_eq!(
        typing.labels(sub, "model: opus", "model: son")[..3],
        ["sonnet", "sonnet[1m]", "claude-sonnet-4-0"]
    );
    assert_eq!(
        typing.labels(sub, marker, "permissionMode: "),
        ["default", "acceptEdits", "auto", "dontAsk", "bypassPermissions", "plan", "manual"]
    );
    assert_eq!(typing.labels(sub, marker, "color: p"), ["purple", "pink"]);
    assert_eq!(typing.labels(sub, marker, "effort: "), ["low", "medium", "high", "xhigh", "max"]);
    assert_eq!(typing.labels(sub, marker, "background: "), ["true", "false"]);
    // A permission rule's snippet.
    let list = typing.complete(sub, "tools: Read, Grep", "tools: Read, Bas");
    let items = list["items"].as_array().unwrap();
    assert_eq!(items[1]["label"], "Bash(…:*)");
    assert_eq!(items[1]["insertTextFormat"], 2);
    assert_eq!(items[1]["textEdit"]["newText"], "Bash(${1:git log}:*)");
    assert_eq!(
        items[1]["textEdit"]["range"],
        json!({ "start": { "line": 3, "character": 13 }, "end": { "line": 3, "character": 16 } })
    );

    // A command: `allowed-tools`, a model, and the skill fields it reads.
    let cmd = ".claude/commands/ship.md";
    let marker = "allowed-tools: Bash(git push:*)";
    assert_eq!(typing.labels(cmd, marker, "allowed-tools: Gr"), ["Grep"]);
    assert_eq!(
        typing.labels(cmd, marker, "model: hai"),
        ["haiku", "claude-haiku-4-5", "claude-haiku-5-5"]
    );
    assert_eq!(typing.labels(cmd, marker, "context: "), ["fork"]);
    assert_eq!(
        typing.labels(cmd, marker, "a"),
        ["allowed-tools", "argument-hint", "arguments", "agent"]
    );

    // A Claude Code skill.
    let skill = ".claude/skills/fmt/SKILL.md";
    let marker = "allowed-tools: Read";
    assert_eq!(
        typing.labels(skill, marker, "allowed-tools: Read Ed"),
        ["Edit", "Edit(…)", "NotebookEdit", "ScheduleWakeup", "SendFeedback"]
    );
    assert_eq!(
        typing.labels(skill, marker, "disallowed-tools: [Web"),
        ["WebFetch", "WebSearch", "WebFetch(domain:…)"]
    );
    assert_eq!(typing.labels(skill, marker, "shell: "), ["bash", "powershell"]);

    // A Copilot agent: its tools (and the VS Code MCP servers), `target`.
    let agent = ".github/agents/plan.agent.md";
    let marker = "tools: [read, search]";
    assert_eq!(
        typing.labels(agent, marker, "tools: [read, ed"),
        ["edit", "editFiles", "Edit", "MultiEdit", "NotebookEdit"]
    );
    assert_eq!(typing.labels(agent, marker, "tools: ['doc"), ["docs/*"]);
    assert_eq!(typing.labels(agent, "target: vscode", "target: "), ["vscode", "github-copilot"]);
    assert_eq!(typing.labels(agent, "target: vscode", "u"), ["user-invocable", "user-invokable"]);

    // A prompt file and an instructions file: their keys and tools.
    let prompt = ".github/prompts/tests.prompt.md";
    assert_eq!(
        typing.labels(prompt, "tools: [read]", "tools: [run"),
        [
            "runCommands",
            "runInTerminal",
            "runNotebooks",
            "runSubagent",
            "runTasks",
            "runTests",
            "runVscodeCommand",
            "createAndRunTask",
        ]
    );
    assert_eq!(typing.labels(prompt, "tools: [read]", "m"), ["mode", "model"]);
    let instructions = ".github/instructions/rust.instructions.md";
    assert_eq!(
        typing.labels(instructions, "applyTo: \"**/*.rs\"", "applyTo: \"**/*.rs\"\ne"),
        ["excludeAgent"]
    );

    // JSON: the plugin manifest's keys, the marketplace's entries, hooks' events.
    let plugin = "plugins/p/.claude-plugin/plugin.json";
    let labels = typing.labels(plugin, r#""description""#, r#""ver"#);
    assert_eq!(labels, ["version", "mcpServers", "lspServers"]);
    let market = ".claude-plugin/marketplace.json";
    let labels =
        typing.labels(market, r#""source": "./plugins/p""#, r#""source": "./plugins/p", "cat"#);
    assert_eq!(labels, ["category"]);
    let hooks = "plugins/p/hooks/hooks.json";
    let labels = typing.labels(hooks, r#""PreToolUse""#, r#""PostTool"#);
    assert_eq!(labels, ["PostToolUse", "PostToolUseFailure", "PostToolBatch"]);

    // A Cursor rule, one of the other assistants' dialects: its keys and values.
    let rule = ".cursor/rules/rust.mdc";
    assert_eq!(typing.labels(rule, "alwaysApply: false", "alwaysApply: t"), ["true"]);
    assert_eq!(typing.labels(rule, "alwaysApply: false", "a"), ["alwaysApply"]);

    // Permission rules in settings, a hook's matcher: Claude Code's tools.
    let settings = ".claude/settings.json";
    assert_eq!(typing.labels(settings, r#"["Read"]"#, r#"["Read", "Gl"#), ["Glob"]);
    let matcher = r#""matcher": "Bash""#;
    assert_eq!(
        typing.labels(hooks, matcher, r#""matcher": "Bash|We"#),
        ["WebFetch", "WebSearch", "PowerShell"]
    );
    // An instructions file's `excludeAgent`: GitHub's agents.
    assert_eq!(
        typing.labels(instructions, "applyTo: \"**/*.rs\"", "applyTo: \"**/*.rs\"\nexcludeAgent: "),
        ["code-review", "coding-agent"]
    );

    // `agentc.toml`: its keys, its layouts, a lint's code and level.
    let toml = "agentc.toml";
    assert_eq!(
        typing.labels(toml, "registry = \"registry.yaml\"", "registry = \"registry.yaml\"\nro"),
        ["root"]
    );
    assert_eq!(typing.labels(toml, "\"copilot\"", "\"copilot\", \"cur"), ["cursor"]);
    assert_eq!(
        typing.labels(toml, "stray-entry = \"warn\"", "stray-entry = \"warn\"\nsecr"),
        ["secret"]
    );
    assert_eq!(
        typing.labels(toml, "stray-entry = \"warn\"", "stray-entry = "),
        ["allow", "warn", "deny"]
    );
    let list = typing.complete(toml, "stray-entry = \"warn\"", "stray-entry = d");
    assert_eq!(list["items"][0]["textEdit"]["newText"], "\"deny\"");

    // The registry's keys.
    assert_eq!(typing.labels("registry.yaml", "tools:", "m"), ["models"]);
    assert_eq!(typing.labels("registry.yaml", "tools:", "tools:\nc"), ["context"]);
    typing.close();
    client.shutdown();
}

/// A long list is capped at 100 items and marked incomplete; what is typed
/// narrows it.
#[test]
fn completion_is_capped_and_filtered() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for i in 0..150 {
        let manifest = format!(r#"{{"description": "Tool {i}."}}"#);
        common::write(&root.join(format!("tools/t{i:03}/manifest.json")), manifest);
    }
    common::write(
        &root.join("skills/a/SKILL.md"),
        "---\nname: a\ndescription: A.\ntools:\n  - t000\n---\nA.\n",
    );
    let mut client = Client::start(&root);
    let mut typing = Typing::new(&mut client, &root);
    let list = typing.complete("skills/a/SKILL.md", "t000", "");
    assert_eq!(list["isIncomplete"], true);
    let all = labels(&list);
    assert_eq!(all.len(), 100);
    assert_eq!((all[0].as_str(), all[99].as_str()), ("t000", "t099"));
    let list = typing.complete("skills/a/SKILL.md", "t000", "t14");
    assert_eq!(list["isIncomplete"], false);
    let expected: Vec<String> = (140..150).map(|i| format!("t{i}")).collect();
    assert_eq!(labels(&list), expected);
    client.shutdown();
}

#[test]
fn hover_on_values_and_keys_in_every_dialect() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    project(&root);
    let mut client = Client::start(&root);
    let mut hover = |file: &str, needle: &str, nth: usize| -> String {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let offset = text.match_indices(needle).nth(nth).unwrap().0 + 1;
        let uri = url(&path);
        let found = client.request("textDocument/hover", doc(&uri, at(&text, offset)));
        found["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("{needle}: {found}"))
            .to_owned()
    };

    // A runbook's enum value: what the schema says it means.
    assert_eq!(
        hover("skills/intake/SKILL.md", "hold", 0),
        "`hold`: Stay on the skipped step.\n\na value of `onSkip`: What happens when a step is skipped: `advance` to the next, or `hold`. Only with `steps`."
    );
    // A subagent's tool, model alias and enum value.
    let read = hover(".claude/agents/rev.md", "Read", 0);
    assert_eq!(
        read,
        "**Claude Code tool** `Read`\n\na tool built into Claude Code; what it does is in Claude Code's tools reference: https://code.claude.com/docs/en/tools-reference"
    );
    assert_eq!(
        hover(".claude/agents/rev.md", "opus", 0),
        "**Claude Code model alias** `opus`: the latest Opus model (Opus 5 on the Anthropic API), for complex reasoning\n\nsee https://code.claude.com/docs/en/model-config"
    );
    assert!(
        hover(".claude/agents/rev.md", "plan", 0).starts_with(
            "`plan`\n\na value of `permissionMode`: How the subagent asks for permission.\n\nvalues: `default`, `acceptEdits`"
        )
    );
    // A command's permission rule names its tool.
    assert!(hover(".claude/commands/ship.md", "Bash", 0).starts_with(
        "**Claude Code tool** `Bash`, in a permission rule: only what its specifier matches"
    ));
    // A Copilot alias, a key of a Copilot agent.
    assert_eq!(
        hover(".github/agents/plan.agent.md", "read", 0),
        "**Copilot tool alias** `read`: reads the contents of files\n\nalso written `Read`, `NotebookRead`; see https://docs.github.com/en/copilot/reference/custom-agents-configuration"
    );
    assert!(
        hover(".github/agents/plan.agent.md", "target", 0).starts_with("**Target** (`target`)")
    );
    assert!(
        hover(".github/prompts/tests.prompt.md", "tools", 0).starts_with("**Tools** (`tools`)")
    );
    assert!(
        hover(".github/instructions/rust.instructions.md", "applyTo", 0)
            .starts_with("**Apply to** (`applyTo`)")
    );
    assert_eq!(
        hover(".claude/settings.json", "Read", 0),
        "**Claude Code tool** `Read`\n\na tool built into Claude Code; what it does is in Claude Code's tools reference: https://code.claude.com/docs/en/tools-reference"
    );
    assert!(
        hover(".cursor/rules/rust.mdc", "alwaysApply", 0)
            .starts_with("**Always apply** (`alwaysApply`)")
    );
    // Keys of the registry, `agentc.toml` and nested JSON.
    assert!(hover("registry.yaml", "tools", 1).starts_with(
        "**Tools** (`tools`)\n\nTools the host implements: each a name, or an object"
    ));
    assert!(hover("agentc.toml", "layouts", 0).starts_with("**Layouts** (`layouts`)"));
    assert!(hover("agentc.toml", "stray-entry", 0).starts_with("**diagnostic** `stray-entry`\n\n"));
    assert_eq!(hover("agentc.toml", "warn", 0), "`warn`: The diagnostic is a warning.");
    // A key inside a marketplace's plugin entry: the entry's schema.
    assert!(
        hover(".claude-plugin/marketplace.json", "source", 0)
            .starts_with("**Source** (`source`) — required\n\nA folder of this repository"),
    );
    client.shutdown();
}
