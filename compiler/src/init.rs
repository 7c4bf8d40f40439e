//! `agentc init`: a minimal project that passes `agentc check`, to start from.
//!
//! The files are the ones under `compiler/templates/init/`, compiled in; the
//! JSON Schemas their `$schema` keys point at are written beside them, so an
//! editor validates the files from the first keystroke.

use std::io;
use std::path::{Path, PathBuf};

use agentc_schema::{Kind, PROJECT_FILE};

use crate::write::write_atomic;

macro_rules! templates {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("../templates/init/", $path)))),*]
    };
}

/// Every file of a new project, by its path inside the project.
const FILES: &[(&str, &str)] = templates![
    "agentc.toml",
    "agents/triage/AGENT.md",
    "agents/escalations/agent.json",
    "agents/escalations/system.md",
    "agents/escalations/boundaries.md",
    "agents/escalations/conventions.md",
    "agents/skills/intake/SKILL.md",
    "agents/skills/wrap-up/SKILL.md",
    "agents/tools/lookup_order/manifest.json",
];

/// Where the schemas go, inside the project.
pub const SCHEMAS: &str = ".agentc/schemas";

/// Why a project could not be written.
#[derive(Debug)]
pub enum InitError {
    /// The folder already holds a project or one of the files.
    Exists(PathBuf),
    Io {
        path: PathBuf,
        error: io::Error,
    },
}

impl std::fmt::Display for InitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InitError::Exists(path) => write!(
                f,
                "`{}` already exists; agentc init writes a new project and never replaces a file",
                path.display()
            ),
            InitError::Io { path, error } => {
                write!(f, "cannot write `{}`: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for InitError {}

/// Writes a new project into `dir` (created if missing); returns the files
/// written. Nothing is written if any of them exists already.
pub fn init(dir: &Path) -> Result<Vec<PathBuf>, InitError> {
    let schemas: Vec<(String, String)> = Kind::ALL
        .iter()
        .map(|kind| (format!("{SCHEMAS}/{}", kind.file_name()), kind.schema_text()))
        .collect();
    let all: Vec<(&str, &str)> = FILES
        .iter()
        .copied()
        .chain(schemas.iter().map(|(p, t)| (p.as_str(), t.as_str())))
        .collect();
    for (path, _) in &all {
        let target = dir.join(path);
        if target.exists() || (*path == PROJECT_FILE && dir.join(PROJECT_FILE).exists()) {
            return Err(InitError::Exists(target));
        }
    }
    let mut written = Vec::new();
    for (path, text) in all {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|error| InitError::Io { path: parent.to_path_buf(), error })?;
        }
        write_atomic(&target, text.as_bytes())
            .map_err(|error| InitError::Io { path: target.clone(), error })?;
        written.push(target);
    }
    Ok(written)
}
