//! agentc's npm packages as a user gets them: `packaging/npm/build.mjs` packs
//! this build's binary, npm installs the two tarballs into a fresh folder (from
//! the files, offline), and then `npx agentc` must behave as the binary does —
//! output, exit codes, signals — and the Node API, type-checked with `tsc
//! --strict` against its generated types, must return what `--message-format
//! json` prints, byte for byte, for every fixture in `tests/fixtures`.
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
    the_api_returns_what_the_cli_prints(&project, &tsc);
    a_missing_binary_says_what_to_install(&project, platform);
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

/// The Node program in cli/tests/npm, type-checked against the installed
/// package and run: what the API returns for every fixture must be what the
/// command line prints.
fn the_api_returns_what_the_cli_prints(project: &Path, tsc_dir: &Path) {
    let repository = repository();
    for file in ["api.mts", "wrong.mts"] {
        std::fs::copy(tsc_dir.join(file), project.join(file)).unwrap();
    }
    // One compile of both: the program must type-check clean, and every
    // error must be one the types were made to refuse — they are types, not
    // `any`. The program is emitted all the same, to be run.
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
            "api.mts",
            "wrong.mts",
        ],
        project,
    );
    assert_eq!(
        text(&compiled.stdout),
        "wrong.mts(6,7): error TS2322: Type 'number' is not assignable to type 'string'.\n\
         wrong.mts(7,38): error TS2551: Property 'colum' does not exist on type 'Diagnostic'. \
         Did you mean 'column'?\n\
         wrong.mts(8,1): error TS2322: Type '\"note\"' is not assignable to type 'Severity'.\n"
    );

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
