import { z } from 'zod';

/** The back office's order side (issue 12): transfer order moves and refunds. */

export const REASON_REQUIRED_TO_CANCEL_PAID = 'A reason is required to cancel a paid order (its payment is refunded)';

/** PATCH /api/transfer-orders/{id}/status — pending → cancelled; paid → completed; paid → cancelled (refunded). */
export const transferStatusChangeBody = z.object({
  status: z.enum(['completed', 'cancelled'], { error: "Status must be 'completed' or 'cancelled'" }),
  reason: z.string().trim().min(1, 'Reason must not be empty').max(500, 'Reason must be at most 500 characters').optional(),
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
