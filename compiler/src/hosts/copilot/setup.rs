//! The Copilot cloud agent's setup workflow,
//! `.github/workflows/copilot-setup-steps.yml`: its `copilot-setup-steps`
//! job, and the settings of it the agent takes. From GitHub's
//! "Customizing the development environment for GitHub Copilot cloud agent"
//! (`docs/formats.md`, "Copilot setup steps"); the cloud agent does not run
//! here, so each rule is at the level those words support.

use agentc_schema::copilot_setup::{
    ACTIONS_JOB_KEYS, MAX_SETUP_MINUTES, SETUP_JOB, SETUP_JOB_KEYS,
};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::entry_value;
use crate::parse::tree::{Node, Value};
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// The rules of the workflow, read into `tree`.
pub fn check(source: &Source, tree: &Node, out: &mut Vec<Diagnostic>) {
    let Value::Map(top) = &tree.value else {
        return;
    };
    let Some(jobs_entry) = top.iter().find(|e| e.key == "jobs") else {
        return;
    };
    let Value::Map(jobs) = &jobs_entry.value.value else {
        return;
    };
    match jobs.iter().find(|e| e.key == SETUP_JOB) {
        Some(job) => self::job(source, &job.value, out),
        None => out.push(no_setup_job(source, jobs_entry.key_span, jobs)),
    }
}

/// The workflow has no `copilot-setup-steps` job: the agent runs none of
/// it. At a job named nearly so, with the fix when the near miss is sure.
fn no_setup_job(
    source: &Source,
    jobs_key: agentc_schema::Span,
    jobs: &[crate::parse::tree::Entry],
) -> Diagnostic {
    let file = &source.path;
    let near = jobs.iter().find(|j| did_you_mean(&j.key, [SETUP_JOB]).is_some());
    let help = "GitHub: \"The job MUST be called `copilot-setup-steps` or it will not be picked \
                up by Copilot\"; the agent then starts without these steps";
    match near {
        Some(job) => {
            let diagnostic = Diagnostic::at(
                Code::MissingField,
                file,
                job.key_span,
                format!("the job `{}` is not named `{SETUP_JOB}`", job.key),
            )
            .with_help(format!("did you mean `{SETUP_JOB}`? {help}"));
            let written = source.text.get(job.key_span.start..job.key_span.end);
            match confident(&job.key, [SETUP_JOB]).filter(|_| written == Some(job.key.as_str())) {
                Some(fix) => diagnostic.with_fix(
                    format!("rename the job to `{fix}`"),
                    file,
                    Some(job.key_span),
                    fix,
                ),
                None => diagnostic,
            }
        }
        None => Diagnostic::at(
            Code::MissingField,
            file,
            jobs_key,
            format!("no job is named `{SETUP_JOB}`"),
        )
        .with_help(format!(
            "name the job that prepares the agent's environment `{SETUP_JOB}`; {help}"
        )),
    }
}

/// The setup job's settings: the agent takes six and ignores the rest.
fn job(source: &Source, job: &Node, out: &mut Vec<Diagnostic>) {
    let file = &source.path;
    let Value::Map(entries) = &job.value else {
        return;
    };
    for entry in entries {
        let key = entry.key.as_str();
        if SETUP_JOB_KEYS.contains(&key) {
            continue;
        }
        let diagnostic = if ACTIONS_JOB_KEYS.contains(&key) {
            let instead = match key {
                "env" => {
                    "; set variables in the steps (`env` on a step) or as the `copilot` environment's variables"
                }
                "container" => "; it runs on the `runs-on` runner itself",
                _ => "",
            };
            Diagnostic::at(
                Code::UnknownField,
                file,
                entry.key_span,
                format!("the cloud agent ignores `{key}` in its setup job"),
            )
            .with_help(format!(
                "GitHub: in `copilot-setup-steps` \"you can only customize\" `steps`, \
                 `permissions`, `runs-on`, `services`, `snapshot` and `timeout-minutes`; \
                 \"other settings … will be ignored\"{instead}"
            ))
        } else {
            let known = SETUP_JOB_KEYS.iter().chain(ACTIONS_JOB_KEYS).copied();
            let near = did_you_mean(key, known);
            Diagnostic::at(
                Code::UnknownField,
                file,
                entry.key_span,
                format!("`{key}` is not a setting of a GitHub Actions job"),
            )
            .with_help(match near {
                Some(close) => format!("did you mean `{close}`? GitHub Actions refuses a workflow with a key it does not know"),
                None => "the setup job takes `steps`, `permissions`, `runs-on`, `services`, `snapshot` and `timeout-minutes`".to_owned(),
            })
        };
        out.push(diagnostic.with_severity(Severity::Warning));
    }
    if let Some(minutes) = entry_value(job, "timeout-minutes") {
        let value = match minutes.value {
            Value::Int(n) => Some(n as f64),
            Value::UInt(n) => Some(n as f64),
            Value::Float(n) => Some(n),
            _ => None,
        };
        if let Some(value) = value.filter(|v| *v > MAX_SETUP_MINUTES as f64) {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    minutes.span,
                    format!("`timeout-minutes: {value}` is over the agent's {MAX_SETUP_MINUTES}"),
                )
                .with_severity(Severity::Warning)
                .with_help(format!(
                    "GitHub documents `timeout-minutes` for the setup job with a \"maximum \
                     value: {MAX_SETUP_MINUTES}\" (a cloud agent session lasts at most 59 \
                     minutes); write {MAX_SETUP_MINUTES} or less"
                )),
            );
        }
    }
    if let Some(runs_on) = entry_value(job, "runs-on") {
        for label in labels(runs_on) {
            let Value::Str(text) = &label.value else {
                continue;
            };
            let lower = text.to_ascii_lowercase();
            let why = if lower.contains("macos") {
                "macOS"
            } else if lower.ends_with("-arm") || lower.contains("arm64") {
                "Arm"
            } else {
                continue;
            };
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    label.span,
                    format!("the cloud agent does not run on {why} runners"),
                )
                .with_severity(Severity::Warning)
                .with_help(
                    "GitHub: \"Copilot cloud agent is only compatible with Ubuntu x64 and Windows \
                     64-bit runners\"; use `ubuntu-latest`, a larger Ubuntu x64 or Windows x64 \
                     runner, or a self-hosted one of those",
                ),
            );
        }
    }
}

/// The labels of a `runs-on`: one, a list, or `labels` in a mapping.
fn labels(runs_on: &Node) -> Vec<&Node> {
    match &runs_on.value {
        Value::Str(_) => vec![runs_on],
        Value::Seq(items) => items.iter().collect(),
        Value::Map(_) => entry_value(runs_on, "labels").map_or_else(Vec::new, labels),
        _ => Vec::new(),
    }
}
