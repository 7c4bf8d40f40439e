//! The Markdown files a skill bundles: `SKILL.md` links `references/forms.md`,
//! the model opens it mid-task, and a link in it that points nowhere fails
//! there just as one in the skill's body does. So the relative links of every
//! Markdown file a skill's links lead to inside its own folder are checked
//! too, relative to that file, and through the files those link to in turn.
//!
//! Each file read is scanned as the skill's own text is: for secrets and for
//! hidden characters.
//!
//! Nothing is listed: a file is read only because a link names it, and only
//! when it is a regular Markdown file inside the skill's folder, reached
//! through no symbolic link below that folder (its links then mean what they
//! say from where it is shown), UTF-8 and small. Each file is read once per
//! skill, and at most [`MAX_FILES`] of them.

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

use super::links::{Named, Trees, broken, missing, normalize};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath};
use crate::discover::FileRef;
use crate::fs::{EntryKind, Fs};
use crate::parse::links::{Link, relative_links};
use crate::project::Skill;
use crate::source::Source;
use agentc_schema::{Span, Spanned};

/// The largest bundled file read (a larger one is reference data, not prose).
pub const MAX_BYTES: u64 = 1 << 20;
/// How many bundled files one skill's links are followed through.
pub const MAX_FILES: usize = 256;

/// Which bundled files are read.
pub struct Bundling<'a> {
    /// The largest file read.
    pub max_size: u64,
    /// The compile's content rules: a bundled file's shown lines are masked
    /// as every other file's are.
    pub rules: crate::options::ContentRules,
    /// Whether a file is one the compile reads on its own (a nested skill's
    /// `SKILL.md`): its links are checked as its own, not here.
    pub is_input: &'a (dyn Fn(&RelPath) -> bool + Sync),
}

/// What one skill's links come to.
#[derive(Debug, Default)]
pub struct SkillLinks {
    /// The broken links of its body and of its bundled files.
    pub diagnostics: Vec<Diagnostic>,
    /// The bundled files read, each with where it is on disk (canonical).
    pub bundled: Vec<(Source, PathBuf)>,
}

/// Where one skill is, for following its links.
struct Walk<'a> {
    fs: &'a dyn Fs,
    trees: &'a Trees<'a>,
    bundling: &'a Bundling<'a>,
    origin: crate::diagnostic::Origin,
    /// The skill's folder in its tree, and where it is on disk.
    folder: PathBuf,
    canonical: &'a Path,
    /// The files met so far (`SKILL.md` first), in the skill's tree.
    seen: HashSet<PathBuf>,
    queue: VecDeque<PathBuf>,
}

/// The broken links of `skill`'s body and of the Markdown files it bundles.
pub fn skill_links(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    skill: &Skill,
    bundling: &Bundling<'_>,
) -> SkillLinks {
    let mut links = skill_links_as_written(fs, trees, skill, bundling);
    if skill.file.dialect != agentc_schema::Dialect::Runbook {
        links.diagnostics = super::links::as_warnings(links.diagnostics);
    }
    for (script, path) in scripts(fs, trees, skill, bundling) {
        links.diagnostics.extend(crate::shell::diagnostics(
            &script,
            &Spanned {
                value: &*script.text,
                span: Span::new(0, script.text.len()),
                text_at: Some(0),
            },
            "this script",
        ));
        links.bundled.push((script, path));
    }
    // The model reads a bundled file as it is, mid-task: a secret or a
    // hidden character in it counts as one in the skill's own text, at its
    // own level.
    for (bundled, _) in &links.bundled {
        links.diagnostics.extend(crate::secrets::diagnostics(bundled));
        links.diagnostics.extend(super::hidden::scan(bundled));
    }
    links
}

/// How many files of a skill's `scripts/` folder are read.
pub const MAX_SCRIPTS: usize = 32;

