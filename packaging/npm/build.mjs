#!/usr/bin/env node
// Writes agentc's npm packages from an agentc binary already built, and packs
// them into tarballs:
//
//   node packaging/npm/build.mjs --binary target/release/agentc --platform linux-x64 --out dist/npm
//
// writes DIR/cli-<platform>/ (the package agentc-rs-<platform>, holding the
// binary) and DIR/agentc/ (the package `agentc`: the launcher, the Node API and
// its types), then DIR/agentc-rs-<platform>-<version>.tgz and
// DIR/agentc-rs-<version>.tgz. The main package is the same whichever platform is
// given; the release runs this once per platform and publishes it once.
// Run `npm ci` in this folder first (json-schema-to-typescript).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const repository = path.resolve(here, '..', '..');

/** Every platform the release builds: npm's `os`/`cpu`/`libc` and the Rust target. */
const PLATFORMS = [
  { name: 'linux-x64', os: 'linux', cpu: 'x64', libc: 'glibc', target: 'x86_64-unknown-linux-gnu' },
  { name: 'linux-arm64', os: 'linux', cpu: 'arm64', libc: 'glibc', target: 'aarch64-unknown-linux-gnu' },
  { name: 'linux-x64-musl', os: 'linux', cpu: 'x64', libc: 'musl', target: 'x86_64-unknown-linux-musl' },
  { name: 'darwin-x64', os: 'darwin', cpu: 'x64', target: 'x86_64-apple-darwin' },
  { name: 'darwin-arm64', os: 'darwin', cpu: 'arm64', target: 'aarch64-apple-darwin' },
  { name: 'win32-x64', os: 'win32', cpu: 'x64', target: 'x86_64-pc-windows-msvc' },
];

// `agentc` on npm is another project's (the AgentX registry's CLI), and so
// is `agentc` on PyPI: the packages are agentc-rs, as the wheel is, and the
// platform packages unscoped beside it, so no scope needs owning.
const MAIN = 'agentc-rs';
const packageName = (platform) => `${MAIN}-${platform.name}`;
const binaryName = (platform) => (platform.os === 'win32' ? 'agentc.exe' : 'agentc');

function fail(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

/** `version` of `[workspace.package]` in the workspace's Cargo.toml. */
function workspaceVersion() {
  const text = fs.readFileSync(path.join(repository, 'Cargo.toml'), 'utf8');
  const section = text.split(/^\[/m).find((s) => s.startsWith('workspace.package]'));
  const version = section && /^version\s*=\s*"([^"]+)"/m.exec(section);
  if (!version) fail('no version in [workspace.package] of Cargo.toml');
  return version[1];
}

/** The fields both packages share, from the workspace's Cargo.toml. */
function common(version) {
  return {
    version,
    license: 'MIT OR Apache-2.0',
    repository: { type: 'git', url: 'git+https://github.com/agentc/agentc.git' },
    homepage: 'https://github.com/agentc/agentc#readme',
  };
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function copyTree(from, to) {
  fs.cpSync(from, to, { recursive: true });
}

function platformPackage(platform, binary, out, version) {
  const dir = path.join(out, `cli-${platform.name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  const target = path.join(dir, 'bin', binaryName(platform));
  fs.copyFileSync(binary, target);
  fs.chmodSync(target, 0o755);
  writeJson(path.join(dir, 'package.json'), {
    name: packageName(platform),
    ...common(version),
    description: `The agentc binary for ${platform.name} (${platform.target}); installed by the package agentc.`,
    os: [platform.os],
    cpu: [platform.cpu],
    ...(platform.libc ? { libc: [platform.libc] } : {}),
    files: ['bin'],
  });
  fs.writeFileSync(
    path.join(dir, 'README.md'),
    `# ${packageName(platform)}\n\nThe agentc binary for ${platform.name}. Install ` +
      '[`agentc`](https://www.npmjs.com/package/agentc) instead: it installs the package for ' +
      'your platform and runs it.\n',
  );
  return dir;
}

/** TypeScript declarations generated from one of agentc's JSON Schemas. */
async function declarations(kind) {
  let compile;
  try {
    ({ compile } = await import('json-schema-to-typescript'));
  } catch {
    fail(`json-schema-to-typescript is not installed: run \`npm ci\` in ${here}`);
  }
  // The schemas `agentc schema --out generated` writes, which a test keeps
  // current: the same for every platform, so a cross-compiled binary that
  // cannot run here is never needed to make them.
  const schema = JSON.parse(
    fs.readFileSync(path.join(repository, 'generated', `${kind}.schema.json`), 'utf8'),
  );
  return compile(schema, kind, {
    bannerComment: `// Generated from generated/${kind}.schema.json (\`agentc schema ${kind}\`) by packaging/npm/build.mjs; do not edit.`,
    additionalProperties: false,
  });
}

async function mainPackage(out, version) {
  const dir = path.join(out, 'agentc');
  fs.rmSync(dir, { recursive: true, force: true });
  copyTree(path.join(here, 'agentc'), dir);
  fs.chmodSync(path.join(dir, 'bin', 'agentc.js'), 0o755);
  writeJson(path.join(dir, 'lib', 'platforms.json'), {
    version,
    platforms: PLATFORMS.map((p) => ({
      name: p.name,
      package: packageName(p),
      os: p.os,
      cpu: p.cpu,
      ...(p.libc ? { libc: p.libc } : {}),
      binary: binaryName(p),
    })),
  });
  fs.writeFileSync(path.join(dir, 'lib', 'message.d.ts'), await declarations('message'));
  fs.writeFileSync(path.join(dir, 'lib', 'lockfile.d.ts'), await declarations('lockfile'));
  writeJson(path.join(dir, 'package.json'), {
    name: MAIN,
    ...common(version),
    description:
      'Check AI-agent definition directories (skills, subagents, Copilot agents, plugins) from the command line or from Node.',
    keywords: ['agents', 'claude-code', 'copilot', 'skills', 'linter', 'compiler'],
    bin: { agentc: 'bin/agentc.js' },
    main: 'lib/index.js',
    types: 'lib/index.d.ts',
    files: ['bin', 'lib'],
    engines: { node: '>=18' },
    optionalDependencies: Object.fromEntries(PLATFORMS.map((p) => [packageName(p), version])),
  });
  return dir;
}

/** Packs `dir` into `out`; the tarball's path. */
function pack(dir, out) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const output = execFileSync(npm, ['pack', '--json', '--pack-destination', out], {
    cwd: dir,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  return path.join(out, JSON.parse(output)[0].filename);
}

async function main() {
  const { values } = parseArgs({
    options: {
      binary: { type: 'string' },
      platform: { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (!values.binary || !values.platform || !values.out) {
    fail('usage: build.mjs --binary PATH --platform PLATFORM --out DIR');
  }
  const platform = PLATFORMS.find((p) => p.name === values.platform);
  if (!platform) {
    fail(`unknown platform \`${values.platform}\`; the platforms are ${PLATFORMS.map((p) => p.name).join(', ')}`);
  }
  if (!fs.statSync(values.binary, { throwIfNoEntry: false })?.isFile()) {
    fail(`the binary \`${values.binary}\` is not a file`);
  }
  const out = path.resolve(values.out);
  fs.mkdirSync(out, { recursive: true });
  const version = workspaceVersion();
  const packages = [platformPackage(platform, values.binary, out, version), await mainPackage(out, version)];
  for (const dir of packages) {
    process.stdout.write(`${pack(dir, out)}\n`);
  }
}

await main();
