//! Relative links and images in bodies must name files that exist inside the
//! project: a skill's `references/FORMS.md` that was never added fails only
//! when the model follows the link, mid-task.
//!
//! Existence is asked of the file-system seam without opening anything, each
//! path resolved by [`Bounds`]: a link inside the project is followed, and a
//! path that climbs out of the root and workspace, itself or through a
//! symlink, is reported rather than looked at. "Did you mean" lists a folder
//! once per run, and only a folder inside. A skill's links lead on into the
//! Markdown files it bundles ([`super::bundled`]).

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use agentc_schema::Span;
use rayon::prelude::*;

use super::bundled::{Bundling, SkillLinks};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Origin, Severity};
use crate::fs::{Bounds, EntryKind, Fs, Refused, Resolved};
use crate::parse::links::{Link, relative_links};
use crate::project::{AgentKind, Project};
use crate::source::Source;
use crate::suggest::NameIndex;

/// Where the trees of the project are on disk (canonical), and the folders
/// listed so far for suggestions.
pub struct Trees<'a> {
    root: &'a Path,
    workspace: Option<&'a Path>,
    bounds: Bounds,
    /// Each folder's names, listed at most once (`None`: it cannot be listed).
    listed: Mutex<HashMap<PathBuf, Option<Arc<NameIndex>>>>,
    /// Folders resolved, by the path that named them: where each leads.
    folders: Mutex<HashMap<PathBuf, PathBuf>>,
}

impl<'a> Trees<'a> {
    pub fn new(root: &'a Path, workspace: Option<&'a Path>) -> Trees<'a> {
        let bounds = Bounds::new([root].into_iter().chain(workspace).map(Path::to_path_buf));
        Trees { root, workspace, bounds, listed: Mutex::default(), folders: Mutex::default() }
    }

    /// The project's root, canonical.
    pub fn root(&self) -> &Path {
        self.root
    }

    fn base(&self, origin: Origin) -> Option<&Path> {
        match origin {
            Origin::Root => Some(self.root),
            Origin::Workspace => self.workspace,
            Origin::Given => None,
        }
    }

    /// The names in the canonical folder `dir`, inside the bounds.
    fn names(&self, fs: &dyn Fs, dir: &Path) -> Option<Arc<NameIndex>> {
        let listed = |listed: &HashMap<_, _>| listed.get(dir).cloned();
        if let Some(known) = listed(&self.listed.lock().unwrap_or_else(PoisonError::into_inner)) {
            return known;
        }
        let index = fs.read_dir(dir).ok().map(|entries| {
            let names: Vec<String> =
                entries.into_iter().filter_map(|(name, _)| name.into_string().ok()).collect();
            Arc::new(NameIndex::new(names.iter().map(String::as_str)))
        });
        let mut listed = self.listed.lock().unwrap_or_else(PoisonError::into_inner);
        listed.entry(dir.to_path_buf()).or_insert(index).clone()
    }

    /// The canonical top of the tree a file of `origin` belongs to.
    pub fn top(&self, origin: Origin) -> Option<&Path> {
        self.base(origin)
    }

    /// The text of the file at `inside` (relative to the top of `origin`'s
    /// tree) and where it is, when it is a UTF-8 file inside the bounds no
    /// larger than `max` bytes.
    pub fn read_text(
        &self,
        fs: &dyn Fs,
        origin: Origin,
        inside: &Path,
        max: u64,
    ) -> Option<(PathBuf, String)> {
        let (path, kind) = self.found(fs, &self.base(origin)?.join(inside))?;
        if kind != EntryKind::File {
            return None;
        }
        match fs.read(&path, max).ok()? {
            crate::fs::ReadOutcome::Bytes(bytes) => Some((path, String::from_utf8(bytes).ok()?)),
            crate::fs::ReadOutcome::TooLarge(_) => None,
        }
    }

    /// Where `path`, written in a file of `folder` (a folder of `origin`'s
    /// tree), leads inside the project, and what is there, as [`missing`]
    /// finds it: nothing when it leads nowhere or out of the project.
    pub fn lead(
        &self,
        fs: &dyn Fs,
        origin: Origin,
        folder: &Path,
        path: &str,
    ) -> Option<(PathBuf, EntryKind)> {
        let inside = normalize(&folder.join(path))?;
        self.found(fs, &self.base(origin)?.join(inside))
    }

    /// Where `path` leads inside the bounds, when something is there.
    pub(super) fn found(&self, fs: &dyn Fs, path: &Path) -> Option<(PathBuf, EntryKind)> {
        match self.resolve(fs, path) {
            Ok(Resolved::Found(path, kind)) => Some((path, kind)),
            _ => None,
        }
    }

    /// [`Bounds::resolve`] of `path` (absolute), its folder resolved once
    /// for every path in it: a skill's links name its own folder's files,
    /// and each would otherwise look at every folder from the top down.
    fn resolve(&self, fs: &dyn Fs, path: &Path) -> Result<Resolved, Refused> {
        let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
            return self.bounds.resolve(fs, path);
        };
        let known =
            self.folders.lock().unwrap_or_else(PoisonError::into_inner).get(folder).cloned();
        let canonical = match known {
            Some(canonical) => canonical,
            None => match self.bounds.resolve(fs, folder) {
                Ok(Resolved::Found(canonical, EntryKind::Dir)) => {
                    let mut folders = self.folders.lock().unwrap_or_else(PoisonError::into_inner);
                    folders.insert(folder.to_path_buf(), canonical.clone());
                    canonical
                }
                // Missing, a file or refused: the whole path says how.
                _ => return self.bounds.resolve(fs, path),
            },
        };
        self.bounds.resolve_in(fs, &canonical, name)
    }
}

