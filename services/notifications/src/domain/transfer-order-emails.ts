import { formatUsd, stateName, type CommandData } from '@warmline/contracts';
import { escapeHtml } from '@warmline/platform/html';
import { BUFFER_PROTECTION, htmlTable, paidOn, textLines, writeToUs, type EmailLine, type EmailToSend } from './paid-order-email-parts';

/**
 * The e-mails a paid call-transfer order causes (issue 7): the agent's confirmation and the
 * operations team's notice with what they need to set the transfers up. Pure: the handler
 * decides when, this decides what they say.
 */

export type PaidTransferOrder = CommandData<'email.transfer_order_paid'>;

const TRANSFER_CONFIRMATION_TEMPLATE = 'transfer-order-confirmation';
const OPERATIONS_NOTICE_TEMPLATE = 'transfer-order-operations-notice';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** 'Texas (TX), Oklahoma (OK)'. */
function statesText(codes: string[]): string {
  return codes.map((code) => `${stateName(code)} (${code})`).join(', ');
}

/** One line per fact, shared by both e-mails: what was ordered and where it goes. */
function orderLines(order: PaidTransferOrder): EmailLine[] {
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

/** The agent's confirmation: what they bought, where the transfers will ring, what happens next. */
export function transferConfirmationEmail(order: PaidTransferOrder, contact: { operationsEmail: string }): EmailToSend {
  const lines = orderLines(order);
  const greeting = order.agent.firstName ? `Hi ${order.agent.firstName},` : 'Hello,';
  const intro = `Thank you for your order! Your ${plural(order.totalTransfers, 'live transfer is', 'live transfers are')} confirmed and paid.`;
  const next =
    'What happens next: our operations team sets up your campaign and will contact you within 24 hours to confirm ' +
    'your states, hours and transfer phone before the first transfers ring.';
  const questions = writeToUs('Something to change?', contact.operationsEmail);
  return {
    to: order.agent.email,
    subject: `Your live transfers are confirmed: ${plural(order.totalTransfers, 'transfer', 'transfers')}, ${formatUsd(order.amountCents)}`,
    template: TRANSFER_CONFIRMATION_TEMPLATE,
    text: [greeting, '', intro, '', ...textLines(lines), '', next, '', BUFFER_PROTECTION, '', questions.text, '', 'WarmLine'].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      htmlTable(lines),
      `<p>${escapeHtml(next)}</p>`,
      `<p>${escapeHtml(BUFFER_PROTECTION)}</p>`,
      questions.html,
      '<p>WarmLine</p>',
    ].join('\n'),
  };
}

/** The operations team's notice: everything needed to route the transfers, and whom to call. */
export function operationsNoticeEmail(order: PaidTransferOrder, operationsEmail: string): EmailToSend {
  const name = `${order.agent.firstName} ${order.agent.lastName}`.trim() || 'An agent';
  const lines: EmailLine[] = [
    ...orderLines(order),
    ['Agent', name],
    ['Agent e-mail', order.agent.email],
    ['Agent phone', order.agent.phone || 'not given'],
    ['Agent account', order.buyerUserId],
  ];
  const intro =
    `${name} paid for ${plural(order.totalTransfers, 'live transfer', 'live transfers')} ` +
    `(${order.selectedStates.join(', ')}; ${order.transferHours}). Please set up the campaign and confirm with the agent within 24 hours.`;
  return {
    to: operationsEmail,
    subject: `New transfer order: ${plural(order.totalTransfers, 'transfer', 'transfers')} in ${order.selectedStates.join(', ')} for ${name}`.slice(0, 200),
    template: OPERATIONS_NOTICE_TEMPLATE,
    text: [intro, '', ...textLines(lines)].join('\n'),
    html: [`<p>${escapeHtml(intro)}</p>`, htmlTable(lines)].join('\n'),
  };
}
