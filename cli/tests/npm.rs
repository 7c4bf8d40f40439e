//! agentc's npm packages as a user gets them: `packaging/npm/build.mjs` packs
//! this build's binary, npm installs the two tarballs into a fresh folder (from
//! the files, offline), and then `npx agentc` must behave as the binary does —
//! output, exit codes, signals — and the Node API, type-checked with `tsc
//! --strict` against its generated types, must return what `--message-format
//! json` prints, byte for byte, for every fixture in `tests/fixtures`. The
//! lockfile loader, with the binary's package removed, must load and verify
//! what agentc writes (docs/lockfile.md) and refuse what was tampered with,
//! and the names `agentc lock --emit-dts` writes must make a misspelt one a
//! `tsc` error.
//!
//! One test, because installing is what costs: the steps share one install.
//! node, npm, json-schema-to-typescript (`packaging/npm`) and TypeScript
//! (`cli/tests/npm`) come from `.ci/run`; without them the test is skipped.
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};

use common::text;
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_agentc");
const VERSION: &str = env!("CARGO_PKG_VERSION");

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("cli/ is in the repository").into()
}

/// This machine's platform, as packaging/npm/build.mjs names them.
fn platform() -> Option<&'static str> {
    match (std::env::consts::OS, std::env::consts::ARCH, cfg!(target_env = "musl")) {
        ("linux", "x86_64", false) => Some("linux-x64"),
        ("linux", "x86_64", true) => Some("linux-x64-musl"),
        ("linux", "aarch64", false) => Some("linux-arm64"),
        ("macos", "x86_64", _) => Some("darwin-x64"),
        ("macos", "aarch64", _) => Some("darwin-arm64"),
        _ => None,
    }
}

fn run(program: impl AsRef<std::ffi::OsStr>, args: &[&str], cwd: &Path) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("the program runs")
}

fn ok(out: &Output, what: &str) {
    assert!(out.status.success(), "{what} failed:\n{}\n{}", text(&out.stdout), text(&out.stderr));
}

