"""The PEP 517 backend of the repository's top pyproject.toml: a wheel named
`agentc-pre-commit` holding nothing but a dependency on the agentc wheel (its name from
packaging/pypi/pyproject.toml) at the version of the Cargo workspace, so installing the hook
repository installs the agentc binary of the same version, as ruff-pre-commit pins ruff.

Both values are read from the files that own them rather than written here a second time.
The files are read line by line (`tomllib` is Python 3.11's; pre-commit runs on older ones).
"""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
NAME = "agentc_pre_commit"


def _value(path: str, table: str, key: str) -> str:
    """`key = "value"` in `[table]` of the TOML file at `path`."""
    current = None
    with open(os.path.join(TOP, path), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                current = line.strip("[] ")
            elif current == table and line.split("=")[0].strip() == key:
                return line.split("=", 1)[1].strip().strip('"')
    raise RuntimeError(f"{path} has no {key} in [{table}]")


def _metadata() -> tuple[str, str]:
    version = _value("Cargo.toml", "workspace.package", "version")
    wheel = _value("packaging/pypi/pyproject.toml", "project", "name")
    metadata = (
        "Metadata-Version: 2.1\n"
        "Name: agentc-pre-commit\n"
        f"Version: {version}\n"
        "Summary: The agentc wheel, for agentc's pre-commit hooks.\n"
        f"Requires-Dist: {wheel}=={version}\n"
    )
    return version, metadata


def _hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version, metadata = _metadata()
    dist_info = f"{NAME}-{version}.dist-info"
    files = {
        f"{dist_info}/METADATA": metadata.encode(),
        f"{dist_info}/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: agentc_pre_commit_backend\n"
            "Root-Is-Purelib: true\nTag: py3-none-any\n"
        ).encode(),
    }
    record = "".join(f"{name},{_hash(data)},{len(data)}\n" for name, data in files.items())
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    filename = f"{NAME}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w") as wheel:
        for name, data in files.items():
            wheel.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return filename
