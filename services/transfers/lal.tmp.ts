import { createPool } from '@warmline/platform/db/index';
import { lookAndLock } from './src/db/routing';
const pool = createPool('postgres://postgres@127.0.0.1:5432/warmline', 'transfers', 1);
try {
  const db = await pool.connect();
  await db.query('BEGIN');
  console.log(await lookAndLock(db, { now: new Date(), state: 'TX', phone: '5125550100', repeatSince: new Date() }, 20, []));
  await db.query('ROLLBACK'); db.release();
} catch (e) { console.log('ERR', (e as Error).message); }
await pool.end();
