//! SARIF 2.1.0: a whole run's diagnostics as one log, the format GitHub code
//! scanning and other dashboards ingest, so agentc's findings become alerts
//! that persist across runs rather than lines in one job's output.
//!
//! Choices follow GitHub's "SARIF support for code scanning" page (docs.github.com,
//! code-security reference, sarif-support-for-code-scanning): a relative `uri` is
//! read from the repository's root, with `%SRCROOT%` as the `uriBaseId` in its
//! example; only `locations[0]` places an alert; `fullDescription` holds at most
//! 1,024 characters; `help.markdown` is shown in place of `help.text`.

use std::path::Path;

use serde_json::{Map, Value, json};

use agentc_schema::Span;

use super::{Bases, Sources};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Fix, Location, RelPath, Severity};
use crate::source::Source;

/// The schema URI GitHub's documentation gives for `$schema`.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The base every relative `uri` is resolved from: the folder agentc ran in,
/// which is where `Bases::from_cwd` shows paths from.
pub const SRCROOT: &str = "%SRCROOT%";

/// GitHub cuts (or refuses) a rule's `fullDescription` past this many characters.
const FULL_DESCRIPTION_MAX: usize = 1024;

/// One run of agentc, gathered as it goes and written once it ends: a
/// consumer reads one JSON document, so a run that reports and then fails
/// (a lockfile it may not write) must still be one log.
#[derive(Debug, Default)]
pub struct Log {
    results: Vec<Value>,
    /// Why the run stopped before checking everything, in order.
    stopped: Vec<String>,
}

impl Log {
    pub fn new() -> Log {
        Log::default()
    }

    /// Adds `diagnostics` as results, in the order given (report order),
    /// every text in them (paths and shown lines too) cleaned by `redactor`.
    pub fn add(
        &mut self,
        diagnostics: &[Diagnostic],
        sources: &Sources,
        bases: &Bases,
        redactor: &crate::secrets::Redactor,
    ) {
        self.results.extend(diagnostics.iter().map(|d| {
            let mut result = result(d, sources, bases);
            if !redactor.is_empty() {
                clean(&mut result, redactor);
            }
            result
        }));
    }

    /// Records that agentc could not run (exit 2), and why.
    pub fn stop(&mut self, why: impl Into<String>) {
        self.stopped.push(why.into());
    }

    /// The log, with relative URIs based at `working_dir` when it is known.
    pub fn to_json(&self, working_dir: Option<&Path>) -> Value {
        let mut run = Map::new();
        run.insert("tool".into(), json!({ "driver": driver() }));
        let base = working_dir.map(folder_uri);
        let mut invocation = Map::new();
        invocation.insert("executionSuccessful".into(), json!(self.stopped.is_empty()));
        if !self.stopped.is_empty() {
            let notifications: Vec<Value> = (self.stopped.iter())
                .map(|why| {
                    json!({
                        "level": "error",
                        "message": { "text": why },
                        "descriptor": { "id": Code::CannotRun.as_str(), "index": 0 },
                    })
                })
                .collect();
            invocation.insert("toolExecutionNotifications".into(), Value::Array(notifications));
        }
        if let Some(base) = &base {
            // GitHub turns absolute URIs into repository paths from here when
            // the upload gives no checkout path.
            invocation.insert("workingDirectory".into(), json!({ "uri": base }));
            run.insert("originalUriBaseIds".into(), json!({ SRCROOT: { "uri": base } }));
        }
        run.insert("invocations".into(), json!([invocation]));
        // Columns are counted as `Source::line_col` counts them.
        run.insert("columnKind".into(), json!("unicodeCodePoints"));
        // SARIF §3.14.23: a run that failed before it analysed anything has no
        // `results` (an empty list would say "checked, nothing found").
        if self.stopped.is_empty() || !self.results.is_empty() {
            run.insert("results".into(), Value::Array(self.results.clone()));
        }
        json!({ "$schema": SCHEMA, "version": "2.1.0", "runs": [run] })
    }
}

/// agentc, with every code of the catalog as a rule, in catalog order, so a
/// result's `ruleIndex` means the same in every log.
fn driver() -> Value {
    let rules: Vec<Value> = Code::ALL.iter().map(|&code| rule(code)).collect();
    json!({
        "name": "agentc",
        "version": env!("CARGO_PKG_VERSION"),
        "informationUri": env!("CARGO_PKG_REPOSITORY"),
        "rules": rules,
        "notifications": [{
            "id": Code::CannotRun.as_str(),
            "shortDescription": { "text": Code::CannotRun.summary() },
        }],
    })
}

fn rule(code: Code) -> Value {
    json!({
        "id": code.as_str(),
        "shortDescription": { "text": code.summary() },
        "fullDescription": { "text": full_description(code.explanation()) },
        "help": { "text": code.explanation(), "markdown": code.explanation() },
        "defaultConfiguration": { "level": level(code.default_severity()) },
    })
}

