//! The bodies of the fuzz targets in `fuzz/`, but for `lsp`'s, which is
//! `agentc_lsp::fuzzing`'s, beside the language server it drives.
//!
//! They live in the library so that a stable test replays every seed and
//! every regression input through exactly the code the fuzzer ran. Each
//! function accepts any bytes and panics only when an invariant is broken:
//! a diagnostic pointing outside its file or between the bytes of a
//! character, a report that changes with the directory order, a document
//! that does not survive its own round trip.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use agentc_schema::guard::{GuardError, parse_guard};
use agentc_schema::{Dialect, Span};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::diagnostic::{Diagnostic, RelPath, Severity};
use crate::dialects;
use crate::discover::FileRef;
use crate::emit::{self, Bases, Sources};
use crate::fs::{EntryKind, Fs, ReadOutcome};
use crate::memfs::MemFs;
use crate::options::{ContentRules, DEFAULT_MAX_FILE_SIZE, Options};
use crate::parse::files::{self, Reading, decode_text};
use crate::project_file::{self, PROJECT_FILE};
use crate::read::{ReadFailure, read_one};
use crate::source::Source;
use crate::{SetupError, check, codegen, compile, lock};

/// A fuzz target's body.
pub type Target = fn(&[u8]);

/// Every target, by the name `fuzz/fuzz_targets/` gives it.
pub const TARGETS: &[(&str, Target)] = &[
    ("frontmatter", frontmatter),
    ("agent_json", agent_json),
    ("registry", registry),
    ("guard", guard),
    ("project", project),
    ("project_file", project_file),
    ("plugin", plugin),
    ("links", links),
];

/// Most files a [`project`] input makes: enough for every kind of entry to
/// meet every other, few enough to keep one run fast.
const MAX_FILES: usize = 40;

/// A `SKILL.md`, `AGENT.md`, subagent, command or Copilot agent: the bytes
/// through the same read, frontmatter split and YAML decode as a compile.
pub fn frontmatter(data: &[u8]) {
    let Some((source, mut sources, mut out)) = read("SKILL.md", data) else { return };
    for dialect in Dialect::SKILLS {
        if let Some(parsed) = crate::dialects::skill::skill(&source, "x", dialect, false, &mut out)
        {
            body_is_the_tail(&source, parsed.body_span);
        }
    }
    if let Some(parsed) = files::agent_md(&source, "x", &mut out) {
        body_is_the_tail(&source, parsed.body_span);
    }
    for plugin in [false, true] {
        let _ = dialects::subagent(&source, plugin, &mut out);
    }
    let _ = dialects::command(&source, &mut out);
    let _ = dialects::copilot_agent(&source, &mut out);
    sources.insert(source.path.clone(), source);
    report(&mut out, &sources);
}

/// An `agent.json` (and a tool's or plugin's manifest, the same JSON reader).
pub fn agent_json(data: &[u8]) {
    let Some((source, mut sources, mut out)) = read("agent.json", data) else { return };
    let before = out.len();
    if let Some(doc) = files::agent_json(&source, &mut out) {
        round_trip(&doc.value, &out[before..], |source, out| {
            files::agent_json(source, out).map(|doc| doc.value)
        });
    }
    let before = out.len();
    if let Some(doc) = files::tool_manifest(&source, "x", &mut out) {
        round_trip(&doc.value, &out[before..], |source, out| {
            files::tool_manifest(source, "x", out).map(|doc| doc.value)
        });
    }
    let _ = dialects::plugin_manifest(&source, &mut out);
    sources.insert(source.path.clone(), source);
    report(&mut out, &sources);
}

/// A `--registry` file, read as YAML and as JSON, as its name decides.
pub fn registry(data: &[u8]) {
    for name in ["registry.yaml", "registry.json"] {
        let Some((source, mut sources, mut out)) = read(name, data) else { return };
        if let Some(registry) = files::registry(&source, &mut out) {
            round_trip(&registry, &out, |source, out| {
                decode_text(source, &source.text, 0, Reading::JSON, out).map(|doc| doc.value)
            });
        }
        sources.insert(source.path.clone(), source);
        report(&mut out, &sources);
    }
}

