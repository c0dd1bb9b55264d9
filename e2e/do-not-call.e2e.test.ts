import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_SUPPRESSED_MESSAGE } from '@warmline/contracts/callbacks';
import { createPool, type Pool } from '@warmline/platform/db/index';
import { waitFor } from '@warmline/platform/testing/index';
import { mailsTo } from '@warmline/platform/testing/mail';
import { CATALOG_SCHEMA } from '@warmline/catalog/service';
import { GATEWAY_SCHEMA } from '@warmline/gateway/service';
import { seedDemoAccounts } from '@warmline/gateway/seed';
import { NOTIFICATIONS_SCHEMA } from '@warmline/notifications/service';
import { EMAIL_REQUESTS_QUEUE } from '@warmline/notifications/events/consumers';
import { TRANSFERS_SCHEMA } from '@warmline/transfers/service';
import { ApiClient, errorOf } from './api-client';
import { startApiSystem, type ApiSystem } from './api-system';
import type { Account } from './harness';

/**
 * Issue 24, do not call everywhere, on the whole system with RabbitMQ cut while the phone is
 * suppressed: a phone that opted out is marked for every agent who holds it — a bought lead, a
 * delivered call-back, a live transfer — and each is e-mailed once, after the broker is back;
 * from then on it never becomes a call-back from any of the three paths (the vendor's webhook,
 * the CSV, the manual form), is never assigned, never routed and never listed.
 */

const PHONE = '7375550199';
const TYPED = '(737) 555-0199';
let system: ApiSystem;
let catalog: Pool;
let transfers: Pool;
const holders: Record<'lead' | 'callback' | 'transfer', Account & { id: string }> = {} as never;
const ids = { soldLead: randomUUID(), unsoldLead: randomUUID(), delivered: randomUUID(), waiting: randomUUID(), transfer: randomUUID() };

beforeAll(async () => {
  system = await startApiSystem({ brokerProxy: true });
  catalog = createPool(system.databaseUrl, CATALOG_SCHEMA);
  transfers = createPool(system.databaseUrl, TRANSFERS_SCHEMA);
  const gateway = createPool(system.databaseUrl, GATEWAY_SCHEMA);
  try {
    for (const [what, first] of [['lead', 'Lena'], ['callback', 'Cole'], ['transfer', 'Tara']] as const) {
      const account: Account = { username: `dnc-${what}`, password: `${what} password 1`, email: `dnc-${what}@example.com`, firstName: first, lastName: 'Holder' };
      await seedDemoAccounts(gateway, { admin: system.admin, agent: account });
      const { rows } = await gateway.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [account.username]);
      holders[what] = { ...account, id: rows[0]!.id };
    }
  } finally {
    await gateway.end();
  }
  // Lena bought a lead with the phone; another lead with it is still for sale.
  await catalog.query(
    `INSERT INTO aged_leads (id, name, phone, email, state, form_fill_time, source, sold_to_user_id, sold_order_id, sold_at, sold_price_cents, sold_age_range)
     VALUES ($1, 'Pat Prospect', $2, NULL, 'TX', now() - interval '45 days', 'test', $3, $4, now() - interval '1 day', 250, '30-60')`,
    [ids.soldLead, PHONE, holders.lead.id, randomUUID()],
  );
  await catalog.query(
    `INSERT INTO aged_leads (id, name, phone, email, state, form_fill_time, source) VALUES ($1, 'Pat Prospect', $2, NULL, 'TX', now() - interval '40 days', 'test')`,
    [ids.unsoldLead, PHONE],
  );
  // Cole takes call-backs in Texas (a balance of 3) and was delivered one of the phone; another waits unassigned in Oklahoma.
  await catalog.query(`INSERT INTO callback_balances (user_id, balance, states, waiting_since, updated_at) VALUES ($1, 3, '{TX}', now(), now())`, [holders.callback.id]);
  await catalog.query(
    `INSERT INTO callback_opportunities (id, source, first_name, last_name, phone, state, price_cents, status, assigned_user_id, assigned_at, assigned_by, expires_at, created_at)
     VALUES ($1, 'manual', 'Pat', 'Prospect', $2, 'TX', 1500, 'assigned', $3, now() - interval '2 hours', 'automatic', now() + interval '3 days', now() - interval '3 hours')`,
    [ids.delivered, PHONE, holders.callback.id],
  );
  await catalog.query(
    `INSERT INTO callback_opportunities (id, source, first_name, last_name, phone, state, price_cents, expires_at, created_at)
     VALUES ($1, 'manual', 'Pat', 'Prospect', $2, 'OK', 1500, now() + interval '3 days', now() - interval '40 days')`,
    [ids.waiting, PHONE],
  );
  // Tara received a live transfer of the phone.
  await transfers.query('INSERT INTO agents (user_id) VALUES ($1) ON CONFLICT DO NOTHING', [holders.transfer.id]);
  await transfers.query(
    `INSERT INTO transfers (id, vendor_key_id, call_id, agent_id, first_name, last_name, phone, state, status, routed_at, expires_at, agent_date, connected, duration_seconds, settled_at)
     VALUES ($1, $2, 'call-dnc-1', $3, 'Pat', 'Prospect', $4, 'TX', 'charged', now() - interval '1 hour', now() - interval '59 minutes', current_date, true, 300, now() - interval '55 minutes')`,
    [ids.transfer, randomUUID(), holders.transfer.id, PHONE],
  );
}, 120_000);

