import { spawn, type ChildProcess } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type Identity } from '@warmline/platform';
import { waitFor } from '@warmline/platform/testing/index';
import { LEAD_SUPPRESSED_MESSAGE, type LeadImportView } from '@warmline/contracts';
import type { ImporterConfig } from '../src/config';
import { startImporter, type RunningImporter } from '../src/importer';
import { agent, startCatalogFixture, type CatalogFixture } from './catalog-fixture';
import { generateLeadCsv } from './lead-csv';

/**
 * Aged-lead imports end to end inside the catalog (issue 13): the upload route stores the file
 * and queues import.run over the real RabbitMQ; the importer worker loads it into the real
 * PostgreSQL. Files go to a local BlobStore in a temporary directory.
 */

const admin: Identity = { userId: '00000000-0000-4000-8000-0000000000ad', username: 'ops_admin', isAdmin: true };

let fx: CatalogFixture;
let importer: RunningImporter;
let blobDir: string;
let importerConfig: ImporterConfig;

beforeAll(async () => {
  blobDir = await mkdtemp(path.join(tmpdir(), 'wl-imports-'));
  fx = await startCatalogFixture({ BLOB_DIR: blobDir });
  importerConfig = { ...fx.config, IMPORTER_PORT: 0, LEAD_IMPORT_BATCH_ROWS: 1_000, LEAD_IMPORT_RECOVERY_SECONDS: 1 };
  importer = await startImporter(importerConfig, createLogger('importer', 'silent'), { clock: fx.now });
}, 60_000);

afterAll(async () => {
  await importer?.stop();
  await fx?.cleanup();
  await rm(blobDir, { recursive: true, force: true });
});

async function upload(csv: string | Buffer, fileName = 'vendor.csv', identity: Identity = admin) {
  return fx.call('POST', `/api/admin/lead-imports?fileName=${encodeURIComponent(fileName)}`, {
    rawBody: csv as string,
    headers: { 'content-type': 'text/csv' },
    identity,
  });
}

async function finished(id: string, timeoutMs = 60_000): Promise<LeadImportView> {
  let view: LeadImportView | undefined;
  await waitFor(`import ${id} to end`, async () => {
    const answer = await fx.call('GET', `/api/admin/lead-imports/${id}`, { identity: admin });
    view = answer.body as unknown as LeadImportView;
    return ['done', 'failed', 'cancelled'].includes(view.status);
  }, { timeoutMs });
  return view!;
}

async function leadsOfImport(id: string): Promise<string[]> {
  const { rows } = await fx.pool.query<{ phone: string }>('SELECT phone FROM aged_leads WHERE import_id = $1 ORDER BY phone', [id]);
  return rows.map((r) => r.phone);
}

async function importedState(): Promise<string[]> {
  const { rows } = await fx.pool.query<{ row: string }>(
    "SELECT phone || '|' || form_fill_time::text || '|' || name || '|' || coalesce(consent_certificate, '') AS row FROM aged_leads WHERE import_id IS NOT NULL ORDER BY 1",
  );
  return rows.map((r) => r.row);
}

