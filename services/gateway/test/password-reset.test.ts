import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import amqp from 'amqplib';
import { brokerManifest, UNROUTED_QUEUE } from '@warmline/contracts';
import { createPool } from '@warmline/platform';
import { pruneBusTables } from '@warmline/platform/bus/index';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { NOTIFICATIONS_SCHEMA } from '@warmline/notifications/service';
import { decodeQuotedPrintable, emlFiles } from '@warmline/platform/testing/mail';
import { GATEWAY_SCHEMA } from '../src/service';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';
import { hashPassword } from '../src/domain/passwords';

// The real hash, watched: a reset with a wrong link must be refused before any hash is spent.
vi.mock('../src/domain/passwords', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/domain/passwords')>();
  return { ...real, hashPassword: vi.fn(real.hashPassword) };
});

/**
 * The whole reset flow as a user lives it: the link is read from the e-mail the notifications
 * worker delivered (an .eml file, as without SMTP_URL), not from the database.
 */

let gw: GatewayFixture;
let mailDir: string;

beforeAll(async () => {
  gw = await startGatewayFixture();
  ({ mailDir } = await gw.startMailWorker());
});

afterAll(async () => {
  await gw?.cleanup();
});

interface DeliveredMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The messages delivered to `to` so far. */
async function mailsTo(to: string): Promise<DeliveredMail[]> {
  const files = await emlFiles(mailDir);
  const mails = await Promise.all(files.map(async (f) => parseEml(await readFile(path.join(mailDir, f), 'utf8'))));
  return mails.filter((m) => m.to === to);
}

function parseEml(eml: string): DeliveredMail {
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(eml)?.[1]?.trim() ?? '';
  const part = (type: string) => {
    const match = new RegExp(`Content-Type: ${type}[^\\n]*\\n(?:[^\\n]+\\n)*?\\n([\\s\\S]*?)\\n--`, 'i').exec(eml);
    const body = match?.[1] ?? '';
    return /Content-Transfer-Encoding: quoted-printable/i.test(match?.[0] ?? '') ? decodeQuotedPrintable(body) : body;
  };
  return { to: header('To'), subject: header('Subject'), text: part('text/plain'), html: part('text/html') };
}

