//! The hosts: whoever reads a file and decides what happens to it — Claude
//! Code, GitHub Copilot (VS Code, the Copilot CLI and cloud agent), Cursor,
//! Cline, OpenCode, Gemini CLI, Kiro, the Agent Skills specification, and
//! agentc's own runtimes. Each host is a module
//! holding what agentc knows of it: its frontmatter reader, how the Agent
//! Skills specification's rules stand there, and its catalogues (tools,
//! models), checked with "did you mean". `docs/formats.md` cites the
//! documentation and code each comes from.
//!
//! The dialects ([`crate::dialects`]) decode a file by where it lives; the
//! host of that dialect then says what its loader would do with it. A host
//! imports only from below — the schema types, the parsed trees
//! ([`crate::parse`]), diagnostics and the repository's file list — and the
//! pipeline consults it: discovery for its folders, the dialects for its
//! rules, the budget for its limits (`compiler/tests/layering.rs` keeps the
//! modules out of import circles).

pub mod claude_code;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod gemini;
pub mod kiro;
pub mod mcp;
pub mod memory;
pub mod opencode;

use agentc_schema::{Dialect, Span, Spanned};

use crate::catalog::Code;
use crate::repo_files::{self, RepoFiles};

use crate::diagnostic::{Diagnostic, RelPath, Severity};
use crate::options::LayoutKind;
pub use crate::parse::lenient::Reader;
use crate::parse::tree::{Node, Value};
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// A file a host reads at a fixed place: its path from the project's top
/// (or, for [`plugin_files`], from a plugin's folder), and its dialect.
#[derive(Clone, Copy, Debug)]
pub struct Declared {
    pub path: &'static str,
    pub dialect: Dialect,
}

/// The files the hosts read at fixed places of a project, each with the
/// layout (`--layout`) it belongs to: discovery looks for those of the
/// layouts it reads, and reads those it finds.
pub fn project_files() -> impl Iterator<Item = (LayoutKind, &'static Declared)> {
    [
        (LayoutKind::Claude, claude_code::PROJECT_FILES),
        (LayoutKind::Copilot, copilot::PROJECT_FILES),
        (LayoutKind::Memory, memory::PROJECT_FILES),
        (LayoutKind::Cursor, cursor::PROJECT_FILES),
        (LayoutKind::Cline, cline::PROJECT_FILES),
        (LayoutKind::Opencode, opencode::PROJECT_FILES),
        (LayoutKind::Gemini, gemini::PROJECT_FILES),
        (LayoutKind::Kiro, kiro::PROJECT_FILES),
        (LayoutKind::Codex, codex::PROJECT_FILES),
    ]
    .into_iter()
    .flat_map(|(layout, files)| files.iter().map(move |file| (layout, file)))
}

/// The files a Claude Code plugin holds at fixed places besides its
/// component folders.
pub fn plugin_files() -> impl Iterator<Item = &'static Declared> {
    claude_code::PLUGIN_FILES.iter().chain(codex::PLUGIN_FILES)
}

/// Whoever reads a file of a dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// agentc's own runtimes: its formats, strict YAML, every rule an error.
    Agentc,
    /// A skill collection read by the specification alone (`--layout
    /// agent-skills`): the specification, and its `skills-ref` validator.
    AgentSkills,
    ClaudeCode,
    /// OpenAI's Codex, reading `.agents/skills/` (and VS Code, which reads
    /// that folder too and applies no rule of its own).
    Codex,
    Copilot,
    Cursor,
    Cline,
    OpenCode,
    /// Google's Gemini CLI: its commands, extensions and `GEMINI.md`.
    Gemini,
    Kiro,
}

/// Why a specification rule is an error where the specification is the host.
const SPECIFICATION: &str = "the Agent Skills specification requires it";

/// The lengths Claude Code and VS Code do not apply, and the Copilot CLI does.
const LOADED_BUT_COPILOT_CLI_SKIPS: &str = "Claude Code and VS Code load this skill, but the \
    Copilot CLI (1.0.102, which reads `.github/skills/`, `.claude/skills/` and `.agents/skills/`) \
    and Codex skip a skill whose name is over 64 characters or whose description is over 1,024";