#[test]
fn the_npm_packages_run_agentc_as_the_binary_does() {
    let Some(tsc) = common::node_harness("npm", "typescript") else {
        eprintln!("skipped: node or TypeScript is not installed (cd cli/tests/npm && npm ci)");
        return;
    };
    let packaging = repository().join("packaging/npm");
    let generator = packaging.join("node_modules/json-schema-to-typescript").is_dir();
    assert!(
        generator || std::env::var_os("CI").is_none(),
        "json-schema-to-typescript is missing in CI"
    );
    if !generator || !common::installed("npm", "--version", "npm") {
        eprintln!(
            "skipped: npm or json-schema-to-typescript is not installed (cd packaging/npm && npm ci)"
        );
        return;
    }
    let Some(platform) = platform() else {
        eprintln!("skipped: no npm package is built for this platform");
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("out");
    let project = temp.path().join("project");
    std::fs::create_dir_all(&project).unwrap();

    // Packed, as the release packs them.
    let built = run(
        "node",
        &[
            packaging.join("build.mjs").to_str().unwrap(),
            "--binary",
            BINARY,
            "--platform",
            platform,
            "--out",
            out.to_str().unwrap(),
        ],
        temp.path(),
    );
    ok(&built, "build.mjs");
    let tarballs: Vec<String> = text(&built.stdout).lines().map(str::to_owned).collect();
    assert_eq!(
        tarballs,
        [
            out.join(format!("agentc-rs-{platform}-{VERSION}.tgz")).display().to_string(),
            out.join(format!("agentc-rs-{VERSION}.tgz")).display().to_string(),
        ]
    );
    manifests_declare_every_platform(&out, platform);

    // Installed from the files, never the registry.
    std::fs::write(project.join("package.json"), "{ \"private\": true }\n").unwrap();
    let mut install = vec!["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"];
    install.extend(tarballs.iter().map(String::as_str));
    ok(&run("npm", &install, &project), "npm install");
    // The unpacked copies are no longer needed; the disk is.
    std::fs::remove_dir_all(&out).unwrap();

    npx_runs_as_the_binary(&project);
    signals_reach_the_binary(&project);
    names_are_emitted_for_the_example(&project, temp.path());
    the_programs_type_check(&project, &tsc);
    the_api_returns_what_the_cli_prints(&project);
    a_missing_binary_says_what_to_install(&project, platform);
    the_loader_verifies_lockfiles_without_the_binary(&project, temp.path(), platform);
}

/// The package.json files the release publishes.
fn manifests_declare_every_platform(out: &Path, platform: &str) {
    let read = |dir: &str| -> Value {
        serde_json::from_slice(&std::fs::read(out.join(dir).join("package.json")).unwrap()).unwrap()
    };
    let native = read(&format!("cli-{platform}"));
    assert_eq!(native["name"], format!("agentc-rs-{platform}"));
    assert_eq!(native["version"], VERSION);
    if platform == "linux-x64" {
        assert_eq!(
            (&native["os"], &native["cpu"], &native["libc"]),
            (&json!(["linux"]), &json!(["x64"]), &json!(["glibc"]))
        );
    }
    let main = read("agentc");
    assert_eq!(main["version"], VERSION);
    assert_eq!(main["bin"], json!({ "agentc": "bin/agentc.js" }));
    let platforms =
        ["linux-x64", "linux-arm64", "linux-x64-musl", "darwin-x64", "darwin-arm64", "win32-x64"];
    let expected: serde_json::Map<String, Value> =
        platforms.iter().map(|p| (format!("agentc-rs-{p}"), json!(VERSION))).collect();
    assert_eq!(main["optionalDependencies"], Value::Object(expected));
}

/// `npx agentc` and the binary, each run with `args` in `project`: the same
/// exit code, stdout and stderr.
fn npx_runs_as_the_binary(project: &Path) {
    let repository = repository();
    let example = repository.join("examples/support-desk");
    let case = repository.join("tests/fixtures/code-bad-guard");
    let root = case.join("root");
    let registry = case.join("registry.yaml");
    // Each with the exit code the binary gives it: clean, errors, JSON, and
    // a flag the launcher must not take for its own.
    let runs: [(&[&str], i32); 4] = [
        (&["check", example.to_str().unwrap()], 0),
        (&["check", root.to_str().unwrap(), "--registry", registry.to_str().unwrap()], 1),
        (&["check", root.to_str().unwrap(), "--message-format", "json"], 1),
        (&["--version"], 0),
    ];
    for (args, code) in runs {
        let mut npx = vec!["--offline", "--no", "--", "agentc"];
        npx.extend(args);
        let through_npm = run("npx", &npx, project);
        let direct = run(BINARY, args, project);
        assert_eq!(direct.status.code(), Some(code), "{args:?}");
        assert_eq!(through_npm.status.code(), Some(code), "{args:?}");
        assert_eq!(text(&through_npm.stdout), text(&direct.stdout), "{args:?}");
        assert_eq!(text(&through_npm.stderr), text(&direct.stderr), "{args:?}");
        assert!(!direct.stdout.is_empty() || !direct.stderr.is_empty(), "{args:?}");
    }
}

/// How a watching run ends on SIGTERM, started as `program`.
fn watch_then_terminate(program: &Path, project: &Path) -> ExitStatus {
    let example = repository().join("examples/support-desk");
    let mut child = Command::new(program)
        .args(["check", example.to_str().unwrap(), "--watch"])
        .current_dir(project)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("[watching") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the watch ended early");
    }
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    child.wait().unwrap()
}

/// A SIGTERM sent to the launcher ends the binary as it would end it run directly.
fn signals_reach_the_binary(project: &Path) {
    let launcher = project.join("node_modules/.bin/agentc");
    let direct = watch_then_terminate(Path::new(BINARY), project);
    let through_launcher = watch_then_terminate(&launcher, project);
    assert!(!direct.success(), "{direct:?}");
    assert_eq!(
        (through_launcher.code(), std::os::unix::process::ExitStatusExt::signal(&through_launcher)),
        (direct.code(), std::os::unix::process::ExitStatusExt::signal(&direct))
    );
}

/// The options of the API that say what `case_args` says on the command line.
fn options(args: &[String]) -> Value {
    let mut options = serde_json::Map::new();
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let mut value = || args.next().expect("a flag's value").clone();
        let (key, value) = match flag.as_str() {
            "--workspace" => ("workspace", json!(value())),
            "--registry" => ("registry", json!(value())),
            "--deny-warnings" => ("denyWarnings", json!(true)),
            "--pedantic" => ("pedantic", json!(true)),
            "--max-file-size" => ("maxFileSize", json!(value().parse::<u64>().unwrap())),
            "--exclude" | "--layout" => {
                let value = value();
                let list = options.entry(&flag[2..]).or_insert_with(|| json!([]));
                list.as_array_mut().unwrap().push(json!(value));
                continue;
            }
            other => panic!("a case argument the API test does not map: {other}"),
        };
        options.insert(key.into(), value);
    }
    Value::Object(options)
}

