import { BUFFER_SECONDS, type CommandData } from '@warmline/contracts';
import { escapeHtml } from '@warmline/platform/html';

/** What both kinds of paid-order e-mails (packages, call transfers) say and lay out alike. */

export type EmailToSend = CommandData<'email.send'>;
export type EmailLine = [label: string, value: string];

/** 'November 21, 2026' — the day the payment went through, in UTC like the rest of the system. */
export function paidOn(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** The lines as 'Label: value', one a line, for the text part. */
export function textLines(rows: EmailLine[]): string[] {
  return rows.map(([label, value]) => `${label}: ${value}`);
}

/** The lines as a two-column table, for the HTML part. */
export function htmlTable(rows: EmailLine[]): string {
  const cells = rows
    .map(([label, value]) => `<tr><th align="left" style="padding:4px 12px 4px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  return `<table cellpadding="0" cellspacing="0">${cells}</table>`;
}

/** The buyer's promise (spec: 120-Second Buffer Protection), repeated in every confirmation. */
export const BUFFER_PROTECTION =
  `Every transfer is covered by our 120-Second Buffer Protection: if a prospect stays on the call for ` +
  `${BUFFER_SECONDS} seconds or less, that transfer is not charged.`;

/** '<question> Write to <address> and quote your order number.', as text and with a mailto link. */
export function writeToUs(question: string, address: string): { text: string; html: string } {
  const link = `<a href="mailto:${escapeHtml(address)}">${escapeHtml(address)}</a>`;
  return {
    text: `${question} Write to ${address} and quote your order number.`,
    html: `<p>${escapeHtml(question)} Write to ${link} and quote your order number.</p>`,
  };
}
