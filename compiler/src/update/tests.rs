use std::path::Path;

use proptest::prelude::*;

use super::*;
use crate::catalog::Code;
use crate::compile::{compile, compile_with};
use crate::diagnostic::{Origin, Severity};
use crate::memfs::MemFs;
use crate::options::{LintLevel, Options};

/// The bundled example, in memory, with the options its project file gives.
fn example() -> (MemFs, Options) {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/support-desk");
    let mut fs = MemFs::new();
    load_dir(&mut fs, &example.join("agents"), "agents/");
    load_dir(&mut fs, &example.join(".agents"), ".agents/");
    for file in ["registry.yaml", "AGENTS.md"] {
        fs.insert(file, std::fs::read(example.join(file)).unwrap()).unwrap();
    }
    let mut opts = Options::new(fs.root().join("agents"));
    opts.workspace = Some(fs.root().to_path_buf());
    opts.registry = Some(fs.root().join("registry.yaml"));
    (fs, opts)
}

/// The example with a file of each coding assistant's beside it: a Claude
/// Code subagent that loads a skill, and two Copilot agents, one handing
/// off to the other by `name`.
fn example_with_assistants() -> (MemFs, Options) {
    let (mut fs, opts) = example();
    let subagent = "---\nname: desk-helper\ndescription: Answers questions at the desk.\n\
        skills:\n  - intake\n---\nHelp the customer.\n";
    let triage = "---\nname: triage\ndescription: Sorts what comes in.\nhandoffs:\n\
        \x20 - label: Review\n    agent: review\n    prompt: Review the ticket.\n---\nSort it.\n";
    let review = "---\nname: review\ndescription: Reviews a sorted ticket.\n---\nReview it.\n";
    fs.insert(".claude/agents/desk-helper.md", subagent).unwrap();
    fs.insert(".github/agents/triage.agent.md", triage).unwrap();
    fs.insert(".github/agents/review.agent.md", review).unwrap();
    (fs, opts)
}

/// Applies edits to `files` to `c` as the language server does: a batch
/// with the registry's is updated on a copy (kept only when it updated),
/// any other in place, and what is not an update is compiled. Then
/// compares `c` with a cold compile; returns whether it was an update.
fn edit_batch(
    c: &mut Compilation,
    fs: &MemFs,
    opts: &Options,
    memo: &Memo,
    files: &[RelPath],
) -> bool {
    let updated = match c.copy_to_update(files) {
        Some(mut copy) => {
            let updated = copy.update_files(fs, memo, files);
            if updated {
                *c = copy;
            }
            updated
        }
        None => c.update_files(fs, memo, files),
    };
    if !updated {
        *c = compile_with(fs, opts, Some(memo)).unwrap();
    }
    assert_same_as_cold(c, fs, opts);
    updated
}

fn assert_same_as_cold(c: &Compilation, fs: &MemFs, opts: &Options) {
    let cold = compile(fs, opts).unwrap();
    assert_eq!(c.diagnostics, cold.diagnostics);
    assert_eq!(c.model, cold.model);
    assert_eq!(c.names.refs, cold.names.refs);
    let texts = |c: &Compilation| -> Vec<(RelPath, String)> {
        c.sources.iter().map(|(rel, s)| (rel.clone(), s.text.to_string())).collect()
    };
    assert_eq!(texts(c), texts(&cold));
}

/// Issue #36: the editor's steps after a registry edit — the buffer's
/// edit, then the file saved and the watcher's notice of the same text —
/// each update a copy. The copy of the second found the registry as it
/// was and kept it, without the model and names left out of it; the next
/// skill edit then panicked in the update (`range end index 119 out of
/// range for slice of length 0`).
#[test]
fn a_registry_update_with_its_text_unchanged_keeps_the_model() {
    let (mut fs, opts) = example_with_assistants();
    let memo = Memo::default();
    let mut c = compile_with(&fs, &opts, Some(&memo)).unwrap();
    assert_eq!(c.project.assistants.len(), 3, "the assistants' files are compiled");
    let registry = RelPath::given(fs.root().join("registry.yaml").display().to_string());
    let original = String::from_utf8(fs.get("registry.yaml").unwrap().to_vec()).unwrap();
    let files = skill_files(&c);
    let (skill, path) = files
        .iter()
        .find(|(rel, _)| &*rel.path == "billing/skills/charge-lookup/SKILL.md")
        .unwrap();
    for text in [original.replacen("  - fetch_invoice\n", "", 1), original.clone()] {
        fs.insert("registry.yaml", text).unwrap();
        // The buffer's edit, the save, the watcher's notice.
        for _ in 0..3 {
            let batch = std::slice::from_ref(&registry);
            assert!(edit_batch(&mut c, &fs, &opts, &memo, batch), "a registry edit is an update");
        }
    }
    let text = String::from_utf8(fs.get(path).unwrap().to_vec()).unwrap();
    fs.insert(path, text.replacen("  - fetch_invoice\n", "  - fetch_invoices\n", 1)).unwrap();
    assert!(edit_batch(&mut c, &fs, &opts, &memo, std::slice::from_ref(skill)));
    assert!(c.diagnostics.iter().any(|d| d.code == Code::UnknownTool), "{:#?}", c.diagnostics);
}

