import type { CommandData } from '@warmline/contracts';
import { escapeHtml } from '@warmline/platform/html';
import { oneLine } from './one-line';
import { htmlTable, textLines, type EmailLine, type EmailToSend } from './paid-order-email-parts';

/**
 * An agent is told a call-back was delivered to them (issue 15): who to call, on which number,
 * when the prospect asked to be called, what they said, and how many call-backs are left. Pure:
 * what it says; the catalog decides who gets it.
 */

export type CallbackAssigned = CommandData<'email.callback_assigned'>;

const CALLBACK_ASSIGNED_TEMPLATE = 'callback-assigned';

/** The dashboard's view of an agent's call-backs: the SPA keeps its views in `?view=` (web/src/features/dashboard/dashboard-views.ts). */
const MY_CALLBACKS_PATH = '/dashboard?view=my-callbacks';

function myCallbacksUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${MY_CALLBACKS_PATH}`;
}

/**
 * The zone most of each state keeps. The agent calls the prospect, so the time is shown as the
 * prospect's clock reads it; in the few states split between zones the larger part's zone is
 * named, and the zone is always written out so the agent can tell.
 */
const STATE_TIME_ZONES: Record<string, string> = {
  AL: 'America/Chicago', AK: 'America/Anchorage', AZ: 'America/Phoenix', AR: 'America/Chicago', CA: 'America/Los_Angeles',
  CO: 'America/Denver', CT: 'America/New_York', DE: 'America/New_York', DC: 'America/New_York', FL: 'America/New_York',
  GA: 'America/New_York', HI: 'Pacific/Honolulu', ID: 'America/Boise', IL: 'America/Chicago', IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago', KS: 'America/Chicago', KY: 'America/New_York', LA: 'America/Chicago', ME: 'America/New_York',
  MD: 'America/New_York', MA: 'America/New_York', MI: 'America/Detroit', MN: 'America/Chicago', MS: 'America/Chicago',
  MO: 'America/Chicago', MT: 'America/Denver', NE: 'America/Chicago', NV: 'America/Los_Angeles', NH: 'America/New_York',
  NJ: 'America/New_York', NM: 'America/Denver', NY: 'America/New_York', NC: 'America/New_York', ND: 'America/Chicago',
  OH: 'America/New_York', OK: 'America/Chicago', OR: 'America/Los_Angeles', PA: 'America/New_York', PR: 'America/Puerto_Rico',
  RI: 'America/New_York', SC: 'America/New_York', SD: 'America/Chicago', TN: 'America/Chicago', TX: 'America/Chicago',
  UT: 'America/Denver', VT: 'America/New_York', VA: 'America/New_York', WA: 'America/Los_Angeles', WV: 'America/New_York',
  WI: 'America/Chicago', WY: 'America/Denver',
};

/**
 * 'Thursday, November 26, 2026 at 3:00 PM CST (the prospect's local time in TX)', or in UTC
 * when the state's zone is not known; 'As soon as you can (no time was given)' without one.
 */
export function callbackTimeText(iso: string | null, state: string): string {
  if (iso === null) return 'As soon as you can (no time was given)';
  const zone = STATE_TIME_ZONES[state.toUpperCase()];
  const when = new Date(iso).toLocaleString('en-US', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: zone ?? 'UTC',
    timeZoneName: 'short',
  });
  // toLocaleString writes 'Thursday, November 26, 2026 at 3:00 PM CST' (ICU's 'at' joins date and time).
  return zone ? `${when} (the prospect's local time in ${state.toUpperCase()})` : when;
}

/** 'You have 4 call-backs left.', or what to do when that was the last one. */
function balanceText(left: number): string {
  if (left === 0) return 'That was your last call-back: buy more from your dashboard to keep receiving them.';
  return `You have ${left} call-back${left === 1 ? '' : 's'} left.`;
}

/** Text the vendor's voice AI transcribed, safe in HTML, its line breaks kept. */
function htmlText(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

export function callbackAssignedEmail(notice: CallbackAssigned, site: { publicUrl: string }): EmailToSend {
  const link = myCallbacksUrl(site.publicUrl);
  const greeting = `Hi ${notice.firstName.trim() || 'there'},`;
  const intro = 'A new call-back was delivered to you. The prospect asked to be called back: call them at the time they gave.';
  const facts: EmailLine[] = [
    ['Prospect', notice.prospectName],
    ['Phone', notice.prospectPhone],
    ['State', notice.state],
    ['Call back', callbackTimeText(notice.callbackTime, notice.state)],
  ];
  const excerpt = notice.transcriptExcerpt?.trim() || null;
  const balance = balanceText(notice.balanceLeft);
  const more = 'The full transcript and all your call-backs are in My Call-backs:';
  return {
    to: notice.to,
    // No prospect's name in a subject: subjects are logged (email_log) and shown on lock screens.
    subject: oneLine(`New call-back (${notice.state})`),
    template: CALLBACK_ASSIGNED_TEMPLATE,
    text: [
      greeting,
      '',
      intro,
      '',
      ...textLines(facts),
      '',
      ...(excerpt ? ['From the call:', ...excerpt.split(/\r?\n/).map((line) => `> ${line}`), ''] : []),
      balance,
      '',
      more,
      link,
      '',
      'WarmLine',
    ].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      htmlTable(facts),
      ...(excerpt ? ['<h3>From the call</h3>', `<blockquote>${htmlText(excerpt)}</blockquote>`] : []),
      `<p><strong>${escapeHtml(balance)}</strong></p>`,
      `<p>The full transcript and all your call-backs are in <a href="${escapeHtml(link)}">My Call-backs</a>.</p>`,
      '<p>WarmLine</p>',
    ].join('\n'),
  };
}