describe('a 10,000-row vendor file with 3 % bad rows and duplicates', () => {
  const file = () => generateLeadCsv({ rows: 10_000, now: fx.now(), seed: 1 });
  let first: LeadImportView;

  it('imports exactly the good, unique rows and counts the rest', async () => {
    const { csv, bad, duplicates, importedPhones } = file();
    const answer = await upload(csv);
    expect(answer.status, answer.text).toBe(202);
    first = await finished(String(answer.body.id));
    expect(first).toMatchObject({
      status: 'done',
      fileName: 'vendor.csv',
      rowsRead: 10_000,
      rowsRejected: bad.length,
      rowsDuplicate: duplicates,
      rowsImported: 10_000 - bad.length - duplicates,
      rowsTotal: 10_000,
      error: null,
    });
    expect(bad.length / 10_000).toBeCloseTo(0.03, 2);
    expect(await leadsOfImport(first.id)).toEqual([...importedPhones].sort());
    // Told once, with counts only; progress after every batch (1,000 rows each here).
    const ended = (await fx.outbox('leads.imported')).filter((e) => e.data.importId === first.id);
    expect(ended.map((e) => e.data)).toEqual([expect.objectContaining({ status: 'done', rowsImported: first.rowsImported, rowsRejected: bad.length })]);
    const progress = (await fx.outbox('import.progress')).filter((e) => e.data.importId === first.id);
    expect(progress.length).toBeGreaterThanOrEqual(10);
    expect(JSON.stringify(progress.map((e) => e.data))).not.toContain('@example.com');
  }, 120_000);

  it('lists every refused row with its reason in the report', async () => {
    const { bad } = file();
    const report = await fx.call('GET', `/api/admin/lead-imports/${first.id}/errors.csv`, { identity: admin });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toContain('text/csv');
    const lines = report.text.trim().split('\r\n');
    expect(lines[0]).toBe('Row,Column,Message');
    const rows = lines.slice(1).map((line) => {
      const [row, column] = line.split(',');
      return { rowNumber: Number(row), column };
    });
    expect(rows).toEqual(bad);
    expect(report.text).toContain('Lead is older than 180 days');
  });

  it('imports nothing when the same file comes again', async () => {
    const { csv } = file();
    const answer = await upload(csv, 'vendor-again.csv');
    const again = await finished(String(answer.body.id));
    expect(again.rowsImported).toBe(0);
    expect(again.rowsDuplicate).toBe(first.rowsImported + first.rowsDuplicate);
  }, 120_000);

  it('shows the new leads in the market with their consent', async () => {
    const market = await fx.call('GET', '/api/aged-leads?filter=512', { identity: agent() });
    expect(market.status).toBe(200);
    expect(Number(market.body.total)).toBeGreaterThanOrEqual(first.rowsImported);
  });
});

