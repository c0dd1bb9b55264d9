import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_RETURN_MESSAGES, LEAD_RETURN_WINDOW_MS, type CommandData } from '@warmline/contracts';
import { createLogger, type Identity } from '@warmline/platform';
import { withTransaction } from '@warmline/platform/db/index';
import { waitFor } from '@warmline/platform/testing/index';
import { refundReturnedLead } from '@warmline/orders/domain/lead-return-refunds';
import { sandboxProvider } from '@warmline/orders/domain/payment-provider';
import { agent, phoneIn, startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/**
 * Lead returns (issue 24 item 5, ADR 0034), through the real catalog and orders services: a
 * buyer returns a lead within 10 days, once; the reasons the records prove are accepted at once,
 * the others (and unproven ones) wait for an admin; an accepted return refunds exactly the
 * lead's price once through orders (refunds row, provider called once), and the lead is never
 * sold again nor in My Leads' active list.
 */

let fx: CatalogFixture;

beforeAll(async () => {
  fx = await startCatalogFixture();
});

afterAll(async () => {
  await fx?.cleanup();
});

const admin = (): Identity => ({ userId: randomUUID(), username: `admin_${randomUUID().slice(0, 6)}`, isAdmin: true });

async function boughtLeads(buyer: Identity, specs: Array<{ phone?: string }>) {
  const leads = await fx.addLeads(specs.map((s) => ({ ageDays: 45, ...s })));
  const { orderId } = await fx.buy(buyer, leads.map((l) => l.id));
  return { leads, orderId };
}

const returnLead = (buyer: Identity, leadId: string, body: Record<string, unknown>) => fx.call('POST', `/api/my-leads/${leadId}/return`, { body, identity: buyer });

async function refundsOf(orderId: string) {
  const { rows } = await fx.ordersPool.query<{ amount_cents: number; initiated_by: string; idempotency_key: string }>(
    'SELECT amount_cents, initiated_by, idempotency_key FROM refunds WHERE order_id = $1 ORDER BY created_at',
    [orderId],
  );
  return rows;
}

async function priceOf(leadId: string): Promise<number> {
  const { rows } = await fx.pool.query<{ sold_price_cents: number }>('SELECT sold_price_cents FROM aged_leads WHERE id = $1', [leadId]);
  return rows[0]!.sold_price_cents;
}

async function waitRefunded(orderId: string, count = 1) {
  await waitFor('the refund', async () => (await refundsOf(orderId)).length >= count, { timeoutMs: 20_000 });
}

describe('returning a lead the records prove', () => {
  it('when the buyer bought the same phone before, then a duplicate is accepted at once and exactly its price refunded once', async () => {
    const buyer = agent('dup_buyer');
    const phone = phoneIn('512');
    await boughtLeads(buyer, [{ phone }]);
    const { leads, orderId } = await boughtLeads(buyer, [{ phone }, {}]);
    const dup = leads[0]!;

    const answer = await returnLead(buyer, dup.id, { reason: 'duplicate', note: 'Bought it last week' });
    expect(answer.status).toBe(201);
    const price = await priceOf(dup.id);
    expect(answer.body).toMatchObject({ status: 'accepted', automatic: true, reason: 'duplicate', priceCents: price, note: 'Bought it last week' });
    expect(answer.body.message).toBe(`Returned — $${(price / 100).toFixed(2)} refunded`);

    await waitRefunded(orderId);
    expect(await refundsOf(orderId)).toEqual([{ amount_cents: price, initiated_by: 'system', idempotency_key: `lead-return:${dup.id}` }]);
    // The catalog learns the refund from payment.refunded.
    await waitFor('the return marked refunded', async () => {
      const { rows } = await fx.pool.query('SELECT refunded_cents FROM lead_returns WHERE lead_id = $1 AND refunded_at IS NOT NULL', [dup.id]);
      return rows.length === 1;
    }, { timeoutMs: 20_000 });

    // Out of the active list, in the returned one with its refund.
    const active = await fx.call('GET', '/api/my-leads', { identity: buyer });
    expect((active.body.leads as Array<{ id: string }>).map((l) => l.id)).not.toContain(dup.id);
    const returned = await fx.call('GET', '/api/my-leads?view=returned', { identity: buyer });
    expect(returned.body.leads).toEqual([expect.objectContaining({ id: dup.id, leadReturn: expect.objectContaining({ status: 'accepted', refundedCents: price }) })]);
  });

  it('when the phone is on the DNC registry now or was at sale, then dnc_registry is accepted at once', async () => {
    const buyer = agent('dnc_buyer');
    const { leads, orderId } = await boughtLeads(buyer, [{ phone: phoneIn('737') }, {}]);
    const [onRegistry, atSale] = leads;
    const upload = randomUUID();
    await fx.pool.query(
      "INSERT INTO dnc_registry_uploads (id, file_name, file_key, status, registry_date, created_by_user_id, created_at) VALUES ($1, '737.txt', 'test/737.txt', 'done', CURRENT_DATE, $2, now())",
      [upload, randomUUID()],
    );
    await fx.pool.query("INSERT INTO dnc_registry_area_codes (area_code, upload_id, registry_date) VALUES ('737', $1, CURRENT_DATE)", [upload]);
    await fx.pool.query('INSERT INTO dnc_registry_numbers (phone, upload_id) VALUES ($1, $2)', [onRegistry!.phone, upload]);
    await fx.pool.query('UPDATE aged_leads SET dnc_registry_match = true, dnc_registry_checked_on = CURRENT_DATE WHERE id = $1', [atSale!.id]);

    expect((await returnLead(buyer, onRegistry!.id, { reason: 'dnc_registry' })).body).toMatchObject({ status: 'accepted', automatic: true });
    expect((await returnLead(buyer, atSale!.id, { reason: 'dnc_registry' })).body).toMatchObject({ status: 'accepted', automatic: true });
    await waitRefunded(orderId, 2);
    expect((await refundsOf(orderId)).map((r) => r.amount_cents).sort()).toEqual([await priceOf(onRegistry!.id), await priceOf(atSale!.id)].sort());
  });

  it('when the phone is on the suppression list, then opted_out is accepted at once', async () => {
    const buyer = agent('optout_buyer');
    const { leads, orderId } = await boughtLeads(buyer, [{}]);
    await fx.pool.query("INSERT INTO lead_suppressions (phone, reason, created_by_user_id, created_at) VALUES ($1, 'Asked not to be called', $2, now())", [leads[0]!.phone, randomUUID()]);
    expect((await returnLead(buyer, leads[0]!.id, { reason: 'opted_out' })).body).toMatchObject({ status: 'accepted', automatic: true });
    await waitRefunded(orderId);
    expect((await refundsOf(orderId)).map((r) => r.amount_cents)).toEqual([await priceOf(leads[0]!.id)]);
  });
});

describe('returns an admin decides', () => {
  it('when the records do not back a checkable reason, or the reason is not checkable, then the return waits in the queue with the buyer’s rate', async () => {
    const buyer = agent('unbacked');
    const { leads, orderId } = await boughtLeads(buyer, [{}, {}, {}]);
    const dup = await returnLead(buyer, leads[0]!.id, { reason: 'duplicate' });
    expect(dup.status).toBe(201);
    expect(dup.body).toMatchObject({ status: 'pending', automatic: false, message: LEAD_RETURN_MESSAGES.pending });
    expect((await returnLead(buyer, leads[1]!.id, { reason: 'disconnected', note: 'Out of service' })).body).toMatchObject({ status: 'pending' });

    const queue = await fx.call('GET', '/api/admin/lead-returns?status=pending', { identity: admin() });
    expect(queue.status).toBe(200);
    const mine = (queue.body.returns as Array<Record<string, unknown>>).filter((r) => (r.buyer as { userId: string }).userId === buyer.userId);
    expect(mine).toEqual([
      expect.objectContaining({ reason: 'duplicate', recordsBackIt: false, buyer: { userId: buyer.userId, username: buyer.username, returnRate: { returned: 2, bought: 3, rate: 2 / 3, flagged: true } } }),
      expect.objectContaining({ reason: 'disconnected', recordsBackIt: null, note: 'Out of service' }),
    ]);
    // Still in My Leads' active list, marked requested; nothing refunded.
    const active = await fx.call('GET', '/api/my-leads', { identity: buyer });
    expect((active.body.leads as Array<{ id: string; leadReturn: { status: string } | null }>).find((l) => l.id === leads[0]!.id)?.leadReturn?.status).toBe('pending');
    expect(await refundsOf(orderId)).toEqual([]);
  });

  it('when an admin accepts, then it is audited and refunded once, even when accepted again and the command redelivered', async () => {
    const buyer = agent('accepted');
    const { leads, orderId } = await boughtLeads(buyer, [{}, {}]);
    const asked = await returnLead(buyer, leads[0]!.id, { reason: 'wrong_number' });
    const returnId = String(asked.body.id);
    const boss = admin();

    const accepted = await fx.call('POST', `/api/admin/lead-returns/${returnId}`, { body: { decision: 'accept' }, identity: boss });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', automatic: false, decidedBy: { userId: boss.userId, username: boss.username } });
    const again = await fx.call('POST', `/api/admin/lead-returns/${returnId}`, { body: { decision: 'accept' }, identity: boss });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(LEAD_RETURN_MESSAGES.decided);

    const audit = (await fx.outbox('audit.record')).filter((e) => e.data.subjectId === returnId);
    expect(audit.map((e) => e.data)).toEqual([expect.objectContaining({ action: 'lead_return.accepted', actorId: boss.userId, before: { status: 'pending' } })]);
    const commands = (await fx.outbox('lead_return.refund')).filter((e) => e.data.returnId === returnId);
    expect(commands).toHaveLength(1);

    const price = await priceOf(leads[0]!.id);
    await waitRefunded(orderId);
    // The command delivered again: orders answers from its refund, the provider is not asked again.
    let providerCalls = 0;
    const sandbox = sandboxProvider();
    const counting = { ...sandbox, refund: async (r: Parameters<typeof sandbox.refund>[0]) => ((providerCalls += 1), sandbox.refund(r)) };
    const ctx = { pool: fx.ordersPool, provider: counting, log: createLogger('test', 'silent') };
    const command = commands[0]!;
    await withTransaction(fx.ordersPool, (db) =>
      refundReturnedLead(ctx, command.data as CommandData<'lead_return.refund'>, { db, log: ctx.log, correlationId: command.correlationId }),
    );
    expect(providerCalls).toBe(0);
    expect(await refundsOf(orderId)).toEqual([{ amount_cents: price, initiated_by: 'system', idempotency_key: `lead-return:${leads[0]!.id}` }]);
    const { rows } = await fx.ordersPool.query<{ refunded_cents: number }>('SELECT refunded_cents FROM package_orders WHERE id = $1', [orderId]);
    expect(rows[0]!.refunded_cents).toBe(price);
  });

  it('when the order has less left than the lead’s price, then only what is left is refunded', async () => {
    const buyer = agent('little_left');
    const { leads, orderId } = await boughtLeads(buyer, [{}, {}]);
    const price = await priceOf(leads[0]!.id);
    const { rows } = await fx.ordersPool.query<{ amount_cents: number }>('SELECT amount_cents FROM package_orders WHERE id = $1', [orderId]);
    // An admin refunded all but one dollar by hand before.
    await fx.ordersPool.query('UPDATE package_orders SET refunded_cents = $2 WHERE id = $1', [orderId, rows[0]!.amount_cents - 100]);
    expect((await returnLead(buyer, leads[0]!.id, { reason: 'opted_out' })).body).toMatchObject({ status: 'pending' });
    await fx.pool.query("INSERT INTO lead_suppressions (phone, reason, created_by_user_id, created_at) VALUES ($1, 'Opted out', $2, now())", [leads[1]!.phone, randomUUID()]);
    expect((await returnLead(buyer, leads[1]!.id, { reason: 'opted_out' })).body).toMatchObject({ status: 'accepted' });
    await waitRefunded(orderId);
    expect(price).toBeGreaterThan(100);
    expect((await refundsOf(orderId)).map((r) => r.amount_cents)).toEqual([100]);
  });

  it('when an admin refuses, then a reason is required (400), it is audited, nothing is refunded and the lead stays active', async () => {
    const buyer = agent('refused');
    const { leads, orderId } = await boughtLeads(buyer, [{}]);
    const asked = await returnLead(buyer, leads[0]!.id, { reason: 'not_the_person' });
    const returnId = String(asked.body.id);
    const boss = admin();

    const bare = await fx.call('POST', `/api/admin/lead-returns/${returnId}`, { body: { decision: 'refuse' }, identity: boss });
    expect(bare.status).toBe(400);
    expect(bare.text).toContain(LEAD_RETURN_MESSAGES.refuseReason);
    const refused = await fx.call('POST', `/api/admin/lead-returns/${returnId}`, { body: { decision: 'refuse', reason: 'Our test call reached the named prospect' }, identity: boss });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ status: 'refused', decisionReason: 'Our test call reached the named prospect' });
    const audit = (await fx.outbox('audit.record')).filter((e) => e.data.subjectId === returnId);
    expect(audit.map((e) => e.data)).toEqual([expect.objectContaining({ action: 'lead_return.refused', reason: 'Our test call reached the named prospect' })]);

    const list = await fx.call('GET', '/api/admin/lead-returns?status=refused', { identity: boss });
    expect((list.body.returns as Array<{ id: string }>).map((r) => r.id)).toContain(returnId);
    expect((await fx.call('GET', '/api/my-leads', { identity: buyer })).body.leads).toEqual([expect.objectContaining({ id: leads[0]!.id })]);
    // One return per lead: refused is final.
    const second = await returnLead(buyer, leads[0]!.id, { reason: 'bad_data' });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe(LEAD_RETURN_MESSAGES.alreadyRefused);
    expect(await refundsOf(orderId)).toEqual([]);
    // The routes are an admin's.
    expect((await fx.call('GET', '/api/admin/lead-returns', { identity: buyer })).status).toBe(403);
  });
});

