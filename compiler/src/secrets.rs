//! Secrets committed in agent files: private keys and tokens with a known
//! shape, found by gitleaks' maintained rule set (`compiler/vendor/gitleaks/`,
//! read as gitleaks' detector reads it) rather than patterns of agentc's own.
//!
//! Every file is scanned once, when it is read (`read::read_all`, in
//! parallel), and what is found is kept with its source. A file costs one
//! case-insensitive keyword search (Aho-Corasick) and nothing more unless
//! one of a rule's keywords is in it: only then is that rule's regex run —
//! only around the keywords when its matches are of bounded length, which
//! most are — and each regex is compiled the first time a file needs it. With
//! `secret = "allow"` under `[lints]` no file is scanned ([`Source::secrets`]
//! answers nothing), so nothing is masked either.
//!
//! The secret itself is never shown: the diagnostic points at its first line
//! and names the rule, the human renderer shows the line masked
//! ([`Source::masked`]), and [`redact`] takes the secret's text out of every
//! other diagnostic's words and drops a fix that would show it.

use std::sync::OnceLock;

use agentc_schema::Span;
use aho_corasick::{AhoCorasick, AhoCorasickKind};
use regex_automata::meta::Regex;
use regex_automata::util::captures::Captures;
use regex_automata::util::syntax;
use regex_automata::{Input, Span as Bytes};
use regex_syntax::hir::{Class, Hir, HirKind};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, RelPath};

/// A file read and scanned: what the reports and the [`Redactor`] need of
/// it. `Source` is one; the scanner stays below the files it scans.
pub trait Scanned {
    fn path(&self) -> &RelPath;
    fn text(&self) -> &str;
    fn secrets(&self) -> &[Found];
}

/// A rule of gitleaks' default configuration, v8.30.1 (see the vendored
/// folder's README), as `build.rs` writes it.
struct RuleSource {
    id: &'static str,
    description: &'static str,
    regex: &'static str,
    path: &'static str,
    secret_group: usize,
    entropy: f64,
    keywords: &'static [&'static str],
    allowlists: &'static [AllowlistSource],
}

/// An allowlist of gitleaks' configuration, as `build.rs` writes it.
struct AllowlistSource {
    condition: &'static str,
    regex_target: &'static str,
    paths: &'static [&'static str],
    regexes: &'static [&'static str],
    stopwords: &'static [&'static str],
}

/// gitleaks' global allowlist and rules.
mod gitleaks {
    use super::{AllowlistSource, RuleSource};
    include!(concat!(env!("OUT_DIR"), "/gitleaks.rs"));
}

/// Rules agentc applies only to some files, with the paths and why.
const SCOPED: &[(&str, &str, &str)] = &[
    // It matches any `key`/`token`/`secret`/`password` assignment whose value
    // looks random enough: in agent files, which explain configuration in
    // prose and examples, that is mostly placeholders and identifiers. In the
    // configuration files that start MCP servers and hold their `env` and
    // `headers` — where a credential written as text is the mistake — it is
    // what finds one that follows no provider's format.
    (
        "generic-api-key",
        r"(?:^|/)(?:\.mcp\.json|mcp\.json|mcp_config\.json|settings(?:\.local)?\.json|config\.toml|opencode\.jsonc?|gemini-extension\.json|plugin\.json)$",
        "no provider's format: an assignment with a random-looking value, in a configuration file",
    ),
];

/// Characters of a secret left visible when it is shown masked: enough to
/// recognise the kind of token (`ghp_`, `AKIA`, `sk-a`), too few to use it.
const KEEP: usize = 4;

/// A secret in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    rule: usize,
    /// Where the diagnostic points: the secret's first line.
    pub span: Span,
    /// The bytes never shown (the secret but its first characters, and but
    /// a private key's `-----BEGIN … KEY-----` line), without line ends.
    pub hidden: Vec<Span>,
}

impl Found {
    /// gitleaks' id of the rule that found it (`github-pat`).
    pub fn rule_id(&self) -> &'static str {
        rules().rules.get(self.rule).map_or("", |r| r.id.as_str())
    }

    /// What the secret is, in gitleaks' words ("GitHub Personal Access Token").
    pub fn kind(&self) -> &'static str {
        rules().rules.get(self.rule).map_or("", |r| r.kind.as_str())
    }
}

/// A regex compiled the first time it is needed: most are never needed.
#[derive(Debug)]
struct Pattern {
    source: String,
    /// A rule's keywords (lowercase) when it runs only on files holding one:
    /// a rule each of whose matches holds one of them, and is of bounded
    /// length, is searched only around them.
    keywords: Vec<String>,
    compiled: OnceLock<Option<Compiled>>,
}

#[derive(Debug)]
struct Compiled {
    regex: Regex,
    /// When every match holds a keyword: the longest text it can match, so
    /// a match lies within this many bytes of a keyword.
    reach: Option<usize>,
    /// When searched around its keywords: runs one of which each match
    /// holds, so a window holding none is passed over.
    runs: Option<Vec<Run>>,
}

impl Pattern {
    fn new(source: &str) -> Pattern {
        Pattern { source: source.to_owned(), keywords: Vec::new(), compiled: OnceLock::new() }
    }

    /// The compiled regex, or `None` when `regex-automata` refuses it (a
    /// test checks every rule compiles).
    fn compiled(&self) -> Option<&Compiled> {
        self.compiled
            .get_or_init(|| {
                // gitleaks' patterns are Go's RE2, whose `\w`, `\s`, `\b` and
                // `(?i)` are ASCII: the same without Unicode here, over bytes.
                let syntax = syntax::Config::new().unicode(false).utf8(false);
                let hir = syntax::parse_with(&from_go(&self.source), &syntax).ok()?;
                let reach = hir
                    .properties()
                    .maximum_len()
                    .filter(|_| !self.keywords.is_empty() && holds_keyword(&hir, &self.keywords));
                // Over a few hundred bytes a search needs no prefilter, and
                // building one was most of what compiling such a regex cost.
                let config = Regex::config().utf8_empty(false).auto_prefilter(reach.is_none());
                let regex = Regex::builder().configure(config).build_from_hir(&hir).ok()?;
                let runs = runs(&hir)
                    .filter(|runs| reach.is_some() && runs.iter().all(|r| r.min >= MIN_RUN));
                Some(Compiled { regex, reach, runs })
            })
            .as_ref()
    }

    fn is_match(&self, text: &str) -> bool {
        self.compiled().is_some_and(|c| c.regex.is_match(text.as_bytes()))
    }
}

