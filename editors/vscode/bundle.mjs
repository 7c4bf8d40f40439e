// Bundles the extension into dist/extension.js, vscode-languageclient and its
// dependencies inside (`vscode` is the editor's own), and writes beside it
// the licence of every package bundled: their MIT and ISC terms ask that
// copies carry the notice, and the package no longer holds their folders.
import * as esbuild from "esbuild";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const result = await esbuild.build({
  entryPoints: ["src/extension.ts"],
  bundle: true,
  outfile: "dist/extension.js",
  external: ["vscode"],
  format: "cjs",
  platform: "node",
  target: "node18",
  minify: true,
  metafile: true,
  logLevel: "warning",
});

const folders = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const folder = input.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//);
  if (folder) folders.add(folder[1]);
}
const notices = [...folders].map((folder) => {
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  const file = readdirSync(folder).find((name) => /^licen[cs]e/i.test(name));
  if (!file) throw new Error(`${folder} has no licence file to carry`);
  const text = readFileSync(join(folder, file), "utf8").trim();
  return `${manifest.name} ${manifest.version} (${manifest.license})\n\n${text}\n`;
});
notices.sort();
const rule = "\n" + "-".repeat(79) + "\n\n";
writeFileSync(
  "dist/THIRD-PARTY-NOTICES.txt",
  "dist/extension.js bundles these packages, under these licences.\n" + rule + notices.join(rule),
);
