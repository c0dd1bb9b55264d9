/**
 * A small CSV reader for files an admin picks (RFC 4180 and what spreadsheets actually write):
 * quoted fields with commas, line breaks and doubled quotes (""), CRLF, LF or CR line ends, a
 * UTF-8 byte-order mark, blank lines skipped. It reads text only; what a cell means is the
 * caller's (and the server checks it again).
 */

/** The file is not CSV we can read (e.g. a quote never closed). */
export class CsvError extends Error {
  override name = 'CsvError';
}

/** Every non-blank line of `text` as its cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  // A quote opened on this line number, for the error message.
  let quoteLine = 0;
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const endRow = () => {
    row.push(cell);
    cell = '';
    // A blank line (one empty cell) is not a row.
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };

  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      // A quote opens a field only at its start (spaces before it are dropped, as spreadsheets do).
      cell = '';
      quoted = true;
      quoteLine = line;
    } else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      line++;
      endRow();
    } else {
      cell += ch;
    }
  }
  if (quoted) throw new CsvError(`A quoted field opened on line ${quoteLine} is never closed`);
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}

/** The data rows of a CSV as objects keyed by the expected column names (matched case- and space-insensitively). */
export interface CsvTable<C extends string> {
  rows: Array<Record<C, string>>;
  /** Expected columns the header does not have. */
  missing: C[];
}

const headerKey = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Reads `text` with its first row as the header. A column absent from the header gives '' in
 * every row and is named in `missing`; columns not expected are ignored.
 */
export function readCsvTable<C extends string>(text: string, columns: readonly C[]): CsvTable<C> {
  const [header, ...data] = parseCsv(text);
  if (!header) return { rows: [], missing: [...columns] };
  const keys = header.map(headerKey);
  const at = new Map(columns.map((c) => [c, keys.indexOf(headerKey(c))] as const));
  const missing = columns.filter((c) => at.get(c) === -1);
  const rows = data.map((cells) => {
    const record = {} as Record<C, string>;
    for (const c of columns) {
      const index = at.get(c) ?? -1;
      record[c] = index >= 0 ? (cells[index] ?? '').trim() : '';
    }
    return record;
  });
  return { rows, missing };
}

/** One CSV line from cells, quoting those that need it. */
export function csvLine(cells: readonly string[]): string {
  return cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',');
}
