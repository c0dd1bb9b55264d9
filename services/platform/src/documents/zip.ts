import { zipSync } from 'fflate';

/**
 * A zip of a few files held in memory (the evidence pack's PDF and JSON), stored, not
 * compressed: the files are small, and a stored JSON stays readable in the archive's raw bytes.
 * Each entry is dated `modified` (fflate's default is the time of zipping).
 */
export function storedZip(files: Record<string, Uint8Array>, modified: Date): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, [bytes, { level: 0, mtime: modified }]])));
}
