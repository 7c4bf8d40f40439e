//! The protocol's lifecycle around a [`Server`]: `initialize` first,
//! `shutdown`, then `exit`. A [`Session`] takes one message at a time and
//! answers on a channel, so it runs the same over stdio, in a test or under
//! the fuzzer; [`run_stdio`] adds the threads, the disk watcher and batching.

use std::error::Error;
use std::io::{self, Write};
use std::thread;

use crossbeam_channel::Receiver;
use lsp_server::{ErrorCode, Message, Request, Response};
use lsp_types as lsp;
use lsp_types::Url;
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};

use super::transport::{self, FramingError, Incoming, Outgoing};
use super::{Gone, Outbox, Server, capabilities, caught, negotiate_encoding};
use agentc_compiler::fs::{Fs, RealFs};

/// What the reader thread hands on: a message, or why reading stopped.
type Inbox = Receiver<Result<Incoming, FramingError>>;

/// Serves the protocol on stdin and stdout until the client says `exit`.
/// A broken frame ends the session with an error saying what was wrong: the
/// stream cannot be read past it.
pub fn run_stdio() -> Result<(), Box<dyn Error + Send + Sync>> {
    // Unbuffered hand-offs, as `lsp-server`'s own stdio threads do: the
    // reader is never further ahead than one message.
    let (outbox, outgoing) = crossbeam_channel::bounded::<Outgoing>(0);
    let writer = thread::Builder::new().name("agentc-lsp-writer".to_owned()).spawn(move || {
        let mut stdout = io::stdout().lock();
        outgoing.into_iter().try_for_each(|message| transport::write(&mut stdout, &message))
    })?;
    let (to_server, inbox) = crossbeam_channel::bounded(0);
    // Not joined: after `exit` or a broken frame it has returned, and
    // otherwise it may wait on stdin forever.
    thread::Builder::new().name("agentc-lsp-reader".to_owned()).spawn(move || {
        let mut stdin = io::stdin().lock();
        while let Some(next) = transport::read(&mut stdin).transpose() {
            // Nothing is read past `exit` or a broken frame.
            let last = next.as_ref().map_or(true, is_exit);
            if to_server.send(next).is_err() || last {
                return;
            }
        }
    })?;
    let served = serve(inbox, outbox);
    // The writer ends once the server's side of the channel is gone, after
    // writing everything, the last answer included.
    let written = writer.join().map_err(|_| "the thread writing to stdout panicked")?;
    served?;
    written?;
    Ok(())
}

fn is_exit(incoming: &Incoming) -> bool {
    matches!(incoming, Incoming::Message(Message::Notification(n)) if n.method == notif::Exit::METHOD)
}

/// The stdio session: every message in turn, with the disk watched once a
/// workspace is known. Messages that have arrived together are handled
/// before compiling: a burst of keystrokes is compiled once.
fn serve(inbox: Inbox, outbox: Outbox) -> Result<(), Box<dyn Error + Send + Sync>> {
    let mut session = Session::new(RealFs, outbox);
    let mut watching = false;
    let mut disk = crossbeam_channel::never();
    // Compiles after the first run on their own threads: requests are
    // answered meanwhile from the compilation before.
    let (compiles, compiled) = crossbeam_channel::unbounded();
    loop {
        let first = crossbeam_channel::select! {
            recv(inbox) -> next => match next {
                Ok(next) => next,
                // The input ended without `exit`.
                Err(_) => return Ok(()),
            },
            recv(compiled) -> done => {
                if let (Some(server), Ok(done)) = (session.server(), done) {
                    server.compiled(done)?;
                }
                continue;
            },
            recv(disk) -> event => {
                if let Some(server) = session.server() {
                    let events = event.into_iter().chain(disk.try_iter());
                    events.for_each(|event| server.disk_changed(event));
                    server.refresh()?;
                }
                continue;
            },
        };
        for next in std::iter::once(first).chain(inbox.try_iter()) {
            let flow = session.handle(next?)?;
            for complaint in session.complaints() {
                let _ = writeln!(io::stderr(), "agentc lsp: {complaint}");
            }
            if flow == Flow::Exit {
                return Ok(());
            }
            // Watching starts before the first compile reads (and keeps) anything.
            if !watching && let Some(server) = session.server() {
                watching = true;
                server.compiles = Some((compiles.clone(), compiled.clone()));
                match server.watch_disk() {
                    Ok(events) => disk = events,
                    Err(err) => {
                        // Without notifications the disk is read afresh on every compile.
                        server.cache = false;
                        server.log(&format!(
                            "agentc: cannot watch the workspace ({err}); reading the disk on every change"
                        ))?;
                    }
                }
            }
        }
        session.refresh()?;
    }
}

/// Whether the session goes on after a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    /// The client said `exit`.
    Exit,
}

/// One client's session over the files of `F`.
pub(crate) struct Session<F: Fs> {
    state: State<F>,
    outbox: Outbox,
    /// Messages that could not be taken, and why: for the log.
    complaints: Vec<String>,
}

enum State<F: Fs> {
    /// Before `initialize`, holding the files the server will read.
    Waiting(F),
    Serving(Box<Server<F>>),
    /// After `shutdown`: only `exit` is expected.
    ShutDown,
}

