import { formatUsd, type CommandData } from '@warmline/contracts';
import { escapeHtml } from '@warmline/platform/html';
import { htmlTable, textLines, type EmailLine, type EmailToSend } from './paid-order-email-parts';

/**
 * An agent is told how their dispute of a charged transfer was decided (issue 23 §6): which
 * transfer, the reason they gave, accepted (the transfer credited back) or refused (and why),
 * and their balance now. Pure: what it says; the transfers service decides who gets it.
 */

export type TransferDisputeDecided = CommandData<'email.transfer_dispute_decided'>;

const TRANSFER_DISPUTE_DECIDED_TEMPLATE = 'transfer-dispute-decided';

/** The dashboard's My Transfers view (the SPA keeps its views in `?view=`). */
const MY_TRANSFERS_PATH = '/dashboard?view=my-transfers';

/** 'Thursday, November 26, 2026 at 3:04 PM UTC'. */
function whenText(iso: string): string {
  return new Date(iso).toLocaleString('en-US', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });
}

function balanceText(left: number): string {
  return `You have ${left} transfer${left === 1 ? '' : 's'} left.`;
}

export function transferDisputeDecidedEmail(notice: TransferDisputeDecided, site: { publicUrl: string }): EmailToSend {
  const link = `${site.publicUrl.replace(/\/+$/, '')}${MY_TRANSFERS_PATH}`;
  const accepted = notice.decision === 'accepted';
  const greeting = `Hi ${notice.firstName.trim() || 'there'},`;
  const outcome = accepted
    ? `Your dispute was accepted: the transfer was credited back to your balance (${formatUsd(notice.creditedCents)}).`
    : 'Your dispute was refused: the transfer stays charged.';
  const facts: EmailLine[] = [
    ['Transfer', notice.prospect],
    ['Transferred', whenText(notice.transferredAt)],
    ['Your reason', notice.reasonLabel],
    ['Decision', accepted ? 'Accepted — credited back' : 'Refused'],
    ...(!accepted && notice.decisionReason ? ([['Why', notice.decisionReason]] as EmailLine[]) : []),
  ];
  const balance = balanceText(notice.balanceAfter);
  return {
    to: notice.to,
    // No prospect's name in a subject: subjects are logged (email_log) and shown on lock screens.
    subject: `Your transfer dispute was ${accepted ? 'accepted' : 'refused'}`,
    template: TRANSFER_DISPUTE_DECIDED_TEMPLATE,
    text: [greeting, '', outcome, '', ...textLines(facts), '', balance, '', 'Your transfers and disputes are in My Transfers:', link, '', 'WarmLine'].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(outcome)}</p>`,
      htmlTable(facts),
      `<p><strong>${escapeHtml(balance)}</strong></p>`,
      `<p>Your transfers and disputes are in <a href="${escapeHtml(link)}">My Transfers</a>.</p>`,
      '<p>WarmLine</p>',
    ].join('\n'),
  };
}
