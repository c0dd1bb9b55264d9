import pg from 'pg';
import { say } from './report.js';

/** Creates the database `url` names when it does not exist (benches that fill once and reuse). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      say(`creating database ${name}`);
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    }
  } finally {
    await client.end();
  }
}

let roundTrips = 0;
let counting = false;

/**
 * Round trips this process makes to PostgreSQL (every `query` of every pg client, a simple query
 * of several statements counting once), from the first call on: a figure the machine's load does
 * not move, unlike time and CPU. Call it before any pool connects.
 */
export function countRoundTrips(): { sofar(): number } {
  if (!counting) {
    counting = true;
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    (pg.Client.prototype as unknown as { query: typeof query }).query = function (this: pg.Client, ...args: unknown[]) {
      roundTrips++;
      return query.apply(this, args);
    };
  }
  return { sofar: () => roundTrips };
}
