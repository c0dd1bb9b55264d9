import { PARTNER_REVIEW_HOURS, type CommandData } from '@warmline/contracts';
import { escapeHtml } from '@warmline/platform/html';
import { oneLine } from './one-line';
import { htmlTable, paidOn, textLines, type EmailLine, type EmailToSend } from './paid-order-email-parts';

/**
 * The partner network's e-mails (issue 14; spec §9): the applicant's confirmation, the
 * partnerships inbox's notice with every answer, and the applicant's decision. Pure: what they
 * say; the partners service decides when and to whom.
 */

export type PartnerApplicationReceived = CommandData<'email.partner_application_received'>;
export type PartnerApplicationNotice = CommandData<'email.partner_application_notice'>;
export type PartnerStatusChanged = CommandData<'email.partner_status_changed'>;

const PARTNER_APPLICATION_RECEIVED_TEMPLATE = 'partner-application-received';
const PARTNER_APPLICATION_NOTICE_TEMPLATE = 'partner-application-notice';
const PARTNER_APPROVED_TEMPLATE = 'partner-approved';
const PARTNER_REJECTED_TEMPLATE = 'partner-rejected';

/** How soon an approved partner hears from a partnerships manager. */
const PARTNER_ONBOARDING_BUSINESS_DAYS = 2;

export interface PartnerContact {
  /** The partnerships inbox (PARTNERS_TEAM_EMAIL): where applicants write, and where notices go. */
  partnersTeamEmail: string;
}

