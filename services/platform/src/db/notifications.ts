import pg from 'pg';
import type { Logger } from '../log';

const RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/**
 * LISTENs on one PostgreSQL channel on a dedicated connection (LISTEN belongs to a session;
 * pooled clients come and go), and keeps listening through PostgreSQL going away: it reconnects
 * with a capped backoff, logging once per outage. `onListening` runs each time it (re)connects:
 * notifications sent while it was away are lost, so the caller drops what they would have
 * corrected. Returns the function that stops it.
 */
export function listenForNotifications(options: {
  databaseUrl: string;
  channel: string;
  log: Logger;
  onNotification: (payload: string) => void;
  onListening?: () => void;
}): () => Promise<void> {
  const { databaseUrl, channel, log } = options;
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;

  async function listen(): Promise<void> {
    timer = undefined;
    if (stopped) return;
    const current = new pg.Client({ connectionString: databaseUrl, application_name: `listener ${channel}`, connectionTimeoutMillis: 5_000, keepAlive: true });
    const retry = (err?: unknown) => {
      if (client !== current) return;
      client = undefined;
      current.end().catch(() => undefined);
      if (stopped) return;
      if (failures === 0) log.warn({ err, channel }, 'notification listener lost its database connection; reconnecting');
      timer = setTimeout(() => void listen(), Math.min(RETRY_MS * 2 ** failures, MAX_RETRY_MS));
      failures += 1;
    };
    client = current;
    current.on('error', retry);
    current.on('end', () => retry());
    current.on('notification', (n) => {
      if (n.channel === channel) options.onNotification(n.payload ?? '');
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${channel}`);
      if (failures > 0) log.info({ channel }, 'notification listener connected again');
      failures = 0;
      options.onListening?.();
    } catch (err) {
      retry(err);
    }
  }

  void listen();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const current = client;
    client = undefined;
    await current?.end().catch(() => undefined);
  };
}