describe('a worker killed mid-file', () => {
  it('ends, once restarted, with the same rows as an uninterrupted run', async () => {
    // Reference: the same content imported without interruption, then undone.
    const { csv } = generateLeadCsv({ rows: 20_000, now: fx.now(), seed: 2, areaCode: '713' });
    const reference = await finished(String((await upload(csv, 'reference.csv')).body.id), 120_000);
    const expected = await importedState();
    const referenceLeads = await leadsOfImport(reference.id);
    await fx.call('POST', `/api/admin/lead-imports/${reference.id}/undo`, { identity: admin });
    await fx.pool.query('DELETE FROM withdrawn_leads');

    // The in-process worker stops; a separate worker process takes the import and is killed.
    await importer.stop();
    const answer = await upload(csv, 'killed.csv');
    const id = String(answer.body.id);
    const child = startWorkerProcess();
    try {
      await waitFor('the worker to have committed a batch', async () => {
        const { rows } = await fx.pool.query<{ rows_read: number }>('SELECT rows_read FROM lead_imports WHERE id = $1', [id]);
        return (rows[0]?.rows_read ?? 0) > 0;
      }, { timeoutMs: 60_000, intervalMs: 5 });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const midway = await fx.pool.query<{ status: string; rows_read: number }>('SELECT status, rows_read FROM lead_imports WHERE id = $1', [id]);
    expect(midway.rows[0]!.status).toBe('running');
    expect(midway.rows[0]!.rows_read).toBeLessThan(20_000);

    importer = await startImporter(importerConfig, createLogger('importer', 'silent'), { clock: fx.now });
    const resumed = await finished(id, 120_000);
    expect(resumed).toMatchObject({
      status: 'done',
      rowsRead: reference.rowsRead,
      rowsImported: reference.rowsImported,
      rowsRejected: reference.rowsRejected,
      rowsDuplicate: reference.rowsDuplicate,
    });
    expect((await leadsOfImport(id)).length).toBe(referenceLeads.length);
    expect(await importedState()).toEqual(expected);
    const errors = await fx.pool.query<{ n: number }>('SELECT count(DISTINCT row_number)::int AS n FROM lead_import_errors WHERE import_id = $1', [id]);
    expect(errors.rows[0]!.n).toBe(reference.rowsRejected);
  }, 240_000);
});

function startWorkerProcess(): ChildProcess {
  const repo = path.resolve(import.meta.dirname, '../../..');
  return spawn(process.execPath, ['--import', 'tsx', 'services/catalog/src/importer-main.ts'], {
    cwd: repo,
    env: {
      ...process.env,
      ...fx.env,
      BLOB_DIR: blobDir,
      IMPORTER_PORT: '0',
      LEAD_IMPORT_BATCH_ROWS: '500',
      LEAD_IMPORT_RECOVERY_SECONDS: '1',
      LOG_LEVEL: 'silent',
    },
    stdio: 'ignore',
  });
}

describe('cancel and undo', () => {
  it('cancel stops a running import after its batch in hand; the rows loaded stay until undone', async () => {
    const { csv } = generateLeadCsv({ rows: 30_000, now: fx.now(), seed: 3, areaCode: '214' });
    const id = String((await upload(csv, 'cancel-me.csv')).body.id);
    await waitFor('the import to be running', async () => {
      const { rows } = await fx.pool.query<{ rows_read: number }>('SELECT rows_read FROM lead_imports WHERE id = $1', [id]);
      return (rows[0]?.rows_read ?? 0) > 0;
    }, { timeoutMs: 60_000, intervalMs: 5 });
    const cancel = await fx.call('POST', `/api/admin/lead-imports/${id}/cancel`, { identity: admin });
    expect(cancel.status, cancel.text).toBe(200);
    const ended = await finished(id);
    expect(ended.status).toBe('cancelled');
    expect(ended.rowsRead).toBeLessThan(30_000);
    expect((await leadsOfImport(id)).length).toBe(ended.rowsImported);
    const again = await fx.call('POST', `/api/admin/lead-imports/${id}/cancel`, { identity: admin });
    expect(again.status).toBe(409);
  }, 120_000);

  it('undo withdraws the leads nobody bought and leaves the sold ones with their buyer', async () => {
    const { csv } = generateLeadCsv({ rows: 200, now: fx.now(), seed: 4, areaCode: '305' });
    const job = await finished(String((await upload(csv, 'undo-me.csv')).body.id));
    const { rows } = await fx.pool.query<{ id: string }>('SELECT id FROM aged_leads WHERE import_id = $1 ORDER BY id LIMIT 3', [job.id]);
    const buyer = agent();
    await fx.buy(buyer, rows.map((r) => r.id));

    const undo = await fx.call('POST', `/api/admin/lead-imports/${job.id}/undo`, { identity: admin });
    expect(undo.status, undo.text).toBe(200);
    expect(undo.body).toMatchObject({ rowsWithdrawn: job.rowsImported - 3 });
    expect(await leadsOfImport(job.id)).toHaveLength(3);
    const mine = await fx.call('GET', '/api/my-leads', { identity: buyer });
    expect(mine.body.total).toBe(3);
    const { rows: withdrawn } = await fx.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM withdrawn_leads WHERE import_id = $1 AND withdrawn_reason = 'import-undone'", [job.id]);
    expect(withdrawn[0]!.n).toBe(job.rowsImported - 3);
    expect((await fx.call('POST', `/api/admin/lead-imports/${job.id}/undo`, { identity: admin })).status).toBe(409);
    const audit = await fx.outbox('audit.record');
    expect(audit.map((e) => e.data.action)).toEqual(expect.arrayContaining(['lead_import.started', 'lead_import.cancelled', 'lead_import.undone']));
  }, 120_000);
});

describe('bad files are refused before any row is stored', () => {
  const header = 'Name,Phone,Email,State,Zip,Form Fill Time,Source,Consent Certificate,Consent Time,Consent IP\r\n';
  const good = `Jane Smith,5125550143,,TX,78701,${new Date(Date.now() - 40 * 86_400_000).toISOString()},,,,\r\n`;
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['an empty file', '', /empty/i],
    ['a header and no rows', header, /no rows/i],
    ['no header (data first)', good + good, /no header row/i],
    ['a missing required column', 'Name,Email,State,Form Fill Time\r\nJane,,TX,2026-01-01\r\n', /no Phone column/],
    ['binary data (not text)', Buffer.concat([Buffer.from(header), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])]), /not text: line 2/],
    ['a line that is not UTF-8', Buffer.concat([Buffer.from(header + good), Buffer.from('Jos'), Buffer.from([0xe9]), Buffer.from(' Perez,5125550144,,TX,,2026-01-01,,,,\r\n')]), /Line 3 is not UTF-8/],
  ];

  it.each(cases)('%s → 400 naming the problem', async (_name, body, message) => {
    const before = await fx.pool.query<{ n: number }>('SELECT (SELECT count(*) FROM lead_imports)::int + (SELECT count(*) FROM aged_leads)::int AS n');
    const answer = await upload(body);
    expect(answer.status, answer.text).toBe(400);
    expect(String(answer.body.error)).toMatch(message);
    const after = await fx.pool.query<{ n: number }>('SELECT (SELECT count(*) FROM lead_imports)::int + (SELECT count(*) FROM aged_leads)::int AS n');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('a body that is neither CSV text nor multipart → 415 saying how to send it', async () => {
    const answer = await fx.call('POST', '/api/admin/lead-imports', { body: { leads: [] }, identity: admin });
    expect(answer.status).toBe(415);
    expect(String(answer.body.error)).toMatch(/text\/csv or as multipart/);
  });

  it('a file over the size limit → 400 naming the limit, nothing stored', async () => {
    const small = await startCatalogFixture({ BLOB_DIR: blobDir, LEAD_IMPORT_MAX_BYTES: '2048' });
    try {
      const body = header + good.repeat(100);
      const answer = await small.call('POST', '/api/admin/lead-imports', { rawBody: body, headers: { 'content-type': 'text/csv' }, identity: admin });
      expect(answer.status).toBe(400);
      expect(String(answer.body.error)).toMatch(/larger than/);
      const { rows } = await small.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_imports');
      expect(rows[0]!.n).toBe(0);
    } finally {
      await small.cleanup();
    }
  });

  it('a UTF-8 BOM and old Age Range / Price columns are fine; the import says the columns are ignored', async () => {
    const legacy = '\uFEFFName,Phone,State,Age Range,Price,Form Fill Time\r\n' + `Ana Diaz,(832) 555-0199,texas,30-60,9.99,${new Date(Date.now() - 45 * 86_400_000).toISOString()}\r\n`;
    const answer = await upload(legacy, 'legacy.csv');
    expect(answer.status, answer.text).toBe(202);
    expect(String(answer.body.notice)).toMatch(/Age Range and Price/);
    const job = await finished(String(answer.body.id));
    expect(job).toMatchObject({ status: 'done', rowsImported: 1 });
    const { rows } = await fx.pool.query<{ state: string; source: string }>('SELECT state, source FROM aged_leads WHERE import_id = $1', [job.id]);
    expect(rows).toEqual([{ state: 'TX', source: 'import:legacy.csv' }]);
  });

  it('a file where every row is bad ends done, all rejected, with the report', async () => {
    const answer = await upload('Name,Phone,State,Form Fill Time\r\n,1,ZZ,never\r\nBo,2,QQ,later\r\n', 'all-bad.csv');
    const job = await finished(String(answer.body.id));
    expect(job).toMatchObject({ status: 'done', rowsRead: 2, rowsImported: 0, rowsRejected: 2 });
  });
});

