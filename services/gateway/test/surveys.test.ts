import { randomBytes } from 'node:crypto';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_EXCHANGE } from '@warmline/contracts';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { DEMO_SALESPERSON, seedDemoSalespeople } from '../src/seed';
import { startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';
import { SAM_RIVERA, surveyAnswers } from './survey-answers';

/**
 * The survey funnels through the real gateway (PostgreSQL, Redis, RabbitMQ): each creates an
 * account and stores the answers in one transaction, or nothing at all.
 */

let gw: GatewayFixture;
let broker: ChannelModel;
let tap: Channel;
/** Envelopes the events exchange carried, as an analyst's queue sees them. */
const published: Array<{ id: string; type: string; data: Record<string, unknown> }> = [];

beforeAll(async () => {
  gw = await startGatewayFixture();
  await seedDemoSalespeople(gw.pool);
  broker = await amqp.connect(TEST_AMQP_URL);
  const exchange = `${gw.config.BUS_NAMESPACE}.${EVENTS_EXCHANGE}`;
  // The gateway declares it (with its alternate exchange) once its broker connection is up, which
  // may be a moment after it listens; an analyst only binds to it. A failed check closes the
  // channel it ran on, so each try uses a channel of its own.
  await waitFor('the gateway to declare the events exchange', async () => {
    const probe = await broker.createChannel();
    probe.on('error', () => undefined);
    await probe.checkExchange(exchange);
    await probe.close();
    return true;
  });
  tap = await broker.createChannel();
  const { queue } = await tap.assertQueue('', { exclusive: true, autoDelete: true });
  for (const key of ['account.registered', 'survey.submitted']) await tap.bindQueue(queue, exchange, key);
  await tap.consume(queue, (message) => {
    if (message) published.push(JSON.parse(message.content.toString()));
  }, { noAck: true });
});

afterAll(async () => {
  await broker?.close();
  await gw?.cleanup();
});

/** A valid main survey with unique account names (data factory). */
function mainSurvey(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return surveyAnswers(SAM_RIVERA, { workingStates: 'TX, FL', totalTransfers: '50', transfersPerDay: '5', callsPerDay: '120', transferHours: '9am-5pm CST', ...overrides });
}

function campaignSurvey(overrides: Record<string, unknown> = {}) {
  return mainSurvey({ leadType: 'Call-Backs', totalCallbacks: '20', callbackPreference: 'Mornings', ...overrides });
}

async function count(table: 'users' | 'survey_responses' | 'outbox'): Promise<number> {
  const { rows } = await gw.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}

async function responseRow(id: string) {
  const { rows } = await gw.pool.query('SELECT * FROM survey_responses WHERE id = $1', [id]);
  return rows[0];
}

async function outboxOf(type: string, match: Record<string, unknown>) {
  const { rows } = await gw.pool.query<{ envelope: { data: Record<string, unknown> } }>(
    'SELECT envelope FROM outbox WHERE routing_key = $1',
    [type],
  );
  return rows.map((r) => r.envelope.data).filter((data) => Object.entries(match).every(([k, v]) => data[k] === v));
}

let visitors = 0;
/** A browser from an address of its own, so each test's sign-ups stay under the per-address limit. */
function visitor(): Browser {
  visitors += 1;
  return gw.browser({ ip: `10.77.${Math.floor(visitors / 250)}.${(visitors % 250) + 1}` });
}

async function loginAsAdmin(): Promise<Browser> {
  const browser = visitor();
  await browser.login(gw.admin.username, gw.admin.password);
  return browser;
}

describe('the main survey (POST /api/survey)', () => {
  it('when a prospect submits a valid survey, then their account and answers are stored and they can log in', async () => {
    const body = mainSurvey();
    const answer = await visitor().post('/api/survey', body);

    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({
      message: 'Survey submitted',
      responseId: expect.any(String),
      userId: expect.any(String),
      totalPrice: null,
    });
    const login = await visitor().post('/api/login', { username: body.username, password: body.password });
    expect(login.status).toBe(200);
    expect(login.json).toMatchObject({
      id: answer.json.userId,
      username: body.username,
      email: body.email,
      firstName: 'Sam',
      lastName: 'Rivera',
      agencyName: 'Rivera Insurance',
      role: 'Agency Owner',
      phone: '(555) 123-4567',
      isAdmin: false,
      liveTransferPrice: '35.00',
    });
    const row = await responseRow(answer.json.responseId);
    expect(row).toMatchObject({
      user_id: answer.json.userId,
      funnel: 'main',
      brand: 'WarmLine',
      salesperson: 'Survey Form',
      salesperson_id: null,
      lead_type: 'Live Transfers',
      working_states: 'TX, FL',
      total_transfers: 50,
      transfers_per_day: 5,
      calls_per_day: 120,
      transfer_hours: '9am-5pm CST',
      total_price: null,
    });
    expect(JSON.stringify(row)).not.toContain('sunny-harbor-42');
    const { rows } = await gw.pool.query('SELECT password_hash FROM users WHERE id = $1', [answer.json.userId]);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
  });

  it('when a survey is stored, then thin account.registered and survey.submitted events and the sales notice and welcome commands are written once each', async () => {
    const body = mainSurvey({ leadType: 'Insurance Recruiting', totalCallbacks: '4', callbackPreference: 'Licensed in TX' });
    const answer = await visitor().post('/api/survey', body);
    expect(answer.status).toBe(201);
    const { userId, responseId } = answer.json;

    // Events: ids and facts only; analysts never see the agent's name, e-mail or username.
    expect(await outboxOf('account.registered', { userId })).toEqual([{ userId, role: 'Agency Owner' }]);
    expect(await outboxOf('survey.submitted', { userId })).toEqual([
      { responseId, userId, brand: 'WarmLine', funnel: 'main', salespersonId: null, leadType: 'Insurance Recruiting' },
    ]);
    // Commands: what the notifications worker needs to write and address each e-mail.
    expect(await outboxOf('email.survey_sales_notice', { userId })).toEqual([
      {
        to: gw.config.SALES_TEAM_EMAIL,
        responseId,
        userId,
        funnel: 'main',
        agent: {
          firstName: 'Sam',
          lastName: 'Rivera',
          agencyName: 'Rivera Insurance',
          role: 'Agency Owner',
          phone: '(555) 123-4567',
          email: body.email,
          username: body.username,
        },
        answers: { leadType: 'Insurance Recruiting', workingStates: 'TX, FL', totalCallbacks: 4, callbackPreference: 'Licensed in TX' },
        estimatedOrderCents: null,
      },
    ]);
    expect(await outboxOf('email.welcome', { to: body.email })).toEqual([
      { to: body.email, firstName: 'Sam', username: body.username, loginUrl: `${gw.config.PUBLIC_URL.replace(/\/+$/, '')}/login`, brand: 'WarmLine' },
    ]);
    // The gateway writes no e-mail body any more: notifications does.
    expect(await outboxOf('email.send', {})).toEqual([]);
    const { rows: written } = await gw.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM outbox WHERE envelope->'data'->>'userId' = $1 OR envelope->'data'->>'to' = $2",
      [userId, body.email],
    );
    expect(written[0]!.n).toBe(4);
    const { rows: all } = await gw.pool.query<{ envelope: unknown }>('SELECT envelope FROM outbox');
    expect(JSON.stringify(all)).not.toContain('sunny-harbor-42');

    // The relay stamps each row once the broker confirmed it; by then the tap has it.
    await waitFor('the survey events to be published', async () => {
      const { rows } = await gw.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL AND envelope->'data'->>'userId' = $1",
        [userId],
      );
      return rows[0]!.n === 0 && published.filter((e) => e.data.userId === userId).length >= 2;
    });
    const mine = published.filter((e) => e.data.userId === userId);
    expect(mine.map((e) => e.type).sort()).toEqual(['account.registered', 'survey.submitted']);
    expect(JSON.stringify(mine)).not.toContain('sunny-harbor-42');
    expect(JSON.stringify(mine)).not.toContain(String(body.email));
    expect(JSON.stringify(mine)).not.toContain(String(body.username));
  });

  it('when a field is missing or wrong, then the answer is 400 with the spec message and nothing is stored', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ firstName: '' }, 'First name is required'],
      [{ firstName: '   ' }, 'First name is required'],
      [{ lastName: undefined }, 'Last name is required'],
      [{ agencyName: '' }, 'Agency name is required'],
      [{ role: '' }, 'Please select your role'],
      [{ role: 'Broker' }, 'Please select your role'],
      [{ phone: '555-1234' }, 'Phone number must be at least 10 digits'],
      [{ phone: 'call me please' }, 'Phone number must be at least 10 digits'],
      [{ email: 'not-an-email' }, 'Invalid email address'],
      [{ username: 'ab' }, 'Username must be at least 3 characters'],
      [{ password: '1234567' }, 'Password must be at least 8 characters'],
      [{ password: 'password1' }, 'This password is too common'],
      [{ leadType: '' }, 'Please select a service type'],
      [{ leadType: 'Call-Backs' }, 'Please select a service type'],
      [{ workingStates: '' }, 'Please specify your working states'],
      [{ totalTransfers: '-3' }, 'Total transfers cannot be negative'],
      [{ leadType: 'Aged Leads', ageRange: '10-20' }, 'Please select an age range (30-60, 60-90 or 90-180 days)'],
    ];
    const before = { users: await count('users'), responses: await count('survey_responses'), outbox: await count('outbox') };
    for (const [override, message] of cases) {
      const answer = await visitor().post('/api/survey', mainSurvey(override));
      expect(answer.status, JSON.stringify(override)).toBe(400);
      expect(answer.json.error, JSON.stringify(override)).toBe(message);
    }
    const empty = await visitor().post('/api/survey', {});
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe('First name is required');
    expect(empty.json.issues.map((i: { message: string }) => i.message)).toEqual(
      expect.arrayContaining(['Please select your role', 'Invalid email address', 'Please select a service type']),
    );
    expect({ users: await count('users'), responses: await count('survey_responses'), outbox: await count('outbox') }).toEqual(before);
  });

  it('when a count is not a number, then it is stored as an integer, a non-number as 0', async () => {
    const answer = await visitor().post('/api/survey', mainSurvey({ totalTransfers: 'abc', transfersPerDay: '12abc', callsPerDay: 7.9 }));
    expect(answer.status).toBe(201);
    expect(await responseRow(answer.json.responseId)).toMatchObject({ total_transfers: 0, transfers_per_day: 12, calls_per_day: 7 });
  });

  it("when the lead type changed after filling another block, then only the chosen block's answers are stored", async () => {
    const answer = await visitor().post('/api/survey', mainSurvey({ leadType: 'Aged Leads', ageRange: '60-90', totalTransfers: '-5' }));
    expect(answer.status).toBe(201);
    expect(await responseRow(answer.json.responseId)).toMatchObject({
      age_range: '60-90',
      total_transfers: null,
      transfers_per_day: null,
      calls_per_day: null,
      transfer_hours: null,
      timezone: null,
    });
  });

  it('when the username is taken (in any case), then the answer is 409 naming it and nothing is written', async () => {
    const { user } = await gw.createAgent();
    const before = { users: await count('users'), responses: await count('survey_responses'), outbox: await count('outbox') };
    const answer = await visitor().post('/api/survey', mainSurvey({ username: user.username.toUpperCase() }));
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({ error: 'Username is already taken', field: 'username' });
    expect({ users: await count('users'), responses: await count('survey_responses'), outbox: await count('outbox') }).toEqual(before);
  });

  it('when the e-mail already has an account, then the answer is 409 naming it and no user or response is left behind', async () => {
    const { user } = await gw.createAgent();
    const body = mainSurvey({ email: user.email.toUpperCase() });
    const before = { users: await count('users'), responses: await count('survey_responses'), outbox: await count('outbox') };
    const answer = await visitor().post('/api/survey', body);
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({ error: 'An account with this email already exists', field: 'email' });
    expect({ users: await count('users'), responses: await count('survey_responses'), outbox: await count('outbox') }).toEqual(before);
    const { rows } = await gw.pool.query('SELECT 1 FROM users WHERE username = $1', [body.username]);
    expect(rows).toEqual([]);
  });

  it("when the username contains @ (another account's e-mail, in any case), then the answer is 400 and nothing is written (a login by e-mail must find its own account)", async () => {
    const { user } = await gw.createAgent();
    const before = { users: await count('users'), responses: await count('survey_responses'), outbox: await count('outbox') };
    for (const username of [user.email.toUpperCase(), 'pat@home']) {
      const answer = await visitor().post('/api/survey', mainSurvey({ username }));
      expect(answer.status, username).toBe(400);
      expect(answer.json.error, username).toBe('Username cannot contain @');
    }
    expect({ users: await count('users'), responses: await count('survey_responses'), outbox: await count('outbox') }).toEqual(before);
  });

  it("when the e-mail equals an older account's username (in any case), then the answer is 409 naming the e-mail", async () => {
    const { user } = await gw.createAgent();
    const legacy = `old_${randomBytes(4).toString('hex')}@legacy.example`;
    await gw.pool.query('UPDATE users SET username = $2 WHERE id = $1', [user.id, legacy]);
    const answer = await visitor().post('/api/survey', mainSurvey({ email: legacy.toUpperCase() }));
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({ error: 'An account with this email already exists', field: 'email' });
  });

  it('when the same survey is sent twice at once, then one account is created and the other gets 409', async () => {
    const body = mainSurvey();
    const before = { users: await count('users'), responses: await count('survey_responses') };
    const answers = await Promise.all([visitor().post('/api/survey', body), visitor().post('/api/survey', body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)?.json.error).toBe('Username is already taken');
    expect({ users: await count('users'), responses: await count('survey_responses') }).toEqual({
      users: before.users + 1,
      responses: before.responses + 1,
    });
  });
});