/// A route guard: the grammar's token ranges, then the guard as a route of
/// a runbook skill, compiled, so its diagnostics point into the YAML that
/// carries it (plain and double-quoted).
pub fn guard(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // Inside the text and on character boundaries, or slicing would panic.
    let within = |range: &std::ops::Range<usize>| text.get(range.clone()).is_some();
    match parse_guard(&text) {
        Ok(parsed) => {
            let mut canonical = Vec::new();
            if let Some(on) = &parsed.on {
                assert!(within(&on.range) && text[on.range.clone()] == on.value, "{on:?}");
                canonical.push(format!("on {}", on.value));
            }
            for status in &parsed.statuses {
                assert!(within(&status.range), "{status:?}");
                assert_eq!(&text[status.range.clone()], status.value.as_str());
            }
            if !parsed.statuses.is_empty() {
                let list: Vec<&str> = parsed.statuses.iter().map(|s| s.value.as_str()).collect();
                canonical.push(format!("status={}", list.join(",")));
            }
            let meaning = |g: &agentc_schema::guard::Guard| {
                let statuses: Vec<_> = g.statuses.iter().map(|s| s.value).collect();
                (g.on.as_ref().map(|t| t.value.clone()), statuses)
            };
            let again = parse_guard(&canonical.join(" ")).map(|g| meaning(&g));
            assert_eq!(again.ok(), Some(meaning(&parsed)), "{text:?} written canonically");
        }
        Err(GuardError::Syntax { range, .. }) => assert!(within(&range), "{range:?} in {text:?}"),
        Err(GuardError::UnknownStatus { range, on, .. }) => {
            assert!(within(&range), "{range:?} in {text:?}");
            if let Some(on) = on {
                assert!(within(&on.range), "{on:?} in {text:?}");
            }
        }
    }
    // A line break would end the route; the quoted form carries it escaped.
    let plain = text.replace(['\n', '\r'], " ");
    let quoted = serde_json::Value::String(text.into_owned()).to_string();
    for written in [plain, quoted] {
        let mut fs = MemFs::new();
        let skill = format!(
            "---\nname: a\ndescription: Routes.\ntools: [t]\nsteps:\n  - t: why\nroutes:\n  - b: {written}\n---\nBody.\n"
        );
        let inserted = fs.insert("skills/a/SKILL.md", skill).is_ok()
            && fs.insert("skills/b/SKILL.md", "---\nname: b\ndescription: B.\n---\nB.\n").is_ok()
            && fs.insert("tools/t/manifest.json", "{\"description\": \"T.\"}").is_ok();
        if inserted {
            compile_checked(&fs, &Options::new(fs.root()));
        }
    }
}

/// A whole project: the bytes are a small file set (see [`file_set`]),
/// compiled from memory; every diagnostic is rendered, the lockfile and the
/// generated code made, and the report must not depend on the directory order.
pub fn project(data: &[u8]) {
    let fs = file_set(data);
    let opts = match fs.get(PROJECT_FILE) {
        Some(_) => {
            let path = fs.root().join(PROJECT_FILE);
            match project_file::load(&fs, &path, PROJECT_FILE) {
                Ok(project) => project.options,
                Err(failed) => {
                    let mut diagnostics = failed.diagnostics;
                    report(&mut diagnostics, &failed.sources);
                    return;
                }
            }
        }
        None => Options::new(fs.root()),
    };
    let first = compile_checked(&fs, &opts);
    let again = compile_checked(&Reversed(&fs), &opts);
    assert_eq!(first, again, "the report depends on the directory order");
}

/// An `agentc.toml` beside a small tree (a root with a skill, a workspace,
/// a registry, a file where a folder belongs), read at the top and one folder
/// down: whatever the paths say, a file that loads names a root and a
/// workspace that are folders, a registry that is a file and a lockfile whose
/// folder exists; one that does not has every diagnostic inside it.
pub fn project_file(data: &[u8]) {
    let mut fs = tree(&[
        ("agents/skills/a/SKILL.md", b"---\nname: a\ndescription: A.\n---\nA.\n"),
        ("ws/AGENTS.md", b"Be brief.\n"),
        ("registry.yaml", b"tools: [t]\n"),
        ("notes.txt", b"not a folder\n"),
        ("out/.keep", b""),
    ]);
    for at in [PROJECT_FILE.to_owned(), format!("agents/{PROJECT_FILE}")] {
        fs.insert(&at, data).expect("the project file's path is valid");
        match project_file::load(&fs, &fs.root().join(&at), &at) {
            Ok(project) => {
                let options = &project.options;
                let is = |path: &Path, want: EntryKind| fs.kind_followed(path).ok() == Some(want);
                assert!(is(&options.root, EntryKind::Dir), "the root {:?}", options.root);
                if let Some(workspace) = &options.workspace {
                    assert!(is(workspace, EntryKind::Dir), "the workspace {workspace:?}");
                }
                if let Some(registry) = &options.registry {
                    assert!(is(registry, EntryKind::File), "the registry {registry:?}");
                }
                let folder = project.lockfile.parent().filter(|p| !p.as_os_str().is_empty());
                assert!(
                    folder.is_none_or(|f| is(f, EntryKind::Dir)),
                    "the lockfile {:?}",
                    project.lockfile
                );
            }
            Err(mut failed) => {
                assert!(!failed.diagnostics.is_empty(), "refused without a diagnostic");
                report(&mut failed.diagnostics, &failed.sources);
            }
        }
        fs.remove(&at);
    }
}

