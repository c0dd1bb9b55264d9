import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditLogPage, Campaign, SurveyResponseRecord } from '@warmline/contracts';
import { startGatewayFixture, type Browser, type GatewayFixture } from './gateway-fixture';
import { DANA_COLE, surveyAnswers } from './survey-answers';

/**
 * Test Campaigns through the real gateway (issue 12): an admin creates a salesperson's referral
 * page, its survey works at once, switching it off makes page and survey 404, its responses
 * come as JSON and as CSV, and every change is in the audit log.
 */

let gw: GatewayFixture;
let admin: Browser;

let visitors = 0;
/** A browser from an address of its own, so sign-ups stay under the per-address limit. */
function visitor(): Browser {
  visitors += 1;
  return gw.browser({ ip: `10.88.${Math.floor(visitors / 250)}.${(visitors % 250) + 1}` });
}

beforeAll(async () => {
  gw = await startGatewayFixture();
  admin = visitor();
  await admin.login(gw.admin.username, gw.admin.password);
});

afterAll(async () => {
  await gw?.cleanup();
});

const uniqueSlug = (stem = 'promo') => `${stem}-${randomBytes(3).toString('hex')}`;

/** A valid referral survey with unique account names (data factory). */
function referralSurvey(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return surveyAnswers(DANA_COLE, {
    workingStates: 'TX, FL',
    totalTransfers: '10',
    transfersPerDay: '2',
    callsPerDay: '100',
    transferHours: '9am-5pm',
    timezone: 'CST',
    salesperson: 'ignored',
    ...overrides,
  });
}

async function create(name: string, slug: string) {
  return admin.post('/api/admin/campaigns', { name, slug });
}

async function listed(slug: string): Promise<Campaign | undefined> {
  const answer = await admin.get('/api/admin/campaigns');
  expect(answer.status).toBe(200);
  return (answer.json as Campaign[]).find((c) => c.slug === slug);
}

async function auditOf(campaignId: string): Promise<AuditEntry[]> {
  const answer = await admin.get('/api/admin/audit-log');
  expect(answer.status).toBe(200);
  return (answer.json as AuditLogPage).entries.filter((e) => e.subjectType === 'campaign' && e.subjectId === campaignId);
}

async function salespeopleCount(): Promise<number> {
  const { rows } = await gw.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM salespeople');
  return rows[0]!.n;
}