describe('working states are real state codes (issue 17)', () => {
  it("when the states are typed as names and codes in any case, then they are stored as codes ('Texas, fl' → 'TX, FL')", async () => {
    const body = mainSurvey({ workingStates: 'Texas, fl' });
    const answer = await visitor().post('/api/survey', body);

    expect(answer.status).toBe(201);
    expect(await responseRow(answer.json.responseId)).toMatchObject({ working_states: 'TX, FL' });
    // What the transfer form and the catalog's call-back matching read back is the stored codes.
    const agent = visitor();
    await agent.login(body.username as string, body.password as string);
    const saved = await agent.get('/api/user-survey');
    expect(saved.json).toMatchObject({ workingStates: 'TX, FL' });
  });

  it("when a state is not a US state ('ZZ', 'Texass'), then every survey answers 400 naming it and nothing is stored", async () => {
    const before = { users: await count('users'), responses: await count('survey_responses') };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/survey', mainSurvey({ workingStates: 'ZZ' }), "'ZZ' is not a US state — use 2-letter codes like TX, FL"],
      ['/api/survey', mainSurvey({ workingStates: 'TX, Texass' }), "'Texass' is not a US state — use 2-letter codes like TX, FL"],
      ['/api/ringcloud-survey', campaignSurvey({ workingStates: 'zz; qq' }), "'zz', 'qq' are not US states — use 2-letter codes like TX, FL"],
      ['/api/john-survey', campaignSurvey({ workingStates: 'ZZ', timezone: 'CST' }), "'ZZ' is not a US state — use 2-letter codes like TX, FL"],
    ];
    for (const [path, body, message] of cases) {
      const answer = await visitor().post(path, body);
      expect(answer.status, `${path} ${String(body.workingStates)}`).toBe(400);
      expect(answer.json.error).toBe(message);
    }
    expect({ users: await count('users'), responses: await count('survey_responses') }).toEqual(before);
  });
});

