import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, from infra/scripts/. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServiceEntry {
  name: string;
  /** The file the process runs, from the repository root; default services/<name>/src/main.ts. */
  entry?: string;
  /**
   * The service whose schema and migrations this process shares (the importer: the catalog's).
   * It has none of its own, so it is not migrated apart from that service.
   */
  schemaOf?: string;
  /** The port its HTTP server (API or health only) listens on in development. */
  port: number;
  /** The env var that sets that port. */
  portEnv: string;
  /** A second, internal listener where the main port is public (the gateway's 3100). */
  internalPort?: number;
  internalPortEnv?: string;
  kind: 'service' | 'worker';
  /** NODE_OPTIONS for the process (the importer's heap bounds). */
  nodeOptions?: string;
}

/** infra/services.json: every process of WarmLine, in start order. */
export function listServices(): ServiceEntry[] {
  const file = path.join(REPO_ROOT, 'infra/services.json');
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { services: ServiceEntry[] };
  return parsed.services;
}

/** The file an entry runs, relative to the repository root (start.sh and infra/Dockerfile agree). */
export function entryFile(entry: ServiceEntry): string {
  return entry.entry ?? `services/${entry.name}/src/main.ts`;
}

/** The environment an entry adds to its process (NODE_OPTIONS when it has some). */
export function entryEnv(entry: ServiceEntry): Record<string, string> {
  return entry.nodeOptions ? { NODE_OPTIONS: entry.nodeOptions } : {};
}

/**
 * `databaseUrl` as the entry's own PostgreSQL role (docs/adr/0043): the app role of its schema
 * (schemaOf's for the importer), warmline_<schema>, with POSTGRES_<SCHEMA>_PASSWORD where set;
 * locally PostgreSQL trusts loopback, so none. start.sh does the same for `make start`.
 */
export function entryDatabaseUrl(entry: ServiceEntry, databaseUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  const schema = entry.schemaOf ?? entry.name;
  const url = new URL(databaseUrl);
  url.username = `warmline_${schema}`;
  url.password = env[`POSTGRES_${schema.toUpperCase()}_PASSWORD`] ?? '';
  return url.toString();
}
