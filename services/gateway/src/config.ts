import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { baseEnv } from '@warmline/platform';
import { trainingVideosEnv } from './domain/training-videos';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Empty env values count as unset, so `ADMIN_EMAIL=` in a .env file means "use the default". */
const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

export const gatewayEnv = {
  ...baseEnv,
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
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
  /** Contact details the public pages show (GET /api/site-config). */
  SUPPORT_PHONE: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).default('(555) 010-0199')),
  SUPPORT_EMAIL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.email('must be an e-mail address').default('support@warmline.local'),
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
  /** The dashboard's training videos: `Title | https://embed-address` entries separated by `;`. */
  TRAINING_VIDEOS: trainingVideosEnv,
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayEnv>>;
