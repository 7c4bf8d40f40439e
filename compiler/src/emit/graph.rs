//! Pictures of the runbooks: every agent's skills as nodes grouped by agent,
//! routes as edges labelled with their guards, and the assistants' handoffs
//! and skills — as Mermaid (which GitHub renders in Markdown), Graphviz DOT,
//! or JSON for other tools.
//!
//! What is drawn apart — unreachable skills, dead ends, routes that cannot
//! fire — is what [`crate::runbook`] finds, the same graph the checks read.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Write as _;

use serde::Serialize;

use crate::emit::{escape_json, is_control};
use crate::model::Model;
use crate::runbook::Runbook;

/// The graph of a compiled project, or of one of its agents.
#[derive(Debug, Default, Serialize)]
pub struct Graph {
    /// One per agent, in id order.
    pub groups: Vec<Group>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

/// An agent and the skills it activates.
#[derive(Debug, Serialize)]
pub struct Group {
    /// The agent's id.
    pub agent: String,
    /// The node its runbook starts at.
    pub start: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeKind {
    Skill,
    /// A Claude Code subagent or a Copilot agent.
    Assistant,
    /// An MCP server a subagent names.
    McpServer,
}

/// A skill inside an agent's group (a skill two agents activate is drawn in
/// each), a skill outside every agent, or an assistant.
#[derive(Debug, Serialize)]
pub struct Node {
    pub kind: NodeKind,
    /// The name people write.
    pub name: String,
    /// The skill's qualified name, or the assistant's id.
    pub qualified: String,
    /// The index of the agent's group, if it is in one.
    pub group: Option<usize>,
    /// The file that defines it.
    pub source: String,
    /// The runbook starts here.
    pub start: bool,
    /// No route reaches it from the start.
    pub unreachable: bool,
    /// It declares routes and can take none of them in this agent.
    pub dead_end: bool,
    /// It declares no routes: the runbook ends here.
    pub terminal: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EdgeKind {
    Route,
    /// A Copilot agent hands the conversation to another.
    Handoff,
    /// A subagent loads a skill.
    Skill,
    /// A subagent uses an MCP server.
    Mcp,
}

/// An edge between two nodes (indexes into [`Graph::nodes`]).
#[derive(Debug, Serialize)]
pub struct Edge {
    pub kind: EdgeKind,
    pub from: usize,
    pub to: usize,
    /// A route's guard, as the grammar writes it (`on lookup_order status=denied`).
    pub guard: Option<String>,
    /// A route that can fire here: its target is the agent's and its tool usable.
    pub usable: bool,
}

/// What `--agent` names that the project does not have.
#[derive(Debug)]
pub struct UnknownAgent {
    pub name: String,
    pub known: Vec<String>,
}

impl std::fmt::Display for UnknownAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "there is no agent `{}`", self.name)?;
        match crate::suggest::did_you_mean(&self.name, self.known.iter().map(String::as_str)) {
            Some(near) => write!(f, "; did you mean `{near}`?"),
            None if self.known.is_empty() => write!(f, "; the project has no agents"),
            None => write!(
                f,
                "; the agents are: {}",
                crate::suggest::list_names(self.known.iter().map(String::as_str))
            ),
        }
    }
}

impl std::error::Error for UnknownAgent {}

impl Graph {
    /// The graph of every agent, every skill outside them, and every
    /// assistant; or with `only`, of that agent or assistant alone (an
    /// assistant with the assistants it hands off to and its skills).
    pub fn of(model: &Model, only: Option<&str>) -> Result<Graph, UnknownAgent> {
        let mut graph = Graph::default();
        let mut builder = Builder { model, graph: &mut graph, loose: HashMap::new() };
        match only {
            None => {
                for agent in &model.agents {
                    builder.agent(agent);
                }
                let in_agents: std::collections::HashSet<&str> = model
                    .agents
                    .iter()
                    .flat_map(|a| a.skills.iter().map(|r| r.qualified.as_str()))
                    .collect();
                let loose: Vec<&str> = model
                    .skills
                    .iter()
                    .map(|s| s.qualified.as_str())
                    .filter(|q| !in_agents.contains(q))
                    .collect();
                builder.loose_skills(&loose);
                let ids: Vec<&str> = model.assistants.iter().map(|a| a.id.as_str()).collect();
                builder.assistants(&ids);
            }
            Some(name) => {
                if let Some(agent) = model.agent(name) {
                    builder.agent(agent);
                } else if model.assistants.iter().any(|a| a.id == name) {
                    builder.assistants(&[name]);
                } else {
                    let known = model
                        .agents
                        .iter()
                        .map(|a| a.id.clone())
                        .chain(model.assistants.iter().map(|a| a.id.clone()))
                        .collect();
                    return Err(UnknownAgent { name: name.to_owned(), known });
                }
            }
        }
        Ok(graph)
    }

