//! Hostile inputs, each run through the real binary in both output formats
//! under a memory bound and a watchdog: every one must end with the right exit
//! code and the expected report — no hang, no abort, no flood.
//!
//! The watchdog is a hang detector, not a speed test (speed is measured in the
//! benchmarks): each case takes well under a second in a release build.
//! An unreadable folder cannot be made for root, which CI runs as; that case
//! is `tests/unreadable.rs`, behind the file-system seam.

#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::write;

/// Virtual memory the binary may map (`ulimit -v`, in KiB): a multiple of
/// what any case needs, far below what an unbounded read or expansion takes.
const MEMORY_KIB: u64 = 1024 * 1024;
/// Long enough for a debug build on a loaded 2-core machine.
const WATCHDOG: Duration = Duration::from_secs(120);

struct Case {
    name: &'static str,
    build: fn(&Path),
    /// Arguments after `check <root>`; `{dir}` is the case's folder.
    args: &'static [&'static str],
    exit: i32,
    /// Each code reported, and how many times.
    codes: &'static [(&'static str, usize)],
    /// Text the first diagnostic's message holds.
    says: &'static str,
}

fn skill(root: &Path, frontmatter: &str) {
    write(
        &root.join("skills/a/SKILL.md"),
        format!("---\nname: a\ndescription: Handles a.\n{frontmatter}---\nBody.\n"),
    );
}

fn alias_bomb(root: &Path) {
    let mut yaml = String::from("x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        yaml.push_str(&format!("x{i}: &a{i} [{refs}]\n"));
    }
    skill(root, &yaml);
}

fn deep_flow(root: &Path) {
    skill(root, &format!("metadata: {}{}\n", "[".repeat(10_000), "]".repeat(10_000)));
}

fn deep_block(root: &Path) {
    let mut yaml = String::from("metadata:\n");
    for depth in 1..3_000 {
        yaml.push_str(&format!("{}- \n", " ".repeat(depth)));
    }
    skill(root, &yaml);
}

fn deep_json(root: &Path) {
    let nested = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    write(&root.join("pkg/agent.json"), format!("{{\"name\": \"pkg\", \"x\": {nested}}}"));
}

fn over_size_bound(root: &Path) {
    skill(root, "");
    let file = File::options().append(true).open(root.join("skills/a/SKILL.md")).unwrap();
    file.set_len(17 * 1024 * 1024).unwrap();
}

fn binary(root: &Path) {
    let bytes: Vec<u8> = (0..=255u8).cycle().take(25_600).collect();
    write(&root.join("skills/a/SKILL.md"), bytes);
}

fn nul_in_frontmatter(root: &Path) {
    write(&root.join("skills/a/SKILL.md"), b"---\nname: a\0b\ndescription: d\n---\nBody.\n");
}

fn nul_in_body(root: &Path) {
    write(&root.join("skills/a/SKILL.md"), b"---\nname: a\ndescription: d\n---\nBo\0dy.\n");
}

fn long_line(root: &Path) {
    let tools: Vec<String> = (0..15_000).map(|i| format!("t{i}")).collect();
    skill(root, &format!("tools: [{}]\n", tools.join(", ")));
}

fn symlink_loop(root: &Path) {
    skill(root, "");
    std::os::unix::fs::symlink("loop", root.join("skills/loop")).unwrap();
}

fn symlink_escape(root: &Path) {
    skill(root, "");
    std::os::unix::fs::symlink("/etc", root.join("skills/etc")).unwrap();
}

fn fifo(root: &Path) {
    let folder = root.join("skills/a");
    std::fs::create_dir_all(&folder).unwrap();
    let status = Command::new("mkfifo").arg(folder.join("SKILL.md")).status().unwrap();
    assert!(status.success());
}

fn socket(root: &Path) {
    let folder = root.join("skills/a");
    std::fs::create_dir_all(&folder).unwrap();
    let listener = std::os::unix::net::UnixListener::bind(folder.join("SKILL.md")).unwrap();
    // The socket file stays after the listener closes.
    drop(listener);
}

fn non_utf8_name(root: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::OsStr::from_bytes(b"\xff\xfe");
    write(
        &root.join("skills").join(name).join("SKILL.md"),
        "---\nname: a\ndescription: d\n---\nB\n",
    );
}

fn empty_folders(root: &Path) {
    skill(root, "");
    for i in 0..200_000 {
        std::fs::create_dir(root.join(format!("skills/e{i}"))).unwrap();
    }
}

