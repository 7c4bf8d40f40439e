//! An edit to the registry: the tools, models and context providers it
//! declares are what every skill and agent resolves against, so the project
//! is resolved and checked again as it is — nothing discovered, read or
//! parsed but the registry.

use std::sync::Arc;

use super::drop_elsewhere;
use crate::check;
use crate::compile::{Compilation, load_registry};
use crate::fs::Fs;
use crate::kept::Kept;
use crate::resolve;

impl Compilation {
    /// Brings the compilation up to date after the registry's text changed.
    /// Returns whether it could: a registry with errors fails a compile as a
    /// whole, which a compile shows.
    pub(super) fn update_registry(&mut self, kept: &mut Kept, fs: &dyn Fs) -> bool {
        let Some(path) = kept.options.registry.as_deref() else {
            return false;
        };
        let (max_size, rules) = (kept.options.max_file_size, kept.options.content_rules());
        let Ok((registry, source, canonical)) = load_registry(fs, path, max_size, rules) else {
            return false;
        };
        let was = self.registry_source.as_ref().filter(|_| !kept.unresolved);
        if was.is_some_and(|was| Arc::ptr_eq(&was.text, &source.text) || was.text == source.text) {
            return true;
        }
        let file = source.path.clone();
        self.project.registry = Some(registry);
        self.project.registry_sha256 = Some(source.sha256().to_owned());
        self.registry_source = Some(source);
        self.inputs.insert(file.clone(), canonical);

        let resolved = resolve::resolve(&self.project, &kept.options, Some(&file));
        let checked = check::check(&self.project, &resolved.model, &resolved.names);
        let shares = resolved.shares;
        let skills = kept.skills.iter_mut().zip(shares.skills.into_iter().zip(checked.skills));
        for (part, (resolved, checks)) in skills {
            part.resolved = resolved;
            part.checks = checks;
        }
        kept.skill_table = shares.skill_table;
        kept.tool_table = shares.tool_table;
        kept.agents = shares.agents.into_iter().zip(checked.agents).collect();
        kept.assistants = shares.assistants;
        drop_elsewhere(std::mem::replace(&mut self.model, resolved.model));
        drop_elsewhere(std::mem::replace(&mut self.names, resolved.names));
        kept.unresolved = false;
        self.recheck_configs(kept, fs);
        true
    }
}
