import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { US_STATE_CODES, type TransferSettings } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';
import { markAgentDeleted } from '../src/db/credits';
import { lookAndLock, type RoutingAsk } from '../src/db/routing';
import { saveAgentSettings, setAgentPaused } from '../src/db/settings';
import { ALL_WEEK, prospect, startTransfersFixture, type TransfersFixture } from './transfers-fixture';

/**
 * The candidates look reads agent_rotation (docs/adr/0056): a row per routable agent and state,
 * kept by a trigger on agents. It must hold exactly what agents says after every kind of write,
 * and hand the state's agents over in the rotation's order without reading or sorting the rest.
 */
let f: TransfersFixture;
let key: string;

beforeAll(async () => {
  f = await startTransfersFixture();
  key = (await f.vendorKey()).key;
}, 60_000);
afterAll(async () => f?.cleanup());
beforeEach(async () => {
  await f.pool.query('UPDATE agents SET deleted_at = now() WHERE deleted_at IS NULL');
});

/** The rows agent_rotation should hold, from agents itself, less the rows it holds: both ways, none expected. */
async function drift(): Promise<unknown[]> {
  const { rows } = await f.pool.query(
    `WITH truth AS (
       SELECT DISTINCT s AS state, a.user_id AS agent_id, a.last_routed_at FROM agents a, unnest(a.states) s
        WHERE a.balance > 0 AND NOT a.paused AND a.deleted_at IS NULL AND a.transfer_phone IS NOT NULL AND a.time_zone IS NOT NULL)
     (SELECT 'missing' AS drift, * FROM truth EXCEPT SELECT 'missing', state, agent_id, last_routed_at FROM agent_rotation)
     UNION ALL
     (SELECT 'extra', state, agent_id, last_routed_at FROM agent_rotation EXCEPT SELECT 'extra', * FROM truth)`,
  );
  return rows;
}

async function rotationOf(agentId: string): Promise<Array<{ state: string; last_routed_at: Date | null }>> {
  const { rows } = await f.pool.query<{ state: string; last_routed_at: Date | null }>(
    'SELECT state, last_routed_at FROM agent_rotation WHERE agent_id = $1 ORDER BY state',
    [agentId],
  );
  return rows;
}

const ask = (state = 'TX'): RoutingAsk => ({ now: f.now(), state, phone: '5125550100', repeatSince: new Date(f.now().getTime() - 30 * 86_400_000) });

/** The look's order as routing had it before agent_rotation: read from agents and sorted. */
async function rotationFromAgents(state: string): Promise<string[]> {
  const { rows } = await f.pool.query<{ user_id: string }>(
    `SELECT user_id FROM agents
      WHERE balance > 0 AND NOT paused AND deleted_at IS NULL AND states @> ARRAY[$1::text] AND transfer_phone IS NOT NULL AND time_zone IS NOT NULL
      ORDER BY last_routed_at ASC NULLS FIRST, user_id`,
    [state],
  );
  return rows.map((r) => r.user_id);
}

