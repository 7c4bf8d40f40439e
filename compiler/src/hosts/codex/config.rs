//! `.codex/config.toml`, the project's layer of Codex's configuration, as
//! Codex 0.171.0 loads it. Each level was read off the binary
//! (`docs/formats.md`, "Codex configuration"): a value Codex cannot
//! deserialize stops it at start ("failed to load bootstrap configuration"),
//! an error; a key it does not know, or one a project may not set, it
//! ignores with a start-up warning, a warning.

use agentc_schema::codex_config::{CodexConfig, CodexMcpServer};
use agentc_schema::{Span, Spanned};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::parse::files::{Document, Reading, Syntax, decode_text};
use crate::parse::tree::Value;
use crate::source::Source;
use crate::suggest::{confident, did_you_mean};

/// Every top-level key Codex 0.171.0 reads in `config.toml` (the keys of
/// its `config/read` answer): those agentc has no rule for are taken as
/// written.
pub const CONFIG_KEYS: &[&str] = &[
    "agents",
    "allow_login_shell",
    "allow_symlinked_codex_home",
    "analytics",
    "approval_policy",
    "approvals_reviewer",
    "apps",
    "apps_mcp_product_sku",
    "audio",
    "auto_review",
    "background_terminal_max_timeout",
    "browser_use",
    "chatgpt_base_url",
    "check_for_update_on_startup",
    "cli_auth_credentials_store",
    "client_search_provider",
    "cloud",
    "code_mode",
    "compact_prompt",
    "computer_use",
    "daybreak",
    "default_permissions",
    "desktop",
    "developer_instructions",
    "disable_paste_burst",
    "experimental_compact_prompt_file",
    "experimental_realtime_start_instructions",
    "experimental_realtime_webrtc_call_base_url",
    "experimental_realtime_ws_backend_prompt",
    "experimental_realtime_ws_base_url",
    "experimental_realtime_ws_model",
    "experimental_realtime_ws_startup_context",
    "experimental_thread_store",
    "experimental_thread_store_endpoint",
    "experimental_use_unified_exec_tool",
    "features",
    "feedback",
    "file_opener",
    "forced_chatgpt_workspace_id",
    "forced_login_method",
    "ghost_snapshot",
    "goals",
    "hide_agent_reasoning",
    "history",
    "hooks",
    "include_apps_instructions",
    "include_collaboration_mode_instructions",
    "include_environment_context",
    "include_environment_context_time",
    "include_permissions_instructions",
    "instructions",
    "js_repl_node_module_dirs",
    "js_repl_node_path",
    "log_dir",
    "marketplaces",
    "mcp_enterprise_managed_auth",
    "mcp_oauth_callback_port",
    "mcp_oauth_callback_url",
    "mcp_oauth_credentials_store",
    "mcp_optional_startup_grace_ms",
    "mcp_servers",
    "memories",
    "model",
    "model_auto_compact_token_limit",
    "model_auto_compact_token_limit_scope",
    "model_catalog_json",
    "model_context_window",
    "model_instructions_file",
    "model_post_turn_compact_threshold_percent",
    "model_provider",
    "model_providers",
    "model_reasoning_effort",
    "model_reasoning_summary",
    "model_verbosity",
    "notice",
    "notify",
    "openai_base_url",
    "orchestrator",
    "oss_provider",
    "otel",
    "permissions",
    "personality",
    "plan_mode_reasoning_effort",
    "plugins",
    "profile",
    "profiles",
    "project_doc_fallback_filenames",
    "project_doc_max_bytes",
    "project_root_markers",
    "projects",
    "realtime",
    "responses",
    "responses_api_metadata",
    "review_model",
    "rollout_trace",
    "sandbox_mode",
    "sandbox_workspace_write",
    "service_tier",
    "shell_environment_policy",
    "show_raw_agent_reasoning",
    "skills",
    "sqlite_home",
    "suppress_unstable_features_warning",
    "thread_unload_delay_secs",
    "tool_output_token_limit",
    "tool_suggest",
    "tools",
    "tui",
    "web_search",
    "windows",
];

