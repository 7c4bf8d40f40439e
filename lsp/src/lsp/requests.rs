//! Requests: each answered from the compilation of the project that reads
//! the document, through the pure editor features of [`crate::ide`].

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use lsp_server::{Request, Response};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{self as lsp, Url};

use super::Server;
use super::convert::{self, Encoding, Lines};
use crate::ide::{Analysis, CompletionKind, LIMIT, OutlineItem, OutlineKind, SymbolKind, actions};
use agentc_compiler::compile::Compilation;
use agentc_compiler::diagnostic::RelPath;
use agentc_compiler::fs::{EntryKind, Fs, ReadOutcome};
use agentc_compiler::overlay::Overlay;
use agentc_compiler::project_file;

/// The kind of the action applying every fix of a file.
pub(super) const FIX_ALL: &str = "source.fixAll.agentc";

impl<F: Fs + Send + 'static> Server<F> {
    pub(super) fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            req::HoverRequest::METHOD => self.handle::<req::HoverRequest>(request, Self::hover),
            req::Completion::METHOD => self.handle::<req::Completion>(request, Self::completion),
            req::GotoDefinition::METHOD => {
                self.handle::<req::GotoDefinition>(request, Self::definition)
            }
            req::References::METHOD => self.handle::<req::References>(request, Self::references),
            req::PrepareRenameRequest::METHOD => {
                self.handle::<req::PrepareRenameRequest>(request, Self::prepare_rename)
            }
            req::Rename::METHOD => self.handle::<req::Rename>(request, Self::rename),
            req::CodeActionRequest::METHOD => {
                self.handle::<req::CodeActionRequest>(request, Self::code_actions)
            }
            req::DocumentSymbolRequest::METHOD => {
                self.handle::<req::DocumentSymbolRequest>(request, Self::symbols)
            }
            req::DocumentLinkRequest::METHOD => {
                self.handle::<req::DocumentLinkRequest>(request, Self::document_links)
            }
            req::WorkspaceSymbolRequest::METHOD => {
                self.handle::<req::WorkspaceSymbolRequest>(request, Self::workspace_symbols)
            }
            method => Err(Failure::method(method)),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(failure) => Response::new_err(id, failure.code, failure.message),
        }
    }

    fn handle<R: req::Request>(
        &mut self,
        request: Request,
        f: impl FnOnce(&mut Self, R::Params) -> Result<R::Result, Failure>,
    ) -> Result<serde_json::Value, Failure> {
        let params = serde_json::from_value(request.params)
            .map_err(|err| Failure::invalid(format!("bad parameters: {err}")))?;
        let result = f(self, params)?;
        serde_json::to_value(result).map_err(|err| Failure::internal(err.to_string()))
    }

    /// The analysis and offset for a position in a document.
    fn at<T>(
        &mut self,
        position: &lsp::TextDocumentPositionParams,
        f: impl FnOnce(&Analysis<'_>, &RelPath, usize, Encoding) -> T,
    ) -> Option<T> {
        let encoding = self.encoding;
        let (compiled, file) = self.locate(&position.text_document.uri)?;
        let source = compiled.compilation.source(&file)?;
        let offset = Lines::new(&source.text, encoding).offset(position.position);
        Some(f(&compiled.analysis(), &file, offset, encoding))
    }

    fn hover(&mut self, params: lsp::HoverParams) -> Result<Option<lsp::Hover>, Failure> {
        Ok(self
            .at(&params.text_document_position_params, |analysis, file, offset, encoding| {
                let (text, span) = analysis.hover(file, offset)?;
                Some(lsp::Hover {
                    contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                        kind: lsp::MarkupKind::Markdown,
                        value: text,
                    }),
                    range: Some(convert::range(analysis.compilation, file, Some(span), encoding)),
                })
            })
            .flatten())
    }

    fn completion(
        &mut self,
        params: lsp::CompletionParams,
    ) -> Result<Option<lsp::CompletionResponse>, Failure> {
        Ok(self.at(&params.text_document_position, |analysis, file, offset, encoding| {
            let (items, span) = analysis.complete(file, offset);
            let range = convert::range(analysis.compilation, file, Some(span), encoding);
            let is_incomplete = items.len() > LIMIT;
            let items = items
                .into_iter()
                .take(LIMIT)
                .map(|item| lsp::CompletionItem {
                    kind: Some(match item.kind {
                        CompletionKind::Key => lsp::CompletionItemKind::PROPERTY,
                        CompletionKind::Value | CompletionKind::Status => {
                            lsp::CompletionItemKind::ENUM_MEMBER
                        }
                        CompletionKind::Skill => lsp::CompletionItemKind::MODULE,
                        CompletionKind::Tool | CompletionKind::Pattern => {
                            lsp::CompletionItemKind::FUNCTION
                        }
                        CompletionKind::Agent => lsp::CompletionItemKind::CLASS,
                    }),
                    insert_text_format: (item.kind == CompletionKind::Pattern)
                        .then_some(lsp::InsertTextFormat::SNIPPET),
                    detail: item.detail,
                    text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                        range,
                        new_text: item.insert,
                    })),
                    label: item.label,
                    ..Default::default()
                })
                .collect();
            lsp::CompletionResponse::List(lsp::CompletionList { is_incomplete, items })
        }))
    }

    fn definition(
        &mut self,
        params: lsp::GotoDefinitionParams,
    ) -> Result<Option<lsp::GotoDefinitionResponse>, Failure> {
        let at = &params.text_document_position_params;
        let named = self
            .at(at, |analysis, file, offset, encoding| {
                let (named, _) = analysis.named_at(file, offset)?;
                let place = analysis.named_definition(named)?;
                let location = location(analysis.compilation, &place.file, place.span, encoding)?;
                Some(lsp::GotoDefinitionResponse::Scalar(location))
            })
            .flatten();
        if named.is_some() {
            return Ok(named);
        }
        // A path leads to the file it names, from its start.
        let link = (self.links(&at.text_document.uri).into_iter())
            .filter(|(_, _, kind)| *kind == EntryKind::File)
            .find(|(range, _, _)| range.start <= at.position && at.position <= range.end);
        Ok(link.map(|(_, uri, _)| {
            lsp::GotoDefinitionResponse::Scalar(lsp::Location { uri, range: Default::default() })
        }))
    }

    fn document_links(
        &mut self,
        params: lsp::DocumentLinkParams,
    ) -> Result<Option<Vec<lsp::DocumentLink>>, Failure> {
        let links = self.links(&params.text_document.uri);
        Ok(Some(
            links
                .into_iter()
                .map(|(range, target, _)| lsp::DocumentLink {
                    range,
                    target: Some(target),
                    tooltip: None,
                    data: None,
                })
                .collect(),
        ))
    }

    /// The paths written in a document that lead to something of its
    /// project: links and entry points in a file the project read, the
    /// paths of a project file.
    fn links(&mut self, uri: &Url) -> Vec<(lsp::Range, Url, EntryKind)> {
        let Some(path) = self.canonical(uri) else {
            return Vec::new();
        };
        let encoding = self.encoding;
        let base: &dyn Fs = if self.cache { &*self.fs } else { self.fs.base() };
        let fs = Overlay { base, buffers: &self.buffers };
        let to_url = |(range, target, kind): (lsp::Range, PathBuf, EntryKind)| {
            Some((range, Url::from_file_path(target).ok()?, kind))
        };
        // A project file: the one a project of the workspace was found by.
        let governs = |folder: &std::path::Path| {
            path.parent().is_some_and(|parent| folder.starts_with(parent))
        };
        if path.file_name().is_some_and(|name| name == project_file::PROJECT_FILE)
            && self.projects.iter().any(|p| governs(&p.folder))
        {
            let text = match self.buffers.get(&path) {
                Some(text) => text.to_string(),
                None => match fs.read(&path, agentc_compiler::options::DEFAULT_MAX_FILE_SIZE) {
                    Ok(ReadOutcome::Bytes(bytes)) => String::from_utf8(bytes).unwrap_or_default(),
                    _ => String::new(),
                },
            };
            let lines = Lines::new(&text, encoding);
            return (project_file::paths(&fs, &path, &text).into_iter())
                .filter_map(|(span, target, kind)| to_url((lines.range(span), target, kind)))
                .collect();
        }
        let compiled = self.projects.iter().filter_map(|p| p.compiled.as_ref());
        let Some((compiled, file)) =
            compiled.into_iter().find_map(|c| c.files.get(&path).map(|file| (c, file)))
        else {
            return Vec::new();
        };
        let compilation = &compiled.compilation;
        (compiled.analysis().links(&fs, file).into_iter())
            .filter_map(|link| {
                let range = convert::range(compilation, file, Some(link.span), encoding);
                to_url((range, link.target, link.kind))
            })
            .collect()
    }

    fn references(
        &mut self,
        params: lsp::ReferenceParams,
    ) -> Result<Option<Vec<lsp::Location>>, Failure> {
        let with_definition = params.context.include_declaration;
        Ok(self
            .at(&params.text_document_position, |analysis, file, offset, encoding| {
                let (named, _) = analysis.named_at(file, offset)?;
                let places = analysis.named_references(named, with_definition);
                Some(
                    places
                        .iter()
                        .filter_map(|p| location(analysis.compilation, &p.file, p.span, encoding))
                        .collect(),
                )
            })
            .flatten())
    }

    fn prepare_rename(
        &mut self,
        params: lsp::TextDocumentPositionParams,
    ) -> Result<Option<lsp::PrepareRenameResponse>, Failure> {
        Ok(self
            .at(&params, |analysis, file, offset, encoding| {
                let (named, span) = analysis.named_at(file, offset)?;
                let range = convert::range(analysis.compilation, file, Some(span), encoding);
                let placeholder = analysis.named_placeholder(named);
                Some(lsp::PrepareRenameResponse::RangeWithPlaceholder { range, placeholder })
            })
            .flatten())
    }

    fn rename(&mut self, params: lsp::RenameParams) -> Result<Option<lsp::WorkspaceEdit>, Failure> {
        let rename_files = self.renames_folders;
        let new_name = params.new_name.clone();
        let outcome =
            self.at(&params.text_document_position, |analysis, file, offset, encoding| {
                let (named, _) = analysis
                    .named_at(file, offset)
                    .ok_or_else(|| "there is no skill, tool or agent name here".to_owned())?;
                let plan = analysis.named_rename(named, &new_name)?;
                if plan.named_by_folder && !rename_files {
                    return Err(analysis.unmovable(named));
                }
                let changes = convert::workspace_edit(analysis.compilation, &plan.edits, encoding);
                let folder = plan.folder.filter(|_| rename_files).and_then(|(from, to)| {
                    let from = convert::url(analysis.compilation, &from)?;
                    let to = convert::url(analysis.compilation, &to)?;
                    Some((from, to))
                });
                Ok::<_, String>(workspace_edit(changes, folder))
            });
        match outcome {
            Some(Ok(edit)) => Ok(Some(edit)),
            Some(Err(message)) => Err(Failure::request_failed(message)),
            None => Ok(None),
        }
    }

    fn code_actions(
        &mut self,
        params: lsp::CodeActionParams,
    ) -> Result<Option<lsp::CodeActionResponse>, Failure> {
        let encoding = self.encoding;
        let renames_folders = self.renames_folders;
        let Some(path) = self.canonical(&params.text_document.uri) else {
            return Ok(None);
        };
        let disk = self.fs.base();
        let found = (self.projects.iter().filter_map(|p| p.compiled.as_ref()))
            .find_map(|compiled| compiled.files.get(&path).map(|rel| (compiled, rel.clone())));
        let Some((compiled, file)) = found else {
            return Ok(None);
        };
        let compilation = &compiled.compilation;
        let wanted = params.range;
        let overlaps = |r: &lsp::Range| r.start <= wanted.end && wanted.start <= r.end;
        // An action of a kind the client asked for (all, when it names none).
        let only = params.context.only.as_ref();
        let wants = |kind: &lsp::CodeActionKind| {
            only.is_none_or(|only| {
                only.iter()
                    .any(|k| kind == k || kind.as_str().starts_with(&format!("{}.", k.as_str())))
            })
        };
        // A folder may move where the client can move it and nothing is.
        let move_folders = |to: &RelPath| {
            renames_folders
                && compilation.disk_path(to).is_some_and(|path| disk.kind(&path).is_err())
        };
        let mut actions = Vec::new();
        let quick_fixes = wants(&lsp::CodeActionKind::QUICKFIX);
        for d in compilation.diagnostics.iter().filter(|d| quick_fixes && d.location.file == file) {
            let shown = convert::diagnostic(compilation, d, encoding);
            // A diagnostic about the whole file (a misspelt required key)
            // offers its fix where the fix edits, too.
            let fix_here = d.fix.iter().flat_map(|f| &f.edits).any(|edit| {
                edit.file == file
                    && overlaps(&convert::range(compilation, &file, Some(edit.span), encoding))
            });
            if !overlaps(&shown.range) && !fix_here {
                continue;
            }
            let fixes = d.fix.iter().map(|fix| (fix.message.clone(), fix.edits.clone(), None));
            let extra = actions::extra(compilation, d, &move_folders)
                .into_iter()
                .map(|action| (action.title, action.edits, action.folder));
            for (i, (title, edits, folder)) in fixes.chain(extra).enumerate() {
                let changes = convert::workspace_edit(compilation, &edits, encoding);
                let folder = folder.and_then(|(from, to): (RelPath, RelPath)| {
                    Some((convert::url(compilation, &from)?, convert::url(compilation, &to)?))
                });
                actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title,
                    kind: Some(lsp::CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![shown.clone()]),
                    edit: Some(workspace_edit(changes, folder)),
                    // The diagnostic's own fix is the one `--fix` takes.
                    is_preferred: Some(i == 0 && d.fix.is_some()),
                    ..Default::default()
                }));
            }
        }
        // Every fix of the file at once: asked for by kind (on save), or
        // offered beside the quick fixes when there is more than one.
        let fix_all = lsp::CodeActionKind::from(FIX_ALL);
        let (edits, count) = actions::fix_all(compilation, &file);
        if count > 0 && wants(&fix_all) && (only.is_some() || count > 1) {
            let changes = convert::workspace_edit(compilation, &edits, encoding);
            let noun = if count == 1 { "fix" } else { "fixes" };
            actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: format!("apply agentc's {count} {noun} in this file"),
                kind: Some(fix_all),
                edit: Some(workspace_edit(changes, None)),
                ..Default::default()
            }));
        }
        Ok(Some(actions))
    }

    fn symbols(
        &mut self,
        params: lsp::DocumentSymbolParams,
    ) -> Result<Option<lsp::DocumentSymbolResponse>, Failure> {
        let encoding = self.encoding;
        let Some((compiled, file)) = self.locate(&params.text_document.uri) else {
            return Ok(None);
        };
        let compilation = &compiled.compilation;
        let analysis = compiled.analysis();
        let Some(source) = compilation.source(&file) else {
            return Ok(None);
        };
        let lines = Lines::new(&source.text, encoding);
        let symbols = analysis.outline(&file).iter().map(|item| symbol(&lines, item)).collect();
        Ok(Some(lsp::DocumentSymbolResponse::Nested(symbols)))
    }
}

