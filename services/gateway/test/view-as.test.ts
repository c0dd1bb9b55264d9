import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  publicRoutes,
  VIEW_AS_ENDED_HEADER,
  VIEW_AS_ENDED_MESSAGE,
  VIEW_AS_HEADER,
  type AuditEntry,
  type AuditLogPage,
  type ViewAsGrant,
} from '@warmline/contracts';
import { closeServer, createHttpApp, createLogger, IDENTITY_HEADER, identityCheck, listen, requireForwardedIdentity, type Identity } from '@warmline/platform';
import { signTestIdentity, TEST_KEYS } from '@warmline/platform/testing/index';
import { startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';
import { DANA_COLE, surveyAnswers } from './survey-answers';

/**
 * View-as (issue 12, docs/adr/0014-view-as.md): an admin's grant lets one tab (the X-View-As
 * header) see an agent's dashboard as the agent, read only; the admin's session without the
 * header stays the admin's; every write is refused and changes nothing; the grant ends with
 * the button, the time or the admin's logout, and the audit log has its start and end.
 */

/** What the stand-in catalog and orders were asked, and as whom. */
const seen: Array<{ method: string; path: string; identity: Identity }> = [];
let services: Server;
let servicesUrl: string;
let gw: GatewayFixture;
let admin: Browser;
let agent: { id: string; username: string; password: string };

async function startStandIns(): Promise<string> {
  const app = createHttpApp({
    service: 'stand-in',
    log: createLogger('stand-in', 'silent'),
    readiness: [],
    mount: (a) => {
      // One stand-in answers for every owner: it checks the identity for whichever it is signed for.
      a.use('/api', (req, res, next) => {
        const claimed = (JSON.parse(Buffer.from(req.header(IDENTITY_HEADER)?.split('.')[0] ?? '', 'base64url').toString() || '{}') as { aud?: string }).aud;
        const audience = ['catalog', 'orders', 'partners', 'ingestion', 'transfers'].find((owner) => owner === claimed) ?? 'none';
        requireForwardedIdentity(identityCheck(TEST_KEYS, audience))(req, res, next);
      });
      a.all('/api/{*rest}', (req, res) => {
        seen.push({ method: req.method, path: req.path, identity: req.identity! });
        res.json({ answeredFor: req.identity?.username ?? null });
      });
    },
  });
  services = await listen(app, 0, '127.0.0.1');
  servicesUrl = `http://127.0.0.1:${(services.address() as AddressInfo).port}`;
  return servicesUrl;
}

/** The agent signs up with the main survey (so they have survey answers). */
async function signUpAgent(fixture: GatewayFixture): Promise<{ id: string; username: string; password: string }> {
  const body = surveyAnswers(DANA_COLE);
  const { username, password } = body;
  const answer = await fixture.browser().post('/api/survey', body);
  expect(answer.status).toBe(201);
  const { rows } = await fixture.pool.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [username]);
  return { id: rows[0]!.id, username, password };
}

async function startViewing(browser: Browser, userId: string): Promise<{ token: string; grant: ViewAsGrant }> {
  const answer = await browser.post('/api/admin/view-as', { userId });
  expect(answer.status).toBe(201);
  const grant = answer.json as ViewAsGrant;
  const token = new URL(grant.url, 'http://x').searchParams.get('viewAs');
  expect(token).toBeTruthy();
  return { token: token!, grant };
}

async function auditEntries(fixture: GatewayFixture, action: string, subjectId: string): Promise<AuditEntry[]> {
  const answer = await fixture.pool.query<AuditEntry>(
    `SELECT action, actor_username AS "actorUsername", subject_id AS "subjectId", subject_label AS "subjectLabel", before, after, reason
       FROM audit_log WHERE action = $1 AND subject_id = $2 ORDER BY at`,
    [action, subjectId],
  );
  return answer.rows;
}

const asViewer = (token: string) => ({ headers: { [VIEW_AS_HEADER]: token } });

