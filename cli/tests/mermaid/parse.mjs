// Parses the Mermaid text on stdin with Mermaid's own parser (the one GitHub's renderer
// runs) and prints the diagram type; exits 1 with Mermaid's message if it does not parse.
// Mermaid sanitizes labels with DOMPurify, which needs a DOM: jsdom gives it one.
import { JSDOM } from 'jsdom';
import { readFileSync } from 'node:fs';

const { window } = new JSDOM('');
globalThis.window = window;
globalThis.document = window.document;
const { default: mermaid } = await import('mermaid');

try {
  const parsed = await mermaid.parse(readFileSync(0, 'utf8'));
  console.log(parsed.diagramType);
} catch (error) {
  console.error(error?.message ?? String(error));
  process.exit(1);
}