/// What `agentc check ARGS --message-format json` prints for each ARGS: run
/// in this process through `agentc_cli::run`, the function the binary's
/// `main` calls (a process each, twice over, would double the test's time).
fn json_lines(cases: &[Vec<String>]) -> Vec<String> {
    (cases.iter())
        .map(|args| {
            let mut all: Vec<&str> = vec!["agentc", "check"];
            all.extend(args.iter().map(String::as_str));
            all.extend(["--message-format", "json"]);
            let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
            let mut io = agentc_cli::Io {
                stdout: &mut stdout,
                stderr: &mut stderr,
                color: false,
                progress: false,
            };
            agentc_cli::run(all, &mut io);
            text(&stdout)
        })
        .collect()
}

/// `agentc lock --emit-dts` for the example, run as the binary's `main`
/// runs it: the lockfile it writes beside is the committed one, and the
/// names are the example's.
fn names_are_emitted_for_the_example(project: &Path, temp: &Path) {
    let example = repository().join("examples/support-desk");
    let (lockfile, names) = (temp.join("desk.lock"), project.join("agentc-names.d.ts"));
    let args = [
        "agentc",
        "lock",
        example.to_str().unwrap(),
        "-o",
        lockfile.to_str().unwrap(),
        "--emit-dts",
        names.to_str().unwrap(),
    ];
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut io =
        agentc_cli::Io { stdout: &mut stdout, stderr: &mut stderr, color: false, progress: false };
    assert_eq!(agentc_cli::run(args, &mut io), 0, "{}", text(&stderr));
    assert_eq!(
        std::fs::read(&lockfile).unwrap(),
        std::fs::read(example.join("agentc.lock")).unwrap()
    );
    let names = std::fs::read_to_string(names).unwrap();
    assert!(
        names.contains(
            "export type AgentName =\n  | \"billing\"\n  | \"escalations\"\n  | \"triage\";\n"
        ),
        "{names}"
    );
}

/// The Node programs in cli/tests/npm, type-checked against the installed
/// package in one compile (each compile costs seconds): the programs must
/// type-check clean, and every error must be one the types were made to
/// refuse — they are types, not `any`. The programs are emitted all the same,
/// to be run.
fn the_programs_type_check(project: &Path, tsc_dir: &Path) {
    let programs = ["api.mts", "wrong.mts", "lockfile.mts", "names-wrong.mts"];
    for file in programs {
        std::fs::copy(tsc_dir.join(file), project.join(file)).unwrap();
    }
    let tsc = tsc_dir.join("node_modules/typescript/bin/tsc");
    let types = tsc_dir.join("node_modules/@types");
    let compiled = run(
        "node",
        &[
            tsc.to_str().unwrap(),
            "--strict",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--target",
            "es2022",
            "--types",
            "node",
            "--typeRoots",
            types.to_str().unwrap(),
            "--outDir",
            "out",
        ]
        .into_iter()
        .chain(programs)
        .collect::<Vec<_>>(),
        project,
    );
    assert_eq!(
        text(&compiled.stdout),
        "names-wrong.mts(7,12): error TS2345: Argument of type '\"helpdsk\"' is not assignable \
         to parameter of type 'AgentName'.\n\
         names-wrong.mts(8,11): error TS2345: Argument of type '\"lookup_ordr\"' is not \
         assignable to parameter of type 'ToolName'.\n\
         wrong.mts(6,7): error TS2322: Type 'number' is not assignable to type 'string'.\n\
         wrong.mts(7,38): error TS2551: Property 'colum' does not exist on type 'Diagnostic'. \
         Did you mean 'column'?\n\
         wrong.mts(8,1): error TS2322: Type '\"note\"' is not assignable to type 'Severity'.\n"
    );
}

