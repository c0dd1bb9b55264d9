import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerSearchAnswerSchema, MAX_SEARCH_RESULTS, type CustomerSearchResult } from '@warmline/contracts';
import type { Identity } from '@warmline/platform/identity';
import { agentIdentity } from '@warmline/platform/testing/calls';
import { startOrdersFixture, testCard, type OrdersFixture } from './orders-fixture';

/**
 * The orders service's part of the admin's customer search (issue 12): `GET /internal/search?q=`
 * answers the paying customers of the public checkouts — package and second-brand orders that
 * were paid — as type 'customer', asked straight as the gateway does, with an admin's signed
 * identity. (Through the gateway with both services: admin-stats.test.ts.)
 */

let orders: OrdersFixture;
const ADMIN: Identity = { userId: randomUUID(), username: 'admin', isAdmin: true };

beforeAll(async () => {
  orders = await startOrdersFixture();
});

afterAll(async () => {
  await orders?.cleanup();
});

async function search(q: string, identity: Identity = ADMIN): Promise<{ status: number; results: CustomerSearchResult[]; error: unknown }> {
  const answer = await orders.call('GET', `/internal/search?q=${encodeURIComponent(q)}`, { identity });
  if (answer.status !== 200) return { status: answer.status, results: [], error: answer.body.error };
  return { status: answer.status, results: customerSearchAnswerSchema.parse(JSON.parse(answer.text)), error: undefined };
}

/** A public checkout bought and paid by an anonymous visitor with these billing details; the order id. */
async function paidCheckout(body: Record<string, unknown>, billing: { name: string; email: string; phone?: string }): Promise<string> {
  const created = await orders.call('POST', '/api/create-payment-intent', { body });
  expect(created.status).toBe(201);
  const paid = await orders.call('POST', '/api/payments/sandbox/confirm', { body: testCard(String(created.body.clientSecret), { billing }) });
  expect(paid.status).toBe(200);
  return String(created.body.orderId);
}

const PACKAGE = { amount: 2220, callCount: 60, tier: 'premium' };
const SECOND_BRAND = { amount: 300, packageType: 'RingCloud Call-Backs', calls: 20, callCount: 1, tier: 'ringcloud' };
const tagged = () => `zq${randomUUID().replace(/-/g, '').slice(0, 8)}`;

describe('GET /internal/search, paying customers', () => {
  it('when a visitor paid a package checkout, then they are found by name, e-mail and phone digits, in any case and any phone format', async () => {
    const tag = tagged();
    const orderId = await paidCheckout(PACKAGE, { name: `Quinn ${tag}`, email: `Quinn.${tag}@Example.com`, phone: '(555) 918-2736' });

    for (const q of [`quinn ${tag.toUpperCase()}`, `quinn.${tag}@example.COM`, tag]) {
      const { results } = await search(q);
      expect(results, q).toEqual([
        {
          type: 'customer', id: orderId, firstName: null, lastName: null, name: `Quinn ${tag}`, mainContact: null, agencyName: null, businessName: null,
          salesperson: null, email: `Quinn.${tag}@Example.com`, contactEmail: null, phone: '(555) 918-2736', contactPhone: null, leadType: null,
          role: null, username: null, createdAt: expect.any(String), exact: q.includes('@'),
        },
      ]);
    }
    for (const q of ['555-918-2736', '(555) 918', '+1 555 918 2736', '9182736']) {
      expect((await search(q)).results.map((r) => r.id), q).toContain(orderId);
    }
    expect((await search('555.918.2736')).results.find((r) => r.id === orderId)?.exact).toBe(true);
  });

  it("when a visitor paid the second brand's checkout, then they are a customer of RingCloud with the product they bought", async () => {
    const tag = tagged();
    const orderId = await paidCheckout(SECOND_BRAND, { name: `Rae ${tag}`, email: `rae.${tag}@example.com` });
    const { results } = await search(`rae ${tag}`);
    expect(results).toEqual([expect.objectContaining({ type: 'customer', id: orderId, salesperson: 'RingCloud', leadType: 'Call-Backs', phone: null })]);
  });

  it('when a checkout was never paid, then its buyer is not a paying customer', async () => {
    const tag = tagged();
    const created = await orders.call('POST', '/api/create-payment-intent', { body: PACKAGE });
    expect(created.status).toBe(201);
    await orders.pool.query(`UPDATE package_orders SET billing_name = $1, billing_email = $2 WHERE id = $3`, [`Una ${tag}`, `una.${tag}@example.com`, created.body.orderId]);
    expect((await search(tag)).results).toEqual([]);
  });

  it('when one customer paid several times, then they come once, as their newest order, and an exact e-mail comes before newer partial matches', async () => {
    const tag = tagged();
    await paidCheckout(PACKAGE, { name: `Cy ${tag}`, email: `cy.${tag}@example.com` });
    const newest = await paidCheckout(SECOND_BRAND, { name: `Cy ${tag}`, email: `CY.${tag}@example.com` });
    const other = await paidCheckout(PACKAGE, { name: `Dee ${tag}`, email: `dee.cy.${tag}@example.com` });

    const { results } = await search(`cy.${tag}@example.com`);
    expect(results.map((r) => r.id)).toEqual([newest, other]);
    expect(results.map((r) => r.exact)).toEqual([true, false]);
  });

  it('when more than 50 customers match, then 50 come, one per e-mail, newest first', async () => {
    const tag = tagged();
    await orders.pool.query(
      `INSERT INTO package_orders (id, kind, tier, count, unit_price_cents, amount_cents, description, provider, status, paid_at,
                                   billing_name, billing_email, created_at)
       SELECT gen_random_uuid(), 'package', 'premium', 1, 3700, 3700, 'Premium', 'sandbox', 'paid', now(),
              'Bulk ' || $1 || ' ' || i, 'bulk' || i || '.' || $1 || '@example.com', now() - make_interval(mins => i)
         FROM generate_series(1, 60) AS i`,
      [tag],
    );
    const { results } = await search(tag);
    expect(results).toHaveLength(MAX_SEARCH_RESULTS);
    expect(results.map((r) => r.name)).toEqual(Array.from({ length: MAX_SEARCH_RESULTS }, (_, i) => `Bulk ${tag} ${i + 1}`));
  });
});

describe('GET /internal/search, who and what may ask', () => {
  it('when the text is blank, then 400 Search text is required; LIKE wildcards are searched literally', async () => {
    expect(await search('   ')).toMatchObject({ status: 400, error: 'Search text is required' });
    expect((await orders.call('GET', '/internal/search', { identity: ADMIN })).body.error).toBe('Search text is required');
    expect((await search('%')).results).toEqual([]);
    expect((await search('_')).results).toEqual([]);
  });

  it('when a customer or a caller without the signed identity asks, then 403 / 401 and nothing is answered', async () => {
    expect((await search('example', agentIdentity())).status).toBe(403);
    expect((await orders.call('GET', '/internal/search?q=example', { identity: null })).status).toBe(401);
  });
});
