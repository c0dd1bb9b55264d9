import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_HEADER } from '@warmline/platform';
import { signTestIdentity } from '@warmline/platform/testing/index';
import { startGatewayFixture, type Answer, type Browser, type GatewayFixture } from './gateway-fixture';

/**
 * Admin user management (spec §7): every route checks the admin flag on the server. The role
 * matrix of every route of the manifest (401 anonymous, 403 to a customer), against the whole
 * system so forwarded routes count too, is e2e/route-manifest.e2e.test.ts; this file keeps the
 * behaviour of the admin routes themselves.
 */

let gw: GatewayFixture;
let admin: Browser;
let adminId: string;

beforeAll(async () => {
  gw = await startGatewayFixture();
  admin = gw.browser();
  adminId = (await admin.login(gw.admin.username, gw.admin.password)).json.id;
});

afterAll(async () => {
  await gw?.cleanup();
});

async function loggedInAgent(): Promise<{ browser: Browser; id: string; username: string; password: string }> {
  const { user, password } = await gw.createAgent();
  const browser = gw.browser();
  await browser.login(user.username, password);
  return { browser, id: user.id, username: user.username, password };
}

/** Each admin route, called by `who` against a fresh target user. */
const adminRoutes: Array<[name: string, call: (who: Browser, targetId: string) => Promise<Answer>]> = [
  ['GET /api/users', (who) => who.get('/api/users')],
  ['DELETE /api/users/:id', (who, id) => who.delete(`/api/users/${id}`)],
  ['POST /api/users/:id/change-password', (who, id) => who.post(`/api/users/${id}/change-password`, { newPassword: 'changed-by-admin' })],
  ['PATCH /api/users/:id/live-transfer-price', (who, id) => who.patch(`/api/users/${id}/live-transfer-price`, { price: '42.50' })],
];

async function outboxEvents(type: string): Promise<unknown[]> {
  const { rows } = await gw.pool.query<{ envelope: { data: unknown } }>(
    'SELECT envelope FROM outbox WHERE routing_key = $1 ORDER BY created_at',
    [type],
  );
  return rows.map((r) => r.envelope.data);
}

describe('the role matrix', () => {
  for (const [name, call] of adminRoutes) {
    it(`when ${name} is called anonymously, by a customer, then by an admin, then it answers 401, 403, then 2xx`, async () => {
      const target = await gw.createAgent();
      const customer = await loggedInAgent();

      const anonymous = await call(gw.browser(), target.user.id);
      expect(anonymous.status).toBe(401);
      expect(anonymous.json).toEqual({ error: 'Not authenticated' });

      const byCustomer = await call(customer.browser, target.user.id);
      expect(byCustomer.status).toBe(403);
      expect(byCustomer.json).toEqual({ error: 'Admin access required' });

      const byAdmin = await call(admin, target.user.id);
      expect(byAdmin.status).toBeGreaterThanOrEqual(200);
      expect(byAdmin.status).toBeLessThan(300);
      expect(byAdmin.text).not.toContain('$argon2');
    });
  }

  it('when an anonymous caller sends a validly signed admin identity header, then the gateway still answers 401', async () => {
    const forged = signTestIdentity('gateway', { userId: adminId, username: gw.admin.username, isAdmin: true });
    const answer = await gw.browser().get('/api/users', { headers: { [IDENTITY_HEADER]: forged } });
    expect(answer.status).toBe(401);
  });
});

describe('listing users', () => {
  it('when an admin lists users, then they come newest first and carry no password or hash', async () => {
    const older = await gw.createAgent();
    const newer = await gw.createAgent();
    const answer = await admin.get('/api/users');
    expect(answer.status).toBe(200);
    const ids = (answer.json as Array<{ id: string }>).map((u) => u.id);
    expect(ids.indexOf(newer.user.id)).toBeLessThan(ids.indexOf(older.user.id));
    expect(answer.text).not.toContain('$argon2');
    expect(answer.text).not.toMatch(/password/i);
    expect(answer.json[0]).toEqual(
      expect.objectContaining({ id: expect.any(String), username: expect.any(String), isAdmin: expect.any(Boolean), liveTransferPrice: expect.any(String) }),
    );
  });
});

describe('deleting users', () => {
  it('when an admin deletes a user, then the user can no longer log in, their sessions end and user.deleted is announced', async () => {
    const agent = await loggedInAgent();
    const answer = await admin.delete(`/api/users/${agent.id}`);
    expect(answer.status).toBe(200);
    expect((await agent.browser.get('/api/current-user')).status).toBe(401);
    expect((await gw.browser().post('/api/login', { username: agent.username, password: agent.password })).status).toBe(401);
    expect(await outboxEvents('user.deleted')).toContainEqual({ userId: agent.id, deletedBy: adminId });
  });

  it('when an admin tries to delete their own account, then it is refused with a clear 400', async () => {
    const answer = await admin.delete(`/api/users/${adminId}`);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('You cannot delete your own account');
    expect((await admin.get('/api/current-user')).status).toBe(200);
  });

  it('when the id is unknown or not an id at all, then the answer is 404 User not found', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1']) {
      const answer = await admin.delete(`/api/users/${id}`);
      expect(answer.status, id).toBe(404);
      expect(answer.json.error).toBe('User not found');
    }
  });

  it("when a user's other routes name no user id at all, then they answer 404 User not found before reading the body", async () => {
    const answers = [
      await admin.post('/api/users/not-a-uuid/change-password', {}),
      await admin.post('/api/users/1/reset-two-factor', {}),
      await admin.patch('/api/users/not-a-uuid/live-transfer-price', { price: 'x' }),
    ];
    for (const answer of answers) expect([answer.status, answer.json.error]).toEqual([404, 'User not found']);
  });
});

