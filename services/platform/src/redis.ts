import { createClient } from 'redis';
import type { Logger } from './log';

function newClient(url: string, reconnectStrategy: (retries: number, cause: Error) => number | Error) {
  return createClient({ url, socket: { connectTimeout: 5000, reconnectStrategy } });
}

export type Redis = ReturnType<typeof newClient>;

/**
 * A connected node-redis client. At start, it gives up after a few tries so a missing Redis
 * stops the service with a clear error; once it has been up, it keeps reconnecting through
 * an outage (readiness checks call `pingRedis` to report it) and logs errors instead of
 * crashing the process.
 */
export async function createRedis(url: string, log?: Logger): Promise<Redis> {
  let everReady = false;
  const client = newClient(url, (retries, cause) => {
    if (!everReady && retries >= 3) return new Error(`Redis is not reachable at ${redactUrl(url)}: ${cause.message}`);
    return Math.min(100 * 2 ** retries, 3000);
  });
  let lastError = '';
  client.on('error', (err: Error) => {
    // Only log when the reason changes, so an outage does not flood the log.
    if (err.message !== lastError) log?.warn({ err }, 'redis connection error');
    lastError = err.message;
  });
  client.on('ready', () => {
    everReady = true;
    lastError = '';
  });
  await client.connect();
  return client;
}

/** For /readyz: throws when Redis does not answer. */
export async function pingRedis(client: Redis): Promise<void> {
  if (!client.isReady) throw new Error('not connected');
  await client.ping();
}

/** Closes the client after pending commands; never throws on an already-closed client. */
export async function closeRedis(client: Redis): Promise<void> {
  if (!client.isOpen) return;
  try {
    await client.close();
  } catch {
    client.destroy();
  }
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured URL';
  }
}