describe('the saved survey (GET /api/user-survey)', () => {
  it('when nobody is logged in, then the answer is 401', async () => {
    expect((await visitor().get('/api/user-survey')).status).toBe(401);
  });

  it("when the survey's user is logged in, then it returns their answers", async () => {
    const body = mainSurvey({ workingStates: 'CA', totalTransfers: '30', transfersPerDay: '3', callsPerDay: '90', transferHours: '8-4 PST' });
    expect((await visitor().post('/api/survey', body)).status).toBe(201);
    const browser = visitor();
    await browser.login(String(body.username), String(body.password));
    const answer = await browser.get('/api/user-survey');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      leadType: 'Live Transfers',
      totalTransfers: 30,
      transfersPerDay: 3,
      callsPerDay: 90,
      transferHours: '8-4 PST',
      workingStates: 'CA',
      createdAt: expect.any(String),
    });
  });

  it('when the logged-in user never filled in a survey, then the answer is null', async () => {
    const { user, password } = await gw.createAgent();
    const browser = visitor();
    await browser.login(user.username, password);
    const answer = await browser.get('/api/user-survey');
    expect(answer.status).toBe(200);
    expect(answer.json).toBeNull();
  });
});

describe('the second brand (POST /api/ringcloud-survey)', () => {
  it('when a valid RingCloud survey is sent, then the account is created and the answers are stored with the brand and the order price', async () => {
    const body = mainSurvey({ leadType: 'Live Transfers', totalTransfers: '10', salesperson: 'Someone Else' });
    const answer = await visitor().post('/api/ringcloud-survey', body);
    expect(answer.status).toBe(201);
    expect(answer.json.totalPrice).toBe(37_000);
    expect(await responseRow(answer.json.responseId)).toMatchObject({
      funnel: 'ringcloud',
      brand: 'RingCloud',
      salesperson: 'RingCloud',
      total_transfers: 10,
      total_price: 37_000,
    });
    expect(await outboxOf('survey.submitted', { userId: answer.json.userId })).toEqual([
      { responseId: answer.json.responseId, userId: answer.json.userId, brand: 'RingCloud', funnel: 'ringcloud', salespersonId: null, leadType: 'Live Transfers' },
    ]);
    expect(await outboxOf('email.survey_sales_notice', { userId: answer.json.userId })).toMatchObject([
      { funnel: 'ringcloud', estimatedOrderCents: 37_000, answers: { leadType: 'Live Transfers', totalTransfers: 10 } },
    ]);
    // Welcomed in the second brand's name (issue 12).
    expect(await outboxOf('email.welcome', { to: body.email })).toMatchObject([{ brand: 'RingCloud', username: body.username }]);
    expect((await visitor().post('/api/login', { username: body.username, password: body.password })).status).toBe(200);
  });

  it('when the lead type is Aged Leads or Call-Backs, then the price follows the contracts table', async () => {
    const aged = await visitor().post('/api/ringcloud-survey', mainSurvey({ leadType: 'Aged Leads', ageRange: '90-180' }));
    expect(aged.json.totalPrice).toBe(100 * 300);
    const callbacks = await visitor().post('/api/ringcloud-survey', campaignSurvey({ totalCallbacks: '20' }));
    expect(callbacks.json.totalPrice).toBe(20 * 1500);
  });

  it('when the answers are incomplete for its checkout, then the answer is 400 with a message for the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ leadType: '' }, 'Please select a lead type'],
      [{ leadType: 'Insurance Recruiting' }, 'Please select a lead type'],
      [{ leadType: 'Live Transfers', totalTransfers: '' }, 'Please enter how many transfers you need (at least 1)'],
      [{ leadType: 'Call-Backs', totalCallbacks: 'none' }, 'Please enter how many callbacks you need (at least 1)'],
      [{ leadType: 'Aged Leads' }, 'Please select an age range'],
      [{ leadType: 'Live Transfers', totalTransfers: '20000' }, 'A RingCloud Live Transfers order allows 1 to 10000 transfers'],
      [{ phone: '123' }, 'Phone number must be at least 10 digits'],
    ];
    for (const [override, message] of cases) {
      const answer = await visitor().post('/api/ringcloud-survey', mainSurvey({ totalTransfers: undefined, ...override }));
      expect(answer.status, JSON.stringify(override)).toBe(400);
      expect(answer.json.error, JSON.stringify(override)).toBe(message);
    }
  });

  it('when the e-mail is taken, then the answer is 409 naming it', async () => {
    const { user } = await gw.createAgent();
    const answer = await visitor().post('/api/ringcloud-survey', campaignSurvey({ email: user.email }));
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({ error: 'An account with this email already exists', field: 'email' });
  });
});

