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
