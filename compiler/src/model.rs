//! The resolved model: what an agents directory means, once every name is
//! resolved.
//!
//! It is plain data — the `agentc-schema` lockfile types — with no spans and
//! no references back into parsing: names are qualified, prompts composed,
//! routes carry their parsed guards. The lockfile and the generated Rust code
//! are both written from it as it is.

use agentc_schema::lockfile::{Agent, Assistant, HookSet, McpServer, Plugin, Skill, Tool};

/// A compiled agents directory. Agents are in id order, skills and tools in
/// qualified-name order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    pub agents: Vec<Agent>,
    pub skills: Vec<Skill>,
    pub tools: Vec<Tool>,
    /// In id order.
    pub assistants: Vec<Assistant>,
    /// In folder order.
    pub plugins: Vec<Plugin>,
    /// In id order.
    pub mcp_servers: Vec<McpServer>,
    /// In file, then event order.
    pub hooks: Vec<HookSet>,
}

impl Model {
    pub fn agent(&self, id: &str) -> Option<&Agent> {
        let i = self.agents.binary_search_by(|a| a.id.as_str().cmp(id)).ok()?;
        Some(&self.agents[i])
    }

    pub fn skill(&self, qualified: &str) -> Option<&Skill> {
        let i = self.skills.binary_search_by(|s| s.qualified.as_str().cmp(qualified)).ok()?;
        Some(&self.skills[i])
    }

    pub fn tool(&self, qualified: &str) -> Option<&Tool> {
        let i = self.tools.binary_search_by(|t| t.qualified.as_str().cmp(qualified)).ok()?;
        Some(&self.tools[i])
    }
}
