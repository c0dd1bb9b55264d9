import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WEBHOOK_FAILED_MESSAGE,
  WEBHOOK_INVALID_JSON_MESSAGE,
  WEBHOOK_KEY_REUSED_MESSAGE,
  WEBHOOK_PAST_CALLBACK_MESSAGE,
  WEBHOOK_RECEIVED_MESSAGE,
  WEBHOOK_REPEAT_MESSAGE,
} from '@warmline/contracts';
import { waitFor } from '@warmline/platform/testing/index';
import { outboxRowsOf } from '@warmline/platform/bus/index';
import { fixtureAdmin, startIngestionFixture, uniquePhone, vendorCall, type IngestionFixture } from './ingestion-fixture';

/**
 * POST /api/callbacks/brightcall (issue 15 item 3): the key, the body's refusals, a call stored
 * with its messages, each repeat rule (one call, one command, also when repeats race), what each
 * outcome becomes. Messages are read off the broker: the catalog's queue and an events tap.
 */
let f: IngestionFixture;
let vendor: { id: string; key: string };

beforeAll(async () => {
  f = await startIngestionFixture();
  vendor = await f.createKey('Acme Voice');
}, 60_000);

afterAll(async () => {
  await f?.cleanup();
});

const UNAUTHORIZED = { success: false, message: 'Unauthorized' };

async function storedCalls(phone: string): Promise<Array<{ id: string; disposition: string }>> {
  const { rows } = await f.pool.query<{ id: string; disposition: string }>('SELECT id, disposition FROM vendor_calls WHERE phone = $1 ORDER BY received_at', [phone]);
  return rows;
}

