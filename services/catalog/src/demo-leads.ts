import { randomUUID } from 'node:crypto';
import type { Pool } from '@warmline/platform/db/index';
import {
  countUnsoldLeadsIn,
  dropMarketIndexes,
  rebuildLeadStock,
  rebuildMarketIndexes,
  setStockTriggerEnabled,
} from './imports/db/bulk-load';
import { insertLeads, type NewAgedLead } from './db/leads';
import { DAY_MS, listingWindow } from './market/domain/lead-age';

/**
 * Demo and benchmark inventory: realistic-looking aged leads (made-up people with real US
 * area codes for their states) spread over every state and over 10 to 200 days of age, so the
 * market shows leads of each age range and hides the ones too young or too old; most with a
 * consent record, some without. Deterministic for a given seed, apart from ids.
 */

/** A few real area codes per state (the first is the largest city's). */
const AREA_CODES: Record<string, string[]> = {
  AL: ['205', '251', '256', '334'], AK: ['907'], AZ: ['602', '480', '520', '623'], AR: ['501', '479', '870'],
  CA: ['213', '310', '415', '619', '714', '818', '916', '949'], CO: ['303', '719', '720', '970'], CT: ['203', '860'],
  DE: ['302'], DC: ['202'], FL: ['305', '407', '813', '904', '954', '561'], GA: ['404', '470', '678', '706', '912'],
  HI: ['808'], ID: ['208'], IL: ['312', '630', '708', '773', '847'], IN: ['317', '219', '260', '812'],
  IA: ['515', '319', '563'], KS: ['316', '785', '913'], KY: ['502', '859', '270'], LA: ['504', '225', '318', '337'],
  ME: ['207'], MD: ['410', '301', '443'], MA: ['617', '508', '781', '978'], MI: ['313', '248', '616', '734'],
  MN: ['612', '651', '763', '952'], MS: ['601', '228', '662'], MO: ['314', '816', '417', '573'], MT: ['406'],
  NE: ['402', '308'], NV: ['702', '775'], NH: ['603'], NJ: ['201', '609', '732', '973'], NM: ['505', '575'],
  NY: ['212', '347', '516', '518', '716', '718'], NC: ['704', '919', '336', '910'], ND: ['701'],
  OH: ['614', '216', '513', '330', '419'], OK: ['405', '918', '580'], OR: ['503', '541', '971'],
  PA: ['215', '412', '610', '717', '814'], PR: ['787', '939'], RI: ['401'], SC: ['803', '843', '864'], SD: ['605'],
  TN: ['615', '901', '865', '423'], TX: ['512', '214', '713', '210', '817', '832', '972', '915'],
  UT: ['801', '385', '435'], VT: ['802'], VA: ['703', '757', '804', '540'], WA: ['206', '253', '425', '509'],
  WV: ['304'], WI: ['414', '608', '920'], WY: ['307'],
};

/**
 * The span of 3-digit zip prefixes per state (USPS sectional centres, roughly); a demo lead's zip
 * is one of its state's prefixes and two random digits, so a zip filter finds a few leads each.
 */
const ZIP_PREFIXES: Record<string, [number, number]> = {
  AL: [350, 369], AK: [995, 999], AZ: [850, 865], AR: [716, 729], CA: [900, 961], CO: [800, 816], CT: [60, 69],
  DE: [197, 199], DC: [200, 205], FL: [320, 349], GA: [300, 319], HI: [967, 968], ID: [832, 838], IL: [600, 629],
  IN: [460, 479], IA: [500, 528], KS: [660, 679], KY: [400, 427], LA: [700, 714], ME: [39, 49], MD: [206, 219],
  MA: [10, 27], MI: [480, 499], MN: [550, 567], MS: [386, 397], MO: [630, 658], MT: [590, 599], NE: [680, 693],
  NV: [889, 898], NH: [30, 38], NJ: [70, 89], NM: [870, 884], NY: [100, 149], NC: [270, 289], ND: [580, 588],
  OH: [430, 459], OK: [730, 749], OR: [970, 979], PA: [150, 196], PR: [6, 9], RI: [28, 29], SC: [290, 299],
  SD: [570, 577], TN: [370, 385], TX: [750, 799], UT: [840, 847], VT: [50, 59], VA: [220, 246], WA: [980, 994],
  WV: [247, 268], WI: [530, 549], WY: [820, 831],
};

