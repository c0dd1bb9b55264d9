import { z } from 'zod';

/** The back office's order side (issue 12): transfer order moves and refunds. */

export const REASON_REQUIRED_TO_CANCEL_PAID = 'A reason is required to cancel a paid order (its payment is refunded)';

/** Longest note an admin may add to a change that e-mails a customer. */
export const ADMIN_NOTE_MAX = 500;

/**
 * An admin's optional note to the customer with a change that e-mails them (issue 22): it is
 * quoted in the e-mail and kept as the audit log's reason. Blank is the same as none.
 */
export const adminNote = z
  .string({ error: 'Note must be text' })
  .trim()
  .max(ADMIN_NOTE_MAX, `Note must be at most ${ADMIN_NOTE_MAX} characters`)
  .transform((note) => note || undefined)
  .optional();

/** PATCH /api/transfer-orders/{id}/status — pending → cancelled; paid → completed; paid → cancelled (refunded). */
export const transferStatusChangeBody = z.object({
  status: z.enum(['completed', 'cancelled'], { error: "Status must be 'completed' or 'cancelled'" }),
  reason: z.string().trim().min(1, 'Reason must not be empty').max(500, 'Reason must be at most 500 characters').optional(),
  note: adminNote,
});
export type TransferStatusChange = z.infer<typeof transferStatusChangeBody>;

/** POST /api/admin/orders/{id}/refund — the whole of what is left when amountCents is absent. */
export const adminRefundBody = z.object({
  amountCents: z
    .number({ error: 'Amount must be a whole number of cents' })
    .int('Amount must be a whole number of cents')
    .positive('Amount must be more than $0.00')
    .max(100_000_000, 'Amount is more than any order')
    .optional(),
  reason: z.string({ error: 'A reason is required' }).trim().min(1, 'A reason is required').max(500, 'Reason must be at most 500 characters'),
});
export type AdminRefund = z.infer<typeof adminRefundBody>;

export interface RefundAnswer {
  orderId: string;
  refundedCents: number;
  refundedTotalCents: number;
}

/** All Orders (issue 12): every order of every product. */
/** 'callbacks': WarmLine's own Call-Backs, bought in the dashboard (issue 22). */
export const ORDER_PRODUCTS = ['package', 'second-brand', 'aged-leads', 'transfer', 'callbacks'] as const;
export type OrderProduct = (typeof ORDER_PRODUCTS)[number];
export const ALL_ORDER_STATUSES = ['pending', 'paid', 'failed', 'refunded', 'partially-refunded', 'cancelled', 'completed'] as const;
export type AllOrderStatus = (typeof ALL_ORDER_STATUSES)[number];

/** A calendar date in a query string (`from`, `to`: inclusive days on the business's calendar). */
export const isoDate = (field: string) =>
  z
    .string()
    .max(10, `${field} must be a date like 2026-11-24`)
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date like 2026-11-24`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), `${field} must be a real date`);

export const allOrdersQuery = z
  .object({
    product: z.enum(ORDER_PRODUCTS, { error: `product must be one of ${ORDER_PRODUCTS.join(', ')}` }).optional(),
    status: z.enum(ALL_ORDER_STATUSES, { error: `status must be one of ${ALL_ORDER_STATUSES.join(', ')}` }).optional(),
    from: isoDate('from').optional(),
    to: isoDate('to').optional(),
    /** A buyer's e-mail or name (or part of one): the orders of one customer, as the customer search opens them. */
    q: z.string({ error: 'q must be text' }).trim().max(254, 'q must be at most 254 characters').optional(),
    page: z.coerce
      .number({ message: 'page must be a whole number from 1' })
      .int('page must be a whole number from 1')
      .min(1, 'page must be a whole number from 1')
      .max(100_000, 'page must be a whole number from 1')
      .default(1),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
export type AllOrdersQuery = z.infer<typeof allOrdersQuery>;

/** The most rows one CSV export of the back office holds (orders, audit log); narrow the filter for more. */
export const ADMIN_EXPORT_MAX_ROWS = 50_000;

export interface AdminOrderRow {
  id: string;
  product: OrderProduct;
  buyerName: string | null;
  buyerEmail: string | null;
  description: string;
  amountCents: number;
  refundedCents: number;
  status: AllOrderStatus;
  createdAt: string;
  paidAt: string | null;
  /** The buyer disputed the payment with their bank (charge.dispute.created). */
  disputed: boolean;
}

export interface AllOrdersAnswer {
  orders: AdminOrderRow[];
  total: number;
  /** Over the whole filter, not the page: revenue = paidCents − refundedCents. */
  totals: { count: number; paidCents: number; refundedCents: number };
}

export const revenueQuery = z.object({
  days: z.enum(['30', '90'], { error: 'days must be 30 or 90' }).default('30'),
});

export interface RevenueDay {
  date: string;
  packageCents: number;
  secondBrandCents: number;
  agedLeadsCents: number;
  transferCents: number;
}

export interface RevenueAnswer {
  from: string;
  to: string;
  days: RevenueDay[];
}
