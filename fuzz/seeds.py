"""Builds the seed corpora of fuzz/corpus/ from the repository's fixtures and example."""
import hashlib, os, re, sys
from pathlib import Path

repo = Path(sys.argv[1])
out = repo / "fuzz" / "corpus"
LIMIT_FILES, LIMIT_BYTES, MAX_LEN = 100, 1 << 20, 65536

def files_under(d):
    return sorted(p for p in d.rglob("*") if p.is_file() and not p.is_symlink())

fixtures = sorted(p for p in (repo / "tests/fixtures").iterdir() if p.is_dir())
example = repo / "examples/support-desk"
all_files = [f for fx in fixtures for f in files_under(fx)] + files_under(example / "agents") + files_under(example / ".agents") + [example / "registry.yaml"]

def write(target, seeds):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    seen, total, n = set(), 0, 0
    for data in seeds:
        if len(data) > MAX_LEN: continue
        h = hashlib.sha1(data).hexdigest()
        if h in seen: continue
        if n >= LIMIT_FILES or total + len(data) > LIMIT_BYTES: break
        seen.add(h); total += len(data); n += 1
        (d / h[:16]).write_bytes(data)
    print(target, n, total)

def spread(items):
    """Every kind of file first: interleave by file name, small before large."""
    by = {}
    for p in items: by.setdefault(p.name, []).append(p)
    for k in by: by[k].sort(key=lambda p: (p.stat().st_size, str(p)))
    res, i = [], 0
    while any(i < len(v) for v in by.values()):
        for k in sorted(by):
            if i < len(by[k]): res.append(by[k][i])
        i += 1
    return res

md = [f for f in all_files if f.suffix == ".md" and f.name not in ("CASE.md",)]
write("frontmatter", [f.read_bytes() for f in spread(md)])
js = [f for f in all_files if f.suffix == ".json"]
write("agent_json", [f.read_bytes() for f in spread(js)])
reg = [f for f in all_files if f.name.startswith("registry")]
write("registry", [f.read_bytes() for f in sorted(reg, key=lambda p: p.stat().st_size)] + [b'{"tools": ["a"], "models": ["anthropic/x"], "context": ["c"]}'])

guards = set()
for f in md:
    for m in re.finditer(r"^\s*-\s*[\w-]+:\s*(.*(?:on |status=).*)$", f.read_text(errors="replace"), re.M):
        guards.add(m.group(1).strip().strip('"\''))
guards |= {"on t", "status=success", "on t status=failure,denied", "on t\tstatus=absent", "status=pending,partial,invalid", "", "on", "status=success,Exploded"}
write("guard", [g.encode() for g in sorted(guards, key=lambda g: (len(g), g))])

def section(path, data):
    return b">>> " + path.encode() + b"\n" + data + (b"" if data.endswith(b"\n") else b"\n")

projects = []
for fx in fixtures:
    root = fx / "root"
    if not root.is_dir(): continue
    sets = []
    has_reg, has_ws = (fx / "registry.yaml").is_file(), (fx / "workspace").is_dir()
    prefix = "root/" if (has_reg or has_ws) else ""
    if prefix:
        toml = 'root = "root"\n' + ('registry = "registry.yaml"\n' if has_reg else "") + ('workspace = "workspace"\n' if has_ws else "")
        sets.append(section("agentc.toml", toml.encode()))
        if has_reg: sets.append(section("registry.yaml", (fx / "registry.yaml").read_bytes()))
        if has_ws:
            sets += [section("workspace/" + str(f.relative_to(fx / "workspace")), f.read_bytes()) for f in files_under(fx / "workspace")]
    sets += [section(prefix + str(f.relative_to(root)), f.read_bytes()) for f in files_under(root)]
    data = b"".join(sets)
    if len(sets) <= 40: projects.append(data)