impl<F: Fs + Send + 'static> Session<F> {
    pub(crate) fn new(fs: F, outbox: Outbox) -> Session<F> {
        Session { state: State::Waiting(fs), outbox, complaints: Vec::new() }
    }

    /// Why each message since the last call was not taken.
    pub(crate) fn complaints(&mut self) -> Vec<String> {
        std::mem::take(&mut self.complaints)
    }

    pub(super) fn server(&mut self) -> Option<&mut Server<F>> {
        match &mut self.state {
            State::Serving(server) => Some(server),
            _ => None,
        }
    }

    /// Handles one message: answers a request, applies a notification.
    /// Compiling what changed waits for [`Session::refresh`], or for the
    /// next request.
    pub(crate) fn handle(&mut self, incoming: Incoming) -> Result<Flow, Gone> {
        match incoming {
            Incoming::Invalid { reason, reply } => {
                self.complaints.push(reason);
                if let Some(reply) = reply {
                    self.outbox.send(Outgoing::Raw(reply))?;
                }
            }
            Incoming::Message(Message::Request(request)) => self.request(request)?,
            Incoming::Message(Message::Notification(n)) if n.method == notif::Exit::METHOD => {
                return Ok(Flow::Exit);
            }
            Incoming::Message(Message::Notification(notification)) => {
                // Before `initialize` notifications are dropped, as LSP says.
                if let Some(server) = self.server()
                    && let Err(complaint) = server.notification(notification)
                {
                    self.complaints.push(complaint);
                }
            }
            // The server sends no requests, so no response is awaited.
            Incoming::Message(Message::Response(_)) => {}
        }
        Ok(Flow::Continue)
    }

    /// The diagnostics of each project as now compiled (none before its
    /// first compile): what the fuzzer compares with a cold compile.
    pub(crate) fn diagnostics(
        &mut self,
    ) -> Vec<Option<Vec<agentc_compiler::diagnostic::Diagnostic>>> {
        let Some(server) = self.server() else { return Vec::new() };
        let compiled = server.projects.iter().map(|p| p.compiled.as_ref());
        compiled.map(|c| c.map(|c| c.compilation.diagnostics.clone())).collect()
    }

    /// Compiles what changed and publishes the diagnostics that did.
    pub(crate) fn refresh(&mut self) -> Result<(), Gone> {
        self.server().map_or(Ok(()), Server::refresh)
    }

    fn request(&mut self, request: Request) -> Result<(), Gone> {
        let initialize = request.method == req::Initialize::METHOD;
        let shutdown = request.method == req::Shutdown::METHOD;
        let (state, response) = match std::mem::replace(&mut self.state, State::ShutDown) {
            State::Waiting(fs) if initialize => {
                match serde_json::from_value::<lsp::InitializeParams>(request.params) {
                    Ok(params) => {
                        let encoding = negotiate_encoding(&params);
                        let result = serde_json::json!({
                            "capabilities": capabilities(encoding),
                            "serverInfo": { "name": "agentc", "version": env!("CARGO_PKG_VERSION") },
                        });
                        let server = Server::new(fs, self.outbox.clone(), &params, encoding);
                        (State::Serving(Box::new(server)), Response::new_ok(request.id, result))
                    }
                    Err(err) => {
                        let message = format!("bad parameters: {err}");
                        let response = error(request.id, ErrorCode::InvalidParams, message);
                        (State::Waiting(fs), response)
                    }
                }
            }
            State::Waiting(fs) => {
                let message = format!("`{}` before `initialize`", request.method);
                (State::Waiting(fs), error(request.id, ErrorCode::ServerNotInitialized, message))
            }
            State::Serving(_) if shutdown => {
                (State::ShutDown, Response::new_ok(request.id, serde_json::Value::Null))
            }
            State::Serving(server) if initialize => {
                let message = "the server is already initialized".to_owned();
                (State::Serving(server), error(request.id, ErrorCode::InvalidRequest, message))
            }
            State::Serving(mut server) => {
                server.refresh()?;
                let document = request.params.get("textDocument").and_then(|d| d.get("uri"));
                if let Some(uri) =
                    document.and_then(|u| u.as_str()).and_then(|u| Url::parse(u).ok())
                {
                    server.catch_up(&uri)?;
                }
                let (id, method) = (request.id.clone(), request.method.clone());
                // The server stays: its compilations are only read here.
                let response = caught(|| server.request(request)).unwrap_or_else(|panic| {
                    let message = format!(
                        "agentc: answering `{method}` panicked ({panic}). This is a bug in \
                         agentc: please report the request and the text it was about."
                    );
                    error(id, ErrorCode::InternalError, message)
                });
                let response = server.mask(response);
                (State::Serving(server), response)
            }
            State::ShutDown => {
                // LSP: "If a server receives requests after a shutdown
                // request those requests should error with InvalidRequest."
                let message = format!("`{}` after `shutdown`", request.method);
                (State::ShutDown, error(request.id, ErrorCode::InvalidRequest, message))
            }
        };
        self.state = state;
        Ok(self.outbox.send(Outgoing::Message(Message::Response(response)))?)
    }
}

fn error(id: lsp_server::RequestId, code: ErrorCode, message: String) -> Response {
    Response::new_err(id, code as i32, message)
}
