import { ClientOfflineError, createClient, TimeoutError } from 'redis';
import type { Logger } from './log';

/** A command that Redis has not answered in this long fails (a 503 upstream), never a hang. */
const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 1000;

function newClient(url: string, commandTimeoutMs: number, reconnectStrategy: (retries: number, cause: Error) => number) {
  return createClient({
    url,
    socket: { connectTimeout: 5000, reconnectStrategy },
    // While Redis is away a command fails at once instead of queueing until it returns, and a
    // command to a Redis that went silent fails after the timeout.
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
  });
}

export type Redis = ReturnType<typeof newClient>;

export interface RedisOptions {
  /** REDIS_COMMAND_TIMEOUT_MS; DEFAULT_REDIS_COMMAND_TIMEOUT_MS when not given. */
  commandTimeoutMs?: number;
}

// Reconnect delays: fast at first so a blip costs little, capped so a long outage neither
// hammers Redis nor leaves it unnoticed for long once it is back.
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2000;

/**
 * A connected node-redis client that rides out outages. At start it waits for Redis as long
 * as it takes (one log line per attempt saying what it waits for) instead of giving up, so a
 * service started while Redis is away comes up once it is back; afterwards it keeps
 * reconnecting by itself, and readiness checks call `pingRedis` to report the outage. While
 * Redis is away every command, MULTI included (see `execMulti`), fails at once with an error
 * `unavailableDependency` names 'redis', which the HTTP kit answers with a 503.
 */
export async function createRedis(url: string, log?: Logger, options: RedisOptions = {}): Promise<Redis> {
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const where = redactUrl(url);
  let everReady = false;
  const client = newClient(url, commandTimeoutMs, (retries, cause) => {
    const delay = Math.min(FIRST_DELAY_MS * 2 ** retries, MAX_DELAY_MS);
    if (!everReady) log?.warn({ redis: where, attempt: retries + 1, retryInMs: delay, reason: cause.message || cause.name }, 'waiting for Redis');
    return delay;
  });
  timeouts.set(client, commandTimeoutMs);
  let lastError = '';
  client.on('error', (err: Error) => {
    // Before the first connection the strategy above logs each attempt. Later, only log when
    // the reason changes, so an outage does not flood the log.
    if (everReady && err.message !== lastError) log?.warn({ err, redis: where }, 'redis connection error; reconnecting');
    lastError = err.message;
  });
  client.on('ready', () => {
    if (everReady && lastError) log?.info({ redis: where }, 'redis connection is back');
    everReady = true;
    lastError = '';
  });
  await client.connect();
  return client;
}

const timeouts = new WeakMap<object, number>();

/**
 * Runs a MULTI (or pipeline) with the same rules as single commands: node-redis queues a
 * MULTI while reconnecting and puts no command timeout on it, so without this a transaction
 * sent during an outage would wait for Redis to return.
 */
export async function execMulti<T>(client: Redis, multi: { exec(): Promise<T> }): Promise<T> {
  if (!client.isReady) throw new ClientOfflineError();
  const ms = timeouts.get(client) ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const exec = multi.exec();
  try {
    return await Promise.race([
      exec,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    // Once timed out, its late failure has nobody waiting for it.
    exec.catch(() => undefined);
  }
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