/// Whether Codex reads `key` at the top of `config.toml`.
pub fn is_config_key(key: &str) -> bool {
    CONFIG_KEYS.contains(&key)
}

/// The keys Codex 0.171.0 reads only from `~/.codex/config.toml`: in a
/// project's file it drops them ("Ignored unsupported project-local config
/// keys"), whatever their value.
pub const USER_ONLY: &[&str] = &[
    "openai_base_url",
    "chatgpt_base_url",
    "apps_mcp_product_sku",
    "model_provider",
    "model_providers",
    "notify",
    "profile",
    "profiles",
    "experimental_realtime_ws_base_url",
    "otel",
];

/// The values of Codex's enumerated keys (each refused otherwise).
const APPROVAL: &[&str] = &["untrusted", "on-failure", "on-request", "never"];
const SANDBOX: &[&str] = &["read-only", "workspace-write", "danger-full-access"];
const REVIEWER: &[&str] = &["user", "auto_review", "guardian_subagent"];
const SUMMARY: &[&str] = &["auto", "concise", "detailed", "none"];
const VERBOSITY: &[&str] = &["low", "medium", "high"];
const WEB_SEARCH: &[&str] = &["disabled", "cached", "indexed", "live"];
const TOOL_APPROVAL: &[&str] = &["auto", "prompt", "approve"];

/// The reasoning efforts Codex names or a model of its 0.171.0 catalog
/// advertises (`codex debug models`). Codex takes any other non-empty
/// value and sends it to a model that does not know it.
const EFFORTS: &[&str] = &["none", "minimal", "low", "medium", "high", "xhigh", "max", "ultra"];

