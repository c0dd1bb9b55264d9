import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, from infra/scripts/. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServiceEntry {
  name: string;
  /** The port its HTTP server (API or health only) listens on in development. */
  port: number;
  /** The env var that sets that port. */
  portEnv: string;
  kind: 'service' | 'worker';
}

/** infra/services.json: every process of WarmLine, in start order. */
export function listServices(): ServiceEntry[] {
  const file = path.join(REPO_ROOT, 'infra/services.json');
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { services: ServiceEntry[] };
  return parsed.services;
}
