//! What a compile is asked to do: the root, the workspace, the registry and the
//! scopes switched off.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;

pub use agentc_schema::LintLevel;

use crate::catalog::{Code, Severity};
use crate::diagnostic::{Diagnostic, Origin, RelPath};
use crate::overrides::{Locator, Overrides};
pub use crate::source::ContentRules;

/// The default bound on a file's size: 16 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// A scope a user can switch off with `--exclude`, to resolve a collision deliberately.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    SystemPrompt,
    AgentPrompt,
    RepoPrompt,
    GlobalSkills,
    AgentSkills,
    RepoSkills,
    GlobalTools,
    AgentTools,
    RepoTools,
}

impl Scope {
    pub const ALL: [Scope; 9] = [
        Scope::SystemPrompt,
        Scope::AgentPrompt,
        Scope::RepoPrompt,
        Scope::GlobalSkills,
        Scope::AgentSkills,
        Scope::RepoSkills,
        Scope::GlobalTools,
        Scope::AgentTools,
        Scope::RepoTools,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::SystemPrompt => "system-prompt",
            Scope::AgentPrompt => "agent-prompt",
            Scope::RepoPrompt => "repo-prompt",
            Scope::GlobalSkills => "global-skills",
            Scope::AgentSkills => "agent-skills",
            Scope::RepoSkills => "repo-skills",
            Scope::GlobalTools => "global-tools",
            Scope::AgentTools => "agent-tools",
            Scope::RepoTools => "repo-tools",
        }
    }

    pub const fn describe(self) -> &'static str {
        match self {
            Scope::SystemPrompt => "the root's SYSTEM.md",
            Scope::AgentPrompt => {
                "each agent's own prompt (AGENT.md body and instructions; entry points, workflows/, knowledge/)"
            }
            Scope::RepoPrompt => "the workspace's AGENTS.md",
            Scope::GlobalSkills => {
                "the root's skills/, flat <skill>/SKILL.md folders and a root SKILL.md"
            }
            Scope::AgentSkills => "agents' private skills/",
            Scope::RepoSkills => "the workspace's .agents/skills/",
            Scope::GlobalTools => "the root's tools/",
            Scope::AgentTools => "agents' private tools/",
            Scope::RepoTools => "the workspace's .agents/tools/",
        }
    }

    /// Parses one scope name.
    pub fn parse(name: &str) -> Result<Scope, UnknownScope> {
        Scope::ALL
            .into_iter()
            .find(|s| s.as_str() == name)
            .ok_or_else(|| UnknownScope(name.to_owned()))
    }

    /// Parses a comma-separated list (`--exclude a,b`).
    pub fn parse_list(list: &str) -> Result<Vec<Scope>, UnknownScope> {
        list.split(',').map(|s| Scope::parse(s.trim())).collect()
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name given to `--exclude` that is not a scope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownScope(pub String);

impl fmt::Display for UnknownScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> = Scope::ALL.iter().map(|s| s.as_str()).collect();
        write!(f, "`{}` is not a scope; the scopes are: {}", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownScope {}

/// A layout agentc knows, for `--verbose` and `--layout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LayoutKind {
    /// agentc's own: agents, runbook skills, tools, prompts.
    Agentc,
    /// Skill collections: `.agents/skills/` at the top of a project; alone
    /// (without `agentc`), `skills/` and `.agents/skills/` read by the Agent
    /// Skills specification rather than as runbooks.
    AgentSkills,
    /// `.claude/skills`, `.claude/agents`, `.claude/commands`.
    Claude,
    /// Folders holding `.claude-plugin/plugin.json`.
    ClaudePlugins,
    /// `.github/agents`, `.github/chatmodes`, and VS Code's prompt,
    /// instructions and MCP files.
    Copilot,
    /// The memory files: `AGENTS.md`, `CLAUDE.md`, `GEMINI.md` in any folder.
    Memory,
    /// `.cursor/rules/`.
    Cursor,
    /// `.clinerules`.
    Cline,
    /// `.opencode/`, `opencode.json`.
    Opencode,
    /// `.gemini/commands/`, `gemini-extension.json`.
    Gemini,
    /// `.kiro/steering/`.
    Kiro,
    /// `.codex/config.toml`, `.codex/hooks.json`, `.codex/agents/`.
    Codex,
}

impl LayoutKind {
    pub const ALL: [LayoutKind; 12] = [
        LayoutKind::Agentc,
        LayoutKind::AgentSkills,
        LayoutKind::Claude,
        LayoutKind::ClaudePlugins,
        LayoutKind::Copilot,
        LayoutKind::Memory,
        LayoutKind::Cursor,
        LayoutKind::Cline,
        LayoutKind::Opencode,
        LayoutKind::Gemini,
        LayoutKind::Kiro,
        LayoutKind::Codex,
    ];

    /// The name used by `--layout`.
    pub const fn name(self) -> &'static str {
        match self {
            LayoutKind::Agentc => "agentc",
            LayoutKind::AgentSkills => "agent-skills",
            LayoutKind::Claude => "claude",
            LayoutKind::ClaudePlugins => "claude-plugins",
            LayoutKind::Copilot => "copilot",
            LayoutKind::Memory => "memory",
            LayoutKind::Cursor => "cursor",
            LayoutKind::Cline => "cline",
            LayoutKind::Opencode => "opencode",
            LayoutKind::Gemini => "gemini",
            LayoutKind::Kiro => "kiro",
            LayoutKind::Codex => "codex",
        }
    }

    pub fn parse(name: &str) -> Option<LayoutKind> {
        LayoutKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Everything a compile needs to know.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The agents directory.
    pub root: PathBuf,
    /// The repository root contributing `AGENTS.md` and `.agents/`.
    pub workspace: Option<PathBuf>,
    /// The host's registry file (JSON or YAML).
    pub registry: Option<PathBuf>,
    pub exclude: BTreeSet<Scope>,
    pub max_file_size: u64,
    /// Tool names the host implements, declared in code rather than in a
    /// registry file (the macro's `tools = [...]`, the build API's `.tools()`).
    pub host_tools: Vec<String>,
    /// The layouts to read (`--layout`); empty reads every layout agentc knows.
    pub layouts: BTreeSet<LayoutKind>,
    /// The level set for a code (`[lints]` in `agentc.toml`); a code not
    /// here keeps the severity its check gave it.
    pub lints: BTreeMap<Code, LintLevel>,
    /// The level of the `pedantic` group (`[lints] pedantic`): allowed by
    /// default, so what the hosts tolerate is not reported.
    pub pedantic: LintLevel,
    /// Levels for some paths only (`[[overrides]]` in `agentc.toml`), over
    /// `lints`: the last table matching a file that names a code wins.
    pub overrides: Option<Overrides>,
    /// Report only on what is at or under this path (relative to the root,
    /// `/`-separated): a part of a repository checked as its top sees it
    /// (`agentc check .claude/skills/deploy`).
    pub only: Option<String>,
    /// Where the compile was asked for: a help names the setting to change
    /// as it is written there (`--exclude` on the command line, `exclude =
    /// [...]` in the macro).
    pub door: Door,
    /// Whether to note every name that refers to a skill or tool
    /// ([`crate::resolve::Names::refs`]), what an editor navigates and
    /// renames by. The command line's checks never read them: at 10,000
    /// skills they are 91,000 references and 12 MB it need not hold.
    pub references: bool,
}

/// Where a compile was asked for, so a diagnostic's help names what the user
/// writes there rather than another door's spelling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Door {
    /// `agentc check`, `agentc lock`, the language server: command-line flags.
    #[default]
    CommandLine,
    /// The `agents!` macro: its arguments.
    Macro,
    /// `build::Config` in a build script: its methods.
    BuildScript,
}

