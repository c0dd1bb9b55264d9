import type { CommandData } from '@warmline/contracts';
import { oneLine } from './one-line';
import type { EmailToSend } from './paid-order-email-parts';

/** The recruiting team's notice of an agent's request for help (dashboard, Insurance Recruiting). */

export type RecruitingRequestNotice = CommandData<'email.recruiting_request'>;

const RECRUITING_NOTICE_TEMPLATE = 'recruiting-request';

export function recruitingRequestEmail(request: RecruitingRequestNotice): EmailToSend {
  const { agent } = request;
  const name = `${agent.firstName} ${agent.lastName}`.trim() || agent.username;
  return {
    to: request.to,
    subject: oneLine(
      `Recruiting request: ${request.agentsNeeded} ${request.agentsNeeded === 1 ? 'agent' : 'agents'} for ${agent.agencyName || agent.username}`,
    ),
    template: RECRUITING_NOTICE_TEMPLATE,
    text: [
      `${name} asked for help recruiting agents from the dashboard. Please get in touch within one business day.`,
      '',
      `Agents needed: ${request.agentsNeeded}`,
      'What the agency needs:',
      request.needs,
      '',
      `Name: ${name}`,
      `Agency: ${agent.agencyName || 'not given'}`,
      `Username: ${agent.username}`,
      `E-mail: ${agent.email}`,
      `Phone: ${agent.phone}`,
      `Request: ${request.requestId}`,
      `Received: ${new Date(request.receivedAt).toISOString()}`,
    ].join('\n'),
  };
}
