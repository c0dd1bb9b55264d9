import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';
import { surveyAnswers, type Respondent } from './survey-answers';

/**
 * Password rules (issue 11, medium 6): at least 8 characters and not a common password
 * wherever one is chosen; a user changes their own password with the current one; an admin
 * change or a reset ends the user's sessions and voids their other reset links.
 */

let gw: GatewayFixture;

beforeAll(async () => {
  gw = await startGatewayFixture();
});

afterAll(async () => {
  await gw?.cleanup();
});

let visitors = 0;
function visitor(): Browser {
  visitors += 1;
  return gw.browser({ ip: `10.88.0.${visitors}` });
}

const PAT_LEE: Respondent = { firstName: 'Pat', lastName: 'Lee', agencyName: 'Lee Insurance', role: 'Insurance Agent', phone: '(555) 123-4567', stem: 'pat' };

function survey(password: string): Record<string, unknown> {
  return surveyAnswers(PAT_LEE, { password, leadType: 'Aged Leads', ageRange: '30-60' });
}

/** A reset link of `userId`, written as the reset flow writes it (only its hash is stored). */
async function resetLinkFor(userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await gw.pool.query(
    "INSERT INTO password_reset_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')",
    [createHash('sha256').update(token).digest('hex'), userId],
  );
  return token;
}

async function adminBrowser(): Promise<Browser> {
  const browser = visitor();
  await browser.login(gw.admin.username, gw.admin.password);
  return browser;
}

describe('choosing a password', () => {
  it('when a survey, a reset or an admin change gives a 7-character password, then it is refused with the 8-character message', async () => {
    const { user } = await gw.createAgent();
    const admin = await adminBrowser();
    const answers = [
      await visitor().post('/api/survey', survey('abc1234')),
      await visitor().post('/api/reset-password', { token: await resetLinkFor(user.id), password: 'abc1234' }),
      await admin.post(`/api/users/${user.id}/change-password`, { newPassword: 'abc1234' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.json.error).toBe('Password must be at least 8 characters');
    }
  });

  it('when a password is on the list of common passwords (in any letter case), then it is refused as too common everywhere', async () => {
    const { user, password } = await gw.createAgent();
    const admin = await adminBrowser();
    const own = visitor();
    await own.login(user.username, password);
    const answers = [
      await visitor().post('/api/survey', survey('Password1')),
      await visitor().post('/api/reset-password', { token: await resetLinkFor(user.id), password: 'iloveyou1' }),
      await admin.post(`/api/users/${user.id}/change-password`, { newPassword: 'QWERTYUIOP' }),
      await own.post('/api/change-password', { currentPassword: password, newPassword: '12345678' }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.json.error).toBe('This password is too common');
    }
    expect((await visitor().post('/api/survey', survey('a quiet harbor at dusk'))).status).toBe(201);
  });
});

describe('changing my own password (POST /api/change-password)', () => {
  it('when nobody is logged in, then the answer is 401', async () => {
    const answer = await visitor().post('/api/change-password', { currentPassword: 'x', newPassword: 'a quiet harbor at dusk' });
    expect(answer.status).toBe(401);
  });

  it('when the current password is wrong, then the answer is 400 and the password stays', async () => {
    const { user, password } = await gw.createAgent();
    const browser = visitor();
    await browser.login(user.username, password);
    const answer = await browser.post('/api/change-password', { currentPassword: 'not my password', newPassword: 'a quiet harbor at dusk' });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('Current password is incorrect');
    expect((await visitor().post('/api/login', { username: user.username, password })).status).toBe(200);
  });

  it('when an agent changes it, then only the new one works, their other sessions and reset links end, and this session stays', async () => {
    const { user, password } = await gw.createAgent();
    const here = visitor();
    await here.login(user.username, password);
    const elsewhere = visitor();
    await elsewhere.login(user.username, password);
    const link = await resetLinkFor(user.id);

    const answer = await here.post('/api/change-password', { currentPassword: password, newPassword: 'a quiet harbor at dusk' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ message: 'Password changed' });

    expect((await here.get('/api/current-user')).status).toBe(200);
    expect((await elsewhere.get('/api/current-user')).status).toBe(401);
    expect((await visitor().post('/api/validate-reset-token', { token: link })).json).toEqual({ valid: false });
    expect((await visitor().post('/api/login', { username: user.username, password })).status).toBe(401);
    expect((await visitor().post('/api/login', { username: user.username, password: 'a quiet harbor at dusk' })).status).toBe(200);
  });

  it('when a session guesses the current password 5 times, then further changes are refused with 429', async () => {
    const { user, password } = await gw.createAgent();
    const browser = visitor();
    await browser.login(user.username, password);
    for (let i = 0; i < 5; i++) {
      expect((await browser.post('/api/change-password', { currentPassword: `guess ${i}`, newPassword: 'a quiet harbor at dusk' })).status).toBe(400);
    }
    const refused = await browser.post('/api/change-password', { currentPassword: password, newPassword: 'a quiet harbor at dusk' });
    expect(refused.status).toBe(429);
  });
});

describe('an admin sets a password', () => {
  it('when admins change their own password from User Management, then the current one is asked for, as on the dashboard', async () => {
    const { user, password } = await gw.createAgent();
    await gw.pool.query('UPDATE users SET is_admin = true WHERE id = $1', [user.id]);
    const admin = visitor();
    await admin.login(user.username, password);

    const missing = await admin.post(`/api/users/${user.id}/change-password`, { newPassword: 'a quiet harbor at dusk' });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('Current password is required');
    const wrong = await admin.post(`/api/users/${user.id}/change-password`, { currentPassword: 'not my password', newPassword: 'a quiet harbor at dusk' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('Current password is incorrect');
    expect((await visitor().post('/api/login', { username: user.username, password })).status).toBe(200);

    const right = await admin.post(`/api/users/${user.id}/change-password`, { currentPassword: password, newPassword: 'a quiet harbor at dusk' });
    expect(right.status).toBe(200);
    expect((await visitor().post('/api/login', { username: user.username, password: 'a quiet harbor at dusk' })).status).toBe(200);
  });

  it("when an admin changes an agent's password, then the agent's sessions end and their reset links stop working", async () => {
    const { user, password } = await gw.createAgent();
    const agent = visitor();
    await agent.login(user.username, password);
    const link = await resetLinkFor(user.id);
    const admin = await adminBrowser();

    expect((await admin.post(`/api/users/${user.id}/change-password`, { newPassword: 'a quiet harbor at dusk' })).status).toBe(200);
    expect((await agent.get('/api/current-user')).status).toBe(401);
    expect((await visitor().post('/api/validate-reset-token', { token: link })).json).toEqual({ valid: false });
    const reset = await visitor().post('/api/reset-password', { token: link, password: 'another quiet harbor' });
    expect(reset.status).toBe(400);
  });
});
