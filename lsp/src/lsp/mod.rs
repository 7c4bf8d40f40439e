//! `agentc lsp`: the language server. It speaks the Language Server Protocol
//! over stdio, synchronously, with rust-analyzer's message types
//! (`lsp-server`) in agentc's own bounded framing ([`transport`]) and
//! lifecycle ([`session`]), and answers from the same compiler the command
//! line runs.
//!
//! Each workspace folder is a project, compiled as `agentc check` would
//! compile it there; open documents are laid over the disk ([`Overlay`]), so
//! unsaved edits count. Changes that arrive together are compiled once, and
//! diagnostics are published only for files whose diagnostics changed — an
//! edit in one file can break or heal another.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crossbeam_channel::Sender;
use lsp_server::{Message, Notification};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::{self as lsp, Url};

use crate::ide::{Analysis, Index};
use agentc_compiler::compile::{Compilation, Memo};
use agentc_compiler::diagnostic::RelPath;
pub use agentc_compiler::folder::compile_folder;
use agentc_compiler::fs::Fs;
use agentc_compiler::fscache::CachedFs;
use agentc_compiler::overlay::Overlay;

mod convert;
mod inputs;
mod requests;
mod session;
pub(crate) mod transport;

use convert::Encoding;
use inputs::{Inputs, Recording};
pub use session::run_stdio;
pub(crate) use session::{Flow, Session};
use transport::Outgoing;

/// What the disk watcher reports.
type DiskEvents = crossbeam_channel::Receiver<notify::Result<notify::Event>>;

/// Where the server's messages go: the thread writing stdout, or a test.
type Outbox = Sender<Outgoing>;

/// The output is closed (the client went away): nothing more can be said.
#[derive(Debug)]
pub(crate) struct Gone;

impl std::fmt::Display for Gone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the output to the client is closed")
    }
}

impl std::error::Error for Gone {}

impl From<crossbeam_channel::SendError<Outgoing>> for Gone {
    fn from(_: crossbeam_channel::SendError<Outgoing>) -> Gone {
        Gone
    }
}

/// Whether the client can apply a rename of a folder. Neovim before 0.10
/// offers file renames but writes the renamed path as a buffer first, which
/// fails for a folder; it gets the text edits alone.
fn renames_folders(params: &lsp::InitializeParams) -> bool {
    let offered = (params.capabilities.workspace.as_ref())
        .and_then(|w| w.workspace_edit.as_ref())
        .and_then(|e| e.resource_operations.as_ref())
        .is_some_and(|ops| ops.contains(&lsp::ResourceOperationKind::Rename));
    let old_neovim = params.client_info.as_ref().is_some_and(|info| {
        let version = info.version.as_deref().unwrap_or_default();
        let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
        let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
        info.name == "Neovim" && (major, minor) < (0, 10)
    });
    offered && !old_neovim
}

/// UTF-8 when the client can count in it (no conversion), else the
/// protocol's default, UTF-16.
fn negotiate_encoding(params: &lsp::InitializeParams) -> Encoding {
    let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_ref());
    if offered.is_some_and(|kinds| kinds.contains(&lsp::PositionEncodingKind::UTF8)) {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    }
}

