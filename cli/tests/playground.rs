//! The playground (`playground/`): its check (the `agentc-playground` crate,
//! here natively) reports what `agentc check` reports on the same files
//! written to disk, every field and the printed text alike; and the page, built
//! for WebAssembly by `playground/build.sh` and served over HTTP, does the
//! same in a real browser: Debian's Chromium, headless (`.ci/run` installs
//! it), shows a planted mistake from a link's fragment in its DOM and on a
//! screenshot, and runs every example and case below to the same answers.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;

use agentc_compiler::diagnostic::Counts;
use agentc_compiler::emit;
use agentc_playground::{EXAMPLES, File, MARKER};
use serde_json::{Value, json};

mod common;

fn file(path: &str, text: &str) -> File {
    File { path: path.to_owned(), text: text.to_owned() }
}

/// File sets beside the examples, each for what a path or a column could
/// get wrong between the disk and memory.
fn cases() -> Vec<(&'static str, Vec<File>)> {
    vec![
        ("nothing", vec![]),
        // A layout one folder down: the root is empty, and a folder below suggested.
        (
            "layout-below",
            vec![file("web/.claude/skills/a/SKILL.md", "---\nname: a\ndescription: A.\n---\nA.\n")],
        ),
        (
            // Columns count characters, not bytes; lines end in CRLF.
            "unicode-crlf",
            vec![
                file(
                    ".github/agents/résumé.agent.md",
                    "---\ndescription: Écrit un résumé 🚀\ntools: ['réad', 'serach']\n---\nRésume.\n",
                ),
                file(
                    ".claude/agents/crlf.md",
                    "---\r\nname: crlf\r\ntools: Raed\r\n---\r\nBody.\r\n",
                ),
            ],
        ),
        (
            // A project file with an error stops the compile at it.
            "project-file-error",
            vec![
                file("agentc.toml", "[lints]\nunknown-tol = \"deny\"\n"),
                file(".claude/skills/a/SKILL.md", "---\nname: a\ndescription: A.\n---\nA.\n"),
            ],
        ),
        (
            // A project file that moves the root; a registry with an error.
            "registry-error",
            vec![
                file("agentc.toml", "root = \"agents\"\nregistry = \"registry.yaml\"\n"),
                file("registry.yaml", "tools: [a, a\n"),
                file("agents/skills/a/SKILL.md", "---\nname: a\ndescription: A.\n---\nA.\n"),
            ],
        ),
        (
            // A secret is masked in every field and in the printed text.
            "secret",
            vec![file(
                ".mcp.json",
                "{\"mcpServers\": {\"github\": {\"command\": \"docker\", \"env\": \
                 {\"GITHUB_TOKEN\": \"ghp_FAKEagentcFixtureN0tARealT0ken9x8y7z\"}}}}\n",
            )],
        ),
    ]
}

/// Every example and case, by name.
fn all_sets() -> Vec<(String, Vec<File>)> {
    let examples = EXAMPLES.iter().map(|e| (format!("example {}", e.id), e.files()));
    let cases = cases().into_iter().map(|(name, files)| (format!("case {name}"), files));
    examples.chain(cases).collect()
}

/// The playground's answer for `files`, as the page gets it.
fn playground(files: &[File]) -> Value {
    let request = json!({ "files": files }).to_string();
    serde_json::from_str(&agentc_playground::check_json(request.as_bytes())).unwrap()
}

/// `files` written into a new folder with the playground's marker, as a
/// repository's top holding only them.
fn on_disk(files: &[File]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(MARKER), "").unwrap();
    for file in files {
        let path = dir.path().join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &file.text).unwrap();
    }
    dir
}

#[test]
fn the_playground_reports_what_agentc_check_reports() {
    for (name, files) in all_sets() {
        let answer = playground(&files);
        assert!(answer.get("error").is_none(), "{name}: {answer}");
        let dir = on_disk(&files);

        // `--message-format json`: the diagnostics' fields, then the counts.
        let out = common::agentc(&["check", "--message-format", "json"], dir.path());
        let lines: Vec<Value> = common::text(&out.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        let (summary, diagnostics) = match lines.split_last() {
            Some((last, rest)) if last["type"] == "summary" => (Some(last), rest.to_vec()),
            _ => (None, lines.clone()),
        };
        let shown: Vec<Value> = answer["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let mut d = d.clone();
                let object = d.as_object_mut().unwrap();
                object.remove("rendered");
                object.insert("type".into(), "diagnostic".into());
                d
            })
            .collect();
        assert_eq!(shown, diagnostics, "{name}: the diagnostics differ");
        assert!(!diagnostics.is_empty(), "{name}: nothing to compare");
        if let Some(summary) = summary {
            assert_eq!(summary["errors"], answer["summary"]["errors"], "{name}");
            assert_eq!(summary["warnings"], answer["summary"]["warnings"], "{name}");
        }

        // The text `agentc check` prints: each diagnostic as rendered.
        let out = common::agentc(&["check", "--color", "never"], dir.path());
        let printed = common::text(&out.stderr);
        let rendered: String = (answer["diagnostics"].as_array().unwrap().iter())
            .map(|d| format!("{}\n\n", d["rendered"].as_str().unwrap()))
            .collect();
        assert!(printed.starts_with(&rendered), "{name}:\n{printed}\n---\n{rendered}");
        // Then the counts, and why the run stopped when it did.
        let errors = answer["summary"]["errors"].as_u64().unwrap() as usize;
        let warnings = answer["summary"]["warnings"].as_u64().unwrap() as usize;
        let counts = format!("{}\n", emit::human_summary(Counts { errors, warnings }, false));
        let rest = printed[rendered.len()..].strip_prefix(&counts);
        let stopped = rest.is_some_and(|rest| rest.lines().all(|line| line.starts_with("error: ")));
        assert!(stopped, "{name}: the counts differ:\n{printed}");
    }
}