/** Rough share of leads per state: big states sell more policies. */
const WEIGHT: Record<string, number> = { CA: 12, TX: 10, FL: 8, NY: 6, PA: 4, IL: 4, OH: 4, GA: 4, NC: 4, MI: 3 };

const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William',
  'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Carlos', 'Karen', 'Daniel', 'Lisa',
  'Matthew', 'Nancy', 'Anthony', 'Betty', 'Mark', 'Maria', 'Jose', 'Sandra', 'Luis', 'Ashley', 'Kevin', 'Emily',
  'Brian', 'Donna', 'George', 'Michelle', 'Wei', 'Aisha', 'Ana', 'Kim', 'Tyrone', 'Priya', 'Bo', 'Al',
];
const MIDDLE_NAMES = ['Ann', 'Lee', 'Marie', 'James', 'Lynn', 'Ray', 'Jo'];
const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez',
  'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez',
  'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen',
  'King', 'Wright', 'Scott', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera',
  'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Wu', 'Ng', 'Patel', 'Kowalski', "O'Brien", 'Washington',
];
const SOURCES = ['facebook-lead-form', 'google-search', 'final-expense-landing', 'medicare-quote-site', 'tiktok-ads', 'radio-callback'];
const MAIL_HOSTS = ['gmail.com', 'yahoo.com', 'outlook.com', 'aol.com', 'icloud.com'];

/** mulberry32: a small, fast, seedable generator. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A TrustedForm certificate id: 40 hex digits. */
function trustedFormId(rnd: () => number): string {
  let id = '';
  for (let i = 0; i < 5; i += 1) id += Math.floor(rnd() * 2 ** 32).toString(16).padStart(8, '0');
  return id;
}

const DOCUMENTATION_NETS_V4 = ['192.0.2', '198.51.100', '203.0.113'];

/**
 * A consent address from the ranges set aside for documentation (RFC 5737, RFC 3849), so no demo
 * lead names a real machine; one in five IPv6. Written as PostgreSQL writes it back.
 */
function documentationAddress([kind, a, b, c]: readonly [number, number, number, number]): string {
  if (kind < 0.2) return `2001:db8::${(1 + Math.floor(a * 0xffff)).toString(16)}:${(1 + Math.floor(b * 0xffff)).toString(16)}`;
  return `${DOCUMENTATION_NETS_V4[Math.floor(c * DOCUMENTATION_NETS_V4.length)]}.${1 + Math.floor(a * 254)}`;
}

export interface DemoLeadOptions {
  now?: Date;
  seed?: number;
  /** Ages drawn uniformly from this range, in days (fractional: leads are spread over the day). */
  minAgeDays?: number;
  maxAgeDays?: number;
}

