//! Runs a compiled agentc runbook.
//!
//! `agentc::agents!` (or `agentc::build::Config`) turns an agents directory
//! into typed items: `Agent`, `Skill` and `Tool` enums, each skill's steps,
//! `onSkip` and routes, and a `Tools` trait with one method per tool taking
//! its typed input. A [`Run`] executes one agent's runbook against an
//! implementation of that trait:
//!
//! - it starts at the agent's `start` skill and offers the tools the current
//!   skill lists and the agent allows ([`Run::offered`]), with the step the
//!   procedure expects next ([`Run::expected`]);
//! - [`Run::call`] calls a tool (the model's JSON input is deserialized into
//!   the tool's input type; one that does not fit is an `invalid` outcome),
//!   then evaluates the current skill's route guards against that outcome —
//!   `on <tool>`, `status=<s>,…` or both — and moves to the first route's
//!   target whose guard fires (a route to a skill the agent does not
//!   activate is passed over); when none fires, a call of the expected step's
//!   tool completes the step;
//! - [`Run::take`] follows an unguarded route: the model's own choice;
//! - [`Run::skip`] skips the expected step as the skill's `onSkip` says:
//!   `advance` (the default) records the skip and moves to the next step,
//!   `hold` records it and keeps the step current;
//! - [`Run::finish`] ends the run at a skill with no routes, where the
//!   runbook ends.
//!
//! The run never talks to a model: whatever decides the next action (an LLM
//! client, a framework's agent loop, a script in a test) calls these
//! methods, and [`drive`] runs such a decider ([`Planner`]) to the end. Every
//! call, move and skip is in [`Run::trail`].

use std::fmt;

use agentc_schema::runtime::{
    AgentDef, AsyncDispatch, Dispatch, OnSkip, Outcome, SkillDef, SkillId, Status, StepDef,
};
use serde_json::Value;

/// The tool type of a skill type.
pub type ToolOf<S> = <S as SkillId>::Tool;

/// One agent's runbook in progress.
pub struct Run<S: SkillId> {
    agent: &'static AgentDef<S, ToolOf<S>>,
    skill: S,
    /// The index of the expected step in the current skill's steps.
    step: usize,
    calls: u32,
    finished: bool,
    last: Option<(ToolOf<S>, Status)>,
    trail: Vec<Event<S>>,
}

/// What happened in a run, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<S: SkillId> {
    /// A tool was called in `skill` and returned `status`.
    Called { skill: S, tool: ToolOf<S>, status: Status },
    /// The run moved from one skill to another.
    Moved { from: S, to: S, by: Move<ToolOf<S>> },
    /// The expected step was skipped; `on_skip` says what became of it.
    Skipped { skill: S, step: usize, on_skip: OnSkip },
    /// The run ended at a skill with no routes.
    Finished { skill: S },
}

/// Why a run moved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Move<T> {
    /// A guarded route fired on this tool's outcome.
    Route { tool: T, status: Status },
    /// An unguarded route, taken by choice.
    Choice,
}

/// A step the runbook does not allow.
#[derive(Clone, Debug, PartialEq)]
pub enum Error<S: SkillId> {
    /// The agent declares no `start` skill: say where to start with
    /// [`Run::starting_at`].
    NoStart { agent: &'static str },
    /// The skill is not one the agent activates.
    NotActivated { skill: S },
    /// The tool is not one the current skill offers (it does not list it, or
    /// the agent does not allow it).
    NotOffered { skill: S, tool: ToolOf<S> },
    /// No unguarded route leads from the current skill to this one.
    NoRoute { from: S, to: S },
    /// The current skill has no step left to skip.
    NoStep { skill: S },
    /// The current skill has routes onward: the runbook does not end here.
    NotAnEnd { skill: S },
    /// The agent's `max_iterations` tool calls are used up.
    Exhausted { max: u32 },
    /// The run has finished.
    Finished,
}

impl<S: SkillId> fmt::Display for Error<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoStart { agent } => write!(f, "the agent `{agent}` declares no `start` skill"),
            Error::NotActivated { skill } => {
                write!(f, "the agent does not activate the skill `{}`", skill.def().qualified)
            }
            Error::NotOffered { skill, tool } => write!(
                f,
                "the skill `{}` does not offer the tool `{}`",
                skill.def().qualified,
                tool_name::<S>(*tool)
            ),
            Error::NoRoute { from, to } => write!(
                f,
                "no unguarded route leads from `{}` to `{}`",
                from.def().qualified,
                to.def().qualified
            ),
            Error::NoStep { skill } => {
                write!(f, "the skill `{}` has no step left to skip", skill.def().qualified)
            }
            Error::NotAnEnd { skill } => write!(
                f,
                "the skill `{}` has routes onward; the runbook does not end there",
                skill.def().qualified
            ),
            Error::Exhausted { max } => write!(f, "the agent's {max} tool calls are used up"),
            Error::Finished => f.write_str("the run has finished"),
        }
    }
}