/// Checks the links of every skill (with the Markdown files it bundles),
/// agent and assistant body: each skill's problems apart (project order),
/// then the rest.
pub fn check(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    project: &Project,
    bundling: &Bundling<'_>,
) -> (Vec<SkillLinks>, Vec<Diagnostic>) {
    // A file reached by two paths has its links checked at the first.
    let mut seen = std::collections::HashSet::new();
    let first: Vec<bool> =
        project.skills.iter().map(|skill| seen.insert(&skill.file.file.path)).collect();
    let skills: Vec<SkillLinks> = (project.skills.par_iter().zip(first))
        .map(|(skill, first)| match first {
            true => super::bundled::skill_links(fs, trees, skill, bundling),
            false => SkillLinks::default(),
        })
        .collect();
    // Each body, and whether it is agentc's own (whose runtimes refuse a
    // link that leads nowhere) rather than a host's.
    let mut bodies: Vec<(&Source, &str, Span, bool)> = Vec::new();
    for agent in &project.agents {
        if let AgentKind::Bundle(md) = &agent.kind {
            bodies.push((&agent.source, md.body(&agent.source), md.body_span, true));
        }
    }
    for assistant in &project.assistants {
        let span = assistant.doc.body_span();
        bodies.push((&assistant.source, assistant.source.slice(span), span, false));
    }
    // Prompt and instructions files, and the memory files: their links are
    // read by the model as a skill's are.
    for config in &project.configs {
        if let Some(span) = config.doc.body_span()
            && !config.doc.links_from_top()
            && seen.insert(&config.file.file.path)
        {
            bodies.push((&config.source, config.source.slice(span), span, false));
        }
    }
    let found: Vec<Vec<Diagnostic>> = bodies
        .par_iter()
        .map(|(source, body, span, own)| match own {
            true => body_links(fs, trees, source, body, *span),
            false => host_body_links(fs, trees, source, body, *span),
        })
        .collect();
    let mut rest: Vec<Diagnostic> = found.into_iter().flatten().collect();
    // The rules, agents and commands of the other assistants are read by a
    // model working at the project's top, which takes a path written there
    // from the top as readily as from the file: either way is not broken.
    let configs: Vec<&crate::project::Config> =
        project.configs.iter().filter(|c| c.doc.links_from_top()).collect();
    let from_configs: Vec<Vec<Diagnostic>> = configs
        .par_iter()
        .map(|config| {
            let Some(span) = config.doc.body_span() else {
                return Vec::new();
            };
            let source = &config.source;
            let links = relative_links(source.slice(span), span.start);
            let found = links.into_iter().filter_map(|link| {
                let diagnostic = broken(fs, trees, source, &link)?;
                let from_top = Named {
                    code: Code::BrokenLink,
                    what: "link",
                    path: &link.path,
                    span: link.span,
                    relative_to: "the project's top",
                };
                missing(fs, trees, source, Path::new(""), &from_top).map(|_| diagnostic)
            });
            as_warnings(capped(source, found))
        })
        .collect();
    rest.extend(from_configs.into_iter().flatten());
    (skills, rest)
}

/// `diagnostics` as warnings: a host's file with a link that leads nowhere
/// is loaded and used all the same (Claude Code 2.1, VS Code, Cursor), the
/// model told of a file it will not find. agentc's own formats refuse it.
pub(super) fn as_warnings(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics.into_iter().map(|d| d.with_severity(Severity::Warning)).collect()
}

