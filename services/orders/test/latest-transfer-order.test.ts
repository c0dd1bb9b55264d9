import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callService } from '@warmline/platform/testing/calls';
import { startTransferSystem, XHR, type Agent, type TransferSystem } from './transfer-system';

/**
 * GET /api/internal/my-latest-transfer-order: the transfers service suggests an agent's delivery
 * settings from their latest transfer order (issue 23). Signed identity only, the agent's own.
 */

let system: TransferSystem;

beforeAll(async () => {
  system = await startTransferSystem();
});

afterAll(async () => {
  await system?.cleanup();
});

async function order(agent: Agent, form: Record<string, unknown>): Promise<void> {
  const browser = system.browser();
  await browser.login(agent.username, agent.password);
  const answer = await browser.post(
    '/api/call-transfer-order',
    { totalTransfers: 20, callsPerDay: 5, transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199', workingStates: ['TX', 'OK'], leadType: 'Live Transfers', ...form },
    XHR,
  );
  expect(answer.status).toBe(201);
}

const identityOf = (agent: Agent) => ({ userId: agent.id, username: agent.username, isAdmin: false });

describe("the agent's latest transfer order for the transfers service", () => {
  it('when the agent ordered twice, then the latest order’s phone, calls per day, hours and states come back', async () => {
    const agent = await system.createAgent();
    await order(agent, {});
    await order(agent, { callsPerDay: 7, transferHours: '10am-6pm EST', transferPhone: '(512) 555-0143', workingStates: ['FL', 'GA'] });

    const answer = await callService(system.ordersUrl, 'GET', '/api/internal/my-latest-transfer-order', { identity: identityOf(agent), caller: 'transfers' });

    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body.order).toMatchObject({ callsPerDay: 7, transferHours: '10am-6pm EST', states: ['FL', 'GA'] });
    expect(String((answer.body.order as { transferPhone: string }).transferPhone).replace(/\D/g, '')).toBe('5125550143');
  });

  it('when the agent has no transfer order, then the order is null; another agent never sees it', async () => {
    const agent = await system.createAgent();
    const other = await system.createAgent();
    await order(other, {});

    const answer = await callService(system.ordersUrl, 'GET', '/api/internal/my-latest-transfer-order', { identity: identityOf(agent), caller: 'transfers' });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ order: null });
  });

  it('when nothing is signed, then it answers 401; a visitor through the gateway, or the catalog, gets 403 (the route is the transfers service\'s)', async () => {
    expect((await callService(system.ordersUrl, 'GET', '/api/internal/my-latest-transfer-order', { identity: null })).status).toBe(401);
    expect((await callService(system.ordersUrl, 'GET', '/api/internal/my-latest-transfer-order')).status).toBe(403);
    const agent = await system.createAgent();
    expect((await callService(system.ordersUrl, 'GET', '/api/internal/my-latest-transfer-order', { identity: identityOf(agent), caller: 'catalog' })).status).toBe(403);
  });
});