describe('referral surveys (/api/{slug}-survey, /api/{slug}-responses)', () => {
  it('when the seeded salesperson is asked for, then the public lookup names them; unknown or inactive ones are 404', async () => {
    const known = await visitor().get(`/api/salespeople/${DEMO_SALESPERSON.slug}`);
    expect(known.status).toBe(200);
    expect(known.json).toEqual({ slug: 'john', displayName: 'John Smith' });
    expect((await visitor().get('/api/salespeople/JOHN')).json).toEqual({ slug: 'john', displayName: 'John Smith' });
    expect((await visitor().get('/api/salespeople/nobody')).status).toBe(404);
    await gw.pool.query("INSERT INTO salespeople (slug, display_name, active) VALUES ('gone', 'Gone Person', false) ON CONFLICT DO NOTHING");
    expect((await visitor().get('/api/salespeople/gone')).status).toBe(404);
    expect((await visitor().post('/api/gone-survey', campaignSurvey())).status).toBe(404);
  });

  it('when a prospect submits the referral survey, then the account is created and the response is credited to the salesperson', async () => {
    const body = campaignSurvey({ timezone: 'CST', leadType: 'Live Transfers', totalTransfers: '12', transfersPerDay: '2' });
    const answer = await visitor().post('/api/john-survey', body);
    expect(answer.status).toBe(201);
    expect(await responseRow(answer.json.responseId)).toMatchObject({
      funnel: 'referral',
      brand: 'WarmLine',
      salesperson: 'John Smith',
      timezone: 'CST',
      total_transfers: 12,
      total_price: 12 * 3700,
      // The Call-Backs answers were left behind when the lead type changed.
      total_callbacks: null,
      callback_preference: null,
    });
    const { rows: salespeople } = await gw.pool.query<{ id: string }>("SELECT id FROM salespeople WHERE slug = 'john'");
    expect(await outboxOf('survey.submitted', { userId: answer.json.userId })).toEqual([
      {
        responseId: answer.json.responseId,
        userId: answer.json.userId,
        brand: 'WarmLine',
        funnel: 'referral',
        salespersonId: salespeople[0]!.id,
        leadType: 'Live Transfers',
      },
    ]);
    expect(await outboxOf('email.survey_sales_notice', { userId: answer.json.userId })).toMatchObject([
      {
        funnel: 'referral',
        salesperson: { slug: 'john', displayName: 'John Smith' },
        answers: { timezone: 'CST', totalTransfers: 12, transfersPerDay: 2 },
        estimatedOrderCents: 12 * 3700,
      },
    ]);
    expect((await visitor().post('/api/login', { username: body.username, password: body.password })).status).toBe(200);
  });

  it('when the referral survey is wrong, then the answer is 400 with the message; an unknown slug is 404 whatever the body', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ timezone: 'GMT' }, 'Please select a timezone (PST, MST, CST or EST)'],
      [{ leadType: 'Insurance Recruiting' }, 'Please select a lead type'],
      [{ email: 'x@' }, 'Invalid email address'],
    ];
    for (const [override, message] of cases) {
      const answer = await visitor().post('/api/john-survey', campaignSurvey(override));
      expect(answer.status, JSON.stringify(override)).toBe(400);
      expect(answer.json.error).toBe(message);
    }
    const unknown = await visitor().post('/api/nobody-survey', campaignSurvey());
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe('Survey not found');
    expect((await visitor().post('/api/nobody-survey', {})).status).toBe(404);
  });

  it('when the responses are asked for, then only an admin gets them (401 anonymous, 403 agent)', async () => {
    expect((await visitor().get('/api/john-responses')).status).toBe(401);
    const { user, password } = await gw.createAgent();
    const agent = visitor();
    await agent.login(user.username, password);
    expect((await agent.get('/api/john-responses')).status).toBe(403);
    expect((await agent.get('/api/nobody-responses')).status).toBe(403);
    const admin = await loginAsAdmin();
    expect((await admin.get('/api/nobody-responses')).status).toBe(404);
  });

  it("when an admin lists a salesperson's responses, then each has the test-campaign fields, newest first, and no other funnel's", async () => {
    const first = campaignSurvey({ leadType: 'Aged Leads', ageRange: '30-60', timezone: 'PST' });
    const second = campaignSurvey({ timezone: 'EST' });
    const a = await visitor().post('/api/john-survey', first);
    const b = await visitor().post('/api/john-survey', second);
    const other = mainSurvey();
    const elsewhere = await visitor().post('/api/survey', other);
    expect([a.status, b.status, elsewhere.status]).toEqual([201, 201, 201]);

    const admin = await loginAsAdmin();
    const answer = await admin.get('/api/john-responses');
    expect(answer.status).toBe(200);
    const rows = answer.json as Array<Record<string, unknown>>;
    expect(rows.every((r) => r.salesperson === 'John Smith')).toBe(true);
    expect(rows.some((r) => r.email === other.email || r.id === elsewhere.json.responseId)).toBe(false);
    const ids = rows.map((r) => r.id);
    expect(ids.indexOf(b.json.responseId)).toBeLessThan(ids.indexOf(a.json.responseId));
    expect(rows.find((r) => r.id === b.json.responseId)).toEqual({
      id: b.json.responseId,
      firstName: 'Sam',
      lastName: 'Rivera',
      agencyName: 'Rivera Insurance',
      role: 'Agency Owner',
      phone: '(555) 123-4567',
      email: second.email,
      username: second.username,
      leadType: 'Call-Backs',
      workingStates: 'TX, FL',
      totalTransfers: null,
      transfersPerDay: null,
      callsPerDay: null,
      transferHours: null,
      timezone: 'EST',
      totalCallbacks: 20,
      callbackPreference: 'Mornings',
      ageRange: null,
      totalPrice: 30_000,
      salesperson: 'John Smith',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(rows.find((r) => r.id === a.json.responseId)).toMatchObject({ leadType: 'Aged Leads', ageRange: '30-60', totalPrice: 500 * 100, timezone: 'PST' });
    expect(JSON.stringify(rows)).not.toContain('sunny-harbor-42');
  });

  it('when salespeople are named like the fixed survey routes, then those routes still answer as themselves', async () => {
    // The seed refuses such slugs; a row written by hand must still not shadow a fixed route.
    await gw.pool.query(
      "INSERT INTO salespeople (slug, display_name) VALUES ('ringcloud', 'Shadow R'), ('user', 'Shadow U') ON CONFLICT DO NOTHING",
    );
    const ringcloud = await visitor().post('/api/ringcloud-survey', campaignSurvey());
    expect(ringcloud.status).toBe(201);
    expect((await responseRow(ringcloud.json.responseId)).salesperson).toBe('RingCloud');
    const main = await visitor().post('/api/survey', mainSurvey());
    expect((await responseRow(main.json.responseId)).funnel).toBe('main');
    expect((await visitor().get('/api/user-survey')).status).toBe(401);
    await expect(seedDemoSalespeople(gw.pool, [{ slug: 'survey', displayName: 'Nope' }])).rejects.toThrow(/route name/);
  });

  it('when the demo seed runs again, then the salesperson is not duplicated', async () => {
    expect(await seedDemoSalespeople(gw.pool)).toEqual(['exists']);
    const { rows } = await gw.pool.query("SELECT count(*)::int AS n FROM salespeople WHERE slug = 'john'");
    expect(rows[0].n).toBe(1);
  });
});

