import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_WEBHOOK_PATH } from '@warmline/contracts';
import { freePort, waitFor } from '@warmline/platform/testing/index';
import { callService } from '@warmline/platform/testing/calls';
import { fixtureAdmin, startIngestionFixture, vendorCall, type IngestionFixture } from './ingestion-fixture';

/**
 * Vendor keys are believed for a few seconds in each process (docs/adr/0051); a revocation still
 * stops a key in every process within seconds: at once through PostgreSQL's announcement, and by
 * the cache's TTL (VENDOR_KEY_CACHE_SECONDS, 5 s) where the announcement is missed.
 */

let f: IngestionFixture;
let other: ChildProcess;
let otherUrl: string;

/** A vendor's call to one of the two processes: its status. */
async function statusOf(url: string, key: string): Promise<number> {
  const answer = await callService(url, 'POST', CALLBACK_WEBHOOK_PATH, {
    rawBody: JSON.stringify(vendorCall()),
    headers: { 'content-type': 'application/json', 'x-api-key': key },
  });
  return answer.status;
}

/** Milliseconds until `url` refuses `key`, polling every 50 ms for at most `limitMs`. */
async function msUntilRefused(url: string, key: string, limitMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if ((await statusOf(url, key)) === 401) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  return Number.POSITIVE_INFINITY;
}

beforeAll(async () => {
  f = await startIngestionFixture();
  // A second replica, its own process, believing a key for a whole minute: only the
  // announcement of a revocation can make it refuse the key within seconds.
  const port = await freePort();
  otherUrl = `http://127.0.0.1:${port}`;
  other = spawn(process.execPath, ['--import', 'tsx', 'services/ingestion/src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    env: { ...process.env, ...f.system.env, INGESTION_PORT: String(port), VENDOR_KEY_CACHE_SECONDS: '60', LOG_LEVEL: 'silent' },
    stdio: 'ignore',
  });
  await waitFor('the second ingestion process', async () => (await fetch(`${otherUrl}/healthz`).catch(() => undefined))?.ok === true, { timeoutMs: 60_000, intervalMs: 200 });
}, 90_000);

afterAll(async () => {
  if (other && other.exitCode === null) {
    const exited = new Promise((resolve) => other.once('exit', resolve));
    other.kill('SIGTERM');
    await exited;
  }
  await f?.cleanup();
});

describe('vendor keys kept in memory', () => {
  it('when a key is revoked through one process, then the other process refuses it within 2 s although it keeps keys for 60 s', async () => {
    const { id, key } = await f.createKey('Cached Voice');
    // Both processes now hold the key.
    expect(await statusOf(otherUrl, key)).toBe(200);
    expect(await statusOf(f.ingestion.url, key)).toBe(200);
    expect((await f.call('DELETE', `/api/admin/vendor-keys/${id}`, { identity: fixtureAdmin })).status).toBe(204);
    // The process that revoked it refuses its very next call.
    expect(await statusOf(f.ingestion.url, key)).toBe(401);
    expect(await msUntilRefused(otherUrl, key, 5_000)).toBeLessThanOrEqual(2_000);
  }, 30_000);

  it('when a revocation is not announced (a row changed by hand), then the key is still refused within the 5 s the cache keeps it', async () => {
    const { id, key } = await f.createKey('Quiet Voice');
    expect(await statusOf(f.ingestion.url, key)).toBe(200);
    await f.pool.query('UPDATE vendor_keys SET revoked_at = now() WHERE id = $1', [id]);
    // Kept: the next call is still taken (the cache is in use), and no longer once its time is up.
    expect(await statusOf(f.ingestion.url, key)).toBe(200);
    const ms = await msUntilRefused(f.ingestion.url, key, 8_000);
    expect(ms).toBeGreaterThan(1_000);
    expect(ms).toBeLessThanOrEqual(5_500);
  }, 30_000);
});