/// The feature flags Codex 0.171.0 knows (`codex features list`, and the
/// older names it still takes); it ignores any other with a warning.
const FEATURES: &[&str] = &[
    "agent_message_board",
    "agent_message_board_mcp",
    "analytics_plan_history",
    "api_key_cyber_access_programs",
    "api_key_model_discovery",
    "app_server_websocket_compression",
    "apply_patch_freeform",
    "apply_patch_preserve_line_endings",
    "apply_patch_streaming_events",
    "apps",
    "apps_early_resource_discovery",
    "apps_mcp_path_override",
    "artifact",
    "async_compaction",
    "async_compaction_root_only",
    "auth_elicitation",
    "background_paginated_rollout_migration",
    "bedrock_setup_wizard",
    "browser_annotation_api",
    "browser_use",
    "browser_use_external",
    "browser_use_full_cdp_access",
    "catalog_apps_instructions",
    "chronicle",
    "cli_daybreak",
    "cli_resume_account_check",
    "code_mode",
    "code_mode_buffered_exec",
    "code_mode_host",
    "code_mode_host_grpc",
    "code_mode_host_output_truncation",
    "code_mode_interrupt",
    "code_mode_only",
    "code_mode_only_strict_3p_tools",
    "code_mode_prewarm",
    "code_mode_tool_description_first",
    "code_mode_tool_search",
    "codex_apps_mcp_2026_07_28",
    "codex_git_commit",
    "codex_hooks",
    "collab",
    "collaboration_modes",
    "command_sessions_world_state",
    "compaction_image_budget",
    "computer_use",
    "concurrent_reasoning_summaries",
    "connectors",
    "content_item_kinds",
    "context_management",
    "credential_masking",
    "critical_path_timing",
    "current_time_reminder",
    "cwd_relative_turn_diffs",
    "daemon_auto_start",
    "daybreak_program_propagation",
    "default_mode_request_user_input",
    "defer_mailbox_preemption",
    "deferred_executor",
    "deferred_tool_world_state",
    "elevated_windows_sandbox",
    "enable_experimental_windows_sandbox",
    "enable_fanout",
    "enable_mcp_apps",
    "enable_request_compression",
    "exec_permission_approvals",
    "executed_tool_call_metadata",
    "executor_capability_discovery",
    "executor_capability_discovery_v2",
    "experimental_use_unified_exec_tool",
    "experimental_windows_sandbox",
    "external_agent_memory_import",
    "external_migration",
    "fast_mode",
    "file_backed_tool_audio",
    "gateway_setup_wizard",
    "gcp_setup_wizard",
    "goals",
    "guardian_approval",
    "guardian_conversation_history_tools",
    "guardian_denial_reconsideration",
    "guardian_enhanced_node_repl_transcripts",
    "guardian_ext",
    "guardian_include_additional_context",
    "guardian_native_multi_agent_history",
    "guardian_nested_approval_context",
    "guardian_node_repl_transcript_images",
    "guardian_recorded_items",
    "guardian_reuse_parent_compaction",
    "guardian_root_handoff_context",
    "guardian_trust_orchestrator_connectors",
    "guardianv2",
    "guardianv2.thread_context",
    "guardianv2_decisions_comparison",
    "guardianv3",
    "hooks",
    "hosted_search_policy",
    "image_detail_original",
    "image_generation",
    "image_generation_animation",
    "image_resize_notice",
    "imagegenext",
    "in_app_browser",
    "in_app_chat",
    "in_app_dictation",
    "in_app_local_automation",
    "in_app_updates",
    "in_app_voice",
    "incremental_exec_tools",
    "incremental_tools",
    "incremental_tools_legacy",
    "incremental_tools_legacy_gcp",
    "instant_interrupt",
    "interrupt_on_cancel",
    "item_ids",
    "js_repl",
    "js_repl_tools_only",
    "local_thread_store_compression",
    "local_thread_store_shared_compression",
    "login_shell_package_path",
    "mcp_2026_07_28",
    "mcp_connection_sharing",
    "mcp_lazy_stdio_startup",
    "mcp_oauth_refresh_coordination",
    "mcp_shared_repl_cwd",
    "mcp_tool_list_changed",
    "memories",
    "memory_tool",
    "mentions_v2",
    "model_catalog_in_context",
    "multi_agent",
    "multi_agent_mode",
    "multi_agent_v2",
    "multi_agent_v2_dynamic_tools",
    "multi_env_copy_file",
    "multi_environment_mcp",
    "network_proxy",
    "non_prefixed_mcp_tool_names",
    "nonfatal_clock_read_errors",
    "omit_app_server_notification_media",
    "omit_skill_descriptions",
    "output_token_replay",
    "per_environment_context",
    "personality",
    "plugin_discovery_prefetch",
    "plugin_hooks",
    "plugin_sharing",
    "plugins",
    "powershell_shell_version",
    "prediction_preserve_parent_tools",
    "prefer_mxc",
    "prevent_idle_sleep",
    "psp",
    "realtime_conversation",
    "reasoning_effort_override",
    "recommended_plugins",
    "remote_compaction_v2",
    "remote_control",
    "remote_models",
    "remote_plugin",
    "request_permissions",
    "request_permissions_tool",
    "request_rule",
    "resize_all_images",
    "respect_system_proxy",
    "responses_websockets",
    "responses_websockets_v2",
    "restored_history_prewarm",
    "retain_client_developer_messages",
    "retain_client_tool_outputs",
    "rollout_budget",
    "runtime_agent_instances",
    "runtime_metrics",
    "safe_image_decoder",
    "search_tool",
    "secret_auth_storage",
    "send_async_message",
    "send_message_to_user_async",
    "shell_snapshot",
    "shell_snapshot_v2",
    "shell_tool",
    "shell_zsh_fork",
    "simplified_selection_hints",
    "skill_catalog_deltas",
    "skill_env_var_dependency_prompt",
    "skill_mcp_dependency_install",
    "skill_search",
    "skip_host_skill_discovery",
    "sleep_tool",
    "sqlite",
    "stable_environment_tools",
    "standalone_web_search",
    "steer",
    "step_model_switching",
    "subagent_default_context_limits",
    "subagent_thread_environments",
    "suppress_model_change_announcements",
    "system_proxy_fallback",
    "telepathy",
    "terminal_resize_reflow",
    "terminal_visualization_instructions",
    "token_budget",
    "tool_call_mcp_elicitation",
    "tool_search",
    "tool_search_always_defer_mcp_tools",
    "tool_suggest",
    "transcript_v2",
    "tui_app_server",
    "tui_extensions_statusline",
    "tui_multi_backend",
    "tui_workspace",
    "ultrafast_mode",
    "unavailable_dummy_tools",
    "unbounded_connection_retries",
    "undo",
    "unified_exec",
    "unified_exec_tty",
    "unified_exec_zsh_fork",
    "unified_image_budget",
    "untrusted_as_tool_output",
    "use_agent_identity",
    "use_legacy_landlock",
    "use_linux_sandbox_bwrap",
    "use_xaa",
    "utc_environment_date",
    "view_image",
    "wake_on_agent_messages",
    "web_search",
    "web_search_cached",
    "web_search_request",
    "windows_sandbox_service",
    "workspace_dependencies",
    "workspace_owner_usage_nudge",
    "worktrees",
    "write_stdin_approval",
];

