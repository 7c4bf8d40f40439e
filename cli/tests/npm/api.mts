// A Node host using agentc's API, as cli/tests/npm.rs runs it: type-checked
// with `tsc --strict` against the installed package's generated types, then
// run. Reads on stdin what to check and lock; writes on stdout what the API
// returned, as the command line would print it.
import { AgentcError, check, lock, toJsonLines } from 'agentc-rs';
import type { CheckResult, Diagnostic, Lockfile, Options, Severity } from 'agentc-rs';

interface Case {
  name: string;
  dir: string;
  options: Options;
}

interface Input {
  cwd: string;
  cases: Case[];
  lock: string;
  broken: string;
  missing: string;
}

async function stdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Where a diagnostic is, the way an editor would link it. */
function where(d: Diagnostic): string {
  const severity: Severity = d.severity;
  return `${severity} ${d.file ?? '-'}:${d.line ?? 0}:${d.column ?? 0} ${d.code}`;
}

const input: Input = JSON.parse(await stdin());
const checks: Record<string, string> = {};
const firsts: Record<string, string> = {};
// Two at a time: each check is a process of its own.
const queue = [...input.cases];
async function worker(): Promise<void> {
  for (let next = queue.shift(); next; next = queue.shift()) {
    let result: Pick<CheckResult, 'diagnostics' | 'summary'>;
    try {
      result = await check(next.dir, { ...next.options, cwd: input.cwd });
    } catch (error) {
      // A run that cannot start (a broken registry: exit code 2) rejects,
      // with what the command line printed.
      if (!(error instanceof AgentcError) || !error.summary) throw error;
      result = { diagnostics: error.diagnostics, summary: error.summary };
    }
    checks[next.name] = toJsonLines(result);
    if (result.diagnostics.length > 0) firsts[next.name] = where(result.diagnostics[0]);
  }
}
await Promise.all([worker(), worker()]);

const locked = await lock(input.lock, { cwd: input.cwd });
const lockfile: Lockfile | null = locked.lockfile;
const skills: string[] = lockfile ? lockfile.skills.map((skill) => skill.qualified) : [];

// A project with errors has no lockfile, and says why.
const refused = await lock(input.broken, { cwd: input.cwd });
const broken = { ok: refused.ok, lockfile: refused.lockfile, summary: refused.summary };

let missing: { name: string; message: string; exitCode?: number } | null = null;
try {
  await check(input.missing, { cwd: input.cwd });
} catch (error) {
  if (!(error instanceof AgentcError)) throw error;
  missing = { name: error.name, message: error.message, exitCode: error.exitCode };
}

process.stdout.write(
  JSON.stringify({ checks, firsts, lock: { ok: locked.ok, lockfile, skills }, broken, missing }),
);