impl Door {
    /// How to switch the scope `scope` off here.
    pub fn exclude(self, scope: &str) -> String {
        match self {
            Door::CommandLine => format!("`--exclude {scope}`"),
            Door::Macro => format!("`exclude = [\"{scope}\"]`"),
            Door::BuildScript => format!("`.exclude(\"{scope}\")` on the build script's `Config`"),
        }
    }

    /// The registry file, as it is named here.
    pub const fn registry(self) -> &'static str {
        match self {
            Door::CommandLine => "the --registry file",
            Door::Macro => "the macro's `registry = \"...\"` file",
            Door::BuildScript => "the build script's `Config::registry` file",
        }
    }

    /// Where the tools the host implements in code are named here.
    pub const fn host_tools(self) -> &'static str {
        match self {
            Door::CommandLine => "the registry",
            Door::Macro => "the macro's `registry = \"...\"` file or its `tools = [...]`",
            Door::BuildScript => "the build script's `Config::registry` file or `.tool(…)`",
        }
    }
}

impl Options {
    pub fn new(root: impl Into<PathBuf>) -> Options {
        Options {
            root: root.into(),
            workspace: None,
            registry: None,
            exclude: BTreeSet::new(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            host_tools: Vec::new(),
            layouts: BTreeSet::new(),
            lints: BTreeMap::new(),
            pedantic: LintLevel::Allow,
            overrides: None,
            only: None,
            door: Door::CommandLine,
            references: true,
        }
    }

    /// Where this compile's files are from the folder of `overrides`.
    fn locator<'o>(&self, overrides: &'o Overrides) -> Locator<'o> {
        overrides.locator(&self.root, self.workspace.as_deref())
    }

    /// Adds to a compile's `diagnostics` (sorted) the warnings of the
    /// `[[overrides]]` globs that match none of `files`, at their levels.
    pub fn add_unmatched_overrides<'a>(
        &self,
        diagnostics: &mut Vec<Diagnostic>,
        files: impl Iterator<Item = &'a RelPath>,
    ) {
        let Some(overrides) = &self.overrides else {
            return;
        };
        let mut unmatched = overrides.unmatched(&self.locator(overrides), files);
        self.apply_lints(&mut unmatched);
        if !unmatched.is_empty() {
            diagnostics.append(&mut unmatched);
            crate::diagnostic::sort(diagnostics);
        }
    }

    /// Applies the `[lints]` levels to every diagnostic of a compile: the
    /// one place they are applied, after every check has reported, so no
    /// check needs to know about them.
    pub fn apply_lints(&self, diagnostics: &mut Vec<Diagnostic>) {
        if let Some(only) = &self.only {
            diagnostics.retain(|d| is_under(&d.location.file, only));
        }
        let overrides = self.overrides.as_ref().map(|o| (o, self.locator(o)));
        // A code's own level wins over its group's; a table of
        // `[[overrides]]` matching the file wins over `[lints]`.
        diagnostics.retain_mut(|diagnostic| {
            let mut level = match self.lints.get(&diagnostic.code) {
                Some(level) => Some(*level),
                None if diagnostic.pedantic => Some(self.pedantic),
                None => None,
            };
            if let Some((overrides, locator)) = &overrides
                && let Some(path) = locator.path(&diagnostic.location.file)
                && let Some(set) = overrides.level(&path, diagnostic)
            {
                level = Some(set);
            }
            match level {
                None => true,
                Some(LintLevel::Allow) => false,
                Some(LintLevel::Warn) => {
                    diagnostic.severity = Severity::Warning;
                    true
                }
                Some(LintLevel::Deny) => {
                    diagnostic.severity = Severity::Error;
                    true
                }
            }
        });
    }

    /// The content rules this compile runs: every one but those `[lints]`
    /// allows (and no table of `[[overrides]]` reports), which are not run
    /// at all rather than run and filtered.
    pub fn content_rules(&self) -> ContentRules {
        let runs = |code| {
            self.lints.get(&code) != Some(&LintLevel::Allow)
                || self.overrides.as_ref().is_some_and(|o| o.reports(code))
        };
        ContentRules {
            secret: runs(Code::Secret),
            hidden_character: runs(Code::HiddenCharacter),
            unclosed_markup: runs(Code::UnclosedMarkup),
            hidden_instruction: runs(Code::HiddenInstruction),
        }
    }

    pub fn excludes(&self, scope: Scope) -> bool {
        self.exclude.contains(&scope)
    }
}

/// Whether `file` is `only` or under it (both relative to the root).
pub fn is_under(file: &RelPath, only: &str) -> bool {
    let path = file.path.trim_end_matches('/');
    file.origin == Origin::Root
        && path
            .strip_prefix(only.trim_end_matches('/'))
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}
