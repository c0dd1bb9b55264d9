#!/usr/bin/env node
/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every compressible
 * file of web/dist over 1 KB, so the gateway sends them as they are (chosen by Accept-Encoding)
 * instead of compressing on every request. A copy no smaller than the file is not written.
 * `node scripts/compress.mjs [dir]`: web/dist unless another directory is given (tests).
 */
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map', '.xml', '.webmanifest']);
const MIN_BYTES = 1024;

const dist = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

let count = 0;
for (const file of files(dist)) {
  if (!COMPRESSIBLE.has(path.extname(file))) continue;
  for (const stale of [`${file}.br`, `${file}.gz`]) {
    try {
      unlinkSync(stale);
    } catch {
      // None yet.
    }
  }
  if (statSync(file).size < MIN_BYTES) continue;
  const content = readFileSync(file);
  const br = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  const gz = gzipSync(content, { level: 9 });
  if (br.length < content.length) writeFileSync(`${file}.br`, br);
  if (gz.length < content.length) writeFileSync(`${file}.gz`, gz);
  count += 1;
}
console.log(`Precompressed ${count} files of ${path.relative(process.cwd(), dist) || 'dist'} (brotli 11, gzip 9).`);