beforeAll(async () => {
  const standIns = await startStandIns();
  gw = await startGatewayFixture({ env: { CATALOG_URL: standIns, ORDERS_URL: standIns } });
  admin = gw.browser();
  await admin.login(gw.admin.username, gw.admin.password);
  agent = await signUpAgent(gw);
});

afterAll(async () => {
  await gw?.cleanup();
  if (services) await closeServer(services);
});

describe('starting a view-as', () => {
  it('when a customer asks for a grant, then the answer is 403 and nothing is recorded', async () => {
    const customer = gw.browser();
    await customer.login(agent.username, agent.password);
    const other = await gw.createAgent();
    const answer = await customer.post('/api/admin/view-as', { userId: other.user.id });
    expect(answer.status).toBe(403);
    expect(await auditEntries(gw, 'view_as.started', other.user.id)).toEqual([]);
  });

  it('when the body is not a user id, the user does not exist or is an admin, then 400, 404 and 400 with what is wrong', async () => {
    const bad = await admin.post('/api/admin/view-as', { userId: 'dana' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/userId/);
    const unknown = await admin.post('/api/admin/view-as', { userId: randomUUID() });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: 'User not found' });
    const { rows } = await gw.pool.query<{ id: string }>('SELECT id FROM users WHERE is_admin LIMIT 1');
    const adminTarget = await admin.post('/api/admin/view-as', { userId: rows[0]!.id });
    expect(adminTarget.status).toBe(400);
    expect(adminTarget.json).toEqual({ error: "Only an agent's dashboard can be viewed" });
  });
});

describe("the viewing tab sees the agent's dashboard", () => {
  it("when the admin starts a grant, then with its header current-user, user-survey, my-leads and aged-leads answer as the agent, and without it the session is still the admin's", async () => {
    const before = Date.now();
    const { token, grant } = await startViewing(admin, agent.id);
    expect(grant.url).toMatch(/^\/dashboard\?viewAs=[A-Za-z0-9_-]{43}$/);
    const expiresIn = Date.parse(grant.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(29 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(30 * 60_000 + 5_000);

    const me = await admin.get('/api/current-user', asViewer(token));
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ id: agent.id, username: agent.username, firstName: 'Dana', lastName: 'Cole', isAdmin: false });
    expect(me.json.viewingAs).toEqual({ adminUsername: gw.admin.username, expiresAt: grant.expiresAt });
    expect(me.json.passwordHash).toBeUndefined();

    const survey = await admin.get('/api/user-survey', asViewer(token));
    expect(survey.status).toBe(200);
    expect(survey.json).toMatchObject({ leadType: 'Live Transfers', workingStates: 'TX' });
    // The admin has no survey of their own: the answer above was the agent's.
    expect((await admin.get('/api/user-survey')).json).toBeNull();

    seen.length = 0;
    for (const path of ['/api/my-leads', '/api/aged-leads']) {
      const answer = await admin.get(path, asViewer(token));
      expect(answer.status, path).toBe(200);
      expect(answer.json).toEqual({ answeredFor: agent.username });
    }
    expect(seen.map((s) => s.identity)).toEqual([
      { userId: agent.id, username: agent.username, isAdmin: false, readOnly: true, clientIp: '127.0.0.1' },
      { userId: agent.id, username: agent.username, isAdmin: false, readOnly: true, clientIp: '127.0.0.1' },
    ]);

    // The tab is the agent's: admin routes are refused there.
    expect((await admin.get('/api/users', asViewer(token))).status).toBe(403);

    // The admin's other tabs (no header): the admin, with the admin's rights.
    const self = await admin.get('/api/current-user');
    expect(self.json).toMatchObject({ username: gw.admin.username, isAdmin: true });
    expect(self.json.viewingAs).toBeUndefined();
    expect((await admin.get('/api/users')).status).toBe(200);
    seen.length = 0;
    await admin.get('/api/my-leads');
    expect(seen[0]!.identity).toEqual({ userId: self.json.id, username: gw.admin.username, isAdmin: true, clientIp: '127.0.0.1' });

    const started = await auditEntries(gw, 'view_as.started', agent.id);
    expect(started.at(-1)).toMatchObject({
      actorUsername: gw.admin.username,
      subjectLabel: `Dana Cole (${agent.username}@example.com)`,
      after: { readOnly: true, expiresAt: grant.expiresAt },
    });
  });

  it('when another session of the same admin, or the agent, sends the token, then 401 and the tab is told the viewing has ended', async () => {
    const { token } = await startViewing(admin, agent.id);
    const otherSession = gw.browser();
    await otherSession.login(gw.admin.username, gw.admin.password);
    const theAgent = gw.browser();
    await theAgent.login(agent.username, agent.password);
    for (const browser of [otherSession, theAgent, gw.browser()]) {
      const answer = await browser.get('/api/current-user', asViewer(token));
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({ error: VIEW_AS_ENDED_MESSAGE });
      expect(answer.headers.get(VIEW_AS_ENDED_HEADER)).toBe('1');
    }
    expect((await admin.get('/api/current-user', asViewer('x'.repeat(43)))).status).toBe(401);
  });
});

