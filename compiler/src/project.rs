//! The parsed project: every file of the agents directory decoded into its
//! schema type, with its source; nothing resolved yet.

use agentc_schema::{AgentFrontmatter, AgentManifest, Registry, SkillFrontmatter, ToolManifest};

use crate::discover::{AgentDir, SkillFile, ToolDir};
use crate::parse::files::{Document, Markdown};
use crate::source::Source;

/// A skill whose `SKILL.md` parsed.
#[derive(Debug)]
pub struct Skill {
    pub file: SkillFile,
    pub source: Source,
    pub parsed: Markdown<SkillFrontmatter>,
}

/// A tool folder, with its descriptor when it has one that parsed.
#[derive(Debug)]
pub struct Tool {
    pub dir: ToolDir,
    pub manifest: Option<(Source, Document<ToolManifest>)>,
}

/// An agent whose `AGENT.md` or `agent.json` parsed.
#[derive(Debug)]
pub struct Agent {
    pub dir: AgentDir,
    pub source: Source,
    pub kind: AgentKind,
}

#[derive(Debug)]
pub enum AgentKind {
    Bundle(Box<Markdown<AgentFrontmatter>>),
    Package {
        manifest: Box<Document<AgentManifest>>,
        /// The entry points that exist and hold text, in `entry_points` order.
        entry_points: Vec<Source>,
        workflows: Vec<Source>,
        knowledge: Vec<Source>,
    },
}

/// Everything that parsed.
#[derive(Debug, Default)]
pub struct Project {
    pub system_prompt: Option<Source>,
    pub repo_prompt: Option<Source>,
    pub registry: Option<Registry>,
    /// sha256 of the registry file's bytes.
    pub registry_sha256: Option<String>,
    pub skills: Vec<Skill>,
    /// Folder names of skills whose `SKILL.md` could not be read or parsed: a
    /// reference to one of these names is not reported as unknown, as the file
    /// itself already is.
    pub broken_skills: Vec<String>,
    pub tools: Vec<Tool>,
    pub agents: Vec<Agent>,
}
