//! TypeScript declarations of a project's names (`agentc lock --emit-dts`):
//! string-literal unions of the ids and qualified names the lockfile holds,
//! which the npm package's `loadLockfile<Names>()` takes so that a misspelt
//! name is a `tsc` error. A pure function of the lockfile: the same lockfile
//! gives the same bytes.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use agentc_schema::Lockfile;

/// How the declarations start: a file that starts otherwise is not replaced.
pub const HEADER: &str = "// The names of an agentc project, written by `agentc lock --emit-dts`";

/// One set of names: its key in `Names`, its type's name, what it holds,
/// and the names.
struct NameSet<'a> {
    key: &'static str,
    ty: &'static str,
    doc: &'static str,
    names: BTreeSet<&'a str>,
}

/// The `.d.ts` text for `lockfile`.
pub fn declarations(lockfile: &Lockfile) -> String {
    let sets = [
        NameSet {
            key: "agent",
            ty: "AgentName",
            doc: "The agents' ids (`agents[].id`).",
            names: lockfile.agents.iter().map(|a| a.id.as_str()).collect(),
        },
        NameSet {
            key: "skill",
            ty: "SkillName",
            doc: "The skills' qualified names (`skills[].qualified`).",
            names: lockfile.skills.iter().map(|s| s.qualified.as_str()).collect(),
        },
        NameSet {
            key: "tool",
            ty: "ToolName",
            doc: "The tools' qualified names (`tools[].qualified`).",
            names: lockfile.tools.iter().map(|t| t.qualified.as_str()).collect(),
        },
        NameSet {
            key: "assistant",
            ty: "AssistantName",
            doc: "The coding assistants' agents: subagents, commands, Copilot agents (`assistants[].id`).",
            names: lockfile.assistants.iter().map(|a| a.id.as_str()).collect(),
        },
        NameSet {
            key: "plugin",
            ty: "PluginName",
            doc: "The Claude Code plugins (`plugins[].name`).",
            names: lockfile.plugins.iter().map(|p| p.name.as_str()).collect(),
        },
        NameSet {
            key: "mcpServer",
            ty: "McpServerName",
            doc: "The configured MCP servers (`mcp_servers[].id`).",
            names: lockfile.mcp_servers.iter().map(|m| m.id.as_str()).collect(),
        },
        NameSet {
            key: "model",
            ty: "ModelName",
            doc: "The models the agents run (`agents[].model`).",
            names: lockfile.agents.iter().filter_map(|a| a.model.as_deref()).collect(),
        },
        NameSet {
            key: "context",
            ty: "ContextName",
            doc: "The context providers the agents are given (`agents[].context`).",
            names: lockfile.agents.iter().flat_map(|a| &a.context).map(String::as_str).collect(),
        },
    ];
    let mut out = String::from(HEADER);
    out.push_str(
        " from\n\
         // the lockfile it compiles; do not edit (run it again). With the npm package\n\
         // agentc-rs:\n\
         //\n\
         //   import { loadLockfile } from 'agentc-rs';\n\
         //   import type { Names } from './agentc-names.js'; // this file\n\
         //   const lock = await loadLockfile<Names>('agentc.lock');\n\
         //   lock.agent(id); lock.skill(name); lock.tool(name); // a name not below fails `tsc`\n",
    );
    for set in &sets {
        let _ = write!(out, "\n/** {} */\nexport type {} =", set.doc, set.ty);
        match set.names.len() {
            0 => out.push_str(" never;\n"),
            1 => {
                let name = set.names.iter().next().copied().unwrap_or_default();
                let _ = writeln!(out, " {};", literal(name));
            }
            _ => {
                for name in &set.names {
                    let _ = write!(out, "\n  | {}", literal(name));
                }
                out.push_str(";\n");
            }
        }
    }
    out.push_str(
        "\n/** Every set of names, for `loadLockfile<Names>()`. */\nexport interface Names {\n",
    );
    for set in &sets {
        let _ = writeln!(out, "  {}: {};", set.key, set.ty);
    }
    out.push_str("}\n");
    out
}

/// `name` as a TypeScript string literal: JSON's escapes, and DEL and the C1
/// controls escaped too, so the file shows no control character.
fn literal(name: &str) -> String {
    let json = serde_json::Value::String(name.to_owned()).to_string();
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lockfile(json: &str) -> Lockfile {
        Lockfile::from_json(json).expect("a lockfile")
    }

    #[test]
    fn names_are_sorted_literal_unions_and_an_empty_set_is_never() {
        let lock = lockfile(
            r#"{"lockfile_version": 1, "agentc_version": "0", "root_digest": "", "files": [],
                "agents": [], "skills": [], "tools": [
                  {"name": "b", "qualified": "b", "scope": "global", "host": false},
                  {"name": "a\"\u0085", "qualified": "a\"\u0085", "scope": "host", "host": true}
                ]}"#,
        );
        let text = declarations(&lock);
        assert!(text.contains("export type AgentName = never;\n"), "{text}");
        assert!(
            text.contains("export type ToolName =\n  | \"a\\\"\\u0085\"\n  | \"b\";\n"),
            "{text}"
        );
        assert!(text.ends_with("  model: ModelName;\n  context: ContextName;\n}\n"), "{text}");
        assert_eq!(declarations(&lock), text);
    }

    #[test]
    fn one_name_is_written_on_its_line() {
        let lock = lockfile(
            r#"{"lockfile_version": 1, "agentc_version": "0", "root_digest": "", "files": [],
                "agents": [], "skills": [], "tools": [
                  {"name": "b", "qualified": "b", "scope": "global", "host": false}]}"#,
        );
        assert!(declarations(&lock).contains("export type ToolName = \"b\";\n"));
    }
}
