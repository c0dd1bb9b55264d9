import { z } from 'zod';
import type { AllOrderStatus, OrderProduct } from './admin-orders';
import type { UsStateCode } from './us-states';

/**
 * My Orders (issue 12): the agent's side of the same books as All Orders — every order of the
 * logged-in agent (transfer orders, lead purchases, packages, second-brand orders), each with
 * its receipt once paid. `GET /api/my-orders`, customers (any logged-in user: their own only).
 */

/** One thing bought: '60 × Premium Volume Package at $37.00'. */
export interface MyOrderReceiptLine {
  item: string;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
}

export interface MyOrderReceipt {
  /** What was bought. */
  lines: MyOrderReceiptLine[];
  paidAt: string;
  amountCents: number;
  /** Given back so far (0 when nothing was refunded). */
  refundedCents: number;
  /** The last four digits of the card that paid, when the payment provider said; no other card data is kept. */
  cardLast4: string | null;
}

/** How a transfer order is delivered, as the agent asked for it. */
export interface MyTransferDelivery {
  totalTransfers: number;
  transfersPerDay: number;
  transferHours: string;
  selectedStates: UsStateCode[];
  transferNumber: string;
}

export interface MyOrder {
  id: string;
  product: OrderProduct;
  description: string;
  amountCents: number;
  refundedCents: number;
  /** The same words as All Orders: a transfer order's own status, refunded, else the payment's. */
  status: AllOrderStatus;
  createdAt: string;
  paidAt: string | null;
  /** The buyer disputed the payment with their bank (the money is held until the dispute ends). */
  disputed: boolean;
  /** Transfer orders only. */
  transfer: MyTransferDelivery | null;
  /** Null until the order is paid. */
  receipt: MyOrderReceipt | null;
}

/** My Orders pages 25 orders at a time; an agency that orders weekly has years of them. */
export const MY_ORDERS_PAGE_SIZE = 25;

export const myOrdersQuery = z.object({
  page: z.coerce
    .number({ message: 'page must be a whole number from 1' })
    .int('page must be a whole number from 1')
    .min(1, 'page must be a whole number from 1')
    .max(100_000, 'page must be a whole number from 1')
    .default(1),
});

export interface MyOrdersAnswer {
  /** Newest first: this page's orders. */
  orders: MyOrder[];
  /** All the agent's orders (also in X-Total-Count). */
  total: number;
  page: number;
  pageSize: number;
}
