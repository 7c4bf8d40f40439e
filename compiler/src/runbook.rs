//! Runbook: one agent's skills as a graph — the skills it activates, the
//! routes between them, where it starts — and what the graph says: which
//! skills the start reaches, which can never leave, which loop with no guard.
//!
//! The checks ([`crate::check`]) and the pictures (`agentc graph`) read the
//! same graph, so a skill drawn as a dead end is one a diagnostic names.

use std::collections::{HashMap, HashSet, VecDeque};

use agentc_schema::lockfile::{Agent, CompiledRoute, ScopeKind, Skill};
use petgraph::graph::{DiGraph, NodeIndex};

use crate::model::Model;

/// One agent's runbook. Skills are indexes into [`Runbook::skills`].
#[derive(Debug)]
pub struct Runbook<'m> {
    pub agent: &'m Agent,
    /// The skills the agent activates that the model has, in the agent's order.
    pub skills: Vec<&'m Skill>,
    /// The skill the runbook starts at, when the agent declares one.
    pub start: Option<usize>,
    /// Every route out of every skill, in skill then file order.
    pub routes: Vec<Route<'m>>,
    /// Which skills the start reaches; all of them when there is no start.
    pub reached: Vec<bool>,
    /// Each skill's routes, as a range of [`Runbook::routes`].
    out: Vec<std::ops::Range<usize>>,
}

/// A route out of one of the runbook's skills.
#[derive(Debug)]
pub struct Route<'m> {
    pub from: usize,
    /// The target, when the agent activates it; a route to a skill the agent
    /// does not activate cannot be taken in this runbook.
    pub to: Option<usize>,
    pub route: &'m CompiledRoute,
    /// The guard waits on a tool the agent cannot use, so it never fires.
    pub tool_unusable: bool,
}

impl Route<'_> {
    /// No guard: the model may take it whenever it likes.
    pub fn unguarded(&self) -> bool {
        self.route.on_tool.is_none() && self.route.statuses.is_empty()
    }

    /// The route can fire in this agent.
    pub fn usable(&self) -> bool {
        self.to.is_some() && !self.tool_unusable
    }
}

