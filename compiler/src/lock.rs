//! Emit the lockfile: the resolved model with the digest of every input, and
//! the reviewer's account of how a stale lockfile differs.

use std::collections::BTreeMap;

use agentc_schema::Lockfile;
use agentc_schema::lockfile::{
    FileDigest, HEADER_LEN, LOCKFILE_VERSION, REGISTRY_PATH, root_digest, written_by_agentc,
};
use rayon::prelude::*;

use crate::compile::Compilation;

/// The lockfile for a compilation without errors.
pub fn lockfile(compilation: &Compilation) -> Lockfile {
    lockfile_of(compilation, compilation.model.clone())
}

/// [`lockfile`], taking the compilation's model into it rather than a copy
/// (the model is most of a lockfile: 15 MB more at 10,000 skills), for a
/// caller done with the model: it is left empty.
pub fn take_lockfile(compilation: &mut Compilation) -> Lockfile {
    let model = std::mem::take(&mut compilation.model);
    lockfile_of(compilation, model)
}

fn lockfile_of(compilation: &Compilation, model: crate::model::Model) -> Lockfile {
    // `sources` is ordered by path: root files first, then workspace files.
    // The files skills bundle are read for their links, and compiled into
    // nothing: the lockfile pins what the model is made of.
    let bundled = |path| compilation.kept.as_ref().is_some_and(|k| k.bundled.contains_key(path));
    let pinned: Vec<&crate::source::Source> =
        compilation.sources.values().filter(|s| !bundled(&s.path)).collect();
    // A digest is made the first time it is asked for, here: on every core,
    // as the files were read (one after another it was 5% of a lock's time).
    let mut files: Vec<FileDigest> = pinned
        .par_iter()
        .map(|s| FileDigest { path: s.path.to_string(), sha256: s.digest() })
        .collect();
    if let Some(sha256) = &compilation.project.registry_sha256 {
        files.push(FileDigest { path: REGISTRY_PATH.to_owned(), sha256: sha256.clone() });
    }
    let mut mcp_servers = model.mcp_servers;
    for server in &mut mcp_servers {
        if let Some(url) = &mut server.url {
            *url = mask_url_credentials(url);
        }
    }
    let lockfile = Lockfile {
        lockfile_version: LOCKFILE_VERSION,
        agentc_version: env!("CARGO_PKG_VERSION").to_owned(),
        root_digest: root_digest(&files),
        files,
        agents: model.agents,
        skills: model.skills,
        tools: model.tools,
        assistants: model.assistants,
        plugins: model.plugins,
        mcp_servers,
        hooks: model.hooks,
    };
    // A secret the checker found never reaches the file, whatever the
    // `secret` rule's level: the lockfile is committed and read by others.
    // Masked in its JSON, so every string the lockfile holds is covered.
    let redactor = compilation.redactor();
    if redactor.is_empty() {
        return lockfile;
    }
    let json = lockfile.to_json();
    match Lockfile::from_json(&redactor.clean(&json)) {
        Ok(masked) => masked,
        // Stars never break the JSON they replace text of; were it broken,
        // nothing of the secret is written either.
        Err(_) => Lockfile {
            agents: Vec::new(),
            skills: Vec::new(),
            tools: Vec::new(),
            assistants: Vec::new(),
            plugins: Vec::new(),
            mcp_servers: Vec::new(),
            hooks: Vec::new(),
            ..lockfile
        },
    }
}

/// A remote server's address with the credentials it may carry masked: the
/// user information (`https://user:token@host`) and every query value
/// (`?api_key=…`) but a `${VAR}` reference, each byte a `*`. A runtime
/// gives the real ones from its environment, as the host does for `${VAR}`.
pub fn mask_url_credentials(url: &str) -> String {
    let stars = |text: &str| "*".repeat(text.len());
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, url),
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => format!("{}@{host}", stars(user)),
        None => authority.to_owned(),
    };
    let (before_fragment, fragment) = match tail.split_once('#') {
        Some((before, fragment)) => (before, Some(fragment)),
        None => (tail, None),
    };
    let tail = match before_fragment.split_once('?') {
        Some((path, query)) => {
            let pairs: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((key, value)) if !(value.starts_with("${") && value.ends_with('}')) => {
                        format!("{key}={}", stars(value))
                    }
                    _ => pair.to_owned(),
                })
                .collect();
            format!("{path}?{}", pairs.join("&"))
        }
        None => before_fragment.to_owned(),
    };
    let mut out = scheme.map(|s| format!("{s}://")).unwrap_or_default();
    out.push_str(&authority);
    out.push_str(&tail);
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// Whether the file at `destination` is one `agentc lock` may replace: none
/// is there, or it is agentc's lockfile ([`written_by_agentc`]). The one
/// place that decides it, so nothing a user or another tool wrote is lost
/// (dotagents keeps its own TOML `agents.lock`).
pub fn replaceable(destination: &std::path::Path) -> std::io::Result<bool> {
    use std::io::Read;
    let file = match crate::write::open_regular(destination) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        Err(err) => return Err(err),
        // A folder, a FIFO or a link loop: `write_atomic` says why it cannot
        // write there; nothing is read from it.
        Ok(None) => return Ok(true),
        Ok(Some(file)) => file,
    };
    let mut start = Vec::with_capacity(HEADER_LEN);
    file.take(HEADER_LEN as u64).read_to_end(&mut start)?;
    Ok(written_by_agentc(&start))
}

