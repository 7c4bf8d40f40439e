'use strict';
// The Node API: the same native binary the `agentc` command runs, asked for
// its machine-readable output, which is parsed into objects.

const { spawn } = require('node:child_process');
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { binaryPath, MissingBinaryError } = require('./binary.js');

/** agentc could not run: a missing root, a bad option, a failed lockfile write. */
class AgentcError extends Error {
  constructor(message, { exitCode, diagnostics = [], summary, stderr = '' } = {}) {
    super(message);
    this.name = 'AgentcError';
    this.exitCode = exitCode;
    this.diagnostics = diagnostics;
    this.summary = summary;
    this.stderr = stderr;
  }
}

const OPTIONS = new Set([
  'cwd',
  'workspace',
  'registry',
  'exclude',
  'layout',
  'maxFileSize',
  'denyWarnings',
  'pedantic',
  'signal',
]);

/** The command-line flags for `options`, checked: a mistake is a TypeError, not a flag. */
function flags(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('agentc: options must be an object');
  }
  const unknown = Object.keys(options).filter((key) => !OPTIONS.has(key));
  if (unknown.length > 0) {
    throw new TypeError(
      `agentc: unknown option ${unknown.map((k) => `\`${k}\``).join(', ')}; the options are ` +
        [...OPTIONS].join(', '),
    );
  }
  const args = [];
  const text = (name, value) => {
    if (typeof value !== 'string') throw new TypeError(`agentc: \`${name}\` must be a string`);
    return value;
  };
  if (options.workspace !== undefined) args.push('--workspace', text('workspace', options.workspace));
  if (options.registry !== undefined) args.push('--registry', text('registry', options.registry));
  for (const name of ['exclude', 'layout']) {
    const value = options[name];
    if (value === undefined) continue;
    if (!Array.isArray(value)) throw new TypeError(`agentc: \`${name}\` must be an array of strings`);
    for (const item of value) args.push(`--${name}`, text(name, item));
  }
  if (options.maxFileSize !== undefined) {
    if (!Number.isSafeInteger(options.maxFileSize) || options.maxFileSize < 0) {
      throw new TypeError('agentc: `maxFileSize` must be a whole number of bytes');
    }
    args.push('--max-file-size', String(options.maxFileSize));
  }
  if (options.denyWarnings !== undefined && typeof options.denyWarnings !== 'boolean') {
    throw new TypeError('agentc: `denyWarnings` must be a boolean');
  }
  if (options.denyWarnings) args.push('--deny-warnings');
  if (options.pedantic !== undefined && typeof options.pedantic !== 'boolean') {
    throw new TypeError('agentc: `pedantic` must be a boolean');
  }
  if (options.pedantic) args.push('--pedantic');
  return args;
}

/** Runs the binary; resolves with its exit code and output. */
function run(args, options) {
  return new Promise((resolve, reject) => {
    let binary;
    try {
      binary = binaryPath();
    } catch (error) {
      reject(error instanceof MissingBinaryError ? new AgentcError(error.message) : error);
      return;
    }
    const child = spawn(binary, args, {
      cwd: options.cwd,
      signal: options.signal,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}

/** The diagnostics and summary of a `--message-format json` run, or an AgentcError. */
function messages(out) {
  if (out.signal) {
    throw new AgentcError(`agentc: the binary was ended by ${out.signal}`, { stderr: out.stderr });
  }
  const lines = out.stdout.split('\n').filter((line) => line !== '');
  // `lock` prints no summary when there is nothing to report.
  if (lines.length === 0 && out.code === 0) lines.push('{"type":"summary","errors":0,"warnings":0}');
  let parsed;
  try {
    parsed = lines.map((line) => JSON.parse(line));
  } catch {
    parsed = [];
  }
  const summary = parsed.length > 0 ? parsed[parsed.length - 1] : undefined;
  const diagnostics = parsed.slice(0, -1);
  if (!summary || summary.type !== 'summary' || diagnostics.some((d) => d.type !== 'diagnostic')) {
    throw new AgentcError(
      `agentc: unexpected output (exit code ${out.code}): ${out.stderr.trim() || out.stdout.trim()}`,
      { exitCode: out.code, stderr: out.stderr },
    );
  }
  if (out.code !== 0 && out.code !== 1) {
    const cannot = diagnostics.find((d) => d.code === 'cannot-run');
    throw new AgentcError(
      cannot ? cannot.message : out.stderr.trim() || `agentc exited with code ${out.code}`,
      { exitCode: out.code, diagnostics, summary, stderr: out.stderr },
    );
  }
  return { ok: out.code === 0, exitCode: out.code, diagnostics, summary };
}

/** The arguments naming the root, after every flag, so a root starting with `-` is a path. */
function rootArgs(dir) {
  if (dir === undefined || dir === null) return [];
  if (typeof dir !== 'string') throw new TypeError('agentc: the directory must be a string');
  return ['--', dir];
}

/** `agentc check`: the diagnostics of a project. */
async function check(dir, options = {}) {
  const args = ['check', ...flags(options), '--message-format', 'json', ...rootArgs(dir)];
  return messages(await run(args, options));
}

/** `agentc lock`: the lockfile of a project (null when it has errors), and its diagnostics. */
async function lock(dir, options = {}) {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'agentc-lock-'));
  try {
    // Written where only this call looks, then read: the project's own
    // agentc.lock is left as it is.
    const file = path.join(folder, 'agentc.lock');
    const args = ['lock', '-o', file, ...flags(options), '--message-format', 'json'];
    const result = messages(await run([...args, ...rootArgs(dir)], options));
    let lockfile = null;
    if (result.ok) {
      lockfile = JSON.parse(await fs.readFile(file, 'utf8'));
    }
    return { ...result, lockfile };
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

/**
 * The `--message-format json` text of `messages` (a result's diagnostics, then
 * its summary), as the command line prints it: one object per line, with DEL
 * and the C1 control characters escaped as well.
 */
function toJsonLines(result) {
  return [...result.diagnostics, result.summary]
    .map((message) =>
      JSON.stringify(message).replace(
        /[\u007f-\u009f]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
    )
    .map((line) => `${line}\n`)
    .join('');
}

const { loadLockfile, verifyLockfile, rootDigest, LockfileError } = require('./load.js');

module.exports = {
  check,
  lock,
  toJsonLines,
  AgentcError,
  loadLockfile,
  verifyLockfile,
  rootDigest,
  LockfileError,
};