impl<'m> Runbook<'m> {
    /// The runbook of `agent`: its skills and their routes, with reach from
    /// the start.
    pub fn of(model: &'m Model, agent: &'m Agent) -> Runbook<'m> {
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut skills = Vec::new();
        for reference in &agent.skills {
            if let Some(skill) = model.skill(&reference.qualified)
                && !index.contains_key(skill.qualified.as_str())
            {
                index.insert(skill.qualified.as_str(), skills.len());
                skills.push(skill);
            }
        }
        let usable = AgentTools::of(model, agent);
        let mut routes = Vec::new();
        let mut out = Vec::with_capacity(skills.len());
        for (from, skill) in skills.iter().enumerate() {
            let first = routes.len();
            routes.extend(skill.routes.iter().map(|route| Route {
                from,
                to: index.get(route.target.as_str()).copied(),
                route,
                tool_unusable: route.on_tool.as_deref().is_some_and(|tool| !usable.can_use(tool)),
            }));
            out.push(first..routes.len());
        }
        let start = agent.start.as_deref().and_then(|s| index.get(s).copied());
        let reached = vec![start.is_none(); skills.len()];
        let mut runbook = Runbook { agent, skills, start, routes, reached, out };
        if let Some(start) = start {
            runbook.reach_from(start);
        }
        runbook
    }

    /// Marks what `start` reaches over routes to the agent's skills, whatever
    /// their guards: a guard that cannot fire is its own finding.
    fn reach_from(&mut self, start: usize) {
        self.reached[start] = true;
        let mut queue = VecDeque::from([start]);
        while let Some(at) = queue.pop_front() {
            for i in self.out[at].clone() {
                if let Some(to) = self.routes[i].to
                    && !self.reached[to]
                {
                    self.reached[to] = true;
                    queue.push_back(to);
                }
            }
        }
    }

    /// The routes out of `skill`.
    pub fn routes_from(&self, skill: usize) -> &[Route<'m>] {
        &self.routes[self.out[skill].clone()]
    }

    /// A skill that declares routes and can take none of them here: the
    /// runbook stops where its author meant it to go on. (A skill with no
    /// routes is where the runbook ends.)
    pub fn dead_end(&self, skill: usize) -> bool {
        let routes = self.routes_from(skill);
        !routes.is_empty() && routes.iter().all(|r| !r.usable())
    }

    /// A skill that declares no routes: the runbook ends there.
    pub fn terminal(&self, skill: usize) -> bool {
        self.skills[skill].routes.is_empty()
    }

    /// The skills whose every route waits on a tool the agent cannot use.
    pub fn stuck_on_tools(&self) -> Vec<usize> {
        (0..self.skills.len())
            .filter(|&s| {
                let routes = self.routes_from(s);
                !routes.is_empty() && routes.iter().all(|r| r.tool_unusable)
            })
            .collect()
    }

    /// The start, when no route out of it leads to another of the agent's
    /// skills although the agent activates others.
    pub fn start_routes_nowhere(&self) -> Option<usize> {
        let start = self.start?;
        let goes_on = self.routes_from(start).iter().any(|r| r.to.is_some_and(|to| to != start));
        (!goes_on && self.skills.len() > 1).then_some(start)
    }

    /// Every cycle of routes with no guard: each unguarded self-route, and one
    /// cycle per strongly connected set of two or more skills. A cycle is the
    /// routes (indexes into [`Runbook::routes`]) that go round it once from
    /// its first skill by name; cycles are in that skill's name order.
    pub fn unguarded_cycles(&self) -> Vec<Vec<usize>> {
        let by_name = |s: usize| (&self.skills[s].name, &self.skills[s].qualified);
        let mut cycles: Vec<Vec<usize>> = (self.routes.iter().enumerate())
            .filter(|(_, r)| r.unguarded() && r.to == Some(r.from))
            .map(|(i, _)| vec![i])
            .collect();
        let mut graph: DiGraph<usize, usize> = DiGraph::new();
        let nodes: Vec<NodeIndex> = (0..self.skills.len()).map(|s| graph.add_node(s)).collect();
        for (i, route) in self.routes.iter().enumerate() {
            if let Some(to) = route.to.filter(|&to| route.unguarded() && to != route.from) {
                graph.add_edge(nodes[route.from], nodes[to], i);
            }
        }
        cycles.extend(petgraph::algo::tarjan_scc(&graph).into_iter().filter_map(|component| {
            let members: HashSet<usize> = component.iter().map(|n| graph[*n]).collect();
            let first = members.iter().copied().min_by_key(|&s| by_name(s))?;
            self.cycle_through(first, &members)
        }));
        cycles.sort_by_key(|cycle| (by_name(self.routes[cycle[0]].from), cycle.len()));
        cycles
    }

    /// The shortest cycle of unguarded routes between skills from `first`
    /// back to it inside `members`, found breadth first (self-routes are
    /// cycles of their own); `None` for a lone skill.
    fn cycle_through(&self, first: usize, members: &HashSet<usize>) -> Option<Vec<usize>> {
        let inside = |r: &Route| {
            r.unguarded()
                && members.contains(&r.from)
                && r.to.is_some_and(|t| t != r.from && members.contains(&t))
        };
        let mut came_by: HashMap<usize, usize> = HashMap::new();
        let mut queue = VecDeque::from([first]);
        while let Some(at) = queue.pop_front() {
            for i in self.out[at].clone() {
                let route = &self.routes[i];
                if !inside(route) {
                    continue;
                }
                let to = route.to?;
                if to == first {
                    let mut path = vec![i];
                    let mut back = at;
                    while back != first {
                        let by = *came_by.get(&back)?;
                        path.push(by);
                        back = self.routes[by].from;
                    }
                    path.reverse();
                    return Some(path);
                }
                if let std::collections::hash_map::Entry::Vacant(e) = came_by.entry(to) {
                    e.insert(i);
                    queue.push_back(to);
                }
            }
        }
        None
    }
}

/// The tools of one agent: the ones it lists, and — by name — its own
/// private tools, which stand in for shared ones of the same name (that
/// shadowing is reported as `name-shadow`, and a shared skill needing the
/// shared tool must not be reported again); less the ones it denies.
pub struct AgentTools<'m> {
    listed: HashSet<&'m str>,
    private_names: HashSet<&'m str>,
    denied: HashSet<&'m str>,
}

impl<'m> AgentTools<'m> {
    pub fn of(model: &'m Model, agent: &'m Agent) -> AgentTools<'m> {
        AgentTools {
            listed: agent.tools.iter().map(|r| r.qualified.as_str()).collect(),
            private_names: (agent.tools.iter())
                .filter(|r| r.scope == ScopeKind::Agent)
                .filter_map(|r| model.tool(&r.qualified).map(|t| t.name.as_str()))
                .collect(),
            denied: agent.disallowed_tools.iter().map(|r| r.qualified.as_str()).collect(),
        }
    }

    /// The agent's `tools` name this tool (qualified).
    pub fn lists(&self, tool: &str) -> bool {
        self.listed.contains(tool)
    }

    /// The agent activates this tool, itself or a private one of its name.
    pub fn activates(&self, tool: &str) -> bool {
        self.lists(tool) || self.private_names.contains(tool)
    }

    /// The agent activates this tool and does not deny it.
    pub fn can_use(&self, tool: &str) -> bool {
        self.activates(tool) && !self.denied.contains(tool)
    }
}
