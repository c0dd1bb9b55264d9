import { z } from 'zod';

/**
 * Lead returns (issue 24 item 5, docs/adr/0034): a buyer gives back an aged lead bought in the
 * last 10 days, with a reason. The reasons the records can prove (duplicate, DNC registry, opted
 * out) are accepted at once when they do; every other return waits in the admin's Returns queue.
 * An accepted return refunds the lead's price to the card and the lead is never sold again.
 */

/** How long after a purchase its leads may be returned: until `sold_at + 10 × 24 h`, inclusive. */
const LEAD_RETURN_WINDOW_DAYS = 10;
export const LEAD_RETURN_WINDOW_MS = LEAD_RETURN_WINDOW_DAYS * 24 * 60 * 60 * 1000;

/** An agent's return rate above this (returns ÷ leads bought in the last 30 days) is flagged to the admin, not enforced. */
export const LEAD_RETURN_RATE_THRESHOLD = 0.2;
export const LEAD_RETURN_RATE_DAYS = 30;

export const LEAD_RETURN_REASONS = ['disconnected', 'wrong_number', 'duplicate', 'dnc_registry', 'opted_out', 'not_the_person', 'bad_data'] as const;
export type LeadReturnReason = (typeof LEAD_RETURN_REASONS)[number];

/** The reasons in the buyer's words (the dialog's select, the admin's queue). */
export const LEAD_RETURN_REASON_LABELS: Record<LeadReturnReason, string> = {
  disconnected: 'Disconnected number',
  wrong_number: 'Wrong number',
  duplicate: 'Duplicate of a lead I already bought',
  dnc_registry: 'On the DNC registry',
  opted_out: 'Opted out',
  not_the_person: 'Not the person named',
  bad_data: 'Bad data',
};

/** The reasons WarmLine's own records can prove; when they do, the return is accepted at once. */
export const AUTOMATIC_LEAD_RETURN_REASONS: readonly LeadReturnReason[] = ['duplicate', 'dnc_registry', 'opted_out'];

export const LEAD_RETURN_STATUSES = ['pending', 'accepted', 'refused'] as const;
export type LeadReturnStatus = (typeof LEAD_RETURN_STATUSES)[number];

export const LEAD_RETURN_STATUS_LABELS: Record<LeadReturnStatus, string> = {
  pending: 'Return requested',
  accepted: 'Returned',
  refused: 'Return refused',
};

export const LEAD_RETURN_MESSAGES = {
  notFound: 'Lead not found',
  returnNotFound: 'Return not found',
  tooLate: `Leads can be returned within ${LEAD_RETURN_WINDOW_DAYS} days of purchase`,
  alreadyPending: 'This lead has a return waiting for a decision already',
  alreadyReturned: 'This lead has been returned already',
  alreadyRefused: 'This lead was returned once and the return was refused; a lead can be returned only once',
  decided: 'This return has been decided already',
  refuseReason: 'Say why the return is refused',
  accepted: 'Returned — the lead’s price is refunded to your card',
  pending: 'Return requested — an admin will review it',
  /** What the admin sees when the records did not back a reason the machine checks. */
  notBacked: 'WarmLine’s records do not show this; review it by hand',
} as const;

/* ---------------------------------------------------------------- buyer ---------- */

/** `POST /api/my-leads/{id}/return`. */
export const leadReturnBody = z
  .object({
    reason: z.enum(LEAD_RETURN_REASONS, { error: `reason must be one of ${LEAD_RETURN_REASONS.join(', ')}` }),
    note: z.string().trim().max(1000, 'note must be at most 1000 characters').optional(),
  })
  .strict();

/** A lead's return as its buyer sees it (in My Leads and as the answer of the return). */
export interface MyLeadReturn {
  id: string;
  leadId: string;
  reason: LeadReturnReason;
  reasonLabel: string;
  note: string | null;
  status: LeadReturnStatus;
  /** True when the records decided it at once. */
  automatic: boolean;
  requestedAt: string;
  decidedAt: string | null;
  /** Why it was refused; null otherwise. */
  decisionReason: string | null;
  /** The lead's price, what an accepted return refunds. */
  priceCents: number;
  /** When the payment provider gave the money back (null until then). */
  refundedAt: string | null;
  refundedCents: number | null;
  /** The sentence to show the buyer. */
  message: string;
}

/** The idempotency key of a returned lead's refund at orders: one refund per lead, whatever asks twice. */
export function leadReturnRefundKey(leadId: string): string {
  return `lead-return:${leadId}`;
}

/* ---------------------------------------------------------------- admin ---------- */

/** `GET /api/admin/lead-returns?status=&page=`. */
export const leadReturnListQuery = z.object({
  status: z.enum(LEAD_RETURN_STATUSES, { error: `status must be one of ${LEAD_RETURN_STATUSES.join(', ')}` }).optional().default('pending'),
  page: z
    .union([z.number(), z.string().trim().max(7, 'page must be at most 1000000').regex(/^\d+$/, 'page must be a whole number of 1 or more')], {
      error: 'page must be a whole number of 1 or more',
    })
    .transform((v) => Number(v))
    .refine((n) => Number.isSafeInteger(n) && n >= 1 && n <= 1_000_000, 'page must be a whole number from 1 to 1000000')
    .optional()
    .default(1),
});

/** `POST /api/admin/lead-returns/{id}`. */
export const leadReturnDecisionBody = z
  .object({
    decision: z.enum(['accept', 'refuse'], { error: "decision must be 'accept' or 'refuse'" }),
    reason: z.string().trim().max(500, 'reason must be at most 500 characters').optional(),
  })
  .strict()
  .refine((d) => d.decision === 'accept' || (d.reason !== undefined && d.reason.length > 0), { message: LEAD_RETURN_MESSAGES.refuseReason, path: ['reason'] });

export const LEAD_RETURN_PAGE_SIZE = 50;

/** One return in the admin's queue, with its lead, buyer and the buyer's return rate. */
export interface AdminLeadReturn extends MyLeadReturn {
  lead: { id: string; name: string; phone: string; state: string };
  orderId: string;
  purchasedAt: string;
  buyer: { userId: string; username: string; returnRate: LeadReturnRate };
  /** For a reason the records can prove: whether they did (false sent it here); null for the others. */
  recordsBackIt: boolean | null;
  decidedBy: { userId: string; username: string } | null;
}

/** An agent's returns of the leads they bought in the last LEAD_RETURN_RATE_DAYS days. */
export interface LeadReturnRate {
  returned: number;
  bought: number;
  /** returned ÷ bought (0 when none bought). */
  rate: number;
  /** Above LEAD_RETURN_RATE_THRESHOLD. */
  flagged: boolean;
}

export interface AdminLeadReturnsPage {
  returns: AdminLeadReturn[];
  total: number;
  page: number;
  pageSize: number;
}

/** The return rate of `returned` returns out of `bought` leads. */
export function leadReturnRate(returned: number, bought: number): LeadReturnRate {
  const rate = bought > 0 ? returned / bought : 0;
  return { returned, bought, rate, flagged: rate > LEAD_RETURN_RATE_THRESHOLD };
}

/** '$2.50'. */
export function returnDollars(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}
