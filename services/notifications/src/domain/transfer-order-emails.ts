import { BUFFER_SECONDS, formatUsd, stateName, type CommandData, type EventData } from '@warmline/contracts';
import { escapeHtml } from './escape-html';

/**
 * The e-mails a paid call-transfer order causes (issue 7): the agent's confirmation and the
 * operations team's notice with what they need to set the transfers up. Pure: the handler
 * decides when, this decides what they say.
 */

export type PaidTransferOrder = EventData<'transfer_order.paid'>;
export type EmailToSend = CommandData<'email.send'>;

export const TRANSFER_CONFIRMATION_TEMPLATE = 'transfer-order-confirmation';
export const OPERATIONS_NOTICE_TEMPLATE = 'transfer-order-operations-notice';

function paidOn(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** 'Texas (TX), Oklahoma (OK)'. */
function statesText(codes: string[]): string {
  return codes.map((code) => `${stateName(code)} (${code})`).join(', ');
}

/** One line per fact, shared by both e-mails: what was ordered and where it goes. */
function orderLines(order: PaidTransferOrder): Array<[label: string, value: string]> {
  return [
    ['Order', order.orderId],
    ['Live transfers', `${plural(order.totalTransfers, 'transfer', 'transfers')} × ${formatUsd(order.unitPriceCents)}`],
    ['Transfers per day', order.transfersPerDay.toLocaleString('en-US')],
    ['Transfer hours', order.transferHours],
    ['States', statesText(order.selectedStates)],
    ['Transfer phone', order.transferNumber],
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

/** The agent's confirmation: what they bought, where the transfers will ring, what happens next. */
export function transferConfirmationEmail(order: PaidTransferOrder, contact: { operationsEmail: string }): EmailToSend {
  const lines = orderLines(order);
  const greeting = order.firstName ? `Hi ${order.firstName},` : 'Hello,';
  const intro = `Thank you for your order! Your ${plural(order.totalTransfers, 'live transfer is', 'live transfers are')} confirmed and paid.`;
  const next =
    'What happens next: our operations team sets up your campaign and will contact you within 24 hours to confirm ' +
    'your states, hours and transfer phone before the first transfers ring.';
  const buffer =
    `Every transfer is covered by our 120-Second Buffer Protection: if a prospect stays on the call for ` +
    `${BUFFER_SECONDS} seconds or less, that transfer is not charged.`;
  const questions = `Something to change? Write to ${contact.operationsEmail} and quote your order number.`;
  return {
    to: order.email,
    subject: `Your live transfers are confirmed: ${plural(order.totalTransfers, 'transfer', 'transfers')}, ${formatUsd(order.amountCents)}`,
    template: TRANSFER_CONFIRMATION_TEMPLATE,
    text: [greeting, '', intro, '', ...lines.map(([l, v]) => `${l}: ${v}`), '', next, '', buffer, '', questions, '', 'WarmLine'].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      htmlTable(lines),
      `<p>${escapeHtml(next)}</p>`,
      `<p>${escapeHtml(buffer)}</p>`,
      `<p>Something to change? Write to <a href="mailto:${escapeHtml(contact.operationsEmail)}">${escapeHtml(contact.operationsEmail)}</a> and quote your order number.</p>`,
      '<p>WarmLine</p>',
    ].join('\n'),
  };
}

/** The operations team's notice: everything needed to route the transfers, and whom to call. */
export function operationsNoticeEmail(order: PaidTransferOrder, operationsEmail: string): EmailToSend {
  const name = `${order.firstName} ${order.lastName}`.trim() || 'An agent';
  const lines: Array<[string, string]> = [
    ...orderLines(order),
    ['Agent', name],
    ['Agent e-mail', order.email],
    ['Agent phone', order.phone || 'not given'],
    ['Agent account', order.buyerUserId],
  ];
  const intro =
    `${name} paid for ${plural(order.totalTransfers, 'live transfer', 'live transfers')} ` +
    `(${order.selectedStates.join(', ')}; ${order.transferHours}). Please set up the campaign and confirm with the agent within 24 hours.`;
  return {
    to: operationsEmail,
    subject: `New transfer order: ${plural(order.totalTransfers, 'transfer', 'transfers')} in ${order.selectedStates.join(', ')} for ${name}`.slice(0, 200),
    template: OPERATIONS_NOTICE_TEMPLATE,
    text: [intro, '', ...lines.map(([l, v]) => `${l}: ${v}`)].join('\n'),
    html: [`<p>${escapeHtml(intro)}</p>`, htmlTable(lines)].join('\n'),
  };
}