/// What Codex does with a file it cannot deserialize.
const REFUSED: &str = "Codex 0.171.0 refuses the whole configuration and does not start \
    (\"failed to load bootstrap configuration\")";

/// The configuration file, read as Codex reads it.
pub fn read(source: &Source, out: &mut Vec<Diagnostic>) -> Option<Document<CodexConfig>> {
    let reading = Reading {
        syntax: Syntax::Toml,
        unknown: Severity::Warning,
        taken: is_config_key,
        ..Reading::JSON
    };
    let start = out.len();
    let doc = decode_text::<CodexConfig>(source, &source.text, 0, reading, out);
    let top: Vec<Span> = match doc.as_ref().map(|d| &d.tree.value) {
        Some(Value::Map(entries)) => entries.iter().map(|e| e.key_span).collect(),
        _ => Vec::new(),
    };
    for diagnostic in out[start..].iter_mut().filter(|d| d.code == Code::UnknownField) {
        let key = diagnostic.message.split('`').nth(1).unwrap_or_default().to_owned();
        let at_top = diagnostic.location.span.is_some_and(|span| top.contains(&span));
        diagnostic.message = format!("Codex 0.171.0 does not know `{key}`");
        let ignored = "Codex ignores it, with a start-up warning (\"Codex is ignoring … \
                       unrecognized configuration settings\")";
        diagnostic.help = Some(match (key.as_str(), at_top) {
            ("type" | "transport", false) => format!(
                "{ignored}: it tells a local MCP server from a remote one by `command` or `url`; \
                 remove it"
            ),
            (_, true) => match did_you_mean(&key, CONFIG_KEYS.iter().copied()) {
                Some(close) => format!("did you mean `{close}`? {ignored}"),
                None => format!("{ignored}; if a newer Codex reads it, ignore this"),
            },
            _ => format!("{ignored}; if a newer Codex reads it, ignore this"),
        });
    }
    let doc = doc?;
    user_only(source, &doc, out);
    check(source, &doc.value, out);
    if let Some(hooks) = crate::parse::files::entry_value(&doc.tree, "hooks") {
        super::hooks::in_config(source, hooks, out);
    }
    Some(doc)
}

/// The keys a project's file may not set: each is a warning at its key.
fn user_only(source: &Source, doc: &Document<CodexConfig>, out: &mut Vec<Diagnostic>) {
    let Value::Map(entries) = &doc.tree.value else {
        return;
    };
    for entry in entries.iter().filter(|e| USER_ONLY.contains(&e.key.as_str())) {
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                entry.key_span,
                format!("Codex ignores `{}` in a project's `.codex/config.toml`", entry.key),
            )
            .with_severity(Severity::Warning)
            .with_help(
                "Codex 0.171.0 reads it only from `~/.codex/config.toml` and drops it here with a \
                 start-up warning (\"Ignored unsupported project-local config keys\"); move it \
                 to each person's own configuration",
            ),
        );
    }
}

