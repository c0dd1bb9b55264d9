import { Transform, type TransformCallback } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { parse as parseCsv } from 'csv-parse/sync';
import { badRequest } from '@warmline/platform/errors';

/**
 * Checks an import file while it streams into the BlobStore (issue 13): it must be UTF-8 text
 * (a BOM is fine) with a header line and at least one row. A bad file is refused with a 400
 * that names the first bad line before any row is stored; the bytes pass through unchanged.
 * It also counts the data lines, so the progress bar knows the total before the import starts.
 */

/** A header line longer than this is not a CSV header. */
const MAX_HEADER_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export class ImportFileCheck extends Transform {
  private lines = 0;
  /** Bytes of the current, unfinished line (to know whether a last line without a newline has data). */
  private lineHasData = false;
  private headerBytes: Buffer[] = [];
  private headerLength = 0;
  private headerDone = false;
  private headerLine: string | null = null;
  /** The end of a multi-byte character cut by the chunk boundary, checked with the next chunk. */
  private carry: Buffer = Buffer.alloc(0);

  /** The header's cells (after the upload has finished). */
  headerCells(): string[] {
    if (this.headerLine === null) throw new Error('the file has not been read yet');
    return parseCsv(this.headerLine, { bom: true, relax_quotes: true })[0] ?? [];
  }

  /** Data lines (lines after the header with anything on them). */
  dataLines(): number {
    return this.lines;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.check(chunk);
      done(null, chunk);
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      if (this.carry.length > 0) throw notUtf8(this.lineNumber());
      if (!this.headerDone) this.finishHeader();
      if (this.lineHasData) this.lines += 1;
      if (this.lines === 0) throw badRequest('The file has a header but no rows under it');
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  /** 1-based number of the line being read (the header is line 1). */
  private lineNumber(): number {
    return this.headerDone ? this.lines + 2 : 1;
  }

  private check(chunk: Buffer): void {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const whole = bytes.length - incompleteTail(bytes);
    this.carry = Buffer.from(bytes.subarray(whole));
    const text = bytes.subarray(0, whole);
    if (text.includes(0)) throw badRequest(`The file is not text: line ${this.firstLineWith(text, (line) => line.includes(0))} has binary data. Save it as CSV (UTF-8) and upload again`);
    if (!isUtf8(text)) throw notUtf8(this.firstLineWith(text, (line) => !isUtf8(line)));
    this.countLines(text);
  }

  private countLines(text: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf(NEWLINE, start);
      const end = nl === -1 ? text.length : nl;
      if (!this.headerDone) {
        this.headerLength += end - start;
        if (this.headerLength > MAX_HEADER_BYTES) throw badRequest('The first line is longer than 64 KB: it is not a CSV header');
        this.headerBytes.push(text.subarray(start, end));
        if (nl === -1) return;
        this.finishHeader();
      } else {
        if (end > start && hasData(text, start, end)) this.lineHasData = true;
        if (nl === -1) return;
        if (this.lineHasData) this.lines += 1;
        this.lineHasData = false;
      }
      start = nl + 1;
    }
  }

  private finishHeader(): void {
    this.headerDone = true;
    this.headerLine = Buffer.concat(this.headerBytes).toString('utf8').replace(/\r$/, '');
    this.headerBytes = [];
    if (this.headerLine.replace(/^\uFEFF/, '').trim() === '') throw badRequest('The file has no header row: its first line is empty');
  }

  /** The line number, in the file, of the first line of `text` (a chunk) that fails `bad`. */
  private firstLineWith(text: Buffer, bad: (line: Buffer) => boolean): number {
    let start = 0;
    let line = this.lineNumber();
    for (;;) {
      const nl = text.indexOf(NEWLINE, start);
      const end = nl === -1 ? text.length : nl;
      if (bad(text.subarray(start, end))) return line;
      if (nl === -1) return line;
      start = nl + 1;
      line += 1;
    }
  }
}

function notUtf8(line: number) {
  return badRequest(`Line ${line} is not UTF-8 text. Save the file as CSV UTF-8 and upload again`);
}

/** A line of only a carriage return or spaces is not a row. */
function hasData(text: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = text[i]!;
    if (b !== 0x0d && b !== 0x20 && b !== 0x2c) return true;
  }
  return false;
}

/** How many bytes at the end begin a multi-byte UTF-8 character that the next chunk completes. */
function incompleteTail(bytes: Buffer): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}