#[test]
fn the_secret_is_masked() {
    let (_, files) = cases().into_iter().find(|(name, _)| *name == "secret").unwrap();
    let answer = playground(&files).to_string();
    assert!(answer.contains("\"code\":\"secret\""), "{answer}");
    assert!(!answer.contains("FAKEagentc"), "{answer}");
}

// The page in Chromium ------------------------------------------------------------

/// The Chromium to drive: `AGENTC_CHROMIUM`, else `chromium` on `PATH`.
fn chromium() -> Option<PathBuf> {
    let program = std::env::var_os("AGENTC_CHROMIUM").unwrap_or_else(|| "chromium".into());
    let found = Command::new(&program).arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(found || std::env::var_os("CI").is_none(), "Chromium is missing in CI (.ci/run)");
    found.then(|| PathBuf::from(program))
}

/// The site `playground/build.sh` builds, in `dir`.
fn build_site(dir: &Path) -> PathBuf {
    let site = dir.join("site");
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let started = std::time::Instant::now();
    let status = Command::new("bash")
        .arg(workspace.join("playground/build.sh"))
        .arg(&site)
        .status()
        .expect("bash runs playground/build.sh");
    assert!(status.success(), "playground/build.sh failed");
    eprintln!("playground/build.sh took {:.1?}", started.elapsed());
    site
}

/// Serves `site`'s files, and `extra` pages from memory, on a port of
/// 127.0.0.1 until the test ends; its address.
fn serve(site: PathBuf, extra: Vec<(&'static str, String)>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = respond(stream, &site, &extra);
        }
    });
    address
}

fn respond(stream: TcpStream, site: &Path, extra: &[(&str, String)]) -> std::io::Result<()> {
    let mut request = String::new();
    let mut reader = BufReader::new(stream.try_clone()?);
    reader.read_line(&mut request)?;
    // The headers, up to the blank line.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let path = request.split(' ').nth(1).unwrap_or("/").split(['?', '#']).next().unwrap_or("/");
    let name = match path.trim_start_matches('/') {
        "" => "index.html",
        name => name,
    };
    let body = match extra.iter().find(|(page, _)| *page == name) {
        Some((_, text)) => Some(text.clone().into_bytes()),
        None if !name.contains("..") => std::fs::read(site.join(name)).ok(),
        None => None,
    };
    let kind = match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    };
    let mut stream = stream;
    match body {
        Some(body) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            stream.write_all(head.as_bytes())?;
            stream.write_all(&body)?;
        }
        None => stream.write_all(
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        )?,
    }
    stream.flush()
}

