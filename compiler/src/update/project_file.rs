//! An edit to `agentc.toml` that leaves what is compiled as it was — a
//! comment, a level in `[lints]` or `[[overrides]]` that runs every content
//! rule that ran — only changes how the problems are shown: the levels are
//! applied again to what the compile found. Any other is left to a compile.

use crate::compile::Compilation;
use crate::fs::Fs;
use crate::kept::Kept;
use crate::project_file;

impl Compilation {
    /// Brings the compilation up to date after the project file's text
    /// changed; whether it could.
    pub(super) fn update_project_file(&mut self, kept: &mut Kept, fs: &dyn Fs) -> bool {
        let (Some(path), Some(was)) = (&self.project_path, &self.project_source) else {
            return false;
        };
        // One with errors is shown by a compile, as one that is not there.
        let Ok(project) = project_file::load(fs, path, &was.path.path) else {
            return false;
        };
        let options = project.options;
        let mut relinted = kept.options.clone();
        relinted.lints.clone_from(&options.lints);
        relinted.overrides.clone_from(&options.overrides);
        // A content rule allowed is never run, so one allowed or restored
        // changes what reading finds.
        if relinted != options || options.content_rules() != kept.options.content_rules() {
            return false;
        }
        kept.options = options;
        self.project_source = Some(project.source);
        true
    }
}