    /// Mermaid `flowchart` text; GitHub renders it in a ```` ```mermaid ```` block.
    pub fn mermaid(&self) -> String {
        let mut out = String::from("flowchart LR\n");
        let node = |out: &mut String, i: usize, indent: &str| {
            let n = &self.nodes[i];
            let label = mermaid_text(&n.name);
            let shape = match (n.kind, n.terminal) {
                (NodeKind::Assistant, _) => format!("{{{{\"{label}\"}}}}"),
                (NodeKind::McpServer, _) => format!("[(\"{label}\")]"),
                (NodeKind::Skill, true) => format!("([\"{label}\"])"),
                (NodeKind::Skill, false) => format!("[\"{label}\"]"),
            };
            let _ = writeln!(out, "{indent}n{i}{shape}");
        };
        let members = self.members();
        for (g, group) in self.groups.iter().enumerate() {
            let _ = writeln!(out, "  subgraph a{g}[\"agent {}\"]", mermaid_text(&group.agent));
            if group.start.is_some() {
                let _ = writeln!(out, "    a{g}_start((\"start\"))");
            }
            for &i in &members[g] {
                node(&mut out, i, "    ");
            }
            out.push_str("  end\n");
        }
        for &i in &members[self.groups.len()] {
            node(&mut out, i, "  ");
        }
        let mut link = 0;
        let mut unusable = Vec::new();
        for (g, group) in self.groups.iter().enumerate() {
            if let Some(start) = group.start {
                let _ = writeln!(out, "  a{g}_start --> n{start}");
                link += 1;
            }
        }
        for edge in &self.edges {
            let arrow = match edge.kind {
                EdgeKind::Route => "-->",
                EdgeKind::Handoff | EdgeKind::Skill | EdgeKind::Mcp => "-.->",
            };
            let label = match (edge.kind, &edge.guard) {
                (EdgeKind::Route, Some(guard)) => Some(mermaid_text(guard)),
                (EdgeKind::Route, None) => None,
                (EdgeKind::Handoff, _) => Some("handoff".to_owned()),
                (EdgeKind::Skill, _) => Some("skill".to_owned()),
                (EdgeKind::Mcp, _) => Some("mcp".to_owned()),
            };
            let _ = match label {
                Some(label) => {
                    writeln!(out, "  n{} {arrow}|\"{label}\"| n{}", edge.from, edge.to)
                }
                None => writeln!(out, "  n{} {arrow} n{}", edge.from, edge.to),
            };
            if !edge.usable {
                unusable.push(link.to_string());
            }
            link += 1;
        }
        out.push_str("  classDef start stroke-width:3px\n");
        out.push_str("  classDef unreachable stroke-dasharray:5 5,color:#777777\n");
        out.push_str("  classDef deadEnd stroke:#cc0000,stroke-width:2px\n");
        for (class, picked) in [
            ("start", self.picked(|n| n.start)),
            ("unreachable", self.picked(|n| n.unreachable)),
            ("deadEnd", self.picked(|n| n.dead_end)),
        ] {
            if !picked.is_empty() {
                let _ = writeln!(out, "  class {} {class}", picked.join(","));
            }
        }
        if !unusable.is_empty() {
            let _ = writeln!(
                out,
                "  linkStyle {} stroke:#cc0000,stroke-dasharray:4 4",
                unusable.join(",")
            );
        }
        out
    }

    /// Why Mermaid will refuse `text` (this graph's Mermaid), if it will: it
    /// draws at most 500 edges and 50,000 characters by default, and a
    /// diagram cannot raise either (both are on Mermaid's `secure` list).
    pub fn mermaid_too_big(&self, text: &str) -> Option<String> {
        const MAX_EDGES: usize = 500;
        const MAX_TEXT: usize = 50_000;
        let edges = self.edges.len() + self.groups.iter().filter(|g| g.start.is_some()).count();
        // Mermaid counts JavaScript string length: UTF-16 units.
        let length = text.encode_utf16().count();
        (edges > MAX_EDGES || length > MAX_TEXT).then(|| {
            format!(
                "Mermaid draws at most {MAX_EDGES} edges and {MAX_TEXT} characters, and this graph has \
                 {edges} edges in {length} characters: GitHub will show an error instead of the picture; \
                 draw one agent (`--agent NAME`) or use `--format dot`"
            )
        })
    }

