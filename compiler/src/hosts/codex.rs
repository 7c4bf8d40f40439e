//! OpenAI's Codex, as it reads `.agents/skills/<s>/SKILL.md`: strict YAML
//! (`serde_yaml`), `name` at most 64 characters and `description` at most
//! 1,024, and no rule on a name's characters or its folder. A skill that
//! breaks a rule Codex applies is skipped with one start-up warning. Source:
//! `docs/research/claude-codex.md` §8 (Codex's `core-skills` loader and its
//! 0.171.0 binary, read 2026-12-02).

use super::SpecRule;
use crate::diagnostic::Severity;

/// How the specification's rules stand under Codex.
pub const fn spec_rule(rule: SpecRule) -> (Severity, &'static str) {
    match rule {
        SpecRule::NameLength | SpecRule::DescriptionLength => (
            Severity::Error,
            "Codex skips a skill whose name is over 64 characters or whose description is over \
             1,024, with one start-up warning",
        ),
        SpecRule::Name | SpecRule::Folder | SpecRule::CompatibilityLength | SpecRule::Metadata => (
            Severity::Warning,
            "Codex loads this skill, but the skill is not portable: the Agent Skills \
             specification, its `skills-ref` validator and Anthropic's skill upload refuse it",
        ),
    }
}
