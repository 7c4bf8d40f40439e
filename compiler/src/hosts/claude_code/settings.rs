//! Claude Code's project settings: permission rules are written in the
//! grammar of a subagent's `tools` (`Read`, `Bash(npm run test:*)`,
//! `mcp__github__get_issue`) and checked against the same catalogue; a rule
//! whose parentheses do not close is one Claude Code cannot parse and skips.

use agentc_schema::settings::Permissions;
use agentc_schema::{Spanned, ToolRules};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;

/// The permission modes Claude Code's `defaultMode` takes.
pub const PERMISSION_MODES: &[&str] =
    &["default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"];

/// Every rule of `allow`, `ask` and `deny`, and `defaultMode`.
pub fn permissions(source: &Source, permissions: &Permissions, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    let lists = [&permissions.allow, &permissions.ask, &permissions.deny];
    let mut rules = Vec::new();
    for rule in lists.into_iter().flatten().flatten() {
        if !balanced(&rule.value) {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    rule.span,
                    format!("the permission rule `{}` does not close its parentheses", rule.value),
                )
                .with_severity(Severity::Warning)
                .with_help(
                    "write `Tool` or `Tool(specifier)`, e.g. `Bash(npm run test:*)`; Claude Code \
                     skips a rule it cannot parse",
                ),
            );
            continue;
        }
        rules.push(rule.clone());
    }
    super::tools(source, &ToolRules(rules), out);
    if let Some(mode) = &permissions.default_mode {
        default_mode(source, mode, out);
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

/// Whether every `(` of a rule is closed, and none closes early.
fn balanced(rule: &str) -> bool {
    let mut depth = 0i32;
    for c in rule.chars() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}