describe('the suppression list on import', () => {
  it('refuses a suppressed phone with its reason', async () => {
    await fx.pool.query("INSERT INTO lead_suppressions (phone, reason, created_by_user_id, created_at) VALUES ('9725550101', 'asked to stop', $1, now())", [admin.userId]);
    const fill = new Date(Date.now() - 50 * 86_400_000).toISOString();
    const answer = await upload(`Name,Phone,State,Form Fill Time\r\nOpted Out,972-555-0101,TX,${fill}\r\nStill In,972-555-0102,TX,${fill}\r\n`, 'suppressed.csv');
    const job = await finished(String(answer.body.id));
    expect(job).toMatchObject({ rowsImported: 1, rowsRejected: 1 });
    const report = await fx.call('GET', `/api/admin/lead-imports/${job.id}/errors.csv`, { identity: admin });
    expect(report.text).toContain(`2,Phone,${LEAD_SUPPRESSED_MESSAGE}`);
  });
});

describe('the JSON API for one lead and for many', () => {
  const fill = () => new Date(Date.now() - 60 * 86_400_000).toISOString();

  it('adds one lead, refuses its duplicate with 409 and a bad one with 400', async () => {
    const lead = { name: 'Solo Lead', phone: '(469) 555-0123', state: 'TX', formFillTime: fill(), consentCertificate: 'https://cert.trustedform.com/abc' };
    const added = await fx.call('POST', '/api/admin/aged-leads', { body: lead, identity: admin });
    expect(added.status, added.text).toBe(201);
    expect((await fx.call('POST', '/api/admin/aged-leads', { body: lead, identity: admin })).status).toBe(409);
    const bad = await fx.call('POST', '/api/admin/aged-leads', { body: { ...lead, phone: '123' }, identity: admin });
    expect(bad.status).toBe(400);
    expect(String(bad.body.error)).toMatch(/Phone/);
  });

  it('bulk: all or nothing, with every row error', async () => {
    const leads = Array.from({ length: 50 }, (_, i) => ({ name: `Bulk ${i}`, phone: `469555${String(1000 + i)}`, state: 'OK', formFillTime: fill() }));
    const refused = await fx.call('POST', '/api/admin/bulk-aged-leads', { body: { leads: [...leads, { ...leads[0]!, state: 'Narnia' }] }, identity: admin });
    expect(refused.status).toBe(400);
    expect(refused.body.rowErrors).toEqual([{ index: 50, column: 'State', message: expect.any(String) }]);
    const { rows } = await fx.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM aged_leads WHERE name LIKE 'Bulk %'");
    expect(rows[0]!.n).toBe(0);
    const ok = await fx.call('POST', '/api/admin/bulk-aged-leads', { body: { leads }, identity: admin });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ added: 50, duplicates: 0 });
  });
});

