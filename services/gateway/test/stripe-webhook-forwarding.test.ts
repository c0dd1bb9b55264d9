import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { closeServer, IDENTITY_HEADER, identityCheck, listen, verifyIdentity } from '@warmline/platform';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * Stripe's webhook (access 'stripe-signature') is a machine's call: the gateway forwards it to
 * orders with the anonymous identity, whatever session cookie rides along (issue 25 §6), so no
 * user's identity is lent to a request only Stripe's signature vouches for. A stand-in orders
 * service records what reaches it.
 */

const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';

let orders: Server;
const reached: Array<{ identity: string | undefined; cookie: string | undefined; body: string }> = [];
let gw: GatewayFixture;

beforeAll(async () => {
  const app = express();
  app.all('/api/{*rest}', async (req, res) => {
    let body = '';
    for await (const chunk of req) body += (chunk as Buffer).toString('utf8');
    reached.push({ identity: req.headers[IDENTITY_HEADER] as string | undefined, cookie: req.headers.cookie, body });
    res.json({ received: true });
  });
  orders = await listen(app, 0, '127.0.0.1');
  gw = await startGatewayFixture({ env: { ORDERS_URL: `http://127.0.0.1:${(orders.address() as AddressInfo).port}` } });
}, 60_000);

afterAll(async () => {
  await gw?.cleanup();
  if (orders) await closeServer(orders);
});

describe("Stripe's webhook through the gateway", () => {
  it("when the call carries a signed-in admin's session cookie, then orders receives it with the anonymous identity and no cookie", async () => {
    const admin = gw.browser();
    await admin.login(gw.admin.username, gw.admin.password);
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const body = JSON.stringify({ id: 'evt_test', type: 'payment_intent.succeeded' });

    const answer = await fetch(`${gw.url}${STRIPE_WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc', cookie },
      body,
    });

    expect(answer.status).toBe(200);
    const arrived = reached.at(-1)!;
    expect(arrived.body).toBe(body);
    expect(arrived.cookie).toBeUndefined();
    const identity = verifyIdentity(identityCheck(gw.config, 'orders'), arrived.identity);
    expect(identity).toMatchObject({ userId: null, username: null, isAdmin: false });
  });
});