/** A path of the manifest with sample values in its `{name}` parts. */
function samplePath(path: string): string {
  return path.replace('{salesperson}', 'jane-doe').replace(/\{[A-Za-z]+\}/g, randomUUID());
}

describe('every write is refused while viewing', () => {
  it('when the viewing tab sends any non-GET route of the manifest (and GET /api/logout), then 403 "Read only while viewing as Dana Cole" and nothing changes', async () => {
    const { token } = await startViewing(admin, agent.id);
    const agentBefore = (await gw.pool.query('SELECT * FROM users WHERE id = $1', [agent.id])).rows[0];
    const auditBefore = (await gw.pool.query<{ n: string }>('SELECT count(*) AS n FROM audit_log')).rows[0]!.n;
    const writes = publicRoutes.filter((r) => r.method !== 'GET' && !(r.path === '/api/admin/view-as' && r.method === 'DELETE'));
    expect(writes.length).toBeGreaterThan(15);
    seen.length = 0;
    for (const route of writes) {
      const answer = await admin.request(route.method, samplePath(route.path), {
        json: { userId: agent.id, price: '1.00', newPassword: 'new-password-99', username: agent.username, password: agent.password },
        headers: { [VIEW_AS_HEADER]: token },
      });
      expect(answer.status, `${route.method} ${route.path}`).toBe(403);
      expect(answer.json, `${route.method} ${route.path}`).toEqual({ error: 'Read only while viewing as Dana Cole' });
    }
    // A PUT nobody declared, and the logout (a GET that ends the session), are refused the same way.
    expect((await admin.request('PUT', '/api/current-user', asViewer(token))).status).toBe(403);
    const logout = await admin.get('/api/logout', asViewer(token));
    expect(logout.status).toBe(403);

    expect(seen).toEqual([]); // no service was asked to write
    expect((await gw.pool.query('SELECT * FROM users WHERE id = $1', [agent.id])).rows[0]).toEqual(agentBefore);
    expect((await gw.pool.query<{ n: string }>('SELECT count(*) AS n FROM audit_log')).rows[0]!.n).toBe(auditBefore);
    // The admin's session survived all of it, and so did the grant.
    expect((await admin.get('/api/users')).status).toBe(200);
    expect((await admin.get('/api/current-user', asViewer(token))).json.id).toBe(agent.id);
  });
});