    /// Graphviz DOT text (`dot -Tsvg`).
    pub fn dot(&self) -> String {
        let mut out = String::from(
            "digraph agents {\n  rankdir=LR;\n  graph [fontname=\"Helvetica\"];\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n",
        );
        let node = |out: &mut String, i: usize, indent: &str| {
            let n = &self.nodes[i];
            let mut attrs = vec![format!("label={}", dot_string(&n.name))];
            match n.kind {
                NodeKind::Assistant => attrs.push("shape=hexagon".to_owned()),
                NodeKind::McpServer => attrs.push("shape=cylinder".to_owned()),
                NodeKind::Skill => {}
            }
            if n.terminal {
                attrs.push("peripheries=2".to_owned());
            }
            if n.unreachable {
                attrs.push("style=\"rounded,dashed\", color=gray45, fontcolor=gray45".to_owned());
            } else if n.dead_end {
                attrs.push("color=red3".to_owned());
            }
            if n.start {
                attrs.push("penwidth=3".to_owned());
            } else if n.dead_end && !n.unreachable {
                attrs.push("penwidth=2".to_owned());
            }
            let _ = writeln!(out, "{indent}n{i} [{}];", attrs.join(", "));
        };
        let members = self.members();
        for (g, group) in self.groups.iter().enumerate() {
            let _ = writeln!(out, "  subgraph cluster_a{g} {{");
            let _ = writeln!(out, "    label={};", dot_string(&format!("agent {}", group.agent)));
            if group.start.is_some() {
                let _ = writeln!(
                    out,
                    "    a{g}_start [label=\"start\", shape=circle, style=filled, fillcolor=black, fontcolor=white, fontsize=9];"
                );
            }
            for &i in &members[g] {
                node(&mut out, i, "    ");
            }
            out.push_str("  }\n");
        }
        for &i in &members[self.groups.len()] {
            node(&mut out, i, "  ");
        }
        for (g, group) in self.groups.iter().enumerate() {
            if let Some(start) = group.start {
                let _ = writeln!(out, "  a{g}_start -> n{start};");
            }
        }
        for edge in &self.edges {
            let mut attrs = Vec::new();
            match (edge.kind, &edge.guard) {
                (EdgeKind::Route, Some(guard)) => {
                    attrs.push(format!("label={}", dot_string(guard)))
                }
                (EdgeKind::Route, None) => {}
                (EdgeKind::Handoff, _) => attrs.push("label=\"handoff\", style=dashed".to_owned()),
                (EdgeKind::Skill, _) => attrs.push("label=\"skill\", style=dotted".to_owned()),
                (EdgeKind::Mcp, _) => attrs.push("label=\"mcp\", style=dotted".to_owned()),
            }
            if !edge.usable {
                attrs.push("color=red3, fontcolor=red3, style=dashed".to_owned());
            }
            let attrs =
                if attrs.is_empty() { String::new() } else { format!(" [{}]", attrs.join(", ")) };
            let _ = writeln!(out, "  n{} -> n{}{attrs};", edge.from, edge.to);
        }
        out.push_str("}\n");
        out
    }

    /// The graph as pretty-printed JSON.
    pub fn json(&self) -> String {
        let mut text = escape_json(serde_json::to_string_pretty(self).unwrap_or_default());
        text.push('\n');
        text
    }

    /// The nodes of each group, in order, and last those outside every group.
    fn members(&self) -> Vec<Vec<usize>> {
        let mut members = vec![Vec::new(); self.groups.len() + 1];
        for (i, node) in self.nodes.iter().enumerate() {
            members[node.group.unwrap_or(self.groups.len())].push(i);
        }
        members
    }

    fn picked(&self, pick: impl Fn(&Node) -> bool) -> Vec<String> {
        (0..self.nodes.len()).filter(|&i| pick(&self.nodes[i])).map(|i| format!("n{i}")).collect()
    }
}

struct Builder<'m, 'g> {
    model: &'m Model,
    graph: &'g mut Graph,
    /// Skills drawn outside the agents, by qualified name.
    loose: HashMap<&'m str, usize>,
}

