// The lockfile loader's signatures (lib/load.js). The lockfile's shape is
// generated from agentc's JSON Schema into lockfile.d.ts.

import type { AgentcLock, Agent, Assistant, FileDigest, McpServer, Plugin, Skill, Tool } from './lockfile';

/**
 * The names of a project, one set per kind. `agentc lock --emit-dts FILE` writes an interface
 * `Names` of string-literal unions for a project; given to `loadLockfile<Names>()`, a misspelt
 * name is a compile error.
 */
export interface ProjectNames {
  agent: string;
  skill: string;
  tool: string;
  assistant: string;
  plugin: string;
  mcpServer: string;
  model: string;
  context: string;
}

/** Each entry of a loaded lockfile found by its name; an unknown name throws a LockfileError. */
export interface LockfileAccess<N extends ProjectNames = ProjectNames> {
  /** The agent `agents[].id === id`. */
  agent(id: N['agent']): Agent;
  /** The skill `skills[].qualified === qualified`. */
  skill(qualified: N['skill']): Skill;
  /** The tool `tools[].qualified === qualified`. */
  tool(qualified: N['tool']): Tool;
  /** The coding assistant's agent `assistants[].id === id`. */
  assistant(id: N['assistant']): Assistant;
  /** The Claude Code plugin `plugins[].name === name`. */
  plugin(name: N['plugin']): Plugin;
  /** The MCP server `mcp_servers[].id === id`. */
  mcpServer(id: N['mcpServer']): McpServer;
}

/** A lockfile as `loadLockfile` returns it: its fields as in the file, and the accessors. */
export type LoadedLockfile<N extends ProjectNames = ProjectNames> = AgentcLock & LockfileAccess<N>;

export interface LoadOptions {
  /** Check the root digest and, with `root`, every file's digest (default: true). */
  verify?: boolean;
  /** The agents directory the lockfile's paths are relative to (`root` of agentc.toml). */
  root?: string;
  /** The workspace the `@workspace/…` paths are relative to (`workspace` of agentc.toml). */
  workspace?: string;
  /** The registry file the `@registry` entry is the digest of; without it, that entry is skipped. */
  registry?: string;
  /** The folder the paths are resolved from (default: `process.cwd()`). */
  cwd?: string;
}

/** What is wrong with a lockfile against its files; each names the file and both digests. */
export type LockfileProblem =
  /** `root_digest` is not the digest of `files`: the lockfile was edited or damaged. */
  | { kind: 'root-digest'; expected: string; actual: string }
  /** The file's bytes have another sha256. */
  | { kind: 'changed'; path: string; expected: string; actual: string }
  /** The file is gone, outside its folder, not a regular file, too large or unreadable. */
  | { kind: 'missing'; path: string; expected: string; actual: null; reason: string }
  /** The path is absolute or climbs out with `..`: not written by agentc, and not read. */
  | { kind: 'invalid-path'; path: string; expected: string; actual: null };

export type LockfileErrorCode =
  | 'unreadable'
  | 'invalid'
  | 'version'
  | 'unknown-name'
  | LockfileProblem['kind'];

/** A lockfile that cannot be read, is not one, or does not match its files. */
export class LockfileError extends Error {
  name: 'LockfileError';
  /** Why: the first problem's kind when the digests do not match. */
  code: LockfileErrorCode;
  /** The lockfile's path as given. */
  file: string;
  /** Every mismatch found, in the order of `files` (the root digest first). */
  problems: LockfileProblem[];
}

/**
 * Reads a lockfile (`agentc.lock`), refuses any format version but 1 and anything not shaped
 * as a lockfile, and unless `verify: false` checks its digests (docs/lockfile.md): rejects with
 * a LockfileError naming each mismatch. Needs no native binary.
 */
export function loadLockfile<N extends ProjectNames = ProjectNames>(
  file: string,
  options?: LoadOptions,
): Promise<LoadedLockfile<N>>;

/** The mismatches of a lockfile against its files (`[]` when it matches); throws on a malformed one. */
export function verifyLockfile(lockfile: AgentcLock, options?: Omit<LoadOptions, 'verify'>): Promise<LockfileProblem[]>;

/** The root digest of a `files` list: sha256 over `path NUL sha256 LF` records, in order. */
export function rootDigest(files: readonly FileDigest[]): string;
