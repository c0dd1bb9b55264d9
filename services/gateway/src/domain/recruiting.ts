import type { RecruitingRequest, RecruitingRequestResponse } from '@warmline/contracts';
import { withTransaction } from '@warmline/platform';
import { enqueue } from '@warmline/platform/bus/outbox';
import { insertRecruitingRequest, type RecruitingRequestRecord } from '../db/recruiting-requests';
import type { CurrentUser } from '../http/sessions';
import { SOURCE, type AccountsContext, type RequestOrigin } from './context';

export interface RecruitingContext extends AccountsContext {
  /** Where the recruiting team reads requests (RECRUITING_TEAM_EMAIL). */
  recruitingTeamEmail: string;
}

export const RECRUITING_NOTICE_TEMPLATE = 'recruiting-request';

/**
 * An agent asks the recruiting team for help (dashboard, Insurance Recruiting): the request is
 * stored with the agent's name and agency, and the team's e-mail goes into the outbox in the
 * same transaction, so a request is never stored without its e-mail nor e-mailed twice.
 */
export async function submitRecruitingRequest(
  ctx: RecruitingContext,
  agent: CurrentUser,
  request: RecruitingRequest,
  origin: RequestOrigin,
): Promise<RecruitingRequestResponse> {
  return withTransaction(ctx.pool, async (db) => {
    const stored = await insertRecruitingRequest(db, {
      userId: agent.id,
      firstName: agent.firstName,
      lastName: agent.lastName,
      agencyName: agent.agencyName,
      email: request.email,
      phone: request.phone,
      needs: request.needs,
      agentsNeeded: request.agentsNeeded,
    });
    await enqueue(db, {
      type: 'email.send',
      source: SOURCE,
      correlationId: origin.correlationId,
      data: {
        to: ctx.recruitingTeamEmail,
        subject: oneLine(
          `Recruiting request: ${stored.agentsNeeded} ${stored.agentsNeeded === 1 ? 'agent' : 'agents'} for ${stored.agencyName || agent.username}`,
        ),
        template: RECRUITING_NOTICE_TEMPLATE,
        text: noticeText(stored, agent.username),
      },
    });
    ctx.log.info({ requestId: stored.id, userId: agent.id }, 'recruiting request received');
    return { id: stored.id, message: 'Your request was sent to our recruiting team.' };
  });
}

/** Subjects are one line: a name typed with a line break cannot add e-mail headers. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').slice(0, 200);
}

function noticeText(r: RecruitingRequestRecord, username: string): string {
  const name = `${r.firstName} ${r.lastName}`.trim() || username;
  return [
    `${name} asked for help recruiting agents from the dashboard. Please get in touch within one business day.`,
    '',
    `Agents needed: ${r.agentsNeeded}`,
    'What the agency needs:',
    r.needs,
    '',
    `Name: ${name}`,
    `Agency: ${r.agencyName || 'not given'}`,
    `Username: ${username}`,
    `E-mail: ${r.email}`,
    `Phone: ${r.phone}`,
    `Request: ${r.id}`,
    `Received: ${r.createdAt.toISOString()}`,
  ].join('\n');
}