/// The values of one configuration (the project's file, or an agent's).
pub fn check(source: &Source, config: &CodexConfig, out: &mut Vec<Diagnostic>) {
    if let Some(policy) = &config.approval_policy {
        approval_policy(source, policy, out);
    }
    let enums = [
        ("approvals_reviewer", &config.approvals_reviewer, REVIEWER),
        ("sandbox_mode", &config.sandbox_mode, SANDBOX),
        ("model_reasoning_summary", &config.model_reasoning_summary, SUMMARY),
        ("model_verbosity", &config.model_verbosity, VERBOSITY),
        ("web_search", &config.web_search, WEB_SEARCH),
    ];
    for (key, value, allowed) in enums {
        if let Some(value) = value {
            one_of(source, key, value, allowed, out);
        }
    }
    for (key, value) in [
        ("model_reasoning_effort", &config.model_reasoning_effort),
        ("plan_mode_reasoning_effort", &config.plan_mode_reasoning_effort),
    ] {
        if let Some(value) = value {
            effort(source, key, value, out);
        }
    }
    for (name, value) in config.features.iter().flatten() {
        feature(source, name, value, out);
    }
    for (name, server) in config.mcp_servers.iter().flatten() {
        mcp_server(source, name, &server.value, out);
    }
}

/// `value` must be one of `allowed`: Codex refuses any other.
fn one_of(
    source: &Source,
    key: &str,
    value: &Spanned<String>,
    allowed: &[&str],
    out: &mut Vec<Diagnostic>,
) {
    let text = value.value.as_str();
    if allowed.contains(&text) {
        return;
    }
    let listed = allowed.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
    let mut diagnostic = Diagnostic::at(
        Code::InvalidValue,
        &source.path,
        value.span,
        format!("`{text}` is not a value Codex takes for `{key}`"),
    );
    diagnostic = match did_you_mean(text, allowed.iter().copied()) {
        Some(close) => diagnostic
            .with_help(format!("did you mean `{close}`? the values are {listed}; {REFUSED}")),
        None => diagnostic.with_help(format!("the values are {listed}; {REFUSED}")),
    };
    if let Some(fix) = confident(text, allowed.iter().copied()) {
        diagnostic = diagnostic.with_fix(
            format!("write `{fix}`"),
            &source.path,
            value.verbatim(0..text.len()),
            fix,
        );
    }
    out.push(diagnostic);
}

/// `approval_policy`: one of the named policies, or `{ granular = { … } }`.
fn approval_policy(
    source: &Source,
    policy: &Spanned<serde_json::Value>,
    out: &mut Vec<Diagnostic>,
) {
    match &policy.value {
        serde_json::Value::String(text) => {
            let value = Spanned { value: text.clone(), span: policy.span, text_at: policy.text_at };
            one_of(source, "approval_policy", &value, APPROVAL, out);
        }
        serde_json::Value::Object(table) if table.len() == 1 && table.contains_key("granular") => {}
        _ => out.push(
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                policy.span,
                "`approval_policy` is a policy's name or `{ granular = { … } }`",
            )
            .with_help(format!(
                "write one of `untrusted`, `on-failure`, `on-request`, `never`; {REFUSED}"
            )),
        ),
    }
}

