import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@warmline/platform';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { gatewayEnv } from '../src/config';
import { totpCode, totpStep } from '../src/domain/totp';
import { SESSION_SECRET, startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';
import { fromBase32 } from './totp-secret';

/**
 * The second factor (issue 11, medium 7): TOTP enrolment with a QR code and recovery codes,
 * a code at every login once enrolled, and admins forced to enrol when it is required (as
 * in production). Codes are computed here with the same RFC 6238 function an app uses.
 */

let gw: GatewayFixture;

beforeAll(async () => {
  gw = await startGatewayFixture({ env: { TWO_FACTOR_REQUIRED_FOR_ADMINS: 'true' } });
});

afterAll(async () => {
  await gw?.cleanup();
});

let visitors = 0;
function visitor(): Browser {
  visitors += 1;
  return gw.browser({ ip: `10.99.0.${visitors}` });
}

function secretOf(otpauthUrl: string): Buffer {
  return fromBase32(new URL(otpauthUrl).searchParams.get('secret')!);
}

/** The app's code now, or `offset` steps later. */
function codeFor(secret: Buffer, offset = 0): string {
  return totpCode(secret, totpStep() + offset);
}

async function enrolledAgent() {
  const { user, password } = await gw.createAgent();
  const browser = visitor();
  await browser.login(user.username, password);
  const enrolment = await browser.post('/api/two-factor/enrol', { currentPassword: password });
  const secret = secretOf(enrolment.json.otpauthUrl);
  expect((await browser.post('/api/two-factor/confirm', { code: codeFor(secret), currentPassword: password })).status).toBe(200);
  return { user, password, secret, recoveryCodes: enrolment.json.recoveryCodes as string[] };
}

describe('TOTP (RFC 6238)', () => {
  it('when given the RFC test secret, then the codes are those of its appendix B (last 6 digits)', () => {
    const secret = Buffer.from('12345678901234567890');
    expect(totpCode(secret, Math.floor(59 / 30))).toBe('287082');
    expect(totpCode(secret, Math.floor(1111111109 / 30))).toBe('081804');
    expect(totpCode(secret, Math.floor(1234567890 / 30))).toBe('005924');
    expect(totpCode(secret, Math.floor(20000000000 / 30))).toBe('353130');
  });

  it('when NODE_ENV is production, then admins must have a second factor; in development it is only offered', () => {
    const base = { SESSION_SECRET, ...TEST_KEYS };
    expect(parseConfig(gatewayEnv, { ...base, NODE_ENV: 'development' }).TWO_FACTOR_REQUIRED_FOR_ADMINS).toBeUndefined();
    expect(parseConfig(gatewayEnv, { ...base, TWO_FACTOR_REQUIRED_FOR_ADMINS: 'true' }).TWO_FACTOR_REQUIRED_FOR_ADMINS).toBe(true);
    expect(() => parseConfig(gatewayEnv, { ...base, TOTP_ENCRYPTION_KEY: 'short' })).toThrow(/TOTP_ENCRYPTION_KEY/);
  });
});

describe('an agent enrols (offered, not forced)', () => {
  it('when an agent enrols, then they get an otpauth URL, a QR code and ten recovery codes, and a first code turns it on', async () => {
    const { user, password } = await gw.createAgent();
    const browser = visitor();
    expect((await browser.post('/api/login', { username: user.username, password })).json.id).toBe(user.id);
    expect((await browser.get('/api/two-factor')).json).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });

    const enrolment = await browser.post('/api/two-factor/enrol', { currentPassword: password });
    expect(enrolment.status).toBe(200);
    expect(enrolment.json.otpauthUrl).toMatch(new RegExp(`^otpauth://totp/WarmLine:${user.username}\\?secret=[A-Z2-7]{32}&issuer=WarmLine`));
    expect(enrolment.json.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(enrolment.json.qrCode.split(',')[1], 'base64').toString()).toContain('<svg');
    expect(enrolment.json.recoveryCodes).toHaveLength(10);
    expect(new Set(enrolment.json.recoveryCodes).size).toBe(10);
    const secret = secretOf(enrolment.json.otpauthUrl);

    // Stored encrypted and hashed: neither the secret nor a recovery code is readable in the database.
    const stored = JSON.stringify((await gw.pool.query('SELECT * FROM two_factor_secrets s JOIN two_factor_recovery_codes c USING (user_id) WHERE user_id = $1', [user.id])).rows);
    expect(stored).not.toContain(enrolment.json.secret);
    expect(stored).not.toContain(secret.toString('hex'));
    for (const code of enrolment.json.recoveryCodes) expect(stored).not.toContain(code);

    // Not on until confirmed: a login now still needs only the password.
    expect((await visitor().post('/api/login', { username: user.username, password })).json.id).toBe(user.id);
    const wrong = await browser.post('/api/two-factor/confirm', { code: '000000' === codeFor(secret) ? '111111' : '000000', currentPassword: password });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('Invalid code');
    const confirmed = await browser.post('/api/two-factor/confirm', { code: codeFor(secret), currentPassword: password });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    expect((await browser.get('/api/current-user')).status).toBe(200);
  });

  it('when an enrolled agent logs in, then the password alone opens nothing, and a code completes the login once', async () => {
    const { user, password, secret } = await enrolledAgent();
    const browser = visitor();
    const first = await browser.post('/api/login', { username: user.username, password });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ twoFactorRequired: true });
    expect((await browser.get('/api/current-user')).status).toBe(401);
    expect((await browser.get('/api/user-survey')).status).toBe(401);

    const code = codeFor(secret, 1);
    const wrong = await browser.post('/api/login/verify-code', { code: code === '123456' ? '654321' : '123456' });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('Invalid code');
    const sessionBefore = browser.sessionId;
    const done = await browser.post('/api/login/verify-code', { code });
    expect(done.status).toBe(200);
    expect(done.json.id).toBe(user.id);
    // The code completes a sign-in like the password does; the agent signed in before enrolling.
    expect(done.json.firstLogin).toBe(false);
    expect(browser.sessionId).not.toBe(sessionBefore);
    expect((await browser.get('/api/current-user')).json.id).toBe(user.id);

    // The same code (or an older one) never works twice.
    const again = visitor();
    expect((await again.post('/api/login', { username: user.username, password })).json).toEqual({ twoFactorRequired: true });
    expect((await again.post('/api/login/verify-code', { code })).status).toBe(401);
    expect((await again.post('/api/login/verify-code', { code: codeFor(secret) })).status).toBe(401);
  });

  it('when a recovery code is given instead, then it works once', async () => {
    const { user, password, recoveryCodes } = await enrolledAgent();
    const browser = visitor();
    await browser.post('/api/login', { username: user.username, password });
    expect((await browser.post('/api/login/verify-code', { code: recoveryCodes[3]!.toUpperCase() })).status).toBe(200);
    expect((await browser.get('/api/two-factor')).json.recoveryCodesLeft).toBe(9);

    const again = visitor();
    await again.post('/api/login', { username: user.username, password });
    expect((await again.post('/api/login/verify-code', { code: recoveryCodes[3] })).status).toBe(401);
  });

  it('when wrong codes are guessed 5 times, then further codes are refused with 429', async () => {
    const { user, password, secret } = await enrolledAgent();
    const browser = visitor();
    await browser.post('/api/login', { username: user.username, password });
    const right = codeFor(secret, 1);
    for (let i = 0; i < 5; i++) {
      const guess = String(100000 + i);
      expect((await browser.post('/api/login/verify-code', { code: guess === right ? '999999' : guess })).status).toBe(401);
    }
    expect((await browser.post('/api/login/verify-code', { code: right })).status).toBe(429);
  });

  it('when nobody entered a password, then verify-code and enrolment answer 401', async () => {
    const browser = visitor();
    expect((await browser.post('/api/login/verify-code', { code: '123456' })).status).toBe(401);
    expect((await browser.post('/api/two-factor/enrol', {})).status).toBe(401);
    expect((await browser.post('/api/two-factor/confirm', { code: '123456' })).status).toBe(401);
    expect((await browser.get('/api/two-factor')).status).toBe(401);
    expect((await browser.post('/api/two-factor/disable', { code: '123456' })).status).toBe(401);
  });

  it('when an agent turns it off with a code, then logins need only the password again', async () => {
    const { user, password, secret, recoveryCodes } = await enrolledAgent();
    const browser = visitor();
    await browser.post('/api/login', { username: user.username, password });
    await browser.post('/api/login/verify-code', { code: codeFor(secret, 1) });
    expect((await browser.post('/api/two-factor/disable', { code: 'not-a-code', currentPassword: password })).status).toBe(401);
    // The app's codes up to now+1 are used up by that login; a recovery code also proves it.
    const off = await browser.post('/api/two-factor/disable', { code: recoveryCodes[0], currentPassword: password });
    expect(off.status).toBe(200);
    expect(off.json.enabled).toBe(false);
    expect((await visitor().post('/api/login', { username: user.username, password })).json.id).toBe(user.id);
  });

  it('when an agent turns it on and then off (issue 22), then each change asks for an e-mail to them saying so; a refused code asks for none', async () => {
    const { user, password, recoveryCodes } = await enrolledAgent();
    const browser = visitor();
    await browser.post('/api/login', { username: user.username, password });
    // Past the login's second step with a recovery code; a wrong code to turn it off changes nothing.
    await browser.post('/api/login/verify-code', { code: recoveryCodes[1] });
    expect((await browser.post('/api/two-factor/disable', { code: '000000', currentPassword: password })).status).toBe(401);
    expect((await browser.post('/api/two-factor/disable', { code: recoveryCodes[0], currentPassword: password })).status).toBe(200);

    const { rows } = await gw.pool.query<{ data: Record<string, unknown> }>(
      "SELECT envelope->'data' AS data FROM outbox WHERE routing_key = 'email.account_security' AND envelope->'data'->>'to' = $1 ORDER BY created_at",
      [user.email],
    );
    expect(rows.map((r) => r.data)).toEqual([
      { to: user.email, name: user.firstName, username: user.username, change: 'two_factor_on', changedAt: expect.any(String) },
      { to: user.email, name: user.firstName, username: user.username, change: 'two_factor_off', changedAt: expect.any(String) },
    ]);
  });
});