function resetLinkIn(mail: DeliveredMail): URL {
  const link = /(https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no reset link in the e-mail text:\n${mail.text}`);
  return new URL(link);
}

describe('password reset', () => {
  it('when an agent resets the password from the e-mailed link, then only the new password works and old sessions end', async () => {
    const { user, password: oldPassword } = await gw.createAgent();
    const newPassword = 'a-brand-new-password';

    // A session opened before the reset, e.g. on a forgotten laptop.
    const laptop = gw.browser();
    await laptop.login(user.username, oldPassword);
    expect((await laptop.get('/api/current-user')).status).toBe(200);

    const browser = gw.browser();
    const requested = await browser.post('/api/forgot-password', { email: user.email.toUpperCase() });
    expect(requested.status).toBe(200);
    expect(requested.json).toEqual({ message: 'If an account exists for that email, a reset link has been sent.' });

    const [mail] = await waitFor('the reset e-mail to be delivered', async () => {
      const mails = await mailsTo(user.email);
      return mails.length > 0 ? mails : undefined;
    }, { timeoutMs: 20_000 });
    expect(mail!.subject).toBe('Reset your WarmLine password');
    const link = resetLinkIn(mail!);
    expect(`${link.origin}${link.pathname}`).toBe(`${gw.config.PUBLIC_URL}/reset-password`);
    expect(mail!.html).toContain(`href="${link.href.replaceAll('&', '&amp;')}"`);
    const token = link.searchParams.get('token')!;
    // At least 128 bits of randomness: 32 bytes base64url-encoded.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail!.text).toContain('it works once and expires in 1 hour');
    // The mail reminds the user which username they log in with (issue 17 item 8).
    expect(mail!.text).toContain(`Your username is ${user.username}:`);
    // The link travelled as email.password_reset (gateway) and email.send (notifications); once
    // the broker had each, its outbox row no longer holds the link.
    const linkInOutboxes = async () => {
      const { rows } = await gw.pool.query<{ type: string; data: string }>(
        `SELECT routing_key AS type, envelope->>'data' AS data FROM outbox WHERE routing_key = 'email.password_reset'
         UNION ALL
         SELECT routing_key AS type, envelope->>'data' AS data FROM notifications.outbox WHERE routing_key = 'email.send'`,
      );
      return rows;
    };
    expect((await linkInOutboxes()).map((r) => r.type).sort()).toEqual(['email.password_reset', 'email.send']);
    await waitFor('the outbox rows holding the link to be emptied', async () =>
      (await linkInOutboxes()).every((r) => !r.data.includes(token) && !r.data.includes(user.email)),
    );
    // Only the hash is stored.
    const stored = await gw.pool.query<{ token_hash: string }>('SELECT token_hash FROM password_reset_tokens');
    expect(stored.rows.map((r) => r.token_hash)).not.toContain(token);

    expect((await browser.post('/api/validate-reset-token', { token })).json).toEqual({ valid: true });

    const reset = await browser.post('/api/reset-password', { token, password: newPassword });
    expect(reset.status).toBe(200);

    expect((await gw.browser().post('/api/login', { username: user.username, password: oldPassword })).status).toBe(401);
    expect((await gw.browser().post('/api/login', { username: user.username, password: newPassword })).status).toBe(200);
    expect((await laptop.get('/api/current-user')).status).toBe(401);

    // Single use.
    expect((await browser.post('/api/validate-reset-token', { token })).json).toEqual({ valid: false });
    const again = await browser.post('/api/reset-password', { token, password: 'yet-another-password' });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ error: 'Invalid or Expired Link' });

    // The fact is announced without any secret in it.
    const events = await gw.pool.query<{ envelope: { type: string; data: unknown } }>(
      "SELECT envelope FROM outbox WHERE routing_key = 'password_reset.completed'",
    );
    expect(events.rows.map((r) => r.envelope.data)).toContainEqual({ userId: user.id });
  });

  it('when the address has no account, then the answer is the same and no e-mail is sent', async () => {
    const known = await gw.createAgent();
    const unknownAddress = 'nobody-here@example.com';
    const forUnknown = await gw.browser().post('/api/forgot-password', { email: unknownAddress });
    const forKnown = await gw.browser().post('/api/forgot-password', { email: known.user.email });
    expect(forUnknown.status).toBe(200);
    expect(forUnknown.text).toBe(forKnown.text);

    // Once the known address's mail has arrived, the unknown one's would have too.
    await waitFor('the e-mail to the known address', async () => (await mailsTo(known.user.email)).length > 0, { timeoutMs: 20_000 });
    expect(await mailsTo(unknownAddress)).toEqual([]);
  });

  it('when a token is unknown or expired, then it is invalid and cannot reset a password', async () => {
    const { user, password } = await gw.createAgent();
    expect((await gw.browser().post('/api/validate-reset-token', { token: 'made-up-token' })).json).toEqual({ valid: false });
    const madeUp = await gw.browser().post('/api/reset-password', { token: 'made-up-token', password: 'whatever-password' });
    expect(madeUp.status).toBe(400);
    expect(madeUp.json.error).toBe('Invalid or Expired Link');

    await gw.browser().post('/api/forgot-password', { email: user.email });
    const [mail] = await waitFor('the reset e-mail', async () => {
      const mails = await mailsTo(user.email);
      return mails.length > 0 ? mails : undefined;
    }, { timeoutMs: 20_000 });
    const token = resetLinkIn(mail!).searchParams.get('token')!;
    // An hour later…
    await gw.pool.query("UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1", [user.id]);
    expect((await gw.browser().post('/api/validate-reset-token', { token })).json).toEqual({ valid: false });
    const expired = await gw.browser().post('/api/reset-password', { token, password: 'whatever-password' });
    expect(expired.status).toBe(400);
    expect(expired.json.error).toBe('Invalid or Expired Link');
    expect((await gw.browser().post('/api/login', { username: user.username, password })).status).toBe(200);
  });

  it('when the inputs are bad, then the answers are 400 with the spec messages', async () => {
    const browser = gw.browser();
    expect((await browser.post('/api/forgot-password', { email: 'not-an-email' })).json.error).toBe('Please enter a valid email address');
    expect((await browser.post('/api/forgot-password', {})).json.error).toBe('Please enter a valid email address');
    expect((await browser.post('/api/reset-password', { token: 'x', password: 'short' })).json.error).toBe('Password must be at least 8 characters');
    expect((await browser.post('/api/reset-password', { password: 'long-enough' })).json.error).toBe('No reset token');
    expect((await browser.post('/api/validate-reset-token', { token: 7 })).status).toBe(400);
  });

  it('when one address asks for many reset links, then requests beyond the limit get 429 with Retry-After', async () => {
    const browser = gw.browser();
    const email = 'flooded@example.com';
    const ip = { 'x-forwarded-for': '192.0.2.90' };
    for (let i = 0; i < 5; i++) expect((await browser.post('/api/forgot-password', { email }, { headers: ip })).status).toBe(200);
    const refused = await browser.post('/api/forgot-password', { email }, { headers: ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.json.error).toMatch(/^Too many password reset requests/);
  });
});

describe('the reset endpoints against probing', () => {
  it('when the users table is busy, then forgot-password answers at once for a known and an unknown address alike (the lookup happens behind the answer)', async () => {
    const known = await gw.createAgent();
    const locker = await gw.pool.connect();
    try {
      await locker.query('BEGIN');
      // Nothing may read users until this transaction ends.
      await locker.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
      const ask = (email: string) =>
        Promise.race([
          gw.browser({ ip: '192.0.2.120' }).post('/api/forgot-password', { email }),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`forgot-password for ${email} waited on the users table`)), 3000)),
        ]);
      const [forKnown, forUnknown] = await Promise.all([ask(known.user.email), ask('no-account-here@example.com')]);
      expect(forKnown.status).toBe(200);
      expect(forUnknown.text).toBe(forKnown.text);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    await waitFor('the e-mail to the known address', async () => (await mailsTo(known.user.email)).length > 0, { timeoutMs: 20_000 });
    expect(await mailsTo('no-account-here@example.com')).toEqual([]);
  });

  it('when a reset link is made up, then the answer is 400 and no password hash is computed', async () => {
    const hash = vi.mocked(hashPassword);
    hash.mockClear();
    const answer = await gw.browser({ ip: '192.0.2.121' }).post('/api/reset-password', { token: 'made-up-token', password: 'a fine new password' });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('Invalid or Expired Link');
    expect(hash).not.toHaveBeenCalled();
  });

  it('when one address tries more than 20 reset links in 15 minutes, then it is refused with 429 and another address is not', async () => {
    const prober = gw.browser({ ip: '192.0.2.122' });
    for (let i = 0; i < 20; i++) {
      const path = i % 2 === 0 ? '/api/validate-reset-token' : '/api/reset-password';
      const answer = await prober.post(path, { token: `guess-${i}`, password: 'a fine new password' });
      expect(answer.status, `${path} #${i}`).toBe(path === '/api/validate-reset-token' ? 200 : 400);
    }
    const refused = await prober.post('/api/reset-password', { token: 'guess-x', password: 'a fine new password' });
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatch(/^Too many password reset attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await prober.post('/api/validate-reset-token', { token: 'guess-y' })).status).toBe(429);
    expect((await gw.browser({ ip: '192.0.2.123' }).post('/api/validate-reset-token', { token: 'guess-z' })).status).toBe(200);
  });
});

