// The API's signatures (the lockfile loader's are in load.d.ts). The shapes
// of what it returns are generated from agentc's JSON Schemas into
// message.d.ts and lockfile.d.ts by packaging/npm/build.mjs; none is written
// here.

import type { AgentcMessageFormatJson, Diagnostic, Summary } from './message';
import type { AgentcLock } from './lockfile';

export type { Diagnostic, Summary, Severity, Label, Fix, Edit } from './message';
/** One line of `agentc check --message-format json`. */
export type Message = AgentcMessageFormatJson;
/** agentc.lock, the compiled project. */
export type Lockfile = AgentcLock;
export type {
  Agent,
  Assistant,
  FileDigest,
  HookSet,
  McpServer,
  Plugin,
  Skill,
  Tool,
} from './lockfile';
export {
  loadLockfile,
  verifyLockfile,
  rootDigest,
  LockfileError,
} from './load';
export type {
  LoadedLockfile,
  LockfileAccess,
  LockfileErrorCode,
  LockfileProblem,
  LoadOptions,
  ProjectNames,
} from './load';

/** What to compile, as the command line's flags say it. */
export interface Options {
  /** The folder paths are resolved and shown from (default: `process.cwd()`). */
  cwd?: string;
  /** `--workspace`: the repository root that contributes AGENTS.md and `.agents/`. */
  workspace?: string;
  /** `--registry`: the host's registry file (JSON or YAML). */
  registry?: string;
  /** `--exclude`: scopes to switch off (`repo-skills`, `global-tools`, …). */
  exclude?: string[];
  /** `--layout`: read only these layouts (`claude`, `copilot`, …). */
  layout?: string[];
  /** `--max-file-size`: the largest file read, in bytes. */
  maxFileSize?: number;
  /** `--deny-warnings`: warnings fail the run (`ok` is false). */
  denyWarnings?: boolean;
  /** `--pedantic`: also report what the hosts tolerate and portability rules. */
  pedantic?: boolean;
  /** Ends the run early. */
  signal?: AbortSignal;
}

export interface CheckResult {
  /** The exit code is 0: no errors (and no warnings with `denyWarnings`). */
  ok: boolean;
  /** The command line's exit code: 0 or 1. */
  exitCode: 0 | 1;
  diagnostics: Diagnostic[];
  summary: Summary;
}

export interface LockResult extends CheckResult {
  /** The lockfile `agentc lock` would write; null when the project does not compile. */
  lockfile: Lockfile | null;
}

/** agentc could not run (exit code 2: a missing root, a bad option), or no binary was found. */
export class AgentcError extends Error {
  exitCode?: number;
  /** The `cannot-run` diagnostic and any reported before it (a broken registry's, say). */
  diagnostics: Diagnostic[];
  /** The run's summary, when the binary printed one. */
  summary?: Summary;
  stderr: string;
}

/** `agentc check [dir]`: the diagnostics of a project; `dir` omitted finds it as the CLI does. */
export function check(dir?: string, options?: Options): Promise<CheckResult>;

/** `agentc lock [dir]`: the lockfile of a project, written nowhere, and its diagnostics. */
export function lock(dir?: string, options?: Options): Promise<LockResult>;

/** The result as `--message-format json` prints it, byte for byte. */
export function toJsonLines(result: Pick<CheckResult, 'diagnostics' | 'summary'>): string;
