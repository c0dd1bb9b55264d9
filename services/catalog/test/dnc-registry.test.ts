import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type Identity } from '@warmline/platform';
import { IDENTITY_HEADER } from '@warmline/platform/http/identity';
import { signTestIdentity, waitFor } from '@warmline/platform/testing/index';
import {
  DNC_REGISTRY_NOT_SOLD_MESSAGE,
  DNC_REGISTRY_NO_NUMBER_MESSAGE,
  dncCheckOf,
  type DncRegistryUploadPage,
  type DncRegistryUploadView,
  type MarketLead,
} from '@warmline/contracts';
import { startImporter, type RunningImporter } from '../src/importer';
import { insertCallbackOpportunities, markAssigned } from '../src/callbacks/db/callback-opportunities';
import { agent, startCatalogFixture, type CatalogFixture } from './catalog-fixture';
import { parseConfig } from '@warmline/platform';
import { businessDate, type MyTransfersAnswer } from '@warmline/contracts';
import { transfersEnv } from '../../transfers/src/config';
import { startTransfers, TRANSFERS_SCHEMA } from '../../transfers/src/service';
import { insertTransfer } from '../../transfers/test/ledger-fixture';
import { ensureAgent } from '../../transfers/src/db/ledger';
import { createPool } from '@warmline/platform';
import { callService } from '@warmline/platform/testing/calls';

/**
 * The national DNC registry (issue 24 item 2, docs/adr/0033), end to end inside the catalog:
 * uploads stream into a local BlobStore, dnc_registry.load travels the real RabbitMQ to the
 * importer worker, which COPYs the file into the real PostgreSQL and swaps it in.
 */

const admin: Identity = { userId: '00000000-0000-4000-8000-0000000000ad', username: 'ops_admin', isAdmin: true };
const DAY = 86_400_000;

let fx: CatalogFixture;
let importer: RunningImporter;
let blobDir: string;

beforeAll(async () => {
  blobDir = await mkdtemp(path.join(tmpdir(), 'wl-dnc-'));
  fx = await startCatalogFixture({ BLOB_DIR: blobDir });
  importer = await startImporter({ ...fx.config, IMPORTER_PORT: 0, LEAD_IMPORT_BATCH_ROWS: 1_000, LEAD_IMPORT_RECOVERY_SECONDS: 1 }, createLogger('importer', 'silent'), { clock: fx.now });
}, 60_000);

afterAll(async () => {
  await importer?.stop();
  await fx?.cleanup();
  await rm(blobDir, { recursive: true, force: true });
});

