import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@warmline/platform';
import { TEST_REDIS_URL } from '@warmline/platform/testing/index';
import { ensureFirstAdmin } from '../src/domain/first-admin';
import { seedDemoAccounts } from '../src/seed';
import { Browser, startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** Login, the current user, logout, sessions and throttling, through the real gateway. */

let gw: GatewayFixture;

beforeAll(async () => {
  gw = await startGatewayFixture();
});

afterAll(async () => {
  await gw?.cleanup();
});

describe('login', () => {
  it('when a field is missing or of the wrong type, then the answer is 400 with the spec message', async () => {
    const browser = gw.browser();
    const cases: Array<[unknown, string]> = [
      [{}, 'Username is required'],
      [{ password: 'x' }, 'Username is required'],
      [{ username: '   ', password: 'x' }, 'Username is required'],
      [{ username: 'someone' }, 'Password is required'],
      [{ username: 'someone', password: '' }, 'Password is required'],
      [{ username: 42, password: true }, 'Username is required'],
    ];
    for (const [body, message] of cases) {
      const answer = await browser.post('/api/login', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error).toBe(message);
    }
  });

  it('when the body is not valid JSON, then the answer is a clear 400', async () => {
    const answer = await gw.browser().request('POST', '/api/login', {
      body: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('Request body is not valid JSON');
  });

  it('when the password is wrong or the user unknown, then both get the same 401 answer', async () => {
    const { user } = await gw.createAgent();
    const wrongPassword = await gw.browser().post('/api/login', { username: user.username, password: 'not-the-password' });
    const unknownUser = await gw.browser().post('/api/login', { username: 'nobody_by_that_name', password: 'not-the-password' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    expect(wrongPassword.json).toEqual({ error: 'Invalid credentials' });
    expect(unknownUser.text).toBe(wrongPassword.text);
  });

  it('when an agent logs in, then the answer is the public user and a secure session cookie is set', async () => {
    const { user, password } = await gw.createAgent({ firstName: 'Dana', role: 'Agency Owner' });
    const browser = gw.browser();
    // Usernames are case-insensitive.
    const answer = await browser.post('/api/login', { username: user.username.toUpperCase(), password });

    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      id: user.id,
      username: user.username,
      email: user.email,
      firstName: 'Dana',
      lastName: 'Agent',
      phone: '',
      agencyName: '',
      role: 'Agency Owner',
      isAdmin: false,
      liveTransferPrice: '35.00',
      createdAt: user.createdAt.toISOString(),
      firstLogin: true,
    });
    expect(answer.text).not.toContain('$argon2');
    expect(answer.text).not.toContain(password);
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith('warmline.sid='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//i);
    // Plain http here; behind an https proxy the cookie is Secure (see the next test).
    expect(cookie).not.toMatch(/; Secure/i);
  });

  it('when an agent logs in for the first time, then the answer says firstLogin, and every later login (password or e-mail) says it is not', async () => {
    const { user, password } = await gw.createAgent();
    const first = await gw.browser().post('/api/login', { username: user.username, password });
    expect(first.status).toBe(200);
    expect(first.json.firstLogin).toBe(true);
    // A refused attempt is no sign-in and changes nothing.
    expect((await gw.browser().post('/api/login', { username: user.username, password: 'wrong-password' })).status).toBe(401);
    const second = await gw.browser().post('/api/login', { username: user.username, password });
    expect(second.json.firstLogin).toBe(false);
    const third = await gw.browser().post('/api/login', { username: user.email, password });
    expect(third.json.firstLogin).toBe(false);
    // The current user is the public user only: firstLogin belongs to the login's answer.
    const browser = gw.browser();
    await browser.login(user.username, password);
    expect((await browser.get('/api/current-user')).json).not.toHaveProperty('firstLogin');
  });

  it('when two first logins of one agent arrive at once, then exactly one of them is the first', async () => {
    const { user, password } = await gw.createAgent();
    const answers = await Promise.all([1, 2].map(() => gw.browser().post('/api/login', { username: user.username, password })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.json.firstLogin).sort()).toEqual([false, true]);
  });

  it('when an agent logs in with their e-mail address in any case, then it is their session; a wrong password by e-mail is the same 401', async () => {
    const { user, password } = await gw.createAgent({ firstName: 'Dana' });
    const browser = gw.browser();
    const answer = await browser.post('/api/login', { username: `  ${user.email.toUpperCase()} `, password });
    expect(answer.status).toBe(200);
    expect(answer.json.id).toBe(user.id);
    expect(answer.json.username).toBe(user.username);
    expect((await browser.get('/api/current-user')).json.id).toBe(user.id);

    const wrong = await gw.browser().post('/api/login', { username: user.email, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'Invalid credentials' });
    const unknown = await gw.browser().post('/api/login', { username: 'nobody@example.com', password: 'not-the-password' });
    expect(unknown.text).toBe(wrong.text);
  });

  it("when one agent's username is another's e-mail address, then that text logs in the username's owner", async () => {
    const owner = await gw.createAgent();
    const namesake = await gw.createAgent({ username: owner.user.email, email: `other_${owner.user.email}` });
    const byText = await gw.browser().post('/api/login', { username: owner.user.email, password: namesake.password });
    expect(byText.status).toBe(200);
    expect(byText.json.id).toBe(namesake.user.id);
    // The e-mail's owner is not reachable by that text with their own password: it names the other account.
    expect((await gw.browser().post('/api/login', { username: owner.user.email, password: owner.password })).status).toBe(401);
    expect((await gw.browser().post('/api/login', { username: owner.user.username, password: owner.password })).status).toBe(200);
  });

  it('when the request arrived over https through a trusted proxy, then the session cookie is Secure', async () => {
    const { user, password } = await gw.createAgent();
    const answer = await gw.browser().post('/api/login', { username: user.username, password }, {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.getSetCookie().find((c) => c.startsWith('warmline.sid='))).toMatch(/; Secure/i);
  });

  it('when the first admin logs in, then the answer says isAdmin', async () => {
    const answer = await gw.browser().post('/api/login', gw.admin);
    expect(answer.status).toBe(200);
    expect(answer.json.isAdmin).toBe(true);
    expect(answer.json.username).toBe(gw.admin.username);
  });

  it('when someone logs in again, then the session gets a new id and the old id no longer works', async () => {
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);
    const firstCookie = browser.sessionCookie!;
    const firstId = browser.sessionId;

    await browser.login(user.username, password);
    expect(browser.sessionId).toBeDefined();
    expect(browser.sessionId).not.toBe(firstId);

    const replay = new Browser(gw.url);
    replay.cookies.set('warmline.sid', firstCookie);
    expect((await replay.get('/api/current-user')).status).toBe(401);
    expect((await browser.get('/api/current-user')).status).toBe(200);
  });
});

describe('current user and logout', () => {
  it('when nobody is logged in, then current-user answers 401 Not authenticated', async () => {
    const answer = await gw.browser().get('/api/current-user');
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({ error: 'Not authenticated' });
  });

  it('when an agent with a session asks, then current-user returns that agent without any hash', async () => {
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);
    const answer = await browser.get('/api/current-user');
    expect(answer.status).toBe(200);
    expect(answer.json.id).toBe(user.id);
    expect(answer.json.isAdmin).toBe(false);
    expect(answer.text).not.toContain('$argon2');
  });

  it('when an agent logs out, then they are redirected to /login and the session is gone for good', async () => {
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);
    const cookieBefore = browser.sessionCookie!;

    const answer = await browser.get('/api/logout');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/login');
    expect(browser.sessionCookie).toBeUndefined();
    expect((await browser.get('/api/current-user')).status).toBe(401);

    // The old cookie, replayed, does not bring the session back.
    const replay = new Browser(gw.url);
    replay.cookies.set('warmline.sid', cookieBefore);
    expect((await replay.get('/api/current-user')).status).toBe(401);
  });

  it('when a session was opened longer ago than the absolute lifetime, then it is ended even if active', async () => {
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);
    const redis = createClient({ url: TEST_REDIS_URL });
    await redis.connect();
    try {
      const key = `${gw.config.REDIS_PREFIX}sess:${browser.sessionId}`;
      // The idle expiry is the key's TTL, pushed forward by each request.
      const ttl = await redis.ttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(gw.config.SESSION_IDLE_MINUTES * 60);
      // Pretend the login happened just over SESSION_ABSOLUTE_HOURS ago.
      const stored = JSON.parse((await redis.get(key))!) as { loginAt: number };
      stored.loginAt = Date.now() - gw.config.SESSION_ABSOLUTE_HOURS * 3_600_000 - 60_000;
      await redis.set(key, JSON.stringify(stored), { expiration: { type: 'EX', value: ttl } });

      expect((await browser.get('/api/current-user')).status).toBe(401);
      expect(await redis.exists(key)).toBe(0);
    } finally {
      await redis.close();
    }
  });
});

describe('login throttling', () => {
  it('when a username has 5 failed attempts, then the next attempt is refused with 429 and Retry-After, even with the right password', async () => {
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    const ip = { 'x-forwarded-for': '198.51.100.7' };
    for (let i = 0; i < 5; i++) {
      expect((await browser.post('/api/login', { username: user.username, password: 'wrong-password' }, { headers: ip })).status).toBe(401);
    }
    const refused = await browser.post('/api/login', { username: user.username, password }, { headers: ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.json.error).toMatch(/^Too many failed login attempts\. Please try again in \d+ minutes?\.$/);

    // Another user from the same address is not affected.
    const other = await gw.createAgent();
    expect((await browser.post('/api/login', { username: other.user.username, password: other.password }, { headers: ip })).status).toBe(200);
  });

  it('when failures alternate between the username and the e-mail address, then they count together for the account', async () => {
    const { user, password } = await gw.createAgent();
    const ip = { 'x-forwarded-for': '198.51.100.9' };
    const browser = gw.browser();
    for (let i = 0; i < 5; i++) {
      const typed = i % 2 === 0 ? user.username : user.email.toUpperCase();
      expect((await browser.post('/api/login', { username: typed, password: 'wrong-password' }, { headers: ip })).status).toBe(401);
    }
    expect((await browser.post('/api/login', { username: user.email, password }, { headers: ip })).status).toBe(429);
    expect((await browser.post('/api/login', { username: user.username, password }, { headers: ip })).status).toBe(429);
  });

  it('when a login succeeds, then the failures counted for that username start again from zero', async () => {
    const { user, password } = await gw.createAgent();
    const ip = { 'x-forwarded-for': '198.51.100.8' };
    const browser = gw.browser();
    for (let i = 0; i < 4; i++) await browser.post('/api/login', { username: user.username, password: 'wrong' }, { headers: ip });
    await browser.post('/api/login', { username: user.username, password }, { headers: ip });
    for (let i = 0; i < 4; i++) await browser.post('/api/login', { username: user.username, password: 'wrong' }, { headers: ip });
    expect((await browser.post('/api/login', { username: user.username, password }, { headers: ip })).status).toBe(200);
  });

  it('when 100 wrong passwords for one user arrive at once, then at most the limit of 5 are checked and the rest get 429', async () => {
    const { user, password } = await gw.createAgent();
    // Each guess from its own address, so only the per-username count can stop them.
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        gw.browser().post('/api/login', { username: user.username, password: `guess-${i}` }, {
          headers: { 'x-forwarded-for': `198.18.${Math.floor(i / 200)}.${(i % 200) + 1}` },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(95);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // The right password is refused as well until the window ends.
    const refused = await gw.browser().post('/api/login', { username: user.username, password }, { headers: { 'x-forwarded-for': '198.18.9.9' } });
    expect(refused.status).toBe(429);
  });

  it('when someone from a shared address logs in successfully many times, then those logins do not use up the address allowance', async () => {
    const ip = { 'x-forwarded-for': '203.0.113.60' };
    for (let i = 0; i < 22; i++) {
      const { user, password } = await gw.createAgent();
      expect((await gw.browser().post('/api/login', { username: user.username, password }, { headers: ip })).status).toBe(200);
    }
  });

  it('when one address fails 20 times across usernames, then further logins from it are refused with 429', async () => {
    const ip = { 'x-forwarded-for': '203.0.113.50' };
    const browser = gw.browser();
    for (let i = 0; i < 20; i++) {
      const answer = await browser.post('/api/login', { username: `guess_${i}`, password: 'guess' }, { headers: ip });
      expect(answer.status).toBe(401);
    }
    const { user, password } = await gw.createAgent();
    const refused = await browser.post('/api/login', { username: user.username, password }, { headers: ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same user from elsewhere still gets in.
    expect((await browser.post('/api/login', { username: user.username, password }, { headers: { 'x-forwarded-for': '203.0.113.51' } })).status).toBe(200);
  });
});

describe('first admin', () => {
  it('when an admin already exists, then ADMIN_USERNAME at a later start creates no second admin', async () => {
    const admins = async () =>
      (await gw.pool.query<{ username: string }>('SELECT username FROM users WHERE is_admin ORDER BY username')).rows.map((r) => r.username);
    const before = await admins();
    expect(before).toContain(gw.admin.username);
    await ensureFirstAdmin(gw.pool, { username: 'another_admin', password: 'another-password' }, createLogger('test', 'silent'));
    expect(await admins()).toEqual(before);
  });
});

describe('demo accounts', () => {
  it('when the demo seed runs twice, then the accounts are created once and both can log in', async () => {
    const accounts = {
      admin: { username: 'demo_admin', password: 'demo-admin-password', email: 'demo.admin@example.com' },
      agent: { username: 'demo_agent', password: 'demo-agent-password', email: 'demo.agent@example.com', role: 'Agency Owner' as const },
    };
    expect(await seedDemoAccounts(gw.pool, accounts)).toEqual({ admin: 'created', agent: 'created' });
    expect(await seedDemoAccounts(gw.pool, accounts)).toEqual({ admin: 'unchanged', agent: 'unchanged' });

    const admin = await gw.browser().post('/api/login', { username: 'demo_admin', password: 'demo-admin-password' });
    expect(admin.json).toEqual(expect.objectContaining({ isAdmin: true, email: 'demo.admin@example.com' }));
    const agent = await gw.browser().post('/api/login', { username: 'demo_agent', password: 'demo-agent-password' });
    expect(agent.json).toEqual(expect.objectContaining({ isAdmin: false, role: 'Agency Owner', agencyName: 'Demo Agency' }));
  });

  it('when var/local.env got new demo passwords, then the next seed gives the existing demo accounts those passwords', async () => {
    const first = {
      admin: { username: 'demo_admin2', password: 'first-admin-password', email: 'demo.admin2@example.com' },
      agent: { username: 'demo_agent2', password: 'first-agent-password', email: 'demo.agent2@example.com' },
    };
    await seedDemoAccounts(gw.pool, first);
    const regenerated = {
      admin: { ...first.admin, password: 'second-admin-password' },
      agent: { ...first.agent, password: 'second-agent-password' },
    };
    expect(await seedDemoAccounts(gw.pool, regenerated)).toEqual({ admin: 'reset', agent: 'reset' });

    expect((await gw.browser().post('/api/login', { username: 'demo_admin2', password: 'second-admin-password' })).status).toBe(200);
    expect((await gw.browser().post('/api/login', { username: 'demo_agent2', password: 'first-agent-password' })).status).toBe(401);
  });

  it('when a customer already holds the demo admin username, then the seed refuses instead of promoting them', async () => {
    await seedDemoAccounts(gw.pool, {
      admin: { username: 'demo_admin3', password: 'admin-password-3', email: 'demo.admin3@example.com' },
      agent: { username: 'taken_by_agent', password: 'agent-password-3', email: 'taken.by.agent@example.com' },
    });
    await expect(
      seedDemoAccounts(gw.pool, {
        admin: { username: 'taken_by_agent', password: 'admin-password-4', email: 'demo.admin4@example.com' },
        agent: { username: 'demo_agent4', password: 'agent-password-4', email: 'demo.agent4@example.com' },
      }),
    ).rejects.toThrow("Cannot seed 'taken_by_agent': an account with that username exists with another role");
  });
});

describe('the SPA and unknown routes', () => {
  it('when a browser opens a deep link, then it gets the SPA index; an unknown /api route is a JSON 404', async () => {
    const browser = gw.browser();
    const page = await browser.get('/reset-password?token=abc');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');

    const api = await browser.get('/api/no-such-route');
    expect(api.status).toBe(404);
    expect(api.json.error).toMatch(/Not found/);

    expect((await browser.get('/assets/missing.js')).status).toBe(404);
  });

  it('when every dependency answers, then /readyz reports postgres, redis and rabbitmq ready', async () => {
    // On the internal listener: the public port serves no readiness details.
    const answer = await new Browser(gw.internalUrl).get('/readyz');
    expect(answer.status).toBe(200);
    expect(answer.json.checks).toEqual({ postgres: 'ok', redis: 'ok', rabbitmq: 'ok' });
  });
});