describe('a service behind the gateway', () => {
  it('when a read-only identity asks it to write, then it refuses with 403 itself (defence in depth), and reads still work', async () => {
    const identity: Identity = { userId: agent.id, username: agent.username, isAdmin: false, readOnly: true };
    const headers = { [IDENTITY_HEADER]: signTestIdentity('catalog', identity), 'content-type': 'application/json' };
    seen.length = 0;
    const write = await fetch(`${servicesUrl}/api/bulk-purchase-leads`, { method: 'POST', headers, body: '{}' });
    expect(write.status).toBe(403);
    expect(seen).toEqual([]);
    const read = await fetch(`${servicesUrl}/api/my-leads`, { headers });
    expect(read.status).toBe(200);
  });
});

describe('ending a view-as', () => {
  it("when the tab ends its viewing, then its header is refused from then on, the admin's session stays, and the audit log has the end once", async () => {
    const { token } = await startViewing(admin, agent.id);
    const endedBefore = (await auditEntries(gw, 'view_as.ended', agent.id)).length;
    const end = await admin.delete('/api/admin/view-as', asViewer(token));
    expect(end.status).toBe(200);
    const after = await admin.get('/api/current-user', asViewer(token));
    expect(after.status).toBe(401);
    expect(after.headers.get(VIEW_AS_ENDED_HEADER)).toBe('1');
    // Ending again: the tab learns it has ended; nothing more is recorded.
    expect((await admin.delete('/api/admin/view-as', asViewer(token))).status).toBe(401);
    expect((await admin.get('/api/current-user')).json.username).toBe(gw.admin.username);

    const ended = await auditEntries(gw, 'view_as.ended', agent.id);
    expect(ended.length).toBe(endedBefore + 1);
    expect(ended.at(-1)).toMatchObject({ actorUsername: gw.admin.username, reason: 'Ended by the admin' });
  });

  it('when DELETE comes without the header, then 400 says what is missing', async () => {
    const answer = await admin.delete('/api/admin/view-as');
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(/X-View-As/);
  });

  it('when the admin logs out, then the grants of that session end (recorded) and a new login cannot use them', async () => {
    const browser = gw.browser();
    await browser.login(gw.admin.username, gw.admin.password);
    const other = await gw.createAgent({ firstName: 'Lee', lastName: 'Park' });
    const { token } = await startViewing(browser, other.user.id);
    expect((await browser.get('/api/logout')).status).toBe(302);
    await browser.login(gw.admin.username, gw.admin.password);
    expect((await browser.get('/api/current-user', asViewer(token))).status).toBe(401);
    const ended = await auditEntries(gw, 'view_as.ended', other.user.id);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.reason).toBe('The admin logged out');
  });
});

describe('a grant runs out', () => {
  let shortLived: GatewayFixture;

  beforeAll(async () => {
    shortLived = await startGatewayFixture({ env: { VIEW_AS_SECONDS: '1' } });
  });
  afterAll(async () => {
    await shortLived?.cleanup();
  });

  it('when its time has passed, then the tab is refused with 401 and the end is recorded once, as the time running out', async () => {
    const browser = shortLived.browser();
    await browser.login(shortLived.admin.username, shortLived.admin.password);
    const { user } = await shortLived.createAgent();
    const { token } = await startViewing(browser, user.id);
    expect((await browser.get('/api/current-user', asViewer(token))).json.id).toBe(user.id);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    for (let i = 0; i < 2; i += 1) {
      const answer = await browser.get('/api/current-user', asViewer(token));
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({ error: VIEW_AS_ENDED_MESSAGE });
    }
    const ended = await auditEntries(shortLived, 'view_as.ended', user.id);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.reason).toBe('The time ran out');
    // The admin's session is untouched by the end of the viewing.
    expect((await browser.get('/api/users')).status).toBe(200);
  });
});

describe('the audit log page', () => {
  it('when an admin reads the audit log, then view_as.started and view_as.ended are listed', async () => {
    const answer = await admin.get('/api/admin/audit-log');
    const actions = (answer.json as AuditLogPage).entries.filter((e) => e.subjectId === agent.id).map((e) => e.action);
    expect(actions).toContain('view_as.started');
    expect(actions).toContain('view_as.ended');
  });
});
