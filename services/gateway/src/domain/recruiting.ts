import type { RecruitingRequest, RecruitingRequestResponse } from '@warmline/contracts';
import { withTransaction } from '@warmline/platform';
import { enqueue } from '@warmline/platform/bus/outbox';
import { insertRecruitingRequest } from '../db/recruiting-requests';
import type { CurrentUser } from '../edge/sessions';
import { SOURCE, type AccountsContext, type RequestOrigin } from './context';

export interface RecruitingContext extends AccountsContext {
  /** Where the recruiting team reads requests (RECRUITING_TEAM_EMAIL). */
  recruitingTeamEmail: string;
}

/**
 * An agent asks the recruiting team for help (dashboard, Insurance Recruiting): the request is
 * stored with the agent's name and agency, and the command to tell the team goes into the
 * outbox in the same transaction, so a request is never stored without its e-mail nor e-mailed
 * twice. The notifications worker writes the e-mail.
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
      type: 'email.recruiting_request',
      source: SOURCE,
      correlationId: origin.correlationId,
      data: {
        to: ctx.recruitingTeamEmail,
        requestId: stored.id,
        receivedAt: stored.createdAt.toISOString(),
        agentsNeeded: stored.agentsNeeded,
        needs: stored.needs,
        agent: {
          userId: agent.id,
          firstName: stored.firstName,
          lastName: stored.lastName,
          agencyName: stored.agencyName,
          username: agent.username,
          email: stored.email,
          phone: stored.phone,
        },
      },
    });
    ctx.log.info({ requestId: stored.id, userId: agent.id }, 'recruiting request received');
    return { id: stored.id, message: 'Your request was sent to our recruiting team.' };
  });
}