/// A collection of Agent Skills at a repository's top is loaded by no host
/// in place: the assistants' installers copy its skills (`npx skills add`,
/// a marketplace entry, Codex's skill installer), and what the hosts then
/// refuse is a likely mistake.
const COLLECTION_SKIPPED: &str = "the Agent Skills specification limits it, and Codex skips a \
    skill whose name is over 64 characters or whose description is over 1,024 once installed";

/// What the hosts a collection is installed into load all the same.
const COLLECTION_LOADED: &str = "Claude Code and Codex load this skill once installed, but it \
    is not portable: the Agent Skills specification, its `skills-ref` validator and \
    Anthropic's skill upload refuse it";

/// How a rule counts under a host: the host refuses or drops the file (an
/// error), the file is likely a mistake (a warning), or the host loads it
/// all the same and the rule is one of portability (a warning in the opt-in
/// `pedantic` group).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Pedantic,
}

impl Level {
    /// `diagnostic` at this level.
    pub fn apply(self, diagnostic: Diagnostic) -> Diagnostic {
        match self {
            Level::Error => diagnostic.with_severity(Severity::Error),
            Level::Warning => diagnostic.with_severity(Severity::Warning),
            Level::Pedantic => diagnostic.with_severity(Severity::Warning).pedantic(),
        }
    }
}

/// For a host agentc reads no skills under.
const NO_SKILLS: &str = "the Agent Skills specification asks for it";

/// The Agent Skills specification's rules, which hosts apply differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecRule {
    /// The name's characters: lowercase letters, digits, single hyphens.
    Name,
    /// The name at most 64 characters.
    NameLength,
    /// The name equal to the folder's.
    Folder,
    /// The description at most 1,024 characters.
    DescriptionLength,
    /// `compatibility` at most 500 characters.
    CompatibilityLength,
    /// `metadata` maps keys to strings.
    Metadata,
}

impl Host {
    /// The host whose loader decides what happens to a file of `dialect`.
    pub const fn of(dialect: Dialect) -> Host {
        match dialect {
            Dialect::Runbook => Host::Agentc,
            Dialect::AgentSkill => Host::AgentSkills,
            Dialect::ClaudeSkill
            | Dialect::ClaudeSubagent
            | Dialect::ClaudeCommand
            | Dialect::ClaudePlugin
            | Dialect::ClaudeMarketplace
            | Dialect::ClaudeHooks
            | Dialect::ClaudeSettings
            | Dialect::McpJson => Host::ClaudeCode,
            Dialect::ClaudeMd => Host::ClaudeCode,
            // Codex introduced `AGENTS.md`; it reads it with no syntax of its own.
            Dialect::CodexSkill | Dialect::CodexMetadata | Dialect::AgentsMd => Host::Codex,
            Dialect::CopilotSkill
            | Dialect::CopilotAgent
            | Dialect::VscodeMcp
            | Dialect::CopilotPrompt
            | Dialect::CopilotInstructions
            | Dialect::CopilotRepoInstructions
            | Dialect::CopilotHooks
            | Dialect::CopilotSetupSteps => Host::Copilot,
            Dialect::CursorRule
            | Dialect::CursorHooks
            | Dialect::CursorEnvironment
            | Dialect::CursorCli
            | Dialect::CursorAgent => Host::Cursor,
            Dialect::ClineRule => Host::Cline,
            Dialect::OpencodeAgent | Dialect::OpencodeCommand | Dialect::OpencodeConfig => {
                Host::OpenCode
            }
            Dialect::GeminiCommand
            | Dialect::GeminiExtension
            | Dialect::GeminiMd
            | Dialect::GeminiSettings
            | Dialect::GeminiAgent
            | Dialect::GeminiHooks => Host::Gemini,
            Dialect::KiroSteering => Host::Kiro,
            Dialect::ClaudeRule | Dialect::ClaudeOutputStyle => Host::ClaudeCode,
            Dialect::CodexConfig
            | Dialect::CodexHooks
            | Dialect::CodexAgent
            | Dialect::CodexPlugin => Host::Codex,
        }
    }

    /// How the host reads frontmatter that strict YAML refuses; `None` for
    /// agentc's own formats and Codex's `serde_yaml`, which stay strict.
    pub const fn reader(self) -> Option<Reader> {
        match self {
            Host::Agentc | Host::Codex => None,
            Host::ClaudeCode => Some(Reader::ClaudeCode),
            Host::OpenCode => Some(Reader::OpenCode),
            Host::Cursor => Some(Reader::Cursor),
            // The JavaScript hosts: js-yaml (Cline),
            // and whatever Kiro uses, which it does not publish.
            Host::AgentSkills | Host::Copilot | Host::Cline | Host::Gemini | Host::Kiro => {
                Some(Reader::Hosts)
            }
        }
    }