/// A Go (RE2) pattern in the `regex` crate's syntax, which differs in three
/// places gitleaks' patterns use: Go reads a `{` that starts no repetition
/// (`${{`) as itself, and inside a class a `[` that starts no `[:name:]`,
/// and `&&`, `--`, `~~` (set operations here), as themselves too.
fn from_go(pattern: &str) -> String {
    let bytes = pattern.as_bytes();
    let repetition = |at: usize| {
        let rest = &pattern[at + 1..];
        let Some(close) = rest.find('}') else { return false };
        let inner = &rest[..close];
        let (low, high) = inner.split_once(',').unwrap_or((inner, "0"));
        !low.is_empty()
            && low.bytes().all(|b| b.is_ascii_digit())
            && high.bytes().all(|b| b.is_ascii_digit())
    };
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut in_class = false;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\\' => {
                // An escape is copied whole (its character may be multibyte).
                let len = pattern[i + 1..].chars().next().map_or(0, char::len_utf8);
                out.push_str(&pattern[i..i + 1 + len]);
                i += 1 + len;
                continue;
            }
            b'[' if !in_class => {
                in_class = true;
                out.push('[');
                // `]` or `^]` first is a member, in both syntaxes.
                for prefix in ["^]", "]", "^"] {
                    if pattern[i + 1..].starts_with(prefix) {
                        out.push_str(prefix);
                        i += prefix.len();
                        break;
                    }
                }
            }
            b'[' if pattern[i + 1..].starts_with(':') => {
                let end = pattern[i..].find(":]").map_or(bytes.len(), |e| i + e + 2);
                out.push_str(&pattern[i..end]);
                i = end;
                continue;
            }
            b'[' | b'&' | b'~' if in_class => {
                out.push('\\');
                out.push(c as char);
            }
            b'-' if in_class && bytes.get(i + 1) == Some(&b'-') => out.push_str("-\\"),
            b']' if in_class => {
                in_class = false;
                out.push(']');
            }
            b'{' if !in_class && !repetition(i) => out.push_str("\\{"),
            _ => {
                let len = pattern[i..].chars().next().map_or(1, char::len_utf8);
                out.push_str(&pattern[i..i + len]);
                i += len;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Whether every text `hir` matches holds one of `keywords` (lowercase),
/// ignoring ASCII case. Not so for every rule: gitleaks' `facebook-access-token`
/// matches digits and a `|`, and runs when `facebook` is anywhere in the file.
fn holds_keyword(hir: &Hir, keywords: &[String]) -> bool {
    let spell = |words: &[String]| {
        words.iter().all(|word| keywords.iter().any(|k| word.contains(k.as_str())))
    };
    if spellings(hir).is_some_and(|words| spell(&words)) {
        return true;
    }
    match hir.kind() {
        HirKind::Capture(capture) => holds_keyword(&capture.sub, keywords),
        HirKind::Repetition(repetition) => {
            repetition.min >= 1 && holds_keyword(&repetition.sub, keywords)
        }
        HirKind::Alternation(branches) => branches.iter().all(|b| holds_keyword(b, keywords)),
        HirKind::Concat(parts) => {
            // A run of parts each spelled a few ways (`(?i)`'s one-letter
            // classes, `linked[_-]?in`, `(live|test)_`) is spelled each way
            // of their product, and every match holds one of them.
            let mut run = vec![String::new()];
            for part in parts {
                if holds_keyword(part, keywords) {
                    return true;
                }
                match spellings(part) {
                    Some(more) if run.len() * more.len() <= SPELLINGS => {
                        run = product(&run, &more);
                    }
                    more => {
                        if spell(&run) {
                            return true;
                        }
                        run = more.unwrap_or_else(|| vec![String::new()]);
                    }
                }
            }
            spell(&run)
        }
        _ => false,
    }
}

/// How many ways of spelling a part of a pattern are worth listing.
const SPELLINGS: usize = 64;

/// Every text `hir` matches, lowercase, when they are at most [`SPELLINGS`]:
/// a literal, a class of a few bytes (an ASCII letter's two cases, `[_-]`),
/// and alternations, concatenations and short repetitions of them.
fn spellings(hir: &Hir) -> Option<Vec<String>> {
    let words = match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => vec![String::new()],
        HirKind::Literal(literal) => vec![String::from_utf8_lossy(&literal.0).to_lowercase()],
        HirKind::Class(Class::Bytes(class)) => {
            let ranges = class.iter().map(|r| usize::from(r.end() - r.start()) + 1);
            if ranges.sum::<usize>() > 2 * SPELLINGS {
                return None;
            }
            let mut bytes: Vec<u8> = class
                .iter()
                .flat_map(|r| r.start()..=r.end())
                .map(|b| b.to_ascii_lowercase())
                .collect();
            bytes.sort_unstable();
            bytes.dedup();
            bytes.iter().map(|&b| char::from(b).to_string()).collect()
        }
        HirKind::Class(Class::Unicode(_)) => return None,
        HirKind::Capture(capture) => spellings(&capture.sub)?,
        HirKind::Alternation(branches) => {
            let mut words = Vec::new();
            for branch in branches {
                words.extend(spellings(branch)?);
                if words.len() > SPELLINGS {
                    return None;
                }
            }
            words
        }
        HirKind::Concat(parts) => {
            let mut words = vec![String::new()];
            for part in parts {
                let more = spellings(part)?;
                if words.len() * more.len() > SPELLINGS {
                    return None;
                }
                words = product(&words, &more);
            }
            words
        }
        HirKind::Repetition(repetition) => {
            let max = repetition.max.filter(|&max| max <= 3)?;
            let one = spellings(&repetition.sub)?;
            let mut words = Vec::new();
            let mut times = vec![String::new()];
            for count in 0..=max {
                if count >= repetition.min {
                    words.extend(times.iter().cloned());
                }
                if count < max {
                    if times.len() * one.len() > SPELLINGS {
                        return None;
                    }
                    times = product(&times, &one);
                }
            }
            words
        }
    };
    (words.len() <= SPELLINGS).then_some(words)
}

/// Each of `first` followed by each of `then`.
fn product(first: &[String], then: &[String]) -> Vec<String> {
    first.iter().flat_map(|a| then.iter().map(move |b| format!("{a}{b}"))).collect()
}

/// A part of every match of a pattern: at least `min` bytes in a row, each
/// in `class`. The value of gitleaks' rules is such a run (`[a-z0-9]{32}`),
/// and prose around a keyword seldom holds one: a window without it is
/// passed over without running the regex.
#[derive(Debug)]
struct Run {
    class: Box<[bool; 256]>,
    min: usize,
}

impl Run {
    /// Whether `bytes` hold the run.
    fn found_in(&self, bytes: &[u8]) -> bool {
        let mut row = 0;
        for &byte in bytes {
            row = if self.class[usize::from(byte)] { row + 1 } else { 0 };
            if row >= self.min {
                return true;
            }
        }
        false
    }
}

/// Runs of which every match of `hir` holds one, the longest to be had.
fn runs(hir: &Hir) -> Option<Vec<Run>> {
    match hir.kind() {
        HirKind::Repetition(repetition) if repetition.min >= 1 => match repetition.sub.kind() {
            HirKind::Class(Class::Bytes(class)) => {
                let mut set = Box::new([false; 256]);
                for byte in class.iter().flat_map(|r| r.start()..=r.end()) {
                    set[usize::from(byte)] = true;
                }
                Some(vec![Run { class: set, min: repetition.min as usize }])
            }
            _ => runs(&repetition.sub),
        },
        HirKind::Capture(capture) => runs(&capture.sub),
        HirKind::Alternation(branches) => {
            branches.iter().map(runs).try_fold(Vec::new(), |mut all, one| {
                all.extend(one?);
                Some(all)
            })
        }
        HirKind::Concat(parts) => {
            let shortest = |runs: &Vec<Run>| runs.iter().map(|r| r.min).min().unwrap_or(0);
            parts.iter().filter_map(runs).max_by_key(shortest)
        }
        _ => None,
    }
}

