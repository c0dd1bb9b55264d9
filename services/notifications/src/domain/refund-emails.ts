import { formatUsd, type CommandData, type LeadOrderLead } from '@warmline/contracts';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT, SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';
import { escapeHtml } from '@warmline/platform/html';
import { htmlTable, paidOn, textLines, writeToUs, type EmailLine, type EmailToSend } from './paid-order-email-parts';

/**
 * The e-mails of an aged-lead order settled by the catalog and of a disputed payment (issue 12).
 * Pure: what they say; the handler decides when.
 */

export type LeadsReceipt = CommandData<'email.leads_receipt'>;
export type DisputeOpened = CommandData<'email.dispute_opened'>;

const LEADS_RECEIPT_TEMPLATE = 'leads-receipt';
const DISPUTE_OPENED_TEMPLATE = 'dispute-opened';

/** Card refunds take this long to show on a statement (Stripe's guidance). */
const REFUND_ARRIVES = 'It usually reaches your card within 5–10 business days.';

/**
 * A lead the buyer owns: 'John Smith, (512) 555-0123, john@example.com, TX 78701, 60-90 days old: $2.00'
 * (issue 22: what they bought, in full). One they did not get, or one of a receipt written before
 * issue 22: 'John SmiXX, TX, 60-90 days old: $2.00', as the market showed it.
 */
function leadLine(lead: LeadOrderLead): string {
  const place = [lead.state, lead.zip].filter(Boolean).join(' ');
  const who = lead.phone ? [lead.name || 'Lead', lead.phone, lead.email, place] : [lead.name || 'Lead', place];
  return `${who.filter(Boolean).join(', ')}, ${lead.ageRange} days old: ${formatUsd(lead.priceCents)}`;
}

/**
 * The buyer's receipt of aged leads: the leads bought with the contact details the buyer now owns
 * (also in My Leads), and when some had been sold to someone else before the payment arrived, which ones
 * and that their price was refunded. Nothing about transfers: leads are delivered at once.
 */
