import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedLead } from '@warmline/contracts';
import { withTransaction } from '@warmline/platform/db/index';
import { loadLeadBatch, type BatchLead } from '../src/imports/db/lead-batch-load';
import { startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/**
 * A batch of an import (issue 27: the rows to skip found first, the rest COPY'd straight into
 * aged_leads): the duplicate rule by business day, the suppression list, the stock counts, and
 * a batch that fails leaving nothing behind — against the real PostgreSQL.
 */

let fx: CatalogFixture;

beforeAll(async () => {
  fx = await startCatalogFixture();
}, 60_000);

afterAll(async () => {
  await fx?.cleanup();
});

const DAY_MS = 86_400_000;
const phone = () => `512${randomInt(2_000_000, 9_999_999)}`;

function lead(phoneNumber: string, formFillTime: Date, overrides: Partial<ImportedLead> = {}): ImportedLead {
  return {
    name: 'Pat Doe',
    phone: phoneNumber,
    email: null,
    state: 'TX',
    zip: '78701',
    formFillTime,
    source: 'vendor-test',
    consentCertificate: null,
    consentTime: null,
    consentIp: null,
    ...overrides,
  };
}

function load(leads: BatchLead[], importId: string | null = null) {
  return withTransaction(fx.pool, (client) => loadLeadBatch(client, leads, { importId, timeZone: fx.config.BUSINESS_TIMEZONE }));
}

async function unsoldStock(): Promise<{ stock: number; unsold: number }> {
  const { rows } = await fx.pool.query<{ stock: number; unsold: number }>(
    `SELECT (SELECT coalesce(sum(leads), 0) FROM lead_stock)::int AS stock,
            (SELECT count(*) FROM aged_leads WHERE sold_at IS NULL)::int AS unsold`,
  );
  return rows[0]!;
}

describe('a batch of leads', () => {
  it('stores each phone once per business day, skips suppressed phones and stored duplicates, and keeps the stock counts', async () => {
    // UTC midnight 40 days ago: 4 h before it and 3 h after it are the same day in every US zone,
    // though not the same UTC day; 15 h after it is the next day there.
    const midnight = new Date(Math.floor((fx.now().getTime() - 40 * DAY_MS) / DAY_MS) * DAY_MS);
    const sameDayEarly = new Date(midnight.getTime() - 4 * 3_600_000);
    const sameDayLate = new Date(midnight.getTime() + 3 * 3_600_000);
    const nextDay = new Date(midnight.getTime() + 15 * 3_600_000);
    const [repeated, stored, suppressed] = [phone(), phone(), phone()];
    await fx.pool.query("INSERT INTO lead_suppressions (phone, reason, created_by_user_id, created_at) VALUES ($1, 'opted out', $2, now())", [suppressed, randomUUID()]);
    const earlier = await load([{ rowNumber: 2, lead: lead(stored, sameDayEarly) }]);
    expect(earlier.insertedRows).toEqual([2]);
    const before = await unsoldStock();

    const importId = randomUUID();
    const outcome = await load(
      [
        { rowNumber: 2, lead: lead(repeated, sameDayEarly) },
        { rowNumber: 3, lead: lead(repeated, sameDayLate) },
        { rowNumber: 4, lead: lead(repeated, nextDay) },
        { rowNumber: 5, lead: lead(suppressed, nextDay) },
        { rowNumber: 6, lead: lead(stored, sameDayLate) },
        { rowNumber: 7, lead: lead(phone(), nextDay, { email: 'tab\there@example.com', name: 'Back\\slash' }) },
      ],
      importId,
    );

    expect(outcome).toMatchObject({ insertedRows: [2, 4, 7], suppressedRows: [5], duplicateRows: [3, 6] });
    const { rows } = await fx.pool.query<{ id: string; phone: string; form_fill_time: Date; name: string; email: string | null }>(
      'SELECT id, phone, form_fill_time, name, email FROM aged_leads WHERE import_id = $1 ORDER BY form_fill_time, phone = $2 DESC',
      [importId, repeated],
    );
    expect(rows.map((r) => r.id).sort()).toEqual([...outcome.insertedIds].sort());
    expect(rows.map((r) => [r.phone, r.form_fill_time.getTime()])).toEqual([
      [repeated, sameDayEarly.getTime()],
      [repeated, nextDay.getTime()],
      [expect.any(String), nextDay.getTime()],
    ]);
    // COPY's text format carries tabs and backslashes through unchanged.
    expect(rows[2]).toMatchObject({ name: 'Back\\slash', email: 'tab\there@example.com' });
    const after = await unsoldStock();
    expect(after.unsold - before.unsold).toBe(3);
    expect(after.stock).toBe(after.unsold);
  });

  it('when a row breaks a constraint of aged_leads, then its batch fails and stores nothing, the rows before it included', async () => {
    const importId = randomUUID();
    const before = await unsoldStock();
    const when = new Date(fx.now().getTime() - 45 * DAY_MS);
    await expect(
      load(
        [
          { rowNumber: 2, lead: lead(phone(), when) },
          // The contracts' rules never let this through; the table's CHECK is the last word.
          { rowNumber: 3, lead: lead(phone(), when, { zip: '1234' }) },
        ],
        importId,
      ),
    ).rejects.toThrow(/check constraint/);
    const { rows } = await fx.pool.query('SELECT 1 FROM aged_leads WHERE import_id = $1', [importId]);
    expect(rows).toEqual([]);
    expect(await unsoldStock()).toEqual(before);
  });
});
