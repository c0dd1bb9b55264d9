import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { businessTimezoneSchema } from '@warmline/contracts';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT, SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';
import { baseEnv, privateKeyEnv, servicePublicKeysEnv } from '@warmline/platform';
import { trainingVideosEnv } from './domain/training-videos';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Empty env values count as unset, so `ADMIN_EMAIL=` in a .env file means "use the default". */
const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/** Express's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(text: string): boolean {
  if (TRUST_PROXY_NAMES.has(text)) return true;
  const [address = '', bits, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: how many proxy hops in front of the gateway (e.g. 1 behind one TLS terminator)
 * or which proxy addresses (e.g. 'loopback,10.0.0.0/8') may say who the client is and whether
 * it came over https. Never 'true': anyone could then pick the address the throttles count.
 */
const trustProxyEnv = z
  .preprocess((v) => (v === '' ? undefined : v), z.string().default('loopback'))
  .transform((text, ctx): number | string[] => {
    const trimmed = text.trim();
    if (/^\d+$/.test(trimmed) && Number(trimmed) <= 10) return Number(trimmed);
    const list = trimmed.split(',').map((s) => s.trim()).filter(Boolean);
    if (list.length > 0 && list.every(isProxyAddress)) return list;
    ctx.addIssue({
      code: 'custom',
      message: "must be a number of proxy hops (0-10) or a list of proxy addresses, e.g. '1' or 'loopback,10.0.0.0/8'",
    });
    return z.NEVER;
  });

export const gatewayEnv = {
  ...baseEnv,
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** The internal listener (on INTERNAL_HOST): /readyz, /metrics and /internal/... for services. */
  GATEWAY_INTERNAL_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  TRUST_PROXY: trustProxyEnv,
  /** The gateway's own Ed25519 key: it alone signs the identities services accept (docs/adr/0042). */
  IDENTITY_PRIVATE_KEY: privateKeyEnv,
  /** Public keys of the services that call this one, `name:key,…` (docs/adr/0042). */
  SERVICE_PUBLIC_KEYS: servicePublicKeysEnv,
  /** Aged-lead purchase attempts a buyer may make a minute (issue 11: 10); a fuzzing run raises it. */
  PURCHASE_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  /**
   * Calls a voice-AI vendor may make to the webhook a minute per key (issue 15; 429 beyond).
   * Key-less calls are held to 60 a minute per address.
   */
  VENDOR_WEBHOOK_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** Signs the session cookie. */
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** The address users reach the site at; reset links point here and Origin checks use it. */
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  /** The first admin, created at start only when no admin exists. Never hard-coded. */
  ADMIN_USERNAME: optionalText,
  ADMIN_PASSWORD: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(8, 'must be at least 8 characters').optional(),
  ),
  ADMIN_EMAIL: z.preprocess((v) => (v === '' ? undefined : v), z.email('must be an e-mail address').optional()),
  /** A session unused for this long ends (rolling). */
  SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(120),
  /** A session ends this long after login, however active. */
  SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().default(24),
  /**
   * Redis: the gateway's alone (sessions, throttles, view-as grants), as its ACL user of
   * infra/redis/users.acl in compose; no other service holds a Redis URL (docs/adr/0043).
   */
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /**
   * A Redis command unanswered this long fails with a 503 instead of hanging the request
   * (ARCHITECTURE §5, Faults: at most 1 s).
   */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce
    .number()
    .int('must be a whole number of milliseconds')
    .min(50, 'must be at least 50 (ms)')
    .max(1000, 'must be at most 1000 (ms): a request must not wait longer on Redis')
    .default(1000),
  /** Redis key prefix of sessions, throttles and session indexes (tests isolate with their own). */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_:.-]+$/).default('warmline:gateway:'),
  /** The SPA build served with history fallback, when it exists. */
  WEB_DIST_DIR: z.string().default(path.join(REPO_ROOT, 'web/dist')),
  /** The sales team's inbox: told of every account a survey creates, with the answers. */
  SALES_TEAM_EMAIL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.email('must be an e-mail address').default('sales@warmline.local'),
  ),
  /** The recruiting team's inbox: the dashboard's 'Contact Recruiting Team' requests go there. */
  RECRUITING_TEAM_EMAIL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.email('must be an e-mail address').default('recruiting@warmline.local'),
  ),
  CATALOG_URL: z.url().default('http://127.0.0.1:3101'),
  ORDERS_URL: z.url().default('http://127.0.0.1:3102'),
  PARTNERS_URL: z.url().default('http://127.0.0.1:3103'),
  INGESTION_URL: z.url().default('http://127.0.0.1:3104'),
  TRANSFERS_URL: z.url().default('http://127.0.0.1:3107'),
  /** The business's clock for the admin's days, weeks and months (issue 12). */
  BUSINESS_TIMEZONE: businessTimezoneSchema,
  /** How long the admin cards wait for another service's numbers before showing them as unavailable. */
  ADMIN_STATS_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(1_500),
  /** How long an admin's view-as grant lasts (issue 12: 30 minutes); tests shorten it. */
  VIEW_AS_SECONDS: z.coerce.number().int().min(1).max(4 * 3600).default(30 * 60),
  /** How long the customer search waits for each source; a slower one is left out of the answer. */
  SEARCH_SOURCE_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(300),
  /** Contact details the public pages show (GET /api/site-config); the notifications worker names the same SUPPORT_EMAIL in receipts. */
  SUPPORT_PHONE: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).default('(555) 010-0199')),
  SUPPORT_EMAIL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.email('must be an e-mail address').default(SUPPORT_EMAIL_DEFAULT),
  ),
  /** RingCloud's support address on its pages; the notifications worker names the same one in RingCloud's e-mails. */
  RINGCLOUD_SUPPORT_EMAIL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.email('must be an e-mail address').default(RINGCLOUD_SUPPORT_EMAIL_DEFAULT),
  ),
  /** The landing page's testimonial: the agent's name, their words and who they are. */
  TESTIMONIAL_NAME: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).default('Sarah Mitchell')),
  TESTIMONIAL_TITLE: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().trim().min(1).default('Agency Owner, Mitchell Insurance Group'),
  ),
  TESTIMONIAL_QUOTE: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .trim()
      .min(1)
      .default(
        'WarmLine transformed our agency. The live transfers are qualified prospects who are ready to talk, and our closing rate has never been higher.',
      ),
  ),
  /** The booking widget embedded in the landing page's Schedule a Call section; unset → a plain link. */
  BOOKING_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  ),
  /**
   * Encrypts the TOTP secrets of the second factor at rest (AES-256-GCM): 32 bytes as 64 hex
   * characters or base64. Unset: derived from SESSION_SECRET (then changing SESSION_SECRET
   * makes enrolled users sign in with a recovery code and enrol again).
   */
  TOTP_ENCRYPTION_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .refine((v) => /^[0-9a-f]{64}$/i.test(v) || Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, as 64 hex characters or base64')
      .optional(),
  ),
  /**
   * Admins must enrol a second factor at their first login and give a code at every login.
   * Unset: true with NODE_ENV=production, false otherwise (the local demo offers it).
   */
  TWO_FACTOR_REQUIRED_FOR_ADMINS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true').optional(),
  ),
  /** The dashboard's training videos: `Title | https://embed-address` entries separated by `;`. */
  TRAINING_VIDEOS: trainingVideosEnv,
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayEnv>>;
