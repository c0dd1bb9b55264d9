import { Transform, type TransformCallback } from 'node:stream';
import { usPhoneDigits } from '@warmline/contracts';

/**
 * Watches a registry file stream into the BlobStore (issue 24) until it has seen one valid
 * number: a file with none is refused at upload (400), not left to fail in the worker. The
 * bytes pass through unchanged; once a number is seen the rest is not looked at.
 */

/** A line this long holds no phone number: stop buffering it. */
const MAX_LINE = 256;

export class RegistryFileCheck extends Transform {
  private found = false;
  private line = '';

  hasNumber(): boolean {
    return this.found;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!this.found) this.scan(chunk.toString('latin1'));
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (!this.found && usPhoneDigits(this.line)) this.found = true;
    done();
  }

  private scan(text: string): void {
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      if (end < 0) {
        this.line = (this.line + text.slice(start)).slice(0, MAX_LINE);
        return;
      }
      const line = this.line + text.slice(start, end);
      this.line = '';
      if (usPhoneDigits(line)) {
        this.found = true;
        return;
      }
      start = end + 1;
    }
  }
}
