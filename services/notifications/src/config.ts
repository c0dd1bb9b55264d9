import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { baseEnv } from '@warmline/platform/config';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT, SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';

/** `<repo>/var/mail`: where messages land as .eml files when no SMTP server is configured. */
const DEFAULT_MAIL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../var/mail');

/** An unset or empty variable means "not configured" (docker-compose passes '' for `${X:-}`). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const notificationsEnv = {
  ...baseEnv,
  /** Health, readiness and metrics only; the worker serves no API. */
  NOTIFICATIONS_PORT: z.coerce.number().int().min(0).max(65535).default(3105),
  /** e.g. smtp://mailpit:1025 or smtps://user:pass@host:465; unset → .eml files in MAIL_DIR. */
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })),
  /** The sender of WarmLine's e-mails (and the teams' notices). */
  MAIL_FROM: z.string().min(1).default('WarmLine <no-reply@warmline.local>'),
  /**
   * The sender of RingCloud's e-mails (its buyers' receipts and welcomes): unset, RingCloud's
   * support address (RINGCLOUD_SUPPORT_EMAIL), so a RingCloud buyer never gets mail from WarmLine.
   */
  RINGCLOUD_MAIL_FROM: optional(z.string().trim().min(1)),
  MAIL_DIR: z.string().min(1).default(DEFAULT_MAIL_DIR),
  /** email_log rows (who was sent which subject) are deleted after this many days (issue 25). */
  EMAIL_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** The sales team's inbox: told of every paid package order (and other sales news). */
  SALES_TEAM_EMAIL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.email('must be an e-mail address').default('sales@warmline.local'),
  ),
  /** The operations team's inbox: told of every paid call-transfer order, to set the transfers up. */
  OPERATIONS_EMAIL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.email('must be an e-mail address').default('operations@warmline.local'),
  ),
  /** The address users reach the site at (the gateway's PUBLIC_URL): links in e-mails point here. */
  PUBLIC_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().default('http://localhost:3000')),
  /**
   * WarmLine's support address, named in the buyers' receipts: the same variable (and default)
   * the gateway shows on the success pages, so the page and the e-mail give one address.
   */
  SUPPORT_EMAIL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.email('must be an e-mail address').default(SUPPORT_EMAIL_DEFAULT),
  ),
  /** Where RingCloud (second-brand) buyers write with questions: named in their receipts and welcome e-mails. */
  RINGCLOUD_SUPPORT_EMAIL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.email('must be an e-mail address').default(RINGCLOUD_SUPPORT_EMAIL_DEFAULT),
  ),
  /** The partnerships inbox: told of every partner application with all its answers; applicants write here. */
  PARTNERS_TEAM_EMAIL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.email('must be an e-mail address').default('partners@warmline.local'),
  ),
};

export type NotificationsConfig = z.infer<z.ZodObject<typeof notificationsEnv>>;

/** RINGCLOUD_MAIL_FROM, or 'RingCloud <RINGCLOUD_SUPPORT_EMAIL>' when it is unset. */
export function ringcloudMailFrom(config: Pick<NotificationsConfig, 'RINGCLOUD_MAIL_FROM' | 'RINGCLOUD_SUPPORT_EMAIL'>): string {
  return config.RINGCLOUD_MAIL_FROM ?? `RingCloud <${config.RINGCLOUD_SUPPORT_EMAIL}>`;
}