/// The API program, run: what the API returns for every fixture must be what
/// the command line prints.
fn the_api_returns_what_the_cli_prints(project: &Path) {
    let repository = repository();

    let fixtures = repository.join("tests/fixtures");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let mut names: Vec<String> =
        cases.iter().map(|c| c.file_name().unwrap().to_string_lossy().into_owned()).collect();
    // From this test's folder, where the in-process runs below are: the paths
    // are absolute.
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut args: Vec<Vec<String>> = cases.iter().map(|c| common::case_args(c, here)).collect();
    // And names holding DEL and C1 controls, which the JSON lines escape
    // beyond what JSON.stringify does.
    let controls = common::control_names();
    names.push("control-names".into());
    args.push(vec![controls.path().display().to_string()]);
    let input = json!({
        "cwd": here,
        "cases": names.iter().zip(&args).map(|(name, args)| json!({
            "name": name, "dir": args[0], "options": options(&args[1..]),
        })).collect::<Vec<_>>(),
        "lock": repository.join("examples/support-desk"),
        "broken": repository.join("tests/fixtures/code-bad-guard/root"),
        "missing": "nowhere",
    });
    let mut api = Command::new("node")
        .arg(project.join("out/api.mjs"))
        .current_dir(project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = api.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, input.to_string().as_bytes()).unwrap();
    drop(stdin);
    // The command line's own output, while the API works.
    let (first, second) = args.split_at(args.len() / 2);
    let cli: Vec<String> = std::thread::scope(|scope| {
        let first = scope.spawn(|| json_lines(first));
        let second = json_lines(second);
        first.join().unwrap().into_iter().chain(second).collect()
    });
    let out = api.wait_with_output().unwrap();
    ok(&out, "api.mjs");
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut differ = Vec::new();
    for (name, expected) in names.iter().zip(&cli) {
        if got["checks"][name].as_str() != Some(expected.as_str()) {
            differ.push(name.as_str());
        }
    }
    assert!(differ.is_empty(), "the API and the CLI differ for {differ:?}");
    assert!(cli.last().unwrap().contains(r"\u009b\u007f"), "{}", cli.last().unwrap());
    assert_eq!(got["checks"].as_object().unwrap().len(), names.len());
    // A case with no fixture output to compare is no case: most of them report.
    assert!(cli.iter().filter(|o| o.contains("\"type\":\"diagnostic\"")).count() > names.len() / 2);
    // What the program read through the types, field by field.
    for (name, expected) in names.iter().zip(&cli) {
        let first: Value = serde_json::from_str(expected.lines().next().unwrap()).unwrap();
        if first["type"] != "diagnostic" {
            continue;
        }
        let or = |key: &str, none: Value| first.get(key).cloned().unwrap_or(none);
        let place = format!(
            "{} {}:{}:{} {}",
            first["severity"].as_str().unwrap(),
            or("file", json!("-")).as_str().unwrap(),
            or("line", json!(0)),
            or("column", json!(0)),
            first["code"].as_str().unwrap()
        );
        assert_eq!(got["firsts"][name], json!(place), "{name}");
    }

    let committed: Value = serde_json::from_slice(
        &std::fs::read(repository.join("examples/support-desk/agentc.lock")).unwrap(),
    )
    .unwrap();
    assert_eq!(got["lock"]["ok"], true);
    assert_eq!(got["lock"]["lockfile"], committed);
    let skills: Vec<&Value> =
        committed["skills"].as_array().unwrap().iter().map(|s| &s["qualified"]).collect();
    assert!(!skills.is_empty());
    assert_eq!(got["lock"]["skills"], json!(skills));
    assert_eq!(
        got["broken"],
        json!({ "ok": false, "lockfile": null, "summary": { "type": "summary", "errors": 12, "warnings": 0 } })
    );
    assert_eq!(
        got["missing"],
        json!({ "name": "AgentcError", "message": "the agents directory `nowhere` does not exist", "exitCode": 2 })
    );
}

