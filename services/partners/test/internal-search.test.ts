import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerSearchAnswerSchema, type CustomerSearchResult } from '@warmline/contracts';
import { agentIdentity } from '@warmline/platform/testing/calls';
import { adminIdentity, startPartnersFixture, validFields, type PartnersFixture } from './partners-fixture';

/** `GET /internal/search?q=`: the partners service's part of the admin's customer search. */
let f: PartnersFixture;
const admin = adminIdentity();
let harbor: string;
let summit: string;

beforeAll(async () => {
  f = await startPartnersFixture();
  const apply = async (fields: Record<string, string>) => {
    const answer = await f.apply(validFields(fields));
    if (answer.status !== 201) throw new Error(`apply answered ${answer.status}: ${answer.text}`);
    return String(answer.body.id);
  };
  harbor = await apply({ businessName: 'Harbor Insurance Leads', contactName: 'Priya Raman', email: 'priya@harborleads.example', phone: '+1 (737) 555-0188' });
  summit = await apply({ businessName: 'Summit Call Center', contactName: 'Marcus Lee', email: 'marcus@summitcalls.example', phone: '737.555.0142' });
});

afterAll(async () => {
  await f?.cleanup();
});

async function search(q: string): Promise<CustomerSearchResult[]> {
  const answer = await f.call('GET', `/internal/search?q=${encodeURIComponent(q)}`, { identity: admin });
  expect(answer.status, answer.text).toBe(200);
  return customerSearchAnswerSchema.parse(JSON.parse(answer.text));
}

describe('the internal customer search', () => {
  it('finds an application by business name as a partner result', async () => {
    const results = await search('harbor insurance');
    expect(results).toEqual([
      {
        type: 'partner',
        id: harbor,
        firstName: null,
        lastName: null,
        name: null,
        mainContact: 'Priya Raman',
        agencyName: null,
        businessName: 'Harbor Insurance Leads',
        salesperson: null,
        email: null,
        contactEmail: 'priya@harborleads.example',
        phone: null,
        contactPhone: '+1 (737) 555-0188',
        leadType: null,
        role: null,
        username: null,
        createdAt: expect.any(String),
        exact: false,
      },
    ]);
  });

  it('finds by contact name, e-mail (exact) and phone digits (exact or part)', async () => {
    expect((await search('marcus lee')).map((r) => r.id)).toEqual([summit]);
    expect((await search('PRIYA@harborleads.example')).map((r) => [r.id, r.exact])).toEqual([[harbor, true]]);
    expect((await search('harborleads')).map((r) => [r.id, r.exact])).toEqual([[harbor, false]]);
    // A leading US 1 is dropped on both sides.
    expect((await search('7375550188')).map((r) => [r.id, r.exact])).toEqual([[harbor, true]]);
    expect((await search('1-737-555-0142')).map((r) => [r.id, r.exact])).toEqual([[summit, true]]);
    const both = await search('(737) 555');
    expect(both.map((r) => r.id).sort()).toEqual([harbor, summit].sort());
    expect(both.every((r) => !r.exact)).toBe(true);
  });

  it('puts exact matches first', async () => {
    const other = await f.apply(validFields({ businessName: 'priya@harborleads.example fans', email: 'other@example.com' }));
    expect(other.status).toBe(201);
    const results = await search('priya@harborleads.example');
    expect(results.map((r) => [r.id, r.exact])).toEqual([
      [harbor, true],
      [other.body.id, false],
    ]);
  });

  it('takes % and _ literally and finds nothing for unknown text', async () => {
    expect(await search('%')).toEqual([]);
    expect(await search('zzz-nobody')).toEqual([]);
  });

  it('is for admins only, and needs the text', async () => {
    expect((await f.call('GET', '/internal/search?q=harbor', { identity: null })).status).toBe(401);
    expect((await f.call('GET', '/internal/search?q=harbor')).status).toBe(401);
    expect((await f.call('GET', '/internal/search?q=harbor', { identity: agentIdentity() })).status).toBe(403);
    const empty = await f.call('GET', '/internal/search?q=', { identity: admin });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('Search text is required');
  });
});
