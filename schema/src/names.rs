//! The naming rule for agents, skills, tools and hooks.
//!
//! One rule, three consumers: the compiler's `bad-name` check, the JSON Schemas'
//! `pattern`, and the qualified names of agent-private items.

use std::fmt;

/// The longest name allowed, in characters.
pub const MAX_NAME_LEN: usize = 64;

/// What a name names; tools (and hooks, which follow the tool rule) also allow `_`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NameKind {
    Agent,
    Skill,
    Tool,
    Hook,
}

impl NameKind {
    pub const fn allows_underscore(self) -> bool {
        matches!(self, NameKind::Tool | NameKind::Hook)
    }

    /// The rule as an ECMA-262 regular expression, for JSON Schemas.
    pub const fn pattern(self) -> &'static str {
        if self.allows_underscore() { TOOL_NAME_PATTERN } else { NAME_PATTERN }
    }

    pub const fn noun(self) -> &'static str {
        match self {
            NameKind::Agent => "agent",
            NameKind::Skill => "skill",
            NameKind::Tool => "tool",
            NameKind::Hook => "hook",
        }
    }
}

/// Agents and skills: lowercase kebab-case.
pub const NAME_PATTERN: &str = "^[a-z0-9][a-z0-9-]{0,63}$";
/// Tools and hooks: lowercase kebab-case or snake_case.
pub const TOOL_NAME_PATTERN: &str = "^(?!agent__)[a-z0-9][a-z0-9_-]{0,63}$";

/// The Agent Skills rule as an ECMA-262 regular expression, for JSON Schemas:
/// no leading, trailing or doubled hyphen, and no uppercase ASCII letter,
/// blank or ASCII punctuation but `-` (letters of any script pass).
pub const SPEC_NAME_PATTERN: &str = r"^(?!-)(?!.*--)(?!.*-$)[^\s!-,./:-@A-Z\[-`{-~]{1,64}$";

/// Why a name breaks the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    Empty,
    TooLong {
        len: usize,
    },
    BadFirst {
        found: char,
    },
    /// Every character the rule does not allow, each once, in order.
    BadChars {
        found: Vec<char>,
    },
    /// `agent__…` is how private skills and tools are qualified.
    Reserved,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => f.write_str("the name is empty"),
            NameError::TooLong { len } => {
                write!(f, "the name is {len} characters long; at most {MAX_NAME_LEN} are allowed")
            }
            NameError::BadFirst { found } => {
                write!(f, "a name must start with a lowercase letter or a digit, not `{found}`")
            }
            NameError::BadChars { found } => {
                let shown: Vec<String> =
                    found.iter().map(|c| format!("`{}`", c.escape_debug())).collect();
                match shown.as_slice() {
                    [one] => write!(f, "{one} is not allowed in a name"),
                    [first @ .., last] => {
                        write!(f, "{} and {last} are not allowed in a name", first.join(", "))
                    }
                    [] => f.write_str("the name has characters that are not allowed"),
                }
            }
            NameError::Reserved => f.write_str(
                "names starting with `agent__` are reserved for the qualified names of private skills and tools",
            ),
        }
    }
}

/// Checks `name` against the rule for `kind`.
pub fn check_name(kind: NameKind, name: &str) -> Result<(), NameError> {
    let allowed = |c: char| {
        c.is_ascii_lowercase()
            || c.is_ascii_digit()
            || c == '-'
            || (c == '_' && kind.allows_underscore())
    };
    let first = name.chars().next().ok_or(NameError::Empty)?;
    let mut found: Vec<char> = Vec::new();
    for c in name.chars().filter(|c| !allowed(*c)) {
        if !found.contains(&c) {
            found.push(c);
        }
    }
    if !found.is_empty() {
        return Err(NameError::BadChars { found });
    }
    if !(first.is_ascii_lowercase() || first.is_ascii_digit()) {
        return Err(NameError::BadFirst { found: first });
    }
    if name.starts_with("agent__") {
        return Err(NameError::Reserved);
    }
    let len = name.chars().count();
    if len > MAX_NAME_LEN {
        return Err(NameError::TooLong { len });
    }
    Ok(())
}

/// A best-effort rewrite of `name` that follows the rule, for "did you mean" help.
pub fn suggest_name(kind: NameKind, name: &str) -> Option<String> {
    let mut out = String::new();
    for c in name.trim().chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() || (c == '_' && kind.allows_underscore()) {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out: String = out.trim_matches('-').chars().take(MAX_NAME_LEN).collect();
    let out = out.trim_end_matches('-').to_owned();
    (check_name(kind, &out).is_ok() && out != name).then_some(out)
}

/// Why a name breaks the Agent Skills rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecNameError {
    Empty,
    TooLong { len: usize },
    Uppercase,
    BadChar { found: char },
    EdgeHyphen,
    DoubleHyphen,
}

