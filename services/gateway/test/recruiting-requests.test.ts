import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@warmline/platform/testing/index';
import { mailsTo } from '@warmline/platform/testing/mail';
import { startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';

/**
 * POST /api/recruiting-requests (dashboard, Insurance Recruiting → 'Contact Recruiting Team'):
 * stored by the gateway with an `email.recruiting_request` command in its outbox; the
 * notifications worker (same database and broker namespace, as in production) writes and
 * sends the recruiting team's e-mail.
 */

const RECRUITING_TEAM = 'recruiting-team@example.com';
let gw: GatewayFixture;
let mailDir: string;

beforeAll(async () => {
  gw = await startGatewayFixture({ env: { RECRUITING_TEAM_EMAIL: RECRUITING_TEAM } });
  ({ mailDir } = await gw.startMailWorker());
});

afterAll(async () => {
  await gw?.cleanup();
});

function mailToTeam(): Promise<string[]> {
  return mailsTo(mailDir, RECRUITING_TEAM);
}

async function loggedInAgent(): Promise<{ browser: Browser; id: string; email: string; username: string }> {
  const { user, password } = await gw.createAgent({ firstName: 'Rosa', lastName: 'Recruiter' });
  const browser = gw.browser();
  await browser.login(user.username, password);
  return { browser, id: user.id, email: user.email, username: user.username };
}

async function countRequests(): Promise<number> {
  const { rows } = await gw.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM recruiting_requests');
  return rows[0]!.n;
}

describe('recruiting requests', () => {
  it('when an agent asks for recruiting help, then the request is stored and the recruiting team gets one e-mail with it', async () => {
    const agent = await loggedInAgent();
    const needs = 'Two licensed P&C agents for our Austin office, bilingual preferred';

    const answer = await agent.browser.post('/api/recruiting-requests', {
      needs,
      agentsNeeded: '3',
      email: agent.email,
      phone: '(512) 555-0177',
    });

    expect(answer.status).toBe(201);
    expect(answer.json.message).toBe('Your request was sent to our recruiting team.');
    const { rows } = await gw.pool.query('SELECT * FROM recruiting_requests WHERE id = $1', [answer.json.id]);
    expect(rows[0]).toMatchObject({
      user_id: agent.id,
      first_name: 'Rosa',
      last_name: 'Recruiter',
      email: agent.email,
      phone: '(512) 555-0177',
      needs,
      agents_needed: 3,
    });
    const [mail] = await waitFor('the recruiting team e-mail', async () => {
      const found = (await mailToTeam()).filter((m) => m.includes(String(answer.json.id)));
      return found.length > 0 ? found : undefined;
    });
    expect(mail).toMatch(/^Subject: Recruiting request: 3 agents for /m);
    expect(mail).toContain(needs);
    expect(mail).toContain('Agents needed: 3');
    expect(mail).toContain('Name: Rosa Recruiter');
    expect(mail).toContain(`E-mail: ${agent.email}`);
    expect(mail).toContain('Phone: (512) 555-0177');
    expect(mail).toContain(`Username: ${agent.username}`);
    // One command, written with the request; the worker wrote the body.
    const { rows: commands } = await gw.pool.query<{ routing_key: string; envelope: { data: Record<string, unknown> } }>(
      "SELECT routing_key, envelope FROM outbox WHERE envelope->'data'->>'requestId' = $1 OR routing_key = 'email.send'",
      [answer.json.id],
    );
    expect(commands.map((c) => c.routing_key)).toEqual(['email.recruiting_request']);
    expect(commands[0]!.envelope.data).toMatchObject({
      to: RECRUITING_TEAM,
      requestId: answer.json.id,
      agentsNeeded: 3,
      needs,
      agent: { userId: agent.id, firstName: 'Rosa', lastName: 'Recruiter', username: agent.username, email: agent.email, phone: '(512) 555-0177' },
    });
    expect(await mailToTeam()).toHaveLength(1);
  });

  it('when the form is incomplete, then each field says what is missing and nothing is stored or sent', async () => {
    const agent = await loggedInAgent();
    const before = await countRequests();

    const answer = await agent.browser.post('/api/recruiting-requests', { needs: ' ', agentsNeeded: 0, email: 'nope', phone: '123' });

    expect(answer.status).toBe(400);
    expect(answer.json.issues).toEqual([
      { path: 'needs', message: 'Please tell us what your agency needs' },
      { path: 'agentsNeeded', message: 'Please enter how many agents you need (at least 1)' },
      { path: 'email', message: 'Invalid email address' },
      { path: 'phone', message: 'Phone number must be at least 10 digits' },
    ]);
    expect(await countRequests()).toBe(before);
  });

  it('when nobody is logged in, then the request is refused with 401', async () => {
    const answer = await gw.browser().post('/api/recruiting-requests', {
      needs: 'Agents',
      agentsNeeded: 1,
      email: 'someone@example.com',
      phone: '5125550177',
    });

    expect(answer.status).toBe(401);
  });
});
