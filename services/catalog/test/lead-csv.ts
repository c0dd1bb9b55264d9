import { LEAD_IMPORT_COLUMNS } from '@warmline/contracts';
import { csvField } from '@warmline/platform/csv';

/**
 * Vendor-like aged-lead CSV files for the import tests: mostly good rows, a share of bad ones
 * (each with a known reason) and duplicates of earlier rows — and what an import of them must
 * end with. Deterministic: the same options give the same file.
 */

const DAY_MS = 86_400_000;
const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez'];
const STATES = ['TX', 'CA', 'FL', 'NY', 'OH', 'GA', 'AZ', 'NC'];

/** The bad rows, in turn: what is wrong and the column it is reported on. */
const BAD_KINDS = [
  { column: 'Phone', make: (row: string[]) => (row[1] = '555-01') },
  { column: 'State', make: (row: string[]) => (row[3] = 'Atlantis') },
  { column: 'Name', make: (row: string[]) => (row[0] = '  ') },
  { column: 'Form Fill Time', make: (row: string[]) => (row[5] = 'yesterday-ish') },
  { column: 'Form Fill Time', make: (row: string[], now: Date) => (row[5] = new Date(now.getTime() - 200 * DAY_MS).toISOString()) },
  { column: 'Email', make: (row: string[]) => (row[2] = 'not-an-email') },
  { column: 'Zip', make: (row: string[]) => (row[4] = '7870') },
];

export interface GeneratedFile {
  csv: string;
  /** Data rows in the file. */
  rows: number;
  /** Spreadsheet row numbers (header = 1) of the bad rows, with the column each is refused on. */
  bad: Array<{ rowNumber: number; column: string }>;
  duplicates: number;
  /** Phones of the rows that must be imported. */
  importedPhones: string[];
}

export function generateLeadCsv(options: { rows: number; now: Date; badEvery?: number; duplicateEvery?: number; seed?: number; areaCode?: string }): GeneratedFile {
  const badEvery = options.badEvery ?? 33; // ~3 %
  const duplicateEvery = options.duplicateEvery ?? 50;
  const seed = options.seed ?? 1;
  const area = options.areaCode ?? '512';
  const lines = [LEAD_IMPORT_COLUMNS.join(',')];
  const bad: GeneratedFile['bad'] = [];
  const importedPhones: string[] = [];
  const written: string[][] = [];
  let duplicates = 0;
  for (let i = 0; i < options.rows; i++) {
    const rowNumber = i + 2;
    let row: string[];
    if (i > 0 && i % duplicateEvery === 0) {
      // The same phone and form-fill time as an earlier good row: a duplicate.
      let original = Math.floor(i / 2);
      while (written[original] === undefined) original -= 1;
      row = [...written[original]!];
      row[0] = `${row[0]} (again)`;
      duplicates += 1;
    } else {
      const n = seed * 1_000_003 + i;
      const phone = `${area}${String(2_000_000 + ((n * 7919) % 7_999_999)).padStart(7, '0')}`;
      // 31..170 days old, at noon UTC: away from day edges in America/Chicago.
      const fill = new Date(Math.floor(options.now.getTime() / DAY_MS) * DAY_MS - (31 + (i % 140)) * DAY_MS + 12 * 3_600_000);
      row = [
        `${FIRST[i % 10]} ${LAST[(i * 7) % 10]}`,
        `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`,
        i % 4 === 0 ? '' : `lead${n}@example.com`,
        STATES[i % STATES.length]!,
        i % 5 === 0 ? '' : String(10_000 + (n % 89_999)),
        fill.toISOString(),
        i % 3 === 0 ? '' : 'vendor-a',
        i % 10 === 0 ? '' : `https://cert.trustedform.com/${String(n).padStart(40, '0')}`,
        i % 10 === 0 ? '' : new Date(fill.getTime() + 5_000).toISOString(),
        i % 10 === 0 ? '' : `203.0.113.${n % 250}`,
      ];
      if (i % badEvery === badEvery - 1) {
        const kind = BAD_KINDS[Math.floor(i / badEvery) % BAD_KINDS.length]!;
        kind.make(row, options.now);
        bad.push({ rowNumber, column: kind.column });
      } else {
        written[i] = row;
        importedPhones.push(phone);
      }
    }
    // A duplicate of a bad row is not a duplicate: only keep good rows as originals.
    if (written[i] === undefined && i > 0 && i % duplicateEvery !== 0) written[i] = written[i - 1]!;
    lines.push(row.map((cell) => csvField(cell)).join(','));
  }
  return { csv: lines.join('\r\n') + '\r\n', rows: options.rows, bad, duplicates, importedPhones };
}