/// Runs shorter than this filter little: prose is full of words that long.
const MIN_RUN: usize = 8;

/// What an allowlist compares its `regexes` with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Secret,
    Match,
    Line,
}

/// A gitleaks allowlist: a finding it matches is not reported.
#[derive(Debug)]
struct Allowlist {
    /// `condition = "AND"`: every kind of check given must hold.
    all: bool,
    target: Target,
    paths: Vec<Pattern>,
    regexes: Vec<Pattern>,
    /// Lowercase; a secret containing one is allowed.
    stopwords: Vec<String>,
}

impl Allowlist {
    fn new(source: &AllowlistSource) -> Allowlist {
        let patterns = |list: &[&str]| list.iter().map(|s| Pattern::new(s)).collect();
        Allowlist {
            all: source.condition == "AND",
            target: match source.regex_target {
                "match" => Target::Match,
                "line" => Target::Line,
                _ => Target::Secret,
            },
            paths: patterns(source.paths),
            regexes: patterns(source.regexes),
            stopwords: source.stopwords.iter().map(|s| s.to_lowercase()).collect(),
        }
    }

    /// gitleaks' `checkFindingAllowed` (with its path check, done there
    /// before the scan, folded in).
    fn allows(&self, path: &str, secret: &str, matched: &str, line: &str) -> bool {
        let target = match self.target {
            Target::Secret => secret,
            Target::Match => matched,
            Target::Line => line,
        };
        let path_allowed = || self.paths.iter().any(|p| p.is_match(path));
        let regex_allowed = || self.regexes.iter().any(|p| p.is_match(target));
        let stopword = || {
            let lower = secret.to_lowercase();
            self.stopwords.iter().any(|w| lower.contains(w.as_str()))
        };
        if self.all {
            (self.paths.is_empty() || path_allowed())
                && (self.regexes.is_empty() || regex_allowed())
                && (self.stopwords.is_empty() || stopword())
        } else {
            path_allowed() || regex_allowed() || stopword()
        }
    }
}

#[derive(Debug)]
struct Rule {
    id: String,
    kind: String,
    regex: Pattern,
    /// Only files whose path matches.
    path: Option<Pattern>,
    secret_group: usize,
    /// Shannon entropy the secret must exceed (0: none).
    entropy: f64,
    allowlists: Vec<Allowlist>,
    /// Its keywords, lowercase: a match that is only a git object id must
    /// have one on its line.
    keywords: Vec<String>,
    /// Its keywords' numbers in [`Rules::keywords`]; none when it runs on
    /// every file it applies to.
    triggers: Vec<usize>,
}

#[derive(Debug)]
struct Rules {
    rules: Vec<Rule>,
    /// Every rule's keywords, lowercase, once each; matched ignoring ASCII case.
    keywords: Option<AhoCorasick>,
    /// The rules each keyword turns on.
    by_keyword: Vec<Vec<usize>>,
    /// Rules without keywords, run on every file.
    always: Vec<usize>,
    /// Rules run only on the files their `path` matches ([`SCOPED`]), on
    /// every such file: their keywords are common words, which would make
    /// every file's keyword pass slower for the few files they apply to.
    scoped: Vec<usize>,
    global: Allowlist,
}

/// "Uncovered a GitHub Personal Access Token, potentially leading to …" →
/// "GitHub Personal Access Token": gitleaks' descriptions name the secret
/// after a verb; one that does not is shown by its id.
fn kind(description: &str, id: &str) -> String {
    let mut rest = description;
    for verb in ["Identified ", "Discovered ", "Detected ", "Found ", "Uncovered ", "Possible "] {
        if let Some(after) = rest.strip_prefix(verb) {
            rest = after;
            break;
        }
    }
    for filler in
        ["a pattern that may indicate ", "a pattern resembling a ", "a pattern resembling "]
    {
        if let Some(after) = rest.strip_prefix(filler) {
            rest = after;
        }
    }
    for article in ["an ", "a ", "potential ", "possible "] {
        if let Some(after) = rest.strip_prefix(article) {
            rest = after;
        }
    }
    let end = [",", " which ", " that ", " posing ", " potentially ", " risking ", " detected"]
        .iter()
        .filter_map(|stop| rest.find(stop))
        .min()
        .unwrap_or(rest.len());
    let name = rest[..end].trim_end_matches('.').trim();
    if name.is_empty() || name.contains(" is ") || name.len() > 60 {
        format!("a secret of gitleaks' rule `{id}`")
    } else {
        name.to_owned()
    }
}

impl Rules {
    fn load() -> Rules {
        let mut rules = Vec::new();
        let mut keywords: Vec<String> = Vec::new();
        let mut by_keyword: Vec<Vec<usize>> = Vec::new();
        let mut always = Vec::new();
        let mut scoped = Vec::new();
        for source in gitleaks::RULES {
            let id = source.id;
            // A rule with no regex is gitleaks' check of a file's name alone.
            if source.regex.is_empty() {
                continue;
            }
            let scope = SCOPED.iter().find(|(scoped, ..)| *scoped == id).map(|(_, path, _)| *path);
            let index = rules.len();
            rules.push(Rule {
                id: id.to_owned(),
                kind: kind(source.description, id),
                regex: Pattern::new(source.regex),
                path: scope.or(Some(source.path).filter(|p| !p.is_empty())).map(Pattern::new),
                secret_group: source.secret_group,
                entropy: source.entropy,
                allowlists: source.allowlists.iter().map(Allowlist::new).collect(),
                keywords: source.keywords.iter().map(|w| w.to_lowercase()).collect(),
                triggers: Vec::new(),
            });
            if scope.is_some() {
                scoped.push(index);
                continue;
            }
            let words = source.keywords;
            // A keyword of two letters, or a letter and a full stop (`sk`,
            // `ey`, `s.`), is in nearly every file of prose, so it filters
            // nothing and costs a match at each occurrence: its rule runs on
            // every file instead, where its regex's own literal search is
            // quicker (measured: the three such rules take 25 ms over the
            // 51 MiB benchmark project, the matches 150 ms).
            let common =
                |w: &&str| w.len() < 3 && w.bytes().all(|b| b.is_ascii_alphabetic() || b == b'.');
            if words.iter().any(common) {
                always.push(index);
                continue;
            }
            for word in words {
                let word = word.to_lowercase();
                let at = match keywords.iter().position(|k| *k == word) {
                    Some(at) => {
                        by_keyword[at].push(index);
                        at
                    }
                    None => {
                        keywords.push(word);
                        by_keyword.push(vec![index]);
                        keywords.len() - 1
                    }
                };
                rules[index].triggers.push(at);
            }
            rules[index].regex.keywords = rules[index].keywords.clone();
        }
        // A DFA: the one pass every file pays for, at a byte a step; the
        // keywords are a few hundred short words, so it stays small.
        let keywords = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .kind(Some(AhoCorasickKind::DFA))
            .build(&keywords)
            .ok();
        let global = Allowlist::new(&gitleaks::GLOBAL);
        Rules { rules, keywords, by_keyword, always, scoped, global }
    }
}

