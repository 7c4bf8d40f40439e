//! Claude Code's project settings: permission rules are written in the
//! grammar of a subagent's `tools` (`Read`, `Bash(npm run test:*)`,
//! `mcp__github__get_issue`) and checked against the same catalogue; a rule
//! Claude Code's validator refuses is one it skips, loading the rest; and
//! every other key's value has the shape Claude Code takes
//! ([`super::settings_keys`]).

use agentc_schema::settings::Permissions;
use agentc_schema::{Span, Spanned, ToolRules};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::tree::{Entry, Node, Value};
use crate::source::Source;

/// The permission modes Claude Code's `defaultMode` takes.
pub const PERMISSION_MODES: &[&str] =
    &["default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"];

/// Every rule of `allow`, `ask` and `deny`, and `defaultMode`.
pub fn permissions(source: &Source, permissions: &Permissions, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    let lists =
        [("allow", &permissions.allow), ("ask", &permissions.ask), ("deny", &permissions.deny)];
    let mut rules = Vec::new();
    for (list, rule) in
        lists.into_iter().flat_map(|(list, rules)| rules.iter().flatten().map(move |r| (list, r)))
    {
        if let Some((message, help)) = rule_problem(&rule.value, list) {
            let diagnostic = Diagnostic::at(Code::InvalidValue, file, rule.span, message)
                .with_severity(Severity::Warning)
                .with_help(format!(
                    "{help}; Claude Code 2.1.332 skips this rule and loads the rest"
                ));
            out.push(match rewritten(&rule.value) {
                Some(fixed) => diagnostic.with_fix(
                    format!("write `{fixed}`"),
                    file,
                    rule.verbatim(0..rule.value.len()),
                    fixed,
                ),
                None => diagnostic,
            });
            continue;
        }
        if let Some(diagnostic) = unconsulted(source, rule, list) {
            out.push(diagnostic);
            continue;
        }
        rules.push(rule.clone());
    }
    super::tools(source, &ToolRules(rules), out);
    if let Some(mode) = &permissions.default_mode {
        default_mode(source, mode, out);
    }
}

/// A refused rule rewritten as it was certainly meant, where it was: the
/// tool's capital, the space after `)`, empty parentheses, a URL's domain.
fn rewritten(rule: &str) -> Option<String> {
    let trimmed = rule.trim_end();
    if trimmed != rule && trimmed.ends_with(')') {
        return Some(trimmed.to_owned());
    }
    if let Some(tool) = rule.strip_suffix("()") {
        return Some(tool.to_owned());
    }
    if let Some(url) = rule.strip_prefix("WebFetch(").and_then(|r| r.strip_suffix(')'))
        && let Some((_, rest)) = url.split_once("://")
    {
        let host = rest.split(['/', ':', '?', '#']).next().unwrap_or(rest);
        return (!host.is_empty()).then(|| format!("WebFetch(domain:{host})"));
    }
    let mut chars = rule.chars();
    let first = chars.next()?;
    let tool = rule.split('(').next().unwrap_or(rule);
    (first.is_lowercase() && !tool.contains('_'))
        .then(|| first.to_uppercase().chain(chars).collect())
}

/// A path rule Claude Code's file permission checks never consult: they
/// match `Edit(path)` for every tool that edits files and `Read(path)` for
/// every tool that reads them, so `Write(docs/**)` in `deny` denies nothing
/// (Claude Code 2.1.332's validator: "is not matched by file permission
/// checks — only Edit(path) rules are").
fn unconsulted(source: &Source, rule: &Spanned<String>, list: &str) -> Option<Diagnostic> {
    let text = rule.value.as_str();
    let (tool, rest) = text.split_once('(')?;
    let meant = match tool {
        "Write" | "NotebookEdit" | "MultiEdit" => "Edit",
        "Glob" => "Read",
        _ => return None,
    };
    if rest.contains(":*") {
        return None;
    }
    let fixed = format!("{meant}({rest}");
    let effect = match list {
        "deny" => "denies nothing",
        "ask" => "asks about nothing",
        _ => "allows nothing",
    };
    Some(
        Diagnostic::at(
            Code::InvalidValue,
            &source.path,
            rule.span,
            format!("`{text}` {effect}: file permission checks consult only `{meant}(path)` rules"),
        )
        .with_severity(Severity::Warning)
        .with_help(format!(
            "`{meant}` rules cover every file-{} tool: write `{fixed}`",
            if meant == "Edit" { "editing" } else { "reading" }
        ))
        .with_fix(
            format!("write `{fixed}`"),
            &source.path,
            rule.verbatim(0..text.len()),
            fixed,
        ),
    )
}