describe('only admins', () => {
  const routes: Array<[string, string]> = [
    ['POST', '/api/admin/lead-imports'],
    ['GET', '/api/admin/lead-imports'],
    ['GET', '/api/admin/lead-imports/template.csv'],
    ['GET', '/api/admin/lead-imports/00000000-0000-4000-8000-000000000001'],
    ['GET', '/api/admin/lead-imports/00000000-0000-4000-8000-000000000001/errors.csv'],
    ['POST', '/api/admin/lead-imports/00000000-0000-4000-8000-000000000001/cancel'],
    ['POST', '/api/admin/lead-imports/00000000-0000-4000-8000-000000000001/undo'],
    ['POST', '/api/admin/aged-leads'],
    ['POST', '/api/admin/bulk-aged-leads'],
  ];
  it.each(routes)('%s %s → 403 for an agent', async (method, route) => {
    const answer = await fx.call(method, route, { identity: agent(), ...(method === 'POST' ? { body: {} } : {}) });
    expect(answer.status).toBe(403);
  });

  it('an unknown import is 404, and so is a malformed id', async () => {
    expect((await fx.call('GET', '/api/admin/lead-imports/00000000-0000-4000-8000-000000000001', { identity: admin })).status).toBe(404);
    const malformed = await fx.call('GET', '/api/admin/lead-imports/nope', { identity: admin });
    expect(malformed.status).toBe(404);
    expect(malformed.body.error).toBe('Import not found');
  });
});

describe('file retention', () => {
  it('deletes an import file 30 days after the import ended; the job and its report stay', async () => {
    const fillTime = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const job = await finished(String((await upload(`Name,Phone,State,Form Fill Time\r\nOld File,(281) 555-0177,TX,${fillTime}\r\n`, 'old.csv')).body.id));
    const { rows } = await fx.pool.query<{ file_key: string }>('SELECT file_key FROM lead_imports WHERE id = $1', [job.id]);
    await fx.pool.query("UPDATE lead_imports SET finished_at = now() - interval '31 days' WHERE id = $1", [job.id]);
    expect(await importer.deleteExpiredFiles()).toBeGreaterThanOrEqual(1);
    await expect(access(path.join(blobDir, rows[0]!.file_key))).rejects.toThrow();
    expect((await fx.call('GET', `/api/admin/lead-imports/${job.id}`, { identity: admin })).status).toBe(200);
  });
});
