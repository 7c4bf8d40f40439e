"""`python -m agentc ...`: runs the agentc binary this package installed."""

import os
import subprocess
import sys

from agentc import find_agentc_bin


def main() -> None:
    try:
        agentc = find_agentc_bin()
    except FileNotFoundError as missing:
        # agentc's own exit code for "could not run".
        print(f"agentc: {missing}", file=sys.stderr)
        sys.exit(2)
    args = [agentc, *sys.argv[1:]]
    if sys.platform == "win32":
        # Windows has no exec: a child process stands in, and its exit code is ours.
        sys.exit(subprocess.run(args).returncode)
    os.execv(agentc, args)


if __name__ == "__main__":
    main()
