import type { CommandData } from '@warmline/contracts';
import { escapeHtml } from '@warmline/platform/html';
import { paidOn, type EmailToSend } from './paid-order-email-parts';

/**
 * A buyer is told to stop contacting leads they bought whose phone has since opted out (issue
 * 13, the suppression list). Pure: what it says; the catalog decides who gets it.
 */

export type LeadOptOut = CommandData<'email.lead_opt_out'>;

const LEAD_OPT_OUT_TEMPLATE = 'lead-opt-out';

type OptedOutLead = LeadOptOut['leads'][number];

/** 'Jane Smith, (512) 555-0143, bought July 1, 2026'. */
function leadLine(lead: OptedOutLead): string {
  return `${lead.name}, ${lead.phone}, bought ${paidOn(lead.purchasedAt)}`;
}

export function leadOptOutEmail(notice: LeadOptOut, contact: { salesTeamEmail: string }): EmailToSend {
  const one = notice.leads.length === 1;
  const intro = `${one ? 'A lead you bought from us has' : `${notice.leads.length} leads you bought from us have`} a phone number that has opted out of being contacted. It is now on our suppression list:`;
  const stop =
    'Do not call or text this number again, and take it out of your dialer and any text or e-mail campaign. ' +
    'Contacting a number after it opted out can breach the TCPA and Do Not Call rules.';
  const kept = `${one ? 'The lead stays' : 'The leads stay'} in My Leads on your dashboard for your records.`;
  const reason = notice.reason.trim() ? `Reason given: ${notice.reason.trim()}` : undefined;
  const questions = `Questions? Write to ${contact.salesTeamEmail}.`;
  return {
    to: notice.to,
    subject: `Stop contacting ${one ? 'a lead' : `${notice.leads.length} leads`}: the number opted out`,
    template: LEAD_OPT_OUT_TEMPLATE,
    text: [
      `Hi ${notice.name || 'there'},`,
      '',
      intro,
      '',
      ...notice.leads.map((l) => `- ${leadLine(l)}`),
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
      `<ul>${notice.leads.map((l) => `<li>${escapeHtml(leadLine(l))}</li>`).join('')}</ul>`,
      `<p><strong>${escapeHtml(stop)}</strong></p>`,
      ...(reason ? [`<p>${escapeHtml(reason)}</p>`] : []),
      `<p>${escapeHtml(kept)}</p>`,
      `<p>Questions? Write to <a href="mailto:${escapeHtml(contact.salesTeamEmail)}">${escapeHtml(contact.salesTeamEmail)}</a>.</p>`,
      '<p>WarmLine</p>',
    ].join('\n'),
  };
}
