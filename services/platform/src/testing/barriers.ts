import type { Queryable } from '../db/index';
import { waitFor } from './index';

/**
 * Barriers for tests that assert that something did NOT happen (a duplicate was not sold twice,
 * a repeated request was not audited again). Sleeping and then looking passes as well when the
 * handler has simply not run yet; a barrier waits until the consumer has provably handled the
 * messages in question, so the look afterwards means something.
 */

/** The outcomes the bus consumer counts in warmline_consumer_messages_total. */
type ConsumerOutcome = 'processed' | 'duplicate' | 'retried' | 'failed' | 'dead_lettered' | 'waited' | 'refused_publisher';

/** A service's base URL (its /metrics) or a metrics registry in this process (e.g. `bus.metrics.registry`). */
export type MetricsSource = string | { metrics(): Promise<string> };

async function metricsText(source: MetricsSource): Promise<string> {
  if (typeof source !== 'string') return source.metrics();
  const answer = await fetch(`${source}/metrics`);
  if (!answer.ok) throw new Error(`${source}/metrics answered ${answer.status}`);
  return answer.text();
}

/** How many messages the consumer of `queue` has finished so far, by outcome. */
async function consumerOutcomes(source: MetricsSource, queue: string): Promise<Partial<Record<ConsumerOutcome, number>>> {
  const counts: Partial<Record<ConsumerOutcome, number>> = {};
  for (const line of (await metricsText(source)).split('\n')) {
    const sample = /^warmline_consumer_messages_total\{([^}]*)\} (\S+)$/.exec(line);
    if (!sample) continue;
    const labels = Object.fromEntries([...sample[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (labels.queue !== queue) continue;
    counts[labels.outcome as ConsumerOutcome] = Number(sample[2]);
  }
  return counts;
}

export interface ConsumerMark {
  /** Waits until the consumer has finished at least `more` messages of each outcome since the mark. */
  passed(more: Partial<Record<ConsumerOutcome, number>>, options?: { timeoutMs?: number }): Promise<void>;
}

/**
 * Marks where the consumer of `queue` stands now: take it before sending the messages under
 * test, then `passed({ duplicate: 2 })` once they are sent.
 */
export async function consumerMark(source: MetricsSource, queue: string): Promise<ConsumerMark> {
  const before = await consumerOutcomes(source, queue);
  return {
    async passed(more, { timeoutMs = 20_000 } = {}) {
      const wanted = Object.entries(more) as Array<[ConsumerOutcome, number]>;
      await waitFor(
        `${queue} to finish ${wanted.map(([outcome, n]) => `${n} more ${outcome}`).join(', ')}`,
        async () => {
          const now = await consumerOutcomes(source, queue);
          return wanted.every(([outcome, n]) => (now[outcome] ?? 0) - (before[outcome] ?? 0) >= n);
        },
        { timeoutMs },
      );
    },
  };
}

/**
 * Waits until `consumer` (its processed_events, on `consumerDb`) has handled every message of
 * `type` that the publisher's outbox (`outboxDb`) holds now: whatever the publisher had sent by
 * this point has been through the consumer, so a missing effect was never going to come.
 */
export async function outboxConsumed(
  outboxDb: Queryable,
  type: string,
  consumerDb: Queryable,
  consumer: string,
  { timeoutMs = 20_000 } = {},
): Promise<void> {
  const { rows } = await outboxDb.query<{ id: string }>("SELECT envelope->>'id' AS id FROM outbox WHERE routing_key = $1", [type]);
  const ids = rows.map((r) => r.id);
  await waitFor(
    `${consumer} to handle the ${ids.length} ${type} message(s) in the outbox`,
    async () => {
      const { rows: done } = await consumerDb.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1 AND event_id = ANY($2::uuid[])',
        [consumer, ids],
      );
      return done[0]!.n === ids.length;
    },
    { timeoutMs },
  );
}
