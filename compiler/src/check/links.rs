//! Relative links and images in bodies must name files that exist inside the
//! project: a skill's `references/FORMS.md` that was never added fails only
//! when the model follows the link, mid-task.
//!
//! Existence is asked of the file-system seam without following links and
//! without opening anything; a path that climbs out of the root and workspace
//! is reported rather than looked at.

use std::path::{Component, Path, PathBuf};

use agentc_schema::Span;
use rayon::prelude::*;

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Origin};
use crate::fs::Fs;
use crate::parse::links::{Link, relative_links};
use crate::project::{AgentKind, Project};
use crate::source::Source;
use crate::suggest::did_you_mean;

/// Where the trees of the project are on disk.
pub struct Trees<'a> {
    pub root: &'a Path,
    pub workspace: Option<&'a Path>,
}

impl Trees<'_> {
    fn base(&self, origin: Origin) -> Option<&Path> {
        match origin {
            Origin::Root => Some(self.root),
            Origin::Workspace => self.workspace,
            Origin::Given => None,
        }
    }
}

/// Checks the links of every skill, agent and assistant body: each skill's
/// problems apart (project order), then the rest.
pub fn check(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    project: &Project,
) -> (Vec<Vec<Diagnostic>>, Vec<Diagnostic>) {
    let mut bodies: Vec<(&Source, &str, Span)> = Vec::new();
    for skill in &project.skills {
        bodies.push((&skill.source, skill.parsed.body(&skill.source), skill.parsed.body_span));
    }
    for agent in &project.agents {
        if let AgentKind::Bundle(md) = &agent.kind {
            bodies.push((&agent.source, md.body(&agent.source), md.body_span));
        }
    }
    for assistant in &project.assistants {
        let span = assistant.doc.body_span();
        bodies.push((&assistant.source, assistant.source.slice(span), span));
    }
    let mut found: Vec<Vec<Diagnostic>> = bodies
        .par_iter()
        .map(|(source, body, span)| body_links(fs, trees, source, body, *span))
        .collect();
    let rest = found.split_off(project.skills.len()).into_iter().flatten().collect();
    (found, rest)
}

/// The broken links of one body, `body` being the text of `span` in `source`.
pub fn body_links(
    fs: &dyn Fs,
    trees: &Trees<'_>,
    source: &Source,
    body: &str,
    span: Span,
) -> Vec<Diagnostic> {
    relative_links(body, span.start)
        .into_iter()
        .filter_map(|link| broken(fs, trees, source, &link))
        .collect()
}

/// The diagnostic for `link` in `source`, if it does not lead to a file.
fn broken(fs: &dyn Fs, trees: &Trees<'_>, source: &Source, link: &Link) -> Option<Diagnostic> {
    let file = &source.path;
    let base = trees.base(file.origin)?;
    let folder = Path::new(&*file.path).parent().unwrap_or(Path::new(""));
    let what = if link.image { "image" } else { "link" };
    let Some(inside) = normalize(&folder.join(&link.path)) else {
        return Some(
            Diagnostic::at(
                Code::BrokenLink,
                file,
                link.span,
                format!("the {what} `{}` leads outside the project", link.path),
            )
            .with_help("link to files inside the project, so the skill carries what it needs"),
        );
    };
    if fs.kind(&base.join(&inside)).is_ok() {
        return None;
    }
    let mut diagnostic = Diagnostic::at(
        Code::BrokenLink,
        file,
        link.span,
        format!("the {what} `{}` names a file that does not exist", link.path),
    );
    let written = source.text.get(link.span.start..link.span.end).unwrap_or_default();
    diagnostic = match near_miss(fs, &base.join(folder), &link.path) {
        Some(fixed) => {
            let help = format!("did you mean `{fixed}`?");
            // The fix keeps a `#fragment` or `?query` as written; an escaped path
            // is left to the author.
            let span = written.starts_with(link.path.as_str()).then_some(link.span);
            let rest = written.get(link.path.len()..).unwrap_or_default();
            diagnostic.with_help(help).with_fix(
                format!("link to `{fixed}`"),
                file,
                span,
                format!("{fixed}{rest}"),
            )
        }
        None => diagnostic.with_help(format!(
            "add `{}`, or correct the link; paths are relative to the file holding it",
            display(&inside)
        )),
    };
    Some(diagnostic)
}

/// `path` with `.` and `..` worked out, or None where it climbs above its tree.
fn normalize(path: &Path) -> Option<PathBuf> {
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
/// something that exists.
fn near_miss(fs: &dyn Fs, folder: &Path, link: &str) -> Option<String> {
    let mut at = folder.to_path_buf();
    let mut parts = Vec::new();
    let mut changed = false;
    for part in link.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                at.pop();
            }
            _ if fs.kind(&at.join(part)).is_ok() => at.push(part),
            _ => {
                let names: Vec<String> = fs
                    .read_dir(&at)
                    .ok()?
                    .into_iter()
                    .filter_map(|(name, _)| name.into_string().ok())
                    .collect();
                let close = did_you_mean(part, names.iter().map(String::as_str))?.to_owned();
                at.push(&close);
                parts.push(close);
                changed = true;
                continue;
            }
        }
        parts.push(part.to_owned());
    }
    (changed && fs.kind(&at).is_ok()).then(|| parts.join("/"))
}

fn display(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}
