//! Where `agentc lock` writes: it replaces a regular file or a link's target,
//! never a FIFO, device, folder or one of the compile's own inputs.
#![cfg(unix)]

use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::Path;
use std::process::Command;

mod common;
use common::{SKILL, agentc, text, write};

/// A project that compiles cleanly, with a system prompt among its inputs.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("agents/skills/billing/SKILL.md"), SKILL);
    write(&dir.path().join("agents/SYSTEM.md"), "Be brief.\n");
    dir
}

/// Runs `lock` expecting a refusal: exit 2, the path and `why` in the message.
fn refused(dir: &Path, output: &str, why: &str) -> String {
    let out = agentc(&["lock", "agents", "-o", output], dir);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("cannot write the lockfile `{output}`")), "{stderr}");
    assert!(stderr.contains(why), "{stderr}");
    stderr
}

fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".agentc-"))
        .collect()
}

#[test]
fn a_linked_lockfile_has_its_target_replaced_and_stays_a_link() {
    let dir = project();
    write(&dir.path().join("store/agentc.lock"), "{\"lockfile_version\": 0}");
    symlink("store/agentc.lock", dir.path().join("agentc.lock")).unwrap();

    let out = agentc(&["lock", "agents"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let link = dir.path().join("agentc.lock");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink(), "the link was replaced");
    let written = std::fs::read_to_string(dir.path().join("store/agentc.lock")).unwrap();
    assert!(written.contains("\"lockfile_version\""), "the target is stale: {written}");
    assert!(temporaries(&dir.path().join("store")).is_empty());
    assert!(temporaries(dir.path()).is_empty());
    // Up to date through the link as well.
    let check = agentc(&["lock", "agents", "--check"], dir.path());
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
}

#[test]
fn a_link_to_nothing_is_refused() {
    let dir = project();
    symlink("store/agentc.lock", dir.path().join("out.lock")).unwrap();
    refused(dir.path(), "out.lock", "symbolic link to `store/agentc.lock`, which does not exist");
    assert!(!dir.path().join("out.lock").exists());
    assert!(dir.path().join("out.lock").symlink_metadata().unwrap().file_type().is_symlink());
}

#[test]
fn a_fifo_is_never_replaced_nor_a_link_to_one() {
    let dir = project();
    let fifo = dir.path().join("out.lock");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    refused(
        dir.path(),
        "out.lock",
        "it is a FIFO, not a regular file; agentc replaces only a regular file",
    );
    assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());

    symlink("out.lock", dir.path().join("via.lock")).unwrap();
    refused(
        dir.path(),
        "via.lock",
        "is a FIFO, not a regular file; agentc replaces only a regular file",
    );
    assert!(dir.path().join("via.lock").symlink_metadata().unwrap().file_type().is_symlink());
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn a_device_or_a_folder_is_never_replaced() {
    let dir = project();
    symlink("/dev/null", dir.path().join("null.lock")).unwrap();
    refused(dir.path(), "null.lock", "`/dev/null`, is a device");
    assert!(dir.path().join("null.lock").symlink_metadata().unwrap().file_type().is_symlink());
    assert!(Path::new("/dev/null").metadata().unwrap().file_type().is_char_device());

    std::fs::create_dir(dir.path().join("folder.lock")).unwrap();
    refused(dir.path(), "folder.lock", "it is a folder");
    assert!(dir.path().join("folder.lock").is_dir());
}

#[test]
fn an_input_of_the_compile_is_never_replaced() {
    let dir = project();
    let system = dir.path().join("agents/SYSTEM.md");
    refused(dir.path(), "agents/SYSTEM.md", "it is `agents/SYSTEM.md`, which this compile reads");
    // Through a link, too.
    symlink("agents/skills/billing/SKILL.md", dir.path().join("skill.lock")).unwrap();
    refused(dir.path(), "skill.lock", "it is `agents/skills/billing/SKILL.md`");
    assert_eq!(std::fs::read_to_string(&system).unwrap(), "Be brief.\n");
    let skill = dir.path().join("agents/skills/billing/SKILL.md");
    assert_eq!(std::fs::read_to_string(skill).unwrap(), SKILL);
}

#[test]
fn the_project_file_and_the_registry_are_never_replaced() {
    let dir = project();
    write(&dir.path().join("agentc.toml"), "root = \"agents\"\n");
    write(&dir.path().join("registry.json"), "{}\n");
    let out = agentc(&["lock", "-o", "agentc.toml"], dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("it is `agentc.toml`, which this compile reads"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("agentc.toml")).unwrap(),
        "root = \"agents\"\n"
    );

    let out = agentc(&["lock", "--registry", "registry.json", "-o", "registry.json"], dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("it is `registry.json`, which this compile reads"), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.path().join("registry.json")).unwrap(), "{}\n");
}