fn many_routes(root: &Path) {
    let routes: String = (0..100_000).map(|i| format!("  - to: s{i}\n")).collect();
    skill(root, &format!("routes:\n{routes}"));
}

fn subagent(root: &Path, frontmatter: &str) {
    write(
        &root.join(".claude/agents/a.md"),
        format!("---\nname: a\ndescription: Handles a.\n{frontmatter}---\nBody.\n"),
    );
}

/// A run of 400,000 backticks: matched as Gemini CLI's regex does by
/// trying each shorter opening against the rest, quadratic (176 s).
fn gemini_backtick_run(root: &Path) {
    subagent(root, "");
    write(&root.join("GEMINI.md"), format!("{}\n@missing.md\n", "`".repeat(400_000)));
}

/// 4,000 unknown MCP servers named beside 4,000 configured ones: each
/// compared with every other, quadratic (several minutes).
fn many_mcp_servers(root: &Path) {
    let servers: Vec<String> =
        (0..4_000).map(|i| format!("\"server-{i:05}\": {{\"command\": \"x\"}}")).collect();
    write(&root.join(".mcp.json"), format!("{{\"mcpServers\": {{{}}}}}", servers.join(", ")));
    let tools: String = (0..4_000).map(|i| format!("  - mcp__srvmiss{i:05}x__t\n")).collect();
    subagent(root, &format!("tools:\n{tools}"));
}

/// 5,000 globs that match nothing against 20,000 files: each glob tried
/// against each file, quadratic (189 s). Matching stops at its bound, and
/// one warning says where.
fn many_globs(root: &Path) {
    for i in 0..20_000 {
        write(&root.join(format!("src/d{}/f{i}.ts", i % 100)), "x");
    }
    let globs: Vec<String> = (0..5_000).map(|i| format!("**/x{i}/*.ts")).collect();
    write(
        &root.join(".cursor/rules/r.mdc"),
        format!(
            "---\ndescription: x\nglobs: \"{}\"\nalwaysApply: false\n---\nBody.\n",
            globs.join(", ")
        ),
    );
}

/// One import line written 30,000 times (360 KB), to a hub importing 199
/// files that each import 199 more: each line was followed with a walk of
/// its own, 200 files read each time (about 175 s).
fn one_hub_imported_30000_times(root: &Path) {
    subagent(root, "");
    let hub: String = (1..200).map(|i| format!("@f{i}.md\n")).collect();
    write(&root.join("mem/hub.md"), hub);
    let leaves: String = (1..200).map(|j| format!("@g{j}.md\n")).collect();
    for i in 1..200 {
        write(&root.join(format!("mem/f{i}.md")), &leaves);
    }
    write(&root.join("CLAUDE.md"), "@mem/hub.md\n".repeat(30_000));
}

/// 100 memory files, each importing a file of 20,000 imports: 2,000,000
/// imports to follow, past the bound; one warning says where it stopped.
fn imports_past_the_bound(root: &Path) {
    subagent(root, "");
    let many: String = (0..20_000).map(|j| format!("@x{j}.md\n")).collect();
    for i in 0..100 {
        write(&root.join(format!("mem/big{i:03}.md")), &many);
        write(&root.join(format!("d{i:03}/CLAUDE.md")), format!("@../mem/big{i:03}.md\n"));
    }
}

/// Folder links inside `.claude/agents`: ten links to a folder of ten
/// links, four levels down to ten subagents, read through every path
/// (100,000 subagents, past the memory bound); each folder is read once.
fn folder_links_four_levels(root: &Path) {
    let agents = root.join(".claude/agents");
    for i in 0..10 {
        let text = format!("---\nname: a{i}\ndescription: Handles a{i}.\n---\nBody.\n");
        write(&agents.join(format!("base/a{i}.md")), text);
    }
    let levels = ["base", "l1", "l2", "l3"];
    for pair in levels.windows(2) {
        std::fs::create_dir_all(agents.join(pair[1])).unwrap();
        for i in 0..10 {
            std::os::unix::fs::symlink(
                format!("../{}", pair[0]),
                agents.join(pair[1]).join(format!("{}-{i}", pair[0])),
            )
            .unwrap();
        }
    }
    for i in 0..10 {
        std::os::unix::fs::symlink("l3", agents.join(format!("top-{i}"))).unwrap();
    }
}

