import type { CommandData } from '@warmline/contracts';
import { escapeHtml } from '@warmline/platform/html';
import { paidOn, type EmailToSend } from './paid-order-email-parts';

/**
 * A buyer is told to stop contacting leads they bought whose phone has since opted out (issue
 * 13, the suppression list), an agent the call-backs delivered to them (issue 22) and the live
 * transfers they received (issue 24). Pure: what it says; the catalog and the transfers service
 * decide who gets it.
 */

export type LeadOptOut = CommandData<'email.lead_opt_out'>;

const LEAD_OPT_OUT_TEMPLATE = 'lead-opt-out';

type OptedOutLead = LeadOptOut['leads'][number];
type OptedOutCallback = NonNullable<LeadOptOut['callbacks']>[number];
type OptedOutTransfer = NonNullable<LeadOptOut['transfers']>[number];

/** 'Jane Smith, (512) 555-0143, bought July 1, 2026'. */
function leadLine(lead: OptedOutLead): string {
  return `${lead.name}, ${lead.phone}, bought ${paidOn(lead.purchasedAt)}`;
}

/** 'Maria Lopez, (512) 555-6167, call-back delivered July 1, 2026'. */
function callbackLine(callback: OptedOutCallback): string {
  return `${callback.name}, ${callback.phone}, call-back delivered ${paidOn(callback.deliveredAt)}`;
}

/** 'Maria Lopez, (512) 555-6167, transferred to you July 1, 2026' (issue 24). */
function transferLine(transfer: OptedOutTransfer): string {
  return `${transfer.name}, ${transfer.phone}, transferred to you ${paidOn(transfer.routedAt)}`;
}

/** What the notice is about: 'a lead', '2 call-backs', '3 leads and call-backs', 'a live transfer'; and where they stay. */
function about(leads: number, callbacks: number, transfers: number): { one: string; many: string; kept: string } {
  const n = leads + callbacks + transfers;
  if (transfers > 0 && leads + callbacks === 0) {
    return { one: 'a live transfer', many: `${n} live transfers`, kept: `${n === 1 ? 'The transfer stays' : 'The transfers stay'} in My Transfers` };
  }
  if (callbacks === 0 && transfers === 0) return { one: 'a lead', many: `${n} leads`, kept: `${n === 1 ? 'The lead stays' : 'The leads stay'} in My Leads` };
  if (leads === 0 && transfers === 0) return { one: 'a call-back', many: `${n} call-backs`, kept: `${n === 1 ? 'The call-back stays' : 'The call-backs stay'} in My Call-backs` };
  return { one: 'a lead', many: `${n} leads and call-backs`, kept: 'They stay in My Leads and My Call-backs' };
}

export function leadOptOutEmail(notice: LeadOptOut, contact: { salesTeamEmail: string }): EmailToSend {
  const callbacks = notice.callbacks ?? [];
  const transfers = notice.transfers ?? [];
  const one = notice.leads.length + callbacks.length + transfers.length === 1;
  const what = about(notice.leads.length, callbacks.length, transfers.length);
  const lines = [...notice.leads.map(leadLine), ...callbacks.map(callbackLine), ...transfers.map(transferLine)];
  // A live transfer was not bought one by one: the agent received it.
  const got = notice.leads.length + callbacks.length === 0 ? 'received' : 'bought';
  const intro = `${one ? `${what.one[0]!.toUpperCase()}${what.one.slice(1)} you ${got} from us has` : `${what.many} you ${got} from us have`} a phone number that has opted out of being contacted. It is now on our suppression list:`;
  const stop =
    'Do not call or text this number again, and take it out of your dialer and any text or e-mail campaign. ' +
    'Contacting a number after it opted out can breach the TCPA and Do Not Call rules.';
  const kept = `${what.kept} on your dashboard for your records, marked Do not call.`;
  const reason = notice.reason.trim() ? `Reason given: ${notice.reason.trim()}` : undefined;
  const questions = `Questions? Write to ${contact.salesTeamEmail}.`;
  return {
    to: notice.to,
    subject: `Stop contacting ${one ? what.one : what.many}: the number opted out`,
    template: LEAD_OPT_OUT_TEMPLATE,
    text: [
      `Hi ${notice.name || 'there'},`,
      '',
      intro,
      '',
      ...lines.map((l) => `- ${l}`),
      '',
      stop,
      ...(reason ? ['', reason] : []),
      '',
      kept,
      '',
      questions,
      '',
      'WarmLine',
    ].join('\n'),
    html: [
      `<p>Hi ${escapeHtml(notice.name || 'there')},</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
      `<p><strong>${escapeHtml(stop)}</strong></p>`,
      ...(reason ? [`<p>${escapeHtml(reason)}</p>`] : []),
      `<p>${escapeHtml(kept)}</p>`,
      `<p>Questions? Write to <a href="mailto:${escapeHtml(contact.salesTeamEmail)}">${escapeHtml(contact.salesTeamEmail)}</a>.</p>`,
      '<p>WarmLine</p>',
    ].join('\n'),
  };
}
