//! MCP server entries as each host reads them: Claude Code's `.mcp.json`
//! (and a plugin's servers), VS Code's `.vscode/mcp.json`, and a Copilot
//! custom agent's `mcp-servers`. A server is local (`command`) or remote
//! (`url`); the `type` values each host takes are its own, and a variable
//! reference that does not close is never expanded.

use agentc_schema::mcp::{McpInput, McpServers};
use agentc_schema::{Span, Spanned};

use crate::catalog::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;

/// Who reads the servers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    ClaudeCode,
    VsCode,
    Copilot,
    /// Gemini CLI (an extension's `mcpServers`): no `type`; `url` is SSE and
    /// `httpUrl` streamable HTTP.
    Gemini,
}

impl Reader {
    /// The transports the host takes in `type`.
    fn types(self) -> &'static [&'static str] {
        match self {
            Reader::ClaudeCode => &["stdio", "sse", "http"],
            Reader::VsCode => &["stdio", "sse", "http"],
            Reader::Copilot => &["local", "stdio", "sse", "http"],
            Reader::Gemini => &["stdio", "sse", "http"],
        }
    }

    fn name(self) -> &'static str {
        match self {
            Reader::ClaudeCode => "Claude Code",
            Reader::VsCode => "VS Code",
            Reader::Copilot => "Copilot",
            Reader::Gemini => "Gemini CLI",
        }
    }
}

/// Each server of a file: its type, what that type needs, and its variable
/// references (for VS Code, that each `${input:…}` names an input).
/// The server names Claude Code 2.1.332 keeps for itself and does not load
/// from a configuration (each seen refused by `claude doctor`).
const CLAUDE_RESERVED: &[&str] = &[
    "workspace",
    "claude-in-chrome",
    "Claude in Chrome",
    "claude-code-remote",
    "webagent",
    "computer-use",
    "claude.ai",
    "Slack sign-in (Claude Code tag)",
];