/// The example's skill files, as (file, path in the memory file system).
fn skill_files(c: &Compilation) -> Vec<(RelPath, String)> {
    let files = c.project.skills.iter().map(|s| s.source.path.clone());
    files
        .filter(|rel| rel.origin == Origin::Root)
        .map(|rel| {
            let path = format!("agents/{}", rel.path);
            (rel, path)
        })
        .collect()
}

/// Applies the new text of `rel` to `c` as the language server does: an
/// update when it applies, else a compile. Then compares `c` with a cold
/// compile; returns whether the update applied.
fn edit(c: &mut Compilation, fs: &MemFs, opts: &Options, memo: &Memo, rel: &RelPath) -> bool {
    let updated = c.update_file(fs, memo, rel);
    if !updated {
        *c = compile_with(fs, opts, Some(memo)).unwrap();
    }
    assert_same_as_cold(c, fs, opts);
    updated
}

/// Edits to a skill's text are updates, whatever they change; every
/// result equals a cold compile's. Other files are left to a compile.
#[test]
fn an_update_is_a_compile() {
    let (mut fs, opts) = example();
    let memo = Memo::default();
    let mut c = compile_with(&fs, &opts, Some(&memo)).unwrap();
    let files = skill_files(&c);
    type Change = fn(&str) -> String;
    let intake = "skills/intake/SKILL.md";
    let charges = "billing/skills/charge-lookup/SKILL.md";
    let refunds = "billing/skills/refund-review/SKILL.md";
    let cases: [(&str, &str, Change); 16] = [
        (intake, "description", |t| t.replacen("description: ", "description: Now ", 1)),
        (intake, "misspelt route", |t| t.replacen("classify-request", "clasify-request", 1)),
        (intake, "unknown tool", |t| t.replacen("tools:\n", "tools:\n  - lookup_tickt\n", 1)),
        (intake, "broken link", |t| format!("{t}\nSee [the guide](guide.md).\n")),
        (intake, "hidden character", |t| format!("{t}\nAsk\u{200B} twice.\n")),
        (intake, "unchanged", |t| t.to_owned()),
        (intake, "renamed", |t| t.replacen("name: intake", "name: intake-desk", 1)),
        (intake, "name moved", |t| t.replacen("---\n", "---\n# the first skill\n", 1)),
        (intake, "unparsable", |t| t.replacen("tools:\n", "tools:\n   - x\n", 1)),
        (intake, "no frontmatter", |t| t.replacen("---", "", 1)),
        (intake, "a name taken", |t| t.replacen("name: intake", "name: wrap-up", 1)),
        (intake, "a name routed to", |t| t.replacen("name: intake", "name: classify-request", 1)),
        (charges, "route removed", |t| {
            t.replacen("  - refund-review: on fetch_invoice status=success\n", "", 1)
        }),
        (charges, "inactive tool", |t| t.replacen("tools:\n", "tools:\n  - search_kb\n", 1)),
        (refunds, "private renamed", |t| {
            t.replacen("name: refund-review", "name: refund-check", 1)
        }),
        (refunds, "private unparsable", |t| t.replacen("tools: ", "tools: [", 1)),
    ];
    for (file, what, change) in cases {
        let (rel, path) = files.iter().find(|(rel, _)| &*rel.path == file).unwrap();
        let original = String::from_utf8(fs.get(path).unwrap().to_vec()).unwrap();
        fs.insert(path, change(&original)).unwrap();
        assert!(edit(&mut c, &fs, &opts, &memo, rel), "{what} is an update");
        if !["description", "unchanged", "name moved"].contains(&what) {
            assert!(!c.diagnostics.is_empty(), "{what} is a mistake");
        }
        fs.insert(path, original).unwrap();
        assert!(edit(&mut c, &fs, &opts, &memo, rel), "{what} undone is an update");
        assert!(c.diagnostics.is_empty(), "{what} undone: {:#?}", c.diagnostics);
    }
    let agent = RelPath::root("billing/AGENT.md");
    let path = "agents/billing/AGENT.md";
    let original = String::from_utf8(fs.get(path).unwrap().to_vec()).unwrap();
    for text in [original.replacen("description: ", "description: Now ", 1), original] {
        fs.insert(path, text).unwrap();
        assert!(edit(&mut c, &fs, &opts, &memo, &agent), "an agent's file is an update");
    }
    // The registry: what it declares changes what every skill and agent
    // resolves to, and is an update; one with errors is compiled.
    let registry = RelPath::given(fs.root().join("registry.yaml").display().to_string());
    let original = String::from_utf8(fs.get("registry.yaml").unwrap().to_vec()).unwrap();
    let cases: [(&str, Change); 5] = [
        ("a comment", |t| format!("{t}# kept for the desk\n")),
        ("a tool gone", |t| t.replacen("  - fetch_invoice\n", "", 1)),
        ("no tools", |t| {
            let (start, end) = (t.find("tools:\n").unwrap(), t.find("models:\n").unwrap());
            format!("{}tools: []\n{}", &t[..start], &t[end..])
        }),
        ("a model gone", |t| t.replacen("  - anthropic/claude-haiku-4-5\n", "", 1)),
        ("a context gone", |t| t.replacen("  - order-history\n", "", 1)),
    ];
    for (what, change) in cases {
        fs.insert("registry.yaml", change(&original)).unwrap();
        assert!(edit(&mut c, &fs, &opts, &memo, &registry), "{what} is an update");
        if what != "a comment" {
            assert!(!c.diagnostics.is_empty(), "{what} is a mistake");
        }
        fs.insert("registry.yaml", original.clone()).unwrap();
        assert!(edit(&mut c, &fs, &opts, &memo, &registry), "{what} undone is an update");
        assert!(c.diagnostics.is_empty(), "{what} undone: {:#?}", c.diagnostics);
    }
    fs.insert("registry.yaml", "tools: [\n").unwrap();
    assert!(!c.update_file(&fs, &memo, &registry), "a registry with errors is compiled");
}

