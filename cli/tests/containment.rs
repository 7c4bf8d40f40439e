//! Repository content never reaches outside the project: paths in
//! `agentc.toml`, links in bodies and their suggestions, a lockfile's name,
//! `--fix`, and the watch. Each project here sits beside an `outside/` folder
//! holding a secret, which no run may print, list, replace or watch.
#![cfg(unix)]

mod common;

use std::os::unix::fs::symlink;
use std::path::PathBuf;

use common::{SKILL, agentc, text, write};

const SECRET: &str = "CI_TOKEN=hunter2";

/// `<temp>/project` and `<temp>/outside/secret-token.txt`, canonical.
fn project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().canonicalize().unwrap();
    let (project, outside) = (top.join("project"), top.join("outside"));
    write(&outside.join("secret-token.txt"), SECRET);
    write(&project.join("agents/skills/billing/SKILL.md"), SKILL);
    (dir, project, outside)
}

#[test]
fn paths_in_agentc_toml_stay_inside_the_project() {
    let (_dir, project, outside) = project();
    symlink(outside.join("secret-token.txt"), project.join("registry.yaml")).unwrap();
    symlink(&outside, project.join("elsewhere")).unwrap();
    write(
        &project.join("agentc.toml"),
        "root = \"agents\"\nregistry = \"/proc/self/environ\"\nworkspace = \"elsewhere\"\n",
    );
    let out = agentc(&["check"], &project);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("PATH="), "the environment was printed: {stderr}");
    assert!(
        stderr.contains(
            "error[invalid-value]: the registry `/proc/self/environ` is outside the project"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "error[invalid-value]: the workspace `elsewhere` leads outside the project through the symbolic link `elsewhere`"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("give it as `--registry FILE` on the command line"), "{stderr}");

    // A link that stays inside is followed; one that leaves is refused.
    write(&project.join("agentc.toml"), "root = \"agents\"\nregistry = \"registry.yaml\"\n");
    let out = agentc(&["check"], &project);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains(SECRET), "{stderr}");
    assert!(stderr.contains("the registry `registry.yaml` leads outside the project"), "{stderr}");

    // The user may name any file on the command line.
    write(&outside.join("registry.yaml"), "tools: []\n");
    let registry = outside.join("registry.yaml");
    write(&project.join("agentc.toml"), "root = \"agents\"\n");
    let out = agentc(&["check", "--registry", registry.to_str().unwrap()], &project);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_lockfile_the_repository_names_is_written_only_inside() {
    let (_dir, project, outside) = project();
    let victim = outside.join("secret-token.txt");
    write(
        &project.join("agentc.toml"),
        "root = \"agents\"\nlockfile = \"../outside/secret-token.txt\"\n",
    );
    let out = agentc(&["lock"], &project);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the lockfile `../outside/secret-token.txt` is outside the project"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), SECRET);

    // The default lockfile, committed as a link out of the project.
    write(&project.join("agentc.toml"), "root = \"agents\"\n");
    symlink(&victim, project.join("agentc.lock")).unwrap();
    for args in [&["lock"][..], &["lock", "--check"]] {
        let out = agentc(args, &project);
        let stderr = text(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            stderr.contains("the symbolic link") && stderr.contains("leads outside the project"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains(SECRET), "{stderr}");
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), SECRET);

    // A link inside is followed, as before; `-o` is the user's to aim.
    std::fs::remove_file(project.join("agentc.lock")).unwrap();
    write(&project.join("locks/agentc.lock"), "");
    symlink("locks/agentc.lock", project.join("agentc.lock")).unwrap();
    let out = agentc(&["lock"], &project);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        std::fs::read_to_string(project.join("locks/agentc.lock")).unwrap().contains("billing")
    );
    let chosen = outside.join("chosen.lock");
    let out = agentc(&["lock", "-o", chosen.to_str().unwrap()], &project);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(chosen.is_file());
}

#[test]
fn links_through_a_link_out_of_the_project_are_refused_unlooked() {
    let (_dir, project, outside) = project();
    let skill = project.join("agents/skills/billing");
    symlink(&outside, skill.join("out")).unwrap();
    write(
        &skill.join("SKILL.md"),
        "---\nname: billing\ndescription: Billing questions.\n---\nSee [y](out/secret-token.txt) and [x](out/secret-tokn.txt).\n",
    );
    let out = agentc(&["check", "agents"], &project);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for link in ["out/secret-token.txt", "out/secret-tokn.txt"] {
        assert!(
            stderr.contains(&format!(
                "error[broken-link]: the link `{link}` leads outside the project through the symbolic link `skills/billing/out`"
            )),
            "{stderr}"
        );
    }
    assert!(!stderr.contains("did you mean"), "the outside folder was listed: {stderr}");
}

