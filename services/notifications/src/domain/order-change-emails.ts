import { usDateTimeIn, type CommandData } from '@warmline/contracts';
import { oneLine } from './one-line';
import type { EmailToSend } from './paid-order-email-parts';

/** What an agent or buyer is told when an order changes after payment (issue 12). */

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
/** Card refunds take this long to show on a statement (Stripe's guidance). */
const REFUND_ARRIVES = 'It usually reaches your card within 5–10 business days.';

/** The admin's note to the customer (issue 22), quoted as the team's words. */
function teamNoteLines(note: string | undefined): string[] {
  return note ? ['', 'A note from the WarmLine team:', note] : [];
}

export function transferOrderStatusEmail(change: CommandData<'email.transfer_order_status'>): EmailToSend {
  const greeting = `Hi ${change.firstName || 'there'},`;
  const ref = `Order reference: ${change.orderId}`;
  const note = teamNoteLines(change.note);
  if (change.status === 'completed') {
    return {
      to: change.to,
      subject: 'Your WarmLine live transfers are complete',
      template: 'transfer-order-completed',
      text: [greeting, '', `All ${change.totalTransfers} live transfers of your order have been delivered. Thank you for your business.`, ...note, '', ref].join('\n'),
    };
  }
  return {
    to: change.to,
    subject: oneLine('Your WarmLine transfer order was cancelled'),
    template: 'transfer-order-cancelled',
    text: [
      greeting,
      '',
      `Your order of ${change.totalTransfers} live transfers was cancelled on ${usDateTimeIn(new Date(change.changedAt), 'UTC')}.`,
      ...(change.reason ? [`Reason: ${change.reason}`] : []),
      ...(change.refundedCents ? ['', `We have refunded ${dollars(change.refundedCents)} to the card you paid with. ${REFUND_ARRIVES}`] : []),
      ...note,
      '',
      ref,
    ].join('\n'),
  };
}

export function refundIssuedEmail(refund: CommandData<'email.refund_issued'>): EmailToSend {
  const whole = refund.refundedTotalCents >= refund.orderAmountCents;
  // A second-brand order ('RingCloud Call-Backs: …') is refunded in that brand's name.
  const brand = refund.description.startsWith('RingCloud ') ? 'RingCloud' : 'WarmLine';
  return {
    to: refund.to,
    brand,
    subject: oneLine(`${brand} refund of ${dollars(refund.amountCents)}`),
    template: 'refund-issued',
    text: [
      `Hi ${refund.name || 'there'},`,
      '',
      `We have refunded ${dollars(refund.amountCents)} of your order "${refund.description}" to the card you paid with${whole ? ' (the whole order)' : ''}.`,
      `Reason: ${refund.reason}`,
      REFUND_ARRIVES,
      '',
      `Refunded so far: ${dollars(refund.refundedTotalCents)} of ${dollars(refund.orderAmountCents)}.`,
      `Order reference: ${refund.orderId}`,
    ].join('\n'),
  };
}