/// A copy made to update after a registry edit leaves the model and the
/// names out, and the registry's update makes them anew before any other:
/// with a skill edited in the same batch (and named first), the copy brought
/// up to date equals a cold compile.
#[test]
fn a_copy_to_update_is_updated_as_the_compilation() {
    let (mut fs, opts) = example();
    let memo = Memo::default();
    let c = compile_with(&fs, &opts, Some(&memo)).unwrap();
    let registry = RelPath::given(fs.root().join("registry.yaml").display().to_string());
    let files = skill_files(&c);
    let (skill, path) =
        files.iter().find(|(rel, _)| &*rel.path == "skills/intake/SKILL.md").unwrap();
    let text = String::from_utf8(fs.get(path).unwrap().to_vec()).unwrap();
    fs.insert(path, text.replacen("tools:\n", "tools:\n  - lookup_tickt\n", 1)).unwrap();
    let text = String::from_utf8(fs.get("registry.yaml").unwrap().to_vec()).unwrap();
    fs.insert("registry.yaml", text.replacen("  - fetch_invoice\n", "", 1)).unwrap();
    let edited = [skill.clone(), registry];
    assert!(c.copy_to_update(&edited[..1]).is_none(), "a skill's update is made in place");
    let mut copy = c.copy_to_update(&edited).expect("the registry's update is made on a copy");
    assert!(copy.model.skills.is_empty() && copy.names.refs.is_empty());
    assert!(copy.update_files(&fs, &memo, &edited));
    let cold = compile(&fs, &opts).unwrap();
    assert_eq!(copy.diagnostics, cold.diagnostics);
    assert_eq!(copy.model, cold.model);
    assert_eq!(copy.names.refs, cold.names.refs);
    let codes: Vec<Code> = copy.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.contains(&Code::UnknownTool), "{codes:?}");
}