pub fn servers(
    source: &Source,
    servers: &McpServers,
    reader: Reader,
    inputs: Option<&[Spanned<McpInput>]>,
    out: &mut Vec<Diagnostic>,
) {
    let file = &source.path;
    for (name, server) in servers {
        let value = &server.value;
        if reader == Reader::ClaudeCode && CLAUDE_RESERVED.contains(&name.value.as_str()) {
            out.push(
                Diagnostic::at(
                    Code::ReservedName,
                    file,
                    name.span,
                    format!("`{}` is a name Claude Code keeps for its own MCP servers", name.value),
                )
                .with_help(
                    "Claude Code 2.1.332 does not load a server under this name (`claude \
                     doctor`: \"reserved for internal use\"): rename it",
                ),
            );
            continue;
        }
        // Whatever its type: an unknown one is reported below, and ends the
        // server's checks.
        if reader == Reader::Copilot {
            out.extend(copilot_tools(source, &name.value, name.span, value.tools.as_deref()));
        }
        if let Some(command) = &value.command {
            // `sh -c "curl … | sh"` is written across `command` and `args`.
            let args = value.args.iter().flatten().map(|arg| arg.value.as_str());
            let line: Vec<&str> = std::iter::once(command.value.as_str()).chain(args).collect();
            if !crate::shell::downloads_and_runs(&line.join(" ")).is_empty() {
                out.push(crate::shell::at(source, command.span, "this MCP server's command"));
            }
        }
        let kind = value.kind.as_ref().map(|k| k.value.as_str());
        let remote = match kind {
            Some("http" | "sse") => true,
            Some("stdio" | "local") | None => false,
            Some(other) => {
                let kind_span = value.kind.as_ref().map_or(server.span, |k| k.span);
                let mut diagnostic = Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    kind_span,
                    format!("`{other}` is not an MCP server type {} reads", reader.name()),
                );
                // Which types a Copilot agent's `mcp-servers` takes is not
                // fully published (`docs/formats.md`): only a warning there.
                if reader == Reader::Copilot {
                    diagnostic = diagnostic.with_severity(Severity::Warning);
                }
                let entry = value.kind.as_ref().map(|k| Spanned {
                    value: k.value.as_str().to_owned(),
                    span: k.span,
                    text_at: k.text_at,
                });
                out.push(match entry {
                    Some(entry) => super::near_miss(
                        diagnostic,
                        file,
                        &entry,
                        other,
                        reader.types(),
                        "types are lowercase",
                        match reader {
                            Reader::Copilot => {
                                "GitHub documents `local` and `stdio` (a command), `http` and \
                                 `sse` (a URL); if Copilot takes this type, ignore this"
                            }
                            _ => "the types are `stdio` (a command) and `http` or `sse` (a URL)",
                        },
                    ),
                    None => diagnostic,
                });
                continue;
            }
        };
        if kind == Some("local") && reader != Reader::Copilot {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    value.kind.as_ref().map_or(server.span, |k| k.span),
                    format!("`local` is Copilot's word; {} reads `stdio`", reader.name()),
                )
                .with_help("write `\"type\": \"stdio\"`"),
            );
        }
        let (needs, present) = match remote {
            true => (
                "url",
                value.url.is_some() || (reader == Reader::Gemini && value.http_url.is_some()),
            ),
            // No type and a URL: VS Code infers a remote server from it.
            false if kind.is_none() && value.url.is_some() && reader == Reader::VsCode => {
                ("url", true)
            }
            // Gemini CLI tells a remote server by its URL alone.
            false
                if kind.is_none()
                    && reader == Reader::Gemini
                    && (value.url.is_some() || value.http_url.is_some()) =>
            {
                ("url", true)
            }
            false => ("command", value.command.is_some()),
        };
        if let Some(url) = value.url.as_ref().filter(|u| u.value.trim().is_empty()) {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    url.span,
                    format!("the MCP server `{}` has a blank `url`", name.value),
                )
                .with_severity(Severity::Warning)
                .with_help(format!(
                    "{} loads the file, and the server fails to connect until it is given its \
                     address",
                    reader.name()
                )),
            );
        }
        let urls = (value.url.iter().map(|u| (u.value.as_str(), u.span)))
            .chain(value.http_url.iter().map(|u| (u.value.as_str(), u.span)));
        for (url, span) in urls {
            if let Some(host) = plain_http_host(url) {
                out.push(
                    Diagnostic::at(
                        Code::InvalidValue,
                        file,
                        span,
                        format!(
                            "the MCP server `{}` is reached over plain HTTP, at `{host}`",
                            name.value
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_help(format!(
                        "{} connects all the same, and every request, answer and header \
                         (a token among them) crosses the network unencrypted; write \
                         `https://`",
                        reader.name()
                    )),
                );
            }
        }
        if !present {
            let help = match (remote, value.url.is_some()) {
                (false, true) => {
                    "a server with a `url` is remote: add `\"type\": \"http\"` (or `\"sse\"`)"
                        .to_owned()
                }
                _ => format!(
                    "add `\"{needs}\"`; {} cannot start the server without it",
                    reader.name()
                ),
            };
            out.push(
                Diagnostic::at(
                    Code::MissingField,
                    file,
                    name.span,
                    format!("the MCP server `{}` has no `{needs}`", name.value),
                )
                .with_help(help),
            );
        }
        if let (Some(http_url), false) = (&value.http_url, reader == Reader::Gemini) {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    file,
                    http_url.span,
                    format!("`httpUrl` is Gemini CLI's; {} does not read it", reader.name()),
                )
                .with_severity(Severity::Warning)
                .with_help("write `\"type\": \"http\"` and the address as `\"url\"`"),
            );
        }
        let texts = value
            .command
            .iter()
            .map(|c| (c.value.as_str(), c.span, c.text_at))
            .chain(value.url.iter().map(|u| (u.value.as_str(), u.span, u.text_at)))
            .chain(value.http_url.iter().map(|u| (u.value.as_str(), u.span, u.text_at)))
            .chain(value.args.iter().flatten().map(|a| (a.value.as_str(), a.span, a.text_at)))
            .chain(value.env.iter().flatten().map(|(_, v)| (v.value.as_str(), v.span, v.text_at)))
            .chain(
                value.headers.iter().flatten().map(|(_, v)| (v.value.as_str(), v.span, v.text_at)),
            );
        for (text, span, text_at) in texts {
            variables(source, text, span, text_at, reader, inputs, out);
        }
        if reader == Reader::Copilot {
            let passed = value.env.iter().flatten().chain(value.headers.iter().flatten());
            for (_, v) in passed {
                copilot_secrets(source, &v.value, v.span, v.text_at, out);
            }
        }
    }
}