/** A callback_time this many days from now, as a vendor writes it. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const commandsFor = (callbackId: string) => f.commands().filter((c) => c.data.callbackId === callbackId);

describe('the vendor key', () => {
  it('when no key, a wrong key or a key without the prefix is presented, then 401 Unauthorized and nothing is stored', async () => {
    const call = vendorCall();
    for (const headers of [{}, { 'x-api-key': 'wlv_not-a-key-of-ours' }, { authorization: 'Bearer wlv_wrong' }, { authorization: `Basic ${vendor.key}` }, { 'x-api-key': 'anything' }] as Array<Record<string, string>>) {
      const answer = await f.post(null, call, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(answer.body).toEqual(UNAUTHORIZED);
    }
    expect(await storedCalls(String(call.phone_number).slice(3))).toEqual([]);
  });

  it('when the key comes as X-API-Key or as Authorization: Bearer, then both are accepted', async () => {
    expect((await f.post(vendor.key, vendorCall())).status).toBe(200);
    expect((await f.post(null, vendorCall(), { authorization: `Bearer ${vendor.key}` })).status).toBe(200);
  });

  it('when the call does not come through the gateway (no signed identity), then 401 in the webhook shape', async () => {
    const answer = await f.call('POST', '/api/callbacks/brightcall', { identity: null, headers: { 'x-api-key': vendor.key, 'content-type': 'application/json' }, rawBody: JSON.stringify(vendorCall()) });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(UNAUTHORIZED);
  });

  it('when the key is revoked, then its very next call is 401 and its calls before stay stored', async () => {
    const other = await f.createKey('Short-lived Voice');
    const before = await f.post(other.key, vendorCall());
    expect(before.status).toBe(200);
    expect((await f.call('DELETE', `/api/admin/vendor-keys/${other.id}`, { identity: fixtureAdmin })).status).toBe(204);
    const after = await f.post(other.key, vendorCall());
    expect(after.status).toBe(401);
    expect(after.body).toEqual(UNAUTHORIZED);
    const { rows } = await f.pool.query('SELECT id FROM vendor_calls WHERE vendor_key_id = $1', [other.id]);
    expect(rows.map((r) => r.id)).toEqual([before.body.callback_id]);
  });
});

describe('the body', () => {
  it.each(['first_name', 'last_name', 'phone_number', 'transcript'])('when %s is missing, then 400 names it', async (field) => {
    const call: Record<string, unknown> = vendorCall();
    delete call[field];
    const answer = await f.post(vendor.key, call);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, message: 'Missing required fields', fields: [field] });
    expect(answer.body.errors).toEqual([{ field, message: `${field} is required` }]);
  });

  it('when several fields are missing or too long or not text, then 400 names each of them', async () => {
    const answer = await f.post(vendor.key, { first_name: '', last_name: 'x'.repeat(101), state: 42 });
    expect(answer.status).toBe(400);
    expect(new Set(answer.body.fields as string[])).toEqual(new Set(['first_name', 'last_name', 'phone_number', 'transcript', 'state']));
  });

  it('when the phone is not a US number or callback_time not a date-time, then 400 names both', async () => {
    const answer = await f.post(vendor.key, vendorCall({ phone_number: '123', callback_time: 'tomorrow' }));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { field: 'phone_number', message: 'phone_number must be a US phone number with 10 digits' },
      { field: 'callback_time', message: 'callback_time must be an ISO 8601 date-time, e.g. 2026-11-26T15:00:00-06:00' },
    ]);
  });

  it('when a bad phone comes with other problems, then the one answer names the phone too', async () => {
    const answer = await f.post(vendor.key, { first_name: 'Maria', phone_number: '555-01', callback_time: 'tomorrow' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { field: 'last_name', message: 'last_name is required' },
      { field: 'phone_number', message: 'phone_number must be a US phone number with 10 digits' },
      { field: 'transcript', message: 'transcript is required' },
      { field: 'callback_time', message: 'callback_time must be an ISO 8601 date-time, e.g. 2026-11-26T15:00:00-06:00' },
    ]);
  });

  it("when the body is malformed JSON, form-encoded, an array, not an object, or empty, then 400 'Invalid JSON body' (no field list)", async () => {
    for (const raw of ['{"first_name": "Maria",', 'first_name=Maria&last_name=Lopez', '[1,2]', `[${JSON.stringify(vendorCall())}]`, '"text"', '42', 'null', '']) {
      const answer = await f.post(vendor.key, raw);
      expect(answer.status, raw).toBe(400);
      expect(answer.body, raw).toEqual({ success: false, message: WEBHOOK_INVALID_JSON_MESSAGE });
    }
  });

  it('when a form-encoded body comes with its own Content-Type, then it is the same 400 Invalid JSON body', async () => {
    const answer = await f.call('POST', '/api/callbacks/brightcall', {
      headers: { 'x-api-key': vendor.key, 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: new URLSearchParams({ first_name: 'Maria', last_name: 'Lopez', phone_number: '5125550143', transcript: 'Hi' }).toString(),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, message: WEBHOOK_INVALID_JSON_MESSAGE });
  });

  it('when a field holds a NUL character or a bad Idempotency-Key is sent, then 400 names it (never a 500)', async () => {
    const nul = await f.post(vendor.key, vendorCall({ transcript: 'Hello\u0000there' }));
    expect(nul.status).toBe(400);
    expect(nul.body.fields).toEqual(['transcript']);
    const badKey = await f.post(vendor.key, vendorCall(), { 'idempotency-key': 'x'.repeat(201) });
    expect(badKey.status).toBe(400);
    expect(badKey.body.fields).toEqual(['Idempotency-Key']);
  });

  it('when the body is over 100 KB, then 413 in the webhook shape', async () => {
    const answer = await f.post(vendor.key, vendorCall({ transcript: 'x'.repeat(110 * 1024) }));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ success: false });
  });
});

describe('a valid call', () => {
  it("has its outbox rows made by the bus for the call's one statement, and this process's relay is told once they commit", () => {
    const rows = outboxRowsOf([{ type: 'callback.received', source: 'ingestion', correlationId: 'test', data: { callbackId: crypto.randomUUID(), vendorKeyId: vendor.id, outcome: null, disposition: 'stored', state: null, leadQuality: null, receivedAt: new Date().toISOString() } }]);
    expect(rows).toMatchObject({ ids: [expect.any(String)], exchanges: [expect.any(String)], routingKeys: ['callback.received'], envelopes: [expect.any(String)], inProcessWake: true, committed: expect.any(Function) });
  });

  it('is answered with a callback_id, stored, and sent on as callback_opportunity.create and a thin callback.received', async () => {
    const phone = uniquePhone();
    const day = inDays(2).slice(0, 10);
    const answer = await f.post(vendor.key, vendorCall({ phone_number: `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`, callback_time: `${day}T15:00:00-06:00`, agent_id: 'va-17', lead_quality: 'hot', interest_level: 'high', state: 'Texas' }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, message: WEBHOOK_RECEIVED_MESSAGE, callback_id: expect.any(String) });
    const callbackId = String(answer.body.callback_id);
    expect(await storedCalls(phone)).toEqual([{ id: callbackId, disposition: 'opportunity' }]);

    const [command] = await waitFor('the command on the catalog queue', () => commandsFor(callbackId).length > 0 && commandsFor(callbackId));
    expect(command).toMatchObject({
      type: 'callback_opportunity.create',
      source: 'ingestion',
      data: {
        callbackId,
        vendorKeyId: vendor.id,
        vendorName: 'Acme Voice',
        firstName: 'Maria',
        lastName: 'Lopez',
        phone,
        state: 'Texas',
        callbackTime: `${day}T21:00:00.000Z`,
        callOutcome: 'callback_requested',
        agentId: 'va-17',
        leadQuality: 'hot',
        interestLevel: 'high',
      },
    });
    const event = await waitFor('callback.received', () => f.events().find((e) => e.data.callbackId === callbackId));
    expect(event.type).toBe('callback.received');
    // Thin: ids and what analysts count, never the prospect.
    expect(event.data).toEqual({ callbackId, vendorKeyId: vendor.id, outcome: 'callback_requested', disposition: 'opportunity', state: 'TX', leadQuality: 'hot', receivedAt: expect.any(String) });
  });

  it.each([null, 'INTERESTED', 'Call_Back'])('when call_outcome is %s, then it becomes an opportunity', async (outcome) => {
    const answer = await f.post(vendor.key, vendorCall({ call_outcome: outcome }));
    expect(answer.status).toBe(200);
    const id = String(answer.body.callback_id);
    const commands = await waitFor('the command', () => commandsFor(id).length > 0 && commandsFor(id));
    expect(commands.map((c) => c.type)).toEqual(['callback_opportunity.create']);
  });

  it.each(['dnc', 'DO_NOT_CALL'])("when call_outcome is '%s', then the phone goes on the suppression list instead", async (outcome) => {
    const phone = uniquePhone();
    const answer = await f.post(vendor.key, vendorCall({ phone_number: phone, call_outcome: outcome }));
    expect(answer.status).toBe(200);
    const id = String(answer.body.callback_id);
    const commands = await waitFor('the command', () => commandsFor(id).length > 0 && commandsFor(id));
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({ type: 'lead_suppression.add', data: { phone, callbackId: id, reason: `Vendor call outcome '${outcome.toLowerCase()}' (Acme Voice)` } });
    expect(await storedCalls(phone)).toEqual([{ id, disposition: 'suppress' }]);
  });

  it("when call_outcome is another value ('voicemail'), then the call is stored and counted but no command is sent", async () => {
    const phone = uniquePhone();
    const answer = await f.post(vendor.key, vendorCall({ phone_number: phone, call_outcome: 'voicemail' }));
    expect(answer.status).toBe(200);
    const id = String(answer.body.callback_id);
    expect(await storedCalls(phone)).toEqual([{ id, disposition: 'stored' }]);
    const event = await waitFor('callback.received', () => f.events().find((e) => e.data.callbackId === id));
    expect(event.data).toMatchObject({ disposition: 'stored', outcome: 'voicemail' });
    // The event went out after the outbox rows of the same transaction: a command would be out by now.
    expect(commandsFor(id)).toEqual([]);
    expect((await f.outbox('callback_opportunity.create')).filter((e) => e.data.callbackId === id)).toEqual([]);
  });
});

describe('repeats', () => {
  async function expectOneCall(answers: Array<{ status: number; body: Record<string, unknown> }>, phone: string) {
    for (const a of answers) expect(a.status).toBe(200);
    const ids = new Set(answers.map((a) => a.body.callback_id));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as string[];
    expect((await storedCalls(phone)).map((c) => c.id)).toEqual([id]);
    const created = (await f.outbox('callback_opportunity.create')).filter((e) => e.data.callbackId === id);
    expect(created).toHaveLength(1);
    await waitFor('the command on the broker', () => commandsFor(id!).length > 0);
    return id!;
  }

  it('when the same Idempotency-Key comes again with the same call, then the first answer is replayed and nothing new is stored', async () => {
    const phone = uniquePhone();
    const key = crypto.randomUUID();
    const call = vendorCall({ phone_number: phone });
    const first = await f.post(vendor.key, call, { 'idempotency-key': key });
    // The same call as read: the phone punctuated otherwise, text with spaces around it.
    const again = await f.post(vendor.key, { ...call, phone_number: `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`, first_name: ' Maria ' }, { 'idempotency-key': key });
    expect(first.body.message).toBe(WEBHOOK_RECEIVED_MESSAGE);
    expect(again.body.message).toBe(WEBHOOK_REPEAT_MESSAGE);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    await expectOneCall([first, again], phone);
  });

  it('when the same Idempotency-Key comes with a different call, then 409 names the key and the first call, and the new call is not taken for a repeat', async () => {
    const key = crypto.randomUUID();
    const first = await f.post(vendor.key, vendorCall(), { 'idempotency-key': key });
    const otherPhone = uniquePhone();
    const different = await f.post(vendor.key, vendorCall({ phone_number: otherPhone }), { 'idempotency-key': key });
    expect(different.status).toBe(409);
    expect(different.body).toEqual({ success: false, message: WEBHOOK_KEY_REUSED_MESSAGE, idempotency_key: key, callback_id: first.body.callback_id });
    expect(await storedCalls(otherPhone)).toEqual([]);
    // The same key with other words for the same phone is a different call too.
    const reworded = await f.post(vendor.key, vendorCall({ transcript: 'Other words' }), { 'idempotency-key': key });
    expect(reworded.status).toBe(409);
    // Sent again under a key of its own, the call is stored.
    const fresh = await f.post(vendor.key, vendorCall({ phone_number: otherPhone }), { 'idempotency-key': crypto.randomUUID() });
    expect(fresh.status).toBe(200);
    expect(fresh.body.message).toBe(WEBHOOK_RECEIVED_MESSAGE);
  });

  it('when a new Idempotency-Key comes with the phone and callback_time of an earlier call, then it is a repeat of that call, and that key then means this call', async () => {
    const phone = uniquePhone();
    const callbackTime = inDays(3);
    const first = await f.post(vendor.key, vendorCall({ phone_number: phone, callback_time: callbackTime }), { 'idempotency-key': crypto.randomUUID() });
    const newKey = crypto.randomUUID();
    const repeat = await f.post(vendor.key, vendorCall({ phone_number: phone, callback_time: callbackTime, transcript: 'Retried with a new key' }), { 'idempotency-key': newKey });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({ success: true, message: WEBHOOK_REPEAT_MESSAGE, callback_id: first.body.callback_id });
    await expectOneCall([first, repeat], phone);
    // The new key was kept with that answer: another call under it is a 409.
    const reused = await f.post(vendor.key, vendorCall(), { 'idempotency-key': newKey });
    expect(reused.status).toBe(409);
    expect(reused.body.callback_id).toBe(first.body.callback_id);
  });

  it('when another vendor sends the same Idempotency-Key, then it is its own call', async () => {
    const other = await f.createKey('Other Voice');
    const key = crypto.randomUUID();
    const a = await f.post(vendor.key, vendorCall(), { 'idempotency-key': key });
    const b = await f.post(other.key, vendorCall(), { 'idempotency-key': key });
    expect(a.body.callback_id).not.toBe(b.body.callback_id);
    expect(b.body.message).toBe(WEBHOOK_RECEIVED_MESSAGE);
  });

  it('when the same phone and callback_time come again (no key, other transcript), then the same callback_id', async () => {
    const phone = uniquePhone();
    const day = inDays(4).slice(0, 10);
    const first = await f.post(vendor.key, vendorCall({ phone_number: phone, callback_time: `${day}T10:00:00-05:00` }));
    // The same instant written in another zone.
    const again = await f.post(vendor.key, vendorCall({ phone_number: phone, callback_time: `${day}T15:00:00Z`, transcript: 'Different words' }));
    await expectOneCall([first, again], phone);
    const later = await f.post(vendor.key, vendorCall({ phone_number: phone, callback_time: `${day}T16:00:00Z` }));
    expect(later.body.callback_id).not.toBe(first.body.callback_id);
  });

  it('when the same phone and transcript come again without callback_time, then the same callback_id; another transcript is another call', async () => {
    const phone = uniquePhone();
    const call = vendorCall({ phone_number: phone });
    const first = await f.post(vendor.key, call);
    const again = await f.post(vendor.key, { ...call, first_name: 'Mary' });
    await expectOneCall([first, again], phone);
    const other = await f.post(vendor.key, { ...call, transcript: 'Another conversation' });
    expect(other.body.callback_id).not.toBe(first.body.callback_id);
  });

  it('when 20 repeats of each rule arrive at once, then each rule still makes one call and one command', async () => {
    const idemPhone = uniquePhone();
    const timePhone = uniquePhone();
    const textPhone = uniquePhone();
    const key = crypto.randomUUID();
    const textCall = vendorCall({ phone_number: textPhone });
    const keyedCall = vendorCall({ phone_number: idemPhone });
    const callbackTime = inDays(5);
    const bursts = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => f.post(vendor.key, keyedCall, { 'idempotency-key': key }))),
      Promise.all(Array.from({ length: 20 }, (_, i) => f.post(vendor.key, vendorCall({ phone_number: timePhone, callback_time: callbackTime, transcript: `retry ${i}` })))),
      Promise.all(Array.from({ length: 20 }, () => f.post(vendor.key, textCall))),
    ]);
    await expectOneCall(bursts[0], idemPhone);
    await expectOneCall(bursts[1], timePhone);
    await expectOneCall(bursts[2], textPhone);
  });

  it('when the same Idempotency-Key races for ten different phones, then one call is stored and the nine others are 409s naming it', async () => {
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => f.post(vendor.key, vendorCall(), { 'idempotency-key': key })));
    const stored = answers.filter((a) => a.status === 200);
    expect(stored).toHaveLength(1);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(9);
    for (const a of refused) expect(a.body).toMatchObject({ message: WEBHOOK_KEY_REUSED_MESSAGE, idempotency_key: key, callback_id: stored[0]!.body.callback_id });
    const { rows } = await f.pool.query('SELECT count(*)::int AS n FROM vendor_calls WHERE idempotency_key = $1', [key]);
    expect(rows[0].n).toBe(1);
  });
});

describe('a callback_time in the past', () => {
  let g: IngestionFixture;
  let now = new Date('2026-11-26T12:00:00Z');
  beforeAll(async () => {
    g = await startIngestionFixture({ clock: () => now });
  }, 60_000);
  afterAll(async () => {
    await g?.cleanup();
  });

  it('when a new call asks for a time that has passed, then 400 says it was refused and not stored, naming callback_time', async () => {
    const v = await g.createKey();
    const phone = uniquePhone();
    const answer = await g.post(v.key, vendorCall({ phone_number: phone, callback_time: '2026-11-26T05:59:00-06:00' }));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      success: false,
      message: WEBHOOK_PAST_CALLBACK_MESSAGE,
      fields: ['callback_time'],
      errors: [{ field: 'callback_time', message: 'callback_time 2026-11-26T11:59:00.000Z is in the past; send a later time, or leave callback_time out' }],
    });
    const { rows } = await g.pool.query('SELECT id FROM vendor_calls WHERE phone = $1', [phone]);
    expect(rows).toEqual([]);
    expect((await g.outbox('callback_opportunity.create')).filter((m) => m.data.phone === phone)).toEqual([]);
  });

  it('when a stored call is sent again after its callback_time has passed, then it is still answered as the repeat it is', async () => {
    const v = await g.createKey();
    const call = vendorCall({ callback_time: '2026-11-26T18:00:00Z' });
    const key = crypto.randomUUID();
    const first = await g.post(v.key, call, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    now = new Date('2026-11-27T09:00:00Z');
    const retried = await g.post(v.key, call, { 'idempotency-key': key });
    expect(retried.body).toEqual({ success: true, message: WEBHOOK_REPEAT_MESSAGE, callback_id: first.body.callback_id });
    const withoutKey = await g.post(v.key, call);
    expect(withoutKey.body).toEqual({ success: true, message: WEBHOOK_REPEAT_MESSAGE, callback_id: first.body.callback_id });
  });
});

describe('the transcript rule after 24 hours', () => {
  let g: IngestionFixture;
  let now = new Date('2026-11-26T12:00:00Z');
  beforeAll(async () => {
    g = await startIngestionFixture({ clock: () => now });
  }, 60_000);
  afterAll(async () => {
    await g?.cleanup();
  });

  it('when the same transcript comes again more than 24 hours later, then it is a new call', async () => {
    const v = await g.createKey();
    const call = vendorCall();
    const first = await g.post(v.key, call);
    now = new Date(now.getTime() + 23 * 3600_000);
    const within = await g.post(v.key, call);
    expect(within.body.callback_id).toBe(first.body.callback_id);
    now = new Date(now.getTime() + 2 * 3600_000);
    const after = await g.post(v.key, call);
    expect(after.status).toBe(200);
    expect(after.body.callback_id).not.toBe(first.body.callback_id);
  });
});

describe('failures', () => {
  it('when PostgreSQL is away, then 503 in the webhook shape with Retry-After, not a 500', async () => {
    const { startIngestion } = await import('../src/service');
    const { parseConfig, createLogger } = await import('@warmline/platform');
    const { ingestionEnv } = await import('../src/config');
    const { proxyFor } = await import('@warmline/platform/testing/outage');
    const pg = await proxyFor(f.system.db.url);
    const config = parseConfig(ingestionEnv, { ...f.system.env, DATABASE_URL: pg.url, INGESTION_PORT: '0' });
    const second = await startIngestion(config, createLogger('ingestion', 'silent'));
    try {
      pg.proxy.cut();
      const answer = await fetch(`${second.url}/api/callbacks/brightcall`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': vendor.key, 'x-warmline-identity': (await import('@warmline/platform/testing/index')).signTestIdentity('ingestion', { userId: null, username: null, isAdmin: false }) },
        body: JSON.stringify(vendorCall()),
      });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(await answer.json()).toEqual({ success: false, message: WEBHOOK_FAILED_MESSAGE });
    } finally {
      await pg.proxy.restore();
      await second.stop();
      await pg.proxy.close();
    }
  }, 30_000);

  it('when storing fails unexpectedly mid-transaction, then 500 Failed to process callback and nothing of the call is kept', async () => {
    const phone = uniquePhone();
    // A trigger that refuses this one phone's outbox row: the call row was already written in the same transaction.
    await f.pool.query(`CREATE FUNCTION refuse_test_phone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.envelope->'data'->>'phone' = '${phone}' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await f.pool.query('CREATE TRIGGER refuse_test_phone BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION refuse_test_phone()');
    try {
      const answer = await f.post(vendor.key, vendorCall({ phone_number: phone }));
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ success: false, message: WEBHOOK_FAILED_MESSAGE });
      expect(await storedCalls(phone)).toEqual([]);
      const { rows } = await f.pool.query(`SELECT count(*)::int AS n FROM outbox WHERE envelope->'data'->>'phone' = $1`, [phone]);
      expect(rows[0].n).toBe(0);
    } finally {
      await f.pool.query('DROP TRIGGER refuse_test_phone ON outbox');
      await f.pool.query('DROP FUNCTION refuse_test_phone()');
    }
  });
});