/** '2.4 MB', '512 KB', '900 bytes' (1 KB = 1,024 bytes, as the 10 MB document limit). */
export function documentSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Text the applicant typed, safe in HTML, its line breaks kept. */
function htmlText(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

function mailto(address: string): string {
  return `<a href="mailto:${escapeHtml(address)}">${escapeHtml(address)}</a>`;
}

/** The applicant's confirmation: it arrived, it is reviewed within 48 hours (PARTNER_REVIEW_HOURS). */
export function partnerApplicationReceivedEmail(request: PartnerApplicationReceived, contact: PartnerContact): EmailToSend {
  const greeting = `Hi ${request.contactName.trim() || 'there'},`;
  const thanks = `Thank you for applying to the WarmLine partner network on behalf of ${request.businessName}. Your application arrived on ${paidOn(request.appliedAt)}.`;
  const review = `Our partnerships team will review it within ${PARTNER_REVIEW_HOURS} hours and e-mail you at this address with the decision.`;
  const reference = `Your reference: ${request.applicationId}`;
  const questions = `Questions in the meantime? Write to ${contact.partnersTeamEmail} and quote your reference.`;
  return {
    to: request.to,
    subject: 'We received your WarmLine partner application',
    template: PARTNER_APPLICATION_RECEIVED_TEMPLATE,
    text: [greeting, '', thanks, '', review, '', reference, '', questions, '', 'The WarmLine partnerships team'].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(thanks)}</p>`,
      `<p><strong>${escapeHtml(review)}</strong></p>`,
      `<p>${escapeHtml(reference)}</p>`,
      `<p>Questions in the meantime? Write to ${mailto(contact.partnersTeamEmail)} and quote your reference.</p>`,
      '<p>The WarmLine partnerships team</p>',
    ].join('\n'),
  };
}

/** The partnerships inbox's notice of a new application: every answer, and the documents' names and sizes. */
export function partnerApplicationNoticeEmail(notice: PartnerApplicationNotice, contact: PartnerContact): EmailToSend {
  const { answers } = notice;
  const facts: EmailLine[] = [
    ['Business name', answers.businessName],
    ['Contact name', answers.contactName],
    ['E-mail', answers.email],
    ['Phone', answers.phone],
    ['Website', answers.website],
    ['Business type', answers.businessType],
    ['Years of experience', answers.experienceYears],
    ['Monthly lead volume', answers.monthlyVolume],
    ['Services interested in', answers.servicesInterested.join(', ') || 'none given'],
    ['Target markets', answers.targetMarkets],
    ['Application', notice.applicationId],
    ['Received', new Date(notice.appliedAt).toISOString()],
  ];
  const longAnswers: EmailLine[] = [
    ['Business description', answers.businessDescription],
    ['Why they want to partner', answers.whyPartner],
  ];
  const documentLine = (d: PartnerApplicationNotice['documents'][number]) => `${d.originalName} (${documentSize(d.size)}, ${d.contentType})`;
  const intro = `A new partner application arrived. Please review it within ${PARTNER_REVIEW_HOURS} hours (Admin → Partner Apps): the applicant was promised a decision by then.`;
  const documentsHeading = notice.documents.length === 0 ? 'Documents: none' : `Documents (${notice.documents.length}):`;
  return {
    to: contact.partnersTeamEmail,
    subject: oneLine(`New partner application: ${answers.businessName} (${answers.businessType})`),
    template: PARTNER_APPLICATION_NOTICE_TEMPLATE,
    text: [
      intro,
      '',
      ...textLines(facts),
      '',
      ...longAnswers.flatMap(([label, value]) => [`${label}:`, value, '']),
      documentsHeading,
      ...notice.documents.map((d) => `- ${documentLine(d)}`),
    ].join('\n'),
    html: [
      `<p>${escapeHtml(intro)}</p>`,
      htmlTable(facts),
      ...longAnswers.map(([label, value]) => `<h3>${escapeHtml(label)}</h3>\n<p>${htmlText(value)}</p>`),
      `<h3>${escapeHtml(documentsHeading.replace(/:$/, ''))}</h3>`,
      ...(notice.documents.length ? [`<ul>${notice.documents.map((d) => `<li>${escapeHtml(documentLine(d))}</li>`).join('')}</ul>`] : []),
    ].join('\n'),
  };
}

/**
 * The applicant's decision: approved → what happens next, rejected → a polite no. Moving an
 * application back to pending sends nothing: the applicant was already told it is under review,
 * and an admin undoing a decision should not reach them at all (the partners service may still
 * send the command; it is taken and dropped here).
 */
export function partnerStatusChangedEmail(change: PartnerStatusChanged, contact: PartnerContact): EmailToSend | undefined {
  const greeting = `Hi ${change.contactName.trim() || 'there'},`;
  const reference = `Your reference: ${change.applicationId}`;
  // The admin's note (issue 22), quoted as the team's words after the decision.
  const noteText = change.note ? ['A note from our partnerships team:', change.note, ''] : [];
  const noteHtml = change.note ? [`<p>A note from our partnerships team:</p>\n<blockquote>${htmlText(change.note)}</blockquote>`] : [];
  if (change.status === 'approved') {
    const approved = `Good news: the application of ${change.businessName} to the WarmLine partner network is approved. Welcome aboard!`;
    const next = `Next steps: a partnerships manager will contact you within ${PARTNER_ONBOARDING_BUSINESS_DAYS} business days to set up the integration — how your leads and transfers reach us, the formats, volumes and schedules, and your point of contact.`;
    const prepare = 'To save time on that call, have ready the lead types and volumes you can send, your delivery method (API, posting URL or file), and your compliance and consent records.';
    return {
      to: change.to,
      subject: 'Your WarmLine partner application is approved',
      template: PARTNER_APPROVED_TEMPLATE,
      text: [greeting, '', approved, '', ...noteText, next, '', prepare, '', `Questions before then? Write to ${contact.partnersTeamEmail}.`, '', reference, '', 'The WarmLine partnerships team'].join('\n'),
      html: [
        `<p>${escapeHtml(greeting)}</p>`,
        `<p>${escapeHtml(approved)}</p>`,
        ...noteHtml,
        `<p><strong>${escapeHtml(next)}</strong></p>`,
        `<p>${escapeHtml(prepare)}</p>`,
        `<p>Questions before then? Write to ${mailto(contact.partnersTeamEmail)}.</p>`,
        `<p>${escapeHtml(reference)}</p>`,
        '<p>The WarmLine partnerships team</p>',
      ].join('\n'),
    };
  }
  if (change.status === 'rejected') {
    const thanks = `Thank you for your interest in the WarmLine partner network and for the time ${change.businessName} put into its application.`;
    const decision = 'We have reviewed it carefully, and we are not able to offer a partnership at this time.';
    const later = 'This decision reflects our current needs rather than the quality of your business. If your services or volumes change, you are welcome to apply again in the future.';
    return {
      to: change.to,
      subject: 'Your WarmLine partner application',
      template: PARTNER_REJECTED_TEMPLATE,
      text: [greeting, '', thanks, '', decision, '', ...noteText, later, '', `If you have questions, write to ${contact.partnersTeamEmail}.`, '', 'We wish you every success,', 'The WarmLine partnerships team'].join('\n'),
      html: [
        `<p>${escapeHtml(greeting)}</p>`,
        `<p>${escapeHtml(thanks)}</p>`,
        `<p>${escapeHtml(decision)}</p>`,
        ...noteHtml,
        `<p>${escapeHtml(later)}</p>`,
        `<p>If you have questions, write to ${mailto(contact.partnersTeamEmail)}.</p>`,
        '<p>We wish you every success,<br>The WarmLine partnerships team</p>',
      ].join('\n'),
    };
  }
  return undefined;
}
