import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { closeServer, listen } from '@warmline/platform';
import { startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';

/**
 * Issue 11, Medium 5 (the gateway's half): at most 10 aged-lead purchase attempts a minute per
 * buyer, counted in the gateway's Redis before the purchase is forwarded to the catalog.
 */

let catalog: Server;
/** One entry per purchase that reached the stand-in catalog. */
const reached: string[] = [];
let gw: GatewayFixture;

beforeAll(async () => {
  const app = express();
  app.post('/api/bulk-purchase-leads', (req, res) => {
    reached.push(req.id ?? String(req.headers['x-request-id']));
    res.status(201).json({ ok: true });
  });
  catalog = await listen(app, 0, '127.0.0.1');
  gw = await startGatewayFixture({ env: { CATALOG_URL: `http://127.0.0.1:${(catalog.address() as AddressInfo).port}` } });
});

afterAll(async () => {
  await gw?.cleanup();
  if (catalog) await closeServer(catalog);
});

async function signedInAgent(): Promise<Browser> {
  const { user, password } = await gw.createAgent();
  const browser = gw.browser();
  await browser.login(user.username, password);
  return browser;
}

const purchase = (browser: Browser) => browser.post('/api/bulk-purchase-leads', { leadIds: [randomUUID()] });

describe('purchase attempts per buyer', () => {
  it('when a buyer tries an 11th purchase within a minute, then it is refused with 429 and never reaches the catalog', async () => {
    const buyer = await signedInAgent();
    const before = reached.length;

    const answers = [];
    for (let i = 0; i < 12; i += 1) answers.push(await purchase(buyer));

    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(201));
    for (const refused of answers.slice(10)) {
      expect(refused.status).toBe(429);
      expect(refused.json).toEqual({ error: 'Too many purchase attempts; try again in a minute' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
    expect(reached.length - before).toBe(10);
  });

  it('when 30 attempts of one buyer arrive at once, then exactly 10 are forwarded', async () => {
    const buyer = await signedInAgent();
    const before = reached.length;

    const answers = await Promise.all(Array.from({ length: 30 }, () => purchase(buyer)));

    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
    expect(reached.length - before).toBe(10);
  });

  it("when one buyer is at the limit, then another buyer's purchases still go through", async () => {
    const first = await signedInAgent();
    for (let i = 0; i < 10; i += 1) await purchase(first);
    expect((await purchase(first)).status).toBe(429);

    expect((await purchase(await signedInAgent())).status).toBe(201);
  });

  it('when a buyer lists leads or opens a purchase many times, then only purchase attempts are counted', async () => {
    const buyer = await signedInAgent();
    for (let i = 0; i < 12; i += 1) await buyer.get(`/api/bulk-purchase-leads/${randomUUID()}`);

    expect((await purchase(buyer)).status).toBe(201);
  });

  it('when PURCHASE_ATTEMPTS_PER_MINUTE is raised (a fuzzing run), then that many go through', async () => {
    const raised = await startGatewayFixture({
      env: { CATALOG_URL: `http://127.0.0.1:${(catalog.address() as AddressInfo).port}`, PURCHASE_ATTEMPTS_PER_MINUTE: '15' },
    });
    try {
      const { user, password } = await raised.createAgent();
      const buyer = raised.browser();
      await buyer.login(user.username, password);
      const answers = [];
      for (let i = 0; i < 16; i += 1) answers.push((await purchase(buyer)).status);
      expect(answers.filter((s) => s === 201)).toHaveLength(15);
      expect(answers.at(-1)).toBe(429);
    } finally {
      await raised.cleanup();
    }
  });
});