/// Runs headless Chromium on `url` with `args`; its standard output.
fn run_chromium(chromium: &Path, profile: &Path, args: &[&str], url: &str) -> String {
    let out = Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
        .args(["--disable-extensions", "--hide-scrollbars", "--window-size=1280,900"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--virtual-time-budget=20000"])
        .args(args)
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {}", common::text(&out.stderr));
    common::text(&out.stdout)
}

/// The fragment the page writes for `files`: their JSON raw-deflated, in base64url.
fn fragment(files: &[File]) -> String {
    let json = json!({ "files": files }).to_string();
    let deflated = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    format!("files={}", base64url(&deflated))
}

fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n =
            chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// The text of an element of a dumped DOM, its character references read.
fn text_of(dom: &str, open: &str) -> Option<String> {
    let start = dom.find(open)? + open.len();
    let end = start + dom[start..].find("</")?;
    let text = &dom[start..end];
    Some(
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&nbsp;", "\u{a0}")
            .replace("&amp;", "&"),
    )
}

/// A page running the module as the playground's does (`agentc.js`) on every
/// example and case, writing the answers into the DOM.
const HARNESS: &str = r#"<!doctype html><meta charset="utf-8"><body><script type="module">
import { Agentc } from "./agentc.js";
const agentc = await Agentc.load("agentc.wasm");
const sets = await (await fetch("sets.json")).json();
const answers = [];
for (const [name, files] of sets) answers.push([name, await agentc.check(files)]);
const out = document.createElement("pre");
out.id = "answers";
out.textContent = JSON.stringify(answers);
document.body.append(out);
</script>"#;

#[test]
fn the_page_shows_a_planted_mistake_in_chromium() {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: Chromium (`chromium`) is not installed");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let site = build_site(dir.path());
    // The page compiles the module on its thread, which Chromium allows up to 8 MB.
    let size = std::fs::metadata(site.join("agentc.wasm")).unwrap().len();
    eprintln!("agentc.wasm: {size} bytes");
    assert!(size < 8 << 20, "agentc.wasm is {size} bytes, over the 8 MB the page compiles at once");
    let sets = all_sets();
    let address =
        serve(site, vec![("harness.html", HARNESS.into()), ("sets.json", json!(sets).to_string())]);
    let profile = dir.path().join("profile");

    // A link to the page whose files hold a mistake: an unknown tool, made
    // an error by the project file.
    let planted = vec![
        file(
            ".claude/skills/deploy/SKILL.md",
            "---\nname: deploy\ndescription: Deploys the service.\nallowed-tools: Read Grpe\n---\nDeploy.\n",
        ),
        file("agentc.toml", "[lints]\nunknown-tool = \"deny\"\n"),
    ];
    let url = format!("{address}/#{}", fragment(&planted));
    let dom = run_chromium(&chromium, &profile, &["--dump-dom"], &url);
    let expected = playground(&planted);
    let [diagnostic] = expected["diagnostics"].as_array().unwrap().as_slice() else {
        panic!("one diagnostic is planted: {expected}");
    };
    assert_eq!(diagnostic["code"], "unknown-tool");
    assert_eq!(diagnostic["severity"], "error");
    let message = diagnostic["message"].as_str().unwrap();
    assert_eq!(message, "`Grpe` is not a Claude Code tool");
    let item = dom
        .find("<li class=\"diagnostic error\"")
        .unwrap_or_else(|| panic!("no error is listed:\n{dom}"));
    let item = &dom[item..item + dom[item..].find("</li>").unwrap()];
    assert!(item.contains(">unknown-tool</a>"), "{item}");
    assert!(item.contains(".claude/skills/deploy/SKILL.md:4:21"), "{item}");
    assert!(item.contains(&format!("<p class=\"message\">{message}</p>")), "{item}");
    assert!(item.contains("help: did you mean `Grep`?"), "{item}");
    assert_eq!(text_of(&dom, "<h2 id=\"summary\">").as_deref(), Some("1 error, 0 warnings"));
    // The mistake is marked in the text, in the error's colour.
    assert!(dom.contains("<mark class=\"error\">Grpe</mark>"), "the mistake is not marked:\n{dom}");

    // The screenshot shows the diagnostics pane with the error in it, and the
    // mark in the text.
    let shot = dir.path().join("page.png");
    run_chromium(&chromium, &profile, &[&format!("--screenshot={}", shot.display())], &url);
    let (width, height, pixels) = decode_png(&shot);
    let error = [0xd1, 0x24, 0x2f];
    let count = |x0: usize, x1: usize| {
        let mut n = 0;
        for y in 0..height {
            for x in x0..x1 {
                let p = &pixels[(y * width + x) * 3..][..3];
                n += usize::from(p.iter().zip(error).all(|(a, b)| a.abs_diff(b) <= 4));
            }
        }
        n
    };
    // The panes split the width 3:2; the diagnostics pane is the right one.
    let split = width * 3 / 5;
    let in_pane = count(split + 2, width);
    let in_text = count(0, split - 2);
    assert!(in_pane >= 400, "the diagnostics pane shows no error ({in_pane} pixels of its colour)");
    assert!(in_text >= 40, "the text shows no mark ({in_text} pixels of the error's colour)");

    // Every example and case, through the module in the browser, answers as
    // natively, which is what `agentc check` answers (the test above).
    let dom =
        run_chromium(&chromium, &profile, &["--dump-dom"], &format!("{address}/harness.html"));
    let answers =
        text_of(&dom, "<pre id=\"answers\">").unwrap_or_else(|| panic!("no answers:\n{dom}"));
    let answers: Vec<(String, Value)> = serde_json::from_str(&answers).unwrap();
    assert_eq!(answers.len(), sets.len());
    for ((name, files), (answered, answer)) in sets.iter().zip(answers) {
        assert_eq!(name, &answered);
        assert_eq!(answer, playground(files), "{name}: the browser's answer differs");
    }
}

/// The RGB pixels of a PNG, row by row.
fn decode_png(path: &Path) -> (usize, usize, Vec<u8>) {
    let mut decoder = png::Decoder::new(BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    let (width, height) = (info.width as usize, info.height as usize);
    let channels = info.color_type.samples();
    let rgb = buffer[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| match channels {
            1 | 2 => [p[0], p[0], p[0]],
            _ => [p[0], p[1], p[2]],
        })
        .collect();
    (width, height, rgb)
}
