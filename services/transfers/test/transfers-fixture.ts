import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { TRANSFER_ROUTE_PATH, transferOutcomePath, VENDOR_KEY_PREFIX, type HoursRange, type TransferOutcomeInput, type TransferRouteInput } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, type Pool } from '@warmline/platform';
import { withTransaction } from '@warmline/platform/db/index';
import { waitFor } from '@warmline/platform/testing/index';
import { callService, type Answer } from '@warmline/platform/testing/calls';
import { readyz } from '@warmline/platform/testing/outage';
import { startTestSystem, type TestSystem } from '@warmline/platform/testing/system';
import { transfersEnv } from '../src/config';
import { creditLot, ensureAgent, lockAgent } from '../src/db/ledger';
import { mirrorVendorKey } from '../src/events/mirrors';
import { startTransfers, TRANSFERS_SCHEMA, type RunningTransfers } from '../src/service';

/**
 * The transfers service in-process on a fresh database for one test file, on a clock the test
 * moves, with helpers for the vendor's two calls: agents and their settings are written as SQL,
 * balances through the ledger's creditLot, vendor keys through the mirror handler.
 */
export interface TransfersFixture {
  system: TestSystem;
  transfers: RunningTransfers;
  pool: Pool;
  /** The service's "now". */
  now(): Date;
  setNow(at: Date | string): void;
  /** A vendor key mirrored as ingestion would send it; its id and text. */
  vendorKey(name?: string): Promise<{ id: string; key: string }>;
  revokeKey(key: { id: string; key: string }, at?: Date): Promise<void>;
  /** An agent with delivery settings (every day 00:00–24:00 in Chicago, TX, cap 100, one at once unless told). */
  agent(settings?: AgentSettings): Promise<string>;
  /** Credits `transfers` at `unitCents` to the agent, as a paid order would. */
  credit(agentId: string, transfers: number, unitCents?: number): Promise<void>;
  suppress(phone: string, suppressed?: boolean, at?: Date): Promise<void>;
  route(key: string | null, body: Partial<TransferRouteInput> | Record<string, unknown> | string, headers?: Record<string, string>): Promise<Answer>;
  outcome(key: string | null, transferId: string, body: Partial<TransferOutcomeInput> | Record<string, unknown>): Promise<Answer>;
  balance(agentId: string): Promise<number>;
  cleanup(): Promise<void>;
}

interface AgentSettings {
  displayName?: string;
  transferPhone?: string;
  states?: string[];
  timeZone?: string;
  hours?: HoursRange[];
  dailyCap?: number | null;
  atOnce?: number;
  paused?: boolean;
}

export const ALL_WEEK: HoursRange[] = (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const).map((day) => ({ day, from: '00:00', to: '24:00' }));

/** Friday 27 Nov 2026, noon in Chicago: inside everyone's calling hours. */
export const NOON_CHICAGO = '2026-11-27T18:00:00Z';

