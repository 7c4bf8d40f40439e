// A Node runtime loading agentc.lock, as cli/tests/npm.rs runs it: type-checked
// with `tsc --strict` against the installed package and the names
// `agentc lock --emit-dts` wrote for the example, then run with the native
// package set aside (loading needs no binary). Reads on stdin the lockfiles
// to load; writes on stdout what each load gave.
import { readFile } from 'node:fs/promises';
import { LockfileError, loadLockfile, rootDigest, verifyLockfile } from 'agentc-rs';
import type { LoadOptions, LoadedLockfile, LockfileProblem, Lockfile } from 'agentc-rs';
import type { AgentName, Names, SkillName, ToolName } from './agentc-names.js';

interface Case {
  name: string;
  file: string;
  options: LoadOptions;
}

interface Input {
  cases: Case[];
  desk: Case;
  refused: Case[];
}

async function stdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A problem in one line, each kind read through its own fields. */
function line(problem: LockfileProblem): string {
  switch (problem.kind) {
    case 'root-digest':
      return `root-digest ${problem.expected} ${problem.actual}`;
    case 'changed':
      return `changed ${problem.path} ${problem.expected} ${problem.actual}`;
    case 'missing':
      return `missing ${problem.path} ${problem.expected}: ${problem.reason}`;
    case 'invalid-path':
      return `invalid-path ${problem.path} ${problem.expected}`;
  }
}

/** Every entry found again by its name: how many. */
function found(lock: LoadedLockfile): number {
  let n = 0;
  for (const agent of lock.agents) n += Number(lock.agent(agent.id) === agent);
  for (const skill of lock.skills) n += Number(lock.skill(skill.qualified) === skill);
  for (const tool of lock.tools) n += Number(lock.tool(tool.qualified) === tool);
  for (const assistant of lock.assistants ?? []) n += Number(lock.assistant(assistant.id) === assistant);
  for (const plugin of lock.plugins ?? []) n += Number(lock.plugin(plugin.name) === plugin);
  for (const server of lock.mcp_servers ?? []) n += Number(lock.mcpServer(server.id) === server);
  return n;
}

const input: Input = JSON.parse(await stdin());

// Real lockfiles: loaded and verified against their files, kept as written.
const loaded: Record<string, unknown> = {};
for (const c of input.cases) {
  const lock = await loadLockfile(c.file, c.options);
  const { verify: _, ...folders } = c.options;
  const again = await verifyLockfile(lock, folders);
  const file: Lockfile = JSON.parse(await readFile(c.file, 'utf8'));
  loaded[c.name] = {
    problems: again.map(line),
    same: JSON.stringify(lock) === JSON.stringify(file),
    root: rootDigest(lock.files) === lock.root_digest,
    found: found(lock),
  };
}

// The example, with its names typed.
const desk = await loadLockfile<Names>(input.desk.file, input.desk.options);
const start: AgentName = 'triage';
const skill: SkillName = 'agent__billing__refund-review';
const tool: ToolName = 'lookup_order';
let unknown = '';
try {
  // A name the types refuse, as a stale .d.ts would let through.
  desk.agent('helpdesk' as AgentName);
} catch (error) {
  if (!(error instanceof LockfileError)) throw error;
  unknown = `${error.code}: ${error.message}`;
}
const typed = {
  model: desk.agent(start).model ?? null,
  skill: desk.skill(skill).source,
  tool: desk.tool(tool).description ?? null,
  unknown,
};

// Lockfiles that must be refused, and how.
const refused: Record<string, unknown> = {};
for (const c of input.refused) {
  try {
    await loadLockfile(c.file, c.options);
    refused[c.name] = 'loaded';
  } catch (error) {
    if (!(error instanceof LockfileError)) throw error;
    refused[c.name] = {
      name: error.name,
      code: error.code,
      file: error.file,
      message: error.message,
      problems: error.problems.map(line),
    };
  }
}

process.stdout.write(JSON.stringify({ loaded, typed, refused }));
