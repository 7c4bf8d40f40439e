//! Every diagnostic code agentc can emit, with its severity and its explanation.
//!
//! The list below is the one place a code is declared. Each code's long
//! explanation (what it means, a failing example, the fix) lives in
//! `compiler/explain/<code>.md` and is compiled in, so `agentc explain` and the
//! table in docs/compiler.md read the same text.

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

macro_rules! catalog {
    ($( $variant:ident = $code:literal, $severity:ident, $summary:literal; )*) => {
        /// A stable diagnostic code (`unknown-tool`, …).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $( $variant, )*
        }

        impl Code {
            /// Every code, in catalog order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The kebab-case code users see.
            pub const fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $code, )* }
            }

            /// The severity the code has unless the check says otherwise.
            pub const fn default_severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$severity, )* }
            }

            /// One line: what the code means.
            pub const fn summary(self) -> &'static str {
                match self { $( Code::$variant => $summary, )* }
            }

            /// The long explanation, in Markdown.
            pub const fn explanation(self) -> &'static str {
                match self {
                    $( Code::$variant => include_str!(concat!("../explain/", $code, ".md")), )*
                }
            }
        }
    };
}

catalog! {
    CannotRun = "cannot-run", Error, "agentc could not run (exit 2): a bad argument, a missing root, a broken project or registry file";
    IoError = "io-error", Error, "a file or folder could not be read";
    SpecialFile = "special-file", Error, "a FIFO, socket or device where a file or folder belongs";
    SymlinkLoop = "symlink-loop", Error, "a symbolic link that leads back to itself";
    NotUtf8 = "not-utf8", Error, "a text file is not valid UTF-8";
    FileTooLarge = "file-too-large", Error, "a file exceeds the size bound (`--max-file-size`)";
    BadFrontmatter = "bad-frontmatter", Error, "missing, misplaced or unterminated `---` block";
    YamlSyntax = "yaml-syntax", Error, "the frontmatter is not valid YAML";
    JsonSyntax = "json-syntax", Error, "a JSON file is not valid JSON";
    TomlSyntax = "toml-syntax", Error, "a TOML file (`agentc.toml`, a Gemini CLI command) is not valid TOML";
    DuplicateKey = "duplicate-key", Error, "a key appears twice in one mapping";
    UnknownField = "unknown-field", Error, "a field the schema does not know (an error in JSON files, a warning in frontmatter)";
    MissingField = "missing-field", Error, "a required field is absent";
    InvalidValue = "invalid-value", Error, "wrong type, enum value, range, or format (e.g. semver)";
    BadName = "bad-name", Error, "a name breaks the naming rule";
    NameMismatch = "name-mismatch", Warning, "a declared name differs from the folder name (an error where the Agent Skills specification is the host)";
    EmptyBody = "empty-body", Error, "a SKILL.md has no body";
    AmbiguousAgent = "ambiguous-agent", Error, "a folder holds both AGENT.md and agent.json";
    ReservedName = "reserved-name", Error, "an agent folder, or a Claude Code MCP server, uses a reserved name";
    EmptyRoot = "empty-root", Error, "the root holds no agent, skill or layout agentc knows";
    StrayEntry = "stray-entry", Warning, "a folder or file the layout does not explain (its contents are not read)";
    MissingEntryPoint = "missing-entry-point", Error, "an entry point file is absent or empty";
    BadEntryPoint = "bad-entry-point", Error, "an entry point is not a Markdown file at the agent's root";
    RequiredEntryPoint = "required-entry-point", Error, "`entry_points` lacks `system.md`, `boundaries.md` or `conventions.md`";
    PathEscape = "path-escape", Error, "a symlink leads outside the root or workspace";
    UnknownTool = "unknown-tool", Error, "a tool name not in the registry, or not a tool of the host (a warning for Copilot)";
    UnknownSkill = "unknown-skill", Error, "an agent or subagent activates a skill that does not exist";
    UnknownRouteTarget = "unknown-route-target", Error, "a route to a skill, or a Copilot handoff to an agent, that does not exist or is not visible (a warning for a prompt file's agent)";
    BadGuard = "bad-guard", Error, "a route guard outside the grammar";
    BadStatus = "bad-status", Error, "a guard status outside the allowed set";
    GuardToolUndeclared = "guard-tool-undeclared", Error, "a guard names a tool the skill does not declare";
    StepToolUndeclared = "step-tool-undeclared", Error, "a step names a tool the skill does not declare";
    StepsWithoutTools = "steps-without-tools", Error, "`steps` in a skill with no `tools`";
    BadOnSkip = "bad-on-skip", Error, "`onSkip` outside `advance`/`hold`, or without steps";
    DuplicateRoute = "duplicate-route", Error, "a skill routes to the same target twice";
    DuplicateName = "duplicate-name", Error, "two definitions of one kind share a name in one scope";
    NameShadow = "name-shadow", Error, "a name defined in two scopes that are visible together";
    SkillDrift = "skill-drift", Warning, "copies of one skill in two assistants' folders differ";
    ToolConflict = "tool-conflict", Error, "a tool both allowed and disallowed, or a skill needs a disallowed tool";
    BadModel = "bad-model", Error, "a model string not of the form `<provider>/<model>` (in Claude Code files: not an alias or a model id)";
    UnknownModel = "unknown-model", Error, "a model the registry does not list";
    UnknownContext = "unknown-context", Error, "a context provider the registry does not declare";
    SkillToolInactive = "skill-tool-inactive", Error, "a skill an agent activates needs a tool that is not active in the agent";
    UnreachableSkill = "unreachable-skill", Warning, "a skill an agent activates that no route reaches from the agent's runbook start";
    StartRoutesNowhere = "start-routes-nowhere", Warning, "an agent's runbook start routes to none of the agent's other skills";
    RoutesNeverFire = "routes-never-fire", Error, "every route out of a skill waits on a tool its agent cannot use";
    RouteCycle = "route-cycle", Warning, "skills that route to each other with no guard, so a runbook can loop forever";
    BrokenLink = "broken-link", Error, "a relative link or image in a body names a file that does not exist";
    Deprecated = "deprecated", Warning, "a field or tool name its host has retired or renamed";
    YamlCompat = "yaml-compat", Warning, "YAML that strict YAML 1.2 refuses but the host's parser reads";
    UnknownHookEvent = "unknown-hook-event", Warning, "hooks under an event their host (Claude Code, the Copilot CLI, Codex, …) does not have (an error for a near miss)";
    MissingPath = "missing-path", Error, "a plugin component path, marketplace plugin source or hook script that is not there";
    UnknownMcpServer = "unknown-mcp-server", Warning, "a subagent names an MCP server no configuration defines (an error for a near miss)";
    ImportChain = "import-chain", Warning, "a CLAUDE.md or GEMINI.md `@` import that leads back to a file already imported, or deeper than the host's five hops";
    ContextBudget = "context-budget", Warning, "more text than a host reads into the model's context: a listing over its budget, a description the host cuts, a memory file it warns about";
    UnclosedMarkup = "unclosed-markup", Warning, "a code fence or an XML-style tag a Markdown body opens and never closes, which changes what the model reads";
    UnmatchedGlob = "unmatched-glob", Warning, "a file pattern (Copilot `applyTo`, Cursor `globs`, Cline `paths`, Kiro `fileMatchPattern`) that matches no file in the repository, so what it guards never applies";
    HiddenCharacter = "hidden-character", Error, "Unicode a reviewer cannot see in an agent file: tag characters or a bidirectional control (an error), a zero-width or other invisible character (a warning)";
    Secret = "secret", Error, "a private key or a token of a known format committed in an agent file (gitleaks' rules); never shown";
    HiddenInstruction = "hidden-instruction", Warning, "an HTML comment in a Markdown file a host gives the model tells it to set its instructions aside, keep something from the user, reveal its prompt or fetch and run code";
    PipeToShell = "pipe-to-shell", Warning, "a hook, MCP server command or skill script that downloads code and runs it unseen (`curl` piped into `sh`)";
}