export async function startTransfersFixture(start: string = NOON_CHICAGO): Promise<TransfersFixture> {
  const system = await startTestSystem({ databasePrefix: 'wl_transfers', queues: ['transfers.payments', 'transfers.mirrors'] });
  const { stops } = system;
  try {
    let now = new Date(start);
    const config = parseConfig(transfersEnv, { ...system.env, TRANSFERS_PORT: '0', BUSINESS_TIMEZONE: 'America/Chicago' });
    const transfers = await startTransfers(config, createLogger('transfers', process.env.TRANSFERS_TEST_LOG ?? 'silent'), { clock: () => now });
    stops.push('transfers', transfers.stop);
    // The service declares the manifest's queues once its bus is up.
    await waitFor('the transfers service connected to the broker', async () => (await readyz(transfers.url)).body.checks?.rabbitmq === 'ok', { timeoutMs: 20_000 });
    const pool = createPool(system.db.url, TRANSFERS_SCHEMA, 20);
    stops.push('pool', () => pool.end());
    const call = (method: string, path: string, key: string | null, body: unknown, headers: Record<string, string> = {}) =>
      callService(transfers.url, method, path, {
        rawBody: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'x-api-key': key }), ...headers },
      });
    let phoneSeq = 0;
    return {
      system,
      transfers,
      pool,
      now: () => now,
      setNow(at) {
        now = new Date(at);
      },
      async vendorKey(name = 'BrightCall') {
        const key = `${VENDOR_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
        const id = randomUUID();
        await mirrorVendorKey(pool, { vendorKeyId: id, name, keyHash: sha256(key), createdAt: now.toISOString(), revokedAt: null });
        return { id, key };
      },
      async revokeKey({ id, key }, at = now) {
        await mirrorVendorKey(pool, { vendorKeyId: id, name: 'BrightCall', keyHash: sha256(key), createdAt: now.toISOString(), revokedAt: at.toISOString() });
        // The service believes a key it found active for a few seconds; the revoked copy's
        // announcement evicts it as it commits (docs/adr/0051). An outcome for no transfer asks
        // without touching anything: 404 while the key is still believed, 401 once it is not.
        await waitFor('the service to refuse the revoked key', async () => (await call('POST', transferOutcomePath(randomUUID()), key, { connected: false, duration_seconds: 0 })).status === 401, {
          timeoutMs: 2_000,
          intervalMs: 20,
        });
      },
      async agent(s = {}) {
        const id = randomUUID();
        phoneSeq += 1;
        await pool.query(
          `INSERT INTO agents (user_id, display_name, transfer_phone, states, time_zone, hours, daily_cap, at_once, paused, settings_saved_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            id,
            s.displayName ?? 'Dana Agent',
            s.transferPhone ?? `51255${String(phoneSeq).padStart(5, '0')}`,
            s.states ?? ['TX'],
            s.timeZone ?? 'America/Chicago',
            JSON.stringify(s.hours ?? ALL_WEEK),
            s.dailyCap === undefined ? 100 : s.dailyCap,
            s.atOnce ?? 1,
            s.paused ?? false,
            now,
          ],
        );
        return id;
      },
      async credit(agentId, count, unitCents = 3700) {
        await withTransaction(pool, async (db) => {
          await ensureAgent(db, agentId);
          await lockAgent(db, agentId);
          const orderId = randomUUID();
          await creditLot(db, {
            agentId,
            source: 'order',
            orderId,
            description: `Test package: ${count} transfers`,
            unitCents,
            paidCents: unitCents * count,
            transfers: count,
            at: now,
            kind: 'order_credit',
            cause: 'Paid order',
            causeId: orderId,
          });
        });
      },
      async suppress(phone, suppressed = true, at = now) {
        await pool.query(
          `INSERT INTO suppressed_phones (phone, suppressed, changed_at) VALUES ($1, $2, $3)
           ON CONFLICT (phone) DO UPDATE SET suppressed = EXCLUDED.suppressed, changed_at = EXCLUDED.changed_at`,
          [phone, suppressed, at],
        );
      },
      route: (key, body, headers) => call('POST', TRANSFER_ROUTE_PATH, key, body, headers),
      outcome: (key, transferId, body) => call('POST', transferOutcomePath(transferId), key, body),
      async balance(agentId) {
        const { rows } = await pool.query<{ balance: number }>('SELECT balance FROM agents WHERE user_id = $1', [agentId]);
        return rows[0]?.balance ?? 0;
      },
      cleanup: system.cleanup,
    };
  } catch (err) {
    await system.cleanup();
    throw err;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

let prospectSeq = 0;
/** A prospect as the vendor sends it: a fresh call_id and a Texas (Austin, 512) phone unless told. */
export function prospect(overrides: Partial<TransferRouteInput> = {}): TransferRouteInput {
  prospectSeq += 1;
  return {
    call_id: `call-${randomUUID()}`,
    first_name: 'Maria',
    last_name: 'Lopez',
    phone_number: `512${String(2000000 + ((Date.now() + prospectSeq * 7919) % 7999999)).padStart(7, '0')}`,
    state: 'TX',
    ...overrides,
  };
}
