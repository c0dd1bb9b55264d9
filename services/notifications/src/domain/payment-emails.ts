import { formatUsd, type CommandData } from '@warmline/contracts';
import { escapeHtml } from '@warmline/platform/html';
import { BUFFER_PROTECTION, htmlTable, paidOn, textLines, writeToUs, type EmailLine, type EmailToSend } from './paid-order-email-parts';

/**
 * The e-mails a paid order causes (issue 4): a receipt to the buyer's billing address and a
 * notice to the sales team. Pure: the handler decides when to send, this decides what they say.
 */

export type PaidOrder = CommandData<'email.order_paid'>;

export const RECEIPT_TEMPLATE = 'payment-receipt';
export const SALES_NOTICE_TEMPLATE = 'sales-payment-notice';

function orderLines(order: PaidOrder): EmailLine[] {
  return [
    ['Order', order.orderId],
    // 'Premium Volume Package: 60 transfers × $37.00' — quantity and rate in the buyer's words.
    ['Purchase', order.description],
    ['Total paid', `${formatUsd(order.amountCents)} (${order.currency.toUpperCase()})`],
    ['Paid on', paidOn(order.paidAt)],
  ];
}

/** The buyer's receipt; undefined when the buyer gave no billing e-mail (nowhere to send it). */
export function receiptEmail(order: PaidOrder, contact: { salesTeamEmail: string }): EmailToSend | undefined {
  if (!order.billingEmail) return undefined;
  const total = formatUsd(order.amountCents);
  const lines = orderLines(order);
  const nextSteps =
    'What happens next: your account manager will contact you within 24 hours to confirm your ' +
    'states, hours and transfer number, and to schedule your first transfers.';
  const questions = writeToUs('Questions about your order?', contact.salesTeamEmail);
  return {
    to: order.billingEmail,
    subject: `Your WarmLine receipt: ${total}`,
    template: RECEIPT_TEMPLATE,
    text: [
      "Thank you for your purchase! We'll be in touch soon.",
      '',
      ...textLines(lines),
      '',
      nextSteps,
      '',
      BUFFER_PROTECTION,
      '',
      questions.text,
      '',
      'WarmLine',
    ].join('\n'),
    html: [
      "<p>Thank you for your purchase! We'll be in touch soon.</p>",
      htmlTable(lines),
      `<p>${escapeHtml(nextSteps)}</p>`,
      `<p>${escapeHtml(BUFFER_PROTECTION)}</p>`,
      questions.html,
      '<p>WarmLine</p>',
    ].join('\n'),
  };
}

/** The sales team's notice of a paid order, so someone contacts the buyer within 24 hours. */
export function salesNoticeEmail(order: PaidOrder, salesTeamEmail: string): EmailToSend {
  const total = formatUsd(order.amountCents);
  const lines: EmailLine[] = [
    ...orderLines(order),
    ['Tier', order.tier ?? '—'],
    ['Buyer e-mail', order.billingEmail ?? 'not given'],
    ['Buyer account', order.buyerUserId ?? 'none (bought from a public checkout)'],
    ['Paid with', order.provider === 'sandbox' ? 'sandbox (test card, no real money)' : 'Stripe'],
    ['Payment', order.paymentIntentId],
  ];
  const intro = `A ${order.kind} order was paid: ${order.description}, ${total}. Please contact the buyer within 24 hours.`;
  return {
    to: salesTeamEmail,
    subject: `Paid order: ${order.description} (${total})`,
    template: SALES_NOTICE_TEMPLATE,
    text: [intro, '', ...textLines(lines)].join('\n'),
    html: [`<p>${escapeHtml(intro)}</p>`, htmlTable(lines)].join('\n'),
  };
}