/// A plugin manifest listing its agents' folder 400 times over 1,000
/// subagents: each entry walked and kept again (35 s, 1.85 GB).
fn plugin_lists_its_agents_400_times(root: &Path) {
    for i in 0..1_000 {
        let text = format!("---\nname: s{i}\ndescription: Handles s{i}.\n---\nBody.\n");
        write(&root.join(format!("p/a/s{i}.md")), text);
    }
    let agents = vec!["./a"; 400];
    let manifest = serde_json::json!({ "name": "p", "agents": agents });
    write(&root.join("p/.claude-plugin/plugin.json"), manifest.to_string());
}

/// 300 plugins whose `agents` folder is a link to one folder of 300
/// subagents: 90,000 subagents from 600 entries (24.7 s, 572 MB). Copies
/// past the bound are left out with one warning.
fn plugins_share_one_agents_folder(root: &Path) {
    for i in 0..300 {
        let text = format!("---\nname: s{i}\ndescription: Handles s{i}.\n---\nBody.\n");
        write(&root.join(format!("shared/s{i}.md")), text);
    }
    for i in 0..300 {
        let manifest = serde_json::json!({ "name": format!("p{i}") });
        write(&root.join(format!("p{i}/.claude-plugin/plugin.json")), manifest.to_string());
        #[cfg(unix)]
        std::os::unix::fs::symlink("../shared", root.join(format!("p{i}/agents"))).unwrap();
    }
}

/// 100,000 repeated keys in one `.mcp.json`: one diagnostic each (92 s,
/// 270 MB at 200,000); 64 are reported and one more counts the rest.
fn repeated_keys(root: &Path) {
    subagent(root, "");
    let servers = vec!["\"a\": {\"command\": \"x\"}"; 100_000];
    write(&root.join(".mcp.json"), format!("{{\"mcpServers\": {{{}}}}}", servers.join(", ")));
}

/// 10,000 links to files that do not exist in one memory file.
fn broken_links(root: &Path) {
    subagent(root, "");
    let links: String = (0..10_000).map(|i| format!("[x](missing{i}.md)\n")).collect();
    write(&root.join("CLAUDE.md"), links);
}

fn sparse_registry(root: &Path) {
    skill(root, "");
    let file = File::create(root.join("../registry.txt")).unwrap();
    file.set_len(1 << 40).unwrap();
}

