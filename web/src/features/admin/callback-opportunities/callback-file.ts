import { CALLBACK_BULK_MAX_ROWS, CALLBACK_CSV_COLUMNS, type BulkCallbackOpportunitiesInput } from '@warmline/contracts/callbacks';
import { CsvError, readCsvTable } from '../../../lib/csv';

/**
 * The file an admin may pick, and the bulk call's body: the gateway takes 2 MB for it
 * (BULK_BODY_LIMIT_BYTES of contracts/routes, not imported: the route manifest would add 28 kB to the admin bundle).
 */
const CALLBACK_FILE_MAX_BYTES = 2 * 1024 * 1024;

/** The row objects the bulk call takes, by the template's columns. */
const ROW_FIELD = { 'First Name': 'firstName', 'Last Name': 'lastName', Phone: 'phone', State: 'state', Price: 'price' } as const;

/** The rows to send, or why the file cannot be read into them (for the error panel). */
type ReadFile = { ok: true; csvData: BulkCallbackOpportunitiesInput['csvData'] } | { ok: false; detail: string };

/** Reads the chosen file into the bulk call's rows; every problem is said in words. */
export async function readCallbackFile(file: File): Promise<ReadFile> {
  if (file.size === 0) return { ok: false, detail: 'The file is empty.' };
  if (file.size > CALLBACK_FILE_MAX_BYTES) return { ok: false, detail: 'The file is larger than 2 MB; split it into smaller files.' };
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { ok: false, detail: 'The file could not be read.' };
  }
  let table;
  try {
    table = readCsvTable(text, CALLBACK_CSV_COLUMNS);
  } catch (error) {
    return { ok: false, detail: error instanceof CsvError ? `${error.message}.` : 'The file is not CSV.' };
  }
  // Price may be left out (15.00); the other columns must be there.
  const missing = table.missing.filter((c) => c !== 'Price');
  if (missing.length > 0) return { ok: false, detail: `The header row has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''}. Use the template's columns: ${CALLBACK_CSV_COLUMNS.join(', ')}.` };
  if (table.rows.length === 0) return { ok: false, detail: 'The file has no rows under its header.' };
  if (table.rows.length > CALLBACK_BULK_MAX_ROWS) {
    return { ok: false, detail: `The file has ${table.rows.length.toLocaleString('en-US')} rows; at most ${CALLBACK_BULK_MAX_ROWS.toLocaleString('en-US')} can be uploaded at once. Split it into smaller files.` };
  }
  const csvData = table.rows.map((row) => {
    const out: BulkCallbackOpportunitiesInput['csvData'][number] = {};
    for (const column of CALLBACK_CSV_COLUMNS) {
      const value = row[column];
      // A blank price is left out: the server prices it at the default.
      if (column === 'Price' && value === '') continue;
      out[ROW_FIELD[column]] = value;
    }
    return out;
  });
  // The rows as JSON carry their field names too: a file just under 2 MB can make a body over it.
  if (new TextEncoder().encode(JSON.stringify({ csvData })).length > CALLBACK_FILE_MAX_BYTES) {
    return { ok: false, detail: 'The rows come to more than 2 MB to send; split the file into smaller files.' };
  }
  return { ok: true, csvData };
}