describe('the reset link after it is sent', () => {
  it('when the e-mail has gone out and the bus tables are pruned, then no reset link is readable in the database (pg_dump) or in any queue', async () => {
    const { user } = await gw.createAgent();
    expect((await gw.browser().post('/api/forgot-password', { email: user.email })).status).toBe(200);
    const [mail] = await waitFor('the reset e-mail to be delivered', async () => {
      const mails = await mailsTo(user.email);
      return mails.length > 0 ? mails : undefined;
    }, { timeoutMs: 20_000 });
    const token = resetLinkIn(mail!).searchParams.get('token')!;

    // Every outbox row of both services confirmed, then pruned as the hourly job does.
    const pools = [GATEWAY_SCHEMA, NOTIFICATIONS_SCHEMA].map((schema) => createPool(gw.db.url, schema));
    try {
      await waitFor('both outboxes to be confirmed', async () => {
        for (const pool of pools) {
          const { rows } = await pool.query<{ n: number }>('SELECT count(*) AS n FROM outbox WHERE published_at IS NULL');
          if (rows[0]!.n > 0) return false;
        }
        return true;
      }, { timeoutMs: 20_000 });
      for (const pool of pools) await pruneBusTables(pool, { OUTBOX_SENT_RETENTION_HOURS: 1e-6, PROCESSED_EVENTS_RETENTION_DAYS: 7 });
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }

    const dump = execFileSync('pg_dump', ['--data-only', gw.db.url], { maxBuffer: 64 * 1024 * 1024 }).toString();
    expect(dump).toContain(user.email); // the dump is of the right database
    expect(dump).not.toContain(token);

    const connection = await amqp.connect(TEST_AMQP_URL);
    try {
      const ch = await connection.createChannel();
      const namespace = gw.config.BUS_NAMESPACE!;
      const queues = [
        ...brokerManifest.queues.flatMap((q) => [q.queue, `${q.queue}.retry`, `${q.queue}.dlq`]),
        UNROUTED_QUEUE,
      ].map((q) => `${namespace}.${q}`);
      for (const queue of queues) {
        for (;;) {
          const msg = await ch.get(queue, { noAck: false });
          if (!msg) break;
          expect(msg.content.toString()).not.toContain(token);
        }
        ch.nackAll(true);
      }
      await ch.close();
    } finally {
      await connection.close();
    }
  });
});
