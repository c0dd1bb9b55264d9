import { randomUUID } from 'node:crypto';
import { CALLING_HOURS, US_STATE_CODES, WEEKDAYS, type AgentTimeZone } from '@warmline/contracts';
import { createPool } from '@warmline/platform/db/index';
import { TRANSFERS_SCHEMA } from '@warmline/transfers/service';
import { seedTransferAgent } from '@warmline/transfers/demo-transfers';

/**
 * Live transfers under chaos (issue 23): agents the vendor's load can route to, whatever the hour
 * (every state, all day every day, a cap and a balance the run will not exhaust), beside the demo
 * agent the seed gives a Premium package. The vendor key is the seed's demo key, which the seed
 * writes to ingestion and to the transfers service's mirror.
 */

const ZONES: AgentTimeZone[] = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'];

/** Agents with settings and balances, straight into the transfers schema (as the seed does). */
export async function setUpTransferAgents(databaseUrl: string, runId: string, count: number): Promise<string[]> {
  const pool = createPool(databaseUrl, TRANSFERS_SCHEMA, 2);
  try {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const userId = randomUUID();
      await seedTransferAgent(pool, {
        userId,
        displayName: `Chaos Agent ${i + 1}`,
        transferPhone: `512555${String(1000 + i).padStart(4, '0')}`,
        states: US_STATE_CODES,
        timeZone: ZONES[i % ZONES.length]!,
        hours: WEEKDAYS.map((day) => ({ day, from: '00:00', to: '24:00' })),
        dailyCap: 1000,
        atOnce: 3,
        credit: { source: 'adjustment', causeId: `chaos-${runId}-${i}`, reason: `Chaos run ${runId}: starting balance`, transfers: 500, unitCents: 3700 },
      });
      ids.push(userId);
    }
    return ids;
  } finally {
    await pool.end();
  }
}

/** One state per US zone, with an area code of it, so a prospect can be placed in any zone. */
const PROSPECT_PLACES = [
  { state: 'NY', areaCode: '212', zone: 'America/New_York' },
  { state: 'TX', areaCode: '512', zone: 'America/Chicago' },
  { state: 'CO', areaCode: '303', zone: 'America/Denver' },
  { state: 'CA', areaCode: '415', zone: 'America/Los_Angeles' },
  { state: 'AK', areaCode: '907', zone: 'America/Anchorage' },
  { state: 'HI', areaCode: '808', zone: 'Pacific/Honolulu' },
] as const;

const localHhmm = (at: Date, zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(at);

/**
 * The places where it is now inside the prospect's calling hours, a quarter of an hour clear of
 * their end (a route must not straddle it); empty for the few hours a day when it is night in
 * every US zone, and then every route is answered 'outside_calling_hours', which is checked too.
 */
export function callablePlaces(at: Date): Array<{ state: string; areaCode: string }> {
  const lastStart = `${String(Number(CALLING_HOURS.to.slice(0, 2)) - 1)}:45`;
  return PROSPECT_PLACES.filter((p) => {
    const now = localHhmm(at, p.zone);
    return now >= CALLING_HOURS.from && now <= lastStart;
  });
}