/// Loads gitleaks' rules (their TOML, their keywords' automaton) ahead of
/// the first file that needs them.
pub fn load() {
    rules();
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(Rules::load)
}

/// gitleaks' `shannonEntropy`: bits per character of `text`.
fn entropy(text: &str) -> f64 {
    let mut counts: std::collections::HashMap<char, usize> = std::collections::HashMap::new();
    for c in text.chars() {
        *counts.entry(c).or_default() += 1;
    }
    let len = text.len() as f64;
    counts.values().map(|&n| n as f64 / len).map(|p| -p * p.log2()).sum()
}

/// `offset` moved back to a character boundary of `text` (a byte regex
/// can end inside a character; gitleaks' cannot).
fn floor(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The lines holding `start..end`, as gitleaks takes a finding's line.
/// At most [`LINE_REACH`] bytes either side of the match: a file of one
/// huge line with a match every few bytes would otherwise cost the whole
/// line per match.
fn lines(text: &str, start: usize, end: usize) -> (usize, usize) {
    let low = floor(text, start.saturating_sub(LINE_REACH));
    let high = floor(text, (end + LINE_REACH).min(text.len()));
    let from = text[low..start].rfind('\n').map_or(low, |i| low + i + 1);
    let to = text[end..high].find('\n').map_or(high, |i| end + i);
    (from, to)
}

/// How far a finding's line reaches from its match.
const LINE_REACH: usize = 1024;

/// A keyword found: its number, start and end.
type Hit = (usize, usize, usize);

/// The secrets in `text`, the file at `path` (as users see it), in order.
pub fn scan(path: &str, text: &str) -> Vec<Found> {
    scan_with(path, text, true)
}

/// [`scan`], each rule's regex run only around its keywords when `around`
/// (see [`windows`]), or over the whole text as gitleaks runs it: a test
/// holds the two to the same findings.
fn scan_with(path: &str, text: &str, around: bool) -> Vec<Found> {
    let rules = rules();
    let Some(keywords) = &rules.keywords else {
        return Vec::new();
    };
    let mut wanted: Vec<usize> = rules.always.clone();
    wanted.extend(
        rules
            .scoped
            .iter()
            .filter(|&&i| rules.rules[i].path.as_ref().is_some_and(|p| p.is_match(path))),
    );
    let mut seen = vec![false; rules.by_keyword.len()];
    let mut hits = Vec::new();
    for found in keywords.find_overlapping_iter(text) {
        let keyword = found.pattern().as_usize();
        hits.push((keyword, found.start(), found.end()));
        if !std::mem::replace(&mut seen[keyword], true) {
            wanted.extend(&rules.by_keyword[keyword]);
        }
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    hits.sort_unstable();
    let hits = around.then_some(&hits[..]);
    wanted.sort_unstable();
    wanted.dedup();
    let mut found: Vec<Found> = Vec::new();
    for index in wanted {
        find(rules, index, path, text, hits, &mut found);
    }
    // One secret found by two rules (a JWT and its base64) is reported once.
    found.sort_by_key(|f| (f.span.start, f.span.end));
    found.dedup_by(|later, kept| later.span.start < kept.span.end);
    found
}

/// Where rule `rule` is searched for in a text of `len` bytes whose keywords
/// were found at `hits` (keyword, start, end; sorted): the whole text, or —
/// when each match holds one of the rule's keywords and is at most `reach`
/// bytes long — only around them. A file of prose that names a
/// token or a key a few times is then searched over a few hundred bytes,
/// not its whole length, by each rule it wakes.
fn windows(rule: &Rule, reach: Option<usize>, hits: Option<&[Hit]>, len: usize) -> Vec<Bytes> {
    let (Some(reach), Some(hits)) = (reach, hits) else {
        return vec![Bytes { start: 0, end: len }];
    };
    let mut around: Vec<Bytes> = Vec::new();
    for &keyword in &rule.triggers {
        let from = hits.partition_point(|&(k, ..)| k < keyword);
        let to = hits.partition_point(|&(k, ..)| k <= keyword);
        around.extend(hits[from..to].iter().map(|&(_, start, end)| Bytes {
            start: start.saturating_sub(reach),
            end: end.saturating_add(reach).min(len),
        }));
    }
    around.sort_unstable_by_key(|w| w.start);
    let mut merged: Vec<Bytes> = Vec::with_capacity(around.len());
    for window in around {
        match merged.last_mut() {
            Some(last) if window.start <= last.end => last.end = last.end.max(window.end),
            _ => merged.push(window),
        }
    }
    merged
}

/// gitleaks' `detectRule`: rule `index`'s secrets in `text`, into `out`.
fn find(
    rules: &Rules,
    index: usize,
    path: &str,
    text: &str,
    hits: Option<&[Hit]>,
    out: &mut Vec<Found>,
) {
    let rule = &rules.rules[index];
    if rule.path.as_ref().is_some_and(|p| !p.is_match(path)) {
        return;
    }
    let Some(compiled) = rule.regex.compiled() else {
        return;
    };
    let bytes = text.as_bytes();
    for window in windows(rule, compiled.reach, hits, text.len()) {
        let runs = compiled.runs.as_deref().unwrap_or_default();
        if !runs.is_empty() && !runs.iter().any(|run| run.found_in(&bytes[window.range()])) {
            continue;
        }
        // The span bounds the search, not what its assertions look at: `\b`
        // and `^` at a window's edge see the text beyond it.
        for captures in compiled.regex.captures_iter(Input::new(bytes).span(window)) {
            let Some(whole) = captures.get_match() else { continue };
            secret(rules, index, path, text, &captures, whole.span(), out);
        }
    }
}

/// One match of rule `index`, `whole` with its `captures`: into `out` when
/// it is a secret that nothing allows.
fn secret(
    rules: &Rules,
    index: usize,
    path: &str,
    text: &str,
    captures: &Captures,
    whole: Bytes,
    out: &mut Vec<Found>,
) {
    let rule = &rules.rules[index];
    let bytes = text.as_bytes();
    let (mut start, mut end) = (floor(text, whole.start), floor(text, whole.end));
    // gitleaks trims line breaks off a match.
    while start < end && bytes[start] == b'\n' {
        start += 1;
    }
    while end > start && bytes[end - 1] == b'\n' {
        end -= 1;
    }
    if start == end {
        return;
    }
    let group = match rule.secret_group {
        0 => {
            (1..captures.group_len()).filter_map(|i| captures.get_group(i)).find(|g| !g.is_empty())
        }
        n => captures.get_group(n),
    };
    let (secret_start, secret_end) = group
        .map_or((start, end), |g| (floor(text, g.start).max(start), floor(text, g.end).min(end)));
    if secret_start >= secret_end {
        return;
    }
    let secret = &text[secret_start..secret_end];
    if rule.entropy != 0.0 && entropy(secret) <= rule.entropy {
        return;
    }
    let (line_start, line_end) = lines(text, start, end);
    let line = &text[line_start..line_end];
    // gitleaks' own way to mark a line as allowed.
    if line.contains("gitleaks:allow") {
        return;
    }
    let pinned = is_object_id(secret) && !mentions(line, &rule.keywords);
    if pinned || is_placeholder(secret) || is_sample(secret) || is_variable(secret) {
        return;
    }
    let matched = &text[start..end];
    if rules.global.allows(path, secret, matched, line)
        || rule.allowlists.iter().any(|a| a.allows(path, secret, matched, line))
    {
        return;
    }
    out.push(found(index, text, secret_start, secret_end));
}

/// Whether `secret` is shaped as a git object id (40 or 64 hexadecimal
/// digits). A rule that takes bare hex (gitleaks' `sourcegraph-access-token`)
/// would otherwise report every commit a file pins — a plugin marketplace's
/// `"sha"` fields — once its keyword is anywhere in the file; such a match
/// counts only when the keyword is on its line.
fn is_object_id(secret: &str) -> bool {
    matches!(secret.len(), 40 | 64) && secret.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether `secret` is a placeholder written where a token goes: a name in
/// capitals and underscores (`YOUR_API_KEY`, `API_TOKEN`), as agent files'
/// examples write them — no provider's token has that shape. gitleaks'
/// rules that take any word after a keyword (`curl-auth-header`'s
/// `Authorization: Bearer …`) would report every such example.
fn is_placeholder(secret: &str) -> bool {
    // `CLIENT_ID:CLIENT_SECRET`, as `curl -u` examples write a pair.
    let secret = secret.trim_matches(|c| c == '"' || c == '\'');
    let mut words = secret.split(['_', ':']);
    secret.contains('_')
        && words.all(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_uppercase()))
}

/// Whether `secret` is a sample typed by hand where a token goes: its body
/// (the longest run of letters and digits) counts up or repeats at most of
/// its steps (`sk_live_123abc456def789ghi`, `ghp_xxxxxxxxxxxxxxxxxxxx`,
/// `AKIA0000000000000000`). A random token steps up by one or repeats about
/// once in thirty; a body this short or this regular names no credential.
fn is_sample(secret: &str) -> bool {
    let body = secret
        .split(|c: char| !c.is_ascii_alphanumeric())
        .max_by_key(|piece| piece.len())
        .unwrap_or_default()
        .as_bytes();
    if body.len() < 8 {
        return false;
    }
    let steps = body.windows(2).filter(|w| w[1] == w[0] || w[1] == w[0].wrapping_add(1)).count();
    steps * 2 >= body.len() - 1
}

/// Whether `secret` names where the secret is instead of holding it: a shell
/// or environment variable (`$STRIPE_SECRET_KEY:` of `curl -u
/// "$STRIPE_SECRET_KEY:"`, `${TOKEN}`, `%TOKEN%`) or a template's
/// (`{{ secrets.TOKEN }}`). gitleaks' `curl-auth-user` takes any word after
/// `-u`.
fn is_variable(secret: &str) -> bool {
    let secret = secret.trim_matches(|c| c == '"' || c == '\'');
    secret.starts_with('$') || secret.starts_with("{{") || secret.starts_with('%')
}

/// Whether `line` holds one of `keywords` (lowercase), ignoring ASCII case.
fn mentions(line: &str, keywords: &[String]) -> bool {
    let line = line.to_ascii_lowercase();
    keywords.iter().any(|k| line.contains(k.as_str()))
}

/// What to point at and what to hide of the secret at `start..end`.
fn found(rule: usize, text: &str, start: usize, end: usize) -> Found {
    let first_end = text[start..end].find(['\r', '\n']).map_or(end, |i| start + i);
    // A private key's armour line says what it is, and nothing of the key.
    let armour = text[start..first_end].starts_with("-----BEGIN") && first_end < end;
    let mut hidden = Vec::new();
    if !armour {
        let kept =
            text[start..first_end].char_indices().nth(KEEP).map_or(first_end, |(i, _)| start + i);
        if kept < first_end {
            hidden.push(Span::new(kept, first_end));
        }
    }
    let mut at = first_end;
    while at < end {
        let line_start = at + text[at..end].find(|c| c != '\r' && c != '\n').unwrap_or(end - at);
        let line_end = text[line_start..end].find(['\r', '\n']).map_or(end, |i| line_start + i);
        if line_start < line_end {
            hidden.push(Span::new(line_start, line_end));
        }
        at = line_end;
    }
    Found { rule, span: Span::new(start, first_end), hidden }
}

/// `text` with the bytes of `hidden` replaced by `*`, one per byte, so every
/// offset into the text stays where it was.
pub fn mask(text: &str, hidden: impl Iterator<Item = Span>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for span in hidden {
        if span.start < at || span.end > text.len() {
            continue;
        }
        out.push_str(&text[at..span.start]);
        out.extend(std::iter::repeat_n('*', span.end - span.start));
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The `secret` diagnostics of a file.
pub fn diagnostics(source: &impl Scanned) -> Vec<Diagnostic> {
    let file = source.path();
    let path = &file.path;
    // Where servers are configured (MCP files, plugin and settings JSON,
    // Copilot agents' `mcp-servers`), a value can name a variable instead.
    let configures_servers = path.ends_with(".json") || path.ends_with(".agent.md");
    let help = match configures_servers {
        true => {
            "revoke it with its issuer now: it is in the repository's history, and deleting \
             the line does not unpublish it. Then refer to the new one by an environment \
             variable (`${NAME}`; for the Copilot cloud agent a secret named `COPILOT_MCP_…`) \
             or keep it in the host's secret store"
        }
        false => {
            "revoke it with its issuer now: it is in the repository's history, and deleting \
             the line does not unpublish it. Then keep the new one out of the file: tell the \
             agent which environment variable holds it, or keep it in the host's secret store"
        }
    };
    let secrets = source.secrets();
    let mut out: Vec<Diagnostic> = secrets
        .iter()
        .take(MAX_REPORTED)
        .map(|found| {
            Diagnostic::at(
                Code::Secret,
                file,
                found.span,
                format!(
                    "a secret is committed here: {} (gitleaks rule `{}`)",
                    found.kind(),
                    found.rule_id()
                ),
            )
            .with_help(help)
        })
        .collect();
    // A file of thousands of secrets is one more line, not thousands.
    if let Some(next) = secrets.get(MAX_REPORTED) {
        let more = secrets.len() - MAX_REPORTED;
        out.push(
            Diagnostic::at(
                Code::Secret,
                file,
                next.span,
                format!("{more} more secrets are committed in this file, from here on"),
            )
            .with_help(help),
        );
    }
    out
}

/// The secrets of one file reported one by one; one more diagnostic counts
/// the rest.
const MAX_REPORTED: usize = 64;

/// What takes the secrets found in a compilation's files out of any text
/// agentc shows or writes: diagnostics, pictures, budgets, the lockfile,
/// generated code, the language server's answers. Each goes through
/// [`Redactor::clean`], the one seam, so a new output cannot forget it.
///
/// A secret is matched as written, as JSON or a Rust string escapes it, and
/// in the forms a suggestion derives from a value (lowercased, `_`, `.` and
/// blanks as `-`), case-insensitively; each match becomes as many `*`.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    secrets: Option<AhoCorasick>,
}

impl Redactor {
    /// The redactor of the secrets in `sources`.
    pub fn new<'a, S: Scanned + 'a>(sources: impl IntoIterator<Item = &'a S>) -> Redactor {
        let mut texts: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
        for source in sources {
            for found in source.secrets() {
                for span in &found.hidden {
                    let text = &source.text()[span.start..span.end];
                    // A piece this short is a word, not something to hide.
                    if text.len() < 6 {
                        continue;
                    }
                    let escaped = serde_json::to_string(text).unwrap_or_default();
                    let escaped = escaped.trim_matches('"').to_owned();
                    let derived: String = text
                        .chars()
                        .map(|c| if matches!(c, '_' | '.' | ' ') { '-' } else { c })
                        .collect();
                    texts.extend([text.to_owned(), escaped, derived]);
                }
            }
        }
        if texts.is_empty() {
            return Redactor::default();
        }
        let secrets = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .build(&texts)
            .ok();
        Redactor { secrets }
    }

    /// Whether no secret was found: every text is shown as it is.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_none()
    }

    /// Whether `text` holds a secret.
    pub fn finds(&self, text: &str) -> bool {
        self.secrets.as_ref().is_some_and(|ac| ac.is_match(text))
    }

    /// `text` with every secret in it masked, byte for byte.
    pub fn clean<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        let Some(ac) = &self.secrets else {
            return std::borrow::Cow::Borrowed(text);
        };
        let mut out = String::new();
        let mut at = 0;
        for found in ac.find_iter(text) {
            out.push_str(&text[at..found.start()]);
            out.extend(std::iter::repeat_n('*', found.end() - found.start()));
            at = found.end();
        }
        if at == 0 {
            return std::borrow::Cow::Borrowed(text);
        }
        out.push_str(&text[at..]);
        std::borrow::Cow::Owned(out)
    }

    /// [`Redactor::clean`] in place.
    pub fn clean_in_place(&self, text: &mut String) {
        if let std::borrow::Cow::Owned(clean) = self.clean(text) {
            *text = clean;
        }
    }
}

/// Takes the text of every secret in `sources` out of the words of
/// `diagnostics` (a message or label quoting a value, a help suggesting a
/// name made from one, a fix writing it), so no output shows it.
pub fn redact<'a, S: Scanned + 'a>(
    diagnostics: &mut [Diagnostic],
    sources: impl IntoIterator<Item = &'a S>,
) {
    let redactor = Redactor::new(sources);
    if redactor.is_empty() {
        return;
    }
    // A `secret` diagnostic names the kind, never the value: only the
    // others can quote one, and there are few of them.
    for diagnostic in diagnostics.iter_mut().filter(|d| d.code != Code::Secret) {
        redactor.clean_in_place(&mut diagnostic.message);
        if let Some(help) = &mut diagnostic.help {
            redactor.clean_in_place(help);
        }
        for label in &mut diagnostic.labels {
            redactor.clean_in_place(&mut label.message);
        }
        // A fix that writes the secret cannot be shown; one that would write
        // stars would damage the file.
        let shows = diagnostic.fix.as_ref().is_some_and(|fix| {
            redactor.finds(&fix.message) || fix.edits.iter().any(|e| redactor.finds(&e.replacement))
        });
        if shows {
            diagnostic.fix = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::ContentRules;
    use crate::source::Source;

    /// A secret is masked as written, escaped in JSON, and in the forms a
    /// suggestion makes of a value (lowercased, kebab-cased).
    #[test]
    fn the_redactor_masks_a_secret_and_the_names_made_from_it() {
        let token = fake("ghp_", "Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo");
        let text = format!("token: {token}\n");
        let rules = ContentRules::ALL;
        let source =
            Source::with_digest(RelPath::root("a.md"), text.as_str(), String::new(), rules);
        let redactor = Redactor::new([&source]);
        assert!(!redactor.is_empty());
        assert_eq!(redactor.clean(&format!("`{token}`")), format!("`ghp_{}`", "*".repeat(36)));
        let kebab = token.to_lowercase().replace('_', "-");
        assert_eq!(redactor.clean(&kebab), format!("ghp-{}", "*".repeat(36)));
        assert_eq!(redactor.clean("nothing here"), "nothing here");
        let none = Source::with_digest(RelPath::root("b.md"), "no secret\n", String::new(), rules);
        assert!(Redactor::new([&none]).is_empty());
    }

    #[test]
    fn a_pinned_commit_is_no_sourcegraph_token() {
        // A marketplace that lists Sourcegraph's plugin and pins commits, as
        // anthropics/claude-plugins-official does.
        let sha = "30287f5e3f122a646d1ac5ca3ab96e130c52a3ad";
        let marketplace = format!(
            "{{\"plugins\": [{{\"name\": \"sourcegraph\"}},\n{{\"source\": {{\"sha\": \"{sha}\"}}}}]}}\n"
        );
        assert!(scan(".claude-plugin/marketplace.json", &marketplace).is_empty());
        // The same hex named as Sourcegraph's on its line is still a token.
        let named = format!("SOURCEGRAPH_TOKEN={sha}\n");
        let found = scan(".env", &named);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(rules().rules[found[0].rule].id, "sourcegraph-access-token");
    }

    #[test]
    fn a_file_of_many_secrets_is_a_bounded_report() {
        // Tokens of GitHub's format, each distinct, on one line.
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            ALPHABET[(state >> 33) as usize % ALPHABET.len()] as char
        };
        let tokens: Vec<String> = (0..200)
            .map(|_| format!("ghp_{}", (0..36).map(|_| next()).collect::<String>()))
            .collect();
        let text = format!("---\nname: x\ndescription: y\n---\n{}\n", tokens.join(" "));
        let source = Source::new(RelPath::root("SKILL.md"), text.as_str());
        assert!(source.secrets().len() > MAX_REPORTED, "{}", source.secrets().len());
        let found = diagnostics(&source);
        assert_eq!(found.len(), MAX_REPORTED + 1);
        let last = &found[MAX_REPORTED].message;
        let more = source.secrets().len() - MAX_REPORTED;
        assert_eq!(last, &format!("{more} more secrets are committed in this file, from here on"));
    }

    #[test]
    fn every_rule_loads_and_compiles() {
        let rules = rules();
        assert!(rules.rules.len() > 200, "{}", rules.rules.len());
        let refused: Vec<&str> = rules
            .rules
            .iter()
            .filter(|r| {
                r.regex.compiled().is_none()
                    || r.path.as_ref().is_some_and(|p| p.compiled().is_none())
            })
            .map(|r| r.id.as_str())
            .collect();
        assert!(refused.is_empty(), "the regex crate refuses {refused:?}");
        let allowlists = rules.rules.iter().flat_map(|r| &r.allowlists).chain([&rules.global]);
        for list in allowlists {
            for pattern in list.regexes.iter().chain(&list.paths) {
                assert!(pattern.compiled().is_some(), "{}", pattern.source);
            }
        }
        for (id, ..) in SCOPED {
            assert!(gitleaks::RULES.iter().any(|r| r.id == *id), "{id} is not a rule");
        }
    }

    /// What `build.rs` wrote is the vendored file, read here with the
    /// TOML parser: every rule with each of its fields, and the allowlists.
    #[test]
    fn the_rules_built_in_are_the_vendored_file() {
        use toml_edit::{Item, Table};
        let text = include_str!("../vendor/gitleaks/gitleaks.toml");
        let doc = toml_edit::Document::parse(text).unwrap();
        let text_of = |table: &Table, key: &str| {
            table.get(key).and_then(Item::as_str).unwrap_or_default().to_owned()
        };
        let strings = |table: &Table, key: &str| -> Vec<String> {
            let array = table.get(key).and_then(Item::as_array);
            array.into_iter().flatten().filter_map(|v| v.as_str().map(str::to_owned)).collect()
        };
        let owned = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let same_allowlist = |table: &Table, built: &AllowlistSource| {
            assert_eq!(text_of(table, "condition"), built.condition);
            assert_eq!(text_of(table, "regexTarget"), built.regex_target);
            assert_eq!(strings(table, "paths"), owned(built.paths));
            assert_eq!(strings(table, "regexes"), owned(built.regexes));
            assert_eq!(strings(table, "stopwords"), owned(built.stopwords));
        };
        same_allowlist(doc["allowlist"].as_table().unwrap(), &gitleaks::GLOBAL);
        let tables = doc["rules"].as_array_of_tables().unwrap();
        assert_eq!(tables.len(), gitleaks::RULES.len());
        for (table, built) in tables.iter().zip(gitleaks::RULES) {
            assert_eq!(text_of(table, "id"), built.id);
            assert_eq!(text_of(table, "description"), built.description);
            assert_eq!(text_of(table, "regex"), built.regex);
            assert_eq!(text_of(table, "path"), built.path);
            assert_eq!(strings(table, "keywords"), owned(built.keywords));
            let number = |key: &str| {
                let value = table.get(key).and_then(Item::as_value);
                value.and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
            };
            assert_eq!(number("secretGroup").unwrap_or(0.0) as usize, built.secret_group);
            assert_eq!(number("entropy").unwrap_or(0.0), built.entropy);
            let lists = table.get("allowlists").and_then(Item::as_array_of_tables);
            let lists: Vec<&Table> = lists.into_iter().flat_map(|t| t.iter()).collect();
            assert_eq!(lists.len(), built.allowlists.len(), "{}", built.id);
            for (list, built) in lists.into_iter().zip(built.allowlists) {
                same_allowlist(list, built);
            }
        }
    }

    #[test]
    fn go_patterns_read_as_go_reads_them() {
        assert_eq!(from_go(r"\${{[^}]+}}"), r"\$\{\{[^}]+}}");
        assert_eq!(from_go(r"a{2,3}[a-z{]x{1}"), r"a{2,3}[a-z{]x{1}");
        assert_eq!(from_go(r"[[:alpha:][&]"), r"[[:alpha:]\[\&]");
        assert_eq!(from_go(r"[]a--]"), r"[]a-\-]");
        assert_eq!(from_go(r"\[x]"), r"\[x]");
    }

    fn ids(text: &str) -> Vec<&'static str> {
        scan("a/SKILL.md", text).iter().map(Found::rule_id).collect()
    }

    // Fake keys of the providers' formats: each is built here so this file
    // holds no whole one.
    #[test]
    fn a_sample_typed_by_hand_is_no_secret() {
        for sample in [
            format!("const apiKey = \"{}\";", fake("sk_live_", "123abc456def789ghi")),
            format!("token: {}", fake("ghp_", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")),
            format!("key: {}", fake("AKIA", "0000000000000000")),
        ] {
            assert_eq!(ids(&sample), Vec::<&str>::new(), "{sample}");
        }
        let variable = "curl https://api.stripe.com/v1/charges -u \"$STRIPE_SECRET_KEY:\"";
        assert_eq!(ids(variable), Vec::<&str>::new());
        let pair = "curl -X POST https://zoom.us/oauth/token -u \"CLIENT_ID:CLIENT_SECRET\"";
        assert_eq!(ids(pair), Vec::<&str>::new());
        let real =
            format!("const apiKey = \"{}\";", fake("sk_live_", "51Hq8ZkL2mN7pR4vT9wX3yB6cF1"));
        assert_eq!(ids(&real), ["stripe-access-token"]);
    }

    fn fake(prefix: &str, body: &str) -> String {
        format!("{prefix}{body}")
    }

    #[test]
    fn finds_the_well_known_kinds() {
        let github = fake("ghp_", "Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo");
        assert_eq!(ids(&format!("token: {github}\n")), ["github-pat"]);
        let aws = fake("AKIA", "Q3ZRX7MN4BT2WY6P");
        assert_eq!(ids(&format!("key = {aws}\n")), ["aws-access-token"]);
        let slack = fake("xoxb-", "2894761053-5829174630-Zq3xR8mK2pL7vN4bT9wY1cF6");
        assert_eq!(ids(&format!("SLACK={slack}\n")), ["slack-bot-token"]);
        let key = format!(
            "-----BEGIN OPENSSH {}-----\n{}\n{}\n-----END OPENSSH {}-----\n",
            "PRIVATE KEY",
            "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
            "QyNTUxOQAAACBmYWtlZmFrZWZha2VmYWtlZmFrZWZha2VmYWtlZmFrZWZha2UAAAAA",
            "PRIVATE KEY"
        );
        let found = scan("a/SKILL.md", &format!("Use this key:\n\n{key}"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].rule_id(), "private-key");
        assert_eq!(found[0].kind(), "Private Key");
        // The armour line is shown; the key's lines are hidden.
        assert_eq!(found[0].hidden.len(), 3);
    }

    #[test]
    fn a_token_in_a_curl_header_is_found() {
        let token = fake("k8Zq3xR8", "mK2pL7vN4bT9wY1c");
        let text = format!("curl -H \"Authorization: Bearer {token}\" https://api.example.com\n");
        assert_eq!(ids(&text), ["curl-auth-header"]);
    }

    #[test]
    fn placeholders_and_prose_are_not_secrets() {
        for text in [
            "Set `GITHUB_TOKEN` to a token starting with `ghp_`.\n",
            "env:\n  API_KEY: ${API_KEY}\n",
            "The AWS key AKIAIOSFODNN7EXAMPLE is the documentation's.\n",
            "curl https://api.example.com/v1 \\\n  -H \"Authorization: Bearer YOUR_API_KEY\"\n",
            "curl -H 'X-Api-Key: SERVICE_TOKEN' https://api.example.com\n",
            "Ask for the user's password and never store the secret key.\n",
            "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n",
        ] {
            assert_eq!(ids(text), Vec::<&str>::new(), "{text}");
        }
    }

    /// A source read without the `secret` rule is never scanned: it has no
    /// secrets, no masked copy, and hides nothing from a diagnostic.
    #[test]
    fn a_source_without_the_rule_is_not_scanned() {
        let github = fake("ghp_", "Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo");
        let text = format!("token: {github}\n");
        let rules = ContentRules { secret: false, ..ContentRules::ALL };
        let path = RelPath::root("a/SKILL.md");
        let source = Source::with_digest(path, text.as_str(), String::new(), rules);
        assert!(source.secrets().is_empty());
        assert!(diagnostics(&source).is_empty());
        assert!(source.masked().is_none());
        let shown = format!("`{github}` is not a URL");
        let mut quoting = vec![Diagnostic::on_path(Code::InvalidValue, &source.path, &shown)];
        redact(&mut quoting, [&source]);
        assert_eq!(quoting[0].message, shown);
        assert!(!source.secrets_scanned());
        assert_eq!(Source::new(source.path.clone(), text.as_str()).secrets().len(), 1);
    }

    #[test]
    fn the_masked_text_keeps_offsets_and_hides_the_secret() {
        let github = fake("ghp_", "Zq3xR8mK2pL7vN4bT9wY1cF6hJ0sD5gA3eUo");
        let text = format!("é: {github}\nnext\n");
        let source = Source::new(RelPath::root("a/SKILL.md"), text.as_str());
        let masked = source.masked().expect("a secret");
        assert_eq!(masked.text.len(), text.len());
        assert!(!masked.text.contains(&github[4..]), "{}", masked.text);
        assert!(masked.text.contains("ghp_*****"), "{}", masked.text);

        let mut diagnostics = vec![
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                Span::new(4, 8),
                format!("`{github}` is not a URL"),
            )
            .with_fix(
                "quote it",
                &source.path,
                Some(Span::new(4, 8)),
                format!("\"{github}\""),
            ),
        ];
        redact(&mut diagnostics, [&source]);
        assert!(!diagnostics[0].message.contains(&github[4..]), "{}", diagnostics[0].message);
        assert_eq!(diagnostics[0].fix, None);
    }

    /// A piece of a generated text: prose, a line break, or a text a rule's
    /// regex matches (its word boundaries and line ends left out, so some
    /// are cut short or run on), made from the regex itself.
    fn piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let matching: Vec<BoxedStrategy<String>> = rules()
            .rules
            .iter()
            .filter_map(|rule| {
                let pattern = format!("(?-u){}", from_go(&rule.regex.source))
                    .replace("\\b", "")
                    .replace("|$)", ")");
                proptest::string::string_regex(&pattern).ok().map(|s| s.boxed())
            })
            .collect();
        assert!(matching.len() > 100, "only {} rules make texts", matching.len());
        prop_oneof![
            "[a-z]{1,8}( |, |. )",
            Just("\n".to_owned()),
            proptest::strategy::Union::new(matching),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Searching each rule only around its keywords finds what searching
        /// the whole text, as gitleaks does, finds.
        #[test]
        fn around_the_keywords_finds_what_the_whole_text_holds(
            pieces in proptest::collection::vec(piece(), 1..24)
        ) {
            let text = pieces.concat();
            for path in ["a/SKILL.md", ".mcp.json"] {
                let around = scan_with(path, &text, true);
                proptest::prop_assert_eq!(around, scan_with(path, &text, false));
            }
        }
    }

    /// gitleaks' `facebook-access-token` wakes on `facebook` but matches
    /// digits and a `|`: searched over the whole file, as gitleaks does.
    #[test]
    fn a_rule_whose_match_need_not_hold_its_keyword_searches_the_whole_file() {
        let token = fake("000000024310502|", "---------A01-1a16-B-2-3b3-7");
        let text = format!("{token}\t----------------FACEBOOK=0000000000\t");
        let around = scan_with("a/SKILL.md", &text, true);
        assert_eq!(
            around.iter().map(Found::rule_id).collect::<Vec<_>>(),
            ["facebook-access-token"]
        );
        assert_eq!(around, scan_with("a/SKILL.md", &text, false));
        let rules = rules();
        let windowed = |id: &str| {
            let rule = rules.rules.iter().find(|r| r.id == id);
            rule.and_then(|r| r.regex.compiled()).is_some_and(|c| c.reach.is_some())
        };
        assert!(!windowed("facebook-access-token"));
        assert!(windowed("twitter-api-key") && windowed("github-pat"));
        // Keywords spelled across parts of the pattern: `(live|test)_`,
        // `linked[_-]?in`, and `cohere|CO_API_KEY` made `co(?:here|_api_key)`.
        assert!(windowed("lob-api-key") && windowed("linkedin-client-id"));
        assert!(windowed("cohere-api-token"));
    }

    fn hir(pattern: &str) -> Hir {
        let syntax = syntax::Config::new().unicode(false).utf8(false);
        syntax::parse_with(pattern, &syntax).unwrap()
    }

    #[test]
    fn a_keyword_is_found_spelled_across_parts_of_a_pattern() {
        let words = |list: &[&str]| list.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let lob = hir("(?i)x{0,5}((live|test)_[a-f0-9]{35})");
        assert!(holds_keyword(&lob, &words(&["live_", "test_"])));
        assert!(!holds_keyword(&lob, &words(&["live_"])));
        let linkedin = hir("(?i)[a-z]{0,9}linked[_-]?in=[a-z]{14}");
        assert!(holds_keyword(&linkedin, &words(&["linkedin", "linked_in", "linked-in"])));
        assert!(!holds_keyword(&linkedin, &words(&["linkedin", "linked_in"])));
        // An optional part holds nothing every match must.
        assert!(!holds_keyword(&hir("(?:token)?[a-z]{8}"), &words(&["token"])));
        assert_eq!(spellings(&hir("(?i)a[_-]?")).unwrap(), words(&["a", "a-", "a_"]));
        assert_eq!(spellings(&hir("[a-z]")).map(|w| w.len()), Some(26));
        assert_eq!(spellings(&hir("[a-z0-9]{2}")), None);
    }

    #[test]
    fn a_window_is_passed_over_only_without_the_run_every_match_holds() {
        let runs = runs(&hir("key=(?:[a-f0-9]{32}|ATATT3[A-Z]{10})")).unwrap();
        assert_eq!(runs.iter().map(|r| r.min).collect::<Vec<_>>(), [32, 10]);
        let holds = |text: &str| runs.iter().any(|run| run.found_in(text.as_bytes()));
        assert!(holds(&format!("the key: {}", "a1".repeat(16))));
        assert!(holds("ATATT3ABCDEFGHIJ"));
        assert!(!holds(&format!("the key: {}", "a1".repeat(15))));
        assert!(!holds("the key is set in the settings of the deployment"));
        // A pattern with an optional value holds no run.
        assert!(runs_of("key=(?:[a-f0-9]{32})?").is_none());
    }

    fn runs_of(pattern: &str) -> Option<Vec<Run>> {
        runs(&hir(pattern))
    }

    #[test]
    fn a_secret_far_into_a_long_file_is_found_around_its_keyword() {
        let prose = "The agent reads the notes and writes a summary of them.\n".repeat(2_000);
        let secret = format!("twitter_api_key = \"{}\"\n", fake("", "q8xk2m9v4r7t1w5y3z6b0n2c4"));
        let text = format!("{prose}{secret}{prose}");
        let around = scan_with("a/SKILL.md", &text, true);
        assert_eq!(around.iter().map(Found::rule_id).collect::<Vec<_>>(), ["twitter-api-key"]);
        assert_eq!(around, scan_with("a/SKILL.md", &text, false));
        assert_eq!(around[0].span.start, prose.len() + "twitter_api_key = \"".len());
    }
}