describe('changing passwords', () => {
  it("when an admin changes a user's password, then only the new one works and that user's sessions end", async () => {
    const agent = await loggedInAgent();
    const answer = await admin.post(`/api/users/${agent.id}/change-password`, { newPassword: 'set-by-the-admin' });
    expect(answer.status).toBe(200);
    expect((await agent.browser.get('/api/current-user')).status).toBe(401);
    expect((await gw.browser().post('/api/login', { username: agent.username, password: agent.password })).status).toBe(401);
    expect((await gw.browser().post('/api/login', { username: agent.username, password: 'set-by-the-admin' })).status).toBe(200);
  });

  it('when the new password is short or missing, or the user unknown, then the answer is a clear 4xx', async () => {
    const { user } = await gw.createAgent();
    const short = await admin.post(`/api/users/${user.id}/change-password`, { newPassword: 'short' });
    expect(short.status).toBe(400);
    expect(short.json.error).toBe('Password must be at least 8 characters');
    const missing = await admin.post(`/api/users/${user.id}/change-password`, {});
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('Password must be at least 8 characters');
    const unknown = await admin.post('/api/users/00000000-0000-4000-8000-000000000000/change-password', { newPassword: 'long-enough-password' });
    expect(unknown.status).toBe(404);
  });

  it('when admins change their own password, then the session they use stays open', async () => {
    const second = gw.browser();
    await second.login(gw.admin.username, gw.admin.password);
    const answer = await second.post(`/api/users/${adminId}/change-password`, { currentPassword: gw.admin.password, newPassword: gw.admin.password });
    expect(answer.status).toBe(200);
    expect((await second.get('/api/current-user')).status).toBe(200);
    // Every other session of that admin ends, including the one this file shares; reopen it.
    expect((await admin.get('/api/current-user')).status).toBe(401);
    await admin.login(gw.admin.username, gw.admin.password);
  });
});

describe('live transfer price', () => {
  it('when an admin sets a price, then the updated user comes back with a two-decimal price and the change is announced', async () => {
    const { user } = await gw.createAgent();
    const asText = await admin.patch(`/api/users/${user.id}/live-transfer-price`, { price: '42.5' });
    expect(asText.status).toBe(200);
    expect(asText.json).toEqual(expect.objectContaining({ id: user.id, liveTransferPrice: '42.50' }));
    const asNumber = await admin.patch(`/api/users/${user.id}/live-transfer-price`, { price: 40 });
    expect(asNumber.json.liveTransferPrice).toBe('40.00');
    const free = await admin.patch(`/api/users/${user.id}/live-transfer-price`, { price: 0 });
    expect(free.json.liveTransferPrice).toBe('0.00');
    expect(await outboxEvents('user.price_changed')).toContainEqual({ userId: user.id, liveTransferPrice: '40.00', changedBy: adminId });
  });

  it('when the price is negative, has three decimals, is text or missing, then the answer is 400 with a clear message', async () => {
    const { user } = await gw.createAgent();
    const cases: Array<[unknown, string]> = [
      [{ price: -1 }, 'Price must be at least 0'],
      [{ price: '-0.01' }, 'Price must be at least 0'],
      [{ price: '1.234' }, 'Price must be a number with at most two decimals'],
      [{ price: 1.234 }, 'Price must be a number with at most two decimals'],
      [{ price: 'abc' }, 'Price must be a number with at most two decimals'],
      [{ price: '' }, 'Price is required'],
      [{}, 'Price is required'],
      [{ price: null }, 'Price is required'],
    ];
    for (const [body, message] of cases) {
      const answer = await admin.patch(`/api/users/${user.id}/live-transfer-price`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error, JSON.stringify(body)).toBe(message);
    }
    const unchanged = await admin.get('/api/users');
    expect((unchanged.json as Array<{ id: string; liveTransferPrice: string }>).find((u) => u.id === user.id)?.liveTransferPrice).toBe('35.00');
  });

  it('when the user is unknown, then the answer is 404', async () => {
    const answer = await admin.patch('/api/users/00000000-0000-4000-8000-000000000000/live-transfer-price', { price: '10.00' });
    expect(answer.status).toBe(404);
    expect(answer.json.error).toBe('User not found');
  });
});
