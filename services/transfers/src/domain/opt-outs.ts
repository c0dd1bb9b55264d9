import { formatUsPhone, type CommandData } from '@warmline/contracts';
import { enqueue } from '@warmline/platform/bus/index';
import type { PoolClient, Queryable } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import type { GatewayClient } from '../clients/gateway-client';
import { applySuppression, suppressedSince } from '../db/mirrors';
import { agentsWithTransfersOf, claimOptOutNotice, transfersOfAgentWithPhone } from '../db/opt-outs';
import { SOURCE } from './context';

/**
 * A phone that opted out, as the transfers service meets it (issue 24): its copy of the list
 * changes (routing refuses the phone from then on), and every agent who received a transfer of
 * it is told to stop calling it. The telling needs the agent's e-mail from the gateway, an HTTP
 * call that may fail: it runs from a command of its own, retried by the bus, so the copy never
 * waits on the gateway; an agent is told once per opt-out whatever is redelivered.
 */

/** Why, when an older copy of the list did not say (the notice must give a reason). */
const UNSTATED_REASON = 'The prospect asked not to be called again';

export async function changeSuppressionCopy(db: Queryable, change: CommandData<'suppression.mirror'>, correlationId: string): Promise<void> {
  const at = new Date(change.at);
  const { applied } = await applySuppression(db, { phone: change.phone, suppressed: change.suppressed, at });
  if (!applied || !change.suppressed) return;
  for (const agentUserId of await agentsWithTransfersOf(db, change.phone)) {
    await enqueue(db, {
      type: 'transfer_opt_out.notify_agent',
      source: SOURCE,
      correlationId,
      data: { agentUserId, phone: change.phone, reason: change.reason ?? UNSTATED_REASON, suppressedAt: change.at },
    });
  }
}

export async function noticeAgentOfOptOut(
  db: PoolClient,
  deps: { gateway: GatewayClient; log: Logger; clock: () => Date },
  notice: CommandData<'transfer_opt_out.notify_agent'>,
  correlationId: string,
): Promise<void> {
  const log = deps.log.child({ agentUserId: notice.agentUserId });
  const suppressedAt = new Date(notice.suppressedAt);
  // Taken off the list since, or suppressed again (that change queues its own notice): nothing to say now.
  const since = await suppressedSince(db, notice.phone);
  if (!since || since.getTime() !== suppressedAt.getTime()) {
    log.info('the phone is no longer suppressed as it was; no opt-out notice');
    return;
  }
  if (!(await claimOptOutNotice(db, { agentId: notice.agentUserId, phone: notice.phone, suppressedAt, at: deps.clock() }))) {
    log.info('the agent was told of this opt-out already');
    return;
  }
  const transfers = await transfersOfAgentWithPhone(db, notice.agentUserId, notice.phone);
  if (transfers.length === 0) return;
  // Asked as the agent: the gateway answers an agent about themself.
  const agent = await deps.gateway.agentProfile(notice.agentUserId, correlationId);
  if (!agent) {
    log.warn('the agent of an opted-out transfer has no account any more; no opt-out notice');
    return;
  }
  await enqueue(db, {
    type: 'email.lead_opt_out',
    source: SOURCE,
    correlationId,
    data: {
      to: agent.email,
      name: agent.firstName,
      leads: [],
      transfers: transfers.map((t) => ({
        transferId: t.id,
        name: `${t.firstName} ${t.lastName}`.slice(0, 201),
        phone: formatUsPhone(t.phone),
        routedAt: t.routedAt.toISOString(),
      })),
      reason: notice.reason,
      at: notice.suppressedAt,
    },
  });
  log.info({ transfers: transfers.length }, 'opt-out notice queued');
}