#[test]
fn a_refusal_is_a_cannot_run_record_in_json() {
    let dir = project();
    let out = agentc(
        &["lock", "agents", "-o", "agents/SYSTEM.md", "--message-format", "json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    let first: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["code"], "cannot-run");
    assert!(first["message"].as_str().unwrap().contains("agents/SYSTEM.md"), "{stdout}");
    assert_eq!(stdout.lines().last().unwrap(), r#"{"type":"summary","errors":1,"warnings":0}"#);
}

/// dotagents' lockfile, as a real repository keeps it.
const DOTAGENTS_LOCK: &str = "# Auto-generated by dotagents. Do not edit.\nversion = 1\n\n\
    [skills.review]\nsource = \"github:acme/skills\"\n";

/// Another tool's file where agentc's lockfile goes is never replaced: `lock`
/// refuses, naming it and how to choose another path, and `--check` says the
/// same instead of offering to rewrite it.
#[test]
fn another_tools_file_at_the_lockfile_path_is_never_replaced() {
    let dir = project();
    write(&dir.path().join("agents.lock"), DOTAGENTS_LOCK);
    write(&dir.path().join("agentc.toml"), "root = \"agents\"\nlockfile = \"agents.lock\"\n");
    let why = "it is not agentc's lockfile (it does not start with agentc's \
        `{\"lockfile_version\": …` header), and agentc replaces only a file it wrote; write \
        agentc's lockfile to another path (`lockfile` in agentc.toml, or `-o FILE`)\n";
    for (args, code, said) in [
        (&["lock"][..], 2, "error: cannot write the lockfile `agents.lock`: "),
        (&["lock", "-o", "agents.lock"], 2, "error: cannot write the lockfile `agents.lock`: "),
        (&["lock", "--check"], 1, "error: agents.lock: "),
    ] {
        let out = agentc(args, dir.path());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert_eq!(stderr, format!("{said}{why}"), "{args:?}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("agents.lock")).unwrap(),
            DOTAGENTS_LOCK
        );
        assert!(temporaries(dir.path()).is_empty());
    }
}

/// agentc's own lockfile is replaced whatever it holds: an older version's,
/// one cut short by an interrupted write, an empty file.
#[test]
fn agentc_replaces_its_own_lockfile_however_it_was_left() {
    for old in
        ["{\n  \"lockfile_version\": 0,\n  \"agentc_version\": \"0.0.1\"\n}\n", "{\n  \"lockf", ""]
    {
        let dir = project();
        write(&dir.path().join("agentc.lock"), old);
        let out = agentc(&["lock", "agents"], dir.path());
        assert_eq!(out.status.code(), Some(0), "{old:?}: {}", text(&out.stderr));
        let written = std::fs::read_to_string(dir.path().join("agentc.lock")).unwrap();
        assert!(written.starts_with("{\n  \"lockfile_version\": 1,"), "{written}");
    }
}

/// The default lockfile is `agentc.lock` (dotagents' is `agents.lock`); an
/// `agents.lock` an earlier agentc wrote is pointed at when `agentc.lock` is
/// missing, rather than asked to be written anew.
#[test]
fn the_default_lockfile_is_agentc_lock_and_an_old_agents_lock_is_pointed_at() {
    let dir = project();
    write(&dir.path().join("agents.lock"), DOTAGENTS_LOCK);
    let out = agentc(&["lock", "agents"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "wrote agentc.lock\n");
    assert_eq!(std::fs::read_to_string(dir.path().join("agents.lock")).unwrap(), DOTAGENTS_LOCK);

    std::fs::rename(dir.path().join("agentc.lock"), dir.path().join("agents.lock")).unwrap();
    let out = agentc(&["lock", "agents", "--check"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: agentc.lock does not exist\nhelp: `agents.lock` beside it is agentc's lockfile \
         under the name an earlier agentc gave it by default: rename it to `agentc.lock`, or set \
         `lockfile = \"agents.lock\"` in agentc.toml\n"
    );
}

/// `init` never names a taken file as the lockfile.
#[test]
fn init_names_a_free_lockfile_when_agentc_lock_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join(".claude/agents/a.md"),
        "---\nname: a\ndescription: Does a.\n---\nDo a.\n",
    );
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    write(&dir.path().join("agentc.lock"), DOTAGENTS_LOCK);
    let out = agentc(&["init"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains(
        "note: `agentc.lock` there is another tool's file, so agentc.toml names `agentc.2.lock` as \
         agentc's lockfile\n"
    ));
    let toml = std::fs::read_to_string(dir.path().join("agentc.toml")).unwrap();
    assert!(toml.ends_with("lockfile = \"agentc.2.lock\"\n"), "{toml}");
    let out = agentc(&["lock"], dir.path());
    assert_eq!(text(&out.stderr), "wrote agentc.2.lock\n");
    assert_eq!(std::fs::read_to_string(dir.path().join("agentc.lock")).unwrap(), DOTAGENTS_LOCK);
}

#[test]
fn the_names_for_typescript_are_written_beside_the_lockfile_and_checked() {
    let dir = project();
    let run = |args: &[&str]| {
        let mut all = vec!["lock", "agents", "-o", "agentc.lock"];
        all.extend(args);
        let out = agentc(&all, dir.path());
        (out.status.code(), text(&out.stderr))
    };
    let names = dir.path().join("names.d.ts");
    assert_eq!(
        run(&["--emit-dts", "names.d.ts"]),
        (Some(0), "wrote agentc.lock\nwrote names.d.ts\n".into())
    );
    let written = std::fs::read_to_string(&names).unwrap();
    assert!(
        written
            .starts_with("// The names of an agentc project, written by `agentc lock --emit-dts`")
    );
    assert!(written.contains("\nexport type SkillName = \"billing\";\n"), "{written}");
    assert!(written.contains("\nexport type AgentName = never;\n"), "{written}");
    assert_eq!(
        run(&["--emit-dts", "names.d.ts", "--check"]),
        (Some(0), "agentc.lock is up to date\nnames.d.ts is up to date\n".into())
    );

    // Stale, or missing: --check says so and writes nothing.
    std::fs::write(&names, written.replace("\"billing\"", "\"billng\"")).unwrap();
    let help = "help: run `agentc lock agents -o agentc.lock --emit-dts names.d.ts`";
    assert_eq!(
        run(&["--emit-dts", "names.d.ts", "--check"]),
        (
            Some(1),
            format!(
                "agentc.lock is up to date\nerror: names.d.ts is out of date\n{help} to update it\n"
            )
        )
    );
    std::fs::remove_file(&names).unwrap();
    assert_eq!(
        run(&["--emit-dts", "names.d.ts", "--check"]),
        (
            Some(1),
            format!(
                "agentc.lock is up to date\nerror: names.d.ts does not exist\n{help} to write it\n"
            )
        )
    );
    assert!(!names.exists());

    // Never over a file agentc did not write, an input, or the lockfile.
    write(&dir.path().join("types.d.ts"), "export type Mine = 1;\n");
    let (code, stderr) = run(&["--emit-dts", "types.d.ts"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "cannot write the declarations `types.d.ts`: it was not written by `agentc lock \
             --emit-dts` (its first line is not agentc's), and is left as it is"
        ),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("types.d.ts")).unwrap(),
        "export type Mine = 1;\n"
    );
    let (code, stderr) = run(&["--emit-dts", "agents/SYSTEM.md"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("it is `agents/SYSTEM.md`, which this compile reads"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("agents/SYSTEM.md")).unwrap(),
        "Be brief.\n"
    );
    let (code, stderr) = run(&["--emit-dts", "agentc.lock"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("`agentc.lock`: it is the lockfile"), "{stderr}");

    // A project with errors: neither is written.
    write(&dir.path().join("agents/skills/broken/SKILL.md"), "---\nname: other\n---\n");
    std::fs::remove_file(dir.path().join("agentc.lock")).unwrap();
    let (code, stderr) = run(&["--emit-dts", "names.d.ts"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.ends_with("error: agentc.lock was not written\nerror: names.d.ts was not written\n"),
        "{stderr}"
    );
    assert!(!names.exists() && !dir.path().join("agentc.lock").exists());
}
