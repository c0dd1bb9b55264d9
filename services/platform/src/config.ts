import { z } from 'zod';
import { parses, privateKeyOf, publicKeyOf, servicePublicKeysOf } from './keys';

/** An Ed25519 private key in base64 PKCS#8 DER (`make env` writes them; docs/adr/0042). */
export const privateKeyEnv = z.string().refine(parses(privateKeyOf), 'must be an Ed25519 private key, base64 PKCS#8 DER (make env writes one)');

/** The public keys of the services allowed to call this one: `name:key` pairs separated by commas (docs/adr/0042). */
export const servicePublicKeysEnv = z
  .string()
  .refine(parses(servicePublicKeysOf), 'must be service:key pairs separated by commas, each key an Ed25519 public key in base64 SPKI DER');

/** Env entries shared by every service; each service extends this in its own config.ts. */
export const baseEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.url().default('postgres://postgres@127.0.0.1:5432/warmline'),
  /** This process's PostgreSQL pool; each service's own default when unset (README, connection budget). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(100).optional(),
  /**
   * Where given, the service migrates its schema at start, connected with this URL (the
   * superuser's: it creates the schema's roles first); unset in production, where the migration
   * step does it and the service waits for it (docs/adr/0043).
   */
  MIGRATION_DATABASE_URL: z.url().optional(),
  AMQP_URL: z.url().default('amqp://guest:guest@127.0.0.1:5672'),
  /** The gateway's public key: the identity it forwards is signed with its private key, which no other service holds (docs/adr/0042). */
  IDENTITY_PUBLIC_KEY: z.string().refine(parses(publicKeyOf), 'must be an Ed25519 public key, base64 SPKI DER (make env writes one)'),
  /** Sent outbox rows are deleted this many hours after the broker confirmed them. */
  OUTBOX_SENT_RETENTION_HOURS: z.coerce.number().positive().default(24),
  /** processed_events rows are kept this many days (at least the delivery limit × the longest retry backoff). */
  PROCESSED_EVENTS_RETENTION_DAYS: z.coerce.number().positive().default(7),
  /**
   * The address internal listeners bind to: internal services, and the gateway's internal port
   * (/readyz, /metrics, /internal/...). Loopback by default; 0.0.0.0 only on a private network
   * (docker-compose), never where the internet reaches.
   */
  INTERNAL_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, 'must be an address or host name, e.g. 127.0.0.1')
    .default('127.0.0.1'),
  /** Prefix for every exchange and queue name; tests set a unique one, production none. */
  BUS_NAMESPACE: z.string().regex(/^[a-z0-9_]+$/).optional(),
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses `env` with the shape; on failure throws a ConfigError whose message is one line
 * naming every bad variable, e.g. `Invalid configuration: IDENTITY_PUBLIC_KEY: is required but not set`.
 */
export function parseConfig<S extends z.ZodRawShape>(
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => {
    const name = i.path.join('.');
    const missing = env[name] === undefined || env[name] === '';
    return `${name}: ${missing ? 'is required but not set' : i.message}`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

/**
 * loadConfig for a process entry point: on a bad environment it prints the one-line reason
 * and exits with status 78 (EX_CONFIG) instead of starting half-configured.
 */
export function loadConfig<S extends z.ZodRawShape>(
  service: string,
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  try {
    return parseConfig(shape, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${service}: ${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
}
