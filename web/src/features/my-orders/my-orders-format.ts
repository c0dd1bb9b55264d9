import type { OrderProduct } from '@warmline/contracts/admin-orders';
import type { MyOrder, MyOrderReceipt } from '@warmline/contracts/my-orders';
import { formatUsd } from '@warmline/contracts/pricing';
import { statesLabel } from '../transfers/order-format';

/** The words of My Orders (issue 12), kept apart from the view so they can be tested alone. */

/** The products as the agent bought them. */
export const MY_PRODUCT_LABELS: Record<OrderProduct, string> = {
  package: 'Volume package',
  'second-brand': 'RingCloud package',
  'aged-leads': 'Aged leads',
  transfer: 'Live transfers',
  callbacks: 'WarmLine call-backs',
};

/**
 * How a transfer order is delivered, in a line the description does not already say:
 * '5/day · 9am-5pm CST · to (405) 555-0199'.
 */
export function transferDelivery(transfer: NonNullable<MyOrder['transfer']>): string {
  return [`${transfer.transfersPerDay.toLocaleString('en-US')}/day`, transfer.transferHours, transfer.transferNumber ? `to ${transfer.transferNumber}` : '']
    .filter(Boolean)
    .join(' · ');
}

/** The receipt's line of a transfer order: '20 transfers · TX, OK +2 more · 5/day · 9am-5pm CST · to (405) 555-0199'. */
export function transferSummary(transfer: NonNullable<MyOrder['transfer']>): string {
  return [
    `${transfer.totalTransfers.toLocaleString('en-US')} ${transfer.totalTransfers === 1 ? 'transfer' : 'transfers'}`,
    statesLabel(transfer.selectedStates),
    transferDelivery(transfer),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The receipt's bottom lines: what was charged, what came back, and what the agent paid in the end. */
export function receiptTotals(receipt: MyOrderReceipt): Array<{ label: string; value: string }> {
  const lines = [{ label: 'Charged', value: formatUsd(receipt.amountCents) }];
  if (receipt.refundedCents > 0) {
    lines.push({ label: 'Refunded', value: `−${formatUsd(receipt.refundedCents)}` });
    lines.push({ label: 'Paid in the end', value: formatUsd(receipt.amountCents - receipt.refundedCents) });
  }
  return lines;
}

/** Only the card's last four digits are kept, so that is all the receipt can name. */
export function cardLine(cardLast4: string | null): string {
  return cardLast4 ? `Card ending ${cardLast4}` : 'Card';
}

/** Why an order has no receipt yet, in the agent's words. */
export function noReceiptReason(order: Pick<MyOrder, 'status'>): string {
  switch (order.status) {
    case 'pending':
      return 'Not paid yet';
    case 'failed':
      return 'Payment failed';
    case 'cancelled':
      return 'Cancelled before payment';
    default:
      return 'No receipt';
  }
}