/// The explanation's first paragraph, unwrapped: what the code means, short
/// enough for the place GitHub shows it.
fn full_description(explanation: &str) -> String {
    let paragraph: Vec<&str> = (explanation.lines())
        .skip_while(|line| line.starts_with('#') || line.trim().is_empty())
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let text = paragraph.join(" ");
    if text.chars().count() <= FULL_DESCRIPTION_MAX {
        return text;
    }
    let mut cut: String = text.chars().take(FULL_DESCRIPTION_MAX - 1).collect();
    cut.push('…');
    cut
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn rule_index(code: Code) -> usize {
    Code::ALL.iter().position(|&c| c == code).unwrap_or_default()
}

fn result(diagnostic: &Diagnostic, sources: &Sources, bases: &Bases) -> Value {
    let mut text = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        text.push_str("\n\n");
        text.push_str(help);
    }
    let mut result = Map::new();
    result.insert("ruleId".into(), json!(diagnostic.code.as_str()));
    result.insert("ruleIndex".into(), json!(rule_index(diagnostic.code)));
    result.insert("level".into(), json!(level(diagnostic.severity)));
    result.insert("message".into(), json!({ "text": text }));
    let primary = physical_location(&diagnostic.location, sources, bases);
    result.insert("locations".into(), json!([{ "physicalLocation": primary }]));
    if !diagnostic.labels.is_empty() {
        let related: Vec<Value> = (diagnostic.labels.iter().enumerate())
            .map(|(i, label)| {
                json!({
                    "id": i + 1,
                    "physicalLocation": physical_location(&label.location, sources, bases),
                    "message": { "text": label.message },
                })
            })
            .collect();
        result.insert("relatedLocations".into(), Value::Array(related));
    }
    if let Some(fix) = diagnostic.fix.as_ref().and_then(|fix| fix_json(fix, sources, bases)) {
        result.insert("fixes".into(), json!([fix]));
    }
    Value::Object(result)
}

/// A location's file, and its region when it has a span in a known source.
/// A diagnostic on a whole file is placed on its first line: code scanning
/// shows an alert only where a region says (`region.startLine` is required,
/// per the SARIF SDK's GitHub rule GH1003). A folder has no lines, hence no
/// region.
fn physical_location(location: &Location, sources: &Sources, bases: &Bases) -> Value {
    let mut physical = Map::new();
    physical.insert("artifactLocation".into(), artifact_location(&location.file, bases));
    match (location.span, sources.get(&location.file)) {
        (Some(span), Some(source)) => {
            physical.insert("region".into(), region(source, span));
        }
        _ if !location.file.path.ends_with('/') => {
            physical.insert("region".into(), json!({ "startLine": 1 }));
        }
        _ => {}
    }
    Value::Object(physical)
}

/// SARIF's `endColumn` is the column after the region, which is where
/// `span_bounds` puts a span's end.
fn region(source: &Source, span: Span) -> Value {
    let (start, end) = source.span_bounds(span);
    json!({
        "startLine": start.line,
        "startColumn": start.column,
        "endLine": end.line,
        "endColumn": end.column,
    })
}

/// The fix as SARIF's `fix`, its edits grouped by file in the order they
/// first appear; none when an edit's file has no source to place it in.
fn fix_json(fix: &Fix, sources: &Sources, bases: &Bases) -> Option<Value> {
    let mut changes: Vec<(&RelPath, Vec<Value>)> = Vec::new();
    for edit in &fix.edits {
        let source = sources.get(&edit.file)?;
        let replacement = json!({
            "deletedRegion": region(source, edit.span),
            "insertedContent": { "text": edit.replacement },
        });
        match changes.iter_mut().find(|(file, _)| *file == &edit.file) {
            Some((_, replacements)) => replacements.push(replacement),
            None => changes.push((&edit.file, vec![replacement])),
        }
    }
    if changes.is_empty() {
        return None;
    }
    let changes: Vec<Value> = (changes.into_iter())
        .map(|(file, replacements)| {
            json!({
                "artifactLocation": artifact_location(file, bases),
                "replacements": replacements,
            })
        })
        .collect();
    Some(json!({ "description": { "text": fix.message }, "artifactChanges": changes }))
}

/// A path as shown, as an `artifactLocation`: relative ones from `%SRCROOT%`,
/// absolute ones (a registry named by its full path) as `file:` URIs, which
/// SARIF forbids a `uriBaseId` on.
fn artifact_location(file: &RelPath, bases: &Bases) -> Value {
    let shown = bases.show(file);
    #[cfg(windows)]
    let shown = shown.replace('\\', "/");
    if is_absolute(&shown) {
        json!({ "uri": file_uri(&shown) })
    } else {
        json!({ "uri": uri_reference(&shown), "uriBaseId": SRCROOT })
    }
}