impl Code {
    /// Looks a code up by its kebab-case name.
    pub fn parse(name: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The table of codes in docs/compiler.md, generated from this catalog.
pub fn markdown_table() -> String {
    let mut out = String::from("| code | severity | meaning |\n|---|---|---|\n");
    for code in Code::ALL {
        let severity = match code {
            Code::UnknownField => "error in JSON, warning in frontmatter",
            Code::HiddenCharacter => {
                "error for tags and bidi controls, warning for invisible characters"
            }
            _ => code.default_severity().as_str(),
        };
        out.push_str(&format!("| `{}` | {severity} | {} |\n", code.as_str(), code.summary()));
    }
    out
}

impl Code {
    /// How to change the code's level: the section `agentc explain` ends
    /// with, in Markdown.
    pub fn level_help(self) -> String {
        let code = self.as_str();
        if self == Code::CannotRun {
            let text = format!(
                "`{code}` is not a finding of a check but agentc stopping: no level in \
                 `agentc.toml` changes it."
            );
            return format!("\n## Changing its level\n\n{}\n", wrap(&text));
        }
        let (default, other) = match self.default_severity() {
            Severity::Error => ("an error", "warn"),
            Severity::Warning => ("a warning", "deny"),
        };
        let levels = format!(
            "`{code}` is {default} unless its check says otherwise. Set its level for the whole \
             project under `[lints]` in `agentc.toml` (`allow` hides it, `warn` and `deny` make \
             it a warning or an error), or for some paths only with `[[overrides]]`: globs \
             relative to the folder holding `agentc.toml`, the last table that matches a file \
             and names the code winning."
        );
        let baseline = "To fail only on new problems where there are many today, record them \
                        with `agentc check --write-baseline agentc-baseline.json`, then check \
                        with `agentc check --baseline agentc-baseline.json`.";
        format!(
            "\n## Changing its level\n\n{}\n\n\
             ```toml\n\
             [lints]\n\
             {code} = \"{other}\"\n\n\
             [[overrides]]\n\
             paths = [\".claude/skills/legacy/**\"]\n\
             lints = {{ {code} = \"allow\" }}\n\
             ```\n\n{}\n",
            wrap(&levels),
            wrap(baseline)
        )
    }
}

/// `text` broken into lines of at most 96 characters, between words.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ') {
        if line > 0 && line + 1 + word.chars().count() > 96 {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.chars().count();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_explanation_has_its_sections() {
        for code in Code::ALL {
            let text = code.explanation();
            assert!(text.starts_with(&format!("# {}\n", code.as_str())), "{code}: title");
            let example =
                text.find("\n## Example\n").unwrap_or_else(|| panic!("{code}: no example"));
            let fix = text.find("\n## Fix\n").unwrap_or_else(|| panic!("{code}: no fix"));
            assert!(example < fix, "{code}: the fix comes before the example");
            assert!(text.contains("```"), "{code}: no code block");
        }
    }

    #[test]
    fn codes_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let name = code.as_str();
            assert!(seen.insert(name), "{name} twice");
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{name}"
            );
            assert_eq!(Code::parse(name), Some(*code));
        }
    }
}