/// The most symbols a workspace-symbol query is answered with: the best
/// matches, the editor narrowing them as more is typed.
const MAX_WORKSPACE_SYMBOLS: usize = 128;

impl<F: Fs> Server<F> {
    /// The skills, tools and agents of every project whose names match the
    /// query, best first.
    fn workspace_symbols(
        &mut self,
        params: lsp::WorkspaceSymbolParams,
    ) -> Result<Option<lsp::WorkspaceSymbolResponse>, Failure> {
        let encoding = self.encoding;
        let mut found = Vec::new();
        for compiled in self.projects.iter().filter_map(|p| p.compiled.as_ref()) {
            let analysis = compiled.analysis();
            let compilation = &compiled.compilation;
            for (rank, symbol) in analysis.workspace_symbols(&params.query, MAX_WORKSPACE_SYMBOLS) {
                let place = &symbol.place;
                let Some(location) = location(compilation, &place.file, place.span, encoding)
                else {
                    continue;
                };
                found.push((rank, symbol.name.clone(), location, symbol));
            }
        }
        found.sort_by(|a, b| {
            (a.0, &a.1, a.2.uri.as_str(), a.2.range.start).cmp(&(
                b.0,
                &b.1,
                b.2.uri.as_str(),
                b.2.range.start,
            ))
        });
        found.truncate(MAX_WORKSPACE_SYMBOLS);
        #[allow(deprecated)] // `deprecated` is a required field of the type
        let symbols = found
            .into_iter()
            .map(|(_, name, location, symbol)| lsp::SymbolInformation {
                name,
                kind: match symbol.kind {
                    SymbolKind::Skill => lsp::SymbolKind::MODULE,
                    SymbolKind::Tool => lsp::SymbolKind::FUNCTION,
                    SymbolKind::Agent | SymbolKind::Subagent | SymbolKind::CopilotAgent => {
                        lsp::SymbolKind::CLASS
                    }
                    SymbolKind::Command => lsp::SymbolKind::METHOD,
                },
                tags: None,
                deprecated: None,
                location,
                container_name: Some(symbol.container.clone()),
            })
            .collect();
        Ok(Some(lsp::WorkspaceSymbolResponse::Flat(symbols)))
    }
}