/// The broken links of one body, `body` being the text of `span` in `source`.
pub fn body_links(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    body: &str,
    span: Span,
) -> Vec<Diagnostic> {
    let links = relative_links(body, span.start);
    capped(source, links.iter().filter_map(|link| broken(fs, trees, source, link)))
}

/// [`body_links`] of a host's file (an assistant's, a rule's): warnings.
pub fn host_body_links(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    body: &str,
    span: Span,
) -> Vec<Diagnostic> {
    as_warnings(body_links(fs, trees, source, body, span))
}

/// The broken links of one file reported one by one; one more diagnostic
/// counts the rest.
pub const MAX_BROKEN_REPORTED: usize = 64;

/// The first [`MAX_BROKEN_REPORTED`] of `found`, the broken links of
/// `source`, and one diagnostic counting the rest: a file of a million
/// broken links is 65 lines, not a million.
pub(super) fn capped(source: &Source, found: impl Iterator<Item = Diagnostic>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut more: Option<(Span, usize)> = None;
    for diagnostic in found {
        match &mut more {
            None if out.len() < MAX_BROKEN_REPORTED => out.push(diagnostic),
            None => more = Some((diagnostic.location.span.unwrap_or_default(), 1)),
            Some((_, count)) => *count += 1,
        }
    }
    if let Some((span, count)) = more {
        out.push(
            Diagnostic::at(
                Code::BrokenLink,
                &source.path,
                span,
                format!("{count} more links in this file lead nowhere, from here on"),
            )
            .with_help(format!(
                "the first {MAX_BROKEN_REPORTED} are reported one by one; correct or remove the rest too"
            )),
        );
    }
    out
}

/// The diagnostic for `link` in `source`, if it does not lead to a file.
pub(super) fn broken(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    link: &Link,
) -> Option<Diagnostic> {
    let folder = Path::new(&*source.path.path).parent().unwrap_or(Path::new(""));
    let named = Named {
        code: Code::BrokenLink,
        what: if link.image { "image" } else { "link" },
        path: &link.path,
        span: link.span,
        relative_to: "the file holding it",
    };
    missing(fs, trees, source, folder, &named)
}

/// A path a file names, to be checked.
pub struct Named<'a> {
    pub code: Code,
    /// What the path is, for the message (`link`, `hook script`).
    pub what: &'a str,
    pub path: &'a str,
    /// Where it is written; when the text there starts with the path, the
    /// fix replaces it.
    pub span: Span,
    /// What the path is relative to, in words.
    pub relative_to: &'a str,
}

/// The diagnostic for a path written in `source`, relative to `folder` (a
/// folder of the file's own tree), if it leads nowhere inside the project.
pub fn missing(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    folder: &Path,
    named: &Named<'_>,
) -> Option<Diagnostic> {
    let file = &source.path;
    let base = trees.base(file.origin)?;
    let Named { code, what, path, span, relative_to } = *named;
    // A URL (a plugin's `mcpServers` may name an `.mcpb` bundle Claude
    // Code downloads) names no file of the project.
    if crate::fs::is_remote(path) {
        return None;
    }
    let is_link = code == Code::BrokenLink;
    let Some(inside) = normalize(&folder.join(path)) else {
        let help = match is_link {
            true => "link to files inside the project, so the skill carries what it needs",
            false => "name files inside the project, so it carries what it needs",
        };
        return Some(
            Diagnostic::at(
                code,
                file,
                span,
                format!("the {what} `{path}` leads outside the project"),
            )
            .with_help(help),
        );
    };
    let escape = |why: String| {
        Diagnostic::at(code, file, span, why).with_help(match is_link {
            true => "agentc never follows a link out of the project: copy the file in, or link to one inside",
            false => "agentc never follows a path out of the project: copy the file in, or name one inside",
        })
    };
    match trees.resolve(fs, &base.join(&inside)) {
        Ok(Resolved::Found(..)) => return None,
        Ok(Resolved::Missing { .. }) => {}
        Err(Refused::Outside { through, .. }) => {
            let through = match through {
                Some((at, _)) => {
                    let at = at.strip_prefix(base).map_or_else(|_| display(&at), display);
                    format!(" through the symbolic link `{at}`")
                }
                None => String::new(),
            };
            let why = format!("the {what} `{path}` leads outside the project{through}");
            return Some(escape(why));
        }
        Err(Refused::Loop(_)) => {
            let why = format!("the {what} `{path}` leads through symbolic links in a loop");
            return Some(escape(why));
        }
        Err(Refused::Io(_, err)) => {
            let why = format!("the {what} `{path}` cannot be checked: {err}");
            return Some(Diagnostic::at(code, file, span, why));
        }
    }
    let mut diagnostic = Diagnostic::at(
        code,
        file,
        span,
        format!("the {what} `{path}` names a file that does not exist"),
    );
    let written = source.text.get(span.start..span.end).unwrap_or_default();
    diagnostic = match near_miss(fs, trees, &base.join(folder), path) {
        Some(fixed) => {
            let help = format!("did you mean `{fixed}`?");
            // The fix keeps a `#fragment` or `?query` as written; an escaped path
            // is left to the author.
            let at = written.starts_with(path).then_some(span);
            let rest = written.get(path.len()..).unwrap_or_default();
            let verb = if is_link { "link to" } else { "write" };
            diagnostic.with_help(help).with_fix(
                format!("{verb} `{fixed}`"),
                file,
                at,
                format!("{fixed}{rest}"),
            )
        }
        None => diagnostic.with_help(format!(
            "add `{}`, or correct the {}; paths are relative to {relative_to}",
            display(&inside),
            if is_link { "link" } else { what },
        )),
    };
    Some(diagnostic)
}