impl fmt::Display for SpecNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecNameError::Empty => f.write_str("it is empty"),
            SpecNameError::TooLong { len } => {
                write!(f, "it is {len} characters long, over {MAX_NAME_LEN}")
            }
            SpecNameError::Uppercase => f.write_str("it has uppercase letters"),
            SpecNameError::BadChar { found } => {
                write!(f, "`{}` is not a letter, a digit or `-`", found.escape_debug())
            }
            SpecNameError::EdgeHyphen => f.write_str("it starts or ends with `-`"),
            SpecNameError::DoubleHyphen => f.write_str("it has `--`"),
        }
    }
}

/// A name as the Agent Skills specification reads it: trimmed, then NFKC.
pub fn normalize_spec_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.trim_matches(is_python_space).nfkc().collect()
}

/// Python's `str.isspace`, which the reference validator trims with: Rust's
/// whitespace plus the information separators U+001C–U+001F.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Checks a skill name by the Agent Skills specification, as its reference
/// validator reads it: after [`normalize_spec_name`], 1–64 characters,
/// lowercase letters (any script: a letter with no case passes) and digits,
/// hyphens only between them and never two in a row. Combining marks are
/// refused, as Python's `isalnum` refuses them.
pub fn check_spec_name(name: &str) -> Result<(), SpecNameError> {
    use unicode_normalization::char::is_combining_mark;
    let name = normalize_spec_name(name);
    if name.is_empty() {
        return Err(SpecNameError::Empty);
    }
    let len = name.chars().count();
    if len > MAX_NAME_LEN {
        return Err(SpecNameError::TooLong { len });
    }
    if name != name.to_lowercase() {
        return Err(SpecNameError::Uppercase);
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Err(SpecNameError::EdgeHyphen);
    }
    if name.contains("--") {
        return Err(SpecNameError::DoubleHyphen);
    }
    match name.chars().find(|&c| c != '-' && (!c.is_alphanumeric() || is_combining_mark(c))) {
        Some(found) => Err(SpecNameError::BadChar { found }),
        None => Ok(()),
    }
}

/// The qualified name of an agent-private skill or tool.
pub fn qualified_name(agent: &str, name: &str) -> String {
    format!("agent__{agent}__{name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule() {
        assert!(check_name(NameKind::Skill, "billing-2").is_ok());
        assert!(check_name(NameKind::Tool, "lookup_order").is_ok());
        assert_eq!(
            check_name(NameKind::Skill, "lookup_order"),
            Err(NameError::BadChars { found: vec!['_'] })
        );
        assert_eq!(check_name(NameKind::Agent, "-x"), Err(NameError::BadFirst { found: '-' }));
        assert_eq!(
            check_name(NameKind::Skill, "Refund Review!"),
            Err(NameError::BadChars { found: vec!['R', ' ', '!'] })
        );
        assert_eq!(
            NameError::BadChars { found: vec!['R', ' ', '!'] }.to_string(),
            "`R`, ` ` and `!` are not allowed in a name"
        );
        assert_eq!(check_name(NameKind::Agent, ""), Err(NameError::Empty));
        assert!(check_name(NameKind::Agent, &"a".repeat(64)).is_ok());
        assert_eq!(check_name(NameKind::Tool, "agent__a__t"), Err(NameError::Reserved));
        assert_eq!(
            check_name(NameKind::Agent, &"a".repeat(65)),
            Err(NameError::TooLong { len: 65 })
        );
    }

    #[test]
    fn spec_rule_follows_the_reference_validator() {
        assert!(check_spec_name("pdf-processing").is_ok());
        assert!(check_spec_name("données").is_ok());
        assert!(check_spec_name("技能").is_ok());
        assert!(check_spec_name(" pdf \u{1f}").is_ok());
        assert_eq!(check_spec_name("PDF"), Err(SpecNameError::Uppercase));
        assert_eq!(check_spec_name("-pdf"), Err(SpecNameError::EdgeHyphen));
        assert_eq!(check_spec_name("pdf--x"), Err(SpecNameError::DoubleHyphen));
        assert_eq!(check_spec_name("pdf_x"), Err(SpecNameError::BadChar { found: '_' }));
        assert_eq!(check_spec_name(""), Err(SpecNameError::Empty));
        assert_eq!(check_spec_name(&"a".repeat(65)), Err(SpecNameError::TooLong { len: 65 }));
        // NFKC folds the ligature before any check.
        assert!(check_spec_name("\u{fb01}le").is_ok());
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest_name(NameKind::Skill, "Billing Desk"), Some("billing-desk".into()));
        assert_eq!(suggest_name(NameKind::Skill, "billing"), None);
        assert_eq!(suggest_name(NameKind::Tool, "Lookup_Order"), Some("lookup_order".into()));
    }
}