/// An edit to `agentc.toml` that changes only `[lints]` levels (or
/// nothing) is an update equal to a compile with the file's options; one
/// that changes what is read (a content rule allowed, a size limit) or has
/// a mistake is left to a compile.
#[test]
fn agentc_toml_edits_that_keep_the_compile_are_updates() {
    let (mut fs, _) = example();
    let toml = "# the desk\nroot = \"agents\"\nworkspace = \".\"\nregistry = \"registry.yaml\"\n";
    fs.insert("agentc.toml", toml).unwrap();
    let skill = "agents/skills/intake/SKILL.md";
    let text = String::from_utf8(fs.get(skill).unwrap().to_vec()).unwrap();
    fs.insert(skill, format!("{text}\nSee [the guide](guide.md).\n")).unwrap();
    let file = fs.root().join("agentc.toml");
    let load = |fs: &MemFs| crate::project_file::load(fs, &file, &file.to_string_lossy()).unwrap();
    let memo = Memo::default();
    let compiled = |fs: &MemFs| {
        let project = load(fs);
        let mut c = compile_with(fs, &project.options, Some(&memo)).unwrap();
        (c.project_source, c.project_path) = (Some(project.source), Some(project.path));
        c
    };
    let broken = |c: &Compilation| -> Vec<Severity> {
        let links = c.diagnostics.iter().filter(|d| d.code == Code::BrokenLink);
        links.map(|d| d.severity).collect()
    };
    let mut c = compiled(&fs);
    assert_eq!(broken(&c), [Severity::Error]);
    let rel = c.project_source.as_ref().unwrap().path.clone();
    let cases: [(&str, &str, Option<&[Severity]>); 6] = [
        ("a comment", "# the desk, again\n", Some(&[Severity::Error])),
        ("a level", "[lints]\nbroken-link = \"warn\"\n", Some(&[Severity::Warning])),
        ("a code allowed", "[lints]\nbroken-link = \"allow\"\n", Some(&[])),
        ("a content rule allowed", "[lints]\nsecret = \"allow\"\n", None),
        ("a size limit", "max_file_size = 100000\n", None),
        ("a mistake", "[lints]\nbroken-link = \"loud\"\n", None),
    ];
    for (what, added, updated) in cases {
        fs.insert("agentc.toml", format!("{toml}{added}")).unwrap();
        assert_eq!(c.update_file(&fs, &memo, &rel), updated.is_some(), "{what}");
        if let Some(severities) = updated {
            let cold = compile(&fs, &load(&fs).options).unwrap();
            assert_eq!(c.diagnostics, cold.diagnostics, "{what}");
            assert_eq!(broken(&c), severities, "{what}");
            let source = c.project_source.as_ref().unwrap();
            assert_eq!(source.text.as_bytes(), fs.get("agentc.toml").unwrap(), "{what}");
        }
        fs.insert("agentc.toml", toml).unwrap();
        c = compiled(&fs);
    }
}

/// The language server keeps its memo when `agentc.toml` changes: with
/// `secret` allowed, a compile and an update scan nothing and report no
/// secret, as a cold compile does; allowed again, both find it.
#[test]
fn a_rule_allowed_or_restored_is_honoured_by_the_memo() {
    let (mut fs, mut opts) = example();
    let memo = Memo::default();
    let path = "agents/skills/intake/SKILL.md";
    let original = String::from_utf8(fs.get(path).unwrap().to_vec()).unwrap();
    let token = format!("ghp_{}", "Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo");
    fs.insert(path, format!("{original}\nThe token is {token}.\n")).unwrap();
    let secrets = |c: &Compilation| c.diagnostics.iter().filter(|d| d.code == Code::Secret).count();
    let mut c = compile_with(&fs, &opts, Some(&memo)).unwrap();
    assert_eq!(secrets(&c), 1);
    opts.lints.insert(Code::Secret, LintLevel::Allow);
    c = compile_with(&fs, &opts, Some(&memo)).unwrap();
    assert_eq!(secrets(&c), 0);
    assert!(c.sources.values().all(|s| !s.secrets_scanned()));
    let rel = c.project.skills.iter().map(|s| s.source.path.clone());
    let rel = rel.into_iter().find(|r| &*r.path == "skills/intake/SKILL.md").unwrap();
    fs.insert(path, format!("{original}\nThe token is still {token}.\n")).unwrap();
    assert!(edit(&mut c, &fs, &opts, &memo, &rel));
    assert_eq!(secrets(&c), 0);
    assert!(c.sources.values().all(|s| !s.secrets_scanned()));
    opts.lints.clear();
    c = compile_with(&fs, &opts, Some(&memo)).unwrap();
    assert_eq!(secrets(&c), 1);
    assert_eq!(c.diagnostics, compile(&fs, &opts).unwrap().diagnostics);
}

/// The Markdown files a skill bundles follow its edits: an edit to one
/// redoes the links of the skills reading it, and an edit to the skill
/// that stops or starts linking one drops it from the sources or adds
/// it. Every result equals a cold compile's.
#[test]
fn bundled_files_update_with_their_skill() {
    let mut fs = MemFs::new();
    let skill = "---\nname: pdf\ndescription: Fill.\n---\nRead [forms](references/forms.md).\n";
    let forms = "# Forms\n\nSee [boxes](boxes.md).\n";
    fs.insert("skills/pdf/SKILL.md", skill).unwrap();
    fs.insert("skills/pdf/references/forms.md", forms).unwrap();
    fs.insert("skills/pdf/references/boxes.md", "# Boxes\n").unwrap();
    let opts = Options::new(fs.root());
    let memo = Memo::default();
    let mut c = compile_with(&fs, &opts, Some(&memo)).unwrap();
    let (skill_rel, forms_rel) =
        (RelPath::root("skills/pdf/SKILL.md"), RelPath::root("skills/pdf/references/forms.md"));
    let boxes_rel = RelPath::root("skills/pdf/references/boxes.md");
    assert!(c.sources.contains_key(&boxes_rel), "read two levels down");
    let broken = |c: &Compilation| -> Vec<String> {
        c.diagnostics.iter().map(|d| d.location.file.path.to_string()).collect()
    };
    // Each edit, with the problems it makes and whether `boxes.md` is read.
    let edits = [
        ("skills/pdf/references/forms.md", &forms_rel, "See [boxes](box.md).\n", 1, false),
        ("skills/pdf/references/forms.md", &forms_rel, forms, 0, true),
        (
            "skills/pdf/SKILL.md",
            &skill_rel,
            "---\nname: pdf\ndescription: F.\n---\nFill.\n",
            0,
            false,
        ),
        ("skills/pdf/SKILL.md", &skill_rel, skill, 0, true),
    ];
    for (path, rel, text, count, read) in edits {
        fs.insert(path, text).unwrap();
        assert!(edit(&mut c, &fs, &opts, &memo, rel), "an edit to {path} is an update");
        assert_eq!(broken(&c).len(), count, "{text}: {:#?}", c.diagnostics);
        assert_eq!(c.sources.contains_key(&boxes_rel), read, "after {text}");
    }
    assert_eq!(broken(&c), Vec::<String>::new());
    let lock = crate::lock::lockfile(&c);
    let files: Vec<&str> = lock.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(files, ["skills/pdf/SKILL.md"], "the lockfile pins what is compiled");
}

