//! A folder's project compiled as `agentc check` compiles it there: the
//! language server compiles each workspace folder so, and `agentc mcp` its
//! working folder, both over a file system that lays unsaved text over the
//! disk ([`crate::overlay`]).

use std::path::Path;

use crate::compile::{Compilation, Memo, SetupError, compile_with};
use crate::diagnostic::{Diagnostic, RelPath};
use crate::fs::Fs;
use crate::options::Options;
use crate::{project_file, repository};

/// Compiles the project in `folder` as `agentc check` would there: its
/// `agentc.toml`, else the repository it is in (`repository::default_target`). A
/// project file or registry with errors is reported like any other file.
pub fn compile_folder(fs: &dyn Fs, folder: &Path, memo: Option<&Memo>) -> Compilation {
    let mut project_source = None;
    let options = match project_file::find(fs, folder) {
        Some(file) => match project_file::load(fs, &file, &file.to_string_lossy()) {
            Ok(project) => {
                project_source = Some((project.source, project.path));
                project.options
            }
            Err(failed) => return *failed,
        },
        None => {
            // Paths as the editor opened the folder when it is the top.
            let target = repository::default_target(fs, folder);
            let top = match target.root.starts_with("..") {
                true => target.top,
                false => folder.to_path_buf(),
            };
            let mut options = Options::new(match target.workspace {
                Some(_) => top.join("agents"),
                None => top.clone(),
            });
            options.workspace = target.workspace.map(|_| top);
            options
        }
    };
    let mut compilation = match compile_with(fs, &options, memo) {
        Ok(compilation) => compilation,
        Err(SetupError::Registry(failed)) => *failed,
        Err(err) => {
            // Nothing to point at but the folder: say so there.
            let cannot_run = Diagnostic::on_path(
                crate::catalog::Code::CannotRun,
                &RelPath::root(""),
                err.to_string(),
            );
            Compilation {
                root: folder.to_path_buf(),
                diagnostics: vec![cannot_run],
                ..Compilation::default()
            }
        }
    };
    (compilation.project_source, compilation.project_path) = project_source.unzip();
    compilation
}
