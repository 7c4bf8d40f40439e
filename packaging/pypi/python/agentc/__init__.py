"""agentc, the compiler for AI-agent definition folders, from Python.

The wheel installs the `agentc` binary beside Python's own scripts; this module finds it
and runs it. `check` and `lock` return what `agentc ... --message-format json` prints (the
diagnostics contract of docs/CONTRACT.md), parsed, so a Python host reads the same objects
the command line writes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass, field
from typing import Any, Sequence

__all__ = ["AgentcError", "Report", "check", "find_agentc_bin", "lock"]

_EXE = "agentc" + (sysconfig.get_config_var("EXE") or "")


def find_agentc_bin() -> str:
    """The path of the agentc binary installed with this package.

    pip puts a wheel's scripts in the scripts folder of the scheme it installs into: the
    environment's, the user's (`pip install --user`), or `bin/` beside the package (`pip
    install --target`). The binary beside this interpreter is looked for first, so a
    virtual environment's agentc wins over another one on PATH.
    """
    candidates = [sysconfig.get_path("scripts")]
    if sys.version_info >= (3, 10):
        user_scheme = sysconfig.get_preferred_scheme("user")
    elif os.name == "nt":
        user_scheme = "nt_user"
    elif sys.platform == "darwin" and getattr(sys, "_framework", None):
        user_scheme = "osx_framework_user"
    else:
        user_scheme = "posix_user"
    candidates.append(sysconfig.get_path("scripts", scheme=user_scheme))
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidates.append(os.path.join(package_parent, "bin"))
    for folder in candidates:
        path = os.path.join(folder, _EXE)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(
        "the agentc binary is not installed beside this package; looked in: "
        + ", ".join(candidates)
    )


class AgentcError(Exception):
    """agentc could not run (its exit code 2): bad arguments, a root that does not exist,
    an agentc.toml with errors. `diagnostics` holds what it reported."""

    def __init__(self, message: str, diagnostics: list[dict[str, Any]]):
        super().__init__(message)
        self.diagnostics = diagnostics


@dataclass(frozen=True)
class Report:
    """One run of agentc: its diagnostics, as `--message-format json` prints them, in order;
    the counts of its summary line; and, for `lock`, the lockfile it compiled to."""

    diagnostics: list[dict[str, Any]]
    errors: int
    warnings: int
    lockfile: dict[str, Any] | None = field(default=None)

    @property
    def ok(self) -> bool:
        """No errors (warnings allowed, as `agentc check` exits 0 with them)."""
        return self.errors == 0


def _run(command: str, path: str | os.PathLike[str] | None, args: Sequence[str]) -> Report:
    argv = [find_agentc_bin(), command, "--message-format", "json", *args]
    if path is not None:
        # After `--`, a folder named `--fix` or `--workspace=..` is a path, never a flag.
        argv += ["--", os.fspath(path)]
    done = subprocess.run(argv, capture_output=True, encoding="utf-8", errors="replace")
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if not lines and done.returncode == 0:
        # `lock` prints no summary when it has nothing to report (docs/CONTRACT.md).
        return Report([], 0, 0)
    if not lines or lines[-1].get("type") != "summary":
        raise AgentcError(
            f"agentc {command} exited {done.returncode} without a summary: {done.stderr.strip()}",
            [],
        )
    summary = lines.pop()
    diagnostics = [line for line in lines if line.get("type") == "diagnostic"]
    if done.returncode not in (0, 1):
        messages = "; ".join(d.get("message", "") for d in diagnostics)
        raise AgentcError(f"agentc {command} could not run: {messages}", diagnostics)
    return Report(diagnostics, summary["errors"], summary["warnings"])


def check(
    path: str | os.PathLike[str] | None = None,
    *,
    deny_warnings: bool = False,
    args: Sequence[str] = (),
) -> Report:
    """`agentc check [PATH]`: every diagnostic of the project at `path` (without one, the
    project `agentc check` finds from the current folder). Extra command-line flags go in
    `args`. Raises AgentcError when agentc cannot run."""
    flags = ["--deny-warnings"] if deny_warnings else []
    return _run("check", path, [*flags, *args])


def lock(
    path: str | os.PathLike[str] | None = None,
    *,
    deny_warnings: bool = False,
    args: Sequence[str] = (),
) -> Report:
    """`agentc lock [PATH]`, into a temporary file instead of the project's agentc.lock:
    the diagnostics, and the lockfile as an object (None when the project has errors and
    no lockfile was written). Writes nothing in the project."""
    flags = ["--deny-warnings"] if deny_warnings else []
    with tempfile.TemporaryDirectory(prefix="agentc-lock-") as folder:
        target = os.path.join(folder, "agentc.lock")
        report = _run("lock", path, [*flags, "-o", target, *args])
        if not os.path.exists(target):
            return report
        with open(target, encoding="utf-8") as written:
            lockfile = json.load(written)
    return Report(report.diagnostics, report.errors, report.warnings, lockfile)