/// The host of an `http://` address that leaves the machine: a loopback
/// one (`localhost`, `127.0.0.1`, `[::1]`) stays on it, and one written
/// through a variable (`http://${HOST}/mcp`) is not known.
pub fn plain_http_host(url: &str) -> Option<&str> {
    let rest = url.trim().get(..7).filter(|s| s.eq_ignore_ascii_case("http://"))?;
    let rest = &url.trim()[rest.len()..];
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host_port.split(':').next().unwrap_or_default(),
    };
    let local = host.eq_ignore_ascii_case("localhost")
        || host.starts_with("127.")
        || host == "::1"
        || host == "0.0.0.0"
        || host.ends_with(".localhost");
    (!host.is_empty() && !local && !host.contains(['$', '{', '%'])).then_some(host)
}

/// A Copilot agent's server must say which of its tools the agent may use:
/// GitHub documents `tools` as required for the cloud agent's servers (an
/// agent's `mcp-servers` is the same configuration in YAML) without saying
/// what the cloud agent does without it, and an empty list enables none.
/// Both are warnings, at the server's name: no host is documented to refuse
/// the file. The help names no tool: which to allow is the team's choice
/// (GitHub recommends read-only ones), so there is no mechanical fix.
fn copilot_tools(
    source: &Source,
    server: &str,
    at: Span,
    tools: Option<&[Spanned<String>]>,
) -> Option<Diagnostic> {
    let (code, message) = match tools {
        None => (
            Code::MissingField,
            format!(
                "the MCP server `{server}` has no `tools`: GitHub documents it as required for \
                 the Copilot cloud agent, and does not say which tools the agent gets without it"
            ),
        ),
        Some([]) => (
            Code::InvalidValue,
            format!("the MCP server `{server}` has `tools: []`, which enables none of its tools"),
        ),
        Some(_) => return None,
    };
    Some(
        Diagnostic::at(code, &source.path, at, message)
            .with_severity(Severity::Warning)
            .with_help(
                "list the tools the agent may use (`tools: [\"get_issue\"]`; GitHub recommends \
                 read-only ones, as the agent calls them without asking), or write `tools: [\"*\"]` \
                 for all of them",
            ),
    )
}

/// The prefix of the only secrets and variables the Copilot cloud agent
/// passes to MCP servers (GitHub's MCP configuration pages, `docs/formats.md`).
const COPILOT_MCP: &str = "COPILOT_MCP_";