desk = [section("agentc.toml", (example / "agentc.toml").read_bytes()), section("registry.yaml", (example / "registry.yaml").read_bytes()), section("AGENTS.md", (example / "AGENTS.md").read_bytes())]
desk += [section(str(f.relative_to(example)), f.read_bytes()) for f in files_under(example / "agents") + files_under(example / ".agents")]
projects.insert(0, b"".join(desk[:40]))
projects.sort(key=len)
projects.insert(0, b"".join(desk[:40]))
write("project", projects)

# project_file: the example's agentc.toml, the ones seeds.py writes for the
# project target, and files naming each path of the tree fuzzing::project_file
# holds (a folder, a file, one missing, one where the other kind is).
tomls = [(example / "agentc.toml").read_bytes()]
for fx in fixtures:
    has_reg, has_ws = (fx / "registry.yaml").is_file(), (fx / "workspace").is_dir()
    if has_reg or has_ws:
        tomls.append(('root = "root"\n' + ('registry = "registry.yaml"\n' if has_reg else "") + ('workspace = "workspace"\n' if has_ws else "")).encode())
tomls += [
    b'root = "agents"\nworkspace = "ws"\nregistry = "registry.yaml"\nlockfile = "out/agents.lock"\n',
    b'root = "notes.txt"\nworkspace = "registry.yaml"\nregistry = "agents"\nlockfile = "missing/agents.lock"\n',
    b'root = "../agents"\nworkspace = ".."\nregistry = "../registry.yaml"\n',
    b'root = "skills"\nlockfile = "../out/x.lock"\n',
    b'root = "agents"\nexclude = ["system-prompt", "repo-skills", "global-tool"]\nlayouts = ["agentc", "claude", "claude-plugins", "copilot", "agent-skills", "claud"]\n',
    b'max_file_size = 1024\nroot = "."\n',
    b'max_file_size = -1\nroot = 3\nexclude = "repo-tools"\n',
    b'root = "agents"\nroot = "ws"\n',
    b'[root]\nx = 1\n',
    b'root = """agents"""\nregistry = \'registry.yaml\'\nlockfile = "\\u00e9.lock"\n',
    b'unknown = true\nroot = "agents"\n',
    b'\xef\xbb\xbfroot = "agents"\r\n',
    b'',
]
write("project_file", tomls)

# plugin: every plugin.json of the fixtures and the example, and a few more.
plugins = [f for f in all_files if f.name == "plugin.json"]
write("plugin", [f.read_bytes() for f in sorted(plugins, key=lambda p: p.stat().st_size)] + [
    b'{"name": "release-tools", "version": "1.2.0", "description": "Releases.", "author": {"name": "A"}}',
    b'{"name": "Release Tools"}',
    b'{"name": "reviewer"}',
    b'{"name": "other"}',
    b'{}',
])

# links: the bodies of the Markdown files that link to something.
def body(text):
    if text.startswith(b"---\n"):
        end = text.find(b"\n---\n", 4)
        if end >= 0: return text[end + 5:]
    return text
docs = [f for f in files_under(repo / "docs") if f.suffix == ".md"] + [repo / "README.md"]
bodies = [body(f.read_bytes()) for f in spread(md) + sorted(docs, key=lambda p: p.stat().st_size)]
bodies = [b for b in bodies if b"](" in b or b"]:" in b]
bodies += [
    b"[forms](references/FORMS.md) and ![x](scripts/fill.py) and [b](../b/SKILL.md)\n",
    b"[refs](referneces/forms.md#top) [up](../../docs/guide.md?x=1) [out](../../../x.md)\n",
    b"[ref][r] [r][] [r]\n\n[r]: <references/FORMS%20a.md> \"title\"\n",
    b"> [quoted](references/\n> FORMS.md)\n",
    b"`[code](x.md)` \\[esc](y.md) [\xc3\xa9](\xc3\xa9.md) <https://x.dev> [m](mailto:a@b)\n",
    b"| a | [t](x|y.md) |\n|---|---|\n[^1]: z.md\n",
]
write("links", bodies)
# The language server: sessions against `fuzzing::lsp_project()` (folder file:///),
# framed as a client writes them, one body per line, and with broken framing.
import json
A = "---\nname: a\ndescription: A.\ntools: [t]\nsteps:\n  - t: find it\nroutes:\n  - b: on t status=success\n  - c\n---\nA.\n"
def at(text, needle, extra=0):
    i = text.index(needle) + extra
    return {"line": text[:i].count("\n"), "character": i - (text[:i].rfind("\n") + 1)}
