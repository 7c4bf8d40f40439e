#!/usr/bin/env node
'use strict';
// `npx agentc …`: runs the native binary with the same arguments, stdio and
// exit status, as if it had been run directly.

const { spawn } = require('node:child_process');
const os = require('node:os');
const { binaryPath, MissingBinaryError } = require('../lib/binary.js');

let binary;
try {
  binary = binaryPath();
} catch (error) {
  if (!(error instanceof MissingBinaryError)) throw error;
  process.stderr.write(`${error.message}\n`);
  // agentc's own code for "could not run".
  process.exit(2);
}

const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });

// A signal sent to this process (a `kill`, a CI runner stopping the job) is
// passed on, so the binary removes its temporary files as it would if run
// directly. Ctrl-C at a terminal reaches both processes already.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of forwarded) {
  process.on(signal, () => child.kill(signal));
}

child.on('error', (error) => {
  process.stderr.write(`agentc: cannot run ${binary}: ${error.message}\n`);
  process.exit(2);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so the caller sees what the binary's caller would.
    for (const s of forwarded) process.removeAllListeners(s);
    // Where the signal does not end a Node process (SIGPIPE is ignored),
    // the shell's code for it does.
    process.exitCode = 128 + (os.constants.signals[signal] || 0);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code);
});
