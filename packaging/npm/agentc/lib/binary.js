'use strict';
// Finds the agentc binary for this machine: the one in the per-platform
// package npm installed beside this one (an optional dependency, which npm
// installs only where its `os`, `cpu` and `libc` match), or AGENTC_BINARY.

const path = require('node:path');
// Written by packaging/npm/build.mjs from the platforms the release builds.
const { version, platforms } = require('./platforms.json');

class MissingBinaryError extends Error {}

/** `glibc` or `musl` on Linux (Node reports glibc's version only under glibc). */
function libc() {
  if (process.platform !== 'linux') return undefined;
  const report = process.report && process.report.getReport();
  return report && report.header && report.header.glibcVersionRuntime ? 'glibc' : 'musl';
}

/** The platform packages that can run here, the best first. */
function candidates() {
  const here = platforms.filter((p) => p.os === process.platform && p.cpu === process.arch);
  const c = libc();
  // A musl binary is static and runs under glibc too; a glibc one does not
  // run under musl.
  return here
    .filter((p) => !p.libc || p.libc === c || (p.libc === 'musl' && c === 'glibc'))
    .sort((a, b) => (a.libc === c ? 0 : 1) - (b.libc === c ? 0 : 1));
}

/** The path of the binary to run; throws MissingBinaryError saying how to get one. */
function binaryPath() {
  if (process.env.AGENTC_BINARY) return process.env.AGENTC_BINARY;
  const found = candidates();
  const where = `${process.platform} ${process.arch}${libc() ? ` (${libc()})` : ''}`;
  if (found.length === 0) {
    throw new MissingBinaryError(
      `agentc: no agentc binary is published for ${where}; the npm packages cover ` +
        `${platforms.map((p) => p.name).join(', ')}.\n` +
        'Build agentc from source (`cargo install --locked agentc-cli`, with Rust from ' +
        'https://rustup.rs) and set AGENTC_BINARY to the path of the `agentc` it installs.',
    );
  }
  for (const p of found) {
    let manifest;
    try {
      manifest = require.resolve(`${p.package}/package.json`);
    } catch {
      continue;
    }
    return path.join(path.dirname(manifest), 'bin', p.binary);
  }
  const wanted = found[0].package;
  throw new MissingBinaryError(
    `agentc: the package ${wanted}, which holds agentc's binary for ${where}, is not installed.\n` +
      'It is an optional dependency of agentc: npm leaves it out when optional dependencies are ' +
      'omitted (--omit=optional, --no-optional) or when the lockfile was written on another ' +
      'platform without it.\n' +
      `Fix: install it with \`npm install ${wanted}@${version}\`, or reinstall agentc with ` +
      'optional dependencies (delete node_modules and package-lock.json, then `npm install`).\n' +
      'Or run a binary of your own: set AGENTC_BINARY to the path of an `agentc` you built ' +
      '(`cargo install --locked --path cli` in a clone of agentc), as before the packages are ' +
      'published.',
  );
}

module.exports = { binaryPath, MissingBinaryError };
