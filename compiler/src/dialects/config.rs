//! The assistants' configuration files — Claude Code's plugin marketplaces,
//! hooks, settings and `.mcp.json`, VS Code's `.vscode/mcp.json`, prompt and
//! instructions files, the memory files (`AGENTS.md`, `CLAUDE.md`,
//! `GEMINI.md`), and the rules, agents, commands and configuration of Cursor,
//! Cline, OpenCode, Gemini CLI and Kiro (read by their hosts' modules) — from
//! text to their schema types. The rules that hold across files (a hook's script
//! exists, a subagent's MCP server is configured) are the hosts' and run in
//! `check::config`.

use agentc_schema::copilot_files::{COPILOT_INSTRUCTIONS_FIELDS, COPILOT_PROMPT_FIELDS};
use agentc_schema::mcp::McpServers;
use agentc_schema::{
    ClaudeSettings, ClineRuleFrontmatter, CopilotInstructionsFrontmatter, CopilotPromptFrontmatter,
    CursorRuleFrontmatter, Dialect, GeminiCommand, GeminiExtension, HooksFile,
    KiroSteeringFrontmatter, Marketplace, McpJson, OpencodeAgentFrontmatter,
    OpencodeCommandFrontmatter, OpencodeConfig, Span, VscodeMcp,
};

use crate::diagnostic::{Diagnostic, Severity};
use crate::hosts::claude_code::{rules as claude_rules, settings};
use crate::hosts::copilot::prompts;
use crate::hosts::{cline, cursor, gemini, kiro, opencode};
use crate::parse::files::{
    Document, Frontmatter, Markdown, Reading, Syntax, decode_text, entry_value, markdown,
};
use crate::source::Source;

/// A parsed configuration file, by dialect.
#[derive(Clone, Debug)]
pub enum ConfigDoc {
    Marketplace(Box<Document<Marketplace>>),
    Hooks(Document<HooksFile>),
    Settings(Box<Document<ClaudeSettings>>),
    /// `.mcp.json`, written with `mcpServers` or — in a plugin — as the
    /// servers alone.
    Mcp(Document<McpJson>),
    VscodeMcp(Document<VscodeMcp>),
    CodexMetadata(Box<Document<agentc_schema::codex::CodexMetadata>>),
    /// A VS Code prompt file.
    Prompt(Box<Markdown<CopilotPromptFrontmatter>>),
    /// A VS Code instructions file.
    Instructions(Box<Markdown<CopilotInstructionsFrontmatter>>),
    /// Plain Markdown read whole: the memory files and Copilot's repository
    /// instructions.
    Markdown {
        body: Span,
    },
    CursorRule(Box<Markdown<CursorRuleFrontmatter>>),
    ClineRule(Box<Markdown<ClineRuleFrontmatter>>),
    OpencodeAgent(Box<Markdown<OpencodeAgentFrontmatter>>),
    OpencodeCommand(Box<Markdown<OpencodeCommandFrontmatter>>),
    OpencodeConfig(Box<Document<OpencodeConfig>>),
    GeminiCommand(Document<GeminiCommand>),
    GeminiExtension(Box<Document<GeminiExtension>>),
    KiroSteering(Box<Markdown<KiroSteeringFrontmatter>>),
    /// A Copilot hooks file (`.github/hooks/**/*.json`).
    CopilotHooks(Box<Document<agentc_schema::CopilotHooksFile>>),
    /// The Copilot cloud agent's setup workflow.
    CopilotSetupSteps(Box<Document<agentc_schema::CopilotSetupSteps>>),
    ClaudeRule(Box<Markdown<agentc_schema::ClaudeRuleFrontmatter>>),
    OutputStyle(Box<Markdown<agentc_schema::ClaudeOutputStyleFrontmatter>>),
    CodexConfig(Box<Document<agentc_schema::CodexConfig>>),
    CodexHooks(Box<Document<agentc_schema::CodexHooksFile>>),
    CursorHooks(Box<Document<agentc_schema::CursorHooksFile>>),
    CursorEnvironment(Box<Document<agentc_schema::CursorEnvironment>>),
    CursorCli(Box<Document<agentc_schema::CursorCli>>),
    CursorAgent(Box<Markdown<agentc_schema::CursorAgentFrontmatter>>),
    CodexAgent(Box<Document<agentc_schema::CodexAgent>>),
    GeminiSettings(Box<Document<agentc_schema::GeminiSettings>>),
    GeminiAgent(Box<Markdown<agentc_schema::GeminiAgentFrontmatter>>),
    CodexPlugin(Box<Document<agentc_schema::CodexPlugin>>),
    GeminiHooks(Box<Document<agentc_schema::GeminiHooksFile>>),
}