/// `path` with `.` and `..` worked out, or None where it climbs above its tree.
pub(crate) fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// The link with each missing component replaced by the closest name in its
/// folder (`referneces/forms.md` → `references/forms.md`), when that leads to
/// something that exists. Each step is resolved inside the bounds, so no
/// folder outside is listed.
fn near_miss(fs: &dyn Fs, trees: &Trees<'_>, folder: &Path, link: &str) -> Option<String> {
    let (mut at, _) = trees.found(fs, folder)?;
    let mut parts = Vec::new();
    let mut changed = false;
    for part in link.split('/') {
        match part {
            "" | "." => continue,
            // `at` is canonical: its parent is where `..` leads.
            ".." => {
                at.pop();
                if !trees.bounds.contains(&at) {
                    return None;
                }
            }
            _ => match trees.found(fs, &at.join(part)) {
                Some((next, _)) => at = next,
                None => {
                    let names = trees.names(fs, &at)?;
                    let close = NameIndex::nearest(&[&names], part, None)?.to_owned();
                    (at, _) = trees.found(fs, &at.join(&close))?;
                    parts.push(close);
                    changed = true;
                    continue;
                }
            },
        }
        parts.push(part.to_owned());
    }
    changed.then(|| parts.join("/"))
}

fn display(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::ffi::OsString;
    use std::io;

    use super::*;
    use crate::fs::ReadOutcome;
    use crate::memfs::MemFs;

    /// A seam that counts each folder's listings.
    struct Counting {
        inner: MemFs,
        listed: Mutex<BTreeMap<PathBuf, usize>>,
    }

    impl Fs for Counting {
        fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
            *self.listed.lock().unwrap().entry(path.into()).or_default() += 1;
            self.inner.read_dir(path)
        }
        fn kind(&self, path: &Path) -> io::Result<EntryKind> {
            self.inner.kind(path)
        }
        fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
            self.inner.kind_followed(path)
        }
        fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
            self.inner.canonicalize(path)
        }
        fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
            self.inner.read_link(path)
        }
        fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
            self.inner.read(path, max)
        }
    }

    /// Many broken links into one crowded folder: it is listed once for all
    /// their suggestions, not once for each.
    #[test]
    fn each_folder_is_listed_once_for_every_suggestion() {
        let mut fs = MemFs::new();
        for i in 0..200 {
            fs.insert(&format!("skills/a/references/form-{i:03}.md"), "x").unwrap();
        }
        let links: String =
            (0..300).map(|i| format!("[f](references/form-{:03}.mdx)\n", i % 200)).collect();
        let skill = format!("---\nname: a\ndescription: Forms.\n---\n{links}");
        fs.insert("skills/a/SKILL.md", skill).unwrap();
        let counting = Counting { inner: fs, listed: Mutex::default() };
        let compilation = crate::compile(&counting, &crate::Options::new("/")).unwrap();
        let broken = compilation.diagnostics.iter().filter(|d| d.code == Code::BrokenLink).count();
        assert_eq!(broken, 300);
        let helps = compilation.diagnostics.iter().filter(|d| {
            d.help.iter().any(|help| help.starts_with("did you mean `references/form-"))
        });
        assert_eq!(helps.count(), 300);
        let listed = counting.listed.lock().unwrap();
        assert_eq!(listed.get(Path::new("/skills/a/references")), Some(&1), "{listed:?}");
    }
}