/// The files of the skill's `scripts/` folder, when its body names that
/// folder (a script the body does not name is one the model is not told to
/// run): each a regular UTF-8 file inside the skill, read within the bounds
/// bundled files are; binaries and links are passed over.
fn scripts(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    skill: &Skill,
    bundling: &Bundling<'_>,
) -> Vec<(Source, PathBuf)> {
    let source = &skill.source;
    if !source.slice(skill.parsed.body_span).contains("scripts/") {
        return Vec::new();
    }
    let (Some(file), Some(canonical)) =
        (normalize(Path::new(&*source.path.path)), skill.file.file.path.parent())
    else {
        return Vec::new();
    };
    let folder = file.parent().unwrap_or(Path::new("")).to_path_buf();
    if fs.kind(&canonical.join("scripts")).ok() != Some(EntryKind::Dir) {
        return Vec::new();
    }
    let Ok(mut entries) = fs.read_dir(&canonical.join("scripts")) else {
        return Vec::new();
    };
    entries.retain(|(_, kind)| *kind == EntryKind::File);
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let walk = Walk {
        fs,
        trees,
        bundling,
        origin: source.path.origin,
        folder: folder.clone(),
        canonical,
        seen: HashSet::new(),
        queue: VecDeque::new(),
    };
    entries
        .iter()
        .take(MAX_SCRIPTS)
        .filter_map(|(name, _)| walk.read(&folder.join("scripts").join(name)))
        .collect()
}

/// [`skill_links`], each broken link an error.
fn skill_links_as_written(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    skill: &Skill,
    bundling: &Bundling<'_>,
) -> SkillLinks {
    let source = &skill.source;
    let mut out = SkillLinks::default();
    let span = skill.parsed.body_span;
    // The links that lead somewhere, to follow.
    let mut found = Vec::new();
    for link in relative_links(source.slice(span), span.start) {
        match broken(fs, trees, source, &link) {
            Some(diagnostic) => out.diagnostics.push(diagnostic),
            None => found.push(link.path),
        }
    }
    if found.is_empty() {
        return out;
    }
    let (Some(file), Some(canonical)) =
        (normalize(Path::new(&*source.path.path)), skill.file.file.path.parent())
    else {
        return out;
    };
    let folder = file.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut walk = Walk {
        fs,
        trees,
        bundling,
        origin: source.path.origin,
        folder: folder.clone(),
        canonical,
        seen: HashSet::from([file]),
        queue: VecDeque::new(),
    };
    for path in &found {
        walk.follow(&folder, path);
    }
    while let Some(inside) = walk.queue.pop_front() {
        let Some((bundled, path)) = walk.read(&inside) else {
            continue;
        };
        let here = inside.parent().unwrap_or(Path::new("")).to_path_buf();
        let (body, start) = match crate::parse::frontmatter::split(&bundled.text) {
            Ok(split) => (split.body, split.body_start),
            Err(_) => (&*bundled.text, 0),
        };
        for link in relative_links(body, start) {
            if let Some(diagnostic) = walk.check(&bundled, &here, &link) {
                out.diagnostics.push(diagnostic);
            }
        }
        out.bundled.push((bundled, path));
    }
    out
}

impl Walk<'_> {
    /// Queues the file `path` (written in a file of the folder `from`) leads
    /// to, when it is a Markdown file of the skill not met before.
    fn follow(&mut self, from: &Path, path: &str) {
        let markdown = Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown"));
        if !markdown || self.seen.len() > MAX_FILES {
            return;
        }
        let Some(inside) = normalize(&from.join(path)) else {
            return;
        };
        if inside.starts_with(&self.folder) && self.seen.insert(inside.clone()) {
            self.queue.push_back(inside);
        }
    }

    /// The file at `inside` and where it is, when it is one to read.
    fn read(&self, inside: &Path) -> Option<(Source, PathBuf)> {
        let rel = RelPath { origin: self.origin, path: shown(inside).into() };
        if (self.bundling.is_input)(&rel) {
            return None;
        }
        let (path, kind) = self.trees.found(self.fs, &self.trees.top(self.origin)?.join(inside))?;
        // A symbolic link below the skill's folder would make the file's
        // links mean something else from where it really is.
        let expected = self.canonical.join(inside.strip_prefix(&self.folder).ok()?);
        if kind != EntryKind::File || path != expected {
            return None;
        }
        let file = FileRef { rel, path };
        let source =
            crate::read::read_one(self.fs, &file, self.bundling.max_size, self.bundling.rules)
                .ok()?;
        Some((source, file.path))
    }

    /// The diagnostic for `link` in the bundled file `source` (in the folder
    /// `here`), if it leads nowhere; a link that leads somewhere is followed.
    fn check(&mut self, source: &Source, here: &Path, link: &Link) -> Option<Diagnostic> {
        let top = here == self.folder;
        let named = Named {
            code: Code::BrokenLink,
            what: if link.image { "image" } else { "link" },
            path: &link.path,
            span: link.span,
            relative_to: match top {
                true => "the file holding it",
                false => "the file holding it, or to the skill's folder",
            },
        };
        let Some(diagnostic) = missing(self.fs, self.trees, source, here, &named) else {
            self.follow(here, &link.path);
            return None;
        };
        // The Agent Skills specification has paths written from the skill's
        // folder: a link found from there is not broken either.
        if !top && missing(self.fs, self.trees, source, &self.folder, &named).is_none() {
            self.follow(&self.folder.clone(), &link.path);
            return None;
        }
        Some(diagnostic)
    }
}