impl<S: SkillId> std::error::Error for Error<S> {}

fn tool_name<S: SkillId>(tool: ToolOf<S>) -> &'static str {
    agentc_schema::runtime::ToolId::def(tool).qualified
}

impl<S: SkillId> Run<S> {
    /// A run of `agent` from its `start` skill.
    pub fn new(agent: &'static AgentDef<S, ToolOf<S>>) -> Result<Run<S>, Error<S>> {
        let start = agent.start.ok_or(Error::NoStart { agent: agent.id })?;
        Run::starting_at(agent, start)
    }

    /// A run of `agent` from `skill`, which the agent must activate.
    pub fn starting_at(
        agent: &'static AgentDef<S, ToolOf<S>>,
        skill: S,
    ) -> Result<Run<S>, Error<S>> {
        if !agent.skills.contains(&skill) {
            return Err(Error::NotActivated { skill });
        }
        Ok(Run { agent, skill, step: 0, calls: 0, finished: false, last: None, trail: Vec::new() })
    }

    pub fn agent(&self) -> &'static AgentDef<S, ToolOf<S>> {
        self.agent
    }

    /// The current skill.
    pub fn skill(&self) -> S {
        self.skill
    }

    fn def(&self) -> &'static SkillDef<S, ToolOf<S>> {
        self.skill.def()
    }

    /// The tools the current skill offers: the ones it lists that the agent
    /// allows, in the skill's order.
    pub fn offered(&self) -> Vec<ToolOf<S>> {
        self.def().tools.iter().copied().filter(|t| self.agent.allows(*t)).collect()
    }

    /// The step the current skill's procedure expects next, if it has one
    /// left.
    pub fn expected(&self) -> Option<&'static StepDef<ToolOf<S>>> {
        self.def().steps.get(self.step)
    }

    /// The skills the model may move to by choice: targets of unguarded
    /// routes the agent activates.
    pub fn choices(&self) -> Vec<S> {
        (self.def().routes.iter())
            .filter(|r| r.on_tool.is_none() && r.statuses.is_empty())
            .map(|r| r.target)
            .filter(|t| self.agent.activates(*t))
            .collect()
    }

    /// The last tool called and its status: the state guards are evaluated
    /// against.
    pub fn last(&self) -> Option<(ToolOf<S>, Status)> {
        self.last
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Everything that happened, in order.
    pub fn trail(&self) -> &[Event<S>] {
        &self.trail
    }

    /// The checks before a call: not finished, the tool offered, calls left.
    fn admit(&self, tool: ToolOf<S>) -> Result<(), Error<S>> {
        if self.finished {
            return Err(Error::Finished);
        }
        if !self.offered().contains(&tool) {
            return Err(Error::NotOffered { skill: self.skill, tool });
        }
        match self.agent.max_iterations {
            Some(max) if self.calls >= max => Err(Error::Exhausted { max }),
            _ => Ok(()),
        }
    }

    /// Calls `tool` with the model's JSON `input` on `host` (an
    /// implementation of the generated `Tools` trait), then moves along the
    /// first route whose guard fires on the outcome.
    pub fn call<H: ?Sized>(
        &mut self,
        host: &H,
        tool: ToolOf<S>,
        input: Value,
    ) -> Result<Outcome, Error<S>>
    where
        ToolOf<S>: Dispatch<H>,
    {
        self.admit(tool)?;
        let outcome = Dispatch::dispatch(tool, host, input);
        self.observe(tool, outcome.status);
        Ok(outcome)
    }

    /// [`Run::call`] for async tools (`async_tools = true`).
    pub async fn call_async<H: ?Sized>(
        &mut self,
        host: &H,
        tool: ToolOf<S>,
        input: Value,
    ) -> Result<Outcome, Error<S>>
    where
        ToolOf<S>: AsyncDispatch<H>,
    {
        self.admit(tool)?;
        let outcome = AsyncDispatch::dispatch(tool, host, input).await;
        self.observe(tool, outcome.status);
        Ok(outcome)
    }

    /// Records that `tool` returned `status` in the current skill and moves
    /// on: along the first route whose guard fires and whose target the
    /// agent activates; otherwise, when `tool` is the expected step's, to the
    /// next step. Returns the skill moved to. ([`Run::call`] does this after
    /// each call; call it directly when something else ran the tool.)
    pub fn observe(&mut self, tool: ToolOf<S>, status: Status) -> Option<S> {
        let from = self.skill;
        self.calls += 1;
        self.last = Some((tool, status));
        self.trail.push(Event::Called { skill: from, tool, status });
        let target = (self.def().routes.iter())
            .filter(|r| r.fires(tool, status))
            .map(|r| r.target)
            .find(|t| self.agent.activates(*t));
        match target {
            Some(to) => {
                self.enter(to, Move::Route { tool, status });
                Some(to)
            }
            None => {
                if self.expected().is_some_and(|step| step.tool == tool) {
                    self.step += 1;
                }
                None
            }
        }
    }

    fn enter(&mut self, to: S, by: Move<ToolOf<S>>) {
        self.trail.push(Event::Moved { from: self.skill, to, by });
        self.skill = to;
        self.step = 0;
    }

    /// Follows an unguarded route to `to`: the model's choice.
    pub fn take(&mut self, to: S) -> Result<(), Error<S>> {
        if self.finished {
            return Err(Error::Finished);
        }
        if !self.choices().contains(&to) {
            return Err(Error::NoRoute { from: self.skill, to });
        }
        self.enter(to, Move::Choice);
        Ok(())
    }

    /// Skips the expected step as the skill's `onSkip` says (`advance` when
    /// it says nothing).
    pub fn skip(&mut self) -> Result<OnSkip, Error<S>> {
        if self.finished {
            return Err(Error::Finished);
        }
        if self.expected().is_none() {
            return Err(Error::NoStep { skill: self.skill });
        }
        let on_skip = self.def().on_skip.unwrap_or(OnSkip::Advance);
        self.trail.push(Event::Skipped { skill: self.skill, step: self.step, on_skip });
        if on_skip == OnSkip::Advance {
            self.step += 1;
        }
        Ok(on_skip)
    }

    /// Ends the run; only a skill with no routes ends a runbook.
    pub fn finish(&mut self) -> Result<(), Error<S>> {
        if self.finished {
            return Err(Error::Finished);
        }
        if !self.def().routes.is_empty() {
            return Err(Error::NotAnEnd { skill: self.skill });
        }
        self.finished = true;
        self.trail.push(Event::Finished { skill: self.skill });
        Ok(())
    }
}

