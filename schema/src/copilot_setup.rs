//! The Copilot cloud agent's setup workflow,
//! `.github/workflows/copilot-setup-steps.yml`: a GitHub Actions workflow
//! whose `copilot-setup-steps` job runs before the agent starts. GitHub
//! documents which of the job's settings the agent takes
//! (`docs/formats.md`, "Copilot setup steps").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The job the cloud agent runs: "The job MUST be called
/// `copilot-setup-steps` or it will not be picked up by Copilot."
pub const SETUP_JOB: &str = "copilot-setup-steps";

/// The settings of the job the cloud agent takes; "If you try to customize
/// other settings, your changes will be ignored."
pub const SETUP_JOB_KEYS: &[&str] =
    &["steps", "permissions", "runs-on", "services", "snapshot", "timeout-minutes"];

/// The other keys GitHub Actions reads in a job: set in the setup job, the
/// agent ignores them.
pub const ACTIONS_JOB_KEYS: &[&str] = &[
    "name",
    "needs",
    "if",
    "environment",
    "concurrency",
    "outputs",
    "env",
    "defaults",
    "strategy",
    "continue-on-error",
    "container",
    "uses",
    "with",
    "secrets",
];

/// The longest `timeout-minutes` GitHub documents for the setup job.
pub const MAX_SETUP_MINUTES: u64 = 59;

/// # Copilot setup steps workflow
///
/// `.github/workflows/copilot-setup-steps.yml`: a GitHub Actions workflow
/// whose `copilot-setup-steps` job prepares the cloud agent's environment.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[schemars(
    title = "Copilot setup steps workflow",
    extend("$id" = "https://agentc.dev/schemas/copilot-setup-steps.schema.json")
)]
pub struct CopilotSetupSteps {
    /// # Name
    ///
    /// The workflow's name in the Actions tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Copilot Setup Steps")]
    pub name: Option<String>,

    /// # Run name
    ///
    /// The name of each run in the Actions tab.
    #[serde(rename = "run-name", default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Copilot setup")]
    pub run_name: Option<String>,

    /// # Triggers
    ///
    /// When GitHub Actions runs the workflow by itself (the agent runs the
    /// job whatever they are): usually `workflow_dispatch`, and `push` and
    /// `pull_request` on the file's own path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"workflow_dispatch": null, "push": {"paths": [".github/workflows/copilot-setup-steps.yml"]}}))]
    pub on: Option<serde_json::Value>,

    /// # Permissions
    ///
    /// The token's permissions for every job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"contents": "read"}))]
    pub permissions: Option<serde_json::Value>,

    /// # Environment
    ///
    /// Variables for every job's steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"NODE_VERSION": "22"}))]
    pub env: Option<serde_json::Value>,

    /// # Defaults
    ///
    /// Default settings of every job's `run` steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"run": {"shell": "bash"}}))]
    pub defaults: Option<serde_json::Value>,

    /// # Concurrency
    ///
    /// Which runs of the workflow may run at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = serde_json::json!({"group": "copilot-setup-steps", "cancel-in-progress": true}))]
    pub concurrency: Option<serde_json::Value>,

    /// # Jobs
    ///
    /// The workflow's jobs; the agent runs the one named
    /// `copilot-setup-steps`, and takes only its `steps`, `permissions`,
    /// `runs-on`, `services`, `snapshot` and `timeout-minutes` (at most 59).
    #[schemars(example = serde_json::json!({"copilot-setup-steps": {"runs-on": "ubuntu-latest", "permissions": {"contents": "read"}, "steps": [{"uses": "actions/checkout@v5"}, {"run": "npm ci"}]}}))]
    pub jobs: BTreeMap<String, serde_json::Value>,
}
