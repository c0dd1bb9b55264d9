/**
 * Shared by every service that exports a CSV (catalog's My Leads, the gateway's campaign responses).
 * CSV as spreadsheets and CRMs read it (RFC 4180): fields with a comma, quote or line break
 * are quoted, quotes doubled, lines end with CRLF. A field that a spreadsheet would run as a
 * formula (starting with =, +, -, @, tab or CR) gets a leading apostrophe: lead data comes
 * from outside and must not execute on the buyer's computer (OWASP CSV injection).
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: Array<Array<string | number | null | undefined>>): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
