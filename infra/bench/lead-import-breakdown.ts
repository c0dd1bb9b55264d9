/**
 * Where a lead-import batch's time goes in PostgreSQL (issue 27), on the database
 * `infra/bench/lead-import.ts` leaves behind (a million leads and more): the backend's CPU from
 * /proc around each statement of a batch, per 1,000 rows — the skip-rows probe, the COPY into
 * aged_leads with its stock trigger, and the same COPY with the trigger off (what the indexed
 * COPY baseline does). Every batch is rolled back, so the table stays as it was. Not part of
 * `make bench`: `npx tsx infra/bench/lead-import-breakdown.ts [rows per batch] [batches]`.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { stateOfAreaCode } from '@warmline/contracts';
import { timeOrderedUuid } from '@warmline/platform/ids';
import { SKIP_PROBE } from '@warmline/catalog/imports/db/lead-batch-load';
import { cpuSeconds, say } from './kit/index.js';

const DATABASE_URL = process.env.BENCH_IMPORT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/warmline_bench_import';
const ROWS = Number(process.argv[2] ?? 10_000);
const BATCHES = Number(process.argv[3] ?? 4);
const DAY_MS = 86_400_000;
// Spread like the bench's files: every geographic area code, ten states, 149 days.
const AREA_CODES = Array.from({ length: 700 }, (_, k) => String(200 + k)).filter((code) => stateOfAreaCode(`${code}5550000`) !== null);
const STATES = ['TX', 'CA', 'FL', 'NY', 'OH', 'GA', 'AZ', 'NC', 'PA', 'IL'];

const COPY = 'COPY aged_leads (id, name, phone, email, state, zip, form_fill_time, source, consent_certificate, consent_time, consent_ip) FROM STDIN';

interface Lead {
  phone: string;
  fill: string;
  line: string;
}

function batch(): Lead[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const phone = AREA_CODES[i % AREA_CODES.length]! + String(2_000_000 + Math.floor(Math.random() * 7_999_999));
    const fill = new Date(Date.now() - (31 + (i % 149)) * DAY_MS - (i % 43_200) * 1000).toISOString();
    const line = [timeOrderedUuid(), `Breakdown ${i}`, phone, i % 4 ? `b${i}@example.com` : '\\N', STATES[i % 10], i % 5 ? String(10_000 + i) : '\\N', fill, 'vendor-bench', `https://cert.trustedform.com/${i}`, fill, `203.0.113.${i % 250}`].join('\t');
    return { phone, fill, line };
  });
}

const db = new pg.Client({ connectionString: DATABASE_URL, options: '-c search_path=catalog,public' });
await db.connect();
const { rows: me } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
const cpuMs = () => cpuSeconds(me[0]!.pid) * 1000;
const { rows: size } = await db.query<{ leads: number; combos: number }>('SELECT (SELECT count(*) FROM aged_leads)::int AS leads, (SELECT count(*) FROM lead_stock)::int AS combos');
const spent: Record<'probe' | 'copyWithStockTrigger' | 'copyWithoutStockTrigger', number[]> = { probe: [], copyWithStockTrigger: [], copyWithoutStockTrigger: [] };
try {
  for (let k = 0; k < BATCHES; k++) {
    for (const trigger of [true, false]) {
      const leads = batch();
      await db.query('BEGIN');
      if (!trigger) await db.query('ALTER TABLE aged_leads DISABLE TRIGGER aged_leads_stock_insert');
      let at = cpuMs();
      if (trigger) {
        await db.query(SKIP_PROBE, [leads.map((l) => l.phone), leads.map((l) => l.fill), 'America/New_York']);
        spent.probe.push(cpuMs() - at);
        at = cpuMs();
      }
      await pipeline(Readable.from([leads.map((l) => l.line).join('\n') + '\n']), db.query(copyFrom(COPY)));
      spent[trigger ? 'copyWithStockTrigger' : 'copyWithoutStockTrigger'].push(cpuMs() - at);
      await db.query('ROLLBACK');
    }
  }
} finally {
  await db.end();
}
const per1000 = (ms: number[]) => ms.map((m) => ((m / ROWS) * 1000).toFixed(0)).join(', ');
say(
  `${size[0]!.leads.toLocaleString('en-US')} leads, ${size[0]!.combos.toLocaleString('en-US')} stock rows; batches of ${ROWS.toLocaleString('en-US')}; load ${os.loadavg()[0]!.toFixed(1)}\n` +
    Object.entries(spent)
      .map(([step, ms]) => `${step}: ${per1000(ms)} ms CPU per 1,000 rows`)
      .join('\n'),
);
