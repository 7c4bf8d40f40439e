'use strict';
// Loads and verifies agentc.lock in plain JavaScript (node:crypto, no native
// binary), as docs/lockfile.md specifies the format: the root digest over the
// `files` list, and each file's sha256 against the files on disk.

const { createHash } = require('node:crypto');
const fs = require('node:fs/promises');
const path = require('node:path');

/** The format version this loader reads. */
const LOCKFILE_VERSION = 1;
/** The largest file verified, as agentc's default `--max-file-size`. */
const MAX_FILE_SIZE = 16 * 1024 * 1024;
const REGISTRY = '@registry';
const WORKSPACE = '@workspace/';
/** How many files are read at once. */
const PARALLEL = 8;

/** The top-level fields, with the key each entry of a list is found by. */
const LISTS = {
  agents: { key: 'id', required: true },
  skills: { key: 'qualified', required: true },
  tools: { key: 'qualified', required: true },
  assistants: { key: 'id', required: false },
  plugins: { key: 'name', required: false },
  mcp_servers: { key: 'id', required: false },
  hooks: { key: null, required: false },
};
const FIELDS = new Set(['lockfile_version', 'agentc_version', 'root_digest', 'files', ...Object.keys(LISTS)]);
const OPTIONS = new Set(['verify', 'root', 'workspace', 'registry', 'cwd']);

/** A lockfile that cannot be loaded, or that does not match its files. */
class LockfileError extends Error {
  constructor(message, { code, file, problems = [] }) {
    super(message);
    this.name = 'LockfileError';
    this.code = code;
    this.file = file;
    this.problems = problems;
  }
}

/** Lowercase hex sha256 of `bytes`. */
function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The root digest of `files`: sha256 over one `path NUL sha256 LF` record per entry, in order. */
function rootDigest(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file.path, 'utf8');
    hash.update('\0');
    hash.update(file.sha256, 'utf8');
    hash.update('\n');
  }
  return hash.digest('hex');
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Why `value` is not a lockfile this loader reads, or null. */
function shapeError(value) {
  if (!isObject(value)) return 'it is not a JSON object';
  const version = value.lockfile_version;
  if (version !== LOCKFILE_VERSION) {
    return Number.isInteger(version)
      ? {
          version:
            `the lockfile has format version ${version}; ` +
            `this reader knows version ${LOCKFILE_VERSION}`,
        }
      : { version: 'the lockfile has no `lockfile_version`; it is not an agentc.lock' };
  }
  const unknown = Object.keys(value).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0) return `unknown field \`${unknown[0]}\``;
  if (typeof value.agentc_version !== 'string') return '`agentc_version` is not a string';
  if (typeof value.root_digest !== 'string') return '`root_digest` is not a string';
  if (!Array.isArray(value.files)) return '`files` is not a list';
  for (const [i, file] of value.files.entries()) {
    if (!isObject(file) || typeof file.path !== 'string' || typeof file.sha256 !== 'string') {
      return `\`files[${i}]\` is not a \`{ path, sha256 }\` of strings`;
    }
  }
  for (const [field, { key, required }] of Object.entries(LISTS)) {
    const list = value[field];
    if (list === undefined && !required) continue;
    if (!Array.isArray(list)) return `\`${field}\` is not a list`;
    for (const [i, item] of list.entries()) {
      if (!isObject(item) || (key && typeof item[key] !== 'string')) {
        return `\`${field}[${i}]\` is not an object with a string \`${key ?? 'field'}\``;
      }
    }
  }
  return null;
}

/** Throws LockfileError when `value` is not a lockfile of the version this loader reads. */
function checkShape(value, file) {
  const error = shapeError(value);
  if (error === null) return;
  if (typeof error === 'object') {
    throw new LockfileError(`${file}: ${error.version}`, { code: 'version', file });
  }
  throw new LockfileError(`${file}: not a valid lockfile: ${error}`, { code: 'invalid', file });
}

