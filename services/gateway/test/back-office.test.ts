import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { businessDate, COMMANDS_EXCHANGE, type AuditEntry, type AuditLogPage, type CommandData } from '@warmline/contracts';
import { createLogger, ShutdownStack, withTransaction } from '@warmline/platform';
import { enqueue, openDatabaseAndBus } from '@warmline/platform/bus/index';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { recordAdminAction } from '../src/domain/audit-log';
import { startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';
import { DANA_COLE, surveyAnswers } from './survey-answers';

/**
 * The back office's account side (issue 12): users paged and filtered on the server, soft
 * delete, the admin cards, and the audit log — the gateway's own actions and those another
 * service reports with audit.record.
 */

let gw: GatewayFixture;
let admin: Browser;
let adminId: string;
/** A stand-in orders service for the cards: answers /internal/admin-stats as told. */
let orders: Server;
let ordersAnswer: { status: number; body: unknown; delayMs?: number } = { status: 200, body: { revenueThisMonthCents: 222_750, openTransferOrders: 3 } };

beforeAll(async () => {
  orders = createServer((req, res) => {
    const { status, body, delayMs = 0 } = ordersAnswer;
    setTimeout(() => {
      res.writeHead(req.url === '/internal/admin-stats' && req.headers['x-warmline-identity'] ? status : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    }, delayMs);
  });
  await new Promise<void>((resolve) => orders.listen(0, '127.0.0.1', resolve));
  gw = await startGatewayFixture({
    env: { ORDERS_URL: `http://127.0.0.1:${(orders.address() as AddressInfo).port}`, ADMIN_STATS_TIMEOUT_MS: '300' },
  });
  admin = gw.browser();
  adminId = (await admin.login(gw.admin.username, gw.admin.password)).json.id;
});

afterAll(async () => {
  await gw?.cleanup();
  orders?.closeAllConnections();
  await new Promise((resolve) => orders?.close(resolve));
});

async function auditEntries(): Promise<AuditEntry[]> {
  const answer = await admin.get('/api/admin/audit-log');
  expect(answer.status).toBe(200);
  return (answer.json as AuditLogPage).entries;
}

/** A survey sign-up with the given username and e-mail (the main survey creates the account). */
function signUp(username: string, email: string) {
  return gw.browser().post('/api/survey', surveyAnswers(DANA_COLE, { username, email }));
}

describe('User Management on the server', () => {
  it('when an admin pages and filters users, then 50 come a page, the total is in X-Total-Count and q matches name, e-mail, username and phone digits', async () => {
    const tag = randomUUID().slice(0, 8);
    const agents = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        gw.createAgent({ username: `pager_${tag}_${i}`, email: `pager_${tag}_${i}@example.com`, firstName: `Pat${tag}` }),
      ),
    );
    const all = await admin.get('/api/users?page=1');
    expect(all.status).toBe(200);
    expect(Array.isArray(all.json)).toBe(true);
    expect(Number(all.headers.get('x-total-count'))).toBeGreaterThanOrEqual(4);

    const byName = await admin.get(`/api/users?q=PAT${tag.toUpperCase()}`);
    expect(byName.json.map((u: { username: string }) => u.username).sort()).toEqual(agents.map((a) => a.user.username).sort());
    expect(byName.headers.get('x-total-count')).toBe('3');

    const byEmail = await admin.get(`/api/users?q=${encodeURIComponent(`pager_${tag}_1@`)}`);
    expect(byEmail.json.map((u: { id: string }) => u.id)).toEqual([agents[1]!.user.id]);

    await gw.pool.query(`UPDATE users SET phone = '(555) 864-2019' WHERE id = $1`, [agents[2]!.user.id]);
    // Typed with other punctuation than stored: the digits decide.
    const byPhone = await admin.get(`/api/users?q=${encodeURIComponent('864.2019')}`);
    expect(byPhone.json.map((u: { id: string }) => u.id)).toContain(agents[2]!.user.id);

    const secondPage = await admin.get(`/api/users?q=PAT${tag}&page=2`);
    expect(secondPage.json).toEqual([]);
    expect(secondPage.headers.get('x-total-count')).toBe('3');
  });

  it('when the page is not a whole number from 1, then the answer is 400 saying so', async () => {
    for (const page of ['0', '-1', 'two', '1.5']) {
      const answer = await admin.get(`/api/users?page=${page}`);
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatch(/page must be a whole number/);
    }
  });

  it('when an admin deletes an agent, then the account is disabled, leaves the list, and its username and e-mail can sign up again', async () => {
    const tag = randomUUID().slice(0, 8);
    const username = `gone_${tag}`;
    const email = `gone_${tag}@example.com`;
    expect((await signUp(username, email)).status).toBe(201);
    const { rows } = await gw.pool.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [username]);
    const id = rows[0]!.id;

    expect((await admin.delete(`/api/users/${id}`)).status).toBe(200);
    expect((await admin.delete(`/api/users/${id}`)).status).toBe(404);
    // Refused exactly as a wrong password is: nothing tells that the account existed.
    const refused = await gw.browser().post('/api/login', { username, password: 'sunny-harbor-42' });
    const wrongPassword = await gw.browser().post('/api/login', { username: gw.admin.username, password: 'not-the-password' });
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual(wrongPassword.json);
    expect((await admin.get(`/api/users?q=${username}`)).json).toEqual([]);
    // The row stays (what they bought elsewhere still names them), disabled.
    const kept = await gw.pool.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM users WHERE id = $1', [id]);
    expect(kept.rows[0]!.deleted_at).toBeInstanceOf(Date);

    expect((await signUp(username, email)).status).toBe(201);
    expect((await gw.browser().post('/api/login', { username, password: 'sunny-harbor-42' })).status).toBe(200);

    const entry = (await auditEntries()).find((e) => e.action === 'user.deleted' && e.subjectId === id);
    expect(entry).toMatchObject({ actorId: adminId, actorUsername: gw.admin.username, subjectType: 'user', after: { active: false }, source: 'gateway' });
    expect(entry!.subjectLabel).toContain(email);
  });

  it("when an admin sets a price and changes a password, then the audit log has both, the price's before and after, never the password", async () => {
    const { user } = await gw.createAgent();
    expect((await admin.patch(`/api/users/${user.id}/live-transfer-price`, { price: '31.50' })).status).toBe(200);
    expect((await admin.post(`/api/users/${user.id}/change-password`, { newPassword: 'quiet-meadow-88' })).status).toBe(200);

    const entries = (await auditEntries()).filter((e) => e.subjectId === user.id);
    expect(entries.map((e) => e.action)).toEqual(['user.password_changed', 'user.price_changed']);
    expect(entries[1]).toMatchObject({ before: { liveTransferPrice: '35.00' }, after: { liveTransferPrice: '31.50' } });
    expect(JSON.stringify(entries)).not.toContain('quiet-meadow-88');
  });

  it('when a customer or nobody asks for the back office, then it answers 403 or 401 and shows nothing', async () => {
    const { user, password } = await gw.createAgent();
    const agent = gw.browser();
    await agent.login(user.username, password);
    for (const path of ['/api/admin/stats', '/api/admin/audit-log', '/api/users?q=a']) {
      expect((await agent.get(path)).status).toBe(403);
      expect((await gw.browser().get(path)).status).toBe(401);
    }
  });
});