const CASES: &[Case] = &[
    Case {
        name: "100000-repeated-keys",
        build: repeated_keys,
        args: &[],
        exit: 1,
        codes: &[("duplicate-key", 65)],
        says: "the key `a` appears twice",
    },
    Case {
        name: "10000-broken-links",
        build: broken_links,
        args: &[],
        // Claude Code loads a memory file whatever its links: warnings.
        exit: 0,
        codes: &[("broken-link", 65), ("context-budget", 1)],
        says: "the link `missing0.md` names a file that does not exist",
    },
    Case {
        name: "folder-links-four-levels",
        build: folder_links_four_levels,
        args: &[],
        exit: 0,
        codes: &[("stray-entry", 40)],
        says: "is not part of the layout; its contents are not read",
    },
    Case {
        name: "plugin-lists-its-agents-400-times",
        build: plugin_lists_its_agents_400_times,
        args: &[],
        // Claude Code refuses an agents path that is a folder: each entry is
        // one error at its place, and the folder is walked once.
        exit: 1,
        codes: &[("invalid-value", 400)],
        says: "Claude Code 2.1.332 does not load this plugin: the agent path `./a` does not name a `.md` file",
    },
    Case {
        name: "plugins-share-one-agents-folder",
        build: plugins_share_one_agents_folder,
        args: &[],
        exit: 0,
        // The copies left out, and the shared folder at the top, which no
        // host reads as it is.
        codes: &[("stray-entry", 2)],
        says: "more are copies of files already read (reached through links), past the 5000",
    },
    Case {
        name: "one-hub-imported-30000-times",
        build: one_hub_imported_30000_times,
        args: &[],
        exit: 0,
        // 360 KB of CLAUDE.md is past what Claude Code advises loading.
        codes: &[("context-budget", 1)],
        says: "",
    },
    Case {
        name: "imports-past-the-bound",
        build: imports_past_the_bound,
        args: &[],
        exit: 0,
        codes: &[("import-chain", 1)],
        says: "agentc stopped following imports here, after 1000000: the chains of this import \
               and of those after it are not checked for loops or depth",
    },
    Case {
        name: "gemini-backtick-run",
        build: gemini_backtick_run,
        args: &[],
        exit: 0,
        codes: &[("unclosed-markup", 1), ("broken-link", 1)],
        says: "this code fence is never closed",
    },
    Case {
        name: "4000-unknown-mcp-servers",
        build: many_mcp_servers,
        // Servers with no near miss are pedantic: asked for, so every one is compared.
        args: &["--pedantic"],
        exit: 0,
        codes: &[("unknown-mcp-server", 4_000)],
        says: "the MCP server `srvmiss00000x` is not configured in this project",
    },
    Case {
        name: "5000-globs-20000-files",
        build: many_globs,
        args: &[],
        exit: 0,
        // Each glob is tried as itself and as a folder against the 20,001
        // files (the rule is one): 49 are looked up in the 2,000,000 tests,
        // and the 50th is told the matching stopped; the rule's 49 unmatched
        // globs are one warning, the others its labels.
        codes: &[("unmatched-glob", 2)],
        says: "the glob `**/x0/*.ts` and 48 others of this rule match no file in the repository",
    },
    Case {
        name: "alias-bomb",
        build: alias_bomb,
        args: &[],
        exit: 1,
        codes: &[("yaml-syntax", 1)],
        says: "aliases expand the document",
    },
    Case {
        name: "10000-deep-flow",
        build: deep_flow,
        args: &[],
        exit: 1,
        codes: &[("yaml-syntax", 1)],
        says: "nest deeper than 128 levels",
    },
    Case {
        name: "3000-deep-block",
        build: deep_block,
        args: &[],
        exit: 1,
        codes: &[("yaml-syntax", 1)],
        says: "nest deeper than 128 levels",
    },
    Case {
        name: "10000-deep-json",
        build: deep_json,
        args: &[],
        exit: 1,
        codes: &[("json-syntax", 1)],
        says: "nest deeper than 128 levels",
    },
    Case {
        name: "over-the-size-bound",
        build: over_size_bound,
        args: &[],
        exit: 1,
        codes: &[("file-too-large", 1)],
        says: "over the bound of 16777216 bytes",
    },
    Case {
        name: "binary-skill",
        build: binary,
        args: &[],
        exit: 1,
        codes: &[("not-utf8", 1)],
        says: "not valid UTF-8",
    },
    Case {
        name: "nul-in-frontmatter",
        build: nul_in_frontmatter,
        args: &[],
        exit: 1,
        codes: &[("yaml-syntax", 1)],
        says: "unprintable character",
    },
    Case { name: "nul-in-body", build: nul_in_body, args: &[], exit: 0, codes: &[], says: "" },
    Case {
        name: "long-line-15000-diagnostics",
        build: long_line,
        args: &[],
        exit: 1,
        codes: &[("unknown-tool", 15_000)],
        says: "unknown tool `t0`",
    },
    Case {
        name: "symlink-loop",
        build: symlink_loop,
        args: &[],
        exit: 1,
        codes: &[("symlink-loop", 1)],
        says: "leads back to itself",
    },
    Case {
        name: "symlink-escape",
        build: symlink_escape,
        args: &[],
        exit: 1,
        codes: &[("path-escape", 1)],
        says: "leads outside the agents directory",
    },
    Case {
        name: "fifo",
        build: fifo,
        args: &[],
        exit: 1,
        codes: &[("special-file", 1)],
        says: "is a FIFO",
    },
    Case {
        name: "socket",
        build: socket,
        args: &[],
        exit: 1,
        codes: &[("special-file", 1)],
        says: "is a socket",
    },
    Case {
        name: "non-utf8-name",
        build: non_utf8_name,
        args: &[],
        exit: 1,
        codes: &[("bad-name", 1)],
        says: "is not valid UTF-8",
    },
    Case {
        name: "200000-empty-folders",
        build: empty_folders,
        args: &[],
        exit: 0,
        codes: &[("stray-entry", 21)],
        says: "199980 more entries in this folder",
    },
    Case {
        name: "100000-routes",
        build: many_routes,
        args: &[],
        exit: 1,
        codes: &[("yaml-syntax", 1)],
        says: "more than 100000 values",
    },
    Case {
        name: "1-tib-sparse-registry",
        build: sparse_registry,
        args: &["--registry", "{dir}/registry.txt"],
        exit: 2,
        codes: &[("file-too-large", 1)],
        says: "the file is 1099511627776 bytes",
    },
];