describe('the rules of a return', () => {
  it('when a lead was returned, then a second return answers 409, another buyer gets 404, and the lead is never listed or sold again', async () => {
    const buyer = agent('once');
    const { leads } = await boughtLeads(buyer, [{}]);
    const lead = leads[0]!;
    await fx.pool.query("INSERT INTO lead_suppressions (phone, reason, created_by_user_id, created_at) VALUES ($1, 'Opted out', $2, now())", [lead.phone, randomUUID()]);

    const stranger = agent('stranger');
    const nosy = await returnLead(stranger, lead.id, { reason: 'opted_out' });
    expect(nosy.status).toBe(404);
    expect(nosy.body.error).toBe(LEAD_RETURN_MESSAGES.notFound);
    expect((await returnLead(buyer, 'not-a-lead', { reason: 'opted_out' })).status).toBe(404);
    expect((await returnLead(buyer, lead.id, { reason: 'lost_interest' })).status).toBe(400);

    expect((await returnLead(buyer, lead.id, { reason: 'opted_out' })).status).toBe(201);
    const twice = await returnLead(buyer, lead.id, { reason: 'opted_out' });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe(LEAD_RETURN_MESSAGES.alreadyReturned);

    // Never sold again: not buyable, not in the market, and the database refuses to move it.
    const purchase = await fx.call('POST', '/api/bulk-purchase-leads', { body: { leadIds: [lead.id] }, identity: stranger });
    expect(purchase.status).toBeGreaterThanOrEqual(400);
    const market = await fx.call('GET', '/api/aged-leads?filter=TX', { identity: stranger });
    expect((market.body.leads as Array<{ id: string }>).map((l) => l.id)).not.toContain(lead.id);
    await expect(fx.pool.query('UPDATE aged_leads SET sold_to_user_id = NULL, sold_at = NULL, sold_order_id = NULL, sold_price_cents = NULL, sold_age_range = NULL, returned_at = NULL WHERE id = $1', [lead.id])).rejects.toThrow(/never be sold again/);
    await expect(fx.pool.query('UPDATE aged_leads SET sold_to_user_id = $2 WHERE id = $1', [lead.id, stranger.userId])).rejects.toThrow(/never be sold again/);
  });

  // Last: it moves the catalog's clock 10 days on.
  it('when 10 × 24 hours have passed since the sale, then the lead can still be returned; a moment later it cannot', async () => {
    const buyer = agent('window');
    const { leads } = await boughtLeads(buyer, [{}, {}]);
    const { rows } = await fx.pool.query<{ sold_at: Date }>('SELECT sold_at FROM aged_leads WHERE id = $1', [leads[0]!.id]);
    // Day 10: a few seconds before the window closes.
    fx.advance(rows[0]!.sold_at.getTime() + LEAD_RETURN_WINDOW_MS - fx.now().getTime() - 5_000);
    const onDayTen = await returnLead(buyer, leads[0]!.id, { reason: 'bad_data' });
    expect(onDayTen.status).toBe(201);
    // Day 11: the window closed.
    fx.advance(10_000);
    const onDayEleven = await returnLead(buyer, leads[1]!.id, { reason: 'bad_data' });
    expect(onDayEleven.status).toBe(409);
    expect(onDayEleven.body.error).toBe(LEAD_RETURN_MESSAGES.tooLate);
  });
});
