#!/usr/bin/env node
/**
 * Prints how much JavaScript the landing route (/) makes the browser download, gzip-compressed:
 * the entry chunk, the landing page's lazy chunk and every chunk they import statically.
 * Fails the build when that exceeds the budget (docs/benchmarks.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 100;
const LANDING_SOURCE = 'src/features/landing/landing-page.tsx';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('no entry chunk in the Vite manifest');
if (!manifest[LANDING_SOURCE]) throw new Error(`${LANDING_SOURCE} is not a chunk of its own in the Vite manifest`);

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit(entryKey);
visit(LANDING_SOURCE);

const kb = (bytes) => (bytes / 1024).toFixed(1);
let raw = 0;
let gzip = 0;
for (const file of files) {
  const content = readFileSync(path.join(dist, file));
  const gz = gzipSync(content, { level: 9 }).length;
  raw += content.length;
  gzip += gz;
  console.log(`  ${file.padEnd(48)} ${kb(content.length).padStart(8)} KB  ${kb(gz).padStart(7)} KB gzip`);
}
console.log(`Landing route (/) JavaScript: ${kb(raw)} KB, ${kb(gzip)} KB gzip (budget ${BUDGET_KB} KB gzip)`);
if (gzip > BUDGET_KB * 1024) {
  console.error(`Over budget: the landing route's JavaScript is ${kb(gzip)} KB gzip, more than ${BUDGET_KB} KB.`);
  process.exit(1);
}
