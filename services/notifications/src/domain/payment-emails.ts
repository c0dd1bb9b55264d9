import { BUFFER_SECONDS, formatUsd, type CommandData, type EventData } from '@warmline/contracts';
import { escapeHtml } from './escape-html';

/**
 * The e-mails a paid order causes (issue 4): a receipt to the buyer's billing address and a
 * notice to the sales team. Pure: the handler decides when to send, this decides what they say.
 */

export type PaidOrder = EventData<'payment.succeeded'>;
export type EmailToSend = CommandData<'email.send'>;

export const RECEIPT_TEMPLATE = 'payment-receipt';
export const SALES_NOTICE_TEMPLATE = 'sales-payment-notice';

/** 'November 21, 2026' — the day the payment went through, in UTC like the rest of the system. */
function paidOn(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

function orderLines(order: PaidOrder): Array<[label: string, value: string]> {
  return [
    ['Order', order.orderId],
    // 'Premium Volume Package: 60 transfers × $37.00' — quantity and rate in the buyer's words.
    ['Purchase', order.description],
    ['Total paid', `${formatUsd(order.amountCents)} (${order.currency.toUpperCase()})`],
    ['Paid on', paidOn(order.paidAt)],
  ];
}

function htmlTable(rows: Array<[string, string]>): string {
  const cells = rows
    .map(([label, value]) => `<tr><th align="left" style="padding:4px 12px 4px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  return `<table cellpadding="0" cellspacing="0">${cells}</table>`;
}

/** The buyer's receipt; undefined when the buyer gave no billing e-mail (nowhere to send it). */
export function receiptEmail(order: PaidOrder, contact: { salesTeamEmail: string }): EmailToSend | undefined {
  if (!order.billingEmail) return undefined;
  const total = formatUsd(order.amountCents);
  const lines = orderLines(order);
  const nextSteps =
    'What happens next: your account manager will contact you within 24 hours to confirm your ' +
    'states, hours and transfer number, and to schedule your first transfers.';
  const buffer =
    `Every transfer is covered by our 120-Second Buffer Protection: if a prospect stays on the call ` +
    `for ${BUFFER_SECONDS} seconds or less, that transfer is not charged.`;
  const questions = `Questions about your order? Write to ${contact.salesTeamEmail} and quote your order number.`;
  return {
    to: order.billingEmail,
    subject: `Your WarmLine receipt: ${total}`,
    template: RECEIPT_TEMPLATE,
    text: [
      "Thank you for your purchase! We'll be in touch soon.",
      '',
      ...lines.map(([label, value]) => `${label}: ${value}`),
      '',
      nextSteps,
      '',
      buffer,
      '',
      questions,
      '',
      'WarmLine',
    ].join('\n'),
    html: [
      "<p>Thank you for your purchase! We'll be in touch soon.</p>",
      htmlTable(lines),
      `<p>${escapeHtml(nextSteps)}</p>`,
      `<p>${escapeHtml(buffer)}</p>`,
      `<p>Questions about your order? Write to <a href="mailto:${escapeHtml(contact.salesTeamEmail)}">${escapeHtml(contact.salesTeamEmail)}</a> and quote your order number.</p>`,
      '<p>WarmLine</p>',
    ].join('\n'),
  };
}

/** The sales team's notice of a paid order, so someone contacts the buyer within 24 hours. */
export function salesNoticeEmail(order: PaidOrder, salesTeamEmail: string): EmailToSend {
  const total = formatUsd(order.amountCents);
  const lines: Array<[string, string]> = [
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
    text: [intro, '', ...lines.map(([label, value]) => `${label}: ${value}`)].join('\n'),
    html: [`<p>${escapeHtml(intro)}</p>`, htmlTable(lines)].join('\n'),
  };
}
