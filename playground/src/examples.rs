//! The page's examples: one small project per family of formats, each with a
//! mistake or two planted, kept as real files under `playground/examples/`
//! (so `agentc check` runs on them as they are) and built into the module.

use crate::File;

/// A project the page's menu loads.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// Its folder under `playground/examples/`, and its name in a link.
    pub id: &'static str,
    pub title: &'static str,
    /// Each file's path and text, in the order of the page's tabs.
    pub sources: &'static [(&'static str, &'static str)],
}

impl Example {
    pub fn files(&self) -> Vec<File> {
        let file =
            |(path, text): &(&str, &str)| File { path: (*path).into(), text: (*text).into() };
        self.sources.iter().map(file).collect()
    }
}

macro_rules! example {
    ($id:literal, $title:literal, [$($path:literal),* $(,)?]) => {
        Example {
            id: $id,
            title: $title,
            sources: &[$(($path, include_str!(concat!("../examples/", $id, "/", $path)))),*],
        }
    };
}

/// Every example, the page's first project first.
pub const EXAMPLES: &[Example] = &[
    example!(
        "starter",
        "Start here: a skill, a subagent, a Copilot agent, agentc.toml",
        [
            ".claude/skills/deploy/SKILL.md",
            ".claude/agents/reviewer.md",
            ".github/agents/planner.agent.md",
            "agentc.toml",
        ]
    ),
    example!(
        "claude-code",
        "Claude Code: skills, subagents, commands, settings, MCP",
        [
            ".claude/skills/release/SKILL.md",
            ".claude/agents/triage.md",
            ".claude/commands/ship.md",
            ".claude/settings.json",
            ".mcp.json",
        ]
    ),
    example!(
        "claude-plugin",
        "Claude Code plugin",
        [
            ".claude-plugin/plugin.json",
            "agents/fixer.md",
            "commands/format.md",
            "skills/notes/SKILL.md",
            "hooks/hooks.json",
        ]
    ),
    example!(
        "copilot",
        "GitHub Copilot and VS Code: agents, prompts, instructions, skills",
        [
            ".github/agents/planner.agent.md",
            ".github/prompts/review.prompt.md",
            ".github/instructions/ts.instructions.md",
            ".github/copilot-instructions.md",
            ".github/skills/triage/SKILL.md",
            "src/main.ts",
        ]
    ),
    example!(
        "agent-skills",
        "Agent Skills collection",
        ["skills/pdf-forms/SKILL.md", "skills/changelog/SKILL.md"]
    ),
    example!(
        "codex",
        "Codex: config.toml, custom agents, AGENTS.md, skills",
        [
            ".codex/config.toml",
            ".codex/agents/explorer.toml",
            "AGENTS.md",
            ".agents/skills/deploy/SKILL.md"
        ]
    ),
    example!(
        "cursor",
        "Cursor: rules and MCP",
        [".cursor/rules/web.mdc", ".cursor/rules/style.md", ".cursor/mcp.json", "src/App.tsx"]
    ),
    example!(
        "gemini",
        "Gemini CLI: commands, subagents, settings",
        [
            ".gemini/commands/git/commit.toml",
            ".gemini/agents/reviewer.md",
            ".gemini/settings.json",
            "GEMINI.md",
        ]
    ),
    example!(
        "opencode",
        "OpenCode: opencode.json, agents, commands",
        ["opencode.json", ".opencode/agent/reviewer.md", ".opencode/command/test.md"]
    ),
    example!(
        "kiro-cline",
        "Kiro steering and Cline rules",
        [".kiro/steering/api.md", ".clinerules/testing.md", "src/api/users.ts"]
    ),
    example!(
        "agentc",
        "agentc runbook: skills, tools, a registry",
        [
            "agentc.toml",
            "registry.yaml",
            "agents/SYSTEM.md",
            "agents/skills/intake/SKILL.md",
            "agents/skills/verify-identity/SKILL.md",
            "agents/tools/lookup_customer/manifest.json",
        ]
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every file of an example's folder is in the example, and each
    /// example has a mistake to show.
    #[test]
    fn the_examples_are_their_folders() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let mut ids: Vec<String> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        ids.sort();
        let mut listed: Vec<&str> = EXAMPLES.iter().map(|e| e.id).collect();
        listed.sort();
        assert_eq!(ids, listed);
        for example in EXAMPLES {
            let mut on_disk = Vec::new();
            walk(&folder.join(example.id), "", &mut on_disk);
            on_disk.sort();
            let mut paths: Vec<String> =
                example.sources.iter().map(|(p, _)| p.to_string()).collect();
            paths.sort();
            assert_eq!(on_disk, paths, "{}", example.id);
            let checked = crate::check(&example.files()).unwrap();
            assert!(!checked.diagnostics.is_empty(), "{} shows no mistake", example.id);
        }
    }

    fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            match entry.file_type().unwrap().is_dir() {
                true => walk(&entry.path(), &format!("{name}/"), out),
                false => out.push(name),
            }
        }
    }
}