/// Runs `agentc check` on `root` under the memory bound and the watchdog;
/// the exit code and what it wrote to stdout and stderr.
fn run(case: &Case, dir: &Path, root: &Path, json: bool) -> (i32, String, String) {
    let out = dir.join(format!("out-{json}"));
    let err = dir.join(format!("err-{json}"));
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_agentc"))
        .arg("check")
        .arg(root)
        .args(case.args.iter().map(|a| a.replace("{dir}", &dir.to_string_lossy())))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(File::create(&out).unwrap())
        .stderr(File::create(&err).unwrap());
    if json {
        command.args(["--message-format", "json"]);
    }
    let mut child = command.spawn().unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > WATCHDOG {
            let _ = child.kill();
            panic!("{}: still running after {WATCHDOG:?}", case.name);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |path: &Path| String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let code = status.code().unwrap_or_else(|| panic!("{}: ended by {status}", case.name));
    (code, read(&out), read(&err))
}

#[test]
fn hostile_inputs_end_quickly_with_one_clear_report() {
    for case in CASES {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("agents");
        std::fs::create_dir(&root).unwrap();
        (case.build)(&root);

        let (exit, stdout, stderr) = run(case, dir.path(), &root, true);
        assert_eq!(exit, case.exit, "{}: exit code; stderr: {stderr}", case.name);
        let mut codes: BTreeMap<String, usize> = BTreeMap::new();
        let mut first_message = None;
        for line in stdout.lines() {
            let record: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{}: not JSON ({e}): {line}", case.name));
            if record["type"] == "diagnostic" {
                *codes.entry(record["code"].as_str().unwrap().to_owned()).or_default() += 1;
                first_message.get_or_insert_with(|| record["message"].to_string());
            }
        }
        let expected: BTreeMap<String, usize> =
            case.codes.iter().map(|(code, n)| ((*code).to_owned(), *n)).collect();
        assert_eq!(codes, expected, "{}: the report", case.name);
        let first_message = first_message.unwrap_or_default();
        assert!(first_message.contains(case.says), "{}: {first_message}", case.name);

        let (exit, _, stderr) = run(case, dir.path(), &root, false);
        assert_eq!(exit, case.exit, "{}: exit code of the human report", case.name);
        let rendered =
            stderr.lines().filter(|l| l.starts_with("error[") || l.starts_with("warning[")).count();
        assert_eq!(rendered, case.codes.iter().map(|(_, n)| n).sum::<usize>(), "{}", case.name);
    }
}

/// Names and paths holding control characters (`common::control_names`)
/// reach no report raw: the human report shows them as `\u{1b}`, JSON and
/// SARIF as `\u` escapes — C1 and DEL too, which serde_json alone writes
/// raw — so the same value reads back. (GitHub annotations and the graphs
/// are checked with the tools that read them, in `github.rs` and `graph.rs`.)
#[test]
fn control_characters_are_escaped_in_every_report() {
    let dir = common::control_names();
    let raw = |out: &str| out.chars().any(|c| c.is_control() && c != '\n');
    let out = common::agentc(&["check"], dir.path());
    let human = common::text(&out.stderr);
    assert_eq!(
        human,
        "warning[bad-name]: the subagent name \
         `S1\\u{1b}]0;TITLE\\u{7}\\u{1b}[2J\\t\\u{9b}\\u{7f}` is not lowercase letters, digits \
         and hyphens\n --> .claude/agents/review/reviewer.md:2:7\n  |\n\
         2 | name: \"S1\\e]0;TITLE\\a\\e[2J\\t\\u009b\\x7f\"\n  \
         |       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n  |\n  = help: Claude Code's documentation \
         asks for lowercase letters and hyphens, e.g. `s1-0-title-2j`; Claude Code loads this \
         subagent all the same\n\n\
         error[unknown-route-target]: the handoff leads to \
         `S1\\u{1b}]0;TITLE\\u{7}\\u{1b}[2J\\t\\u{9b}\\u{7f}`, which is not a Copilot agent of this \
         project\n --> .github/agents/pl\\u{1b}[2Jan.agent.md:5:12\n  |\n\
         5 |     agent: \"S1\\e]0;TITLE\\a\\e[2J\\t\\u009b\\x7f\"\n  \
         |            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n  |\n  = help: an agent is named by \
         its `name`, or by its file (`<name>.agent.md`) when it has none; the agents here are \
         `pl\\u{1b}[2Jan`\n\n\
         error: could not compile due to 1 error; 1 warning emitted\n"
    );
    let name = "S1\u{1b}]0;TITLE\u{7}\u{1b}[2J\t\u{9b}\u{7f}";
    let message =
        format!("the handoff leads to `{name}`, which is not a Copilot agent of this project");

    let out = common::agentc(&["check", "--message-format", "json"], dir.path());
    let json = common::text(&out.stdout);
    assert!(!raw(&json), "{json:?}");
    let route = json.lines().find(|l| l.contains("unknown-route-target")).unwrap_or_default();
    assert!(
        route.starts_with(
            "{\"type\":\"diagnostic\",\"code\":\"unknown-route-target\",\"severity\":\"error\",\
             \"message\":\"the handoff leads to `S1\\u001b]0;TITLE\\u0007\\u001b[2J\\t\\u009b\\u007f`, \
             which is not a Copilot agent of this project\",\"file\":\".github/agents/pl\\u001b[2Jan.agent.md\","
        ),
        "{json}"
    );
    let first: serde_json::Value = serde_json::from_str(route).unwrap();
    assert_eq!(first["message"], message.as_str());

    let out = common::agentc(&["check", "--message-format", "sarif"], dir.path());
    let sarif = common::text(&out.stdout);
    assert!(!raw(&sarif), "{sarif:?}");
    let log: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let result = results.iter().find(|r| r["ruleId"] == "unknown-route-target").unwrap();
    assert_eq!(
        result["message"]["text"],
        format!(
            "{message}\n\nan agent is named by its `name`, or by its file (`<name>.agent.md`) when it has none; the agents here are `pl\u{1b}[2Jan`"
        )
    );
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        ".github/agents/pl%1B%5B2Jan.agent.md"
    );
}