/// A reasoning effort: never empty (refused), and one a model advertises.
fn effort(source: &Source, key: &str, value: &Spanned<String>, out: &mut Vec<Diagnostic>) {
    let text = value.value.as_str();
    if text.is_empty() {
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                value.span,
                format!("`{key}` is empty"),
            )
            .with_help(format!("write an effort such as `medium` or `high`; {REFUSED}")),
        );
        return;
    }
    if EFFORTS.contains(&text) {
        return;
    }
    let mut diagnostic = Diagnostic::at(
        Code::InvalidValue,
        &source.path,
        value.span,
        format!("`{text}` is a reasoning effort no model of Codex 0.171.0 advertises"),
    )
    .with_severity(Severity::Warning);
    let listed = "`none`, `minimal`, `low`, `medium`, `high`, `xhigh`";
    diagnostic = match did_you_mean(text, EFFORTS.iter().copied()) {
        Some(close) => diagnostic.with_help(format!(
            "did you mean `{close}`? Codex loads any effort and sends it to the model, which \
             takes only its own ({listed}, …)"
        )),
        None => diagnostic.with_help(format!(
            "Codex loads any effort and sends it to the model, which takes only its own \
             ({listed}, …); if a newer model has this one, ignore this"
        )),
    };
    out.push(diagnostic);
}

/// A feature flag: a name Codex knows (it ignores others with a warning).
fn feature(
    source: &Source,
    name: &Spanned<String>,
    _value: &Spanned<serde_json::Value>,
    out: &mut Vec<Diagnostic>,
) {
    let text = name.value.as_str();
    if FEATURES.contains(&text) {
        return;
    }
    let diagnostic = Diagnostic::at(
        Code::UnknownField,
        &source.path,
        name.span,
        format!("`{text}` is not a feature Codex 0.171.0 knows"),
    )
    .with_severity(Severity::Warning);
    out.push(match did_you_mean(text, FEATURES.iter().copied()) {
        Some(close) => diagnostic.with_help(format!(
            "did you mean `{close}`? Codex ignores an unknown feature with a start-up warning"
        )),
        None => diagnostic.with_help(
            "`codex features list` lists them; Codex ignores an unknown feature with a start-up \
             warning",
        ),
    });
}

