import { formatUsd } from '@warmline/contracts/pricing';
import type { AdminOrderRow, AllOrderStatus, OrderProduct } from '@warmline/contracts/admin-orders';

/** Words and figures of All Orders and My Orders (issue 12), shared so both read the same. */

export const PRODUCT_LABELS: Record<OrderProduct, string> = {
  package: 'Package',
  'second-brand': 'Second brand',
  'aged-leads': 'Aged leads',
  transfer: 'Transfer order',
  callbacks: 'Call-backs',
};

export const ORDER_STATUS_LABELS: Record<AllOrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
  'partially-refunded': 'Partly refunded',
  cancelled: 'Cancelled',
  completed: 'Completed',
};

/** 222000 → '$2,220.00'; a negative amount keeps its sign. */
export const usd = formatUsd;

export interface OrderTotals {
  count: number;
  paidCents: number;
  refundedCents: number;
}

/** The four figures above All Orders: what was paid, what went back, and the difference — never a refund counted as revenue. */
export function totalsFigures(totals: OrderTotals): { orders: string; paid: string; refunded: string; net: string } {
  return {
    orders: totals.count.toLocaleString('en-US'),
    paid: usd(totals.paidCents),
    refunded: usd(totals.refundedCents),
    net: usd(totals.paidCents - totals.refundedCents),
  };
}

/**
 * Whether an admin may refund an order from All Orders: paid (or completed, for a transfer
 * order) with something left to give back. The server decides again.
 */
export function canRefund(order: Pick<AdminOrderRow, 'status' | 'paidAt' | 'amountCents' | 'refundedCents'>): boolean {
  const refundable = order.status === 'paid' || order.status === 'partially-refunded' || order.status === 'completed';
  return refundable && order.paidAt !== null && order.refundedCents < order.amountCents;
}

/** A business-calendar day '2026-11-02' → '11/02/2026' (spec §9), read as written: no time zone can move it. */
export function calendarDate(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : day;
}