impl ConfigDoc {
    /// The Markdown body whose relative links are checked, if the file has one.
    pub fn body_span(&self) -> Option<Span> {
        match self {
            ConfigDoc::Prompt(md) => Some(md.body_span),
            ConfigDoc::Instructions(md) => Some(md.body_span),
            ConfigDoc::Markdown { body } => Some(*body),
            ConfigDoc::CursorRule(md) => Some(md.body_span),
            ConfigDoc::ClineRule(md) => Some(md.body_span),
            ConfigDoc::OpencodeAgent(md) => Some(md.body_span),
            ConfigDoc::OpencodeCommand(md) => Some(md.body_span),
            ConfigDoc::KiroSteering(md) => Some(md.body_span),
            ConfigDoc::ClaudeRule(md) => Some(md.body_span),
            ConfigDoc::OutputStyle(md) => Some(md.body_span),
            ConfigDoc::GeminiAgent(md) => Some(md.body_span),
            ConfigDoc::CursorAgent(md) => Some(md.body_span),
            _ => None,
        }
    }

    /// Whether a relative link in the body may also be written from the
    /// project's top: the other assistants' rules, agents and commands are
    /// read by a model working there, which takes either.
    pub fn links_from_top(&self) -> bool {
        matches!(
            self,
            ConfigDoc::CursorRule(_)
                | ConfigDoc::ClineRule(_)
                | ConfigDoc::OpencodeAgent(_)
                | ConfigDoc::OpencodeCommand(_)
                | ConfigDoc::KiroSteering(_)
        )
    }
}