fn capabilities(encoding: Encoding) -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => lsp::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lsp::PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::FULL),
                save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(
                [" ", "-", "=", ",", "\"", "["].into_iter().map(str::to_owned).collect(),
            ),
            ..Default::default()
        }),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![
                    lsp::CodeActionKind::QUICKFIX,
                    lsp::CodeActionKind::SOURCE_FIX_ALL,
                    lsp::CodeActionKind::from(requests::FIX_ALL),
                ]),
                ..Default::default()
            },
        )),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        workspace_symbol_provider: Some(lsp::OneOf::Left(true)),
        document_link_provider: Some(lsp::DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        workspace: Some(lsp::WorkspaceServerCapabilities {
            workspace_folders: Some(lsp::WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(lsp::OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..Default::default()
    }
}

/// One workspace folder, compiled.
struct Project {
    /// Which project it is while folders come and go: what a compile on
    /// its own thread sends back, and its progress token.
    id: usize,
    folder: PathBuf,
    /// Sources and parses kept between compiles (shared with a compile on
    /// its own thread).
    memo: Arc<Memo>,
    compiled: Option<Compiled>,
    /// Needs a full compile.
    dirty: bool,
    /// A compile is running on its own thread; requests are answered from
    /// `compiled` meanwhile, and changes wait for its end.
    compiling: bool,
    /// Files it read whose text changed since: when nothing else did, each
    /// is an update of the compilation rather than a compile.
    edited_texts: HashSet<PathBuf>,
    /// What was last published, per document.
    published: HashMap<Url, Vec<lsp::Diagnostic>>,
    /// A `$/progress` began for its compile and has not ended.
    progressing: bool,
}

impl Project {
    fn new(id: usize, folder: PathBuf) -> Project {
        Project {
            id,
            folder,
            memo: Arc::default(),
            compiled: None,
            dirty: true,
            compiling: false,
            edited_texts: HashSet::new(),
            published: HashMap::new(),
            progressing: false,
        }
    }

    /// Whether a change to `path` may change what compiling the project
    /// gives: a file it read, or anything its compile asked about or found
    /// in a folder it listed (see [`inputs`]). Before the first compile,
    /// anything.
    fn reads(&self, path: &Path) -> bool {
        let Some(compiled) = &self.compiled else {
            return true;
        };
        compiled.files.contains_key(path) || compiled.inputs.depend_on(path)
    }
}

/// A compilation with the way back from disk paths to its files, and its
/// index for editor requests (made at the first request that needs it).
pub(crate) struct Compiled {
    compilation: Compilation,
    files: HashMap<PathBuf, RelPath>,
    /// What the compile and the updates since asked of the file system.
    inputs: Inputs,
    index: std::sync::OnceLock<Index>,
}

impl Compiled {
    /// Brings the compilation up to date after edits to the texts of
    /// `files`, noting what that asked of `fs`; whether it could.
    fn update(&mut self, fs: &dyn Fs, memo: &Memo, files: &[RelPath]) -> bool {
        let recording = Recording::new(fs);
        let updated = self.compilation.update_files(&recording, memo, files);
        self.inputs.extend(recording.into_inputs());
        updated
    }

    fn analysis(&self) -> Analysis<'_> {
        Analysis::new(&self.compilation, self.index.get_or_init(|| Index::new(&self.compilation)))
    }
}

struct Server<F: Fs> {
    outbox: Outbox,
    /// Masks the secrets found in every project's files in each answer
    /// (see [`Server::mask`]); made again when a compilation is installed.
    redactor: agentc_compiler::secrets::Redactor,
    encoding: Encoding,
    projects: Vec<Project>,
    /// Open documents by canonical path.
    buffers: HashMap<PathBuf, Arc<str>>,
    /// Canonical paths of the documents' URIs.
    canonical: HashMap<Url, PathBuf>,
    /// Documents opened or edited since the last publish: each gets its
    /// diagnostics published even when they did not change, so the editor
    /// (and the editing benchmark) knows its edit was checked.
    edited: HashSet<PathBuf>,
    /// The version of each open document, sent back with its diagnostics.
    versions: HashMap<PathBuf, i32>,
    /// Whether a rename may move the definition's folder.
    renames_folders: bool,
    /// The disk as last seen, forgotten path by path as it changes (shared
    /// with a compile on its own thread).
    fs: Arc<CachedFs<F>>,
    /// Whether `fs` may be used: the disk is being watched.
    cache: bool,
    /// Where a compile on its own thread sends what it made; none: every
    /// compile runs in turn with the messages (tests, the fuzzer).
    compiles: Option<(Sender<Done>, crossbeam_channel::Receiver<Done>)>,
    /// The client shows `$/progress` (`window.workDoneProgress`).
    progress: bool,
    /// Requests sent to the client so far, which numbers the next.
    sent: u64,
    /// The id the next project added gets.
    next_project: usize,
    /// What watches the project folders on disk, once watching began.
    watcher: Option<notify::RecommendedWatcher>,
    /// The next compile or update panics (see [`Job::panic`]).
    #[cfg(test)]
    panic_next: bool,
}

/// What a compile on its own thread made, for the project of id `project`.
pub(crate) struct Done {
    project: usize,
    /// None when the compile from scratch after a panic panicked too.
    compiled: Option<Compiled>,
    /// What panicked, when the update or compile did, and the new memo the
    /// compile from scratch that followed filled.
    panicked: Option<(String, Arc<Memo>)>,
}

/// A compile of one project, or an update of a copy of its compilation
/// ([`Server::work`]), with all it reads: made on its own thread or in turn.
struct Job<F: Fs> {
    fs: Arc<CachedFs<F>>,
    /// Whether `fs` may be used (see [`Server::cache`]).
    cache: bool,
    buffers: HashMap<PathBuf, Arc<str>>,
    project: usize,
    folder: PathBuf,
    memo: Arc<Memo>,
    /// The copy to update, and the files edited.
    copy: Option<(Compiled, Vec<RelPath>)>,
    /// Panics before it begins: how the tests make the bug a panic is.
    #[cfg(test)]
    panic: bool,
}

impl<F: Fs> Job<F> {
    /// The update of the copy, or when it cannot be made a compile, with
    /// the editor's index. A panic is caught and followed by a compile from
    /// scratch: the disk read again, a new memo.
    fn run(self) -> Done {
        let Job { fs, cache, buffers, project, folder, memo, copy, .. } = self;
        let base: &dyn Fs = if cache { &*fs } else { fs.base() };
        let overlay = Overlay { base, buffers: &buffers };
        // The editor's index too, here rather than in the first request
        // after (30 ms at 10,000 skills, on a hover's time).
        let indexed = |compiled: Compiled| {
            compiled.analysis();
            compiled
        };
        let made = caught(|| {
            #[cfg(test)]
            assert!(!self.panic, "a panic the test injected");
            let updated = copy.and_then(|(mut compiled, edited)| {
                compiled.update(&overlay, &memo, &edited).then_some(compiled)
            });
            indexed(updated.unwrap_or_else(|| compile_project(&overlay, &folder, &memo)))
        });
        match made {
            Ok(compiled) => Done { project, compiled: Some(compiled), panicked: None },
            Err(panic) => {
                fs.forget_all();
                let memo = Arc::new(Memo::default());
                let compiled = caught(|| indexed(compile_project(&overlay, &folder, &memo))).ok();
                Done { project, compiled, panicked: Some((panic, memo)) }
            }
        }
    }
}

/// Runs `work`, catching a panic: its message, when it panicked. A panic
/// on a thread the server waits for would leave it silent for good.
fn caught<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|payload| {
        (payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_owned())
    })
}

