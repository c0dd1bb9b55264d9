import { formatUsd, type CommandData } from '@warmline/contracts';
import { oneLine } from './one-line';
import type { EmailToSend } from './paid-order-email-parts';

/** The sales team's notice of a survey sign-up (spec §2: the team contacts them within 24 hours). */

export type SurveySalesNoticeRequest = CommandData<'email.survey_sales_notice'>;

const SURVEY_SALES_NOTICE_TEMPLATE = 'survey-sales-notice';

function funnelName(request: SurveySalesNoticeRequest): string {
  if (request.funnel === 'main') return 'survey';
  if (request.funnel === 'ringcloud') return 'RingCloud survey';
  return `referral survey (${request.salesperson?.displayName ?? 'unknown salesperson'})`;
}

function funnelDescription(request: SurveySalesNoticeRequest): string {
  if (request.funnel === 'main') return 'Main survey (/survey), marker Survey Form';
  if (request.funnel === 'ringcloud') return 'RingCloud survey (/ringcloud), marker RingCloud; the customer goes on to the card checkout';
  const salesperson = request.salesperson;
  return salesperson ? `Referral survey of ${salesperson.displayName} (/${salesperson.slug})` : 'Referral survey';
}

export function surveySalesNoticeEmail(request: SurveySalesNoticeRequest): EmailToSend {
  const { agent, answers } = request;
  const recruiting = answers.leadType === 'Insurance Recruiting';
  const rows: Array<[string, string | number | undefined]> = [
    ['Funnel', funnelDescription(request)],
    ['Name', `${agent.firstName} ${agent.lastName}`],
    ['Agency', agent.agencyName],
    ['Role', agent.role],
    ['Phone', agent.phone],
    ['Email', agent.email],
    ['Username', agent.username],
    ['Lead type', answers.leadType],
    ['Working states', answers.workingStates],
    ['Total transfers', answers.totalTransfers],
    ['Transfers per day', answers.transfersPerDay],
    ['Calls per day', answers.callsPerDay],
    ['Transfer hours', answers.transferHours],
    [recruiting ? 'Agents needed' : 'Total callbacks', answers.totalCallbacks],
    [recruiting ? 'Preferences' : 'Callback preference', answers.callbackPreference],
    ['Age range (days)', answers.ageRange],
    ['Timezone', answers.timezone],
    ['Estimated order', request.estimatedOrderCents === null ? undefined : formatUsd(request.estimatedOrderCents)],
  ];
  return {
    to: request.to,
    subject: oneLine(`New ${funnelName(request)} sign-up: ${agent.firstName} ${agent.lastName} (${agent.agencyName})`),
    template: SURVEY_SALES_NOTICE_TEMPLATE,
    text: [
      'A new account was created from a survey. Please contact them within 24 hours to confirm their preferences and pricing.',
      '',
      ...rows.filter(([, value]) => value !== undefined && value !== '').map(([label, value]) => `${label}: ${value}`),
    ].join('\n'),
  };
}