/// `/…`, or on Windows a drive `C:/…`: the forms `Bases::show` gives an
/// absolute path in (elsewhere `C:` is a folder's name).
fn is_absolute(path: &str) -> bool {
    let bytes = path.as_bytes();
    path.starts_with('/')
        || (cfg!(windows)
            && bytes.len() >= 3
            && bytes[0].is_ascii_alphabetic()
            && bytes[1] == b':'
            && matches!(bytes[2], b'/' | b'\\'))
}

/// An absolute path as a `file:` URI; a drive letter keeps its colon.
fn file_uri(path: &str) -> String {
    let bytes = path.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        // Both bytes are ASCII, so both cuts are on character boundaries.
        format!("file:///{}:{}", &path[..1], uri_reference(&path[2..]))
    } else {
        format!("file://{}", uri_reference(path))
    }
}

/// The folder's `file:` URI, ending in `/` as SARIF requires of a base.
fn folder_uri(dir: &Path) -> String {
    let path = dir.to_string_lossy();
    #[cfg(windows)]
    let path = path.replace('\\', "/");
    let mut uri = file_uri(&path);
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

/// `path` as a URI reference (RFC 3986): `/` separates segments, and every
/// byte but the unreserved characters is percent-encoded, so a space, `%`, `#`
/// or `?` stays part of the name, and a `:` in the first segment cannot be
/// read as a scheme.
pub fn uri_reference(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/@".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Every string in `value` cleaned by `redactor`.
fn clean(value: &mut Value, redactor: &crate::secrets::Redactor) {
    match value {
        Value::String(text) => redactor.clean_in_place(text),
        Value::Array(items) => items.iter_mut().for_each(|v| clean(v, redactor)),
        Value::Object(map) => map.values_mut().for_each(|v| clean(v, redactor)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_encode_what_would_change_their_meaning() {
        assert_eq!(uri_reference("skills/billing/SKILL.md"), "skills/billing/SKILL.md");
        assert_eq!(uri_reference("my agents/a b.md"), "my%20agents/a%20b.md");
        assert_eq!(uri_reference("100%/#1?x.md"), "100%25/%231%3Fx.md");
        assert_eq!(uri_reference("c:d/x"), "c%3Ad/x");
        assert_eq!(uri_reference("@workspace/AGENTS.md"), "@workspace/AGENTS.md");
        // Non-ASCII names as their UTF-8 bytes: the URI stays ASCII.
        assert_eq!(uri_reference("é/ü.md"), "%C3%A9/%C3%BC.md");
        assert_eq!(file_uri("/tmp/a b/registry.yaml"), "file:///tmp/a%20b/registry.yaml");
        assert_eq!(file_uri("C:/Users/a b"), "file:///C:/Users/a%20b");
        assert_eq!(folder_uri(Path::new("/work/repo")), "file:///work/repo/");
        assert_eq!(folder_uri(Path::new("/")), "file:///");
    }

    #[test]
    fn relative_paths_are_based_at_srcroot_and_absolute_ones_are_file_uris() {
        let bases = Bases::default();
        let relative = artifact_location(&RelPath::given("agents/x y.md"), &bases);
        assert_eq!(relative, json!({ "uri": "agents/x%20y.md", "uriBaseId": "%SRCROOT%" }));
        let absolute = artifact_location(&RelPath::given("/etc/registry #2.yaml"), &bases);
        assert_eq!(absolute, json!({ "uri": "file:///etc/registry%20%232.yaml" }));
    }

    #[test]
    fn full_descriptions_are_the_first_paragraph_within_github_s_bound() {
        for code in Code::ALL {
            let text = full_description(code.explanation());
            assert!(!text.is_empty() && !text.contains('\n'), "{code}: {text:?}");
            assert!(text.chars().count() <= FULL_DESCRIPTION_MAX, "{code}");
            assert!(!text.starts_with('#'), "{code}: {text:?}");
        }
        let long = format!("# x\n\n{}\n\nsecond", "word ".repeat(400));
        let text = full_description(&long);
        assert_eq!(text.chars().count(), FULL_DESCRIPTION_MAX);
        assert!(text.ends_with('…'));
    }

    #[test]
    fn a_stopped_run_has_no_results_unless_it_reported_some() {
        let mut log = Log::new();
        assert_eq!(log.to_json(None)["runs"][0]["results"], json!([]));
        log.stop("the root `x` does not exist");
        let stopped = log.to_json(None);
        let run = &stopped["runs"][0];
        assert!(run.get("results").is_none(), "{run}");
        assert_eq!(run["invocations"][0]["executionSuccessful"], json!(false));
        assert_eq!(
            run["invocations"][0]["toolExecutionNotifications"][0]["descriptor"]["id"],
            json!("cannot-run")
        );
    }
}