/// The tools whose specifier is a path pattern (gitignore-style globs).
const PATH_TOOLS: &[&str] =
    &["Read", "Write", "Edit", "Glob", "NotebookRead", "NotebookEdit", "Cd"];

/// Why Claude Code's permission-rule validator refuses `rule` in `list`
/// (`allow`, `ask` or `deny`), and how to write it: the checks of its
/// validator as 2.1.332 runs them (`docs/research/claude-config.md` §4.2;
/// `cli/tests/hosts/settings.rs` holds them to the host).
fn rule_problem(rule: &str, list: &str) -> Option<(String, String)> {
    if rule.trim().is_empty() {
        return Some(("an empty permission rule".into(), "remove it".into()));
    }
    let (tool, content) = match rule.find('(') {
        Some(open) => {
            // Parentheses inside the specifier are literal: the rule need
            // only end at a closing one.
            let Some(inner) = rule[open + 1..].strip_suffix(')') else {
                return Some((
                    format!("the permission rule `{rule}` does not end at its closing `)`"),
                    "write `Tool` or `Tool(specifier)`, e.g. `Bash(npm run test:*)`, with \
                     nothing after the `)`"
                        .into(),
                ));
            };
            (&rule[..open], Some(inner))
        }
        None => (rule, None),
    };
    if content == Some("") {
        return Some((
            format!("the permission rule `{rule}` has empty parentheses"),
            format!("write `{tool}` alone, or a specifier inside the parentheses"),
        ));
    }
    if !tool.contains('_') && tool.starts_with(|c: char| c.is_lowercase()) {
        let mut upper = tool.chars();
        let fixed: String =
            upper.next().into_iter().flat_map(char::to_uppercase).chain(upper).collect();
        return Some((
            format!("the tool `{tool}` of a permission rule does not start with a capital"),
            format!("tool names start with a capital: write `{fixed}`"),
        ));
    }
    if let Some(mcp) = tool.strip_prefix("mcp__") {
        if content.is_some() {
            return Some((
                format!("the permission rule `{rule}` gives an MCP tool a specifier"),
                format!(
                    "MCP rules take no parentheses: write `{tool}`, or `mcp__<server>__*` for every tool of a server"
                ),
            ));
        }
        let literal_server = mcp.split_once("__").is_some_and(|(server, _)| !server.contains('*'));
        if list == "allow" && tool.contains('*') && !literal_server {
            return Some((
                format!("the allow rule `{rule}` has a wildcard in its server's name"),
                "an allow rule names the server it widens: write `mcp__<server>` or `mcp__<server>__*`".into(),
            ));
        }
        return None;
    }
    if list == "allow" && tool.contains('*') {
        return Some((
            format!("the allow rule `{rule}` has a wildcard in its tool's name"),
            "an allow rule names the tool it widens; wildcards in a tool's name are for `deny` and `ask`".into(),
        ));
    }
    let content = content?;
    match tool {
        "Bash" if content == ":*" => Some((
            format!("the permission rule `{rule}` has no command before `:*`"),
            "write the command prefix before `:*`, e.g. `Bash(npm run test:*)`, or `Bash` for every command".into(),
        )),
        _ if PATH_TOOLS.contains(&tool) && content.ends_with(":*") => Some((
            format!("the permission rule `{rule}` uses `:*`, which only `Bash` rules take"),
            "match paths with globs, e.g. `Read(./src/**)`".into(),
        )),
        "WebFetch" if !content.starts_with("domain:") => {
            let host = content.split("://").nth(1).unwrap_or(content);
            let host = host.split(['/', ':']).next().unwrap_or(host);
            Some((
                format!("the permission rule `{rule}` does not name a domain"),
                format!("WebFetch rules name a domain, not a URL: write `WebFetch(domain:{host})`"),
            ))
        }
        "WebSearch" if content.contains(['*', '?']) => Some((
            format!("the permission rule `{rule}` has a wildcard"),
            "WebSearch rules take exact search terms, without `*` or `?`".into(),
        )),
        _ => None,
    }
}