/** Streams `lines` to the upload route as the raw body (never one string in memory). */
async function uploadStream(lines: AsyncIterable<string> | Iterable<string>, fileName: string): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  async function* chunks() {
    let buffer = '';
    for await (const line of lines) {
      buffer += line;
      if (buffer.length >= 64 * 1024) {
        yield Buffer.from(buffer, 'latin1');
        buffer = '';
      }
    }
    if (buffer) yield Buffer.from(buffer, 'latin1');
  }
  const response = await fetch(`${fx.catalog.url}/api/admin/dnc-registry?fileName=${encodeURIComponent(fileName)}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', [IDENTITY_HEADER]: signTestIdentity('catalog', admin) },
    body: ReadableStream.from(chunks()),
    duplex: 'half',
  } as RequestInit);
  const text = await response.text();
  return { status: response.status, text, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function uploadMultipart(content: string, fileName = 'dnc.txt') {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/plain' }), fileName);
  const response = await fetch(`${fx.catalog.url}/api/admin/dnc-registry`, {
    method: 'POST',
    headers: { [IDENTITY_HEADER]: signTestIdentity('catalog', admin) },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, text, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function finished(id: string, timeoutMs = 120_000): Promise<DncRegistryUploadView> {
  let view: DncRegistryUploadView | undefined;
  await waitFor(`registry upload ${id} to end`, async () => {
    const answer = await fx.call('GET', `/api/admin/dnc-registry/${id}`, { identity: admin });
    view = answer.body as unknown as DncRegistryUploadView;
    return view.status === 'done' || view.status === 'failed';
  }, { timeoutMs, intervalMs: 100 });
  return view!;
}

async function market(buyer: Identity, query = ''): Promise<{ leads: MarketLead[]; total: number }> {
  const answer = await fx.call('GET', `/api/aged-leads?filter=${encodeURIComponent('512, 737, 214')}${query}`, { identity: buyer });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as unknown as { leads: MarketLead[]; total: number };
}

/** `count` registry numbers of an area code, as the FTC files hold them (and a few messy lines). */
function* registryLines(areaCode: string, count: number, from = 2_000_000): Generator<string> {
  for (let i = 0; i < count; i += 1) yield `${areaCode}${from + i}\n`;
}

function* mixed(...parts: Array<Iterable<string>>): Generator<string> {
  for (const part of parts) yield* part;
}

// The registry's date is the upload's business day (BUSINESS_TIMEZONE), not UTC's: they differ every evening.
const today = () => businessDate(fx.now(), fx.config.BUSINESS_TIMEZONE);

describe('bad uploads', () => {
  it('when an upload is asked for by an id that names none, malformed or unknown, then 404 Registry upload not found', async () => {
    for (const id of ['not-an-upload', randomUUID()]) {
      const answer = await fx.call('GET', `/api/admin/dnc-registry/${id}`, { identity: admin });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'Registry upload not found' });
    }
  });

  it('when no file, an empty file or a file without a valid number is sent, then 400 says what a valid line is', async () => {
    const form = new FormData();
    form.append('note', 'no file here');
    const noFile = await fetch(`${fx.catalog.url}/api/admin/dnc-registry`, { method: 'POST', headers: { [IDENTITY_HEADER]: signTestIdentity('catalog', admin) }, body: form });
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as { error: string }).error).toMatch(/No file was sent/);

    const empty = await uploadMultipart('');
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/empty/i);

    const nonsense = await uploadMultipart('name,phone\r\nJohn,abc\r\n\r\n12345\r\n');
    expect(nonsense.status).toBe(400);
    expect(nonsense.body.error).toBe(DNC_REGISTRY_NO_NUMBER_MESSAGE);
    expect(nonsense.body.error).toMatch(/ten-digit/);

    const agentTries = await fx.call('GET', '/api/admin/dnc-registry', { identity: agent('not-admin') });
    expect(agentTries.status).toBe(403);
    const { rows } = await fx.pool.query('SELECT 1 FROM dnc_registry_uploads');
    expect(rows).toHaveLength(0);
  });

  it('when a small multipart file has a leading 1, punctuation, CRLF, blank and bad lines, then the numbers load and bad lines are counted', async () => {
    const answer = await uploadMultipart('1-214-555-0100\r\n(214) 555-0101\r\n\r\n214.555.0102\r\nnot a phone\r\n2145550103', 'dnc-214.txt');
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toMatchObject({ fileName: 'dnc-214.txt', status: 'queued', uploadedBy: { userId: admin.userId, name: 'ops_admin' } });
    const done = await finished(String(answer.body.id));
    expect(done).toMatchObject({ status: 'done', linesRead: 5, numbersLoaded: 4, invalidLines: 1, areaCodes: ['214'], progressPercent: 100, registryDate: today() });
    const { rows } = await fx.pool.query<{ phone: string }>("SELECT phone FROM dnc_registry_numbers WHERE phone LIKE '214%' ORDER BY phone");
    expect(rows.map((r) => r.phone)).toEqual(['2145550100', '2145550101', '2145550102', '2145550103']);
  });
});

describe('a registry of 1,000,000 numbers', () => {
  const buyer = agent('dnc-buyer');
  let blocked: string; // on the registry, no certificate
  let exempt: string; // on the registry, with a consent certificate
  let clear: string; // not on the registry
  let elsewhere: string; // an area code no upload covers
  let firstDate: string;

  it('loads with bounded memory, and its matches leave the market at once', async () => {
    const [a, b, c, d] = await fx.addLeads([
      { ageDays: 40, phone: '5122000010' },
      { ageDays: 41, phone: '5122000011', consentCertificate: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567' },
      { ageDays: 42, phone: '5129999999' },
      { ageDays: 43, phone: '3035550123', state: 'CO' },
    ]);
    [blocked, exempt, clear, elsewhere] = [a!.id, b!.id, c!.id, d!.id];
    const before = await market(buyer);
    expect(before.leads.map((l) => l.id)).toEqual(expect.arrayContaining([blocked, exempt, clear]));
    expect(before.leads.find((l) => l.id === blocked)!.dnc).toEqual({ checkedOn: null, onRegistry: false, outOfDate: true });

    // 500,000 numbers in each of two area codes, with messy lines among them.
    const lines = mixed(registryLines('512', 500_000), ['\r\n', 'garbage\n', '1 (737) 200-0000\r\n'], registryLines('737', 499_999, 2_000_001));
    global.gc?.();
    const baseline = process.memoryUsage();
    let peakHeap = baseline.heapUsed;
    let peakRss = baseline.rss;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    }, 20);
    const answer = await uploadStream(lines, 'dnc-512-737.txt');
    expect(answer.status, answer.text).toBe(202);
    const done = await finished(String(answer.body.id));
    clearInterval(sampler);
    expect(done).toMatchObject({ status: 'done', linesRead: 1_000_001, numbersLoaded: 1_000_000, invalidLines: 1, progressPercent: 100 });
    expect(done.areaCodes).toEqual(['512', '737']);
    firstDate = done.registryDate;
    // Holding the file's numbers would take 50 MB or more of heap (the text, a million short strings and their array); garbage not yet collected is the rest.
    const heapGrowthMb = (peakHeap - baseline.heapUsed) / 1024 / 1024;
    const rssGrowthMb = (peakRss - baseline.rss) / 1024 / 1024;
    console.info(`registry load: heap +${heapGrowthMb.toFixed(1)} MB, rss +${rssGrowthMb.toFixed(1)} MB`);
    expect(heapGrowthMb, `heap grew ${heapGrowthMb.toFixed(1)} MB, rss ${rssGrowthMb.toFixed(1)} MB`).toBeLessThan(40);
    expect(rssGrowthMb, `rss grew ${rssGrowthMb.toFixed(1)} MB`).toBeLessThan(96);

    const after = await market(buyer);
    const ids = after.leads.map((l) => l.id);
    expect(ids).not.toContain(blocked);
    expect(after.total).toBe(before.total - 1);
    expect(after.leads).toHaveLength(after.total);
    expect(after.leads.find((l) => l.id === exempt)!.dnc).toEqual({ checkedOn: firstDate, onRegistry: true, outOfDate: false });
    expect(after.leads.find((l) => l.id === clear)!.dnc).toEqual({ checkedOn: firstDate, onRegistry: false, outOfDate: false });
    const co = await fx.call('GET', '/api/aged-leads?filter=CO', { identity: buyer });
    expect((co.body.leads as MarketLead[]).find((l) => l.id === elsewhere)!.dnc).toEqual({ checkedOn: null, onRegistry: false, outOfDate: true });

    const list = (await fx.call('GET', '/api/admin/dnc-registry', { identity: admin })).body as unknown as DncRegistryUploadPage;
    expect(list.uploads[0]).toMatchObject({ id: done.id, fileName: 'dnc-512-737.txt', numbersLoaded: 1_000_000, uploadedBy: { name: 'ops_admin' } });
  }, 180_000);

  it('hides every registry match with hideDncMatches=true, certificate or not', async () => {
    const hidden = await market(buyer, '&hideDncMatches=true');
    expect(hidden.leads.map((l) => l.id)).not.toContain(exempt);
    expect(hidden.leads.map((l) => l.id)).toContain(clear);
    expect(hidden.leads).toHaveLength(hidden.total);
    const bad = await fx.call('GET', '/api/aged-leads?hideDncMatches=maybe', { identity: buyer });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/hideDncMatches/);
  });

  it('refuses to sell a match without a certificate, sells one with it, and keeps the check with the sale', async () => {
    const refused = await fx.call('POST', '/api/bulk-purchase-leads', { body: { leadIds: [blocked] }, identity: buyer });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: DNC_REGISTRY_NOT_SOLD_MESSAGE });

    await fx.buy(buyer, [exempt, clear]);
    const { rows } = await fx.pool.query<{ id: string; on: string | null; match: boolean | null }>(
      "SELECT id, to_char(dnc_registry_checked_on, 'YYYY-MM-DD') AS on, dnc_registry_match AS match FROM aged_leads WHERE id = ANY($1::uuid[])",
      [[exempt, clear]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, { on: r.on, match: r.match }]))).toEqual({
      [exempt]: { on: firstDate, match: true },
      [clear]: { on: firstDate, match: false },
    });

    const mine = await fx.call('GET', '/api/my-leads', { identity: buyer });
    const dncOf = Object.fromEntries((mine.body.leads as Array<{ id: string; dnc: unknown }>).map((l) => [l.id, l.dnc]));
    expect(dncOf).toEqual({ [exempt]: { checkedOn: firstDate, onRegistry: true, outOfDate: false }, [clear]: { checkedOn: firstDate, onRegistry: false, outOfDate: false } });
    const csv = await fx.call('GET', '/api/my-leads/export.csv', { identity: buyer });
    const [header, ...lines] = csv.text.trim().split(/\r?\n/);
    expect(header!.split(',').slice(-2)).toEqual(['DNC Registry', 'DNC Checked On']);
    expect(lines.map((l) => l.split(',').slice(-2).join(',')).sort()).toEqual([`Not on the registry,${firstDate}`, `On the registry,${firstDate}`]);
  });

  it('writes the check on a call-back when it is assigned', async () => {
    const at = fx.now();
    const [onIt, notCovered] = await insertCallbackOpportunities(fx.pool, [
      { id: randomUUID(), callbackId: randomUUID(), vendorKeyId: null, vendorName: null, source: 'manual', firstName: 'Ann', lastName: 'Lee', phone: '5122000020', state: 'TX', priceCents: 1500, transcript: null, callbackTime: null, callOutcome: null, agentId: null, leadQuality: null, interestLevel: null, expiresAt: new Date(at.getTime() + DAY), createdAt: at },
      { id: randomUUID(), callbackId: randomUUID(), vendorKeyId: null, vendorName: null, source: 'manual', firstName: 'Bo', lastName: 'Ray', phone: '3035550199', state: 'CO', priceCents: 1500, transcript: null, callbackTime: null, callOutcome: null, agentId: null, leadQuality: null, interestLevel: null, expiresAt: new Date(at.getTime() + DAY), createdAt: at },
    ] as unknown as Parameters<typeof insertCallbackOpportunities>[1]);
    await markAssigned(fx.pool, onIt!.id, { userId: buyer.userId!, at, by: 'admin' });
    await markAssigned(fx.pool, notCovered!.id, { userId: buyer.userId!, at, by: 'admin' });
    const { rows } = await fx.pool.query<{ id: string; on: string | null; match: boolean | null }>(
      "SELECT id, to_char(dnc_registry_checked_on, 'YYYY-MM-DD') AS on, dnc_registry_match AS match FROM callback_opportunities WHERE id = ANY($1::uuid[])",
      [[onIt!.id, notCovered!.id]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, { on: r.on, match: r.match }]))).toEqual({
      [onIt!.id]: { on: firstDate, match: true },
      [notCovered!.id]: { on: null, match: null },
    });

    // My Call-backs shows the registry's check now, beside each call-back.
    const mine = await fx.call('GET', '/api/my-callbacks', { identity: buyer });
    expect(mine.status, mine.text).toBe(200);
    const dncOf = Object.fromEntries((mine.body.callbacks as Array<{ id: string; dnc: unknown }>).map((c) => [c.id, c.dnc]));
    expect(dncOf).toEqual({
      [onIt!.id]: { checkedOn: firstDate, onRegistry: true, outOfDate: false },
      [notCovered!.id]: { checkedOn: null, onRegistry: false, outOfDate: true },
    });
  });

  it('answers the internal check for up to 100 phones to the transfers service only', async () => {
    const answer = await fx.call('POST', '/api/internal/dnc-registry/checks', { body: { phones: ['5122000030', '5129999998', '3035550123'] }, identity: buyer, caller: 'transfers' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      checks: {
        '5122000030': { checkedOn: firstDate, onRegistry: true },
        '5129999998': { checkedOn: firstDate, onRegistry: false },
        '3035550123': { checkedOn: null, onRegistry: false },
      },
    });
    const anonymous = await fx.call('POST', '/api/internal/dnc-registry/checks', { body: { phones: ['5122000030'] }, identity: null });
    expect(anonymous.status).toBe(401);
    // Neither a user's identity from the gateway nor another service gets the registry's answer.
    expect((await fx.call('POST', '/api/internal/dnc-registry/checks', { body: { phones: ['5122000030'] }, identity: buyer })).status).toBe(403);
    expect((await fx.call('POST', '/api/internal/dnc-registry/checks', { body: { phones: ['5122000030'] }, identity: buyer, caller: 'orders' })).status).toBe(403);
    const tooMany = await fx.call('POST', '/api/internal/dnc-registry/checks', { body: { phones: Array.from({ length: 101 }, (_, i) => `512200${String(i).padStart(4, '0')}`) }, identity: buyer, caller: 'transfers' });
    expect(tooMany.status).toBe(400);
    const bad = await fx.call('POST', '/api/internal/dnc-registry/checks', { body: { phones: ['512'] }, identity: buyer, caller: 'transfers' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/phones/);
  });

  it("shows My Transfers' rows with the catalog's check, and as unavailable when the catalog does not answer", async () => {
    const start = async (catalogUrl: string) =>
      startTransfers(parseConfig(transfersEnv, { ...fx.env, TRANSFERS_PORT: '0', CATALOG_URL: catalogUrl }), createLogger('transfers', 'silent'), { clock: fx.now });
    const transfers = await start(fx.catalog.url);
    const pool = createPool(fx.env.DATABASE_URL!, TRANSFERS_SCHEMA);
    try {
      await ensureAgent(pool, buyer.userId!);
      const onIt = await insertTransfer(pool, { agentId: buyer.userId!, routedAt: new Date(fx.now().getTime() - 60_000), phone: '5122000040' });
      const uncovered = await insertTransfer(pool, { agentId: buyer.userId!, routedAt: new Date(fx.now().getTime() - 120_000), phone: '3035550140' });
      const answer = await callService(transfers.url, 'GET', '/api/my-transfers', { identity: buyer });
      expect(answer.status, answer.text).toBe(200);
      const dncOf = Object.fromEntries((answer.body as unknown as MyTransfersAnswer).transfers.map((t) => [t.id, t.dnc]));
      expect(dncOf[onIt]).toEqual({ checkedOn: firstDate, onRegistry: true, outOfDate: false });
      expect(dncOf[uncovered]).toEqual({ checkedOn: null, onRegistry: false, outOfDate: true });
      // The transfer's evidence pack says the registry's answer now, from the catalog.
      const pack = await callService(transfers.url, 'GET', `/api/my-transfers/${onIt}/evidence?format=json`, { identity: buyer });
      expect(pack.status, pack.text).toBe(200);
      expect(pack.body.currentDncRegistry).toEqual({ registryDate: firstDate, match: true, statement: `On the national DNC registry as of its newest upload, of ${firstDate}.` });

      // A catalog that is not there: the page still loads, each check unavailable; the pack comes without the line.
      const cut = await start('http://127.0.0.1:9');
      try {
        const without = await callService(cut.url, 'GET', '/api/my-transfers', { identity: buyer });
        expect(without.status, without.text).toBe(200);
        expect((without.body as unknown as MyTransfersAnswer).transfers.map((t) => t.dnc)).toEqual([null, null]);
        const packWithout = await callService(cut.url, 'GET', `/api/my-transfers/${onIt}/evidence?format=json`, { identity: buyer });
        expect(packWithout.status, packWithout.text).toBe(200);
        expect(packWithout.body.currentDncRegistry).toBeNull();
      } finally {
        await cut.stop();
      }
    } finally {
      await transfers.stop();
      await pool.end();
    }
  }, 60_000);

  it('a second upload of one area code replaces its date and numbers; the other area code keeps its own', async () => {
    fx.advance(2 * DAY);
    // 512 again, without 5122000010 (the blocked lead's phone) but with a new number.
    const lines = mixed(['5122000000\n', '5128000000\n'], registryLines('512', 1_000, 2_000_100));
    const answer = await uploadStream(lines, 'dnc-512-new.txt');
    expect(answer.status, answer.text).toBe(202);
    const done = await finished(String(answer.body.id));
    expect(done).toMatchObject({ status: 'done', numbersLoaded: 1_002, areaCodes: ['512'] });
    expect(done.registryDate).not.toBe(firstDate);

    const { rows } = await fx.pool.query<{ area_code: string; on: string }>("SELECT area_code, to_char(registry_date, 'YYYY-MM-DD') AS on FROM dnc_registry_area_codes WHERE area_code IN ('512', '737') ORDER BY 1");
    expect(rows).toEqual([{ area_code: '512', on: done.registryDate }, { area_code: '737', on: firstDate }]);
    const counts = await fx.pool.query<{ ac: string; n: number }>("SELECT left(phone, 3) AS ac, count(*)::int AS n FROM dnc_registry_numbers WHERE left(phone, 3) IN ('512', '737') GROUP BY 1 ORDER BY 1");
    expect(counts.rows).toEqual([{ ac: '512', n: 1_002 }, { ac: '737', n: 500_000 }]);

    const after = await market(buyer);
    const lead = after.leads.find((l) => l.id === blocked);
    expect(lead?.dnc).toEqual({ checkedOn: done.registryDate, onRegistry: false, outOfDate: false });
  }, 60_000);

  it('when hundreds of unsold leads are registry matches, then the market still counts and pages without them (probed, not listed by id)', async () => {
    const before = await market(buyer);
    // 600 phones of the second 512 upload (5122000100–5122000699), no certificate; 3 clear ones.
    const blockedLeads = await fx.addLeads(Array.from({ length: 600 }, (_, i) => ({ ageDays: 45 + (i % 60), phone: `512200${String(100 + i).padStart(4, '0')}` })));
    const clearLeads = await fx.addLeads([0, 1, 2].map((i) => ({ ageDays: 50 + i, phone: `51270000${String(10 + i)}` })));
    const after = await market(buyer);
    expect(after.total).toBe(before.total + 3);
    expect(after.leads).toHaveLength(after.total);
    const ids = new Set(after.leads.map((l) => l.id));
    expect(clearLeads.every((l) => ids.has(l.id))).toBe(true);
    expect(blockedLeads.some((l) => ids.has(l.id))).toBe(false);
    const matching = await fx.call('GET', `/api/aged-leads/matching?filter=512`, { identity: buyer });
    expect((matching.body.leads as Array<{ id: string }>).some((l) => blockedLeads.some((b) => b.id === l.id))).toBe(false);
  });

  it('shows a check older than 31 days, or none, as out of date', () => {
    expect(dncCheckOf({ checkedOn: '2026-01-01', onRegistry: true }, '2026-02-01')).toEqual({ checkedOn: '2026-01-01', onRegistry: true, outOfDate: false });
    expect(dncCheckOf({ checkedOn: '2026-01-01', onRegistry: false }, '2026-02-02')).toEqual({ checkedOn: '2026-01-01', onRegistry: false, outOfDate: true });
    expect(dncCheckOf({ checkedOn: null, onRegistry: false }, '2026-02-02')).toEqual({ checkedOn: null, onRegistry: false, outOfDate: true });
  });
});

describe('a worker that stops mid-file', () => {
  it('leaves the upload running, and the next worker loads it from the start', async () => {
    const answer = await uploadStream(registryLines('469', 600_000), 'dnc-469.txt');
    expect(answer.status, answer.text).toBe(202);
    const id = String(answer.body.id);
    await waitFor('the load under way', async () => {
      const { rows } = await fx.pool.query<{ lines: string }>("SELECT lines_read AS lines FROM dnc_registry_uploads WHERE id = $1 AND status = 'running'", [id]);
      return Number(rows[0]?.lines ?? 0) > 0;
    }, { timeoutMs: 60_000, intervalMs: 20 });
    await importer.stop();
    const paused = await fx.call('GET', `/api/admin/dnc-registry/${id}`, { identity: admin });
    expect(paused.body).toMatchObject({ status: 'running', finishedAt: null });
    const { rows: none } = await fx.pool.query("SELECT 1 FROM dnc_registry_area_codes WHERE area_code = '469'");
    expect(none).toHaveLength(0);

    importer = await startImporter({ ...fx.config, IMPORTER_PORT: 0, LEAD_IMPORT_BATCH_ROWS: 1_000, LEAD_IMPORT_RECOVERY_SECONDS: 1 }, createLogger('importer', 'silent'), { clock: fx.now });
    const done = await finished(id);
    expect(done).toMatchObject({ status: 'done', linesRead: 600_000, numbersLoaded: 600_000, invalidLines: 0, areaCodes: ['469'] });
  }, 120_000);
});