/** An endless supply of demo leads; take as many as needed. */
function* demoLeads(options: DemoLeadOptions = {}): Generator<NewAgedLead> {
  const now = (options.now ?? new Date()).getTime();
  const rnd = random(options.seed ?? 20_251_121);
  // Zips and consent draw from their own streams, so a seed gives the same people as before
  // either existed.
  const zipRnd = random((options.seed ?? 20_251_121) ^ 0x5a5a5a5a);
  const consentRnd = random((options.seed ?? 20_251_121) ^ 0x3c3c3c3c);
  const minAge = options.minAgeDays ?? 10;
  const maxAge = options.maxAgeDays ?? 200;
  const states = Object.keys(AREA_CODES);
  const weighted = states.flatMap((s) => Array<string>(WEIGHT[s] ?? 1).fill(s));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  for (;;) {
    const state = pick(weighted);
    const area = pick(AREA_CODES[state] as string[]);
    const exchange = 200 + Math.floor(rnd() * 800);
    const line = Math.floor(rnd() * 10_000);
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const middle = rnd() < 0.15 ? ` ${pick(MIDDLE_NAMES)}` : '';
    const formFillTime = new Date(now - (minAge + rnd() * (maxAge - minAge)) * DAY_MS);
    const email = rnd() < 0.8 ? `${first}.${last}${Math.floor(rnd() * 100)}@${pick(MAIL_HOSTS)}`.toLowerCase().replace(/'/g, '') : null;
    // The four draws the consent address always took, so the leads after it stay the same.
    const ipDraws = [rnd(), rnd(), rnd(), rnd()] as const;
    const source = pick(SOURCES);
    const [lowPrefix, highPrefix] = ZIP_PREFIXES[state] as [number, number];
    const zipPrefix = lowPrefix + Math.floor(zipRnd() * (highPrefix - lowPrefix + 1));
    const zip = `${String(zipPrefix).padStart(3, '0')}${String(Math.floor(zipRnd() * 100)).padStart(2, '0')}`;
    // About one lead in ten came without consent evidence, as some vendors' do: the market shows
    // the badge on the others only.
    const consented = consentRnd() >= 0.1;
    const lead: NewAgedLead = {
      id: randomUUID(),
      name: `${first}${middle} ${last}`,
      phone: `${area}${exchange}${String(line).padStart(4, '0')}`,
      email,
      state,
      zip,
      formFillTime,
      source,
      consent: {},
    };
    if (consented) {
      lead.consent = {
        tcpaConsent: true,
        consentText:
          'By submitting this form I agree to be contacted by licensed insurance agents by phone, text and e-mail, including by automated means. Consent is not a condition of purchase.',
        pageUrl: `https://quotes.example.com/${source}`,
      };
      lead.consentCertificate = `https://cert.trustedform.com/${trustedFormId(consentRnd)}`;
      // Consent is given as the form is sent: a few seconds after it was filled.
      lead.consentTime = new Date(formFillTime.getTime() + (3 + Math.floor(consentRnd() * 40)) * 1000);
      lead.consentIp = documentationAddress(ipDraws);
    }
    yield lead;
  }
}

/**
 * Inserts `count` demo leads in batches (one multi-row statement each); `onProgress` hears
 * the running total after every batch.
 */
export async function insertDemoLeads(
  pool: Pool,
  count: number,
  options: DemoLeadOptions & { batchSize?: number; onProgress?: (inserted: number) => void } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 5000;
  const source = demoLeads(options);
  let inserted = 0;
  while (inserted < count) {
    const batch: NewAgedLead[] = [];
    const size = Math.min(batchSize, count - inserted);
    for (let i = 0; i < size; i += 1) batch.push(source.next().value as NewAgedLead);
    inserted += await insertLeads(pool, batch);
    options.onProgress?.(inserted);
  }
  return inserted;
}

/**
 * A large load (benchmarks: a million leads) without paying per-row index and stock upkeep:
 * the market's indexes are dropped and rebuilt afterwards from their own definitions, the
 * stock trigger is paused and the stock recounted once, and two connections insert at once.
 * Meant for a database the services are not busy with (it locks the table while it rebuilds).
 */
export async function bulkLoadDemoLeads(
  pool: Pool,
  count: number,
  options: DemoLeadOptions & { onProgress?: (inserted: number) => void } = {},
): Promise<number> {
  const indexes = await dropMarketIndexes(pool);
  await setStockTriggerEnabled(pool, false);
  let inserted = 0;
  try {
    const workers = 2;
    const share = Math.ceil(count / workers);
    const seed = options.seed ?? 20_251_121;
    await Promise.all(
      Array.from({ length: workers }, (_, w) =>
        insertDemoLeads(pool, Math.max(0, Math.min(share, count - w * share)), {
          ...options,
          seed: seed + w,
          onProgress: () => undefined,
          batchSize: 5000,
        }).then((n) => {
          inserted += n;
          options.onProgress?.(inserted);
        }),
      ),
    );
  } finally {
    await setStockTriggerEnabled(pool, true);
    await rebuildLeadStock(pool);
    await rebuildMarketIndexes(pool, indexes);
  }
  return inserted;
}

/** Unsold leads a buyer could see right now (30 to 180 days old). */
export function countListableLeads(pool: Pool, now = new Date()): Promise<number> {
  return countUnsoldLeadsIn(pool, listingWindow(now));
}

/** How many demo leads `make start` adds when the market runs low, and what "low" is. */
export const DEMO_LEAD_BATCH = 3000;
const DEMO_LEADS_LOW = 1000;

/**
 * `make start`'s demo inventory: a few thousand leads across states and ages. Adds a batch
 * when fewer than 1000 are listable (a first start, or demo leads that have aged out), so
 * running it again does not keep growing the table.
 */
export async function seedDemoLeads(pool: Pool, now = new Date()): Promise<{ added: number; listable: number }> {
  const before = await countListableLeads(pool, now);
  if (before >= DEMO_LEADS_LOW) return { added: 0, listable: before };
  const added = await insertDemoLeads(pool, DEMO_LEAD_BATCH, { now, seed: now.getTime() % 2 ** 31 });
  return { added, listable: await countListableLeads(pool, now) };
}