/// Without the platform's package, the launcher names the package and the fix;
/// on a platform none is built for, it says so; AGENTC_BINARY stands in.
fn a_missing_binary_says_what_to_install(project: &Path, platform: &str) {
    let package = project.join(format!("node_modules/agentc-rs-{platform}"));
    std::fs::rename(&package, project.join("set-aside")).unwrap();
    let launcher = project.join("node_modules/.bin/agentc");
    let missing = run(&launcher, &["--version"], project);
    let libc = if platform.starts_with("linux") { " (glibc)" } else { "" };
    let (os, arch) = platform.split_once('-').unwrap();
    let arch = arch.trim_end_matches("-musl");
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        text(&missing.stderr),
        format!(
            "agentc: the package agentc-rs-{platform}, which holds agentc's binary for {os} {arch}{libc}, \
             is not installed.\nIt is an optional dependency of agentc: npm leaves it out when optional \
             dependencies are omitted (--omit=optional, --no-optional) or when the lockfile was written on \
             another platform without it.\nFix: install it with `npm install agentc-rs-{platform}@{VERSION}`, \
             or reinstall agentc with optional dependencies (delete node_modules and package-lock.json, then \
             `npm install`).\nOr run a binary of your own: set AGENTC_BINARY to the path of an `agentc` \
             you built (`cargo install --locked --path cli` in a clone of agentc), as before the packages \
             are published.\n"
        )
    );

    let elsewhere = project.join("elsewhere.cjs");
    std::fs::write(&elsewhere, "Object.defineProperty(process, 'arch', { value: 'mips' });\n")
        .unwrap();
    let unsupported = run(
        "node",
        &["--require", elsewhere.to_str().unwrap(), launcher.to_str().unwrap()],
        project,
    );
    assert_eq!(unsupported.status.code(), Some(2));
    assert_eq!(
        text(&unsupported.stderr),
        format!(
            "agentc: no agentc binary is published for {os} mips{libc}; the npm packages cover linux-x64, \
             linux-arm64, linux-x64-musl, darwin-x64, darwin-arm64, win32-x64.\nBuild agentc from source \
             (`cargo install --locked agentc-cli`, with Rust from https://rustup.rs) and set AGENTC_BINARY \
             to the path of the `agentc` it installs.\n"
        )
    );

    let stand_in = Command::new(&launcher)
        .arg("--version")
        .current_dir(project)
        .env("AGENTC_BINARY", BINARY)
        .output()
        .unwrap();
    ok(&stand_in, "AGENTC_BINARY");
    assert_eq!(text(&stand_in.stdout), format!("agentc {VERSION}\n"));
}

/// The lockfile of each fixture the loader is run on: between them, every
/// list the schema allows (assistants, plugins, MCP servers, hooks), the
/// workspace's files and `@registry`, a BOM and CRLF kept in a digest, and
/// paths outside ASCII.
const LOCKED_FIXTURES: [&str; 8] = [
    "real-anthropics-claude-plugins-official",
    "wild-gemini-extension-accepted",
    "layout-bom-crlf",
    "layout-registry-host-tools",
    "layout-package",
    "seed-bundle",
    "seed-package",
    "wild-skill-name-unicode-accepted",
];

/// Lowercase hex sha256, computed here rather than by the code under test.
fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// `lockfile` with its root digest recomputed as agentc writes it.
fn resealed(mut lockfile: Value) -> String {
    let files: Vec<agentc_schema::lockfile::FileDigest> =
        serde_json::from_value(lockfile["files"].clone()).unwrap();
    lockfile["root_digest"] = json!(agentc_schema::lockfile::root_digest(&files));
    lockfile.to_string()
}