describe('agent_rotation follows every write to an agent', () => {
  it('settings, pause, phone, balance (credit, charge to zero), routing and deletion each leave it equal to agents', async () => {
    const agent = await f.agent({ states: ['TX', 'OK'], atOnce: 2 });
    // No balance yet: not routable, no rows.
    expect(await rotationOf(agent)).toEqual([]);

    await f.credit(agent, 2);
    expect(await rotationOf(agent)).toEqual([
      { state: 'OK', last_routed_at: null },
      { state: 'TX', last_routed_at: null },
    ]);
    expect(await drift()).toEqual([]);

    // New states (one named twice) through the settings' own write.
    const settings: TransferSettings = { transferPhone: '5125550143', states: ['FL', 'TX', 'TX'], timeZone: 'America/Chicago', hours: ALL_WEEK, dailyCap: 10, atOnce: 2, paused: false };
    await saveAgentSettings(f.pool, agent, settings, null, f.now());
    expect((await rotationOf(agent)).map((r) => r.state)).toEqual(['FL', 'TX']);
    expect(await drift()).toEqual([]);

    await setAgentPaused(f.pool, agent, true, f.now());
    expect(await rotationOf(agent)).toEqual([]);
    await setAgentPaused(f.pool, agent, false, f.now());
    expect((await rotationOf(agent)).map((r) => r.state)).toEqual(['FL', 'TX']);

    await f.pool.query('UPDATE agents SET transfer_phone = NULL WHERE user_id = $1', [agent]);
    expect(await rotationOf(agent)).toEqual([]);
    await f.pool.query("UPDATE agents SET transfer_phone = '5125550143' WHERE user_id = $1", [agent]);
    expect(await drift()).toEqual([]);

    // Routed twice: the rotation clock moves in every state's row; both charged: a balance of 0 leaves none.
    const first = await f.route(key, prospect());
    expect(first.body).toMatchObject({ routed: true });
    expect(await rotationOf(agent)).toEqual([
      { state: 'FL', last_routed_at: f.now() },
      { state: 'TX', last_routed_at: f.now() },
    ]);
    f.setNow(new Date(f.now().getTime() + 1000));
    const second = await f.route(key, prospect());
    expect(second.body).toMatchObject({ routed: true });
    for (const t of [first, second]) {
      expect((await f.outcome(key, String(t.body.transfer_id), { connected: true, duration_seconds: 200 })).status).toBe(200);
    }
    expect(await f.balance(agent)).toBe(0);
    expect(await rotationOf(agent)).toEqual([]);
    expect(await drift()).toEqual([]);

    // Credited again: back, with the clock of the last transfer (a second after the first).
    await f.credit(agent, 1);
    expect(await rotationOf(agent)).toEqual([
      { state: 'FL', last_routed_at: f.now() },
      { state: 'TX', last_routed_at: f.now() },
    ]);

    await markAgentDeleted(f.pool, agent, f.now());
    expect(await rotationOf(agent)).toEqual([]);
    expect(await drift()).toEqual([]);
  });
});