/// Parses a configuration file of `dialect`; `None` when the dialect is not
/// a configuration file or the file is beyond reading (reported).
pub fn config(
    source: &Source,
    dialect: Dialect,
    in_plugin: bool,
    out: &mut Vec<Diagnostic>,
) -> Option<ConfigDoc> {
    // The hosts skip keys they do not know in these files.
    let json = Reading { unknown: Severity::Warning, ..Reading::JSON };
    let text = &source.text;
    match dialect {
        Dialect::ClaudeMarketplace => {
            decode_text(source, text, 0, json, out).map(|doc| ConfigDoc::Marketplace(Box::new(doc)))
        }
        Dialect::ClaudeHooks => decode_text(source, text, 0, json, out).map(ConfigDoc::Hooks),
        Dialect::ClaudeSettings => {
            let reading = Reading {
                taken: |key| settings::setting(key).is_some(),
                dropped: settings::dropped,
                ..json
            };
            decode_text(source, text, 0, reading, out).map(|doc| ConfigDoc::Settings(Box::new(doc)))
        }
        Dialect::McpJson => mcp_json(source, in_plugin, json, out).map(ConfigDoc::Mcp),
        Dialect::VscodeMcp => {
            let reading = Reading { syntax: Syntax::Jsonc, ..json };
            decode_text(source, text, 0, reading, out).map(ConfigDoc::VscodeMcp)
        }
        Dialect::CodexMetadata => {
            // Codex reads the file fail-open: what it cannot read it
            // ignores, with a warning, and the skill loads all the same.
            let before = out.len();
            let reading = Reading { syntax: Syntax::Yaml, ..json };
            let doc = decode_text(source, text, 0, reading, out);
            for diagnostic in &mut out[before..] {
                diagnostic.severity = Severity::Warning;
            }
            doc.map(|doc| ConfigDoc::CodexMetadata(Box::new(doc)))
        }
        Dialect::CopilotPrompt => {
            if !prompts::prompt_name(source, out) {
                return None;
            }
            let reading =
                Reading { fields: Some(COPILOT_PROMPT_FIELDS), ..Reading::HOST_FRONTMATTER };
            let example = "description: Generate a React form\nagent: agent\ntools: ['search']";
            let parsed = markdown(source, Frontmatter::Optional, example, reading, out)?;
            prompts::prompt(source, &parsed, out);
            Some(ConfigDoc::Prompt(Box::new(parsed)))
        }
        Dialect::CopilotInstructions => {
            let reading =
                Reading { fields: Some(COPILOT_INSTRUCTIONS_FIELDS), ..Reading::HOST_FRONTMATTER };
            let example = "applyTo: \"**/*.py\"\ndescription: Python conventions";
            let parsed = markdown(source, Frontmatter::Optional, example, reading, out)?;
            prompts::instructions(source, &parsed, out);
            Some(ConfigDoc::Instructions(Box::new(parsed)))
        }
        Dialect::CopilotRepoInstructions
        | Dialect::AgentsMd
        | Dialect::ClaudeMd
        | Dialect::GeminiMd => {
            let body = Span::new(0, text.len());
            crate::parse::markup::unclosed(source, body, out);
            Some(ConfigDoc::Markdown { body })
        }
        Dialect::CursorRule => cursor::read(source, out).map(|md| ConfigDoc::CursorRule(md.into())),
        Dialect::ClineRule => cline::read(source, out).map(|md| ConfigDoc::ClineRule(md.into())),
        Dialect::OpencodeAgent => {
            opencode::agent(source, out).map(|md| ConfigDoc::OpencodeAgent(md.into()))
        }
        Dialect::OpencodeCommand => {
            opencode::command(source, out).map(|md| ConfigDoc::OpencodeCommand(md.into()))
        }
        Dialect::OpencodeConfig => {
            opencode::config(source, out).map(|doc| ConfigDoc::OpencodeConfig(doc.into()))
        }
        Dialect::GeminiCommand => gemini::command(source, out).map(ConfigDoc::GeminiCommand),
        Dialect::GeminiExtension => {
            gemini::extension(source, out).map(|doc| ConfigDoc::GeminiExtension(doc.into()))
        }
        Dialect::ClaudeRule => {
            claude_rules::rule(source, out).map(|md| ConfigDoc::ClaudeRule(md.into()))
        }
        Dialect::ClaudeOutputStyle => {
            claude_rules::output_style(source, out).map(|md| ConfigDoc::OutputStyle(md.into()))
        }
        Dialect::CodexConfig => crate::hosts::codex::config::read(source, out)
            .map(|doc| ConfigDoc::CodexConfig(doc.into())),
        Dialect::CodexHooks => crate::hosts::codex::hooks::read(source, out)
            .map(|doc| ConfigDoc::CodexHooks(doc.into())),
        Dialect::CursorHooks => {
            cursor::hooks::read(source, out).map(|doc| ConfigDoc::CursorHooks(doc.into()))
        }
        Dialect::CursorEnvironment => cursor::environment::read(source, out)
            .map(|doc| ConfigDoc::CursorEnvironment(doc.into())),
        Dialect::CursorAgent => {
            cursor::agents::read(source, out).map(|md| ConfigDoc::CursorAgent(md.into()))
        }
        Dialect::CursorCli => {
            cursor::cli::read(source, out).map(|doc| ConfigDoc::CursorCli(doc.into()))
        }
        Dialect::CodexAgent => crate::hosts::codex::agents::read(source, out)
            .map(|doc| ConfigDoc::CodexAgent(doc.into())),
        Dialect::GeminiSettings => crate::hosts::gemini::settings::read(source, out)
            .map(|doc| ConfigDoc::GeminiSettings(doc.into())),
        Dialect::GeminiAgent => crate::hosts::gemini::agents::read(source, out)
            .map(|md| ConfigDoc::GeminiAgent(md.into())),
        Dialect::CodexPlugin => crate::hosts::codex::plugin::read(source, out)
            .map(|doc| ConfigDoc::CodexPlugin(doc.into())),
        Dialect::GeminiHooks => crate::hosts::gemini::hooks::read(source, out)
            .map(|doc| ConfigDoc::GeminiHooks(doc.into())),
        Dialect::KiroSteering => {
            kiro::read(source, out).map(|md| ConfigDoc::KiroSteering(md.into()))
        }
        Dialect::CopilotHooks => {
            // The Copilot CLI reads strict JSON and skips keys it does not know.
            let reading = Reading { ignores_unknown: true, ..json };
            let before = out.len();
            let doc = decode_text(source, text, 0, reading, out);
            crate::hosts::copilot::hooks::notes_are_pedantic(source, &mut out[before..]);
            let doc = doc?;
            crate::hosts::copilot::hooks::dropped(&doc.tree, &mut out[before..]);
            crate::hosts::copilot::hooks::check(source, &doc.value, out);
            Some(ConfigDoc::CopilotHooks(Box::new(doc)))
        }
        Dialect::CopilotSetupSteps => {
            // A workflow's keys are GitHub Actions' to judge.
            let reading = Reading { syntax: Syntax::Yaml, ignores_unknown: true, ..json };
            let doc = decode_text(source, text, 0, reading, out)?;
            crate::hosts::copilot::setup::check(source, &doc.tree, out);
            Some(ConfigDoc::CopilotSetupSteps(Box::new(doc)))
        }
        _ => None,
    }
}

/// `.mcp.json`; a plugin's may hold the servers alone, without
/// `mcpServers` around them, as Claude Code's plugin loader accepts.
fn mcp_json(
    source: &Source,
    in_plugin: bool,
    reading: Reading,
    out: &mut Vec<Diagnostic>,
) -> Option<Document<McpJson>> {
    let text = &source.text;
    let flat = in_plugin
        && crate::parse::json::parse(text)
            .is_ok_and(|parsed| entry_value(&parsed.root, "mcpServers").is_none());
    if !flat {
        return decode_text(source, text, 0, reading, out);
    }
    let doc = decode_text::<McpServers>(source, text, 0, reading, out)?;
    Some(Document {
        value: McpJson { mcp_servers: doc.value },
        tree: doc.tree,
        extra: doc.extra,
        recovered: doc.recovered,
    })
}