describe('Test Campaigns (POST/GET/PATCH /api/admin/campaigns)', () => {
  it('when an admin creates a campaign, then its page and survey work at once, the response is listed, deactivating makes both 404 and reactivating brings them back', async () => {
    const slug = uniqueSlug('spring');
    const created = await create('Jane Doe', slug);
    expect(created.status).toBe(201);
    const campaign = created.json as Campaign;
    expect(campaign).toMatchObject({ name: 'Jane Doe', slug, active: true, responseCount: 0 });

    // The page /{slug} asks the gateway who the salesperson is.
    const page = await visitor().get(`/api/salespeople/${slug}`);
    expect(page.status).toBe(200);
    expect(page.json).toEqual({ slug, displayName: 'Jane Doe' });

    const survey = await visitor().post(`/api/${slug}-survey`, referralSurvey());
    expect(survey.status).toBe(201);
    const responses = await admin.get(`/api/${slug}-responses`);
    expect(responses.status).toBe(200);
    const rows = responses.json as SurveyResponseRecord[];
    expect(rows.map((r) => r.id)).toEqual([survey.json.responseId]);
    expect(rows[0]).toMatchObject({ salesperson: 'Jane Doe', leadType: 'Live Transfers', totalTransfers: 10, totalPrice: 10 * 3700, timezone: 'CST' });
    expect(await listed(slug)).toMatchObject({ id: campaign.id, responseCount: 1, active: true });

    const off = await admin.patch(`/api/admin/campaigns/${campaign.id}`, { active: false });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ id: campaign.id, active: false, responseCount: 1 });
    expect((await visitor().get(`/api/salespeople/${slug}`)).status).toBe(404);
    const refused = await visitor().post(`/api/${slug}-survey`, referralSurvey());
    expect(refused.status).toBe(404);
    expect(refused.json.error).toBe('Survey not found');
    // The admin still reads what came in while it ran.
    expect((await admin.get(`/api/${slug}-responses`)).json).toHaveLength(1);
    expect(await listed(slug)).toMatchObject({ active: false, responseCount: 1 });

    const on = await admin.patch(`/api/admin/campaigns/${campaign.id}`, { active: true });
    expect(on.status).toBe(200);
    expect(on.json.active).toBe(true);
    expect((await visitor().get(`/api/salespeople/${slug}`)).status).toBe(200);
    expect((await visitor().post(`/api/${slug}-survey`, referralSurvey())).status).toBe(201);
    expect(await listed(slug)).toMatchObject({ responseCount: 2 });
  });

  it('when a campaign is created, switched off and on, then the audit log has each with who, before and after; setting the same state again records nothing', async () => {
    const slug = uniqueSlug('audited');
    const { json: campaign } = await create('Audit Person', slug);
    await admin.patch(`/api/admin/campaigns/${campaign.id}`, { active: false });
    await admin.patch(`/api/admin/campaigns/${campaign.id}`, { active: false });
    await admin.patch(`/api/admin/campaigns/${campaign.id}`, { active: true });

    const entries = await auditOf(campaign.id);
    // Newest first.
    expect(entries.map((e) => e.action)).toEqual(['campaign.activated', 'campaign.deactivated', 'campaign.created']);
    for (const entry of entries) {
      expect(entry).toMatchObject({ actorUsername: gw.admin.username, source: 'gateway', subjectLabel: `Audit Person (/${slug})` });
    }
    expect(entries[2]).toMatchObject({ before: null, after: { name: 'Audit Person', slug, active: true } });
    expect(entries[1]).toMatchObject({ before: { active: true }, after: { active: false } });
    expect(entries[0]).toMatchObject({ before: { active: false }, after: { active: true } });
  });

  it('when the slug is a page of the SPA or a word the server keeps, then the answer is 409 with a clear error and nothing is created', async () => {
    const before = await salespeopleCount();
    for (const slug of ['admin', 'dashboard', 'survey', 'admin-audit-log', 'login', 'api', 'internal']) {
      const answer = await create('Somebody', slug);
      expect(answer.status, slug).toBe(409);
      expect(answer.json.error).toBe(`The slug '${slug}' is a page of the site; choose another`);
      expect(answer.json.field).toBe('slug');
    }
    expect(await salespeopleCount()).toBe(before);
  });

  it('when the slug is taken, then the answer is 409 and the first campaign is unchanged', async () => {
    const slug = uniqueSlug('taken');
    expect((await create('First Person', slug)).status).toBe(201);
    const again = await create('Second Person', slug);
    expect(again.status).toBe(409);
    expect(again.json.error).toBe(`The slug '${slug}' is already taken by another campaign`);
    expect((await visitor().get(`/api/salespeople/${slug}`)).json.displayName).toBe('First Person');
  });

  it('when two admins create the same slug at once, then one gets 201 and the other 409', async () => {
    const slug = uniqueSlug('race');
    const answers = await Promise.all([create('Racer One', slug), create('Racer Two', slug)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });

  it('when the slug or name is malformed, then the answer is 400 with what is wrong and nothing is created', async () => {
    const before = await salespeopleCount();
    const format = 'Slug must be lower-case letters, digits and single hyphens, starting with a letter (e.g. spring-promo)';
    const cases: Array<[unknown, string]> = [
      [{ name: 'Jane', slug: 'Jane-Doe' }, format],
      [{ name: 'Jane', slug: 'jane doe' }, format],
      [{ name: 'Jane', slug: '-jane' }, format],
      [{ name: 'Jane', slug: 'jane--doe' }, format],
      [{ name: 'Jane', slug: 'jane-' }, format],
      [{ name: 'Jane', slug: '9lives' }, format],
      [{ name: 'Jane', slug: 'jane/doe' }, format],
      [{ name: 'Jane', slug: '' }, 'Slug is required'],
      [{ name: 'Jane', slug: `a${'b'.repeat(60)}` }, 'Slug must be at most 60 characters'],
      [{ name: 'Jane' }, 'Slug is required'],
      [{ name: '   ', slug: uniqueSlug() }, 'Campaign name is required'],
      [{ slug: uniqueSlug() }, 'Campaign name is required'],
      [{ name: 'x'.repeat(201), slug: uniqueSlug() }, 'Campaign name must be at most 200 characters'],
    ];
    for (const [body, message] of cases) {
      const answer = await admin.post('/api/admin/campaigns', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error, JSON.stringify(body)).toBe(message);
    }
    expect(await salespeopleCount()).toBe(before);
  });

  it('when a change names no campaign or says nothing usable, then 404 or 400', async () => {
    expect((await admin.patch('/api/admin/campaigns/00000000-0000-4000-8000-000000000000', { active: false })).status).toBe(404);
    expect((await admin.patch('/api/admin/campaigns/not-a-uuid', { active: false })).json).toEqual({ error: 'Campaign not found' });
    const { json: campaign } = await create('Patchy', uniqueSlug('patchy'));
    const bad = await admin.patch(`/api/admin/campaigns/${campaign.id}`, { active: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('active must be true or false');
    expect((await admin.get('/api/admin/campaigns/00000000-0000-4000-8000-000000000000/responses.csv')).status).toBe(404);
  });

  it('when a customer or nobody calls the campaign routes, then 403 or 401 and nothing changes', async () => {
    const { json: campaign } = await create('Guarded', uniqueSlug('guarded'));
    const { user, password } = await gw.createAgent();
    const agent = visitor();
    await agent.login(user.username, password);
    const calls: Array<(b: Browser) => Promise<{ status: number }>> = [
      (b) => b.get('/api/admin/campaigns'),
      (b) => b.post('/api/admin/campaigns', { name: 'Sneaky', slug: uniqueSlug('sneaky') }),
      (b) => b.patch(`/api/admin/campaigns/${campaign.id}`, { active: false }),
      (b) => b.get(`/api/admin/campaigns/${campaign.id}/responses.csv`),
      (b) => b.get(`/api/${campaign.slug}-responses`),
    ];
    for (const call of calls) {
      expect((await call(agent)).status).toBe(403);
      expect((await call(visitor())).status).toBe(401);
    }
    expect(await listed(campaign.slug)).toMatchObject({ active: true });
    expect((await admin.get('/api/admin/campaigns')).json.some((c: Campaign) => c.name === 'Sneaky')).toBe(false);
  });

  it("when an admin exports a campaign's responses, then the CSV has the spec's fields, dollars, newest first, and a formula cell is defused", async () => {
    const slug = uniqueSlug('export');
    const { json: campaign } = await create('Export Person', slug);
    const first = await visitor().post(
      `/api/${slug}-survey`,
      referralSurvey({ leadType: 'Aged Leads', ageRange: '30-60', agencyName: '=HYPERLINK("http://evil.example","x")', timezone: 'PST' }),
    );
    const second = await visitor().post(`/api/${slug}-survey`, referralSurvey({ agencyName: 'Smith, Jones & Co', totalTransfers: '3' }));
    expect([first.status, second.status]).toEqual([201, 201]);

    const answer = await admin.get(`/api/admin/campaigns/${campaign.id}/responses.csv`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${slug}-responses.csv"`);
    expect(answer.headers.get('cache-control')).toContain('no-store');
    const lines = answer.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,firstName,lastName,agencyName,role,phone,email,username,leadType,workingStates,totalTransfers,transfersPerDay,callsPerDay,transferHours,timezone,totalCallbacks,callbackPreference,ageRange,totalPrice (USD),salesperson,createdAt',
    );
    expect(lines).toHaveLength(3);
    // Newest first: the second survey, its price in dollars (3 transfers × $37).
    expect(lines[1]).toContain(`${second.json.responseId},Dana,Cole,"Smith, Jones & Co",Agency Owner,(555) 777-0101,`);
    expect(lines[1]).toContain(',Live Transfers,"TX, FL",3,2,100,9am-5pm,CST,,,,111.00,Export Person,');
    expect(lines[2]).toContain(`${first.json.responseId},Dana,Cole,"'=HYPERLINK(""http://evil.example"",""x"")",`);
    expect(lines[2]).toContain(',Aged Leads,');
    expect(lines[2]).toContain(',30-60,');
  });
});