describe('the candidates look', () => {
  it('gives the state’s routable agents in the rotation order agents has: never routed first, then the longest waiting, ties by id', async () => {
    const tx: string[] = [];
    for (let i = 0; i < 12; i++) {
      const agent = await f.agent({ states: i % 2 === 0 ? ['TX'] : ['OK', 'TX'], atOnce: 5 });
      await f.credit(agent, 5);
      tx.push(agent);
    }
    // Three never routed, four at the same instant, five apart; others who must not appear.
    const at = (minutes: number) => new Date(f.now().getTime() - minutes * 60_000);
    const clocks = [null, null, null, at(30), at(30), at(30), at(30), at(50), at(10), at(40), at(20), at(5)];
    for (const [i, clock] of clocks.entries()) await f.pool.query('UPDATE agents SET last_routed_at = $2 WHERE user_id = $1', [tx[i], clock]);
    const paused = await f.agent({ states: ['TX'], paused: true });
    await f.credit(paused, 5);
    await f.agent({ states: ['TX'] });
    const oklahoman = await f.agent({ states: ['OK'] });
    await f.credit(oklahoman, 5);

    const expected = await rotationFromAgents('TX');
    expect(expected).toHaveLength(12);
    expect(new Set(expected)).toEqual(new Set(tx));
    expect((await lookAndLock(f.pool, ask(), 20, [])).candidates).toEqual(expected);
    expect((await lookAndLock(f.pool, ask(), 5, [])).candidates).toEqual(expected.slice(0, 5));
    expect((await lookAndLock(f.pool, ask(), 20, expected.slice(0, 2))).candidates).toEqual(expected.slice(2));

    // Five routes go to the first five in that order, each then last in line.
    const routedTo: string[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await f.route(key, prospect());
      const { rows } = await f.pool.query<{ agent_id: string }>('SELECT agent_id FROM transfers WHERE id = $1', [answer.body.transfer_id]);
      routedTo.push(rows[0]!.agent_id);
      f.setNow(new Date(f.now().getTime() + 1000));
    }
    expect(routedTo).toEqual(expected.slice(0, 5));
    const after = await rotationFromAgents('TX');
    expect(after).toEqual([...expected.slice(5), ...expected.slice(0, 5)]);
    expect((await lookAndLock(f.pool, ask(), 20, [])).candidates).toEqual(after);
    expect((await lookAndLock(f.pool, ask('OK'), 20, [])).candidates).toEqual(await rotationFromAgents('OK'));
    expect(await drift()).toEqual([]);
  });

  it('reads the state’s agents by the rotation index in order and stops at its limit, sorting nothing (2,000 agents, both plans)', async () => {
    // As the bench seeds them: 8 of the states each, every hour, a balance.
    await f.pool.query(
      `INSERT INTO agents (user_id, display_name, transfer_phone, states, time_zone, hours, daily_cap, at_once)
       SELECT gen_random_uuid(), 'Agent ' || i, '512' || lpad((3000000 + i)::text, 7, '0'),
              ARRAY(SELECT ($1::text[])[1 + ((i * 7 + k * 13) % array_length($1::text[], 1))] FROM generate_series(0, 7) k),
              'America/Chicago', $2::jsonb, 1000, 2
         FROM generate_series(1, 2000) i`,
      [US_STATE_CODES, JSON.stringify(ALL_WEEK)],
    );
    await f.pool.query('UPDATE agents SET balance = 50, last_routed_at = now() - random() * interval \'1 hour\' WHERE deleted_at IS NULL AND balance = 0');
    await f.pool.query('ANALYZE agents, agent_rotation');
    expect(await drift()).toEqual([]);
    const state = 'TX';
    const inState = (await rotationFromAgents(state)).length;
    expect(inState).toBeGreaterThan(100);

    // The look's statement as routing sends it, to EXPLAIN.
    const seen: Array<{ text: string; values: unknown[] }> = [];
    const capture = { query: async (q: { text: string; values: unknown[] }) => (seen.push(q), { rows: [] }) } as unknown as Queryable;
    await lookAndLock(capture, ask(state), 20, []);
    const { text, values } = seen[0]!;
    const client = await f.pool.connect();
    try {
      const plans: PlanNode[] = [];
      // A custom plan (the statement's first executions) and the generic one (later ones).
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await client.query('BEGIN');
        await client.query(`SET LOCAL plan_cache_mode = ${mode}`);
        await client.query(`PREPARE look (timestamptz, text, text, timestamptz, bigint, uuid[]) AS ${text}`);
        // EXECUTE takes no bind parameters: the same values as literals.
        const literals = values.map((v) => client.escapeLiteral(v instanceof Date ? v.toISOString() : Array.isArray(v) ? `{${v.join(',')}}` : String(v)));
        const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE look (${literals.join(', ')})`);
        await client.query('DEALLOCATE look');
        await client.query('ROLLBACK');
        plans.push(rows[0]!['QUERY PLAN'][0]!.Plan);
      }
      for (const plan of plans) {
        const nodes = flatten(plan);
        const rotation = nodes.filter((n) => n['Relation Name'] === 'agent_rotation');
        expect(rotation.map((n) => [n['Node Type'], n['Index Name']])).toEqual([[expect.stringMatching(/^Index (Only )?Scan$/), 'agent_rotation_order']]);
        expect(rotation[0]!['Actual Rows']).toBeLessThanOrEqual(20);
        // The only sort left is the lock's over its 20 candidates.
        expect(nodes.filter((n) => n['Node Type'] === 'Sort').map((n) => n['Sort Key'])).toEqual([[expect.stringContaining('array_position')]]);
        expect(nodes.some((n) => n['Relation Name'] === 'agents' && n['Node Type'] !== 'Index Scan' && n['Node Type'] !== 'Bitmap Heap Scan')).toBe(false);
      }
    } finally {
      client.release();
    }
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Sort Key'?: string[];
  Plans?: PlanNode[];
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}
