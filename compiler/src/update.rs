//! Update: a compilation brought up to date after an edit to one skill's
//! text — the language server's path for a keystroke.
//!
//! A skill's share of the result (its parse, its names resolved, its runbook
//! and link checks, its compiled form) depends on its own text and on the
//! scope tables; the tables depend only on where each definition is and what
//! it is called. So an edit that leaves the skill's `name` as it was, written
//! where it was, redoes that skill alone, and the checks of the agents that
//! activate it (they read its tools and routes). The result is what a full
//! compile of the edited project gives: the memo test, the language server's
//! tests and the editing benchmark compare the two after every edit.
//!
//! Anything more (the name changed or moved, the file no longer reads or
//! parses, files added or removed) is left to a full compile: the update says
//! it did not apply, and leaves the compilation as it was.

use crate::check::{self, links::Trees};
use crate::compile::{Compilation, Memo};
use crate::diagnostic::{self, Diagnostic, RelPath};
use crate::fs::Fs;
use crate::options::Options;
use crate::project::Skill;
use crate::read::read_all;
use crate::resolve;

/// What an update needs from the compile that made a compilation: its
/// options, and every diagnostic by what made it.
#[derive(Debug)]
pub(crate) struct Kept {
    pub(crate) options: Options,
    /// Each project skill's share: its parse, its names resolved, its
    /// runbook, its links.
    pub(crate) skills: Vec<Vec<Diagnostic>>,
    /// How many of `Names::refs` each project skill made (they come first,
    /// in project order).
    pub(crate) skill_refs: Vec<usize>,
    /// Each agent's checks, in project order.
    pub(crate) agents: Vec<Vec<Diagnostic>>,
    /// Every other diagnostic.
    pub(crate) rest: Vec<Diagnostic>,
}

impl Kept {
    /// Every diagnostic, in report order without repeats.
    pub(crate) fn diagnostics(&self) -> Vec<Diagnostic> {
        let shares = self.skills.iter().chain(&self.agents).flatten();
        let mut all: Vec<Diagnostic> = self.rest.iter().chain(shares).cloned().collect();
        diagnostic::sort(&mut all);
        all
    }
}

