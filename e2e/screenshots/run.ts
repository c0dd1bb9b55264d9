/**
 * `make screenshots` (all) or `make screenshots NAME=checkout` (one; several with spaces): runs each
 * script of this folder in its own process, one after the other, each with a system of its own,
 * and writes its PNGs under var/screenshots/<name>/.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCREENSHOTS_DIR } from './kit';

const here = path.dirname(fileURLToPath(import.meta.url));
const notScripts = new Set(['kit', 'run']);
const scripts = readdirSync(here)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -'.ts'.length))
  .filter((name) => !notScripts.has(name))
  .sort();

const asked = process.argv.slice(2).flatMap((arg) => arg.split(/[\s,]+/)).filter(Boolean);
const unknown = asked.filter((name) => !scripts.includes(name));
if (unknown.length > 0) {
  console.error(`No screenshot script named ${unknown.join(', ')}; there are: ${scripts.join(', ')}`);
  process.exit(2);
}

const failed: string[] = [];
for (const name of asked.length > 0 ? asked : scripts) {
  const started = Date.now();
  console.log(`screenshots: ${name}`);
  // Its own process: every script is a top-level program that starts and stops its own system.
  const done = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, `${name}.ts`)], { stdio: 'inherit' });
  if (done.status !== 0) failed.push(name);
  console.log(`screenshots: ${name} ${done.status === 0 ? 'done' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
}
console.log(`PNGs under ${SCREENSHOTS_DIR}`);
if (failed.length > 0) {
  console.error(`screenshots failed: ${failed.join(', ')}`);
  process.exit(1);
}