/// A Claude Code plugin's `.claude-plugin/plugin.json`: through the reader
/// and the decoder (a manifest that decodes clean must survive its round
/// trip), then compiled as a plugin at the root, with a subagent, a command
/// and a skill, and as one of two plugins of a marketplace's `plugins/`.
pub fn plugin(data: &[u8]) {
    const MANIFEST: &str = ".claude-plugin/plugin.json";
    if let Some((source, mut sources, mut out)) = read(MANIFEST, data) {
        if let Some(doc) = dialects::plugin_manifest(&source, &mut out) {
            round_trip(&doc.value, &out, |source, out| {
                dialects::plugin_manifest(source, out).map(|doc| doc.value)
            });
        }
        sources.insert(source.path.clone(), source);
        report(&mut out, &sources);
    }
    let components: [(&str, &[u8]); 3] = [
        (
            "agents/reviewer.md",
            b"---\nname: reviewer\ndescription: Reviews.\nskills: [notes]\n---\nReview.\n",
        ),
        ("commands/ship.md", b"---\ndescription: Ships.\n---\nShip it.\n"),
        ("skills/notes/SKILL.md", b"---\nname: notes\ndescription: Notes.\n---\nNote.\n"),
    ];
    let other = b"{\"name\": \"other\", \"description\": \"Other.\"}";
    for folder in ["", "plugins/p/"] {
        let mut fs = MemFs::new();
        let mut files: Vec<(String, &[u8])> = vec![(format!("{folder}{MANIFEST}"), data)];
        files.extend(components.iter().map(|(path, text)| (format!("{folder}{path}"), *text)));
        if !folder.is_empty() {
            files.push((format!("plugins/q/{MANIFEST}"), other));
        }
        for (path, contents) in files {
            fs.insert(&path, contents).expect("the plugin's paths are valid");
        }
        compile_checked(&fs, &Options::new(fs.root()));
    }
}

/// A skill's Markdown body: every relative link the parser finds lies inside
/// the body, on character boundaries, with a path; the link check against a
/// tree holding some of the files it may name reports inside the file.
pub fn links(data: &[u8]) {
    const SKILL: &str = "skills/a/SKILL.md";
    let body = String::from_utf8_lossy(data);
    let front = "---\nname: a\ndescription: Links.\n---\n";
    let text = format!("{front}{body}");
    let found = links_checked(&text, front.len());
    // Offset by the frontmatter or not, the same links.
    let bare = links_checked(&body, 0);
    assert_eq!(found.len(), bare.len());
    for (offset, plain) in found.iter().zip(&bare) {
        assert_eq!(offset.span.start - front.len(), plain.span.start, "{offset:?} {plain:?}");
        assert_eq!((&offset.path, offset.image), (&plain.path, plain.image));
    }
    let fs = tree(&[
        ("skills/a/references/FORMS.md", b"# Forms\n"),
        ("skills/a/scripts/fill.py", b"print()\n"),
        ("skills/b/SKILL.md", b"---\nname: b\ndescription: B.\n---\nB.\n"),
        ("docs/guide.md", b"Guide.\n"),
    ]);
    let source = Source::new(RelPath::root(SKILL), text.as_str());
    let trees = check::links::Trees::new(fs.root(), None);
    let span = Span::new(front.len(), text.len());
    let mut out = check::links::body_links(&fs, &trees, &source, &body, span);
    let sources: Sources = [(source.path.clone(), source)].into();
    report(&mut out, &sources);
}

/// The links `relative_links` finds in `text` from `base`, checked to lie
/// inside it, on character boundaries, each with a path.
fn links_checked(text: &str, base: usize) -> Vec<crate::parse::links::Link> {
    let found = crate::parse::links::relative_links(&text[base..], base);
    for link in &found {
        assert!(
            link.span.start >= base && text.get(range(link.span)).is_some(),
            "{link:?} is not inside the body ({} bytes from {base})",
            text.len()
        );
        assert!(!link.path.is_empty(), "{link:?} has no path");
    }
    found
}

