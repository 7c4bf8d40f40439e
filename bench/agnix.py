#!/usr/bin/env python3
"""`agentc check` against agnix on a folder of real repositories.

Usage: bench/agnix.py AGENTC AGNIX CORPUS ROUNDS

AGNIX is agnix's binary from its PyPI wheel (`pip install agnix==0.59.3`).
CORPUS holds one folder per repository. Two measurements, alternating which
tool goes first round by round, after one unmeasured run of each on every
repository (the page cache warm):
- at the top of each repository, as a pre-commit hook or CI runs them: each
  round sums each tool's wall time over the repositories, and the median
  round is shown;
- the whole folder as one run of each (at least 5 rounds), median wall.
Each tool's largest peak RSS (`ru_maxrss` of the one child) over every run.
Neither tool's exit code is judged: both find problems in real repositories.
"""
import os, statistics, sys, time
if len(sys.argv) != 5:
    sys.exit(__doc__)
agentc, agnix, corpus, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
repos = sorted(os.path.join(corpus, d) for d in os.listdir(corpus) if os.path.isdir(os.path.join(corpus, d)))
def run(cmd):
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1); os.dup2(fd, 2)
        os.execv(cmd[0], cmd)
    t = time.perf_counter()
    _, status, usage = os.wait4(pid, 0)
    return time.perf_counter() - t, usage.ru_maxrss
tools = {'agentc': lambda r: [agentc, 'check', r], 'agnix': lambda r: [agnix, '--max-files', '1000000', r]}
for r in repos:  # warm the page cache
    for make in tools.values(): run(make(r))
totals = {k: [] for k in tools}; peak = {k: 0 for k in tools}
for i in range(rounds):
    sums = {k: 0.0 for k in tools}
    order = list(tools) if i % 2 == 0 else list(reversed(list(tools)))
    for r in repos:
        for k in order:
            wall, rss = run(tools[k](r))
            sums[k] += wall; peak[k] = max(peak[k], rss)
    for k in tools: totals[k].append(sums[k])
print(f'{len(repos)} repositories, {rounds} rounds, alternating')
for k in tools:
    print(f'{k}: total wall median {statistics.median(totals[k]):.2f} s (rounds {", ".join(f"{t:.2f}" for t in totals[k])}), largest peak RSS {peak[k]/1024:.0f} MiB')
print(f'ratio agnix/agentc: {statistics.median(totals["agnix"]) / statistics.median(totals["agentc"]):.1f}x')

# The whole corpus as one run of each, alternating.
whole = {k: [] for k in tools}; whole_peak = {k: 0 for k in tools}
for i in range(max(rounds, 5)):
    order = list(tools) if i % 2 == 0 else list(reversed(list(tools)))
    for k in order:
        wall, rss = run(tools[k](corpus))
        whole[k].append(wall); whole_peak[k] = max(whole_peak[k], rss)
for k in tools:
    print(f'{k} on the whole folder: wall median {statistics.median(whole[k]):.3f} s, largest peak RSS {whole_peak[k]/1024:.0f} MiB')
print(f'ratio agnix/agentc, whole folder: {statistics.median(whole["agnix"]) / statistics.median(whole["agentc"]):.1f}x')