    /// How an Agent Skills rule counts under the host: an error where the
    /// specification is the host or the host skips the skill, pedantic
    /// where the host loads it anyway, with the words that say so.
    pub const fn spec_rule(self, rule: SpecRule) -> (Level, &'static str) {
        match self {
            // The Copilot CLI reads `.claude/skills/` and `.agents/skills/`
            // too, and skips a skill over the limits (1.0.102).
            Host::ClaudeCode | Host::Copilot
                if matches!(rule, SpecRule::NameLength | SpecRule::DescriptionLength) =>
            {
                (Level::Warning, LOADED_BUT_COPILOT_CLI_SKIPS)
            }
            Host::ClaudeCode => (Level::Pedantic, claude_code::LOADS_UNPORTABLE_SKILLS),
            Host::Copilot => (Level::Pedantic, copilot::LOADS_UNPORTABLE_SKILLS),
            Host::Codex => codex::spec_rule(rule),
            Host::Agentc => (Level::Error, SPECIFICATION),
            Host::AgentSkills => match rule {
                SpecRule::NameLength | SpecRule::DescriptionLength => {
                    (Level::Warning, COLLECTION_SKIPPED)
                }
                SpecRule::Name
                | SpecRule::Folder
                | SpecRule::CompatibilityLength
                | SpecRule::Metadata => (Level::Pedantic, COLLECTION_LOADED),
            },
            // These hosts read no `SKILL.md` agentc checks under them.
            Host::Cursor | Host::Cline | Host::OpenCode | Host::Gemini | Host::Kiro => {
                (Level::Pedantic, NO_SKILLS)
            }
        }
    }

    /// Whether `who`, from [`Host::spec_rule`], says the specification is
    /// the host (no host of its own to name).
    pub fn spec_is_the_host(who: &str) -> bool {
        who == SPECIFICATION
    }
}

/// `diagnostic`, about a tool `name` (written at the start of `entry`) that
/// is not in a host's `catalogue`, with its help: "did you mean" and `near`
/// when a name is close, and the fix only when the near miss is confident
/// (one edit or a difference of case, and unique); `none` when nothing is.
fn near_miss(
    diagnostic: Diagnostic,
    file: &RelPath,
    entry: &Spanned<String>,
    name: &str,
    catalogue: &[&str],
    near: &str,
    none: &str,
) -> Diagnostic {
    let Some(close) = did_you_mean(name, catalogue.iter().copied()) else {
        return diagnostic.with_help(none);
    };
    let diagnostic = diagnostic.with_help(format!("did you mean `{close}`? {near}"));
    match confident(name, catalogue.iter().copied()) {
        Some(fix) => diagnostic.with_fix(
            format!("replace `{name}` with `{fix}`"),
            file,
            entry.verbatim(0..name.len()),
            fix,
        ),
        None => diagnostic,
    }
}

/// One glob of a rule file, where it is written.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub text: String,
    pub span: Span,
}

