import type { AllOrderStatus, OrderProduct } from './admin-orders';
import type { UsStateCode } from './catalog';

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
  /** Transfer orders only. */
  transfer: MyTransferDelivery | null;
  /** Null until the order is paid. */
  receipt: MyOrderReceipt | null;
}

export interface MyOrdersAnswer {
  /** Newest first. */
  orders: MyOrder[];
}
