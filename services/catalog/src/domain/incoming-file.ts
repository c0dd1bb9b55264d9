import type { Transform } from 'node:stream';

/**
 * A file on its way in (a lead import, a DNC registry file): where it is stored and what checks
 * it while it streams. The domain names both; http/receive-file.ts streams the request into it.
 */
export interface IncomingFile<Check extends Transform> {
  id: string;
  key: string;
  check: Check;
}

/** What the store kept of it. */
export interface StoredFile {
  fileName: string | null;
  bytes: number;
  sha256: string;
}