impl<'m> Builder<'m, '_> {
    fn agent(&mut self, agent: &'m agentc_schema::lockfile::Agent) {
        let runbook = Runbook::of(self.model, agent);
        let g = self.graph.groups.len();
        let first = self.graph.nodes.len();
        for (s, skill) in runbook.skills.iter().enumerate() {
            self.graph.nodes.push(Node {
                kind: NodeKind::Skill,
                name: skill.name.clone(),
                qualified: skill.qualified.clone(),
                group: Some(g),
                source: skill.source.to_string(),
                start: runbook.start == Some(s),
                unreachable: !runbook.reached[s],
                dead_end: runbook.dead_end(s),
                terminal: runbook.terminal(s),
            });
        }
        for route in &runbook.routes {
            // A route to a skill the agent does not activate has nowhere to go
            // in this picture; the skill is drawn as the dead end it may be.
            let Some(to) = route.to else { continue };
            self.graph.edges.push(Edge {
                kind: EdgeKind::Route,
                from: first + route.from,
                to: first + to,
                guard: guard_text(self.model, route.route),
                usable: route.usable(),
            });
        }
        self.graph
            .groups
            .push(Group { agent: agent.id.clone(), start: runbook.start.map(|s| first + s) });
    }

    /// Draws these skills outside the agents, with every skill their routes
    /// lead to, and the routes between them.
    fn loose_skills(&mut self, qualified: &[&'m str]) {
        let mut queue = VecDeque::new();
        for q in qualified {
            self.loose_skill(q, &mut queue);
        }
        self.loose_routes(queue);
    }

    /// The routes of the queued loose skills, drawing the skills they lead to.
    fn loose_routes(&mut self, mut queue: VecDeque<&'m str>) {
        while let Some(at) = queue.pop_front() {
            let Some(skill) = self.model.skill(at) else { continue };
            let from = self.loose[at];
            for route in &skill.routes {
                let Some(to) = self.loose_skill(&route.target, &mut queue) else { continue };
                self.graph.edges.push(Edge {
                    kind: EdgeKind::Route,
                    from,
                    to,
                    guard: guard_text(self.model, route),
                    usable: true,
                });
            }
        }
    }

    /// The loose node of a skill, drawn (and queued for its routes) the first time.
    fn loose_skill(&mut self, qualified: &str, queue: &mut VecDeque<&'m str>) -> Option<usize> {
        let skill = self.model.skill(qualified)?;
        if let Some(&i) = self.loose.get(skill.qualified.as_str()) {
            return Some(i);
        }
        let i = self.graph.nodes.len();
        self.graph.nodes.push(Node {
            kind: NodeKind::Skill,
            name: skill.name.clone(),
            qualified: skill.qualified.clone(),
            group: None,
            source: skill.source.to_string(),
            start: false,
            unreachable: false,
            dead_end: false,
            terminal: skill.routes.is_empty(),
        });
        self.loose.insert(skill.qualified.as_str(), i);
        queue.push_back(skill.qualified.as_str());
        Some(i)
    }

    /// Draws these assistants, the ones they hand off to, their skills and
    /// the handoffs.
    fn assistants(&mut self, ids: &[&str]) {
        let by_id: BTreeMap<&str, &'m agentc_schema::lockfile::Assistant> =
            self.model.assistants.iter().map(|a| (a.id.as_str(), a)).collect();
        let mut drawn: HashMap<&str, usize> = HashMap::new();
        let mut node = |graph: &mut Graph, id: &str| -> Option<usize> {
            let assistant = *by_id.get(id)?;
            Some(*drawn.entry(assistant.id.as_str()).or_insert_with(|| {
                graph.nodes.push(Node {
                    kind: NodeKind::Assistant,
                    name: assistant.id.clone(),
                    qualified: assistant.id.clone(),
                    group: None,
                    source: assistant.source.clone(),
                    start: false,
                    unreachable: false,
                    dead_end: false,
                    terminal: false,
                });
                graph.nodes.len() - 1
            }))
        };
        for id in ids {
            let Some(from) = node(self.graph, id) else { continue };
            let assistant = by_id[id];
            for target in &assistant.handoffs {
                if let Some(to) = node(self.graph, target) {
                    self.graph.edges.push(Edge {
                        kind: EdgeKind::Handoff,
                        from,
                        to,
                        guard: None,
                        usable: true,
                    });
                }
            }
            for server in &assistant.mcp_servers {
                let to = self.mcp_server(server);
                self.graph.edges.push(Edge {
                    kind: EdgeKind::Mcp,
                    from,
                    to,
                    guard: None,
                    usable: true,
                });
            }
            let mut queue = VecDeque::new();
            for skill in &assistant.skills {
                let Some(to) = self.loose_skill(skill, &mut queue) else { continue };
                self.graph.edges.push(Edge {
                    kind: EdgeKind::Skill,
                    from,
                    to,
                    guard: None,
                    usable: true,
                });
            }
            self.loose_routes(queue);
        }
    }
}