/// Reads `dir` into `fs` under `under`.
fn load_dir(fs: &mut MemFs, dir: &Path, under: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let Some(name) = entry.file_name().to_str().map(|n| format!("{under}{n}")) else {
            continue;
        };
        if entry.path().is_dir() {
            load_dir(fs, &entry.path(), &format!("{name}/"));
        } else if let Ok(bytes) = std::fs::read(entry.path()) {
            fs.insert(&name, bytes).unwrap();
        }
    }
}

/// Every fixture of `tests/fixtures`, in name order, as a file system in
/// memory and the options `agentc check` would compile it with.
fn fixtures() -> impl Iterator<Item = (MemFs, Options)> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
    let mut cases: Vec<_> = std::fs::read_dir(&fixtures).unwrap().flatten().collect();
    cases.sort_by_key(|e| e.file_name());
    (cases.into_iter()).map(|case| {
        let mut fs = MemFs::new();
        load_dir(&mut fs, &case.path().join("root"), "root/");
        load_dir(&mut fs, &case.path().join("workspace"), "workspace/");
        let mut opts = Options::new(fs.root().join("root"));
        if case.path().join("workspace").is_dir() {
            opts.workspace = Some(fs.root().join("workspace"));
        }
        if let Ok(registry) = std::fs::read(case.path().join("registry.yaml")) {
            fs.insert("registry.yaml", registry).unwrap();
            opts.registry = Some(fs.root().join("registry.yaml"));
        }
        (fs, opts)
    })
}

/// Every skill file of every fixture, renamed, made a duplicate, broken
/// and added to, then restored: after each edit the updated compilation
/// equals a cold compile.
#[test]
fn every_fixture_updates_as_it_compiles() {
    let mut updates = 0;
    for (mut fs, opts) in fixtures() {
        let memo = Memo::default();
        let Ok(mut c) = compile_with(&fs, &opts, Some(&memo)) else { continue };
        let skills = c.project.skills.iter().map(|s| &s.file);
        let files: Vec<(RelPath, String)> = (skills.chain(&c.project.unparsed_skills))
            .map(|f| f.file.rel.clone())
            .filter_map(|rel| {
                let under = match rel.origin {
                    Origin::Root => "root",
                    Origin::Workspace => "workspace",
                    Origin::Given => return None,
                };
                let path = format!("{under}/{}", rel.path);
                Some((rel, path))
            })
            .collect();
        let names: Vec<String> =
            c.project.skills.iter().map(|s| s.parsed.front.value.name.value.to_string()).collect();
        for (rel, path) in files {
            let Some(original) = fs.get(&path).and_then(|b| String::from_utf8(b.to_vec()).ok())
            else {
                continue;
            };
            let other = names.iter().find(|n| !original.contains(&format!("name: {n}\n")));
            let edits = [
                original.replacen("name: ", "name: z", 1),
                other.map_or_else(String::new, |n| {
                    let line = original.lines().find(|l| l.starts_with("name: ")).unwrap_or("");
                    original.replacen(line, &format!("name: {n}"), 1)
                }),
                original.replacen("---\n", "---\n[\n", 1),
                format!("{original}\nMore, with [a link](nowhere.md).\n"),
            ];
            for edited in edits {
                for text in [edited, original.clone()] {
                    fs.insert(&path, text).unwrap();
                    if edit(&mut c, &fs, &opts, &memo, &rel) {
                        updates += 1;
                    }
                }
            }
        }
    }
    assert!(updates > 1000, "only {updates} edits were updates");
}