/// What the decider wants next.
#[derive(Clone, Debug, PartialEq)]
pub enum Action<S: SkillId> {
    /// Call a tool the current skill offers with this JSON input.
    Call { tool: ToolOf<S>, input: Value },
    /// Follow an unguarded route.
    Take(S),
    /// Skip the expected step.
    Skip,
    /// End the run (at a skill with no routes).
    Finish,
}

/// Decides the next action of a run: a model behind an LLM client, or a
/// script. It sees the run (current skill, offered tools, expected step) and
/// the outcome of its last call.
pub trait Planner<S: SkillId> {
    fn next(&mut self, run: &Run<S>, last: Option<&Outcome>) -> Action<S>;
}

/// Runs `planner`'s actions on `run` against `host` until the run finishes.
/// An action the runbook does not allow ends the drive with its error.
pub fn drive<S: SkillId, H: ?Sized>(
    run: &mut Run<S>,
    host: &H,
    planner: &mut impl Planner<S>,
) -> Result<(), Error<S>>
where
    ToolOf<S>: Dispatch<H>,
{
    let mut last: Option<Outcome> = None;
    while !run.is_finished() {
        match planner.next(run, last.as_ref()) {
            Action::Call { tool, input } => last = Some(run.call(host, tool, input)?),
            Action::Take(to) => run.take(to)?,
            Action::Skip => {
                run.skip()?;
            }
            Action::Finish => run.finish()?,
        }
    }
    Ok(())
}
