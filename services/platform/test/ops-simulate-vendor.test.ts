import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  stateOfAreaCode,
  TRANSFER_BUFFER_SECONDS,
  TRANSFER_ROUTE_PATH,
  transferOutcomeBody,
  transferRouteBody,
  type TransferOutcomeAnswer,
  type TransferRouteAnswer,
} from '@warmline/contracts';

/**
 * `npm run simulate:vendor` (infra/scripts/simulate-vendor.ts, issue 23 §9) against a stand-in
 * gateway that checks every body with the schemas the transfers service validates with, routes
 * every other prospect, charges what the buffer says, and throttles once: the simulator must
 * send only valid calls, phones of the prospect's state, wait out a 429, and sum up what it got.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const KEY = 'wlv_simulator-test-key-0123456789abcdef';

interface Seen {
  routes: unknown[];
  outcomes: Array<{ transferId: string; body: unknown }>;
  invalid: string[];
  keys: Set<string>;
}

let server: Server;
let url: string;
const seen: Seen = { routes: [], outcomes: [], invalid: [], keys: new Set() };

beforeAll(async () => {
  let throttledOnce = false;
  let n = 0;
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      seen.keys.add(String(req.headers['x-api-key']));
      if (req.headers['x-api-key'] !== KEY) return answer(401, { success: false, message: 'Unauthorized' });
      const body: unknown = JSON.parse(text);
      if (req.url === TRANSFER_ROUTE_PATH) {
        if (!throttledOnce) {
          throttledOnce = true;
          return answer(429, { success: false, message: 'Too many requests' }, { 'retry-after': '1' });
        }
        seen.routes.push(body);
        const parsed = transferRouteBody.safeParse(body);
        if (!parsed.success) seen.invalid.push(`route: ${parsed.error.message}`);
        else if (parsed.data.state && stateOfAreaCode(parsed.data.phone_number) !== parsed.data.state) seen.invalid.push(`route: ${parsed.data.phone_number} is not in ${parsed.data.state}`);
        n += 1;
        const decision: TransferRouteAnswer =
          n % 2 === 0
            ? { success: true, routed: false, reason: 'no_agent_available' }
            : { success: true, routed: true, transfer_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, transfer_phone: '5125550143', agent_name: 'Demo Agent', expires_at: new Date(Date.now() + 60_000).toISOString() };
        return answer(200, decision);
      }
      const outcome = /^\/api\/transfers\/([^/]+)\/outcome$/.exec(req.url ?? '');
      if (outcome) {
        seen.outcomes.push({ transferId: outcome[1]!, body });
        const parsed = transferOutcomeBody.safeParse(body);
        if (!parsed.success) {
          seen.invalid.push(`outcome: ${parsed.error.message}`);
          return answer(400, { success: false, message: 'Missing required fields' });
        }
        const { connected, duration_seconds: seconds } = parsed.data;
        const charged = connected && seconds > TRANSFER_BUFFER_SECONDS;
        const result: TransferOutcomeAnswer = {
          success: true,
          transfer_id: outcome[1]!,
          status: !connected ? 'not_connected' : charged ? 'charged' : 'buffer_protected',
          charged,
          charged_cents: charged ? 3700 : 0,
        };
        return answer(200, result);
      }
      answer(404, { success: false, message: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function simulate(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(TSX, ['infra/scripts/simulate-vendor.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', WARMLINE_ENV_FILE: '/nonexistent/local.env', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run simulate:vendor', () => {
  it('when run with a key, then it routes valid prospects with phones of their state, reports every routed one, waits out a 429 and sums it up', async () => {
    const run = await simulate(['--calls', '12', '--url', url, '--key', KEY]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(seen.invalid).toEqual([]);
    expect(seen.routes).toHaveLength(12);
    expect(new Set(seen.routes.map((r) => (r as { call_id: string }).call_id)).size).toBe(12);
    expect(seen.outcomes).toHaveLength(6);

    const statuses = seen.outcomes.map(({ body }) => {
      const o = body as { connected: boolean; duration_seconds: number };
      return !o.connected ? 'not_connected' : o.duration_seconds > TRANSFER_BUFFER_SECONDS ? 'charged' : 'buffer_protected';
    });
    const count = (s: string) => statuses.filter((x) => x === s).length;
    expect(run.stdout).toContain('Prospects:         12');
    expect(run.stdout).toContain('Routed:            6');
    expect(run.stdout).toContain('Refused:           6 (no_agent_available 6)');
    expect(run.stdout).toContain(`Charged:           ${count('charged')} ($${(count('charged') * 37).toFixed(2)})`);
    expect(run.stdout).toContain(`Buffer-protected:  ${count('buffer_protected')} `);
    expect(run.stdout).toContain(`Not connected:     ${count('not_connected')}`);
    expect(run.stdout).toContain('Throttled (429):   1');
  });

  it('when no key is given nor in var/local.env, then it says how to get one and calls nothing', async () => {
    const before = seen.routes.length;
    const run = await simulate(['--calls', '3', '--url', url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('make seed');
    expect(run.stderr).toContain('--key');
    expect(seen.routes).toHaveLength(before);
  });

  it('when the key is refused, then it stops at the first 401 and says to run make seed', async () => {
    const run = await simulate(['--calls', '3', '--url', url], { DEMO_VENDOR_KEY: 'wlv_not-registered-0123456789abcdef' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('401');
    expect(run.stderr).toContain('make seed');
  });
});
