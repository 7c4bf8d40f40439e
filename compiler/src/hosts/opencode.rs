//! OpenCode: its agents and commands (`.opencode/agent/`, `.opencode/command/`)
//! and its configuration (`opencode.json`), as its V1 configuration schema
//! reads them (`Config` in `packages/opencode/src/config/config.ts`;
//! `docs/formats.md`, "OpenCode"). A value of the wrong type or outside its
//! set stops OpenCode loading its configuration (`ConfigInvalidError`), so
//! those are errors; an agent's unknown key is moved into its `options` and a
//! command's is dropped, so those are warnings. At the top level of
//! `opencode.json`, OpenCode refuses a key it does not know.

use agentc_schema::opencode::OPENCODE_AGENT_V2;
use agentc_schema::{
    Dialect, OpencodeAgentFrontmatter, OpencodeCommandFrontmatter, OpencodeConfig, Spanned,
};

use super::{Declared, Reader};
use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{
    Document, Frontmatter, Markdown, Reading, Syntax, decode_text, entry_value, markdown,
};
use crate::parse::tree::Value;
use crate::source::Source;

/// What OpenCode reads in the project's `.opencode/` folder and at its top.
pub const PROJECT_FILES: &[Declared] = &[
    Declared { path: ".opencode/agent/**/*.md", dialect: Dialect::OpencodeAgent },
    Declared { path: ".opencode/agents/**/*.md", dialect: Dialect::OpencodeAgent },
    Declared { path: ".opencode/command/**/*.md", dialect: Dialect::OpencodeCommand },
    Declared { path: ".opencode/commands/**/*.md", dialect: Dialect::OpencodeCommand },
    Declared { path: "opencode.json", dialect: Dialect::OpencodeConfig },
    Declared { path: "opencode.jsonc", dialect: Dialect::OpencodeConfig },
    Declared { path: ".opencode/opencode.json", dialect: Dialect::OpencodeConfig },
    Declared { path: ".opencode/opencode.jsonc", dialect: Dialect::OpencodeConfig },
];

/// The values of an agent's `mode`.
pub const MODES: &[&str] = &["primary", "subagent", "all"];

/// The values of `share`.
const SHARES: &[&str] = &["manual", "auto", "disabled"];

/// How OpenCode reads an agent's or a command's frontmatter: gray-matter,
/// then its fallback for frontmatter written for Claude Code.
const READING: Reading = Reading { lenient: Some(Reader::OpenCode), ..Reading::HOST_FRONTMATTER };

/// An agent file: its frontmatter's values.
pub fn agent(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<OpencodeAgentFrontmatter>> {
    let parsed = markdown::<OpencodeAgentFrontmatter>(
        source,
        Frontmatter::Optional,
        "description: Reviews code for quality\nmode: subagent",
        Reading { taken: |key| OPENCODE_AGENT_V2.contains(&key), ..READING },
        out,
    )?;
    let front = &parsed.front.value;
    if let Some(mode) = &front.mode {
        one_of(source, mode, "mode", MODES, out);
    }
    if let Some(model) = &front.model {
        self::model(source, model, out);
    }
    if let Some(color) = &front.color
        && !is_color(&color.value)
    {
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                color.span,
                format!("`{}` is not a color OpenCode reads", color.value),
            )
            .with_help(
                "write a hex color, `#` and six hex digits (`\"#38A3EE\"`, quoted, since `#` \
                 starts a YAML comment); OpenCode refuses the agent otherwise",
            ),
        );
    }
    for key in ["steps", "maxSteps"] {
        if let Some(node) = entry_value(&parsed.front.tree, key)
            && matches!(node.value, Value::Int(0) | Value::UInt(0))
        {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    &source.path,
                    node.span,
                    format!("`{key}` must be at least 1"),
                )
                .with_help("OpenCode refuses an agent with no steps; remove the key for no limit"),
            );
        }
    }
    Some(parsed)
}

/// A command file: its frontmatter's values. The body is the template.
pub fn command(
    source: &Source,
    out: &mut Vec<Diagnostic>,
) -> Option<Markdown<OpencodeCommandFrontmatter>> {
    let parsed = markdown::<OpencodeCommandFrontmatter>(
        source,
        Frontmatter::Optional,
        "description: Run the tests with coverage\nagent: build",
        READING,
        out,
    )?;
    if let Some(model) = &parsed.front.value.model {
        self::model(source, model, out);
    }
    Some(parsed)
}

/// `opencode.json` or `opencode.jsonc`.
pub fn config(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<OpencodeConfig>> {
    let reading = Reading { syntax: Syntax::Jsonc, ..Reading::JSON };
    let doc = decode_text::<OpencodeConfig>(source, &source.text, 0, reading, out)?;
    let value = &doc.value;
    for model in value.model.iter().chain(&value.small_model) {
        self::model(source, model, out);
    }
    if let Some(share) = &value.share {
        one_of(source, share, "share", SHARES, out);
    }
    Some(doc)
}

fn is_color(text: &str) -> bool {
    text.len() == 7 && text.starts_with('#') && text[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// A value that must be one of `allowed`: OpenCode refuses any other.
fn one_of(
    source: &Source,
    value: &Spanned<String>,
    key: &str,
    allowed: &[&str],
    out: &mut Vec<Diagnostic>,
) {
    let text = value.value.as_str();
    if allowed.contains(&text) {
        return;
    }
    let list = allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ");
    let diagnostic = Diagnostic::at(
        Code::InvalidValue,
        &source.path,
        value.span,
        format!("`{text}` is not a value of `{key}`"),
    );
    out.push(super::near_miss(
        diagnostic,
        &source.path,
        value,
        text,
        allowed,
        "values are lowercase; OpenCode refuses any other",
        &format!("the values are {list}; OpenCode refuses any other"),
    ));
}

/// A model is `<provider>/<model>`: OpenCode looks the provider up by the
/// text before the first `/`.
fn model(source: &Source, model: &Spanned<String>, out: &mut Vec<Diagnostic>) {
    let text = model.value.trim();
    match text.split_once('/') {
        Some((provider, id)) if !provider.is_empty() && !id.is_empty() => {}
        _ => out.push(
            Diagnostic::at(
                Code::BadModel,
                &source.path,
                model.span,
                format!("`{text}` is not a model as OpenCode names them, `<provider>/<model>`"),
            )
            .with_severity(Severity::Warning)
            .with_help(
                "write the provider and the model, e.g. `anthropic/claude-sonnet-4-5`; \
                 `opencode models` lists them",
            ),
        ),
    }
}