/// The other lines agentc writes that name what the repository holds: the
/// layouts `check -v` found, the changes `lock --check` lists, and a code
/// `explain` does not know.
#[test]
fn control_characters_are_escaped_in_every_other_line() {
    let dir = tempfile::tempdir().unwrap();
    // The lockfile is written beside the root, inside the temporary folder.
    let root = dir.path().join("p");
    let subagent = |name: &str| format!("---\nname: {name}\ndescription: Reviews.\n---\nReview.\n");
    write(&root.join(".claude/agents/a.md"), subagent("a"));
    let out = common::agentc(&["lock", "p"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    write(&root.join(".claude/agents/b.md"), subagent(r#""b\e[2J\u009b""#));
    let out = common::agentc(&["lock", "p", "--check"], dir.path());
    let stderr = common::text(&out.stderr);
    assert!(stderr.contains("\n  assistants added: b\\u{1b}[2J\\u{9b}\n"), "{stderr}");

    write(&root.join("s\u{1b}[2J/SKILL.md"), "---\nname: s\ndescription: S.\n---\nS.\n");
    let out = common::agentc(&["check", "p", "-v"], dir.path());
    let stderr = common::text(&out.stderr);
    assert!(stderr.contains("\nfound agent-skills   in p/s\\u{1b}[2J/\n"), "{stderr}");

    let out = common::agentc(&["explain", "bad-\u{1b}[2J\u{9b}"], dir.path());
    assert_eq!(
        common::text(&out.stderr),
        "error: `bad-\\u{1b}[2J\\u{9b}` is not a diagnostic code; `agentc explain --list` lists them all\n"
    );
    for out in [&stderr, &common::text(&out.stderr)] {
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
    }
}

/// A glob too long for globset (`common::long_globs`), in each host field
/// that holds globs: one warning at the glob, not a panic. VS Code applies
/// such a glob, so it is no error there either.
#[test]
fn a_long_glob_is_a_warning_at_its_place_in_every_host() {
    let dir = tempfile::tempdir().unwrap();
    let files = common::long_globs(dir.path());
    let out = common::agentc(&["check", ".", "--message-format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    let found: Vec<(String, String, String, String, u64, u64, u64)> = common::text(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|record| record["type"] == "diagnostic")
        .map(|d| {
            let text = |k: &str| d[k].as_str().unwrap().to_owned();
            let number = |k: &str| d[k].as_u64().unwrap();
            (
                text("file"),
                text("code"),
                text("severity"),
                text("message"),
                number("line"),
                number("column"),
                number("end_column"),
            )
        })
        .collect();
    let mut expected: Vec<_> = files
        .iter()
        .map(|&(path, line, column)| {
            (
                path.to_owned(),
                "invalid-value".to_owned(),
                "warning".to_owned(),
                "the glob is not read: it is 100000 bytes long, and agentc reads globs of at most 4096"
                    .to_owned(),
                line as u64,
                column as u64,
                (column + common::LONG_GLOB_STARS) as u64,
            )
        })
        .collect();
    expected.sort();
    assert_eq!(found, expected);
}
