import { inflateSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { IDENTITY_HEADER } from '../http/identity';
import { type Identity } from '../identity';
import { audienceOf } from './calls';
import { signTestIdentity } from './index';

/** Test helpers for downloads (issue 24's evidence pack): the bytes of an answer, and the text a PDF draws. */

export interface Download {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  /** The body as UTF-8 text (JSON answers, errors). */
  text: string;
}

/** GETs a download from an internal service as the gateway would forward it, keeping the bytes. */
export async function download(baseUrl: string, path: string, identity: Identity, headers: Record<string, string> = {}): Promise<Download> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { ...headers, [IDENTITY_HEADER]: signTestIdentity(await audienceOf(baseUrl), identity) } });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: new TextDecoder().decode(bytes) };
}

/**
 * The text a PDF shows, one string per text-showing operator, in drawing order: each content
 * stream inflated (pdf-lib compresses them), its hex and literal strings decoded as WinAnsi
 * (Latin-1 is close enough for a test). Enough for pdf-lib's own output; not a general reader.
 */
export function pdfTextRuns(pdf: Uint8Array): string[] {
  const buffer = Buffer.from(pdf);
  const runs: string[] = [];
  let at = 0;
  for (;;) {
    const start = buffer.indexOf('stream', at, 'latin1');
    if (start < 0) break;
    const dataStart = start + 'stream'.length + (buffer[start + 6] === 0x0d ? 2 : 1);
    const end = buffer.indexOf('endstream', dataStart, 'latin1');
    if (end < 0) break;
    at = end + 'endstream'.length;
    // 'endstream' itself contains 'stream': skip a match that is the tail of one.
    if (buffer.toString('latin1', start - 3, start) === 'end') continue;
    const data = buffer.subarray(dataStart, end);
    let content: string;
    try {
      content = inflateSync(data).toString('latin1');
    } catch {
      content = data.toString('latin1');
    }
    for (const match of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
      runs.push(match[1] !== undefined ? Buffer.from(match[1], 'hex').toString('latin1') : (match[2] ?? '').replace(/\\(.)/g, '$1'));
    }
  }
  return runs;
}

/** The files of a zip, by name. */
export function unzipFiles(zip: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(zip);
}

/** How many pages a PDF has, read by pdf-lib (which refuses a broken file). */
export async function pdfPageCount(pdf: Uint8Array): Promise<number> {
  return (await PDFDocument.load(pdf)).getPageCount();
}