doc = "file:///skills/a/SKILL.md"
def pos(needle, extra=0): return {"textDocument": {"uri": doc}, "position": at(A, needle, extra)}
init = {"processId": None, "rootUri": "file:///", "workspaceFolders": [{"uri": "file:///", "name": "p"}],
        "capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]},
                         "workspace": {"workspaceEdit": {"documentChanges": True, "resourceOperations": ["rename"]}}}}
requests = [("initialize", init), ("initialized", {}),
    ("textDocument/didOpen", {"textDocument": {"uri": doc, "languageId": "markdown", "version": 1, "text": A}}),
    ("textDocument/hover", pos("t: find")), ("textDocument/completion", pos("status=", 7)),
    ("textDocument/definition", pos("- c", 2)), ("textDocument/references", {**pos("- b", 2), "context": {"includeDeclaration": True}}),
    ("textDocument/prepareRename", pos("- c", 2)), ("textDocument/rename", {**pos("- c", 2), "newName": "sea"}),
    ("textDocument/didChange", {"textDocument": {"uri": doc, "version": 2}, "contentChanges": [{"text": A.replace("- c", "- cc")}]}),
    ("textDocument/codeAction", {"textDocument": {"uri": doc}, "range": {"start": at(A, "- c"), "end": at(A, "- c", 3)}, "context": {"diagnostics": []}}),
    ("textDocument/documentSymbol", {"textDocument": {"uri": doc}}),
    ("textDocument/didClose", {"textDocument": {"uri": doc}}), ("shutdown", None), ("exit", None)]
def message(i, method, params):
    m = {"jsonrpc": "2.0", "method": method}
    if method not in ("initialized", "exit") and not method.startswith("textDocument/did"): m["id"] = i
    if params is not None: m["params"] = params
    return json.dumps(m, separators=(",", ":")).encode()
bodies = [message(i, m, p) for i, (m, p) in enumerate(requests)]
def frame(body, header=None): return (header or b"Content-Length: %d\r\n\r\n" % len(body)) + body
session = b"".join(frame(b) for b in bodies)
odd_ids = [b'{"jsonrpc":"2.0","id":4294967296,"method":"textDocument/hover","params":{}}',
           b'{"jsonrpc":"2.0","id":1.5,"method":"shutdown"}', b'{"jsonrpc":"2.0","id":-1099511627776,"method":"x"}',
           b'{"jsonrpc":"2.0","id":true,"method":"x"}', b'{"jsonrpc":"2.0","id":"s","result":null}',
           b'{"jsonrpc":"2.0","method":1}', b'[{"jsonrpc":"2.0","method":"x"}]', b'{"id":', b'\xff']
write("lsp", [session, b"\n".join(bodies) + b"\n",
    b"".join(frame(b) for b in bodies[:1] + odd_ids + bodies[-2:]),
    frame(bodies[0], b"content-length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" % len(bodies[0])),
    frame(bodies[0]) + b"Content-Length: 18446744073709551615\r\n\r\n",
    frame(bodies[0]) + b"Content-Length: 4000000000\r\n\r\n{",
    b"Content-Length: 5\r\nContent-Length: 5\r\n\r\nnull\n", b"Content-Length: 2\n\n{}",
    b"Content-Length: +2\r\n\r\n{}", b"Content-Type: x\r\n\r\n{}", b"Content-Length: 10\r\n\r\n{}",
    b"Content-Length: 2\r\n" + b"X" * 5000, frame(b"{}") + frame(b"null") + frame(b""),
])