/// Every skill, agent, assistant and tool of every fixture: its tree was
/// let go after its parse, and the tree built again is the one a parse
/// that keeps it makes, with the same keys; a compile with no problems
/// keeps none of them built again.
#[test]
fn every_released_tree_is_built_again_as_parsed() {
    use crate::dialects::AssistantDoc;
    use crate::parse::files::{agent_json, agent_md, tool_manifest};
    use crate::parse::tree::{Node, Tree, Value};
    use crate::project::AgentKind;
    let mut compared = 0;
    for (fs, opts) in fixtures() {
        let Ok(c) = compile(&fs, &opts) else { continue };
        let clean = c.diagnostics.is_empty();
        let mut same = |released: &Tree, fresh: Option<&Tree>, what: &RelPath| {
            let fresh = fresh.unwrap_or_else(|| panic!("{what} parses again"));
            // (A file of all body has an empty tree of no text, kept.)
            let empty = matches!(&fresh.value, Value::Map(entries) if entries.is_empty());
            assert!(!(clean && released.is_held() && !empty), "{what}: a tree is kept");
            assert_eq!(released.with(Node::clone), **fresh, "{what}");
            assert!(released.keys().eq(fresh.keys()), "{what}");
            compared += 1;
        };
        for skill in &c.project.skills {
            let plugin = matches!(skill.file.owner, crate::discover::Owner::Plugin(_));
            let (source, dialect, folder) = (&skill.source, skill.file.dialect, &skill.file.folder);
            let fresh =
                crate::dialects::skill::skill(source, folder, dialect, plugin, &mut Vec::new());
            same(&skill.parsed.front.tree, fresh.as_ref().map(|p| &p.front.tree), &source.path);
        }
        for agent in &c.project.agents {
            let source = &agent.source;
            match &agent.kind {
                AgentKind::Bundle(md) => {
                    let fresh = agent_md(source, &agent.dir.id, &mut Vec::new());
                    same(&md.front.tree, fresh.as_ref().map(|m| &m.front.tree), &source.path);
                }
                AgentKind::Package { manifest, .. } => {
                    let fresh = agent_json(source, &mut Vec::new());
                    same(&manifest.tree, fresh.as_ref().map(|d| &d.tree), &source.path);
                }
            }
        }
        let tree = |doc: &AssistantDoc| -> Tree {
            match doc {
                AssistantDoc::Subagent(md) => md.front.tree.clone(),
                AssistantDoc::Command(md) => md.front.tree.clone(),
                AssistantDoc::Copilot(md) => md.front.tree.clone(),
            }
        };
        for assistant in &c.project.assistants {
            let source = &assistant.source;
            let doc = match assistant.file.dialect {
                agentc_schema::Dialect::ClaudeSubagent => {
                    let plugin = assistant.file.plugin.is_some();
                    crate::dialects::subagent(source, plugin, &mut Vec::new())
                        .map(AssistantDoc::Subagent)
                }
                agentc_schema::Dialect::ClaudeCommand => {
                    crate::dialects::command(source, &mut Vec::new()).map(AssistantDoc::Command)
                }
                _ => crate::dialects::copilot_agent(source, &mut Vec::new())
                    .map(AssistantDoc::Copilot),
            };
            same(&tree(&assistant.doc), doc.as_ref().map(tree).as_ref(), &source.path);
        }
        for (source, doc) in c.project.tools.iter().filter_map(|t| t.manifest.as_ref()) {
            // Built again whole: the released tree's own parse.
            let mut fresh = Vec::new();
            let folder = source.path.path.rsplit('/').nth(1).unwrap_or_default();
            let parsed = tool_manifest(source, folder, &mut fresh)
                .map(|d| Tree::kept(d.tree.with(Node::clone)));
            same(&doc.tree, parsed.as_ref(), &source.path);
        }
    }
    assert!(compared > 300, "only {compared} trees compared");
}

/// Every fixture's registry, each line it lists removed in turn, then
/// restored: each edit is an update equal to a cold compile, or (the
/// registry has errors now) one the update leaves to a compile.
#[test]
fn every_registry_edit_updates_as_it_compiles() {
    let (mut updates, mut refused) = (0, 0);
    for (mut fs, opts) in fixtures() {
        let Some(path) = opts.registry.clone() else { continue };
        let memo = Memo::default();
        let Ok(mut c) = compile_with(&fs, &opts, Some(&memo)) else { continue };
        let rel = RelPath::given(path.display().to_string());
        let original = String::from_utf8(fs.get("registry.yaml").unwrap().to_vec()).unwrap();
        let lines: Vec<&str> = original.lines().collect();
        for i in (0..lines.len()).filter(|&i| lines[i].trim_start().starts_with("- ")) {
            let mut edited = lines.clone();
            edited.remove(i);
            for text in [edited.join("\n") + "\n", original.clone()] {
                fs.insert("registry.yaml", text).unwrap();
                if compile(&fs, &opts).is_err() {
                    assert!(!c.update_file(&fs, &memo, &rel), "a registry with errors is compiled");
                    refused += 1;
                    continue;
                }
                assert!(edit(&mut c, &fs, &opts, &memo, &rel), "line {i} of {}", path.display());
                updates += 1;
            }
        }
    }
    assert!(updates > 100, "only {updates} registry edits were updates ({refused} refused)");
}