/// What Claude Code 2.1.332 takes as `default` in `defaultMode` ("'manual'
/// is accepted as an alias for 'default'", its settings schema).
const DEFAULT_ALIAS: &str = "manual";

fn default_mode(source: &Source, mode: &Spanned<agentc_schema::Text>, out: &mut Vec<Diagnostic>) {
    let text = mode.value.as_str();
    if PERMISSION_MODES.contains(&text) || text == DEFAULT_ALIAS {
        return;
    }
    let diagnostic = Diagnostic::at(
        Code::InvalidValue,
        &source.path,
        mode.span,
        format!("`{text}` is not a Claude Code permission mode"),
    );
    let entry = Spanned { value: text.to_owned(), span: mode.span, text_at: mode.text_at };
    out.push(super::super::near_miss(
        diagnostic,
        &source.path,
        &entry,
        text,
        PERMISSION_MODES,
        "modes are case-sensitive",
        "the modes are `default`, `acceptEdits`, `plan`, `auto`, `dontAsk` and \
         `bypassPermissions`",
    ));
}

/// The JSON kinds a setting's value may take, as bits.
pub const BOOL: u8 = 1;
pub const NUMBER: u8 = 2;
pub const STRING: u8 = 4;
pub const ARRAY: u8 = 8;
pub const OBJECT: u8 = 16;
pub const NULL: u8 = 32;
pub const ANY: u8 = 63;

/// The kinds, as a message says them ("a boolean or an object").
fn describe(kinds: u8) -> String {
    let names = [
        (BOOL, "a boolean"),
        (NUMBER, "a number"),
        (STRING, "a string"),
        (ARRAY, "a list"),
        (OBJECT, "an object"),
        (NULL, "null"),
    ];
    let held: Vec<&str> =
        names.iter().filter(|(kind, _)| kinds & kind != 0).map(|(_, name)| *name).collect();
    match held.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "left out".to_owned(),
    }
}

/// What Claude Code does with a setting whose value has the wrong shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The value fails the settings schema: the whole file is skipped, its
    /// permission rules and hooks with it (`claude doctor`: "Expected
    /// boolean, but received string"; the session starts as if the file
    /// were not there).
    SkipsFile,
    /// A repair step drops the value with a warning and loads the rest.
    Ignored,
    /// Read only from managed (organisation) settings: ignored in a
    /// project's file whatever its value.
    Managed,
}

/// A top-level key of the settings and the shape Claude Code takes.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    pub name: &'static str,
    /// The JSON kinds of value it takes (bits).
    pub kinds: u8,
    pub shape: Shape,
    pub failure: Failure,
}

/// What Claude Code asks of a value beyond its kind.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    Plain,
    /// A list whose items are of these kinds.
    Items(u8),
    /// Text, one of these.
    OneOf(&'static [&'static str]),
    Number(Bounds),
    /// An object whose every value is of these kinds.
    Values(u8),
    /// An object whose every value is one of these.
    ValuesOneOf(&'static [&'static str]),
    /// An object with these fields (others taken as written).
    Fields(&'static [Field]),
    /// An object with these fields and no other.
    Closed(&'static [Field]),
}

/// A field of an object setting.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub name: &'static str,
    pub kinds: u8,
    pub values: &'static [&'static str],
    pub required: bool,
    pub inner: Inner,
}

impl Field {
    /// An optional field of these kinds, taken whatever it holds.
    pub const fn new(name: &'static str, kinds: u8) -> Field {
        Field { name, kinds, values: &[], required: false, inner: Inner::Any }
    }

    /// A list of text (Claude Code refuses any other item).
    pub const fn texts(name: &'static str) -> Field {
        Field { inner: Inner::Items(STRING), ..Field::new(name, ARRAY) }
    }

    /// An object with these fields (others taken as written).
    pub const fn object(name: &'static str, fields: &'static [Field]) -> Field {
        Field { inner: Inner::Fields(fields), ..Field::new(name, OBJECT) }
    }