impl<F: Fs + Send + 'static> Server<F> {
    fn new(fs: F, outbox: Outbox, params: &lsp::InitializeParams, encoding: Encoding) -> Self {
        #[allow(deprecated)] // `root_uri` is what clients without folders send
        let folders: Vec<PathBuf> = match &params.workspace_folders {
            Some(folders) if !folders.is_empty() => {
                folders.iter().filter_map(|f| f.uri.to_file_path().ok()).collect()
            }
            _ => params.root_uri.iter().filter_map(|u| u.to_file_path().ok()).collect(),
        };
        let mut projects: Vec<Project> = Vec::new();
        for folder in folders {
            let folder = fs.canonicalize(&folder).unwrap_or(folder);
            if projects.iter().all(|p| p.folder != folder) {
                projects.push(Project::new(projects.len(), folder));
            }
        }
        let watched = projects.iter().map(|p| p.folder.clone()).collect();
        Server {
            outbox,
            redactor: Default::default(),
            encoding,
            buffers: HashMap::new(),
            canonical: HashMap::new(),
            edited: HashSet::new(),
            versions: HashMap::new(),
            renames_folders: renames_folders(params),
            // What is outside the watched folders (a registry elsewhere) is
            // read afresh every time.
            fs: Arc::new(CachedFs::within(fs, watched)),
            cache: true,
            compiles: None,
            progress: (params.capabilities.window.as_ref())
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false),
            sent: 0,
            next_project: projects.len(),
            projects,
            watcher: None,
            #[cfg(test)]
            panic_next: false,
        }
    }

    /// Watches every project folder for changes on disk (notify: inotify,
    /// FSEvents, ReadDirectoryChangesW), whatever the client can tell, and
    /// the folders added to the workspace later.
    fn watch_disk(&mut self) -> notify::Result<DiskEvents> {
        use notify::Watcher;
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut watcher = agentc_compiler::fs::watcher(move |event| {
            let _ = tx.send(event);
        })?;
        for project in &self.projects {
            watcher.watch(&project.folder, notify::RecursiveMode::Recursive)?;
        }
        self.watcher = Some(watcher);
        Ok(rx)
    }

    /// Serves the folders added to the workspace, each a project compiled
    /// at the next refresh, and stops serving those removed: their
    /// diagnostics are withdrawn, their compilations dropped.
    /// (A client gone is found at the next message sent.)
    fn change_folders(&mut self, event: lsp::WorkspaceFoldersChangeEvent) {
        use notify::Watcher;
        for removed in event.removed {
            let Some(folder) = self.canonical(&removed.uri) else {
                continue;
            };
            let Some(i) = self.projects.iter().position(|p| p.folder == folder) else {
                continue;
            };
            let project = self.projects.remove(i);
            for uri in project.published.into_keys() {
                let _ = publish(&self.outbox, &HashMap::new(), uri, Vec::new());
            }
            if let Some(watcher) = &mut self.watcher {
                let _ = watcher.unwatch(&folder);
            }
            // What another project watches stays watched.
            self.fs.unwatch(&folder);
            for project in &self.projects {
                if project.folder.starts_with(&folder) || folder.starts_with(&project.folder) {
                    self.fs.watch(project.folder.clone());
                }
            }
            if let Some(old) = project.compiled {
                agentc_compiler::update::drop_elsewhere((old.compilation, old.index));
            }
        }
        for added in event.added {
            let Some(folder) = self.canonical(&added.uri) else {
                continue;
            };
            if self.projects.iter().any(|p| p.folder == folder) {
                continue;
            }
            let watched = match &mut self.watcher {
                Some(watcher) => watcher.watch(&folder, notify::RecursiveMode::Recursive),
                None => Ok(()),
            };
            match watched {
                // Without notifications its files are read afresh every time.
                Err(err) => {
                    let _ = self.log(&format!(
                        "agentc: cannot watch {} ({err}); reading it from disk on every change",
                        folder.display()
                    ));
                }
                Ok(()) => self.fs.watch(folder.clone()),
            }
            self.projects.push(Project::new(self.next_project, folder));
            self.next_project += 1;
        }
    }

    /// Forgets what changed on disk, and marks its projects for a compile.
    fn disk_changed(&mut self, event: notify::Result<notify::Event>) {
        match event {
            Ok(event) if event.kind.is_access() => {}
            Ok(event) => {
                // A file written in place keeps its place in the project.
                let written = matches!(
                    event.kind,
                    notify::EventKind::Modify(notify::event::ModifyKind::Data(_))
                );
                for path in &event.paths {
                    self.fs.forget(path);
                    if written { self.touch_text(path) } else { self.touch(path) }
                }
            }
            // Events were lost (an overflowing queue): forget everything.
            Err(_) => {
                self.fs.forget_all();
                self.projects.iter_mut().for_each(|p| p.dirty = true);
            }
        }
    }

    fn log(&self, message: &str) -> Result<(), Gone> {
        let params =
            lsp::LogMessageParams { typ: lsp::MessageType::WARNING, message: message.to_owned() };
        let notification = Notification::new(notif::LogMessage::METHOD.to_owned(), params);
        Ok(self.outbox.send(Outgoing::Message(Message::Notification(notification)))?)
    }

    /// Tells the user that updating or compiling project `i` panicked
    /// (`panic` says where), and `what` came of it: once, as an error, for
    /// the bug it is.
    fn panicked(&self, i: usize, panic: &str, what: &str) -> Result<(), Gone> {
        let folder = self.projects[i].folder.display();
        let message = format!(
            "agentc: compiling {folder} after a change panicked ({panic}); {what}. \
             This is a bug in agentc: please report the edit that led to it."
        );
        let params = lsp::ShowMessageParams { typ: lsp::MessageType::ERROR, message };
        let notification = Notification::new(notif::ShowMessage::METHOD.to_owned(), params);
        Ok(self.outbox.send(Outgoing::Message(Message::Notification(notification)))?)
    }

    fn canonical(&mut self, uri: &Url) -> Option<PathBuf> {
        if let Some(path) = self.canonical.get(uri) {
            return Some(path.clone());
        }
        let path = uri.to_file_path().ok()?;
        let path = self.fs.base().canonicalize(&path).unwrap_or(path);
        self.canonical.insert(uri.clone(), path.clone());
        Some(path)
    }

    /// `path` as compiles name it: canonical, or for a file that is gone,
    /// in its canonical folder.
    fn canonical_path(&self, path: PathBuf) -> PathBuf {
        let base = self.fs.base();
        if let Ok(found) = base.canonicalize(&path) {
            return found;
        }
        match (path.parent(), path.file_name()) {
            (Some(folder), Some(name)) => match base.canonicalize(folder) {
                Ok(folder) => folder.join(name),
                Err(_) => path,
            },
            _ => path,
        }
    }

    /// Marks the projects whose compile depends on `path` for a compile: a
    /// change to a build's `target/` that no compile walks is no reason to
    /// compile.
    fn touch(&mut self, path: &Path) {
        for project in &mut self.projects {
            // What a running compile read is not known yet.
            if project.compiling || project.reads(path) {
                project.dirty = true;
            }
        }
    }

    /// Notes that the text of `path` changed: an update for the projects
    /// that read it (a compile when it is not a skill's), a compile for
    /// those that may read it now.
    fn touch_text(&mut self, path: &Path) {
        for project in &mut self.projects {
            match &project.compiled {
                Some(compiled) if compiled.files.contains_key(path) => {
                    project.edited_texts.insert(path.to_path_buf());
                }
                // What a running compile reads is not known yet.
                _ if project.compiling || project.reads(path) => {
                    project.dirty = true;
                }
                _ => {}
            }
        }
    }

    /// Applies a notification; one whose parameters do not decode is
    /// ignored, and says why.
    fn notification(&mut self, notification: Notification) -> Result<(), String> {
        fn params<P: serde::de::DeserializeOwned>(n: Notification) -> Result<P, String> {
            serde_json::from_value(n.params)
                .map_err(|err| format!("ignored `{}`: bad parameters: {err}", n.method))
        }
        match notification.method.as_str() {
            notif::DidOpenTextDocument::METHOD => {
                let params: lsp::DidOpenTextDocumentParams = params(notification)?;
                let document = params.text_document;
                self.set_buffer(&document.uri, Some((document.text, document.version)));
            }
            notif::DidChangeTextDocument::METHOD => {
                let params: lsp::DidChangeTextDocumentParams = params(notification)?;
                // Full synchronization: the last change is the whole text.
                if let Some(change) = params.content_changes.into_iter().last() {
                    let version = params.text_document.version;
                    self.set_buffer(&params.text_document.uri, Some((change.text, version)));
                }
            }
            notif::DidCloseTextDocument::METHOD => {
                let params: lsp::DidCloseTextDocumentParams = params(notification)?;
                self.set_buffer(&params.text_document.uri, None);
            }
            notif::DidSaveTextDocument::METHOD => {
                let params: lsp::DidSaveTextDocumentParams = params(notification)?;
                if let Some(path) = self.canonical(&params.text_document.uri) {
                    self.fs.forget(&path);
                    self.touch_text(&path);
                }
            }
            notif::DidChangeWorkspaceFolders::METHOD => {
                let params: lsp::DidChangeWorkspaceFoldersParams = params(notification)?;
                self.change_folders(params.event);
            }
            notif::DidChangeWatchedFiles::METHOD => {
                let params: lsp::DidChangeWatchedFilesParams = params(notification)?;
                for change in params.changes {
                    if let Ok(path) = change.uri.to_file_path() {
                        let path = self.canonical_path(path);
                        self.fs.forget(&path);
                        self.touch(&path);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn set_buffer(&mut self, uri: &Url, text: Option<(String, i32)>) {
        let Some(path) = self.canonical(uri) else {
            return;
        };
        match text {
            Some((text, version)) => {
                self.buffers.insert(path.clone(), Arc::from(text));
                self.versions.insert(path.clone(), version);
                self.edited.insert(path.clone());
            }
            None => {
                // Closed, perhaps without saving: the disk's text counts again.
                self.buffers.remove(&path);
                self.versions.remove(&path);
                self.fs.forget(&path);
            }
        }
        self.touch_text(&path);
    }

    /// Brings the projects up to date and publishes what changed: an edit
    /// to a file's text is an update when it can be; otherwise the project
    /// is compiled again, on its own thread when there is one to answer
    /// from meanwhile (see [`Server::compiles`]).
    fn refresh(&mut self) -> Result<(), Gone> {
        for i in 0..self.projects.len() {
            let project = &mut self.projects[i];
            if project.compiling || (!project.dirty && project.edited_texts.is_empty()) {
                continue;
            }
            let edited = std::mem::take(&mut project.edited_texts);
            // The texts edited, as the compilation names them: none when one
            // is not its, or the project needs a compile anyway.
            let files: Option<Vec<RelPath>> = match (&project.compiled, project.dirty) {
                (Some(compiled), false) => {
                    edited.iter().map(|path| compiled.files.get(path).cloned()).collect()
                }
                _ => None,
            };
            // An update that redoes everything (the registry's) is made on a
            // copy, beside the compilation requests are answered from.
            if files.is_some() && self.work(i, files.clone())? {
                continue;
            }
            let base: &dyn Fs = if self.cache { &*self.fs } else { self.fs.base() };
            let overlay = Overlay { base, buffers: &self.buffers };
            let project = &mut self.projects[i];
            // A skill's, an agent's, an assistant's, a tool manifest's, the
            // registry's or agentc.toml's text is an update; any other file
            // (a plugin's manifest) is compiled again with the rest
            // (`Compilation::update_file` says which it could do).
            let updated = match (files, project.compiled.as_mut()) {
                (Some(files), Some(compiled)) => {
                    caught(|| compiled.update(&overlay, &project.memo, &files))
                }
                _ => Ok(false),
            };
            project.dirty = false;
            match updated {
                Ok(true) => {
                    if let Some(Compiled { compilation, files, inputs, index }) =
                        project.compiled.take()
                    {
                        agentc_compiler::update::drop_elsewhere(index);
                        let compiled =
                            Compiled { compilation, files, inputs, index: Default::default() };
                        self.install(i, compiled)?;
                    }
                    continue;
                }
                Ok(false) => {}
                // Nothing is kept of what the panic may have left half
                // updated: the compile below is from scratch.
                Err(panic) => {
                    if let Some(old) = project.compiled.take() {
                        agentc_compiler::update::drop_elsewhere((old.compilation, old.index));
                    }
                    project.memo = Arc::default();
                    self.fs.forget_all();
                    self.panicked(i, &panic, "it is compiled again from scratch")?;
                }
            }
            self.begin_progress(i)?;
            self.work(i, None)?;
        }
        if self.projects.iter().all(|p| !p.compiling) {
            self.edited.clear();
        }
        Ok(())
    }

    /// Compiles project `i` — or, given the texts `edited`, updates a copy
    /// of its compilation after their edits, when that is worth a copy
    /// ([`Compilation::copy_to_update`]) — on its own thread when there is
    /// one and a compilation to answer requests from meanwhile, else in
    /// turn. Whether it did: an update not worth a copy is the caller's.
    fn work(&mut self, i: usize, edited: Option<Vec<RelPath>>) -> Result<bool, Gone> {
        let project = &self.projects[i];
        let copy = match (edited, &project.compiled) {
            (None, _) => None,
            (Some(edited), Some(compiled)) => {
                let Some(compilation) = compiled.compilation.copy_to_update(&edited) else {
                    return Ok(false);
                };
                let (files, inputs) = (compiled.files.clone(), compiled.inputs.clone());
                Some((Compiled { compilation, files, inputs, index: Default::default() }, edited))
            }
            (Some(_), None) => return Ok(false),
        };
        let job = Job {
            fs: Arc::clone(&self.fs),
            cache: self.cache,
            buffers: self.buffers.clone(),
            project: project.id,
            folder: project.folder.clone(),
            memo: Arc::clone(&project.memo),
            copy,
            #[cfg(test)]
            panic: std::mem::take(&mut self.panic_next),
        };
        let thread = self.compiles.clone().filter(|_| project.compiled.is_some());
        if let Some((finished, _)) = thread {
            let spawned = std::thread::Builder::new()
                .name("agentc-compile".to_owned())
                // The session may have ended meanwhile.
                .spawn(move || drop(finished.send(job.run())));
            self.projects[i].compiling = spawned.is_ok();
            if spawned.is_ok() {
                return Ok(true);
            }
            // (No thread to be had: compiled in turn, from the start.)
            return self.work(i, None);
        }
        let project = &mut self.projects[i];
        // Two compilations at once would double the peak memory: without
        // a thread to compile on, the old one goes first.
        if job.copy.is_none()
            && let Some(old) = project.compiled.take()
        {
            agentc_compiler::update::drop_elsewhere(old.index);
            drop(old.compilation);
        }
        self.take(i, job.run())?;
        Ok(true)
    }

    /// Waits for the compiles running for the document at `uri` while its
    /// text is newer than what the project has compiled: an answer about a
    /// document must be about the text the editor shows. Requests about
    /// any other document are answered from the compilation there is.
    pub(crate) fn catch_up(&mut self, uri: &Url) -> Result<(), Gone> {
        let Some(path) = self.canonical(uri) else {
            return Ok(());
        };
        let Some((_, finished)) = self.compiles.clone() else {
            return Ok(());
        };
        while let Some(i) = self.projects.iter().position(|p| p.compiling) {
            let current = self.buffers.get(&path).is_none_or(|text| {
                self.projects.iter().filter_map(|p| p.compiled.as_ref()).any(|c| {
                    let file = c.files.get(&path);
                    let source = file.and_then(|rel| c.compilation.source(rel));
                    source.is_some_and(|s| *s.text == **text)
                })
            });
            if current {
                return Ok(());
            }
            match finished.recv() {
                Ok(done) => self.compiled(done)?,
                // No compile can end any more: answer from what there is.
                Err(_) => {
                    self.projects[i].compiling = false;
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// Takes what a compile on its own thread made, publishes what changed,
    /// and goes on with the changes that came meanwhile.
    pub(crate) fn compiled(&mut self, done: Done) -> Result<(), Gone> {
        // A project whose folder left the workspace meanwhile is gone.
        let Some(i) = self.projects.iter().position(|p| p.id == done.project) else {
            agentc_compiler::update::drop_elsewhere(done.compiled.map(|c| c.compilation));
            return Ok(());
        };
        self.take(i, done)?;
        self.refresh()
    }

    /// Keeps what a compile of project `i` made (see [`Server::install`]),
    /// and tells of a panic it caught.
    fn take(&mut self, i: usize, done: Done) -> Result<(), Gone> {
        let project = &mut self.projects[i];
        project.compiling = false;
        if let Some((panic, memo)) = done.panicked {
            project.memo = memo;
            let what = match &done.compiled {
                Some(_) => "it was compiled again from scratch",
                // The compilation there was is kept; the next change tries again.
                None => "so did compiling it again from scratch",
            };
            self.panicked(i, &panic, what)?;
        }
        let project = &mut self.projects[i];
        let Some(compiled) = done.compiled else {
            return self.end_progress(i, 0, 0);
        };
        if let Some(old) = project.compiled.take() {
            agentc_compiler::update::drop_elsewhere((old.compilation, old.index));
        }
        // Texts edited since the compile started are updates of what it made.
        let made = &compiled.files;
        let stale: Vec<PathBuf> =
            project.edited_texts.iter().filter(|p| !made.contains_key(*p)).cloned().collect();
        if !stale.is_empty() {
            project.dirty = true;
        }
        self.install(i, compiled)
    }

    /// Keeps `compiled` as project `i`'s compilation and publishes the
    /// diagnostics that changed, and those of every document edited.
    fn install(&mut self, i: usize, compiled: Compiled) -> Result<(), Gone> {
        let project = &mut self.projects[i];
        let mut diagnostics = publishable(&compiled.compilation, self.encoding);
        let files = &compiled.files;
        // A document's diagnostics carry its version only when they are of
        // the text the editor has: a compile that began before the last
        // edit is not that version's.
        let versions: HashMap<PathBuf, i32> = (self.versions.iter())
            .filter(|(path, _)| {
                let compiled = files.get(*path).and_then(|rel| compiled.compilation.source(rel));
                let buffer = self.buffers.get(*path);
                compiled.zip(buffer).is_some_and(|(source, text)| *source.text == **text)
            })
            .map(|(path, version)| (path.clone(), *version))
            .collect();
        let edited: Vec<PathBuf> =
            self.edited.iter().filter(|path| versions.contains_key(*path)).cloned().collect();
        for path in &edited {
            if let Ok(uri) = Url::from_file_path(path) {
                diagnostics.entry(uri.clone()).or_default();
                let list = &diagnostics[&uri];
                if project.published.get(&uri) == Some(list) {
                    publish(&self.outbox, &versions, uri, list.clone())?;
                }
            }
            self.edited.remove(path);
        }
        for (uri, list) in &diagnostics {
            if project.published.get(uri) != Some(list) {
                publish(&self.outbox, &versions, uri.clone(), list.clone())?;
            }
        }
        for uri in project.published.keys() {
            if !diagnostics.contains_key(uri) {
                publish(&self.outbox, &versions, uri.clone(), Vec::new())?;
            }
        }
        diagnostics.retain(|_, list| !list.is_empty());
        let count: usize = diagnostics.values().map(Vec::len).sum();
        project.published = diagnostics;
        let files = compiled.files.len();
        project.compiled = Some(compiled);
        let compilations = self.projects.iter().filter_map(|p| p.compiled.as_ref());
        let sources = compilations.flat_map(|c| c.compilation.sources.values());
        self.redactor = agentc_compiler::secrets::Redactor::new(sources);
        self.end_progress(i, files, count)
    }

    /// `response` with every secret found in the projects' files masked: a
    /// completion, hover, symbol or link quotes what the files say, and a
    /// found secret is never shown. Diagnostics are masked when made.
    pub(crate) fn mask(&self, mut response: lsp_server::Response) -> lsp_server::Response {
        if self.redactor.is_empty() {
            return response;
        }
        match &mut response.response_result {
            Ok(result) => {
                let text = result.to_string();
                if let std::borrow::Cow::Owned(clean) = self.redactor.clean(&text) {
                    *result = serde_json::from_str(&clean).unwrap_or(serde_json::Value::Null);
                }
            }
            Err(error) => self.redactor.clean_in_place(&mut error.message),
        }
        response
    }

    /// The `$/progress` token of a project's compiles.
    fn progress_token(project: &Project) -> lsp::NumberOrString {
        lsp::NumberOrString::String(format!("agentc/compile/{}", project.id))
    }

    /// Tells the client a compile of project `i` begins (when it shows
    /// progress): the first takes seconds in a large repository.
    fn begin_progress(&mut self, i: usize) -> Result<(), Gone> {
        if !self.progress {
            return Ok(());
        }
        self.sent += 1;
        self.projects[i].progressing = true;
        let token = Self::progress_token(&self.projects[i]);
        let create = lsp_server::Request::new(
            lsp_server::RequestId::from(format!("agentc/progress/{}", self.sent)),
            <lsp_types::request::WorkDoneProgressCreate as lsp_types::request::Request>::METHOD
                .to_owned(),
            lsp::WorkDoneProgressCreateParams { token: token.clone() },
        );
        self.outbox.send(Outgoing::Message(Message::Request(create)))?;
        let folder = self.projects[i].folder.display().to_string();
        let begin = lsp::WorkDoneProgress::Begin(lsp::WorkDoneProgressBegin {
            title: "agentc".to_owned(),
            message: Some(format!("compiling {folder}")),
            cancellable: Some(false),
            percentage: None,
        });
        self.send_progress(token, begin)
    }

    /// Tells the client the compile of project `i` ended (an update never
    /// began one).
    fn end_progress(&mut self, i: usize, files: usize, problems: usize) -> Result<(), Gone> {
        if !std::mem::take(&mut self.projects[i].progressing) {
            return Ok(());
        }
        let message = format!("{files} files, {problems} problems");
        let end = lsp::WorkDoneProgress::End(lsp::WorkDoneProgressEnd { message: Some(message) });
        self.send_progress(Self::progress_token(&self.projects[i]), end)
    }

    fn send_progress(
        &self,
        token: lsp::NumberOrString,
        value: lsp::WorkDoneProgress,
    ) -> Result<(), Gone> {
        let params =
            lsp::ProgressParams { token, value: lsp::ProgressParamsValue::WorkDone(value) };
        let notification = Notification::new(notif::Progress::METHOD.to_owned(), params);
        Ok(self.outbox.send(Outgoing::Message(Message::Notification(notification)))?)
    }

    /// The project and file a document is, when a project reads it.
    fn locate(&mut self, uri: &Url) -> Option<(&Compiled, RelPath)> {
        let path = self.canonical(uri)?;
        self.projects
            .iter()
            .filter_map(|p| p.compiled.as_ref())
            .find_map(|compiled| compiled.files.get(&path).map(|rel| (compiled, rel.clone())))
    }
}

/// Compiles the project in `folder`, noting what it asks of the file
/// system, with the way back from disk paths to its files.
fn compile_project(fs: &dyn Fs, folder: &Path, memo: &Memo) -> Compiled {
    let recording = Recording::new(fs);
    let compilation = compile_folder(&recording, folder, Some(memo));
    let files: HashMap<PathBuf, RelPath> = (compilation.texts())
        .filter_map(|s| Some((compilation.disk_path(&s.path)?, s.path.clone())))
        .collect();
    Compiled { compilation, files, inputs: recording.into_inputs(), index: Default::default() }
}

/// Every diagnostic, by the document it is in.
fn publishable(
    compilation: &Compilation,
    encoding: Encoding,
) -> HashMap<Url, Vec<lsp::Diagnostic>> {
    let mut out: HashMap<Url, Vec<lsp::Diagnostic>> = HashMap::new();
    for d in &compilation.diagnostics {
        if let Some(uri) = convert::url(compilation, &d.location.file) {
            out.entry(uri).or_default().push(convert::diagnostic(compilation, d, encoding));
        }
    }
    out
}

/// Publishes a document's diagnostics, with its version when it is open.
fn publish(
    outbox: &Outbox,
    versions: &HashMap<PathBuf, i32>,
    uri: Url,
    diagnostics: Vec<lsp::Diagnostic>,
) -> Result<(), Gone> {
    let version = uri.to_file_path().ok().and_then(|path| versions.get(&path).copied());
    let params = lsp::PublishDiagnosticsParams { uri, diagnostics, version };
    let notification = Notification::new(notif::PublishDiagnostics::METHOD.to_owned(), params);
    Ok(outbox.send(Outgoing::Message(Message::Notification(notification)))?)
}

#[cfg(test)]
mod tests;