/// One MCP server, as Codex tells a local server from a remote one.
pub fn mcp_server(
    source: &Source,
    name: &Spanned<String>,
    server: &CodexMcpServer,
    out: &mut Vec<Diagnostic>,
) {
    let file = &source.path;
    let refused = |span: Span, message: String, help: &str| {
        Diagnostic::at(Code::InvalidValue, file, span, message)
            .with_help(format!("{help}; {REFUSED}"))
    };
    if let Some(token) = &server.bearer_token {
        // The value is never repeated: it may be a real token.
        out.push(refused(
            token.span,
            format!("the MCP server `{}` writes its token in `bearer_token`", name.value),
            "Codex takes no token written in the file: put it in an environment variable and \
             name that in `bearer_token_env_var`",
        ));
    }
    match (&server.command, &server.url) {
        (None, None) => out.push(
            Diagnostic::at(
                Code::MissingField,
                file,
                name.span,
                format!("the MCP server `{}` has neither `command` nor `url`", name.value),
            )
            .with_help(format!(
                "add `command` (a local server) or `url` (a remote one); {REFUSED}"
            )),
        ),
        (Some(_), Some(url)) => out.push(refused(
            url.span,
            format!("the MCP server `{}` has both `command` and `url`", name.value),
            "a server is local (`command`) or remote (`url`): keep one",
        )),
        (Some(_), None) => {
            let remote_only = [
                ("bearer_token_env_var", server.bearer_token_env_var.as_ref().map(|v| v.span)),
                ("http_headers", first_key(server.http_headers.as_ref())),
                ("env_http_headers", first_key(server.env_http_headers.as_ref())),
                ("oauth_resource", server.oauth_resource.as_ref().map(|v| v.span)),
            ];
            for (field, span) in remote_only {
                if let Some(span) = span {
                    out.push(refused(
                        span,
                        format!(
                            "`{field}` is for a remote server, and `{}` is local (`command`)",
                            name.value
                        ),
                        "remove it, or make the server remote with `url`",
                    ));
                }
            }
        }
        (None, Some(url)) => {
            let local_only = [
                ("args", server.args.as_ref().and_then(|v| v.first()).map(|v| v.span)),
                ("env", first_key(server.env.as_ref())),
                ("env_vars", server.env_vars.as_ref().and_then(|v| v.first()).map(|v| v.span)),
                ("cwd", server.cwd.as_ref().map(|v| v.span)),
            ];
            for (field, span) in local_only {
                if let Some(span) = span {
                    out.push(refused(
                        span,
                        format!(
                            "`{field}` is for a local server, and `{}` is remote (`url`)",
                            name.value
                        ),
                        "remove it; a remote server's headers are `http_headers` and \
                         `env_http_headers`",
                    ));
                }
            }
            if let Some(host) = super::super::mcp::plain_http_host(&url.value) {
                out.push(
                    Diagnostic::at(
                        Code::InvalidValue,
                        file,
                        url.span,
                        format!(
                            "the MCP server `{}` is reached over plain HTTP, at `{host}`",
                            name.value
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_help(
                        "Codex connects all the same, and every request, answer and header (a \
                         token among them) crosses the network unencrypted; write `https://`",
                    ),
                );
            }
        }
    }
    if let Some(command) = &server.command {
        let args = server.args.iter().flatten().map(|arg| arg.value.as_str());
        let line: Vec<&str> = std::iter::once(command.value.as_str()).chain(args).collect();
        if !crate::shell::downloads_and_runs(&line.join(" ")).is_empty() {
            out.push(crate::shell::at(source, command.span, "this MCP server's command"));
        }
    }
    for (field, value) in [
        ("startup_timeout_sec", &server.startup_timeout_sec),
        ("startup_timeout_ms", &server.startup_timeout_ms),
        ("tool_timeout_sec", &server.tool_timeout_sec),
    ] {
        if let Some(value) = value.as_ref().filter(|v| v.value < 0.0) {
            out.push(refused(
                value.span,
                format!("`{field}` is negative"),
                "write a number of seconds of 0 or more",
            ));
        }
    }
    if let Some(mode) = &server.default_tools_approval_mode {
        one_of(source, "default_tools_approval_mode", mode, TOOL_APPROVAL, out);
    }
    for (key, value) in server.env.iter().flatten() {
        let Some(variable) = variable_reference(&value.value) else {
            continue;
        };
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                file,
                value.span,
                format!(
                    "Codex passes `{}` to the server as written: it expands no `{variable}`",
                    key.value
                ),
            )
            .with_severity(Severity::Warning)
            .with_help(format!(
                "to pass on a variable of Codex's environment, remove `{}` from `env` and list \
                 it in `env_vars = [\"{}\"]`",
                key.value, key.value
            )),
        );
    }
}

/// The span of a table's first key.
fn first_key(
    table: Option<&std::collections::BTreeMap<Spanned<String>, Spanned<String>>>,
) -> Option<Span> {
    table.and_then(|t| t.keys().min_by_key(|k| k.span.start)).map(|k| k.span)
}

/// The `${NAME}` or `$NAME` a value is written with, if any.
fn variable_reference(text: &str) -> Option<&str> {
    let start = text.find('$')?;
    let rest = &text[start..];
    let end = match rest.strip_prefix("${") {
        Some(inner) => inner.find('}').map(|i| i + 3)?,
        None => {
            let len = rest[1..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len() - 1);
            if len == 0 || !rest[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                return None;
            }
            len + 1
        }
    };
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::variable_reference;

    #[test]
    fn variables_are_told_from_dollars() {
        assert_eq!(variable_reference("${GITHUB_TOKEN}"), Some("${GITHUB_TOKEN}"));
        assert_eq!(variable_reference("Bearer $TOKEN"), Some("$TOKEN"));
        assert_eq!(variable_reference("costs $5"), None);
        assert_eq!(variable_reference("plain"), None);
        assert_eq!(variable_reference("${open"), None);
    }
}