/// A path of the tree, `/`-separated.
fn shown(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memfs::MemFs;

    fn compile(fs: &MemFs) -> crate::compile::Compilation {
        crate::compile(fs, &crate::Options::new(fs.root())).unwrap()
    }

    /// A chain of files linking each other, round and round: each is read
    /// once, and no more than [`MAX_FILES`] of them.
    #[test]
    fn a_long_chain_is_read_once_and_bounded() {
        let mut fs = MemFs::new();
        let skill = "---\nname: a\ndescription: A.\n---\nStart at [the first](refs/0.md).\n";
        fs.insert("skills/a/SKILL.md", skill).unwrap();
        let files = MAX_FILES + 44;
        for i in 0..files {
            let next = (i + 1) % files;
            let text =
                format!("Next: [{next}]({next}.md), then [back](../SKILL.md) and [x](x{i}).\n");
            fs.insert(&format!("skills/a/refs/{i}.md"), text).unwrap();
        }
        let c = compile(&fs);
        let read = c.sources.keys().filter(|rel| rel.path.starts_with("skills/a/refs/")).count();
        assert_eq!(read, MAX_FILES);
        let broken = c.diagnostics.iter().filter(|d| d.code == Code::BrokenLink).count();
        assert_eq!(broken, MAX_FILES, "one missing `x` in each file read");
    }

    /// A skill's link to a skill nested in its folder (Codex finds `SKILL.md`
    /// at any depth) reads nothing more: the nested skill is checked as
    /// itself, and stays an input the lockfile pins.
    #[test]
    fn a_nested_skill_is_not_bundled() {
        let mut fs = MemFs::new();
        fs.insert(".git/HEAD", "").unwrap();
        let ops = "---\nname: ops\ndescription: Ops.\n---\nSee [deploy](deploy/SKILL.md).\n";
        fs.insert("api/.agents/skills/ops/SKILL.md", ops).unwrap();
        let deploy = "---\nname: deploy\ndescription: Deploy.\n---\nSee [runbook](runbook.md).\n";
        fs.insert("api/.agents/skills/ops/deploy/SKILL.md", deploy).unwrap();
        fs.insert("api/.agents/skills/ops/deploy/runbook.md", "Roll back: [how](rollback.md).\n")
            .unwrap();
        let c = compile(&fs);
        let skills: Vec<&str> = c.project.skills.iter().map(|s| &*s.source.path.path).collect();
        assert_eq!(
            skills,
            ["api/.agents/skills/ops/SKILL.md", "api/.agents/skills/ops/deploy/SKILL.md"]
        );
        let found: Vec<(&str, &str)> =
            (c.diagnostics.iter()).map(|d| (&*d.location.file.path, d.message.as_str())).collect();
        let runbook = "api/.agents/skills/ops/deploy/runbook.md";
        assert_eq!(found, [(runbook, "the link `rollback.md` names a file that does not exist")]);
        let lock = crate::lock::lockfile(&c);
        let pinned: Vec<&str> = lock.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            pinned,
            ["api/.agents/skills/ops/SKILL.md", "api/.agents/skills/ops/deploy/SKILL.md"]
        );
    }
}