    /// Text, one of these.
    pub const fn one_of(name: &'static str, values: &'static [&'static str]) -> Field {
        Field { values, ..Field::new(name, STRING) }
    }

    pub const fn required(self) -> Field {
        Field { required: true, ..self }
    }
}

/// What a field asks of what it holds.
#[derive(Clone, Copy, Debug)]
pub enum Inner {
    Any,
    /// A list whose items are of these kinds.
    Items(u8),
    /// An object whose every value is of these kinds.
    Values(u8),
    /// An object with these fields (others taken as written).
    Fields(&'static [Field]),
}

/// The numbers a setting takes.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub whole: bool,
    /// The least value, and whether it is itself refused.
    pub min: (f64, bool),
    pub max: Option<f64>,
}

impl Bounds {
    pub const INT_ABOVE_0: Bounds = Bounds { whole: true, min: (0.0, true), max: None };
    pub const INT_FROM_0: Bounds = Bounds { whole: true, min: (0.0, false), max: None };
    pub const FRACTION_ABOVE_0: Bounds = Bounds { whole: false, min: (0.0, true), max: Some(1.0) };
    pub const FRACTION: Bounds = Bounds { whole: false, min: (0.0, false), max: Some(1.0) };

    /// What is wrong with `n`, if anything.
    fn refuses(self, n: f64) -> Option<String> {
        let (min, exclusive) = self.min;
        if self.whole && n.fract() != 0.0 {
            return Some("a whole number".to_owned());
        }
        if n < min || (exclusive && n == min) {
            return Some(match exclusive {
                true => format!("above {min}"),
                false => format!("at least {min}"),
            });
        }
        match self.max {
            Some(max) if n > max => Some(format!("at most {max}")),
            _ => None,
        }
    }
}

/// The setting named `key`, if Claude Code 2.1.332 reads it.
pub fn setting(key: &str) -> Option<&'static Setting> {
    super::settings_keys::SETTINGS.iter().find(|setting| setting.name == key)
}

/// For a top-level key whose bad value Claude Code drops and loads the rest
/// of the file: why a problem in it is a warning.
pub fn dropped(key: &str) -> Option<&'static str> {
    setting(key).filter(|setting| setting.failure == Failure::Ignored).map(|_| IGNORED)
}

const IGNORED: &str = "Claude Code 2.1.332 ignores this value and loads the rest of the file";

const SKIPS_FILE: &str = "Claude Code 2.1.332 skips this whole settings file (its permission \
    rules and hooks too) when a value fails its settings schema";

/// The keys whose values agentc reads into its own types (and reports there).
const TYPED: &[&str] =
    &["$schema", "permissions", "hooks", "enabledMcpjsonServers", "disabledMcpjsonServers"];

fn kind_of(node: &Node) -> u8 {
    match node.value {
        Value::Null => NULL,
        Value::Bool(_) => BOOL,
        Value::Int(_) | Value::UInt(_) | Value::BigInt(_) | Value::Float(_) => NUMBER,
        Value::Str(_) => STRING,
        Value::Seq(_) => ARRAY,
        Value::Map(_) => OBJECT,
    }
}

/// The value of every top-level key Claude Code reads, against the shape it
/// takes: a value the schema refuses makes Claude Code skip the whole file
/// (an error), one a repair step drops is a warning, and a key only managed
/// settings honour is a warning wherever it is.
pub fn values(source: &Source, tree: &Node, out: &mut Vec<Diagnostic>) {
    let Value::Map(entries) = &tree.value else { return };
    let has = |key: &str| entries.iter().any(|entry| entry.key == key);
    for entry in entries {
        let key = entry.key.as_str();
        if let Some(alias_of) = alias(key)
            && has(alias_of)
        {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    &source.path,
                    entry.key_span,
                    format!("`{key}` is another name for `{alias_of}`, which the file also sets"),
                )
                .with_severity(Severity::Warning)
                .with_help(format!(
                    "Claude Code 2.1.332 ignores `{key}` when both are set: keep one, under \
                     `{alias_of}`"
                )),
            );
            continue;
        }
        if TYPED.contains(&key) {
            continue;
        }
        let Some(setting) = setting(key) else { continue };
        let mut check = Check { source, setting, severity: Severity::Error, why: SKIPS_FILE, out };
        if setting.failure != Failure::SkipsFile {
            (check.severity, check.why) = (Severity::Warning, IGNORED);
        }
        check.entry(entry);
    }
}

/// The settings whose value is a command Claude Code runs on its own, for
/// credentials or around every command.
const HELPERS: &[&str] = &[
    "apiKeyHelper",
    "awsCredentialExport",
    "awsAuthRefresh",
    "gcpAuthRefresh",
    "otelHeadersHelper",
    "proxyAuthHelper",
    "processWrapper",
];

/// Environment variables that make every program Claude Code starts load
/// code first.
const PRELOADS: &[&str] =
    &["LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV", "PERL5OPT"];

