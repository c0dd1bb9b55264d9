import { CALLBACK_REPEAT_DAYS } from '@warmline/contracts';
import { withSavepoint, type PoolClient } from '@warmline/platform/db/index';
import { enqueue } from '@warmline/platform/bus/index';
import type { Logger } from '@warmline/platform/log';
import type { GatewayClient, UserContact } from '../../clients/gateway-client';
import type { CallbackOpportunityRow } from '../db/callback-opportunities';
import { lockAssignableOpportunities, lockForAssignment, markAssigned } from '../db/callback-opportunities';
import { lockNextAgentFor, takeOne } from '../db/callback-balances';
import { SOURCE } from '../../domain/context';
import { formatPhone } from '../../market/domain/masking';

/** Issue 22: the start of the window in which a phone is one sale (open, and never to the same agent twice). */
export function repeatWindowStart(now: Date): Date {
  return new Date(now.getTime() - CALLBACK_REPEAT_DAYS * 86_400_000);
}

/**
 * Delivering callback opportunities to the agents who paid for call-backs (issue 15,
 * docs/adr/0020). Every run holds one advisory lock for its transaction, so runs happen one
 * after another and each sees what the ones before committed: an opportunity is never given to
 * two agents, a balance never goes below zero, and the agent waiting longest is served first.
 */

interface AssignmentDeps {
  log: Logger;
  clock: () => Date;
  gateway: GatewayClient;
}

const BATCH = 200;

/**
 * Assigns every available opportunity some agent can take, in the caller's transaction (after
 * whatever made one available or credited a balance). A failure (the gateway down) undoes only
 * the assignment: what the caller did stays, and the periodic sweep assigns later.
 */
export async function assignAvailableCallbacks(db: PoolClient, deps: AssignmentDeps, correlationId: string): Promise<number> {
  try {
    return await withSavepoint(db, 'callback_assignment', () => assignWithin(db, deps, correlationId));
  } catch (err) {
    deps.log.warn({ err }, 'assigning call-backs failed; the periodic sweep tries again');
    return 0;
  }
}

async function assignWithin(db: PoolClient, deps: AssignmentDeps, correlationId: string): Promise<number> {
  await lockForAssignment(db);
  const now = deps.clock();
  const contacts = new Map<string, UserContact | null>();
  // Agents whose account is gone: skipped for the rest of this run.
  const gone: string[] = [];
  let assigned = 0;
  for (;;) {
    const batch = await lockAssignableOpportunities(db, now, BATCH);
    let assignedInBatch = 0;
    for (const opportunity of batch) {
      for (;;) {
        const agent = await lockNextAgentFor(db, { state: opportunity.state as string, phone: opportunity.phone }, gone, repeatWindowStart(now));
        if (!agent) break;
        let contact = contacts.get(agent.userId);
        if (contact === undefined) {
          contact = await deps.gateway.userContact(agent.userId, correlationId);
          contacts.set(agent.userId, contact);
        }
        if (!contact) {
          deps.log.warn({ userId: agent.userId }, 'an agent with a call-back balance has no account any more; skipped');
          gone.push(agent.userId);
          continue;
        }
        await deliverCallback(db, { opportunity, agentUserId: agent.userId, contact, by: 'automatic', at: now }, correlationId);
        assignedInBatch += 1;
        break;
      }
    }
    assigned += assignedInBatch;
    // A full batch that gave nobody anything would come back the same: stop there.
    if (batch.length < BATCH || assignedInBatch === 0) break;
  }
  if (assigned > 0) deps.log.info({ assigned }, 'call-backs assigned');
  return assigned;
}

/**
 * Gives one locked, available opportunity to an agent: status assigned, one off their balance
 * (when they have one: an admin may also give one to an agent without), callback.assigned and
 * the agent's e-mail in the same transaction. Null when it was not available after all.
 */
export async function deliverCallback(
  db: PoolClient,
  delivery: { opportunity: CallbackOpportunityRow; agentUserId: string; contact: UserContact; by: 'automatic' | 'admin'; at: Date },
  correlationId: string,
): Promise<{ opportunity: CallbackOpportunityRow; balanceLeft: number } | null> {
  const { agentUserId, contact, by, at } = delivery;
  const opportunity = await markAssigned(db, delivery.opportunity.id, { userId: agentUserId, at, by });
  if (!opportunity || opportunity.state === null) return null;
  const balance = await takeOne(db, agentUserId, at);
  if (!balance && by === 'automatic') throw new Error(`agent ${agentUserId} was chosen without a balance`);
  const balanceLeft = balance?.balance ?? 0;
  await enqueue(db, {
    type: 'callback.assigned',
    source: SOURCE,
    correlationId,
    data: {
      opportunityId: opportunity.id,
      callbackId: opportunity.callbackId,
      agentUserId,
      state: opportunity.state,
      source: opportunity.source,
      priceCents: opportunity.priceCents,
      by,
      balanceLeft,
      assignedAt: at.toISOString(),
    },
  });
  await enqueue(db, {
    type: 'email.callback_assigned',
    source: SOURCE,
    correlationId,
    data: {
      to: contact.email,
      firstName: contact.firstName.slice(0, 200),
      opportunityId: opportunity.id,
      prospectName: `${opportunity.firstName} ${opportunity.lastName}`.slice(0, 201),
      prospectPhone: formatPhone(opportunity.phone),
      state: opportunity.state,
      callbackTime: opportunity.callbackTime?.toISOString() ?? null,
      transcriptExcerpt: opportunity.transcript === null ? null : opportunity.transcript.slice(0, 1000),
      balanceLeft,
      assignedAt: at.toISOString(),
    },
  });
  return { opportunity, balanceLeft };
}
