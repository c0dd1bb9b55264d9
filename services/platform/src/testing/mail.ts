import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Reading the e-mails the notifications worker wrote as .eml files (no SMTP_URL): what a test
 * checks instead of an inbox.
 */

/** The .eml file names in `dir`, in the order they were written. */
export async function emlFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
}

/** Bodies are quoted-printable: undo soft line breaks and =XX escapes to read them. */
export function decodeQuotedPrintable(text: string): string {
  return Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

/** Every message written under `dir` (its subfolders too), decoded, oldest first. */
export async function readMails(dir: string): Promise<string[]> {
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(files.map(async (f) => decodeQuotedPrintable(await readFile(path.join(dir, f), 'utf8'))));
}

/** Every message in `dir` addressed to `to`, decoded, oldest first. */
export async function mailsTo(dir: string, to: string): Promise<string[]> {
  const messages = await readMails(dir);
  return messages.filter((m) => new RegExp(`^To: ${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm').test(m));
}