/// What a shared settings file makes every contributor's Claude Code run:
/// a credential or wrapper command, and variables in `env` that load code
/// into every process (`LD_PRELOAD`, `NODE_OPTIONS=--require …`). Claude Code
/// runs them as written once the folder is trusted — likely a mistake in a
/// committed file, or worse. Warnings; a personal `settings.local.json` is
/// the user's own.
pub fn dangerous(source: &Source, tree: &Node, out: &mut Vec<Diagnostic>) {
    if source.path.path.ends_with("settings.local.json") {
        return;
    }
    let Value::Map(entries) = &tree.value else { return };
    for entry in entries {
        if HELPERS.contains(&entry.key.as_str()) && matches!(entry.value.value, Value::Str(_)) {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    &source.path,
                    entry.value.span,
                    format!(
                        "`{}` in a shared settings file runs this command for everyone",
                        entry.key
                    ),
                )
                .with_severity(Severity::Warning)
                .with_help(
                    "Claude Code runs it on the machine of everyone who opens the project; \
                     credentials are each person's own: set it in `~/.claude/settings.json` or \
                     `.claude/settings.local.json`",
                ),
            );
        }
        if entry.key != "env" {
            continue;
        }
        let Value::Map(vars) = &entry.value.value else { continue };
        for var in vars {
            let loads = match (&var.key[..], &var.value.value) {
                (name, _) if PRELOADS.contains(&name) => true,
                ("NODE_OPTIONS", Value::Str(options)) => options.split_whitespace().any(|o| {
                    ["-r", "--require", "--import", "--loader", "--experimental-loader"]
                        .iter()
                        .any(|flag| o == *flag || o.starts_with(&format!("{flag}=")))
                }),
                _ => false,
            };
            if loads {
                out.push(
                    Diagnostic::at(
                        Code::InvalidValue,
                        &source.path,
                        var.key_span,
                        format!(
                            "`{}` makes every program Claude Code starts load code first",
                            var.key
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_help(
                        "every shell command, hook and MCP server then runs it too; remove it, or \
                         keep it in your own settings if you need it",
                    ),
                );
            }
        }
    }
}

/// The settings Claude Code reads under two names, with the name it prefers.
fn alias(key: &str) -> Option<&'static str> {
    match key {
        "additionalMarketplaces" => Some("extraKnownMarketplaces"),
        "allowedMarketplaces" => Some("strictKnownMarketplaces"),
        _ => None,
    }
}

/// One setting's value checked, its problems at the level its failure has.
struct Check<'a> {
    source: &'a Source,
    setting: &'static Setting,
    severity: Severity,
    why: &'static str,
    out: &'a mut Vec<Diagnostic>,
}