#[allow(deprecated)] // `deprecated` is a required field of the type
fn symbol(lines: &Lines<'_>, item: &OutlineItem) -> lsp::DocumentSymbol {
    lsp::DocumentSymbol {
        name: item.name.clone(),
        detail: item.detail.clone(),
        kind: match item.kind {
            OutlineKind::Key => lsp::SymbolKind::PROPERTY,
            OutlineKind::Item => lsp::SymbolKind::FIELD,
        },
        tags: None,
        deprecated: None,
        range: lines.range(item.span),
        selection_range: lines.range(item.selection),
        children: (!item.children.is_empty())
            .then(|| item.children.iter().map(|c| symbol(lines, c)).collect()),
    }
}

fn location(
    compilation: &Compilation,
    file: &RelPath,
    span: agentc_schema::Span,
    encoding: Encoding,
) -> Option<lsp::Location> {
    Some(lsp::Location {
        uri: convert::url(compilation, file)?,
        range: convert::range(compilation, file, Some(span), encoding),
    })
}

/// Text edits, then the folder's move (the edits name files by their old paths).
fn workspace_edit(
    changes: HashMap<Url, Vec<lsp::TextEdit>>,
    folder: Option<(Url, Url)>,
) -> lsp::WorkspaceEdit {
    let Some((from, to)) = folder else {
        return lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() };
    };
    let sorted: BTreeMap<Url, Vec<lsp::TextEdit>> = changes.into_iter().collect();
    let mut operations: Vec<lsp::DocumentChangeOperation> = sorted
        .into_iter()
        .map(|(uri, edits)| {
            lsp::DocumentChangeOperation::Edit(lsp::TextDocumentEdit {
                text_document: lsp::OptionalVersionedTextDocumentIdentifier { uri, version: None },
                edits: edits.into_iter().map(lsp::OneOf::Left).collect(),
            })
        })
        .collect();
    operations.push(lsp::DocumentChangeOperation::Op(lsp::ResourceOp::Rename(lsp::RenameFile {
        old_uri: from,
        new_uri: to,
        options: None,
        annotation_id: None,
    })));
    lsp::WorkspaceEdit {
        document_changes: Some(lsp::DocumentChanges::Operations(operations)),
        ..Default::default()
    }
}

/// A request that failed, with the protocol's error code.
struct Failure {
    code: i32,
    message: String,
}

impl Failure {
    fn method(method: &str) -> Failure {
        Failure {
            code: lsp_server::ErrorCode::MethodNotFound as i32,
            message: format!("agentc does not answer `{method}`"),
        }
    }

    fn invalid(message: String) -> Failure {
        Failure { code: lsp_server::ErrorCode::InvalidParams as i32, message }
    }

    fn internal(message: String) -> Failure {
        Failure { code: lsp_server::ErrorCode::InternalError as i32, message }
    }

    fn request_failed(message: String) -> Failure {
        Failure { code: lsp_server::ErrorCode::RequestFailed as i32, message }
    }
}