describe('the audit log', () => {
  it('when someone tries to rewrite it in the database, then the table refuses', async () => {
    const { user } = await gw.createAgent();
    await admin.patch(`/api/users/${user.id}/live-transfer-price`, { price: '30.00' });
    await expect(gw.pool.query(`UPDATE audit_log SET actor_username = 'someone-else'`)).rejects.toThrow(/append-only/);
    await expect(gw.pool.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });

  it('when another service reports an admin action with audit.record, twice, then the log shows it once', async () => {
    const report: CommandData<'audit.record'> = {
      actorId: adminId,
      actorUsername: gw.admin.username,
      action: 'transfer_order.status_changed',
      subjectType: 'transfer_order',
      subjectId: randomUUID(),
      subjectLabel: 'Transfer order for Dana Cole',
      before: { status: 'paid' },
      after: { status: 'completed' },
      at: new Date().toISOString(),
    };
    const envelope = {
      id: randomUUID(),
      type: 'audit.record',
      version: 1,
      occurredAt: new Date().toISOString(),
      source: 'orders',
      correlationId: randomUUID(),
      data: report,
    };
    // As the orders service's relay publishes a command: on warmline.commands, routing key = type.
    const connection = await amqp.connect(TEST_AMQP_URL);
    try {
      const channel = await connection.createConfirmChannel();
      const exchange = `${gw.config.BUS_NAMESPACE}.${COMMANDS_EXCHANGE}`;
      for (let i = 0; i < 2; i++) {
        channel.publish(exchange, 'audit.record', Buffer.from(JSON.stringify(envelope)), { messageId: envelope.id, persistent: true, contentType: 'application/json' });
      }
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
    const stored = await waitFor('the reported action in the log', async () => {
      const found = (await auditEntries()).filter((e) => e.subjectId === report.subjectId);
      return found.length > 0 && found;
    });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ action: 'transfer_order.status_changed', source: 'orders', before: { status: 'paid' }, after: { status: 'completed' } });
    // The second delivery has been handled too, and still one row.
    // Both deliveries are handled (the second one seen as already processed), and still one row.
    await waitFor('both deliveries acknowledged', async () => {
      const connection = await amqp.connect(TEST_AMQP_URL);
      try {
        const queue = await (await connection.createChannel()).checkQueue(`${gw.config.BUS_NAMESPACE}.gateway.audit`);
        return queue.messageCount === 0 && queue.consumerCount > 0;
      } finally {
        await connection.close();
      }
    });
    const { rows } = await gw.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE subject_id = $1', [report.subjectId]);
    expect(rows[0]!.n).toBe(1);
  });
  it('when another service enqueues audit.record in its outbox with its action, then its relay delivers it and the log shows it', async () => {
    // Another service as it runs: its own schema (the platform's outbox) in the same database,
    // its relay publishing on the same broker namespace.
    const stops = new ShutdownStack(createLogger('reporter', 'silent'), 'the reporting service');
    const noMigrations = await mkdtemp(path.join(os.tmpdir(), 'wl-reporter-'));
    stops.push('migrations dir', () => rm(noMigrations, { recursive: true, force: true }));
    try {
      const { pool } = await openDatabaseAndBus({
        config: { DATABASE_URL: gw.db.url, MIGRATION_DATABASE_URL: gw.db.url, AMQP_URL: TEST_AMQP_URL, BUS_NAMESPACE: gw.config.BUS_NAMESPACE },
        log: createLogger('reporter', 'silent'),
        stops,
        schema: 'orders',
        migrationsDir: noMigrations,
        connectionName: 'orders',
      });
      const subjectId = randomUUID();
      const at = new Date(Date.now() - 60_000).toISOString();
      await withTransaction(pool, (db) =>
        enqueue(db, {
          type: 'audit.record',
          source: 'orders',
          correlationId: randomUUID(),
          data: {
            actorId: adminId,
            actorUsername: gw.admin.username,
            action: 'order.refunded',
            subjectType: 'order',
            subjectId,
            subjectLabel: 'Premium package — Quinn Buyer',
            before: { refundedCents: 0 },
            after: { refundedCents: 5_000 },
            reason: 'Customer asked',
            at,
          },
        }),
      );
      const entry = await waitFor('the outbox report in the log', async () => (await auditEntries()).find((e) => e.subjectId === subjectId));
      expect(entry).toMatchObject({
        at,
        actorId: adminId,
        actorUsername: gw.admin.username,
        action: 'order.refunded',
        subjectType: 'order',
        subjectLabel: 'Premium package — Quinn Buyer',
        before: { refundedCents: 0 },
        after: { refundedCents: 5_000 },
        reason: 'Customer asked',
        source: 'orders',
      });
    } finally {
      await stops.stop();
    }
  });

  it('when there are more than 50 entries, then each page holds 50, newest first, the total counts them all, and a page past the end is empty', async () => {
    const actor = { userId: adminId, username: gw.admin.username };
    // Long ago, so they are the oldest of this file's entries: the last 52 of the list, in reverse.
    const longAgo = Date.parse('2020-01-01T00:00:00Z');
    const subjectIds = Array.from({ length: 52 }, () => randomUUID());
    await withTransaction(gw.pool, async (db) => {
      for (const [i, subjectId] of subjectIds.entries()) {
        await recordAdminAction(db, { actor, action: 'user.price_changed', subjectType: 'user', subjectId, before: { liveTransferPrice: '35.00' }, after: { liveTransferPrice: '30.00' } }, new Date(longAgo + i * 1_000));
      }
    });
    const first = (await admin.get('/api/admin/audit-log')).json as AuditLogPage;
    expect(first.total).toBeGreaterThanOrEqual(52);
    const pages = Math.ceil(first.total / 50);
    const all: AuditEntry[] = [];
    for (let page = 1; page <= pages; page++) {
      const answer = (await admin.get(`/api/admin/audit-log?page=${page}`)).json as AuditLogPage;
      expect(answer.total).toBe(first.total);
      expect(answer.entries).toHaveLength(page < pages ? 50 : first.total - 50 * (pages - 1));
      all.push(...answer.entries);
    }
    expect(all).toHaveLength(first.total);
    const times = all.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.slice(-52).map((e) => e.subjectId)).toEqual([...subjectIds].reverse());
    expect(((await admin.get(`/api/admin/audit-log?page=${pages + 1}`)).json as AuditLogPage).entries).toEqual([]);
    expect((await admin.get('/api/admin/audit-log?page=0')).status).toBe(400);
  });
});

