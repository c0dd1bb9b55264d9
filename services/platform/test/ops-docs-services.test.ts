import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { consumerQueues, isCommand, publishers } from '@warmline/contracts';

/** docs/services.md's table says what each process publishes and consumes: the broker manifest's words, no more, no less. */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const doc = readFileSync(path.join(ROOT, 'docs/services.md'), 'utf8');
const listed = (JSON.parse(readFileSync(path.join(ROOT, 'infra/services.json'), 'utf8')) as { services: Array<{ name: string }> }).services;

/** The table row of a process: its cells after the name. */
function row(name: string): { events: string[]; commands: string[]; queues: string[] } {
  const line = doc.split('\n').find((l) => new RegExp(`^\\| ${name}( \\(worker\\))? \\|`).test(l));
  expect(line, `docs/services.md has no row for ${name}`).toBeDefined();
  const cells = line!.split(' | ').map((c) => c.trim());
  const codes = (cell: string | undefined) => [...(cell ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!).sort();
  return { events: codes(cells[2]), commands: codes(cells[3]), queues: codes(cells[4]) };
}

describe('docs/services.md', () => {
  it.each(listed.map((s) => s.name))('when %s\'s row is compared with the broker manifest, then it names exactly what it publishes and consumes', (name) => {
    const published = Object.entries(publishers)
      .filter(([, by]) => (by as readonly string[]).includes(name))
      .map(([type]) => type);
    const { events, commands, queues } = row(name);
    expect(events).toEqual(published.filter((t) => !isCommand(t)).sort());
    expect(commands).toEqual(published.filter((t) => isCommand(t)).sort());
    expect(queues).toEqual(consumerQueues.filter((q) => q.consumer === name).map((q) => q.queue).sort());
  });
});