/// The globs of a value: a string's (split at commas outside braces when
/// `commas`, as Cursor writes `globs`), or each string of a list.
pub fn patterns(node: &Node, commas: bool) -> Vec<Pattern> {
    match &node.value {
        Value::Str(text) if commas => comma_pieces(text)
            .into_iter()
            .map(|(from, to)| Pattern {
                text: text[from..to].to_owned(),
                span: match node.text_at {
                    Some(at) => Span::new(at + from, at + to),
                    None => node.span,
                },
            })
            .collect(),
        Value::Str(text) => vec![Pattern { text: text.clone(), span: string_span(node, text) }],
        Value::Seq(items) => items
            .iter()
            .filter_map(|item| match &item.value {
                Value::Str(text) => {
                    Some(Pattern { text: text.clone(), span: string_span(item, text) })
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Where a string's characters are, or the whole value when they are not
/// verbatim in the file.
pub fn string_span(node: &Node, text: &str) -> Span {
    match node.text_at {
        Some(at) => Span::new(at, at + text.len()),
        None => node.span,
    }
}

/// The byte ranges of the pieces of `text` between commas outside `{…}`,
/// as written: blanks kept, empty pieces too (VS Code's `applyTo` and the
/// hosts' comma-separated globs split so).
pub fn comma_split(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push(start..i);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(start..text.len());
    pieces
}

/// The byte ranges of the pieces of `text` between commas outside `{…}`,
/// blanks trimmed, empty pieces left out.
pub fn comma_pieces(text: &str) -> Vec<(usize, usize)> {
    comma_split(text)
        .into_iter()
        .filter_map(|range| {
            let piece = &text[range.clone()];
            let lead = piece.len() - piece.trim_start().len();
            let trimmed = piece.trim();
            let at = range.start + lead;
            (!trimmed.is_empty()).then_some((at, at + trimmed.len()))
        })
        .collect()
}

/// The globs that match no file of the repository (`files`), one warning
/// a rule: `host` never applies the rule through them. Globs are read generously — a
/// `*` may cross folders and a pattern may name a folder — so a glob any
/// host's matcher could apply is never reported. A glob agentc cannot read
/// is a warning of its own, since what it matches is not known.
pub fn unmatched_globs(
    source: &Source,
    patterns: &[Pattern],
    files: &RepoFiles,
    host: &str,
    out: &mut Vec<Diagnostic>,
) {
    let generous = |b: &mut globset::GlobBuilder| {
        b.literal_separator(false);
    };
    let mut unmatched = Vec::new();
    for pattern in patterns {
        let text = pattern.text.trim();
        let text = text.trim_start_matches("./").trim_start_matches('/');
        if text.is_empty() {
            continue;
        }
        let glob = match repo_files::compile(text, generous) {
            Ok(glob) => glob,
            Err(err) => {
                out.push(
                    Diagnostic::at(Code::InvalidValue, &source.path, pattern.span, repo_files::unreadable(text, &err))
                        .with_severity(Severity::Warning)
                        .with_help(format!(
                            "agentc cannot tell which files the glob matches, so it is not checked \
                             against the repository; {host} globs use `*`, `**`, `?`, `{{a,b}}` and `[...]`"
                        )),
                );
                continue;
            }
        };
        // Every path the glob matches starts with what comes before its
        // first special character.
        let literal = &text[..text.find(['*', '?', '[', '{', '\\']).unwrap_or(text.len())];
        let mut any = files.any_match(literal, &glob);
        if any == Some(false) {
            let folder = format!("{}/**", text.trim_end_matches('/'));
            any = match repo_files::compile(&folder, generous) {
                Ok(folder) => files.any_match(literal, &folder),
                // Only a glob at the length bound: what the folder reading
                // matches is not known.
                Err(_) => None,
            };
        }
        if any.is_none() && files.stopped() {
            out.push(repo_files::stopped_here(source, pattern.span));
        }
        if any == Some(false) {
            unmatched.push(pattern);
        }
    }
    // One warning a rule: a collection of rules kept for other projects
    // matches nothing here, and a glob a line would bury the rest.
    let Some((first, rest)) = unmatched.split_first() else {
        return;
    };
    let message = match rest.len() {
        0 => format!("the glob `{}` matches no file in the repository", first.text),
        n => format!(
            "the glob `{}` and {n} other{} of this rule match no file in the repository",
            first.text,
            if n == 1 { "" } else { "s" }
        ),
    };
    let mut diagnostic = Diagnostic::at(Code::UnmatchedGlob, &source.path, first.span, message)
        .with_help(format!(
            "{host} applies the rule only to files its globs match; correct the pattern \
             (paths are relative to the repository's top, `**/` matches any folder)"
        ));
    for pattern in rest {
        diagnostic = diagnostic.with_label(
            &source.path,
            Some(pattern.span),
            format!("`{}` matches no file either", pattern.text),
        );
    }
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use super::comma_pieces;

    #[test]
    fn commas_split_outside_braces() {
        let text = "src/**/*.ts, web/**/*.{ts,tsx} ,, ";
        let pieces: Vec<&str> = comma_pieces(text).iter().map(|(a, b)| &text[*a..*b]).collect();
        assert_eq!(pieces, ["src/**/*.ts", "web/**/*.{ts,tsx}"]);
        assert!(comma_pieces("  ").is_empty());
    }
}