/** The options, checked: a mistake is a TypeError. */
function checkOptions(options) {
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
  for (const name of ['root', 'workspace', 'registry', 'cwd']) {
    if (options[name] !== undefined && typeof options[name] !== 'string') {
      throw new TypeError(`agentc: \`${name}\` must be a string`);
    }
  }
  if (options.verify !== undefined && typeof options.verify !== 'boolean') {
    throw new TypeError('agentc: `verify` must be a boolean');
  }
  if (options.root === undefined && (options.workspace !== undefined || options.registry !== undefined)) {
    throw new TypeError(
      'agentc: `workspace` and `registry` are verified with the files of `root`: give `root` too',
    );
  }
  const cwd = options.cwd ?? process.cwd();
  const resolve = (p) => (p === undefined ? undefined : path.resolve(cwd, p));
  return {
    verify: options.verify ?? true,
    root: resolve(options.root),
    workspace: resolve(options.workspace),
    registry: resolve(options.registry),
  };
}

/** `relative`'s components when agentc could have written it (no `..`, `.`, empty, absolute), else null. */
function components(relative) {
  if (relative === '' || path.posix.isAbsolute(relative) || path.isAbsolute(relative)) return null;
  const parts = relative.split(process.platform === 'win32' ? /[\\/]/ : '/');
  const bad = (part) =>
    part === '' || part === '.' || part === '..' || (process.platform === 'win32' && part.includes(':'));
  return parts.some(bad) ? null : parts;
}

/** Whether `inner`, a resolved path, is `outer` or inside it. */
function inside(inner, outer) {
  const prefix = outer.endsWith(path.sep) ? outer : outer + path.sep;
  return inner === outer || inner.startsWith(prefix);
}

/** Why a file that could not be opened counts as missing. */
function unreadable(error) {
  return error.code === 'ENOENT' || error.code === 'ENOTDIR'
    ? 'it does not exist'
    : `it cannot be read (${error.code ?? error.message})`;
}

/** The bytes of `file` when it is a regular file of at most MAX_FILE_SIZE; else why not. */
async function readRegular(file) {
  let stat;
  try {
    stat = await fs.stat(file);
  } catch (error) {
    return { missing: unreadable(error) };
  }
  if (!stat.isFile()) return { missing: 'it is not a regular file' };
  if (stat.size > MAX_FILE_SIZE) return { missing: `it is larger than ${MAX_FILE_SIZE} bytes` };
  try {
    return { bytes: await fs.readFile(file) };
  } catch (error) {
    return { missing: `it cannot be read (${error.code ?? error.message})` };
  }
}

/** What is wrong with one entry of `files`, or null. */
async function checkFile(entry, folders) {
  const { path: listed, sha256: expected } = entry;
  const missing = (reason) => ({ kind: 'missing', path: listed, expected, actual: null, reason });
  let read;
  if (listed === REGISTRY) {
    // Where the registry is, the lockfile does not say: checked only when given.
    if (folders.registry === undefined) return null;
    read = await readRegular(folders.registry);
  } else {
    const workspace = listed.startsWith(WORKSPACE);
    const base = workspace ? folders.workspace : folders.root;
    if (base === undefined) return missing('it is a workspace file, and no `workspace` folder was given');
    const parts = components(workspace ? listed.slice(WORKSPACE.length) : listed);
    if (parts === null) return { kind: 'invalid-path', path: listed, expected, actual: null };
    let real;
    let realBase;
    try {
      realBase = await fs.realpath(base);
      real = await fs.realpath(path.join(base, ...parts));
    } catch (error) {
      return missing(unreadable(error));
    }
    if (!inside(real, realBase)) {
      return missing(`a link leads out of ${workspace ? 'the workspace' : 'the root'}`);
    }
    read = await readRegular(real);
  }
  if (read.missing) return missing(read.missing);
  const actual = sha256(read.bytes);
  return actual === expected ? null : { kind: 'changed', path: listed, expected, actual };
}

