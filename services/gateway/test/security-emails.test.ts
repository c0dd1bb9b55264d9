import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@warmline/platform/testing/index';
import { mailsTo } from '@warmline/platform/testing/mail';
import { totpCode, totpStep } from '../src/domain/totp';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';
import { fromBase32 } from './totp-secret';

/**
 * The security e-mails (issue 22 item 12): a user hears, in their inbox, of every change to how
 * they sign in — a password reset with a link, changed by themselves or set by an admin (two-
 * factor: two-factor.test.ts). Read from the .eml files the notifications worker delivered.
 */

let gw: GatewayFixture;
let mailDir: string;

beforeAll(async () => {
  gw = await startGatewayFixture();
  ({ mailDir } = await gw.startMailWorker());
}, 60_000);

afterAll(async () => {
  await gw?.cleanup();
});

/** The first e-mail to `to` whose subject is `subject`, once delivered. */
function mailWithSubject(to: string, subject: string): Promise<string> {
  return waitFor(`'${subject}' to ${to}`, async () => (await mailsTo(mailDir, to)).find((m) => new RegExp(`^Subject: ${subject}$`, 'm').test(m)), { timeoutMs: 20_000 });
}

describe('security e-mails', () => {
  it('when an agent changes their own password, then they get an e-mail saying so, with when, their username and what to do if it was not them — never the password', async () => {
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);
    const newPassword = 'a-changed-password-22';
    expect((await browser.post('/api/change-password', { currentPassword: password, newPassword })).status).toBe(200);

    const mail = await mailWithSubject(user.email, 'Your WarmLine password was changed');
    expect(mail).toContain(`Hello ${user.firstName},`);
    expect(mail).toContain('The password of your WarmLine account was changed from your account page.');
    expect(mail).toContain(`Account: ${user.username}`);
    expect(mail).toMatch(/When: \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} UTC/);
    expect(mail).toContain('If this was not you');
    expect(mail).toContain(`${gw.config.PUBLIC_URL}/forgot-password`);
    expect(mail).not.toContain(newPassword);
    expect(mail).not.toContain(password);
  });

  it('when a wrong current password is given, then nothing changes and no e-mail is sent', async () => {
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);
    expect((await browser.post('/api/change-password', { currentPassword: 'not-it', newPassword: 'another-password-22' })).status).toBe(400);
    const { rows } = await gw.pool.query("SELECT 1 FROM outbox WHERE routing_key = 'email.account_security' AND envelope->'data'->>'to' = $1", [user.email]);
    expect(rows).toEqual([]);
  });

  it('when an agent resets the password with the e-mailed link, then a second e-mail says it was reset', async () => {
    const { user } = await gw.createAgent();
    expect((await gw.browser().post('/api/forgot-password', { email: user.email })).status).toBe(200);
    const resetMail = await mailWithSubject(user.email, 'Reset your WarmLine password');
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(resetMail)?.[1];
    expect(token).toBeDefined();
    expect((await gw.browser().post('/api/reset-password', { token, password: 'a-reset-password-22' })).status).toBe(200);

    const mail = await mailWithSubject(user.email, 'Your WarmLine password was reset');
    expect(mail).toContain('The password of your WarmLine account was reset with a link we e-mailed you.');
    expect(mail).not.toContain(token!);
  });

  it("when an admin sets an agent's password, then the agent gets an e-mail that an administrator did", async () => {
    const { user } = await gw.createAgent();
    const admin = gw.browser();
    await admin.login(gw.admin.username, gw.admin.password);
    expect((await admin.post(`/api/users/${user.id}/change-password`, { newPassword: 'set-by-admin-22' })).status).toBe(200);

    const mail = await mailWithSubject(user.email, 'Your WarmLine password was changed');
    expect(mail).toContain('A WarmLine administrator set a new password for your account.');
  });

  it("when an admin resets an agent's second factor (a lost phone), then the password alone signs in, the audit log says who, and the agent is e-mailed", async () => {
    const { user, password } = await gw.createAgent();
    const agent = gw.browser();
    await agent.login(user.username, password);
    const enrolment = await agent.post('/api/two-factor/enrol', { currentPassword: password });
    const secret = fromBase32(String(enrolment.json.secret));
    expect((await agent.post('/api/two-factor/confirm', { code: totpCode(secret, totpStep()), currentPassword: password })).status).toBe(200);
    expect((await gw.browser().post('/api/login', { username: user.username, password })).json).toEqual({ twoFactorRequired: true });

    const admin = gw.browser();
    await admin.login(gw.admin.username, gw.admin.password);
    // User Management shows who has a second factor to reset.
    const listed = async () => ((await admin.get(`/api/users?q=${user.username}`)).json as Array<{ id: string; twoFactor: string }>).find((u) => u.id === user.id)?.twoFactor;
    expect(await listed()).toBe('on');
    const reset = await admin.post(`/api/users/${user.id}/reset-two-factor`, {});
    expect(reset.status).toBe(200);
    expect(reset.json).toEqual({ message: 'Two-factor authentication reset' });
    expect((await gw.browser().post('/api/login', { username: user.username, password })).json.id).toBe(user.id);

    const { rows } = await gw.pool.query('SELECT actor_username, action, subject_id FROM audit_log WHERE subject_id = $1', [user.id]);
    expect(rows).toEqual([{ actor_username: gw.admin.username, action: 'user.two_factor_reset', subject_id: user.id }]);
    const mail = await mailWithSubject(user.email, 'Two-factor authentication was reset');
    expect(mail).toContain('A WarmLine administrator turned off two-factor authentication for your account');

    // Nothing to reset now (the list says so); an unknown user is 404; admins change their own from their account page.
    expect(await listed()).toBe('off');
    expect((await admin.post(`/api/users/${user.id}/reset-two-factor`, {})).status).toBe(409);
    expect((await admin.post('/api/users/00000000-0000-4000-8000-000000000000/reset-two-factor', {})).status).toBe(404);
    const adminId = (await admin.get('/api/current-user')).json.id;
    expect((await admin.post(`/api/users/${adminId}/reset-two-factor`, {})).status).toBe(400);
    // Only admins.
    expect((await agent.post(`/api/users/${user.id}/reset-two-factor`, {})).status).toBe(403);
  });
});