impl Builder<'_, '_> {
    /// The node of an MCP server, drawn once.
    fn mcp_server(&mut self, id: &str) -> usize {
        if let Some(i) = (self.graph.nodes.iter())
            .position(|n| n.kind == NodeKind::McpServer && n.qualified == id)
        {
            return i;
        }
        let server = self.model.mcp_servers.iter().find(|s| s.id == id);
        self.graph.nodes.push(Node {
            kind: NodeKind::McpServer,
            name: server.map_or_else(|| id.to_owned(), |s| s.name.clone()),
            qualified: id.to_owned(),
            group: None,
            source: server.map(|s| s.source.clone()).unwrap_or_default(),
            start: false,
            unreachable: false,
            dead_end: false,
            terminal: false,
        });
        self.graph.nodes.len() - 1
    }
}

/// A route's guard as the grammar writes it, tools named plainly.
fn guard_text(model: &Model, route: &agentc_schema::lockfile::CompiledRoute) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(tool) = &route.on_tool {
        parts.push(format!("on {}", model.tool(tool).map_or(tool.as_str(), |t| t.name.as_str())));
    }
    if !route.statuses.is_empty() {
        let statuses: Vec<&str> = route.statuses.iter().map(|s| s.as_str()).collect();
        parts.push(format!("status={}", statuses.join(",")));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Text inside a Mermaid `"…"` label: its entity codes for the characters
/// that would end the string or read as markup (HTML, or Markdown between
/// backticks), and for every control character (`#27;`), which the picture
/// draws and the text never holds raw.
fn mermaid_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            // A label between backticks would be read as Markdown.
            '`' => out.push_str("#96;"),
            c if is_control(c) => {
                let _ = write!(out, "#{};", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// A DOT quoted string, drawn as written: a line break is DOT's `\n`, any
/// other control character is shown escaped (`\u{1b}`, as the human report
/// shows it) since Graphviz would draw it raw, and `&` is `&amp;` since
/// Graphviz reads entities (`&#27;`) in every label.
fn dot_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push_str("\\n"),
            c if is_control(c) => {
                for e in c.escape_default() {
                    // DOT's own escape character, doubled to be drawn.
                    if e == '\\' {
                        out.push('\\');
                    }
                    out.push(e);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_cannot_end_their_strings() {
        assert_eq!(
            mermaid_text(r#"a "b" #1 <i> & `c`"#),
            "a #quot;b#quot; #35;1 #lt;i#gt; #amp; #96;c#96;"
        );
        assert_eq!(dot_string(r#"say "hi" \ bye"#), r#""say \"hi\" \\ bye""#);
        assert_eq!(dot_string("two\nlines"), r#""two\nlines""#);
        assert_eq!(dot_string("x&#27;y"), r#""x&amp;#27;y""#);
    }

    /// C0, DEL and C1 never reach the text raw.
    #[test]
    fn control_characters_are_written_escaped() {
        let name = "S1\u{1b}]0;T\u{7}\tx\u{7f}\u{9b}2J\r\n";
        assert_eq!(mermaid_text(name), "S1#27;]0;T#7;#9;x#127;#155;2J#13;#10;");
        assert_eq!(dot_string(name), r#""S1\\u{1b}]0;T\\u{7}\\tx\\u{7f}\\u{9b}2J\n\n""#);
    }

    #[test]
    fn an_unknown_agent_names_the_nearest() {
        let model = Model::default();
        let err = Graph::of(&model, Some("billing")).unwrap_err();
        assert_eq!(err.to_string(), "there is no agent `billing`; the project has no agents");
        let known =
            UnknownAgent { name: "x".into(), known: vec!["billing".into(), "triage".into()] };
        assert_eq!(known.to_string(), "there is no agent `x`; the agents are: `billing`, `triage`");
    }
}