/// Every agent, assistant and tool file of every fixture: its description
/// lengthened, its name changed, its frontmatter broken, a link added, then
/// restored. After each edit the updated (or recompiled) compilation equals a
/// cold compile.
#[test]
fn every_agent_assistant_and_tool_file_updates_as_it_compiles() {
    let (mut updates, mut edits_made) = (0, 0);
    for (mut fs, opts) in fixtures() {
        let memo = Memo::default();
        let Ok(mut c) = compile_with(&fs, &opts, Some(&memo)) else { continue };
        let agents = c.project.agents.iter().map(|a| a.source.path.clone());
        let assistants = c.project.assistants.iter().map(|a| a.source.path.clone());
        let tools =
            c.project.tools.iter().filter_map(|t| Some(t.manifest.as_ref()?.0.path.clone()));
        let files: Vec<(RelPath, String)> = (agents.chain(assistants).chain(tools))
            .filter_map(|rel| {
                let under = match rel.origin {
                    Origin::Root => "root",
                    Origin::Workspace => "workspace",
                    Origin::Given => return None,
                };
                let path = format!("{under}/{}", rel.path);
                Some((rel, path))
            })
            .collect();
        for (rel, path) in files {
            let Some(original) = fs.get(&path).and_then(|b| String::from_utf8(b.to_vec()).ok())
            else {
                continue;
            };
            let edits = [
                original.replacen("description: ", "description: Now ", 1),
                original.replacen("\"description\": \"", "\"description\": \"Now ", 1),
                original.replacen("name: ", "name: z", 1),
                original.replacen("\"name\": \"", "\"name\": \"z", 1),
                original.replacen("agent: ", "agent: z", 1),
                original.replacen("---\n", "---\n[\n", 1),
                format!("{original}\nMore, with [a link](nowhere.md).\n"),
            ];
            for edited in edits.into_iter().filter(|e| *e != original) {
                // (Each edit, and the original restored.)
                for text in [edited, original.clone()] {
                    fs.insert(&path, text).unwrap();
                    edits_made += 1;
                    if edit(&mut c, &fs, &opts, &memo, &rel) {
                        updates += 1;
                    }
                }
            }
        }
    }
    assert!(updates * 2 > edits_made, "only {updates} of {edits_made} edits were updates");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Keystrokes anywhere in any of the example's skills: after each,
    /// the updated (or recompiled) compilation equals a cold compile.
    #[test]
    fn keystrokes_update_as_a_compile_would(
        pick in any::<prop::sample::Index>(),
        keys in prop::collection::vec(
            (any::<prop::sample::Index>(), prop::option::of(prop::sample::select(
                vec!['a', 'e', '-', '_', ':', ' ', '\n', '[', '(', '.', '/', '=']
            ))),
            1..10,
        ),
    ) {
        let (mut fs, opts) = example();
        let memo = Memo::default();
        let mut c = compile_with(&fs, &opts, Some(&memo)).unwrap();
        let files = skill_files(&c);
        let (rel, path) = pick.get(&files).clone();
        let mut text = String::from_utf8(fs.get(&path).unwrap().to_vec()).unwrap();
        for (at, key) in keys {
            let boundaries: Vec<usize> =
                (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            let at = *at.get(&boundaries);
            match key {
                Some(c) => text.insert(at, c),
                None if at < text.len() => {
                    text.remove(at);
                }
                None => {}
            }
            fs.insert(&path, text.clone()).unwrap();
            edit(&mut c, &fs, &opts, &memo, &rel);
        }
    }
}

/// One step of [`edit_sequences_update_as_a_compile_would`]: the file it
/// edits (in the memory file system) and the text it gets, from the text
/// the file has and had at first.
type Step = (&'static str, fn(&str, &str) -> String);

/// Edits to every kind of input an update takes: the registry's tools
/// (removed, added, renamed, restored), `agentc.toml`'s levels, a skill's
/// `tools:` (renamed) and `name`, an agent's text, a subagent's `skills`,
/// a Copilot agent's handoff and the name it hands off to, and the same
/// text again (a save).
const STEPS: &[Step] = &[
    ("registry.yaml", |t, _| t.replacen("  - fetch_invoice\n", "", 1)),
    ("registry.yaml", |t, _| t.replacen("  - send_customer_email\n", "", 1)),
    // (A tool listed twice is an error of the registry, which fails a
    // compile: not what this compares.)
    ("registry.yaml", |t, _| match t.contains("  - fetch_invoices\n") {
        true => t.to_owned(),
        false => t.replacen("tools:\n", "tools:\n  - fetch_invoices\n", 1),
    }),
    ("registry.yaml", |t, _| match t.contains("  - fetch_invoices\n") {
        true => t.to_owned(),
        false => t.replacen("  - fetch_invoice\n", "  - fetch_invoices\n", 1),
    }),
    ("registry.yaml", |_, first| first.to_owned()),
    ("registry.yaml", |t, _| t.to_owned()),
    ("agentc.toml", |t, _| format!("{t}# again\n")),
    ("agentc.toml", |_, first| format!("{first}[lints]\nunknown-tool = \"warn\"\n")),
    ("agentc.toml", |_, first| format!("{first}[lints]\nstep-tool-undeclared = \"allow\"\n")),
    ("agentc.toml", |_, first| format!("{first}max_file_size = 100000\n")),
    ("agentc.toml", |_, first| first.to_owned()),
    ("agents/billing/skills/charge-lookup/SKILL.md", |t, _| {
        t.replacen("  - fetch_invoice\n", "  - fetch_invoices\n", 1)
    }),
    ("agents/billing/skills/charge-lookup/SKILL.md", |t, _| {
        t.replacen("  - fetch_invoices\n", "  - fetch_invoice\n", 1)
    }),
    ("agents/billing/skills/charge-lookup/SKILL.md", |_, first| first.to_owned()),
    ("agents/skills/intake/SKILL.md", |t, _| {
        t.replacen("name: intake\n", "name: intake-desk\n", 1)
    }),
    ("agents/skills/intake/SKILL.md", |_, first| first.to_owned()),
    ("agents/billing/AGENT.md", |t, _| t.replacen("description: ", "description: Now ", 1)),
    ("agents/billing/AGENT.md", |_, first| first.to_owned()),
    (".claude/agents/desk-helper.md", |t, _| t.replacen("  - intake\n", "  - intake-desk\n", 1)),
    (".claude/agents/desk-helper.md", |_, first| first.to_owned()),
    (".github/agents/triage.agent.md", |t, _| {
        t.replacen("agent: review\n", "agent: reviewer\n", 1)
    }),
    (".github/agents/triage.agent.md", |_, first| first.to_owned()),
    (".github/agents/review.agent.md", |t, _| t.replacen("name: review\n", "name: reviewer\n", 1)),
    (".github/agents/review.agent.md", |_, first| first.to_owned()),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Issue #36: any sequence of edits, each batch of one or two applied
    /// as the language server applies it ([`edit_batch`], with the options
    /// `agentc.toml` gives): after each, the compilation equals a cold
    /// compile, and nothing panics.
    #[test]
    fn edit_sequences_update_as_a_compile_would(
        batches in prop::collection::vec(
            prop::collection::vec(0..STEPS.len(), 1..=2),
            1..10,
        ),
    ) {
        let (mut fs, _) = example_with_assistants();
        let toml = "root = \"agents\"\nworkspace = \".\"\nregistry = \"registry.yaml\"\n";
        fs.insert("agentc.toml", toml).unwrap();
        let file = fs.root().join("agentc.toml");
        let memo = Memo::default();
        let load = |fs: &MemFs| crate::project_file::load(fs, &file, &file.to_string_lossy());
        let compiled = |fs: &MemFs, memo: Option<&Memo>| {
            let project = load(fs).unwrap();
            let mut c = compile_with(fs, &project.options, memo).unwrap();
            (c.project_source, c.project_path) = (Some(project.source), Some(project.path));
            c
        };
        let mut c = compiled(&fs, Some(&memo));
        let text = |fs: &MemFs, path: &str| String::from_utf8(fs.get(path).unwrap().to_vec()).unwrap();
        let firsts: Vec<String> = STEPS.iter().map(|(path, _)| text(&fs, path)).collect();
        for batch in batches {
            let mut files = Vec::new();
            for step in batch {
                let (path, change) = STEPS[step];
                fs.insert(path, change(&text(&fs, path), &firsts[step])).unwrap();
                let on_disk = fs.root().join(path);
                let rel = c.texts().map(|s| &s.path).find(|rel| c.disk_path(rel).as_ref() == Some(&on_disk));
                files.extend(rel.cloned());
            }
            let updated = match c.copy_to_update(&files) {
                Some(mut copy) => {
                    let updated = copy.update_files(&fs, &memo, &files);
                    if updated {
                        c = copy;
                    }
                    updated
                }
                None => c.update_files(&fs, &memo, &files),
            };
            if !updated {
                c = compiled(&fs, Some(&memo));
            }
            let cold = compiled(&fs, None);
            prop_assert_eq!(&c.diagnostics, &cold.diagnostics);
            prop_assert_eq!(&c.model, &cold.model);
            prop_assert_eq!(&c.names.refs, &cold.names.refs);
        }
    }
}
