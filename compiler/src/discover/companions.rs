//! The files a host reads beside a manifest found elsewhere: a Gemini CLI
//! extension's `commands/**/*.toml` and `hooks/hooks.json` beside its
//! `gemini-extension.json`, and the hooks file a Codex plugin's
//! `.codex-plugin/plugin.json` has Codex read (`hooks/hooks.json` unless it
//! names others). A file another host reads too (a plugin's
//! `hooks/hooks.json` is Claude Code's as well) is read once per dialect.

use std::path::Path;

use agentc_schema::Dialect;

use crate::diagnostic::RelPath;
use crate::fs::{EntryKind, ReadOutcome};
use crate::hosts::{codex, gemini};

use super::{ConfigFile, Walk};

impl Walk<'_> {
    /// Each extension's and Codex plugin's own files.
    pub(super) fn companions(&mut self) {
        let manifests: Vec<(std::path::PathBuf, RelPath, Dialect, Option<RelPath>)> =
            (self.layout.configs.iter())
                .filter(|c| matches!(c.dialect, Dialect::GeminiExtension | Dialect::CodexPlugin))
                .map(|c| (c.file.path.clone(), c.file.rel.clone(), c.dialect, c.plugin.clone()))
                .collect();
        for (path, rel, dialect, plugin) in manifests {
            // The manifest's folder: the extension's, or `.codex-plugin/`.
            let Some(dir) = path.parent() else { continue };
            let folder = parent(&rel);
            match dialect {
                Dialect::GeminiExtension => {
                    for declared in gemini::EXTENSION_FILES {
                        match declared.path.split_once("/**/") {
                            Some((folder_name, pattern)) => {
                                let Some(sub) = self.find(dir, &folder, folder_name) else {
                                    continue;
                                };
                                if sub.kind != EntryKind::Dir {
                                    continue;
                                }
                                let budget = &mut { super::declared::MAX_FOLDERS };
                                let patterns = [pattern];
                                let files = self.matching(
                                    &sub.path,
                                    &sub.rel,
                                    (&patterns, &[]),
                                    true,
                                    (0, budget),
                                );
                                for file in files {
                                    self.add(file, declared.dialect, &plugin);
                                }
                            }
                            None => {
                                let path = declared.path;
                                self.companion(dir, &folder, path, declared.dialect, &plugin);
                            }
                        }
                    }
                }
                _ => {
                    let Some(top) = dir.parent() else { continue };
                    let top_rel = parent(&folder);
                    let Ok(ReadOutcome::Bytes(bytes)) =
                        self.fs.read(&path, self.opts.max_file_size)
                    else {
                        continue;
                    };
                    let Ok(manifest) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
                        continue;
                    };
                    for hooks in codex::plugin_hooks(&manifest) {
                        self.companion(top, &top_rel, &hooks, Dialect::CodexHooks, &plugin);
                    }
                }
            }
        }
    }

    /// The file `path` below `dir`, read as `dialect` when it is there.
    fn companion(
        &mut self,
        dir: &Path,
        rel: &RelPath,
        path: &str,
        dialect: Dialect,
        plugin: &Option<RelPath>,
    ) {
        if let Some(entry) = self.find(dir, rel, path) {
            self.add(entry, dialect, plugin);
        }
    }

    /// `entry`, a file, read as `dialect` unless it already is.
    fn add(&mut self, entry: super::Entry, dialect: Dialect, plugin: &Option<RelPath>) {
        let known =
            (self.layout.configs.iter()).any(|c| c.file.path == entry.path && c.dialect == dialect);
        if entry.kind != EntryKind::File || known {
            return;
        }
        let plugin = plugin.clone();
        self.layout.configs.push(ConfigFile { file: entry.file_ref(), dialect, plugin });
    }
}

/// The folder holding `rel` (the top's empty path at the top).
fn parent(rel: &RelPath) -> RelPath {
    let path = rel.path.trim_end_matches('/');
    let folder = path.rsplit_once('/').map(|(folder, _)| folder).unwrap_or_default();
    RelPath { origin: rel.origin, path: folder.into() }.as_folder()
}
