"""Drives `agentc mcp` with the official Python SDK's client (PyPI `mcp`),
as a coding agent's host does: start it over stdio in a project, initialize,
list the tools, check the project and a text not saved yet, list the fixes,
explain a code and get a schema. cli/tests/mcp.rs writes the project (a
subagent naming the tool `Grpe`) and runs this; any failed expectation
raises, and the process exits non-zero.

Usage: python3 client.py AGENTC PROJECT
"""

import asyncio
import json
import sys
from importlib.metadata import version

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SUBAGENT = ".claude/agents/reviewer.md"
NEW_SKILL = ".claude/skills/deploy/SKILL.md"
SKILL_TEXT = """---
name: deploy
description: Deploys the service to production.
allowed_tools: Bash
---
Deploy the service.
"""


def expect(condition, what, got):
    if not condition:
        raise AssertionError(f"{what}; got: {got!r}")


async def run(agentc, project):
    server = StdioServerParameters(command=agentc, args=["mcp"], cwd=project)
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=60) as session:
            init = await session.initialize()
            expect(init.server_info.name == "agentc", "the server is agentc", init.server_info)
            expect(init.capabilities.tools is not None, "it serves tools", init.capabilities)
            expect("check" in (init.instructions or ""), "its instructions name check", init)

            listed = await session.list_tools()
            names = sorted(tool.name for tool in listed.tools)
            expect(names == ["check", "explain", "fixes", "schema"], "the four tools", names)
            for tool in listed.tools:
                expect(tool.annotations.read_only_hint, f"{tool.name} is read-only", tool)

            # The project: the planted mistake, at its exact place.
            checked = await session.call_tool("check", {})
            expect(not checked.is_error, "check succeeds", checked)
            report = checked.structured_content
            diagnostics = report["diagnostics"]
            expect(len(diagnostics) == 1, "one diagnostic", diagnostics)
            found = diagnostics[0]
            place = (found["code"], found["severity"], found["file"], found["line"], found["column"])
            expect(
                place == ("unknown-tool", "warning", SUBAGENT, 4, 14),
                "the unknown tool `Grpe` at 4:14",
                found,
            )
            expect("`Grep`" in found["help"], "did you mean `Grep`", found)
            expect(report["summary"] == {"errors": 0, "warnings": 1}, "the summary", report)
            # The same object is in the text content, for clients that read only text.
            expect(json.loads(checked.content[0].text) == report, "the text is the JSON", checked)

            # A file not saved yet, checked where it would be written.
            checked = await session.call_tool("check", {"path": NEW_SKILL, "text": SKILL_TEXT})
            found = checked.structured_content["diagnostics"]
            expect(
                [(d["code"], d["file"], d["line"]) for d in found]
                == [("unknown-field", NEW_SKILL, 4)],
                "the skill's `allowed_tools` only",
                found,
            )

            # Outside the project: a tool error, and the server goes on.
            refused = await session.call_tool("check", {"path": "/etc/passwd"})
            expect(refused.is_error, "a path outside is refused", refused)
            expect("outside the project" in refused.content[0].text, "and says why", refused)

            fixes = await session.call_tool("fixes", {})
            listed_fixes = fixes.structured_content["fixes"]
            expect(len(listed_fixes) == 1, "one fix", listed_fixes)
            edit = listed_fixes[0]["fix"]["edits"][0]
            expect(
                (edit["file"], edit["line"], edit["column"], edit["replacement"])
                == (SUBAGENT, 4, 14, "Grep"),
                "the fix replaces `Grpe` with `Grep`",
                edit,
            )
            with open(f"{project}/{SUBAGENT}", encoding="utf-8") as file:
                text = file.read()
            expect(text[edit["start"] : edit["end"]] == "Grpe", "the byte range is `Grpe`", edit)

            explained = await session.call_tool("explain", {"code": "unknown-tool"})
            page = explained.content[0].text
            expect(not explained.is_error and page.startswith("# unknown-tool"), "the page", page)
            unknown = await session.call_tool("explain", {"code": "unknown-tol"})
            expect(unknown.is_error, "an unknown code is a tool error", unknown)
            expect("did you mean `unknown-tool`?" in unknown.content[0].text, "near miss", unknown)

            schema = await session.call_tool("schema", {"kind": "claude-subagent"})
            document = json.loads(schema.content[0].text)
            expect("tools" in document.get("properties", {}), "the subagent's schema", document)

    print(f"agentc mcp: passed under the Python SDK's client (mcp {version('mcp')})")


if __name__ == "__main__":
    asyncio.run(asyncio.wait_for(run(sys.argv[1], sys.argv[2]), timeout=120))
