#!/usr/bin/env python3
"""Builds the PyPI wheel around an agentc binary cargo already built:

    python3 packaging/pypi/build.py --binary PATH [--platform TAG] --out DIR

and prints the wheel's path. TAG is the wheel's platform tag (`manylinux_2_17_x86_64`,
`macosx_11_0_arm64`, `win_amd64`, ...); without it, this machine's (`linux_x86_64`), which
pip installs here and PyPI refuses.

maturin writes the metadata (`maturin pep517 write-dist-info`: the name, the version from
cli/Cargo.toml, everything pyproject.toml says), and this script packs it with the Python
package in python/ and the binary as the wheel's script, as `maturin build` lays a
`bindings = "bin"` wheel out. It does not let maturin build the binary: maturin always asks
cargo for it, and the binary `cargo test --workspace` builds resolves its dependencies'
features with the whole workspace's, so cargo building agentc-cli alone for maturin rebuilds
what those features reach (after `cargo test -p agentc-cli`: 15 crates, agentc's four among
them, 1 min 45 s on a 2-core machine) and packs another binary. Packing the given file takes
about 4 s, most of it compressing, and ships exactly what was tested.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the agentc binary cargo built")
    parser.add_argument("--platform", help="the wheel's platform tag (default: this machine's)")
    parser.add_argument("--out", required=True, help="the folder to write the wheel into")
    args = parser.parse_args()

    if not os.path.isfile(args.binary):
        parser.error(f"no binary at {args.binary}")
    script = "agentc.exe" if args.binary.endswith(".exe") else "agentc"
    platform = args.platform or sysconfig.get_platform().replace("-", "_").replace(".", "_")
    if not re.fullmatch(r"[a-z0-9_]+", platform):
        parser.error(f"{platform!r} is not a platform tag (such as manylinux_2_17_x86_64)")

    with tempfile.TemporaryDirectory() as metadata:
        try:
            done = subprocess.run(
                ["maturin", "pep517", "write-dist-info", "--metadata-directory", metadata],
                cwd=HERE,
                capture_output=True,
                text=True,
            )
        except FileNotFoundError:
            parser.error("maturin is not installed (pip install maturin==1.16.0)")
        if done.returncode != 0:
            sys.stderr.write(done.stdout + done.stderr)
            return 1
        (dist_info,) = [name for name in os.listdir(metadata) if name.endswith(".dist-info")]
        stem = dist_info[: -len(".dist-info")]
        files: list[tuple[str, bytes, int]] = []
        top = os.path.join(metadata, dist_info)
        for folder, _, names in os.walk(top):
            for name in names:
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    data = f.read()
                name = os.path.relpath(path, top).replace(os.sep, "/")
                if name == "WHEEL":
                    lines = data.decode().splitlines()
                    lines = [line for line in lines if not line.startswith("Tag: ")]
                    data = ("\n".join(lines) + f"\nTag: py3-none-{platform}\n").encode()
                files.append((f"{dist_info}/{name}", data, 0o644))

    package = os.path.join(HERE, "python", "agentc")
    for name in sorted(os.listdir(package)):
        if name.endswith(".py"):
            with open(os.path.join(package, name), "rb") as f:
                files.append((f"agentc/{name}", f.read(), 0o644))
    with open(args.binary, "rb") as f:
        files.append((f"{stem}.data/scripts/{script}", f.read(), 0o755))
    # The package first, the .data and .dist-info folders last, as maturin orders them.
    files.sort(key=lambda file: (file[0].startswith(stem), file[0]))

    record = "".join(f"{name},{record_hash(data)},{len(data)}\n" for name, data, _ in files)
    record += f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode(), 0o644))

    os.makedirs(args.out, exist_ok=True)
    wheel = os.path.join(os.path.abspath(args.out), f"{stem}-py3-none-{platform}.whl")
    partial = wheel + ".partial"
    try:
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data, mode in files:
                # A fixed date: the same binary makes the same wheel.
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = (0o100000 | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, data)
        os.replace(partial, wheel)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    print(wheel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