/** The problems of `lockfile` against `folders` (resolved), in the order of `files`. */
async function problemsOf(lockfile, folders) {
  const problems = [];
  const actual = rootDigest(lockfile.files);
  if (actual !== lockfile.root_digest) {
    problems.push({ kind: 'root-digest', expected: lockfile.root_digest, actual });
  }
  if (folders.root === undefined) return problems;
  const found = new Array(lockfile.files.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < lockfile.files.length) {
      const i = next++;
      found[i] = await checkFile(lockfile.files[i], folders);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return problems.concat(found.filter((problem) => problem !== null));
}

/** One line of the error's message for `problem`. */
function describe(problem) {
  switch (problem.kind) {
    case 'root-digest':
      return (
        `root_digest is ${problem.expected}, but the files listed give ${problem.actual}: ` +
        'the lockfile was edited or damaged after agentc wrote it'
      );
    case 'changed':
      return `${problem.path} changed: expected sha256 ${problem.expected}, found ${problem.actual}`;
    case 'missing':
      return `${problem.path} is missing: ${problem.reason} (expected sha256 ${problem.expected})`;
    default:
      return `${problem.path} is not a path agentc writes (absolute, or with \`..\`), and was not read`;
  }
}

/** The error for `problems` found in the lockfile `file`. */
function mismatch(file, problems) {
  const lines = problems.map((problem) => `  ${describe(problem)}`);
  return new LockfileError(
    `${file} does not match the files it was compiled from:\n${lines.join('\n')}\n` +
      'help: if the files changed, run `agentc lock` to update the lockfile ' +
      '(`agentc lock --check` says what changed)',
    { code: problems[0].kind, file, problems },
  );
}

/** The name an entry of `field` is found by, for messages. */
const WHAT = {
  agents: 'agent',
  skills: 'skill',
  tools: 'tool',
  assistants: 'assistant',
  plugins: 'plugin',
  mcp_servers: 'MCP server',
};

/** A loaded lockfile: its fields, and each entry found by name. */
class LoadedLockfile {
  #file;
  #index = new Map();

  constructor(data, file) {
    Object.assign(this, data);
    this.#file = file;
  }

  #find(field, name) {
    let index = this.#index.get(field);
    if (!index) {
      index = new Map((this[field] ?? []).map((item) => [item[LISTS[field].key], item]));
      this.#index.set(field, index);
    }
    const found = index.get(name);
    if (found === undefined) {
      const names = [...index.keys()];
      const some = names.slice(0, 10).map((n) => `\`${n}\``).join(', ');
      throw new LockfileError(
        `${this.#file} has no ${WHAT[field]} \`${name}\`; ` +
          (names.length === 0
            ? `it has no ${WHAT[field]}s`
            : `it has ${some}${names.length > 10 ? ', …' : ''}`),
        { code: 'unknown-name', file: this.#file },
      );
    }
    return found;
  }

  agent(id) {
    return this.#find('agents', id);
  }

  skill(qualified) {
    return this.#find('skills', qualified);
  }

  tool(qualified) {
    return this.#find('tools', qualified);
  }

  assistant(id) {
    return this.#find('assistants', id);
  }

  plugin(name) {
    return this.#find('plugins', name);
  }

  mcpServer(id) {
    return this.#find('mcp_servers', id);
  }
}

/** Reads `file`, checks its shape and version and, unless `verify: false`, its digests. */
async function loadLockfile(file, options = {}) {
  if (typeof file !== 'string') throw new TypeError('agentc: the lockfile path must be a string');
  const folders = checkOptions(options);
  const cwd = options.cwd ?? process.cwd();
  let text;
  try {
    text = await fs.readFile(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new LockfileError(`cannot read the lockfile ${file}: ${error.message}`, {
      code: 'unreadable',
      file,
    });
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new LockfileError(`${file}: not a valid lockfile: ${error.message}`, { code: 'invalid', file });
  }
  checkShape(data, file);
  if (folders.verify) {
    const problems = await problemsOf(data, folders);
    if (problems.length > 0) throw mismatch(file, problems);
  }
  return new LoadedLockfile(data, file);
}

/** The problems of `lockfile` (loaded, or as `lock()` returns it): [] when all match. */
async function verifyLockfile(lockfile, options = {}) {
  const folders = checkOptions(options);
  checkShape(lockfile, 'the lockfile');
  return problemsOf(lockfile, folders);
}

module.exports = { loadLockfile, verifyLockfile, rootDigest, LockfileError };