describe('the current password is asked again (a session left open is not the account)', () => {
  it('when a logged-in agent enrols or confirms without their current password, or with a wrong one, then nothing changes', async () => {
    const { user, password } = await gw.createAgent();
    const browser = visitor();
    await browser.login(user.username, password);

    const missing = await browser.post('/api/two-factor/enrol', {});
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('Current password is required');
    const wrong = await browser.post('/api/two-factor/enrol', { currentPassword: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('Current password is incorrect');

    const enrolment = await browser.post('/api/two-factor/enrol', { currentPassword: password });
    expect(enrolment.status).toBe(200);
    const secret = secretOf(enrolment.json.otpauthUrl);
    const unconfirmed = await browser.post('/api/two-factor/confirm', { code: codeFor(secret) });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.json.error).toBe('Current password is required');
    expect((await browser.post('/api/two-factor/confirm', { code: codeFor(secret), currentPassword: 'nope nope' })).json.error).toBe('Current password is incorrect');
    expect((await browser.get('/api/two-factor')).json.enabled).toBe(false);
    expect((await browser.post('/api/two-factor/confirm', { code: codeFor(secret), currentPassword: password })).json.enabled).toBe(true);
  });

  it('when an enrolled agent turns it off with a code but without the right current password, then it stays on', async () => {
    const { user, password, recoveryCodes } = await enrolledAgent();
    const browser = visitor();
    await browser.post('/api/login', { username: user.username, password });
    await browser.post('/api/login/verify-code', { code: recoveryCodes[1] });

    const missing = await browser.post('/api/two-factor/disable', { code: recoveryCodes[0] });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('Current password is required');
    const wrong = await browser.post('/api/two-factor/disable', { code: recoveryCodes[0], currentPassword: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('Current password is incorrect');
    expect((await browser.get('/api/two-factor')).json.enabled).toBe(true);
    expect((await browser.post('/api/two-factor/disable', { code: recoveryCodes[0], currentPassword: password })).json.enabled).toBe(false);
  });
});

describe('admins when a second factor is required (production)', () => {
  it('when an admin without one logs in, then they must enrol before anything, and give a code at every later login', async () => {
    const { user, password } = await gw.createAgent();
    await gw.pool.query('UPDATE users SET is_admin = true WHERE id = $1', [user.id]);
    const browser = visitor();

    const login = await browser.post('/api/login', { username: user.username, password });
    expect(login.json).toEqual({ twoFactorEnrolmentRequired: true });
    expect((await browser.get('/api/users')).status).toBe(401);
    expect((await browser.post('/api/login/verify-code', { code: '123456' })).status).toBe(401);
    expect((await browser.get('/api/two-factor')).json).toEqual({ enabled: false, required: true, recoveryCodesLeft: 0 });

    const enrolment = await browser.post('/api/two-factor/enrol', {});
    const secret = secretOf(enrolment.json.otpauthUrl);
    const confirmed = await browser.post('/api/two-factor/confirm', { code: codeFor(secret) });
    expect(confirmed.status).toBe(200);
    // The enrolment completed the admin's first sign-in; the password step alone was none.
    expect(confirmed.json.user).toMatchObject({ id: user.id, isAdmin: true, firstLogin: true });
    expect((await browser.get('/api/users')).status).toBe(200);

    // They cannot turn it off.
    const off = await browser.post('/api/two-factor/disable', { code: codeFor(secret, 1), currentPassword: password });
    expect(off.status).toBe(400);
    expect(off.json.error).toBe('Admins must keep two-factor authentication on');

    const later = visitor();
    expect((await later.post('/api/login', { username: user.username, password })).json).toEqual({ twoFactorRequired: true });
    expect((await later.get('/api/users')).status).toBe(401);
    const second = await later.post('/api/login/verify-code', { code: codeFor(secret, 1) });
    expect(second.status).toBe(200);
    expect(second.json.firstLogin).toBe(false);
    expect((await later.get('/api/users')).status).toBe(200);
  });
});
