import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { baseEnv, ConfigError } from '@warmline/platform/config';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT, SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';

/** `<repo>/var/mail`: where messages land as .eml files when no SMTP server is configured. */
const DEFAULT_MAIL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../var/mail');

/** An unset or empty variable means "not configured" (docker-compose passes '' for `${X:-}`). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const allowOnPurpose = optional(z.enum(['true', 'false'], { error: "must be 'true' or 'false'" })).transform((v) => v === 'true');

/** Hosts that catch mail rather than deliver it: docker-compose's Mailpit, or a server on the process's own loopback. */
const TEST_SMTP_HOSTS = /^(mailpit|mailhog|localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

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
  /**
   * 'true' lets production write .eml files instead of sending (SMTP_URL unset): set on purpose
   * only, since nobody would receive a password-reset link.
   */
  ALLOW_FILE_MAILER: allowOnPurpose,
  /** 'true' lets production send through a mail catcher (Mailpit) or a loopback SMTP server, on purpose. */
  ALLOW_TEST_SMTP: allowOnPurpose,
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

/**
 * How e-mail leaves: 'smtp' or 'file'. In production it must reach people: the file mailer
 * (no SMTP_URL) needs ALLOW_FILE_MAILER=true and a mail catcher or loopback SMTP host needs
 * ALLOW_TEST_SMTP=true, each set on purpose; otherwise a one-line ConfigError stops the worker
 * (exit 78), as a bad variable does.
 */
export function resolveMailTransport(
  config: Pick<NotificationsConfig, 'NODE_ENV' | 'SMTP_URL' | 'ALLOW_FILE_MAILER' | 'ALLOW_TEST_SMTP'>,
): 'smtp' | 'file' {
  const production = config.NODE_ENV === 'production';
  if (!config.SMTP_URL) {
    if (production && !config.ALLOW_FILE_MAILER) {
      throw new ConfigError(
        'Invalid configuration: SMTP_URL: is required in production (smtp(s)://user:password@your-mail-server:port); ALLOW_FILE_MAILER=true writes .eml files instead, on purpose',
      );
    }
    return 'file';
  }
  const host = new URL(config.SMTP_URL).hostname;
  if (production && TEST_SMTP_HOSTS.test(host) && !config.ALLOW_TEST_SMTP) {
    throw new ConfigError(
      `Invalid configuration: SMTP_URL: ${host} catches mail instead of delivering it; production needs a real mail server, or ALLOW_TEST_SMTP=true on purpose`,
    );
  }
  return 'smtp';
}

/** RINGCLOUD_MAIL_FROM, or 'RingCloud <RINGCLOUD_SUPPORT_EMAIL>' when it is unset. */
export function ringcloudMailFrom(config: Pick<NotificationsConfig, 'RINGCLOUD_MAIL_FROM' | 'RINGCLOUD_SUPPORT_EMAIL'>): string {
  return config.RINGCLOUD_MAIL_FROM ?? `RingCloud <${config.RINGCLOUD_SUPPORT_EMAIL}>`;
}