describe('probing for taken accounts', () => {
  // Last in this file: it uses up this IP's allowance of conflicts.
  it('when one address keeps sending taken usernames, then it is refused with 429 after 20 conflicts, valid surveys included', async () => {
    const { user } = await gw.createAgent();
    const prober = { ip: '192.0.2.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 25 && !statuses.includes(429); i += 1) {
      statuses.push((await gw.browser(prober).post('/api/survey', mainSurvey({ username: user.username }))).status);
    }
    expect(statuses.filter((s) => s === 409).length).toBeLessThanOrEqual(20);
    expect(statuses.at(-1)).toBe(429);
    const valid = await gw.browser(prober).post('/api/survey', mainSurvey());
    expect(valid.status).toBe(429);
    expect(valid.json.error).toMatch(/^Too many sign-up attempts with taken usernames or emails\. Please try again in \d+ minutes?\.$/);
    expect(Number(valid.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('sign-up abuse', () => {
  it('when one address submits a sixth survey within the hour, then it is refused with 429 and another address still signs up', async () => {
    const signer = gw.browser({ ip: '192.0.2.150' });
    const paths = ['/api/survey', '/api/survey', '/api/ringcloud-survey', `/api/${DEMO_SALESPERSON.slug}-survey`, '/api/survey'];
    for (const path of paths) {
      const body = path === '/api/survey' ? mainSurvey() : campaignSurvey();
      const answer = await signer.post(path, body);
      expect(answer.status, `${path}: ${answer.text}`).toBe(201);
    }
    const usersBefore = await count('users');
    const sixth = await signer.post('/api/survey', mainSurvey());
    expect(sixth.status).toBe(429);
    expect(sixth.json.error).toBe('Too many sign-ups from this address; try again later');
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await count('users')).toBe(usersBefore);

    expect((await gw.browser({ ip: '192.0.2.151' }).post('/api/survey', mainSurvey())).status).toBe(201);
  });

  it('when a survey is refused for a taken username, then it does not use up one of the five sign-ups', async () => {
    const { user } = await gw.createAgent();
    const signer = gw.browser({ ip: '192.0.2.160' });
    for (let i = 0; i < 3; i++) expect((await signer.post('/api/survey', mainSurvey({ username: user.username }))).status).toBe(409);
    for (let i = 0; i < 5; i++) expect((await signer.post('/api/survey', mainSurvey())).status).toBe(201);
  });
});