/// The loader of the npm package, run with the platform package set aside
/// (loading is plain JavaScript): it loads and verifies the example's
/// lockfile and those agentc writes for fixtures, keeps them as written, and
/// refuses each tampered one with the error that names what is wrong.
fn the_loader_verifies_lockfiles_without_the_binary(project: &Path, temp: &Path, platform: &str) {
    assert!(!project.join(format!("node_modules/agentc-rs-{platform}")).exists());
    let repository = repository();
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = repository.join("examples/support-desk");
    let committed = example.join("agentc.lock");
    let desk_options = |root: &Path| json!({ "root": root.join("agents"), "workspace": root, "registry": root.join("registry.yaml") });
    let mut cases = vec![json!({
        "name": "support-desk", "file": committed, "options": desk_options(&example),
    })];
    let locks = temp.join("locks");
    std::fs::create_dir_all(&locks).unwrap();
    for name in LOCKED_FIXTURES {
        let args = common::case_args(&repository.join("tests/fixtures").join(name), here);
        let file = locks.join(format!("{name}.lock"));
        let mut all = vec!["agentc", "lock", "-o", file.to_str().unwrap()];
        all.extend(args.iter().map(String::as_str));
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let mut io = agentc_cli::Io {
            stdout: &mut stdout,
            stderr: &mut stderr,
            color: false,
            progress: false,
        };
        assert_eq!(agentc_cli::run(all, &mut io), 0, "{name}: {}", text(&stderr));
        let mut options = json!({ "root": args[0] });
        for pair in args[1..].windows(2) {
            match pair[0].as_str() {
                "--workspace" => options["workspace"] = json!(pair[1]),
                "--registry" => options["registry"] = json!(pair[1]),
                _ => {}
            }
        }
        cases.push(json!({ "name": name, "file": file, "options": options }));
    }
    let lockfiles: Vec<Value> = (cases.iter())
        .map(|c| {
            serde_json::from_slice(&std::fs::read(c["file"].as_str().unwrap()).unwrap()).unwrap()
        })
        .collect();
    // Between them, every kind of entry.
    let present = |field: &str| lockfiles.iter().any(|l| l.get(field).is_some());
    assert!(["assistants", "plugins", "mcp_servers", "hooks"].iter().all(|f| present(f)));
    let paths =
        || lockfiles.iter().flat_map(|l| l["files"].as_array().unwrap()).map(|f| &f["path"]);
    assert!(paths().filter(|p| *p == "@registry").count() >= 3);
    assert!(paths().any(|p| p.as_str().unwrap().starts_with("@workspace/")));
    assert!(paths().any(|p| !p.as_str().unwrap().is_ascii()));

    // A copy of the example with two files edited and one removed.
    let (_copy, desk) = common::example_project();
    let lock: Value = serde_json::from_slice(&std::fs::read(&committed).unwrap()).unwrap();
    let listed = |path: &str| -> String {
        let files = lock["files"].as_array().unwrap();
        files.iter().find(|f| f["path"] == path).unwrap()["sha256"].as_str().unwrap().to_owned()
    };
    let triage = desk.join("agents/triage/AGENT.md");
    let mut edited = std::fs::read(&triage).unwrap();
    edited.extend_from_slice(b"\nAlso greet the customer.\n");
    std::fs::write(&triage, &edited).unwrap();
    let registry = b"tools: []\n";
    std::fs::write(desk.join("registry.yaml"), registry).unwrap();
    std::fs::remove_file(desk.join("agents/skills/intake/SKILL.md")).unwrap();
    let tampered = temp.join("tampered");
    std::fs::create_dir_all(&tampered).unwrap();
    // A root digest that is not the files'.
    let mut forged = lock.clone();
    forged["root_digest"] = json!("0".repeat(64));
    std::fs::write(tampered.join("forged.lock"), forged.to_string()).unwrap();
    // A path out of the root, and a link out of it, sealed as agentc would.
    let outside = temp.join("outside.md");
    std::fs::write(&outside, "Outside.\n").unwrap();
    let root = tampered.join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("link.md")).unwrap();
    let mut escapes = lock.clone();
    escapes["files"] = json!([
        { "path": "../outside.md", "sha256": sha256(b"Outside.\n") },
        { "path": "link.md", "sha256": sha256(b"Outside.\n") },
    ]);
    std::fs::write(tampered.join("escapes.lock"), resealed(escapes)).unwrap();
    std::fs::write(tampered.join("v2.lock"), r#"{"lockfile_version": 2}"#).unwrap();
    let mut shapeless = lock.clone();
    shapeless["files"] = json!([{ "path": "SYSTEM.md" }]);
    std::fs::write(tampered.join("shapeless.lock"), shapeless.to_string()).unwrap();
    let lockfile = |name: &str| tampered.join(name).display().to_string();
    let refused = json!([
        { "name": "edited", "file": committed, "options": desk_options(&desk) },
        { "name": "forged", "file": lockfile("forged.lock"), "options": {} },
        { "name": "escapes", "file": lockfile("escapes.lock"), "options": { "root": root } },
        { "name": "v2", "file": lockfile("v2.lock"), "options": {} },
        { "name": "shapeless", "file": lockfile("shapeless.lock"), "options": {} },
    ]);
    let input = json!({
        "cases": cases,
        "desk": { "name": "desk", "file": committed, "options": desk_options(&example) },
        "refused": refused,
    });
    let out = common::pipe(
        "node",
        &[project.join("out/lockfile.mjs").as_os_str()],
        project,
        &input.to_string(),
    );
    ok(&out, "lockfile.mjs");
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();

    for (case, lockfile) in cases.iter().zip(&lockfiles) {
        let name = case["name"].as_str().unwrap();
        let entries: usize = ["agents", "skills", "tools", "assistants", "plugins", "mcp_servers"]
            .iter()
            .map(|f| lockfile.get(*f).and_then(Value::as_array).map_or(0, Vec::len))
            .sum();
        assert_eq!(
            got["loaded"][name],
            json!({ "problems": [], "same": true, "root": true, "found": entries }),
            "{name}"
        );
    }
    assert_eq!(
        got["typed"],
        json!({
            "model": "anthropic/claude-haiku-4-5",
            "skill": "billing/skills/refund-review/SKILL.md",
            "tool": "Fetch an order with its line items, payment state, shipment tracking and delivery date.",
            "unknown": format!(
                "unknown-name: {} has no agent `helpdesk`; it has `billing`, `escalations`, `triage`",
                committed.display()
            ),
        })
    );

    let intake = listed("skills/intake/SKILL.md");
    let (was, now) = (listed("triage/AGENT.md"), sha256(&edited));
    let (registry_was, registry_now) = (listed("@registry"), sha256(registry));
    let shown = committed.display();
    assert_eq!(
        got["refused"]["edited"],
        json!({
            "name": "LockfileError",
            "code": "missing",
            "file": committed,
            "message": format!(
                "{shown} does not match the files it was compiled from:\n  \
                 skills/intake/SKILL.md is missing: it does not exist (expected sha256 {intake})\n  \
                 triage/AGENT.md changed: expected sha256 {was}, found {now}\n  \
                 @registry changed: expected sha256 {registry_was}, found {registry_now}\n\
                 help: if the files changed, run `agentc lock` to update the lockfile \
                 (`agentc lock --check` says what changed)"
            ),
            "problems": [
                format!("missing skills/intake/SKILL.md {intake}: it does not exist"),
                format!("changed triage/AGENT.md {was} {now}"),
                format!("changed @registry {registry_was} {registry_now}"),
            ],
        })
    );
    // The Rust reader finds the same (it leaves the registry to the host).
    use agentc_schema::lockfile::FileChange;
    let rust = agentc_schema::Lockfile::load(&committed).unwrap();
    assert_eq!(
        rust.verify(desk.join("agents"), Some(&desk)),
        [
            FileChange::Missing("skills/intake/SKILL.md".into()),
            FileChange::Changed("triage/AGENT.md".into())
        ]
    );
    let escaping = agentc_schema::Lockfile::load(tampered.join("escapes.lock")).unwrap();
    assert_eq!(
        escaping.verify(&root, None),
        [FileChange::Invalid("../outside.md".into()), FileChange::Missing("link.md".into())]
    );
    let real = lock["root_digest"].as_str().unwrap();
    let zeros = "0".repeat(64);
    assert_eq!(got["refused"]["forged"]["code"], "root-digest");
    assert_eq!(
        got["refused"]["forged"]["problems"],
        json!([format!("root-digest {zeros} {real}")])
    );
    assert!(
        got["refused"]["forged"]["message"].as_str().unwrap().contains(&format!(
            "root_digest is {zeros}, but the files listed give {real}: the lockfile was edited \
             or damaged after agentc wrote it"
        )),
        "{}",
        got["refused"]["forged"]
    );
    let outside_digest = sha256(b"Outside.\n");
    assert_eq!(
        got["refused"]["escapes"]["problems"],
        json!([
            format!("invalid-path ../outside.md {outside_digest}"),
            format!("missing link.md {outside_digest}: a link leads out of the root"),
        ])
    );
    assert_eq!(got["refused"]["v2"]["code"], "version");
    assert_eq!(
        got["refused"]["v2"]["message"],
        format!(
            "{}: the lockfile has format version 2; this reader knows version 1",
            lockfile("v2.lock")
        )
    );
    assert_eq!(got["refused"]["shapeless"]["code"], "invalid");
    assert_eq!(
        got["refused"]["shapeless"]["message"],
        format!(
            "{}: not a valid lockfile: `files[0]` is not a `{{ path, sha256 }}` of strings",
            lockfile("shapeless.lock")
        )
    );
}
