//! The parsed project: every file of the agents directory decoded into its
//! schema type, with its source; nothing resolved yet.

use std::sync::Arc;

use agentc_schema::{
    AgentFrontmatter, AgentManifest, Dialect, List, PluginManifest, Registry, SkillFrontmatter,
    Spanned, Text, ToolManifest,
};

use crate::diagnostic::RelPath;
use crate::dialects::AssistantDoc;
use crate::discover::{AgentDir, AssistantFile, PluginDir, SkillFile, ToolDir};
use crate::parse::files::{Document, Markdown};
use crate::source::Source;

/// A skill whose `SKILL.md` parsed.
#[derive(Clone, Debug)]
pub struct Skill {
    pub file: SkillFile,
    pub source: Source,
    /// Shared with the compile memo, which hands it to the next compile
    /// when the file has not changed.
    pub parsed: Arc<Markdown<SkillFrontmatter>>,
}

/// A tool folder, with its descriptor when it has one that parsed.
#[derive(Clone, Debug)]
pub struct Tool {
    pub dir: ToolDir,
    pub manifest: Option<(Source, Document<ToolManifest>)>,
}

/// An agent whose `AGENT.md` or `agent.json` parsed.
#[derive(Clone, Debug)]
pub struct Agent {
    pub dir: AgentDir,
    pub source: Source,
    pub kind: AgentKind,
}

/// The names an agent refers to, as written, whichever style it is in.
#[derive(Debug, Default)]
pub struct AgentRefs {
    pub tools: Vec<Spanned<String>>,
    pub skills: Vec<Spanned<String>>,
    pub disallowed: Vec<Spanned<String>>,
    pub context: Vec<Spanned<String>>,
}

impl Agent {
    /// The tools, skills, deny list and context providers the agent names.
    pub fn references(&self) -> AgentRefs {
        let texts = |list: &Option<List<Text>>| -> Vec<Spanned<String>> {
            list.iter().flatten().map(|t| t.as_ref().map(|t| t.as_str().to_owned())).collect()
        };
        match &self.kind {
            AgentKind::Bundle(md) => {
                let front = &md.front.value;
                AgentRefs {
                    tools: front.tools.iter().flatten().cloned().collect(),
                    skills: front.skills.iter().flatten().cloned().collect(),
                    disallowed: Vec::new(),
                    context: front.context.iter().flatten().cloned().collect(),
                }
            }
            AgentKind::Package { manifest, .. } => AgentRefs {
                tools: texts(&manifest.value.tools),
                skills: texts(&manifest.value.skills),
                disallowed: texts(&manifest.value.disallowed_tools),
                context: Vec::new(),
            },
        }
    }

    /// Whether the value of `key` had a problem (reported) and was set aside.
    pub fn recovered(&self, key: &str) -> bool {
        match &self.kind {
            AgentKind::Bundle(md) => md.front.recovered(key),
            AgentKind::Package { manifest, .. } => manifest.recovered(key),
        }
    }
}

#[derive(Clone, Debug)]
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

/// A coding assistant's agent file that parsed: a Claude Code subagent or
/// command, or a Copilot custom agent.
#[derive(Clone, Debug)]
pub struct Assistant {
    pub file: AssistantFile,
    pub source: Source,
    pub doc: AssistantDoc,
}

impl Assistant {
    /// The name the host knows it by, before any plugin namespace: a
    /// subagent's `name`, a Copilot agent's `name` when it declares one (VS
    /// Code finds it by that alone then), otherwise the file's name.
    pub fn name(&self) -> &str {
        match &self.doc {
            AssistantDoc::Subagent(md) if !md.front.value.name.span.is_unknown() => {
                md.front.value.name.value.as_str()
            }
            _ => self.copilot_name().map_or(&self.file.stem, |name| name.value.as_str()),
        }
    }

    /// A Copilot agent's declared `name` (a blank one is `invalid-value` and
    /// set aside, so the file's name stands in rather than a second report).
    pub fn copilot_name(&self) -> Option<&Spanned<Text>> {
        match &self.doc {
            AssistantDoc::Copilot(md) => md.front.value.name.as_ref(),
            _ => None,
        }
    }

    /// The id: the name, namespaced by its plugin (`<plugin>:<name>`); a
    /// plugin's subagent in a subfolder has the folders in its id too
    /// (`<plugin>:review:security`), as Claude Code names it.
    pub fn id(&self) -> String {
        match &self.file.plugin {
            Some(plugin) => self.namespaced(plugin),
            // Claude Code names a command by its folders too (`frontend/component.md` is
            // `/frontend:component`), so commands in different folders never clash.
            None if self.file.dialect == agentc_schema::Dialect::ClaudeCommand => {
                self.name_in_plugin()
            }
            None => self.name().to_owned(),
        }
    }

    /// The name within its plugin: the folders, then the name.
    pub fn name_in_plugin(&self) -> String {
        let folders = match self.file.dialect {
            agentc_schema::Dialect::ClaudeSubagent | agentc_schema::Dialect::ClaudeCommand => {
                self.file.folders.as_slice()
            }
            _ => &[],
        };
        folders.iter().map(String::as_str).chain([self.name()]).collect::<Vec<_>>().join(":")
    }

    fn namespaced(&self, plugin: &str) -> String {
        format!("{plugin}:{}", self.name_in_plugin())
    }
}

/// A Claude Code plugin with its manifest, when that parsed.
#[derive(Clone, Debug)]
pub struct Plugin {
    pub dir: PluginDir,
    pub manifest: Option<(Source, Document<PluginManifest>)>,
}

/// A configuration file that parsed ([`crate::dialects::config`]).
#[derive(Clone, Debug)]
pub struct Config {
    pub file: crate::discover::ConfigFile,
    pub source: Source,
    pub doc: crate::dialects::config::ConfigDoc,
}

/// Everything that parsed.
#[derive(Clone, Debug, Default)]
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
    /// Those skills' files, as discovery found them (an editor still knows
    /// what they are while they do not parse).
    pub unparsed_skills: Vec<SkillFile>,
    pub tools: Vec<Tool>,
    pub agents: Vec<Agent>,
    pub assistants: Vec<Assistant>,
    pub plugins: Vec<Plugin>,
    pub configs: Vec<Config>,
    /// Assistant and configuration files that were read but did not parse,
    /// with their dialects: an editor still knows what they are.
    pub unparsed_files: Vec<(RelPath, Dialect)>,
}

impl Project {
    /// Whether skill `i`'s file is an earlier skill's, reached by another
    /// path (a skill folder linked into another assistant's folder): what
    /// its body links to is checked once, at the first path.
    pub fn read_earlier(&self, i: usize) -> bool {
        let file = &self.skills[i].file.file.path;
        self.skills[..i].iter().any(|skill| &skill.file.file.path == file)
    }
}