describe('the audit log, filtered and exported (issue 22)', () => {
  it('when an admin filters by admin, action, subject and days, then only those entries come, counted, with every action the log holds; the CSV holds the same', async () => {
    const actor = { userId: adminId, username: gw.admin.username };
    const other = { userId: randomUUID(), username: `ops_${randomUUID().slice(0, 6)}` };
    const tag = randomUUID().slice(0, 8);
    const day = '2021-03-10';
    await withTransaction(gw.pool, async (db) => {
      await recordAdminAction(
        db,
        { actor, action: 'user.price_changed', subjectType: 'user', subjectId: randomUUID(), subjectLabel: `Dana ${tag}, "the agent"`, before: { liveTransferPrice: '35.00' }, after: { liveTransferPrice: '30.00' }, reason: '=loyal customer' },
        new Date(`${day}T15:00:00Z`),
      );
      await recordAdminAction(db, { actor: other, action: 'user.deleted', subjectType: 'user', subjectId: randomUUID(), subjectLabel: `Lee ${tag}` }, new Date(`${day}T16:00:00Z`));
      // 02:00 UTC on the 11th is still the 10th in Chicago.
      await recordAdminAction(db, { actor, action: 'user.deleted', subjectType: 'user', subjectId: randomUUID(), subjectLabel: `Kim ${tag}` }, new Date('2021-03-11T02:00:00Z'));
      await recordAdminAction(db, { actor, action: 'user.deleted', subjectType: 'user', subjectId: randomUUID(), subjectLabel: `Max ${tag}` }, new Date('2021-03-12T12:00:00Z'));
    });
    const page = async (query: string) => {
      const answer = await admin.get(`/api/admin/audit-log?${query}`);
      expect(answer.status, query).toBe(200);
      return answer.json as AuditLogPage;
    };
    const labels = (p: AuditLogPage) => p.entries.map((e) => e.subjectLabel?.split(' ')[0]);

    expect(labels(await page(`subject=${tag}`))).toEqual(['Max', 'Kim', 'Lee', 'Dana']);
    expect(labels(await page(`subject=${tag}&action=user.deleted`))).toEqual(['Max', 'Kim', 'Lee']);
    expect(labels(await page(`subject=${tag}&admin=${other.username.toUpperCase()}`))).toEqual(['Lee']);
    const onDay = await page(`subject=${tag}&from=${day}&to=${day}`);
    expect(labels(onDay)).toEqual(['Kim', 'Lee', 'Dana']);
    expect(onDay.total).toBe(3);
    expect(onDay.actions).toEqual(expect.arrayContaining(['user.deleted', 'user.price_changed']));
    // A % typed is taken literally.
    expect((await page('subject=%25%25nothing%25')).total).toBe(0);

    const csv = await admin.get(`/api/admin/audit-log.csv?subject=${tag}&from=${day}&to=${day}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="warmline-audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('When (America/Chicago),Admin,Action,Subject type,Subject,Subject id,Before,After,Reason,Service');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^2021-03-10 20:00,/);
    expect(lines[3]).toContain(`"Dana ${tag}, ""the agent"""`);
    // A reason a spreadsheet would run as a formula is defused.
    expect(lines[3]).toContain(",'=loyal customer,");
  });

  it('when a filter is not one the log knows, then the answer is 400 saying what is wrong, for the page and the CSV', async () => {
    const cases: Array<[string, string]> = [
      ['action=DROP%20TABLE', "action must be a dotted action such as 'user.price_changed'"],
      ['from=2021-02-30', 'from must be a real date'],
      ['to=yesterday', 'to must be a date like 2026-11-24'],
      ['from=2021-03-02&to=2021-03-01', 'from must not be after to'],
      [`admin=${'a'.repeat(201)}`, 'admin must be at most 200 characters'],
    ];
    for (const [query, message] of cases) {
      for (const path of ['/api/admin/audit-log', '/api/admin/audit-log.csv']) {
        const answer = await admin.get(`${path}?${query}`);
        expect(answer.status, `${path}?${query}`).toBe(400);
        expect(answer.json.error, `${path}?${query}`).toBe(message);
      }
    }
  });
});

describe('the admin cards', () => {
  it('when orders answers, then the cards count live users, sign-ups of the last 7 days in Chicago, revenue this month and open transfer orders', async () => {
    const { user } = await gw.createAgent();
    // Eight days ago: not a new sign-up any more.
    await gw.pool.query(`UPDATE users SET created_at = now() - interval '8 days' WHERE id = $1`, [user.id]);
    const { rows } = await gw.pool.query<{ total: string; recent: string }>(
      `SELECT count(*) AS total,
              count(*) FILTER (WHERE created_at >= (date_trunc('day', now() AT TIME ZONE 'America/Chicago') - interval '6 days') AT TIME ZONE 'America/Chicago') AS recent
         FROM users WHERE deleted_at IS NULL`,
    );
    ordersAnswer = { status: 200, body: { revenueThisMonthCents: 222_750, openTransferOrders: 3 } };
    const answer = await admin.get('/api/admin/stats');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      totalUsers: Number(rows[0]!.total),
      newSignUps: Number(rows[0]!.recent),
      revenueThisMonthCents: 222_750,
      openTransferOrders: 3,
    });
    expect(answer.json.newSignUps).toBeLessThan(answer.json.totalUsers);
  });

  it('when accounts were created a minute after and a minute before the start of the day 6 days ago in Chicago, then only the first is a new sign-up, and a deleted one counts nowhere', async () => {
    ordersAnswer = { status: 200, body: { revenueThisMonthCents: 0, openTransferOrders: 0 } };
    const zone = gw.config.BUSINESS_TIMEZONE;
    expect(zone).toBe('America/Chicago');
    // The first of the 7 days: today in Chicago, 6 calendar days back; its midnight found hour by hour.
    const today = businessDate(new Date(), zone);
    const firstDay = new Date(Date.parse(`${today}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
    let start = Math.floor((Date.now() - 8 * 86_400_000) / 3_600_000) * 3_600_000;
    while (businessDate(new Date(start), zone) !== firstDay) start += 3_600_000;

    const before = (await admin.get('/api/admin/stats')).json;
    const [justIn, justOut, gone] = await Promise.all([gw.createAgent(), gw.createAgent(), gw.createAgent()]);
    await gw.pool.query('UPDATE users SET created_at = $2 WHERE id = $1', [justIn.user.id, new Date(start + 60_000)]);
    await gw.pool.query('UPDATE users SET created_at = $2 WHERE id = $1', [justOut.user.id, new Date(start - 60_000)]);
    expect((await admin.delete(`/api/users/${gone.user.id}`)).status).toBe(200);
    const after = (await admin.get('/api/admin/stats')).json;

    expect(after.totalUsers - before.totalUsers).toBe(2);
    expect(after.newSignUps - before.newSignUps).toBe(1);
  });

  it('when orders is slow or failing, then the user numbers still come at once and the order numbers are null', async () => {
    for (const trouble of [{ status: 200, body: {}, delayMs: 5_000 }, { status: 500, body: { error: 'boom' } }, { status: 200, body: { revenueThisMonthCents: 'lots' } }]) {
      ordersAnswer = trouble;
      const answer = await admin.get('/api/admin/stats');
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ revenueThisMonthCents: null, openTransferOrders: null });
      expect(answer.json.totalUsers).toBeGreaterThan(0);
    }
  });
});
