import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { IDENTITY_HEADER, SERVICE_CALL_HEADER, signServiceCall, type ServiceCaller } from '@warmline/platform';
import { signTestIdentity, signTestServiceCall } from '@warmline/platform/testing/index';
import { startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';

/**
 * GET /internal/users/:id on the gateway's internal listener: where an internal service
 * (orders) reads the agent it acts for, with the shared secret's signed identity; never
 * through a browser session, the public port or the forwarded /api routes.
 */

let gw: GatewayFixture;
let admin: Browser;

beforeAll(async () => {
  gw = await startGatewayFixture();
  admin = gw.browser();
  await admin.login(gw.admin.username, gw.admin.password);
});

afterAll(async () => {
  await gw?.cleanup();
});

/** A call of `caller` with its own key (docs/adr/0042), or any headers. */
function asService(path: string, caller: ServiceCaller | Record<string, string>) {
  const headers = typeof caller === 'string' ? { [SERVICE_CALL_HEADER]: signTestServiceCall(caller, 'gateway') } : caller;
  return fetch(new URL(path, gw.internalUrl), { headers });
}

describe('the internal user endpoint', () => {
  it("when the orders service asks with its own key, then it gets the agent's contact and current price", async () => {
    const { user } = await gw.createAgent({ firstName: 'Priya', lastName: 'Patel' });
    await admin.patch(`/api/users/${user.id}/live-transfer-price`, { price: '31.5' });

    const answer = await asService(`/internal/users/${user.id}`, 'orders');

    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({
      id: user.id,
      username: user.username,
      firstName: 'Priya',
      lastName: 'Patel',
      email: user.email,
      phone: user.phone,
      liveTransferPrice: '31.50',
      workingStates: [],
    });
  });

  it("when the agent's latest survey names working states, then the answer carries their 2-letter codes", async () => {
    const { user } = await gw.createAgent();
    const survey = (workingStates: string, at: string) =>
      gw.pool.query(
        `INSERT INTO survey_responses (user_id, funnel, brand, salesperson, first_name, last_name, agency_name, role, phone, email,
                                       username, lead_type, working_states, created_at)
         VALUES ($1, 'ringcloud', 'RingCloud', 'RingCloud', 'Avery', 'Agent', 'Agency', 'Insurance Agent', '5125550100', $2, $3,
                 'Call-Backs', $4, $5)`,
        [user.id, user.email, user.username, workingStates, at],
      );
    await survey('Florida', '2026-01-01T00:00:00Z');
    await survey('Texas, ok and new york, Atlantis', '2026-02-01T00:00:00Z');

    const answer = await asService(`/internal/users/${user.id}`, 'catalog');

    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { workingStates: string[] }).workingStates).toEqual(['TX', 'OK', 'NY']);
  });

  it('when the credential is missing, forged, for another service or from a service the gateway does not know, then it answers 401', async () => {
    const { user } = await gw.createAgent();
    const stranger = { service: 'catalog' as const, key: generateKeyPairSync('ed25519').privateKey };

    expect((await asService(`/internal/users/${user.id}`, {})).status).toBe(401);
    expect((await asService(`/internal/users/${user.id}`, { [SERVICE_CALL_HEADER]: signServiceCall(stranger, 'gateway') })).status).toBe(401);
    expect((await asService(`/internal/users/${user.id}`, { [SERVICE_CALL_HEADER]: signTestServiceCall('catalog', 'orders') })).status).toBe(401);
  });

  it("when a user's identity, even an admin's signed by the gateway, asks instead of a service, then it answers 403: the route is for the services it names", async () => {
    const { user } = await gw.createAgent();
    const admin = { userId: user.id, username: user.username, isAdmin: true };

    expect((await asService(`/internal/users/${user.id}`, { [IDENTITY_HEADER]: signTestIdentity('gateway', admin) })).status).toBe(403);
  });

  it('when the user does not exist, then it answers 404', async () => {
    expect((await asService(`/internal/users/${randomUUID()}`, 'transfers')).status).toBe(404);
  });

  it('when a logged-in browser asks, through /internal or /api, then its session gives it nothing', async () => {
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);

    const direct = await browser.get(`/internal/users/${user.id}`);
    const forged = await browser.get(`/internal/users/${user.id}`, { headers: { [IDENTITY_HEADER]: 'forged.token' } });
    const viaApi = await browser.get(`/api/internal/users/${user.id}`);

    // The public port has no /internal routes at all (they are on the internal listener).
    expect(direct.status).toBe(404);
    expect(forged.status).toBe(404);
    expect(viaApi.status).toBe(404);
  });
});
