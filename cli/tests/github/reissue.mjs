// Reads workflow commands on stdin, one per line, as the Actions runner parses them
// (actions/runner ActionCommand.TryParseV2: `::name k=v,k=v::message`, properties split on
// `,` then on the first `=`, values and message unescaped), and issues each again with
// GitHub's @actions/core, which escapes them as the toolkit does. A command that parses
// differently from what its writer meant comes out different.
import * as core from '@actions/core';
import { readFileSync } from 'node:fs';

const unescape = (text, property) => {
  let out = text.replace(/%0D/g, '\r').replace(/%0A/g, '\n');
  if (property) out = out.replace(/%3A/g, ':').replace(/%2C/g, ',');
  return out.replace(/%25/g, '%');
};

const names = { title: 'title', file: 'file', line: 'startLine', endLine: 'endLine', col: 'startColumn', endColumn: 'endColumn' };

for (const line of readFileSync(0, 'utf8').split('\n')) {
  if (!line.startsWith('::')) continue;
  const end = line.indexOf('::', 2);
  if (end < 0) throw new Error(`not a command: ${line}`);
  const head = line.slice(2, end);
  const message = unescape(line.slice(end + 2), false);
  const space = head.indexOf(' ');
  const command = space < 0 ? head : head.slice(0, space);
  const properties = {};
  if (space >= 0) {
    for (const pair of head.slice(space + 1).split(',')) {
      const eq = pair.indexOf('=');
      if (eq < 0) throw new Error(`a property without a value: ${pair}`);
      const key = pair.slice(0, eq);
      if (!(key in names)) throw new Error(`a property the runner does not know: ${key}`);
      const value = unescape(pair.slice(eq + 1), true);
      properties[names[key]] = ['line', 'endLine', 'col', 'endColumn'].includes(key) ? Number(value) : value;
    }
  }
  if (command === 'error') core.error(message, properties);
  else if (command === 'warning') core.warning(message, properties);
  else throw new Error(`not an annotation: ${command}`);
}
