import { formatUsd, type CommandData } from '@warmline/contracts';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT, SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';
import { escapeHtml } from '@warmline/platform/html';
import { BUFFER_PROTECTION, htmlTable, paidOn, textLines, writeToUs, type EmailLine, type EmailToSend } from './paid-order-email-parts';

/**
 * The e-mails a paid order causes (issue 4): a receipt to the buyer's billing address and a
 * notice to the sales team. Pure: the handler decides when to send, this decides what they say.
 */

export type PaidOrder = CommandData<'email.order_paid'>;

const RECEIPT_TEMPLATE = 'payment-receipt';
const SALES_NOTICE_TEMPLATE = 'sales-payment-notice';

function orderLines(order: PaidOrder): EmailLine[] {
  return [
    ['Order', order.orderId],
    // 'Premium Volume Package: 60 transfers × $37.00' — quantity and rate in the buyer's words.
    ['Purchase', order.description],
    ['Total paid', `${formatUsd(order.amountCents)} (${order.currency.toUpperCase()})`],
    ['Paid on', paidOn(order.paidAt)],
  ];
}

/** What a receipt says about what was bought: the brand it was bought from and what happens next. */
interface ReceiptWording {
  brand: 'WarmLine' | 'RingCloud';
  nextSteps: string;
  /** The 120-second promise applies to live transfers only. */
  bufferProtection: boolean;
}

const TRANSFERS_NEXT =
  'What happens next: your account manager will contact you within 24 hours to confirm your ' +
  'states, hours and transfer number, and to schedule your first transfers.';

/**
 * The package checkouts sell live transfers; the dashboard WarmLine's own call-backs (tier
 * 'callbacks'); the second brand (tier 'ringcloud') also call-backs and packs of aged leads.
 */
function receiptWording(order: Pick<PaidOrder, 'tier' | 'leadType' | 'description' | 'states'>): ReceiptWording {
  if (order.tier === 'callbacks') {
    return {
      brand: 'WarmLine',
      nextSteps:
        'What happens next: each call-back is a prospect who asked to be called back, in the states you take; ' +
        'we deliver them to My Call-backs in your dashboard as they come in, until your order is complete.',
      bufferProtection: false,
    };
  }
  if (order.tier !== 'ringcloud') return { brand: 'WarmLine', nextSteps: TRANSFERS_NEXT, bufferProtection: true };
  // Orders written before leadType travelled: the description starts with the product ('RingCloud Call-Backs: …').
  const product = order.leadType ?? (/^RingCloud (Call-Backs|Aged Leads)\b/.exec(order.description)?.[1] ?? 'Live Transfers');
  if (product === 'Call-Backs') {
    return {
      brand: 'RingCloud',
      nextSteps:
        'What happens next: your account manager will contact you within 24 hours to confirm your states, ' +
        'hours and the number to call you on. Each call-back is a prospect who asked to be called back; ' +
        'we pass them to you as they come in, until your order is complete.',
      bufferProtection: false,
    };
  }
  if (product === 'Aged Leads') {
    return {
      brand: 'RingCloud',
      // The catalog fills the pack from stock as soon as the payment is in (issue 13).
      nextSteps:
        `What happens next: your 100 aged leads are taken from stock now${order.states?.length ? `, only from the states you chose (${order.states.join(', ')}),` : ''} ` +
        'and appear under My Leads in your dashboard, each with its contact details, the date the prospect filled ' +
        'in the form and its consent record; a second e-mail says how many were delivered and lists them. If fewer ' +
        'are in stock, the rest of your payment is refunded.',
      bufferProtection: false,
    };
  }
  return { brand: 'RingCloud', nextSteps: TRANSFERS_NEXT, bufferProtection: true };
}

/**
 * The buyer's receipt; undefined when the buyer gave no billing e-mail (nowhere to send it) and
 * for aged leads bought in the market, whose receipt lists the leads once the catalog has sold
 * them (email.leads_receipt).
 */
export function receiptEmail(order: PaidOrder, contact: { supportEmail?: string; ringcloudSupportEmail?: string }): EmailToSend | undefined {
  if (!order.billingEmail || order.kind === 'lead') return undefined;
  const total = formatUsd(order.amountCents);
  const lines = orderLines(order);
  const { brand, nextSteps, bufferProtection } = receiptWording(order);
  // A RingCloud buyer never met WarmLine: they write to RingCloud's support. A WarmLine buyer
  // writes to SUPPORT_EMAIL, the address the success page shows (issue 17 item 8).
  const questions = writeToUs(
    'Questions about your order?',
    brand === 'RingCloud' ? (contact.ringcloudSupportEmail ?? RINGCLOUD_SUPPORT_EMAIL_DEFAULT) : (contact.supportEmail ?? SUPPORT_EMAIL_DEFAULT),
  );
  return {
    to: order.billingEmail,
    brand,
    subject: `Your ${brand} receipt: ${total}`,
    template: RECEIPT_TEMPLATE,
    text: [
      "Thank you for your purchase! We'll be in touch soon.",
      '',
      ...textLines(lines),
      '',
      nextSteps,
      ...(bufferProtection ? ['', BUFFER_PROTECTION] : []),
      '',
      questions.text,
      '',
      brand,
    ].join('\n'),
    html: [
      "<p>Thank you for your purchase! We'll be in touch soon.</p>",
      htmlTable(lines),
      `<p>${escapeHtml(nextSteps)}</p>`,
      ...(bufferProtection ? [`<p>${escapeHtml(BUFFER_PROTECTION)}</p>`] : []),
      questions.html,
      `<p>${brand}</p>`,
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