impl Compilation {
    /// Brings the compilation up to date after the text of the skill file
    /// `file` changed (as `fs` now reads it). Returns whether it could: when
    /// the edit changes more than the skill's own share, the compilation is
    /// left as it was and needs a full compile.
    pub fn update_skill(&mut self, fs: &dyn Fs, memo: &Memo, file: &RelPath) -> bool {
        let Some(kept) = self.kept.as_mut() else {
            return false;
        };
        let Some(i) = self.project.skills.iter().position(|s| &s.source.path == file) else {
            return false;
        };
        let old = &self.project.skills[i];
        let skill_file = old.file.clone();
        let max_size = kept.options.max_file_size;
        let read =
            read_all(fs, std::slice::from_ref(&skill_file.file), max_size, Some(memo.sources()));
        let Some(Ok(source)) = read.into_iter().next() else {
            return false;
        };
        if std::sync::Arc::ptr_eq(&source.text, &old.source.text) {
            return true;
        }
        let (Some(parsed), parse_problems) = memo.skill(&skill_file, &source) else {
            return false;
        };
        let (was, is) = (&old.parsed.front.value.name, &parsed.front.value.name);
        if was.value != is.value || was.span != is.span {
            return false;
        }

        self.sources.insert(file.clone(), source.clone());
        self.project.skills[i] = Skill { file: skill_file, source, parsed };
        let skill = &self.project.skills[i];
        let resolved = resolve::resolve_skill(&self.project, &kept.options, &self.names, i);
        let trees = Trees { root: &self.root, workspace: self.workspace.as_deref() };
        let body = skill.parsed.body(&skill.source);
        let mut own = parse_problems;
        own.extend(resolved.diagnostics);
        own.extend(check::skill_checks(skill, &self.names));
        own.extend(check::links::body_links(
            fs,
            &trees,
            &skill.source,
            body,
            skill.parsed.body_span,
        ));
        kept.skills[i] = own;

        let start: usize = kept.skill_refs[..i].iter().sum();
        let made = resolved.refs.len();
        self.names.refs.splice(start..start + kept.skill_refs[i], resolved.refs);
        kept.skill_refs[i] = made;

        // A duplicate definition compiles to nothing, before and after alike.
        if let Some(compiled) = resolved.compiled {
            let qualified = compiled.qualified.clone();
            let skills = &mut self.model.skills;
            match skills.binary_search_by(|s| s.qualified.cmp(&qualified)) {
                Ok(at) => skills[at] = compiled,
                Err(at) => skills.insert(at, compiled),
            }
            for (a, agent) in self.project.agents.iter().enumerate() {
                let activates = self.model.agent(&agent.dir.id).is_some_and(|compiled| {
                    compiled.skills.iter().any(|r| r.qualified == qualified)
                });
                if activates {
                    kept.agents[a] =
                        check::agent_checks(&self.project, &self.model, &self.names, agent);
                }
            }
        }
        self.diagnostics = kept.diagnostics();
        true
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use proptest::prelude::*;

    use super::*;
    use crate::compile::{compile, compile_with};
    use crate::diagnostic::Origin;
    use crate::memfs::MemFs;

    /// The bundled example, in memory, with the options its project file gives.
    fn example() -> (MemFs, Options) {
        fn load(fs: &mut MemFs, dir: &Path, under: &str) {
            let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
            entries.sort_by_key(|e| e.file_name());
            for entry in entries {
                let name = format!("{under}{}", entry.file_name().to_string_lossy());
                if entry.file_type().unwrap().is_dir() {
                    load(fs, &entry.path(), &format!("{name}/"));
                } else {
                    fs.insert(&name, std::fs::read(entry.path()).unwrap()).unwrap();
                }
            }
        }
        let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/support-desk");
        let mut fs = MemFs::new();
        load(&mut fs, &example.join("agents"), "agents/");
        load(&mut fs, &example.join(".agents"), ".agents/");
        for file in ["registry.yaml", "AGENTS.md"] {
            fs.insert(file, std::fs::read(example.join(file)).unwrap()).unwrap();
        }
        let mut opts = Options::new(fs.root().join("agents"));
        opts.workspace = Some(fs.root().to_path_buf());
        opts.registry = Some(fs.root().join("registry.yaml"));
        (fs, opts)
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
        let updated = c.update_skill(fs, memo, rel);
        if !updated {
            *c = compile_with(fs, opts, Some(memo)).unwrap();
        }
        let cold = compile(fs, opts).unwrap();
        assert_eq!(c.diagnostics, cold.diagnostics);
        assert_eq!(c.model, cold.model);
        assert_eq!(c.names.refs, cold.names.refs);
        let texts = |c: &Compilation| -> Vec<(RelPath, String)> {
            c.sources.iter().map(|(rel, s)| (rel.clone(), s.text.to_string())).collect()
        };
        assert_eq!(texts(c), texts(&cold));
        updated
    }

    /// Edits that keep the skill's name where it was are updates (the agent
    /// activating the skill checked again); the rest compile; every result
    /// equals a cold compile's.
    #[test]
    fn an_update_is_a_compile() {
        let (mut fs, opts) = example();
        let memo = Memo::default();
        let mut c = compile_with(&fs, &opts, Some(&memo)).unwrap();
        let files = skill_files(&c);
        type Change = fn(&str) -> String;
        let intake = "skills/intake/SKILL.md";
        let charges = "billing/skills/charge-lookup/SKILL.md";
        let cases: [(&str, &str, Change, bool); 9] = [
            (intake, "description", |t| t.replacen("description: ", "description: Now ", 1), true),
            (
                intake,
                "misspelt route",
                |t| t.replacen("classify-request", "clasify-request", 1),
                true,
            ),
            (
                intake,
                "unknown tool",
                |t| t.replacen("tools:\n", "tools:\n  - lookup_tickt\n", 1),
                true,
            ),
            (intake, "broken link", |t| format!("{t}\nSee [the guide](guide.md).\n"), true),
            (intake, "unchanged", |t| t.to_owned(), true),
            (intake, "renamed", |t| t.replacen("name: intake", "name: intake-desk", 1), false),
            (intake, "unparsable", |t| t.replacen("tools:\n", "tools:\n   - x\n", 1), false),
            (
                charges,
                "route removed",
                |t| t.replacen("  - refund-review: on fetch_invoice status=success\n", "", 1),
                true,
            ),
            (
                charges,
                "inactive tool",
                |t| t.replacen("tools:\n", "tools:\n  - search_kb\n", 1),
                true,
            ),
        ];
        for (file, what, change, updates) in cases {
            let (rel, path) = files.iter().find(|(rel, _)| rel.path == file).unwrap();
            let original = String::from_utf8(fs.get(path).unwrap().to_vec()).unwrap();
            fs.insert(path, change(&original)).unwrap();
            assert_eq!(edit(&mut c, &fs, &opts, &memo, rel), updates, "{what}");
            if !["description", "unchanged"].contains(&what) {
                assert!(!c.diagnostics.is_empty(), "{what} is a mistake");
            }
            fs.insert(path, original).unwrap();
            edit(&mut c, &fs, &opts, &memo, rel);
            assert!(c.diagnostics.is_empty(), "{what} undone: {:#?}", c.diagnostics);
        }
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
}
