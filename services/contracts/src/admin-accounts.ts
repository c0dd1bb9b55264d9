import { z } from 'zod';
import { isoDate } from './admin-orders';
import type { PublicUser } from './accounts';

/** The back office's account side (issue 12): user paging, the audit log, the admin cards. */

/** Users and audit entries come 50 to a page. */
export const ADMIN_PAGE_SIZE = 50;

/** A page number in a query string: 1 when absent. */
const pageParam = z.coerce
  .number({ message: 'page must be a whole number from 1' })
  .int('page must be a whole number from 1')
  .min(1, 'page must be a whole number from 1')
  .max(100_000, 'page must be a whole number from 1')
  .default(1);

/** GET /api/users?q=&page= — the total is in X-Total-Count. */
/**
 * A user as User Management lists them: the public user, and whether they have a second factor to
 * reset ('on', 'pending' while an enrolment waits for its first code, 'off': nothing to reset).
 */
export type AdminUserListEntry = PublicUser & { twoFactor: 'on' | 'pending' | 'off' };

export const userListQuery = z.object({
  q: z.string().max(200, 'Search text must be at most 200 characters').optional(),
  page: pageParam,
});

/**
 * GET /api/admin/audit-log?page=&admin=&action=&subject=&from=&to= (filters: issue 22); the same
 * filters for GET /api/admin/audit-log.csv. `admin` is the username (or part), `action` one dotted
 * action, `subject` text in the subject's label or id, `from`/`to` inclusive days in BUSINESS_TIMEZONE.
 */
export const auditLogQuery = z
  .object({
    page: pageParam,
    admin: z.string({ error: 'admin must be text' }).trim().max(200, 'admin must be at most 200 characters').optional(),
    action: z
      .string({ error: 'action must be text' })
      .trim()
      .max(100, 'action must be at most 100 characters')
      .regex(/^([a-z_]+(\.[a-z_]+)+)?$/, "action must be a dotted action such as 'user.price_changed'")
      .optional(),
    subject: z.string({ error: 'subject must be text' }).trim().max(300, 'subject must be at most 300 characters').optional(),
    from: isoDate('from').optional(),
    to: isoDate('to').optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
/** The audit log's filters (the query without its page). */
export type AuditLogFilter = Omit<z.infer<typeof auditLogQuery>, 'page'>;

const auditEntry = z.object({
  id: z.uuid(),
  at: z.iso.datetime(),
  actorId: z.uuid(),
  actorUsername: z.string(),
  action: z.string(),
  subjectType: z.string(),
  subjectId: z.string(),
  subjectLabel: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
  /** The service where it happened. */
  source: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

const auditLogPage = z.object({
  entries: z.array(auditEntry),
  total: z.number().int().nonnegative(),
  /** Every action the log holds, for the filter's choices (issue 22). */
  actions: z.array(z.string()),
});
export type AuditLogPage = z.infer<typeof auditLogPage>;

/**
 * GET /api/admin/stats — the four cards of /admin. The order numbers come from the orders service;
 * when it cannot answer they are null and the card says so (the user numbers still show).
 */
const adminStats = z.object({
  totalUsers: z.number().int().nonnegative(),
  /** Accounts created in the last 7 days, counted in BUSINESS_TIMEZONE from the start of the day 6 days ago. */
  newSignUps: z.number().int().nonnegative(),
  /** This month (BUSINESS_TIMEZONE), all products, net of refunds. */
  revenueThisMonthCents: z.number().int().nullable(),
  /** Paid transfer orders not yet completed or cancelled. */
  openTransferOrders: z.number().int().nonnegative().nullable(),
});
export type AdminStats = z.infer<typeof adminStats>;

/** What the orders service answers on GET /internal/admin-stats. */
export const orderStats = z.object({
  revenueThisMonthCents: z.number().int(),
  openTransferOrders: z.number().int().nonnegative(),
});
export type OrderStats = z.infer<typeof orderStats>;
