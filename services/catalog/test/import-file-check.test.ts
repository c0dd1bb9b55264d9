import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { ImportFileCheck } from '../src/imports/domain/import-file-check';

/** The upload's check (issue 13): UTF-8 text, a header, rows — whatever size the chunks come in. */

async function check(bytes: Buffer, chunkSize = bytes.length || 1): Promise<ImportFileCheck> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const inspector = new ImportFileCheck();
  const passed: Buffer[] = [];
  await pipeline(
    Readable.from(chunks),
    inspector,
    new Writable({
      write(chunk: Buffer, _enc, done) {
        passed.push(chunk);
        done();
      },
    }),
  );
  expect(Buffer.concat(passed).equals(bytes)).toBe(true);
  return inspector;
}

const header = 'Name,Phone,State,Form Fill Time\r\n';

describe('the import file check', () => {
  it('passes the bytes through unchanged and counts the rows, however the chunks cut the characters', async () => {
    const text = `\uFEFF${header}José Núñez,5125550143,TX,7/1/2026\r\n\r\n,,,\r\n李 雷,5125550144,TX,7/1/2026\r\nZoë 🙂 Ames,5125550145,TX,7/1/2026`;
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const result = await check(Buffer.from(text), size);
      expect(result.dataLines()).toBe(3);
      expect(result.headerCells()).toEqual(['Name', 'Phone', 'State', 'Form Fill Time']);
    }
  });

  it('names the first line that is not UTF-8, also when it lies across chunks', async () => {
    const latin1 = Buffer.concat([Buffer.from(`${header}Ann,5125550143,TX,7/1/2026\n`), Buffer.from('Jos\xe9,5125550144,TX,7/1/2026\n', 'latin1')]);
    for (const size of [1, 4, 1024]) await expect(check(latin1, size)).rejects.toThrow('Line 3 is not UTF-8 text');
  });

  it('refuses a cut-off character at the very end', async () => {
    const cut = Buffer.concat([Buffer.from(`${header}Ann,5125550143,TX,7/1/2026\nJos`), Buffer.from([0xc3])]);
    await expect(check(cut)).rejects.toThrow('is not UTF-8 text');
  });

  it('refuses binary data, a header with no rows, an empty first line and a header longer than 64 KB', async () => {
    await expect(check(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]))).rejects.toThrow('line 1 has binary data');
    await expect(check(Buffer.from(header))).rejects.toThrow('no rows under it');
    await expect(check(Buffer.from(`\r\n${header}`))).rejects.toThrow('no header row');
    await expect(check(Buffer.from('x'.repeat(70 * 1024) + '\n' + 'a\n'), 4096)).rejects.toThrow('longer than 64 KB');
  });
});
