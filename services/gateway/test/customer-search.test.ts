import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEARCH_RESULTS, type CustomerSearchResult } from '@warmline/contracts';
import { startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';

/**
 * The admin's customer search (issue 12, GET /api/search-customers): the gateway's users and
 * survey responses from its own database, and stand-in orders and partners services at
 * /internal/search (told what to answer, how late, or never), as the real ones answer (their
 * own tests: services/orders/test/customer-search.test.ts and the partners service's).
 */

/** Long enough for a stand-in that answers at once on a busy machine; the never-answering one waits it out. */
const TIMEOUT_MS = 1_500;

let gw: GatewayFixture;
let admin: Browser;
let orders: Server;
let partners: Server;
/** What a stand-in service does with /internal/search. */
interface StandInSearch {
  status?: number;
  body?: unknown;
  delayMs?: number;
  never?: boolean;
}
/** What the stand-in orders service does with /internal/search. */
let ordersSearch: StandInSearch = { body: [] };
/** What the stand-in partners service does with /internal/search (issue 14). */
let partnersSearch: StandInSearch = { body: [] };
/** The query strings and identities the stand-in orders service received. */
const asked: { q: string | null; identity: string | undefined }[] = [];
/** The same for the stand-in partners service. */
const askedPartners: { q: string | null; identity: string | undefined }[] = [];

/** A stand-in owner of people answering /internal/search as `behaviour()` says. */
async function standIn(behaviour: () => StandInSearch, log: { q: string | null; identity: string | undefined }[]): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname !== '/internal/search') {
      res.writeHead(404).end();
      return;
    }
    log.push({ q: url.searchParams.get('q'), identity: req.headers['x-warmline-identity'] as string | undefined });
    const { status = 200, body = [], delayMs = 0, never = false } = behaviour();
    if (never) return; // holds the connection open and never answers
    setTimeout(() => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(async () => {
  orders = await standIn(() => ordersSearch, asked);
  partners = await standIn(() => partnersSearch, askedPartners);
  gw = await startGatewayFixture({
    env: { ORDERS_URL: urlOf(orders), PARTNERS_URL: urlOf(partners), SEARCH_SOURCE_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
  admin = gw.browser();
  await admin.login(gw.admin.username, gw.admin.password);
});

afterAll(async () => {
  await gw?.cleanup();
  for (const server of [orders, partners]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

/** A unique word to search for, so each test sees only its own people. */
const uniqueTag = () => `zq${randomUUID().replace(/-/g, '').slice(0, 8)}`;

interface Person {
  firstName?: string;
  lastName?: string;
  agencyName?: string;
  email: string;
  username: string;
  phone?: string;
  /** How long ago, in minutes (newest first ordering). */
  minutesAgo?: number;
}

async function insertUser(p: Person): Promise<string> {
  const { rows } = await gw.pool.query<{ id: string }>(
    `INSERT INTO users (username, email, first_name, last_name, agency_name, phone, password_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'not-a-hash', now() - make_interval(mins => $7)) RETURNING id`,
    [p.username, p.email, p.firstName ?? 'Avery', p.lastName ?? 'Agent', p.agencyName ?? '', p.phone ?? '', p.minutesAgo ?? 0],
  );
  return rows[0]!.id;
}

async function insertSurveyResponse(p: Person & { leadType?: string; salesperson?: string }): Promise<string> {
  const { rows } = await gw.pool.query<{ id: string }>(
    `INSERT INTO survey_responses (funnel, brand, salesperson, first_name, last_name, agency_name, role, phone, email, username,
                                   lead_type, working_states, created_at)
     VALUES ('main', 'WarmLine', $1, $2, $3, $4, 'Agency Owner', $5, $6, $7, $8, 'TX', now() - make_interval(mins => $9)) RETURNING id`,
    [p.salesperson ?? 'Survey Form', p.firstName ?? 'Sam', p.lastName ?? 'Rivera', p.agencyName ?? 'Rivera Insurance', p.phone ?? '(555) 000-0000',
      p.email, p.username, p.leadType ?? 'Live Transfers', p.minutesAgo ?? 0],
  );
  return rows[0]!.id;
}

async function search(q: string, limit?: string): Promise<{ status: number; results: CustomerSearchResult[]; partial: string | null; more: string | null; json: unknown }> {
  const answer = await admin.get(`/api/search-customers?q=${encodeURIComponent(q)}${limit === undefined ? '' : `&limit=${limit}`}`);
  return {
    status: answer.status,
    results: answer.json as CustomerSearchResult[],
    partial: answer.headers.get('x-search-partial'),
    more: answer.headers.get('x-search-more'),
    json: answer.json,
  };
}

function checkoutCustomer(overrides: Partial<CustomerSearchResult> = {}): CustomerSearchResult {
  return {
    type: 'customer', id: randomUUID(), firstName: null, lastName: null, name: 'Quinn Buyer', mainContact: null, agencyName: null,
    businessName: null, salesperson: null, email: 'quinn@example.com', contactEmail: null, phone: '(555) 300-4000', contactPhone: null,
    leadType: null, role: null, username: null, createdAt: new Date().toISOString(), exact: false, ...overrides,
  };
}

/** A partner application as the partners service answers it: the business and its contact, no person fields. */
function partnerApplicant(overrides: Partial<CustomerSearchResult> = {}): CustomerSearchResult {
  return {
    type: 'partner', id: randomUUID(), firstName: null, lastName: null, name: null, mainContact: 'Robin Lane', agencyName: null,
    businessName: 'Lane Lead Co', salesperson: null, email: null, contactEmail: 'robin@lanelead.example', phone: null, contactPhone: '(555) 410-2020',
    leadType: null, role: null, username: null, createdAt: new Date().toISOString(), exact: false, ...overrides,
  };
}

describe('GET /api/search-customers, the results', () => {
  it('when an admin searches a name, then users and survey responses both come, in the spec\'s shape with what does not apply null', async () => {
    ordersSearch = { body: [] };
    const tag = uniqueTag();
    const userId = await insertUser({ firstName: 'Dana', lastName: `Cole${tag}`, agencyName: 'Cole Insurance', email: `dana.${tag}@example.com`, username: `dana_${tag}`, phone: '(555) 777-0101' });
    const responseId = await insertSurveyResponse({ firstName: 'Dana', lastName: `Cole${tag}`, agencyName: 'Cole Insurance', email: `dana.${tag}@example.com`, username: `dana_${tag}`, leadType: 'Call-Backs', salesperson: 'Pat Seller' });

    const { status, results } = await search(`dana cole${tag}`);

    expect(status).toBe(200);
    expect(results).toHaveLength(2);
    const user = results.find((r) => r.type === 'user');
    expect(user).toEqual({
      type: 'user', id: userId, firstName: 'Dana', lastName: `Cole${tag}`, name: `Dana Cole${tag}`, mainContact: null, agencyName: 'Cole Insurance',
      businessName: null, salesperson: null, email: `dana.${tag}@example.com`, contactEmail: null, phone: '(555) 777-0101', contactPhone: null,
      leadType: null, role: 'Insurance Agent', username: `dana_${tag}`, createdAt: expect.any(String), exact: false,
    });
    expect(results.find((r) => r.type === 'survey')).toMatchObject({
      type: 'survey', id: responseId, leadType: 'Call-Backs', salesperson: 'Pat Seller', role: 'Agency Owner', agencyName: 'Cole Insurance', businessName: null, contactEmail: null,
    });
    // The orders service was asked with the text and the admin's signed identity.
    expect(asked.at(-1)).toEqual({ q: `dana cole${tag}`, identity: expect.any(String) });
  });

  it("when the orders service knows a paying customer, then it is in the answer as 'customer'", async () => {
    const tag = uniqueTag();
    ordersSearch = { body: [checkoutCustomer({ email: `quinn.${tag}@example.com`, exact: true })] };
    const { results, partial } = await search(`quinn.${tag}@example.com`);
    expect(results).toEqual([expect.objectContaining({ type: 'customer', email: `quinn.${tag}@example.com`, name: 'Quinn Buyer', username: null })]);
    expect(partial).toBeNull();
    ordersSearch = { body: [] };
  });

  it("when the partners service knows an applicant, then it is in the answer as 'partner', asked with the text and the admin's identity", async () => {
    const tag = uniqueTag();
    const applicant = partnerApplicant({ businessName: `Lane${tag} Leads`, contactEmail: `robin.${tag}@lanelead.example` });
    partnersSearch = { body: [applicant] };
    ordersSearch = { body: [] };

    const { status, results, partial } = await search(`lane${tag}`);

    expect(status).toBe(200);
    expect(partial).toBeNull();
    expect(results).toEqual([applicant]);
    expect(askedPartners.at(-1)).toEqual({ q: `lane${tag}`, identity: expect.any(String) });
    partnersSearch = { body: [] };
  });

  it('when the text is in another case than stored (name, agency, e-mail, username), then the same people are found', async () => {
    ordersSearch = { body: [] };
    const tag = uniqueTag();
    const id = await insertUser({ firstName: 'Mia', lastName: 'Lopez', agencyName: `Lopez${tag} Group`, email: `Mia.${tag}@Example.com`, username: `MiaL_${tag}` });
    for (const q of [`LOPEZ${tag} group`, `mia.${tag}@EXAMPLE.COM`, `mial_${tag}`.toUpperCase(), `lopez${tag}`]) {
      const { results } = await search(q);
      expect(results.map((r) => r.id), q).toEqual([id]);
    }
  });

  it("when the text is a full name 'First Last' in another case, accents included, then that person is found by it (issue 27)", async () => {
    ordersSearch = { body: [] };
    const tag = uniqueTag();
    const userId = await insertUser({ firstName: 'Zoë', lastName: `Núñez${tag}`, email: `z.${tag}@example.com`, username: `z_${tag}` });
    const surveyId = await insertSurveyResponse({ firstName: 'Zoë', lastName: `Núñez${tag}`, email: `zn.${tag}@example.com`, username: `zn_${tag}` });
    // Someone with only the first name, and someone with only the last, are not "Zoë Núñez".
    await insertUser({ firstName: 'Zoë', lastName: `Other${tag}`, email: `o.${tag}@example.com`, username: `o_${tag}` });
    await insertUser({ firstName: 'Ana', lastName: `Núñez${tag}`, email: `a.${tag}@example.com`, username: `a_${tag}` });

    for (const q of [`zoë núñez${tag}`, `ZOË NÚÑEZ${tag.toUpperCase()}`, `oë núñez${tag}`]) {
      const { status, results } = await search(q);
      expect(status, q).toBe(200);
      expect(results.map((r) => r.id).sort(), q).toEqual([userId, surveyId].sort());
    }
  });

  it("when the text is part of a phone number written another way ('(555) 123'), then phones whose digits contain it are found", async () => {
    ordersSearch = { body: [] };
    const area = String(200 + Math.floor(Math.random() * 700));
    const exchange = String(100 + Math.floor(Math.random() * 800));
    const tag = uniqueTag();
    const id = await insertUser({ email: `${tag}@example.com`, username: tag, phone: `${area}.${exchange}.4567` });
    const surveyId = await insertSurveyResponse({ email: `s${tag}@example.com`, username: `s${tag}`, phone: `+1 ${area}-${exchange}-9876` });

    const { results } = await search(`(${area}) ${exchange}`);
    expect(results.map((r) => r.id)).toEqual(expect.arrayContaining([id, surveyId]));

    // A word with digits in it is not a phone number: 'agent 42' does not find every phone with 42.
    const { results: word } = await search(`Rivera ${exchange}`);
    expect(word.map((r) => r.id)).not.toContain(surveyId);
  });

  it('when a user was deleted, then the search no longer finds them, but their survey answers stay', async () => {
    ordersSearch = { body: [] };
    const tag = uniqueTag();
    const id = await insertUser({ email: `gone.${tag}@example.com`, username: `gone_${tag}` });
    const surveyId = await insertSurveyResponse({ email: `gone.${tag}@example.com`, username: `gone_${tag}` });
    await gw.pool.query('UPDATE users SET deleted_at = now() WHERE id = $1', [id]);
    const { results } = await search(`gone.${tag}`);
    expect(results.map((r) => r.id)).toEqual([surveyId]);
  });
});

describe('GET /api/search-customers, the order of the results', () => {
  it('when an e-mail, a phone or a username matches exactly, then that person comes first, ahead of newer partial matches', async () => {
    const tag = uniqueTag();
    const phone = `(${300 + Math.floor(Math.random() * 600)}) 555-${String(1000 + Math.floor(Math.random() * 9000))}`;
    const digits = phone.replace(/\D/g, '');
    // The exact ones are the oldest: only the ranking can put them first.
    const byEmail = await insertUser({ email: `${tag}@example.com`, username: `e_${tag}`, minutesAgo: 600 });
    const byUsername = await insertUser({ email: `u.${tag}@example.com`, username: `${tag}`, minutesAgo: 500 });
    const byPhone = await insertUser({ email: `p.${tag}@example.com`, username: `p_${tag}`, phone, minutesAgo: 400 });
    const newer: string[] = [];
    for (let i = 0; i < 5; i += 1) newer.push(await insertUser({ email: `${tag}${i}@example.com`, username: `${tag}_${i}`, phone: `${phone}${i}`, minutesAgo: i }));
    // The orders service's newest customer matches only in part.
    ordersSearch = { body: [checkoutCustomer({ email: `${tag}@example.com.other`, phone: `${phone}9`, createdAt: new Date(Date.now() - 86_400_000).toISOString() })] };

    const email = await search(`${tag.toUpperCase()}@example.com`);
    expect(email.results[0]).toMatchObject({ id: byEmail, exact: true });
    expect(email.results.slice(1).every((r) => !r.exact)).toBe(true);

    const username = await search(tag);
    expect(username.results[0]).toMatchObject({ id: byUsername, exact: true });
    // The others newest first: the five newer users, then the older partial matches.
    expect(username.results.slice(1, 6).map((r) => r.id)).toEqual(newer);

    const byDigits = await search(digits);
    expect(byDigits.results[0]).toMatchObject({ id: byPhone, exact: true });
    expect(byDigits.results.map((r) => r.id)).toEqual(expect.arrayContaining(newer));
    expect(byDigits.results.map((r) => r.type)).toContain('customer');

    // The source's own `exact` counts too: its exact customer comes before the gateway's partial matches.
    const exactCustomer = checkoutCustomer({ email: `${tag}@shop.example`, createdAt: new Date(Date.now() - 86_400_000).toISOString(), exact: true });
    ordersSearch = { body: [exactCustomer] };
    expect((await search(tag)).results.slice(0, 2).map((r) => r.id).sort()).toEqual([byUsername, exactCustomer.id].sort());
    ordersSearch = { body: [] };
  });

  it('when more than 50 people match across the sources, then 50 come, the exact match among them first', async () => {
    const tag = uniqueTag();
    const values: string[] = [];
    const params: unknown[] = [];
    for (let i = 0; i < 40; i += 1) {
      params.push(`${tag}_${i}`, `${tag}_${i}@example.com`, i);
      values.push(`($${params.length - 2}, $${params.length - 1}, 'not-a-hash', now() - make_interval(mins => $${params.length}))`);
    }
    await gw.pool.query(`INSERT INTO users (username, email, password_hash, created_at) VALUES ${values.join(', ')}`, params);
    for (let i = 0; i < 15; i += 1) await insertSurveyResponse({ email: `${tag}.s${i}@example.com`, username: `${tag}s${i}`, minutesAgo: 100 + i });
    const exact = await insertUser({ email: `x.${tag}@example.com`, username: tag, minutesAgo: 10_000 });
    ordersSearch = { body: Array.from({ length: 20 }, (_, i) => checkoutCustomer({ email: `${tag}.c${i}@example.com` })) };

    const wide = await search(tag);

    expect(wide.results).toHaveLength(MAX_SEARCH_RESULTS);
    expect(wide.results[0]).toMatchObject({ id: exact, exact: true });
    expect(new Set(wide.results.map((r) => `${r.type}:${r.id}`)).size).toBe(MAX_SEARCH_RESULTS);
    // Newest first after the exact one: the orders service's customers (just now) lead.
    expect(wide.results.slice(1, 21).every((r) => r.type === 'customer')).toBe(true);
    // Issue 22: the answer says more match, and a larger limit lists them all.
    expect(wide.more).toBe('true');
    const all = await search(tag, '100');
    expect(all.results).toHaveLength(40 + 15 + 1 + 20);
    expect(all.more).toBeNull();
    expect(all.results.slice(0, MAX_SEARCH_RESULTS)).toEqual(wide.results);
    for (const bad of ['0', '501', 'ten']) {
      const refused = await search(tag, bad);
      expect(refused.status, bad).toBe(400);
      expect((refused.json as { error: string }).error, bad).toBe('Limit must be a whole number from 1 to 500');
    }
    ordersSearch = { body: [] };
  });
  it('when more people match than the trigram index path reads (100), then the newest come, the same as below that count (issue 27)', async () => {
    ordersSearch = { body: [] };
    const tag = uniqueTag();
    // 320 users whose agency holds the tag, one a minute older than the last: the newest is minute 0.
    const { rows } = await gw.pool.query<{ id: string }>(
      `INSERT INTO users (username, email, agency_name, password_hash, created_at)
       SELECT $1 || '_' || i, $1 || '_' || i || '@example.com', 'Agency ' || $1, 'not-a-hash', now() - make_interval(mins => i)
         FROM generate_series(0, 319) AS i ORDER BY i RETURNING id`,
      [tag],
    );
    const newestFirst = rows.map((r) => r.id);

    const page = await search(`agency ${tag}`, '100');
    expect(page.results.map((r) => r.id)).toEqual(newestFirst.slice(0, 100));
    expect(page.more).toBe('true');
    const all = await search(`AGENCY ${tag}`.toUpperCase(), '500');
    expect(all.results.map((r) => r.id)).toEqual(newestFirst);
    expect(all.more).toBeNull();
  });
});

describe('GET /api/search-customers, a source that is slow or failing', () => {
  it('when the orders service never answers, then the answer comes after its time limit with the gateway\'s own results and says orders is missing', async () => {
    const tag = uniqueTag();
    const id = await insertUser({ email: `${tag}@example.com`, username: tag });
    ordersSearch = { never: true };
    const started = Date.now();
    const { status, results, partial } = await search(tag);
    const elapsed = Date.now() - started;
    ordersSearch = { body: [] };

    expect(status).toBe(200);
    expect(partial).toBe('orders');
    expect(results.map((r) => r.id)).toEqual([id]);
    // Not a timing measure: without its own time limit this request would never end at all.
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(10_000);
  });

  it('when the orders service fails or answers something else than results, then it is left out and named, never a 500', async () => {
    const tag = uniqueTag();
    const id = await insertUser({ email: `${tag}@example.com`, username: tag });
    for (const trouble of [
      { status: 500, body: { error: 'boom' } },
      { body: { not: 'a list' } },
      { body: [{ type: 'alien', id: 'x' }] },
      { status: 401, body: { error: 'Not authenticated' } },
    ]) {
      ordersSearch = trouble;
      const { status, results, partial } = await search(tag);
      expect(status, JSON.stringify(trouble)).toBe(200);
      expect(partial).toBe('orders');
      expect(results.map((r) => r.id)).toEqual([id]);
    }
    ordersSearch = { body: [] };
    expect((await search(tag)).partial).toBeNull();
  });
});

describe('GET /api/search-customers, the partners service slow or failing (issue 14)', () => {
  it('when the partners service is down, then the others answer and X-Search-Partial names partners', async () => {
    const tag = uniqueTag();
    const id = await insertUser({ email: `${tag}@example.com`, username: tag });
    const customer = checkoutCustomer({ email: `${tag}@shop.example` });
    ordersSearch = { body: [customer] };
    // Nothing listens here: refused at once, as a service that is down.
    const down = await startGatewayFixture({
      db: gw.db,
      env: { ORDERS_URL: urlOf(orders), PARTNERS_URL: 'http://127.0.0.1:9', SEARCH_SOURCE_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    try {
      const downAdmin = down.browser();
      await downAdmin.login(gw.admin.username, gw.admin.password);
      const answer = await downAdmin.get(`/api/search-customers?q=${tag}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-search-partial')).toBe('partners');
      expect((answer.json as CustomerSearchResult[]).map((r) => r.id).sort()).toEqual([id, customer.id].sort());
    } finally {
      await down.cleanup();
    }
    ordersSearch = { body: [] };
  });

  it('when the partners service never answers or answers something else than results, then it is left out after its time limit and named', async () => {
    const tag = uniqueTag();
    const id = await insertUser({ email: `${tag}@example.com`, username: tag });
    for (const trouble of [{ never: true }, { status: 500, body: { error: 'boom' } }, { body: [{ type: 'partner' }] }] as StandInSearch[]) {
      partnersSearch = trouble;
      const { status, results, partial } = await search(tag);
      expect(status, JSON.stringify(trouble)).toBe(200);
      expect(partial, JSON.stringify(trouble)).toBe('partners');
      expect(results.map((r) => r.id)).toEqual([id]);
    }
    partnersSearch = { body: [] };
  });

  it('when both other services fail, then both are named', async () => {
    const tag = uniqueTag();
    const id = await insertUser({ email: `${tag}@example.com`, username: tag });
    ordersSearch = { status: 503, body: { error: 'down' } };
    partnersSearch = { status: 503, body: { error: 'down' } };
    const { results, partial } = await search(tag);
    ordersSearch = { body: [] };
    partnersSearch = { body: [] };
    expect(partial).toBe('orders, partners');
    expect(results.map((r) => r.id)).toEqual([id]);
  });
});

describe('GET /api/search-customers, who and what may ask', () => {
  it('when the search text is missing, empty or only spaces, then the answer is 400 Search text is required', async () => {
    for (const path of ['/api/search-customers', '/api/search-customers?q=', '/api/search-customers?q=%20%20', '/api/search-customers?q=%09']) {
      const answer = await admin.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.json.error).toBe('Search text is required');
    }
  });

  it('when the text is long or holds LIKE wildcards, then it is refused with 400 or searched literally, never a 500', async () => {
    const long = await admin.get(`/api/search-customers?q=${'a'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.json.error).toBe('Search text must be at most 200 characters');
    ordersSearch = { body: [] };
    for (const q of ['%', '\\', "'; drop table users; --", '%%%_']) {
      const { status, results } = await search(q);
      expect(status, q).toBe(200);
      expect(results, q).toEqual([]);
    }
  });

  it('when a customer or nobody asks, then the answer is 403 or 401 and no source is asked', async () => {
    const before = asked.length;
    const { user, password } = await gw.createAgent();
    const agent = gw.browser();
    await agent.login(user.username, password);
    expect((await agent.get('/api/search-customers?q=a')).status).toBe(403);
    expect((await gw.browser().get('/api/search-customers?q=a')).status).toBe(401);
    expect(asked.length).toBe(before);
    expect(askedPartners.filter((a) => a.q === 'a')).toHaveLength(0);
  });
});

describe('GET /api/admin/survey-responses/{id} (issue 22: the popup shows both steps)', () => {
  it('when an admin opens a survey response found by the search, then every answer of both steps comes; an unknown id is 404, a customer 403', async () => {
    const tag = uniqueTag();
    const id = await insertSurveyResponse({ email: `${tag}@example.com`, username: tag, leadType: 'Call-Backs' });
    await gw.pool.query(`UPDATE survey_responses SET timezone = 'CST', total_callbacks = 40, callback_preference = 'Mornings', total_price = 12000 WHERE id = $1`, [id]);
    expect((await search(tag)).results.map((r) => r.id)).toEqual([id]);

    const answer = await admin.get(`/api/admin/survey-responses/${id}`);

    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      id,
      leadType: 'Call-Backs',
      workingStates: 'TX',
      timezone: 'CST',
      totalCallbacks: 40,
      callbackPreference: 'Mornings',
      totalPrice: 12000,
      email: `${tag}@example.com`,
    });
    for (const unknown of [randomUUID(), 'not-an-id']) {
      const missing = await admin.get(`/api/admin/survey-responses/${unknown}`);
      expect(missing.status, unknown).toBe(404);
      expect(missing.json.error, unknown).toBe('Survey response not found');
    }
    const { user, password } = await gw.createAgent();
    const agent = gw.browser();
    await agent.login(user.username, password);
    expect((await agent.get(`/api/admin/survey-responses/${id}`)).status).toBe(403);
  });
});