/// The file set a [`project`] input describes: sections, each a line
/// `>>> <path>` then the file's bytes up to the next such line. Paths are
/// relative to the root; a section whose path [`MemFs`] refuses is dropped,
/// and so is any past the first [`MAX_FILES`].
pub fn file_set(data: &[u8]) -> MemFs {
    const MARK: &[u8] = b">>> ";
    let mut starts: Vec<usize> = Vec::new();
    let mut at = 0;
    while at < data.len() {
        if data[at..].starts_with(MARK) {
            starts.push(at);
        }
        at = match data[at..].iter().position(|&b| b == b'\n') {
            Some(newline) => at + newline + 1,
            None => data.len(),
        };
    }
    let mut fs = MemFs::new();
    for (i, &start) in starts.iter().enumerate().take(MAX_FILES) {
        let end = starts.get(i + 1).copied().unwrap_or(data.len());
        let section = &data[start + MARK.len()..end];
        let (header, contents) = match section.iter().position(|&b| b == b'\n') {
            Some(newline) => (&section[..newline], &section[newline + 1..]),
            None => (section, &[][..]),
        };
        if let Ok(path) = std::str::from_utf8(header) {
            let _ = fs.insert(path.trim_end_matches('\r'), contents);
        }
    }
    fs
}

/// What a compile showed: every diagnostic rendered, then the lockfile.
fn compile_checked(fs: &dyn Fs, opts: &Options) -> Vec<String> {
    let mut compilation = match compile(fs, opts) {
        Ok(compilation) => compilation,
        Err(SetupError::Registry(mut failed)) => {
            return report(&mut failed.diagnostics, &failed.sources);
        }
        Err(err) => return vec![err.to_string()],
    };
    let mut shown = report(&mut compilation.diagnostics, &compilation.sources);
    // The items generate even when there are errors: the macro's partial output.
    let tokens = codegen::generate(&codegen::Input {
        model: &compilation.model,
        lock_digest: "",
        host_tools: &[],
        inputs: &[],
        async_tools: false,
        models: &[],
        contexts: &[],
    });
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => shown.push(prettyplease::unparse(&file)),
        Err(err) => panic!("the generated items are not Rust: {err}\n{tokens}"),
    }
    if !compilation.has_errors() {
        let json = lock::lockfile(&compilation).to_json();
        let read_back = agentc_schema::Lockfile::from_json(&json)
            .unwrap_or_else(|err| panic!("the lockfile does not read back: {err}\n{json}"));
        assert_eq!(read_back.to_json(), json, "the lockfile changes on a round trip");
        shown.push(json);
    }
    shown
}

/// Reads `data` as the file `name` of a tree, as a compile reads it. A file
/// that cannot be read (not UTF-8) has its diagnostic checked and goes no further.
fn read(name: &str, data: &[u8]) -> Option<(Source, Sources, Vec<Diagnostic>)> {
    let mut fs = MemFs::new();
    fs.insert(name, data).ok()?;
    let file = FileRef { rel: RelPath::root(name), path: fs.root().join(name) };
    match read_one(&fs, &file, DEFAULT_MAX_FILE_SIZE, ContentRules::ALL) {
        Ok(source) => Some((source, Sources::new(), Vec::new())),
        Err(failure) => {
            let ReadFailure { diagnostic, lossy } = *failure;
            let sources: Sources = lossy.into_iter().map(|s| (s.path.clone(), s)).collect();
            report(&mut vec![diagnostic], &sources);
            None
        }
    }
}

/// A document that decoded without errors is written out as JSON and read
/// again: it must read back clean, to the same value.
fn round_trip<T: Serialize + DeserializeOwned>(
    value: &T,
    reported: &[Diagnostic],
    parse: impl Fn(&Source, &mut Vec<Diagnostic>) -> Option<T>,
) {
    if reported.iter().any(|d| d.severity == Severity::Error) {
        return;
    }
    let Ok(json) = serde_json::to_string_pretty(value) else { return };
    let source = Source::new(RelPath::root("round-trip.json"), json.as_str());
    let mut out = Vec::new();
    let again = parse(&source, &mut out);
    let errors: Vec<_> = out.iter().filter(|d| d.severity == Severity::Error).collect();
    assert!(errors.is_empty(), "{json}\nreads back with errors: {errors:#?}");
    let again = again.unwrap_or_else(|| panic!("{json}\ndoes not read back"));
    assert_eq!(serde_json::to_string_pretty(&again).ok().as_deref(), Some(json.as_str()));
}