/// Why `lock` leaves a file at its destination that is not its own alone,
/// and how to go on.
pub const NOT_OURS: &str = "it is not agentc's lockfile (it does not start with agentc's \
    `{\"lockfile_version\": …` header), and agentc replaces only a file it wrote; write \
    agentc's lockfile to another path (`lockfile` in agentc.toml, or `-o FILE`)";

/// Added, removed and changed names of one kind of item.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
}

impl Changes {
    fn between<T: serde::Serialize>(old: &[T], new: &[T], key: impl Fn(&T) -> String) -> Changes {
        let text = |item: &T| serde_json::to_string(item).unwrap_or_default();
        let old: BTreeMap<String, String> = old.iter().map(|i| (key(i), text(i))).collect();
        let new: BTreeMap<String, String> = new.iter().map(|i| (key(i), text(i))).collect();
        let mut changes = Changes::default();
        for (name, body) in &new {
            match old.get(name) {
                None => changes.added.push(name.clone()),
                Some(before) if before != body => changes.changed.push(name.clone()),
                Some(_) => {}
            }
        }
        changes.removed = old.keys().filter(|k| !new.contains_key(*k)).cloned().collect();
        changes
    }

    fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// A path as the lockfile writes it (from the root, `@workspace/…`,
/// `@registry`), shown from `bases` as diagnostics show it; the registry as
/// `registry` names it.
pub fn show_path(path: &str, bases: &crate::emit::Bases, registry: Option<&str>) -> String {
    use crate::diagnostic::RelPath;
    if path == REGISTRY_PATH {
        return registry.unwrap_or(path).to_owned();
    }
    match path.strip_prefix("@workspace/") {
        Some(rest) => bases.show(&RelPath::workspace(rest)),
        None => bases.show(&RelPath::root(path)),
    }
}

/// How a committed lockfile differs from what would be written now, each
/// path shown by `show` (given the lockfile's spelling, see [`show_path`]).
pub fn describe_difference(
    old: &Lockfile,
    new: &Lockfile,
    show: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let mut lines = Vec::new();
    let kinds = [
        ("agents", Changes::between(&old.agents, &new.agents, |a| a.id.clone())),
        ("skills", Changes::between(&old.skills, &new.skills, |s| s.qualified.clone())),
        ("tools", Changes::between(&old.tools, &new.tools, |t| t.qualified.clone())),
        ("assistants", Changes::between(&old.assistants, &new.assistants, |a| a.id.clone())),
        ("plugins", Changes::between(&old.plugins, &new.plugins, |p| show(&p.folder))),
        (
            "MCP servers",
            Changes::between(&old.mcp_servers, &new.mcp_servers, |s| {
                format!("{} ({})", s.id, show(&s.source))
            }),
        ),
        (
            "hooks",
            Changes::between(&old.hooks, &new.hooks, |h| {
                format!("{} ({})", h.event, show(&h.source))
            }),
        ),
        ("files", Changes::between(&old.files, &new.files, |f| show(&f.path))),
    ];
    for (kind, changes) in &kinds {
        for (verb, names) in [
            ("added", &changes.added),
            ("removed", &changes.removed),
            ("changed", &changes.changed),
        ] {
            if !names.is_empty() {
                lines.push(format!("{kind} {verb}: {}", names.join(", ")));
            }
        }
    }
    if old.agentc_version != new.agentc_version {
        lines.push(format!(
            "written by agentc {}, this is agentc {}",
            old.agentc_version, new.agentc_version
        ));
    }
    if lines.is_empty() && kinds.iter().all(|(_, c)| c.is_empty()) && old != new {
        lines.push("the lockfile's metadata differs (its root digest or field values)".to_owned());
    }
    if lines.is_empty() {
        lines.push("only the file's formatting differs".to_owned());
    }
    lines
}
