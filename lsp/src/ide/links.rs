//! Links: the relative Markdown links of every Markdown file agentc reads,
//! and an `agent.json`'s `entry_points`, each leading to the file it names —
//! found as the compiler finds it when it checks the link (`broken-link`,
//! `check::links` and `check::bundled`): from the file's folder, or from the
//! skill's folder (a bundled file) or the project's top (another
//! assistant's rules) when it is not there. What leads nowhere, or out of
//! the project, is no link. Existence is asked of the file system through
//! the seam; nothing is opened.

use std::path::{Path, PathBuf};

use agentc_schema::Span;

use super::{Analysis, Item};
use agentc_compiler::check::links::Trees;
use agentc_compiler::diagnostic::RelPath;
use agentc_compiler::fs::{EntryKind, Fs};
use agentc_compiler::parse::links::relative_links;
use agentc_compiler::project::AgentKind;

/// A path written in a file that leads to something of the project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileLink {
    /// Where the path is written.
    pub span: Span,
    /// Where it leads, canonical.
    pub target: PathBuf,
    pub kind: EntryKind,
}

/// The links of `file`, in the order they are written.
pub(super) fn links(analysis: &Analysis<'_>, fs: &dyn Fs, file: &RelPath) -> Vec<FileLink> {
    let compilation = analysis.compilation;
    let project = &compilation.project;
    let Some(source) = compilation.source(file) else {
        return Vec::new();
    };
    let trees = Trees::new(&compilation.root, compilation.workspace.as_deref());
    let folder = Path::new(&*file.path).parent().unwrap_or(Path::new("")).to_path_buf();
    let item = analysis.file(file).map(|info| info.item);
    // The body, and the folders a link in it may be written from, in turn.
    let (body, bases): (Span, Vec<PathBuf>) = match item {
        Some(Item::Skill(i)) => (project.skills[i].parsed.body_span, vec![folder]),
        Some(Item::Agent(i)) => match &project.agents[i].kind {
            AgentKind::Bundle(md) => (md.body_span, vec![folder]),
            AgentKind::Package { manifest, .. } => {
                let agent = &project.agents[i];
                return (manifest.value.entry_points.value.iter())
                    .filter_map(|entry| {
                        let name = entry.value.as_str();
                        let found = agent.dir.root_files.get(name)?;
                        let span = entry.verbatim(0..name.len()).unwrap_or(entry.span);
                        Some(FileLink { span, target: found.path.clone(), kind: EntryKind::File })
                    })
                    .collect();
            }
        },
        Some(Item::Assistant(i)) => (project.assistants[i].doc.body_span(), vec![folder]),
        Some(Item::Tool(_) | Item::Plugin(_) | Item::Registry | Item::ProjectFile) => {
            return Vec::new();
        }
        Some(Item::Config(_) | Item::Unparsed) | None => {
            match (project.configs.iter()).find(|c| &c.source.path == file) {
                Some(config) => {
                    let Some(body) = config.doc.body_span() else {
                        return Vec::new();
                    };
                    let mut bases = vec![folder];
                    if config.doc.links_from_top() {
                        bases.push(PathBuf::new());
                    }
                    (body, bases)
                }
                // A Markdown file a skill bundles: from its folder, or the skill's.
                None if is_markdown(&file.path) => {
                    let in_skill = project.skills.iter().find_map(|skill| {
                        let path = &skill.source.path;
                        let skill_folder = path.path.rsplit_once('/').map_or("", |(f, _)| f);
                        let inside = path.origin == file.origin
                            && file.path.strip_prefix(skill_folder)?.starts_with('/');
                        inside.then(|| PathBuf::from(skill_folder))
                    });
                    let Some(skill_folder) = in_skill else {
                        return Vec::new();
                    };
                    let text = &*source.text;
                    let body = match agentc_compiler::parse::frontmatter::split(text) {
                        Ok(split) => Span::new(split.body_start, text.len()),
                        Err(_) => Span::new(0, text.len()),
                    };
                    (body, vec![folder, skill_folder])
                }
                None => return Vec::new(),
            }
        }
    };
    relative_links(source.slice(body), body.start)
        .into_iter()
        .filter_map(|link| {
            let (target, kind) =
                bases.iter().find_map(|base| trees.lead(fs, file.origin, base, &link.path))?;
            Some(FileLink { span: link.span, target, kind })
        })
        .collect()
}

fn is_markdown(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".markdown")
}