/// A body is read by slicing the text at its span: the span must end the
/// file and start on a character boundary.
fn body_is_the_tail(source: &Source, span: Span) {
    assert_eq!(span.end, source.text.len(), "the body ends the file");
    assert!(source.text.is_char_boundary(span.start), "the body's span: {span:?}");
}

fn range(span: Span) -> std::ops::Range<usize> {
    span.start..span.end
}

/// Checks and renders every diagnostic, in report order.
fn report(diagnostics: &mut Vec<Diagnostic>, sources: &Sources) -> Vec<String> {
    crate::diagnostic::sort(diagnostics);
    let mut shown = Vec::new();
    for d in diagnostics.iter() {
        inside(&d.location.file, d.location.span, sources, d);
        for label in &d.labels {
            inside(&label.location.file, label.location.span, sources, d);
        }
        for edit in d.fix.iter().flat_map(|fix| &fix.edits) {
            inside(&edit.file, Some(edit.span), sources, d);
        }
        let json = emit::json(d, sources, &Bases::default());
        lines_inside(&json, &d.location.file, sources);
        shown.push(json.to_string());
        shown.push(emit::human(d, sources, false));
        let _ = emit::human(d, sources, true);
    }
    shown
}

/// A span lies inside its file's text, on character boundaries.
fn inside(file: &RelPath, span: Option<Span>, sources: &Sources, d: &Diagnostic) {
    let Some(span) = span else { return };
    let Some(source) = sources.get(file) else {
        panic!("a span in `{file}`, which is not among the sources: {d:#?}");
    };
    let text = &source.text;
    assert!(
        span.start <= span.end && text.get(range(span)).is_some(),
        "{span:?} is not inside `{file}` ({} bytes): {d:#?}",
        text.len()
    );
}

/// The JSON form's line and column name a place in the file.
fn lines_inside(json: &serde_json::Value, file: &RelPath, sources: &Sources) {
    let (Some(line), Some(column), Some(source)) =
        (json["line"].as_u64(), json["column"].as_u64(), sources.get(file))
    else {
        return;
    };
    let line = usize::try_from(line).unwrap_or(usize::MAX);
    let lines: Vec<&str> = source.text.split('\n').collect();
    assert!((1..=lines.len()).contains(&line), "line {line} of `{file}` ({} lines)", lines.len());
    let width = lines[line - 1].chars().count() + 1;
    assert!(
        (1..=width as u64).contains(&column),
        "column {column} of line {line} of `{file}` ({width} columns)"
    );
}

/// A file system listing every folder backwards: the report must not change.
struct Reversed<'a>(&'a MemFs);

impl Fs for Reversed<'_> {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<(OsString, EntryKind)>> {
        let mut entries = self.0.read_dir(path)?;
        entries.reverse();
        Ok(entries)
    }

    fn kind(&self, path: &Path) -> io::Result<EntryKind> {
        self.0.kind(path)
    }

    fn kind_followed(&self, path: &Path) -> io::Result<EntryKind> {
        self.0.kind_followed(path)
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        self.0.canonicalize(path)
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        self.0.read_link(path)
    }

    fn read(&self, path: &Path, max: u64) -> io::Result<ReadOutcome> {
        self.0.read(path, max)
    }
}

/// A tree in memory holding `files`, whose paths are the harness's own.
fn tree(files: &[(&str, &[u8])]) -> MemFs {
    let mut fs = MemFs::new();
    for (path, contents) in files {
        fs.insert(path, *contents).expect("the tree's paths are valid");
    }
    fs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_set_is_sections_behind_marks() {
        let fs = file_set(b"ignored\n>>> a/x.md\none\n>>> b.json\r\n{}\n>>> ../no\nz\n>>> c");
        let files: Vec<(&str, &[u8])> = fs.files().collect();
        assert_eq!(files, [("a/x.md", &b"one\n"[..]), ("b.json", b"{}\n"), ("c", b"")]);
        let marks: String = (0..40).map(|i| format!(">>> f{i}\n")).collect();
        assert_eq!(file_set(marks.as_bytes()).len(), MAX_FILES);
    }

    #[test]
    fn a_broken_invariant_panics() {
        let source = Source::new(RelPath::root("a.md"), "héllo");
        let sources: Sources = [(source.path.clone(), source)].into();
        let d =
            Diagnostic::at(crate::Code::InvalidValue, &RelPath::root("a.md"), Span::new(1, 2), "x");
        let caught =
            std::panic::catch_unwind(|| inside(&d.location.file, d.location.span, &sources, &d));
        assert!(caught.is_err(), "a span between the bytes of `é` is refused");
        inside(&d.location.file, Some(Span::new(1, 3)), &sources, &d);
    }
}