impl Check<'_> {
    fn report(&mut self, span: Span, message: String) {
        let diagnostic = Diagnostic::at(Code::InvalidValue, &self.source.path, span, message);
        self.out.push(diagnostic.with_severity(self.severity).with_help(self.why));
    }

    fn entry(&mut self, entry: &Entry) {
        let name = self.setting.name;
        if self.setting.failure == Failure::Managed {
            let diagnostic = Diagnostic::at(
                Code::InvalidValue,
                &self.source.path,
                entry.key_span,
                format!("Claude Code reads `{name}` only from managed settings"),
            );
            self.out.push(diagnostic.with_severity(Severity::Warning).with_help(
                "an organisation sets it in its managed settings; in a project's settings Claude \
                 Code ignores it: remove it",
            ));
            return;
        }
        let node = &entry.value;
        if kind_of(node) & self.setting.kinds == 0 {
            let expected = match self.setting.shape {
                Shape::OneOf(values) => format!("one of {}", quoted(values)),
                _ => describe(self.setting.kinds),
            };
            let found = node.describe();
            self.report(node.span, format!("`{name}` must be {expected}, not {found}"));
            return;
        }
        match (&node.value, self.setting.shape) {
            (Value::Str(text), Shape::OneOf(values)) => self.one_of(name, node, text, values),
            (_, Shape::Number(bounds)) => {
                if let Some(wanted) = number(node).and_then(|n| bounds.refuses(n)) {
                    self.report(node.span, format!("`{name}` must be {wanted}"));
                }
            }
            (Value::Seq(items), Shape::Items(kinds)) => {
                self.kinds_of(&format!("each item of `{name}`"), items.iter(), kinds)
            }
            (Value::Map(entries), Shape::Values(kinds)) => {
                for entry in entries.iter().filter(|entry| kind_of(&entry.value) & kinds == 0) {
                    let message = format!(
                        "each value of `{name}` must be {}, not {}",
                        describe(kinds),
                        entry.value.describe()
                    );
                    self.report(entry.value.span, message);
                }
            }
            (Value::Map(entries), Shape::ValuesOneOf(values)) => {
                for entry in entries {
                    let label = format!("{name}.{}", entry.key);
                    match &entry.value.value {
                        Value::Str(text) => self.one_of(&label, &entry.value, text, values),
                        _ => {
                            let found = entry.value.describe();
                            let message =
                                format!("`{label}` must be one of {}, not {found}", quoted(values));
                            self.report(entry.value.span, message);
                        }
                    }
                }
            }
            (Value::Map(entries), Shape::Fields(fields) | Shape::Closed(fields)) => {
                let closed = matches!(self.setting.shape, Shape::Closed(_));
                self.fields(name, node, entries, fields, closed);
            }
            _ => {}
        }
    }

    fn fields(
        &mut self,
        name: &str,
        node: &Node,
        entries: &[Entry],
        fields: &[Field],
        closed: bool,
    ) {
        for field in fields.iter().filter(|f| f.required) {
            if !entries.iter().any(|entry| entry.key == field.name) {
                let message = format!("`{name}` needs `{}`", field.name);
                self.report(node.span, message);
            }
        }
        for entry in entries {
            let Some(field) = fields.iter().find(|field| field.name == entry.key) else {
                if closed {
                    let known = quoted(&fields.iter().map(|f| f.name).collect::<Vec<_>>());
                    let message = format!("`{name}` takes only {known}, not `{}`", entry.key);
                    self.report(entry.key_span, message);
                }
                continue;
            };
            let label = format!("{name}.{}", field.name);
            let value = &entry.value;
            match &value.value {
                _ if kind_of(value) & field.kinds == 0 => {
                    let message = format!(
                        "`{label}` must be {}, not {}",
                        describe(field.kinds),
                        value.describe()
                    );
                    self.report(value.span, message);
                }
                Value::Str(text) if !field.values.is_empty() => {
                    self.one_of(&label, value, text, field.values)
                }
                Value::Seq(items) => {
                    if let Inner::Items(kinds) = field.inner {
                        self.kinds_of(&format!("each item of `{label}`"), items.iter(), kinds);
                    }
                }
                Value::Map(entries) => match field.inner {
                    Inner::Fields(inner) => self.fields(&label, value, entries, inner, false),
                    Inner::Values(kinds) => {
                        let values = entries.iter().map(|entry| &entry.value);
                        self.kinds_of(&format!("each value of `{label}`"), values, kinds);
                    }
                    _ => {}
                },
                _ => {}
            }
        }
    }

    /// The first of `nodes` not of `kinds` (Claude Code names only that one).
    fn kinds_of<'n>(&mut self, what: &str, mut nodes: impl Iterator<Item = &'n Node>, kinds: u8) {
        if let Some(bad) = nodes.find(|node| kind_of(node) & kinds == 0) {
            let message = format!("{what} must be {}, not {}", describe(kinds), bad.describe());
            self.report(bad.span, message);
        }
    }

    fn one_of(&mut self, name: &str, node: &Node, text: &str, values: &'static [&'static str]) {
        if values.contains(&text) {
            return;
        }
        let file = &self.source.path;
        let diagnostic = Diagnostic::at(
            Code::InvalidValue,
            file,
            node.span,
            format!("`{text}` is not a value of `{name}`"),
        )
        .with_severity(self.severity);
        let entry = Spanned { value: text.to_owned(), span: node.span, text_at: node.text_at };
        let list = quoted(values);
        let why = self.why;
        self.out.push(super::super::near_miss(
            diagnostic,
            file,
            &entry,
            text,
            values,
            &format!("values are case-sensitive; {why}"),
            &format!("`{name}` takes {list}; {why}"),
        ));
    }
}

fn number(node: &Node) -> Option<f64> {
    match &node.value {
        Value::Int(n) => Some(*n as f64),
        Value::UInt(n) => Some(*n as f64),
        Value::Float(n) => Some(*n),
        Value::BigInt(text) => text.parse().ok(),
        _ => None,
    }
}

fn quoted(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
