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
};

/** What a transfer order delivers, in a line: '20 transfers · 5/day · 9am-5pm CST · TX, OK +2 more'. */
export function transferSummary(transfer: NonNullable<MyOrder['transfer']>): string {
  return [
    `${transfer.totalTransfers.toLocaleString('en-US')} ${transfer.totalTransfers === 1 ? 'transfer' : 'transfers'}`,
    `${transfer.transfersPerDay.toLocaleString('en-US')}/day`,
    transfer.transferHours,
    statesLabel(transfer.selectedStates),
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