afterAll(async () => {
  await system?.broker?.proxy.restore();
  await catalog?.end();
  await transfers?.end();
  await system?.stop();
});

async function as(account: Account): Promise<ApiClient> {
  const client = new ApiClient(system.url);
  await client.login(account.username, account.password);
  return client;
}

type Marked = { id: string; optedOutAt: string | null };

describe('a phone that opts out, with the broker away', () => {
  it('is marked for every holder at once, e-mailed to each once when the broker is back, and never reaches an agent again by any path', async () => {
    const admin = await as(system.admin);
    system.broker!.proxy.cut();

    const suppressed = await admin.call('POST', '/api/admin/suppressions', { phone: TYPED, reason: 'Asked not to be called again' });
    expect(suppressed.status).toBe(201);
    const optedOutAt = (suppressed.json as { createdAt: string }).createdAt;

    // The catalog's marks are in its own database: there at once, broker or not.
    const lena = await as(holders.lead);
    const myLeads = (await lena.get('/api/my-leads')).json as { leads: Marked[] };
    expect(myLeads.leads.map((l) => [l.id, l.optedOutAt])).toEqual([[ids.soldLead, optedOutAt]]);
    expect((await lena.get('/api/my-leads/export.csv')).text).toContain(`Do not call — opted out on ${optedOutAt.slice(0, 10)}`);
    const cole = await as(holders.callback);
    const myCallbacks = (await cole.get('/api/my-callbacks')).json as { callbacks: Array<Marked & { callableNow: boolean }> };
    expect(myCallbacks.callbacks.map((c) => [c.id, c.optedOutAt, c.callableNow])).toEqual([[ids.delivered, optedOutAt, false]]);
    // Never listed: the unsold lead left the market, the waiting call-back was withdrawn.
    const market = (await (await as(system.customer)).get('/api/aged-leads?filter=737')).json as { leads: Array<{ id: string }> };
    expect(market.leads.map((l) => l.id)).not.toContain(ids.unsoldLead);
    const { rows: waiting } = await catalog.query<{ status: string }>('SELECT status FROM callback_opportunities WHERE id = $1', [ids.waiting]);
    expect(waiting).toEqual([{ status: 'suppressed' }]);
    // The form and the CSV refuse the phone while the broker is away too.
    const manual = await admin.call('POST', '/api/callback-opportunities', { firstName: 'Pat', lastName: 'Prospect', phone: TYPED, state: 'TX', price: '15.00' });
    expect(manual.status).toBe(409);
    expect(errorOf(manual)).toBe(CALLBACK_SUPPRESSED_MESSAGE);
    const csv = await admin.call('POST', '/api/callback-opportunities/bulk', { csvData: [{ firstName: 'Pat', lastName: 'Prospect', phone: PHONE, state: 'TX', price: '15.00' }] });
    expect(csv.status).toBe(200);
    expect(csv.json).toMatchObject({ created: 0, rejected: [{ row: 2, field: 'phone', message: CALLBACK_SUPPRESSED_MESSAGE }] });
    // The vendor's webhook answers from PostgreSQL alone; what it asks waits for the broker.
    const keyAnswer = await admin.call('POST', '/api/admin/vendor-keys', { name: 'DNC Voice' });
    expect(keyAnswer.status).toBe(201);
    const vendorKey = (keyAnswer.json as { key: string }).key;
    const vendor = new ApiClient(system.url, { 'x-api-key': vendorKey });
    const webhook = await vendor.call('POST', '/api/callbacks/brightcall', {
      first_name: 'Pat',
      last_name: 'Prospect',
      phone_number: TYPED,
      state: 'TX',
      call_outcome: 'callback_requested',
      transcript: 'Prospect: call me back tomorrow.',
    });
    expect(webhook.status).toBe(200);
    const callbackId = (webhook.json as { callback_id: string }).callback_id;
    expect(await mailsTo(system.mailDir, holders.lead.email)).toEqual([]);

    await system.broker!.proxy.restore();

    // The vendor's call reached the catalog: recorded as suppressed, no opportunity, nobody assigned (Cole takes Texas).
    const fromWebhook = await waitFor(
      'the vendor call recorded',
      async () => (await catalog.query<{ status: string; assigned_user_id: string | null }>('SELECT status, assigned_user_id FROM callback_opportunities WHERE callback_id = $1', [callbackId])).rows[0],
      { timeoutMs: 60_000 },
    );
    expect(fromWebhook).toEqual({ status: 'suppressed', assigned_user_id: null });
    const { rows: assigned } = await catalog.query<{ id: string }>("SELECT id FROM callback_opportunities WHERE phone = $1 AND status IN ('assigned', 'contacted')", [PHONE]);
    expect(assigned.map((r) => r.id)).toEqual([ids.delivered]);

    // The transfers service's copy arrived: My Transfers marks it, routing refuses it.
    const tara = await as(holders.transfer);
    await waitFor(
      'My Transfers marks the phone',
      async () => ((await tara.get('/api/my-transfers')).json as { transfers: Marked[] }).transfers.some((t) => t.optedOutAt === optedOutAt),
      { timeoutMs: 60_000 },
    );
    expect((await tara.get('/api/my-transfers/export.csv')).text).toContain(`Do not call — opted out on ${optedOutAt.slice(0, 10)}`);
    const routed = await vendor.call('POST', '/api/transfers/route', { call_id: `dnc-${randomUUID()}`, first_name: 'Pat', last_name: 'Prospect', phone_number: TYPED, state: 'TX' });
    expect(routed.status).toBe(200);
    expect(routed.json).toEqual({ success: true, routed: false, reason: 'suppressed' });

    // Each holder e-mailed: once, after every notice asked for has been handled.
    await waitFor(
      'each holder e-mailed',
      async () => (await Promise.all(Object.values(holders).map((h) => mailsTo(system.mailDir, h.email)))).every((m) => m.length >= 1),
      { timeoutMs: 60_000 },
    );
    await waitFor('every e-mail asked for handled', () => everyOptOutEmailHandled(), { timeoutMs: 30_000 });
    for (const holder of Object.values(holders)) {
      const mails = await mailsTo(system.mailDir, holder.email);
      expect(mails, holder.username).toHaveLength(1);
      expect(mails[0]).toContain('opted out');
      expect(mails[0]).toContain(TYPED);
    }
  }, 180_000);
});

/** Every email.lead_opt_out the catalog and the transfers service queued is handled by notifications. */
async function everyOptOutEmailHandled(): Promise<boolean> {
  const queued: string[] = [];
  for (const pool of [catalog, transfers]) {
    const { rows } = await pool.query<{ id: string }>("SELECT id FROM outbox WHERE envelope->>'type' = 'email.lead_opt_out'");
    queued.push(...rows.map((r) => r.id));
  }
  const notifications = createPool(system.databaseUrl, NOTIFICATIONS_SCHEMA);
  try {
    const { rows } = await notifications.query<{ n: number }>('SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1 AND event_id = ANY($2::uuid[])', [
      EMAIL_REQUESTS_QUEUE,
      queued,
    ]);
    return queued.length >= 3 && rows[0]!.n === queued.length;
  } finally {
    await notifications.end();
  }
}