#[test]
fn a_file_reached_by_two_paths_is_fixed_once_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let skills = dir.path().join("project/.claude/skills");
    write(&skills.join("billing/SKILL.md"), SKILL);
    // `mirror` is the same skill: its name fits `billing`, not `mirror`, and
    // the fix that renames it at `mirror` would break it at `billing`.
    symlink("billing", skills.join("mirror")).unwrap();
    // The name's mismatch is a portability rule under Claude Code.
    let out = agentc(&["check", "project", "--fix", "--pedantic"], dir.path());
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("changed since it was checked"), "{stderr}");
    assert!(
        stderr.contains(
            "warning: left project/.claude/skills/billing/SKILL.md alone: it is also reached as `project/.claude/skills/mirror/SKILL.md`, where its fixes differ"
        ),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(skills.join("billing/SKILL.md")).unwrap(), SKILL);

    // Linked into another assistant's folder under the same name, as the
    // `skills` installer does: both paths call for the same fix, made once.
    std::fs::remove_file(skills.join("mirror")).unwrap();
    let fixable =
        SKILL.replace("description: Billing questions.", "description: Billing: questions.");
    write(&skills.join("billing/SKILL.md"), &fixable);
    std::fs::create_dir_all(dir.path().join("project/.agents/skills")).unwrap();
    symlink("../../.claude/skills/billing", dir.path().join("project/.agents/skills/billing"))
        .unwrap();
    let out = agentc(&["check", "project", "--fix", "--pedantic"], dir.path());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("fixed project/.claude/skills/billing/SKILL.md: 1 fix"), "{stderr}");
    assert!(!stderr.contains("left"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(skills.join("billing/SKILL.md")).unwrap(),
        SKILL.replace("description: Billing questions.", "description: \"Billing: questions.\"")
    );
}

/// The watcher both `check --watch` and the language server use: a change
/// behind a link out of the project is not seen. Events come in order, so
/// the inside change being the first one seen shows the outside one was not.
#[test]
fn the_watch_follows_no_link_out_of_the_project() {
    use notify::{RecursiveMode, Watcher};
    let (_dir, project, outside) = project();
    let root = project.join("agents");
    symlink(&outside, root.join("skills/billing/out")).unwrap();
    let (tx, events) = std::sync::mpsc::channel();
    let mut watcher = agentc_compiler::fs::watcher(move |event| {
        let _ = tx.send(event);
    })
    .unwrap();
    watcher.watch(&root, RecursiveMode::Recursive).unwrap();
    std::fs::write(outside.join("secret-token.txt"), "changed").unwrap();
    std::fs::write(root.join("skills/billing/SKILL.md"), SKILL).unwrap();
    // Opening folders to watch them is itself seen (access events): the first
    // change is what counts.
    let first = events
        .iter()
        .map(|event| event.unwrap())
        .find(|event: &notify::Event| !event.kind.is_access())
        .unwrap();
    assert!(
        first
            .paths
            .iter()
            .all(|p| p.starts_with(&root) && !p.starts_with(root.join("skills/billing/out"))),
        "{first:?}"
    );
}

/// `agentc.toml` is itself repository content: a link at its name may lead
/// only into the folder it is in, and its paths are relative to the folder
/// really holding it (found by an adversary's review).
#[test]
fn agentc_toml_itself_leads_nowhere_outside() {
    let (_dir, project, outside) = project();
    for target in [outside.join("secret-token.txt"), PathBuf::from("/proc/self/environ")] {
        let _ = std::fs::remove_file(project.join("agentc.toml"));
        symlink(&target, project.join("agentc.toml")).unwrap();
        for args in [&["check"][..], &["check", "."]] {
            let out = agentc(args, &project);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(!stderr.contains(SECRET) && !stderr.contains("PATH="), "{stderr}");
            assert!(
                stderr.contains("error[path-escape]: `agentc.toml` is not read: the symbolic link"),
                "{stderr}"
            );
        }
    }
    // A link to a project file in a subfolder: its `root` is that folder's
    // `x`, not the `x` beside the link, which leads out.
    std::fs::remove_file(project.join("agentc.toml")).unwrap();
    write(&project.join("sub/agentc.toml"), "root = \"x\"\n");
    symlink("sub/agentc.toml", project.join("agentc.toml")).unwrap();
    symlink(&outside, project.join("x")).unwrap();
    let out = agentc(&["check"], &project);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the root `x` does not exist"), "{stderr}");
    assert!(!stderr.contains("secret-token"), "{stderr}");
}

#[test]
fn init_looks_through_no_link_in_an_existing_tree() {
    let (_dir, project, outside) = project();
    let fresh = project.parent().unwrap().join("fresh");
    std::fs::create_dir(&fresh).unwrap();
    symlink(&outside, fresh.join("agents")).unwrap();
    let out = agentc(&["init", "."], &fresh);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("already exists"), "{stderr}");
    assert_eq!(std::fs::read_dir(&fresh).unwrap().count(), 1, "something was written");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);
}