export function leadsReceiptEmail(
  receipt: LeadsReceipt,
  contact: { supportEmail?: string; ringcloudSupportEmail?: string },
  site: { publicUrl: string },
): EmailToSend {
  const brand = receipt.brand ?? 'WarmLine';
  const got = receipt.delivered.length;
  const charged = receipt.paidCents - receipt.refundedCents;
  const pack = receipt.leadPackage;
  const where = pack?.states && pack.states.length > 0 ? pack.states.join(', ') : null;
  const summary: EmailLine[] = [
    ['Order', receipt.orderId],
    // A RingCloud pack says how many of how many, and from which states (issue 22).
    ['Leads delivered', pack ? `${got} of ${pack.ordered}` : String(got)],
    ...(where ? ([['From the states you chose', where]] as EmailLine[]) : []),
    ['Paid', formatUsd(receipt.paidCents)],
    ...(receipt.refundedCents > 0 ? ([['Refunded', formatUsd(receipt.refundedCents)], ['Total charged', formatUsd(charged)]] as EmailLine[]) : []),
    ['Paid on', paidOn(receipt.paidAt)],
  ];
  const intro = got > 0
    ? `Thank you for your purchase! Your ${got} aged ${got === 1 ? 'lead is' : 'leads are'} yours: ${got === 1 ? 'its' : 'their'} full contact details are below and in My Leads on your dashboard.`
    : pack
      ? `Thank you for your payment. Unfortunately we had no leads of your age range in stock${where ? ` in ${where}` : ''}.`
      : 'Thank you for your payment. Unfortunately none of the leads you chose could be delivered.';
  const missing = pack ? pack.ordered - got : 0;
  const shortfallNote = pack && missing > 0
    ? `We had ${got} of the ${pack.ordered} leads you ordered in stock${where ? ` in ${where}` : ''}. The other ${missing} ${missing === 1 ? 'is' : 'are'} refunded to the card you paid with: ${formatUsd(pack.refundDueCents)} (a separate e-mail confirms it). ${REFUND_ARRIVES}`
    : undefined;
  const undeliveredNote = receipt.undelivered.length > 0
    ? `Your payment arrived after your reservation had ended, and ${receipt.undelivered.length === 1 ? 'this lead was' : 'these leads were'} sold to another buyer in the meantime:`
    : undefined;
  const refundNote = receipt.refundedCents > 0 ? `We have refunded ${formatUsd(receipt.refundedCents)} for ${receipt.undelivered.length === 1 ? 'it' : 'them'} to the card you paid with. ${REFUND_ARRIVES}` : undefined;
  const questions = writeToUs(
    'Questions about your leads?',
    brand === 'RingCloud' ? (contact.ringcloudSupportEmail ?? RINGCLOUD_SUPPORT_EMAIL_DEFAULT) : (contact.supportEmail ?? SUPPORT_EMAIL_DEFAULT),
  );
  // The way on (issue 17 item 3): straight to the leads, with their full contact details.
  const myLeads = myLeadsUrl(site.publicUrl);
  return {
    to: receipt.to,
    brand,
    subject: `Your ${brand} aged leads receipt: ${formatUsd(charged)}`,
    template: LEADS_RECEIPT_TEMPLATE,
    text: [
      `Hi ${receipt.name || 'there'},`,
      '',
      intro,
      '',
      ...textLines(summary),
      ...(got > 0 ? ['', 'Leads bought:', ...receipt.delivered.map((l) => `- ${leadLine(l)}`), '', `See them in My Leads: ${myLeads}`] : []),
      ...(undeliveredNote ? ['', undeliveredNote, ...receipt.undelivered.map((l) => `- ${leadLine(l)}`)] : []),
      ...(refundNote ? ['', refundNote] : []),
      ...(shortfallNote ? ['', shortfallNote] : []),
      '',
      questions.text,
      '',
      brand,
    ].join('\n'),
    html: [
      `<p>Hi ${escapeHtml(receipt.name || 'there')},</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      htmlTable(summary),
      ...(got > 0
        ? ['<p>Leads bought:</p>', htmlList(receipt.delivered), `<p><a href="${escapeHtml(myLeads)}">See them in My Leads</a></p>`]
        : []),
      ...(undeliveredNote ? [`<p>${escapeHtml(undeliveredNote)}</p>`, htmlList(receipt.undelivered)] : []),
      ...(refundNote ? [`<p>${escapeHtml(refundNote)}</p>`] : []),
      ...(shortfallNote ? [`<p>${escapeHtml(shortfallNote)}</p>`] : []),
      questions.html,
      `<p>${brand}</p>`,
    ].join('\n'),
  };
}

/** The dashboard's My Leads view (`/dashboard?view=my-leads`) on the site at PUBLIC_URL. */
function myLeadsUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/dashboard?view=my-leads`;
}

function htmlList(leads: LeadOrderLead[]): string {
  return `<ul>${leads.map((l) => `<li>${escapeHtml(leadLine(l))}</li>`).join('')}</ul>`;
}

/**
 * The team's notice of a dispute: which order, how much, why, and by when the bank wants
 * evidence (answered in Stripe's dashboard). Sent to the inbox that hears of every sale.
 */
export function disputeOpenedEmail(dispute: DisputeOpened, teamInbox: string): EmailToSend {
  const lines: EmailLine[] = [
    ['Order', dispute.orderId],
    ['Purchase', dispute.description],
    ['Order amount', formatUsd(dispute.orderAmountCents)],
    ['Disputed', formatUsd(dispute.disputedCents)],
    ['Reason', dispute.reason.replaceAll('_', ' ')],
    ['Buyer', [dispute.buyerName, dispute.buyerEmail].filter(Boolean).join(', ') || 'not given'],
    ['Evidence due by', dispute.evidenceDueBy ? new Date(dispute.evidenceDueBy).toUTCString() : 'not given'],
    ['Stripe dispute', dispute.disputeId],
  ];
  const intro =
    `A buyer disputed a payment of ${formatUsd(dispute.disputedCents)} with their bank. The order is flagged as disputed. ` +
    'Answer the dispute with evidence in the Stripe dashboard before the deadline, or the money is lost.';
  return {
    to: teamInbox,
    subject: `Payment disputed: ${dispute.description} (${formatUsd(dispute.disputedCents)})`,
    template: DISPUTE_OPENED_TEMPLATE,
    text: [intro, '', ...textLines(lines)].join('\n'),
    html: [`<p>${escapeHtml(intro)}</p>`, htmlTable(lines)].join('\n'),
  };
}