/// The secrets and variables an `env` or `headers` value of a Copilot
/// agent's server refers to (`$NAME`, `${NAME}`, `${NAME:-default}`,
/// `${{ secrets.NAME }}`, `${{ vars.NAME }}`): each not prefixed
/// `COPILOT_MCP_` is a warning, as the cloud agent leaves it unset.
fn copilot_secrets(
    source: &Source,
    text: &str,
    span: Span,
    text_at: Option<usize>,
    out: &mut Vec<Diagnostic>,
) {
    let at = |from: usize, to: usize| match text_at {
        Some(base) => Span::new(base + from, base + to),
        None => span,
    };
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut rest = 0;
    while let Some(found) = text[rest..].find('$') {
        let start = rest + found;
        let after = &text[start + 1..];
        let (name_at, end) = if let Some(inner) = after.strip_prefix("{{") {
            // `${{ secrets.NAME }}`: GitHub Actions' syntax, read in agent files.
            let Some(close) = inner.find("}}") else { break };
            let expr = inner[..close].trim();
            let Some(name) = expr.strip_prefix("secrets.").or_else(|| expr.strip_prefix("vars."))
            else {
                rest = start + 3 + close + 2;
                continue;
            };
            let offset = start + 3 + inner.find(name).unwrap_or(0);
            (offset..offset + name.len(), start + 3 + close + 2)
        } else if let Some(inner) = after.strip_prefix('{') {
            let len = inner.find(|c: char| !is_name(c)).unwrap_or(inner.len());
            let end = inner[len..].find('}').map_or(text.len(), |i| start + 2 + len + i + 1);
            (start + 2..start + 2 + len, end)
        } else {
            let len = after.find(|c: char| !is_name(c)).unwrap_or(after.len());
            (start + 1..start + 1 + len, start + 1 + len)
        };
        rest = end.max(start + 1);
        let name = &text[name_at.clone()];
        if name.is_empty() || name.starts_with(COPILOT_MCP) {
            continue;
        }
        out.push(
            Diagnostic::at(
                Code::InvalidValue,
                &source.path,
                at(start, end),
                format!(
                    "`{name}` is not prefixed `{COPILOT_MCP}`: the Copilot cloud agent passes only \
                     secrets and variables named `{COPILOT_MCP}…` to MCP servers"
                ),
            )
            .with_severity(Severity::Warning)
            .with_help(format!(
                "store it as an Agents secret or variable (or in the repository's `copilot` \
                 environment) named `{COPILOT_MCP}{name}`, and refer to `${COPILOT_MCP}{name}`"
            )),
        );
    }
}

/// The `${…}` references of one value: each must close, and in VS Code an
/// `${input:id}` must name one of the file's inputs.
fn variables(
    source: &Source,
    text: &str,
    span: Span,
    text_at: Option<usize>,
    reader: Reader,
    inputs: Option<&[Spanned<McpInput>]>,
    out: &mut Vec<Diagnostic>,
) {
    let at = |from: usize, to: usize| match text_at {
        Some(base) => Span::new(base + from, base + to),
        None => span,
    };
    let mut rest = 0;
    while let Some(found) = text[rest..].find("${") {
        let start = rest + found;
        let Some(len) = text[start..].find('}') else {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    &source.path,
                    at(start, text.len()),
                    "this `${` is never closed, so the variable is not expanded",
                )
                .with_severity(Severity::Warning)
                .with_help("close the reference: `${NAME}`"),
            );
            return;
        };
        let inner = &text[start + 2..start + len];
        rest = start + len + 1;
        if reader != Reader::VsCode {
            continue;
        }
        let Some(id) = inner.strip_prefix("input:") else {
            continue;
        };
        let declared =
            inputs.unwrap_or_default().iter().any(|input| input.value.id.value.as_str() == id);
        if !declared {
            out.push(
                Diagnostic::at(
                    Code::InvalidValue,
                    &source.path,
                    at(start, start + len + 1),
                    format!("`${{input:{id}}}` names no input of this file"),
                )
                .with_help(format!(
                    "add an input with `\"id\": \"{id}\"` to `inputs`; VS Code cannot start a \
                     server whose input is undefined"
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::plain_http_host;

    #[test]
    fn plain_http_is_told_apart_from_the_machine_itself() {
        assert_eq!(plain_http_host("http://mcp.example.com/sse"), Some("mcp.example.com"));
        assert_eq!(plain_http_host("HTTP://user:pw@10.0.0.5:8080/mcp"), Some("10.0.0.5"));
        for local in ["http://localhost:3000/mcp", "http://127.0.0.1/mcp", "http://[::1]:9/x"] {
            assert_eq!(plain_http_host(local), None, "{local}");
        }
        for other in ["https://mcp.example.com", "http://${HOST}/mcp", "", "http://"] {
            assert_eq!(plain_http_host(other), None, "{other}");
        }
    }
}
