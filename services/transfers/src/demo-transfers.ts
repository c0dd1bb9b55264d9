import { createHash } from 'node:crypto';
import { quotePackage, WEEKDAYS, type AgentTimeZone, type HoursRange, type UsStateCode } from '@warmline/contracts';
import { withTransaction, type Pool } from '@warmline/platform/db/index';
import { creditLot, ensureAgent, lockAgent } from './db/ledger';

/**
 * Demo and chaos data for live transfers (issue 23 §9): an agent who can receive transfers now
 * (delivery settings and a balance) and the vendor key the vendor simulator calls with. Written
 * straight into this service's schema; every function here may run again and changes nothing
 * the second time (the credit by its order or cause id, the settings only while never saved, the
 * key by its id). `pool` must use the transfers schema, migrated.
 */

/** The demo agent's Premium package: a paid order's credit, as payment.succeeded would give it. */
const DEMO_PACKAGE = quotePackage({ tier: 'premium', count: 100 });
/** Fixed, so a re-seed finds the credit it gave before (credit_lots.order_id is unique). */
const DEMO_ORDER_ID = '00000000-0000-4000-8000-00000000d3a0';
/** The demo vendor key's id, in ingestion's vendor_keys and in this service's mirror of it. */
export const DEMO_VENDOR_KEY_ID = '00000000-0000-4000-8000-00000000d3a1';
export const DEMO_VENDOR_NAME = 'Demo voice-AI vendor';

/** A few big states, all week 08:00–20:00 Central Time, 50 a day: the simulator keeps them busy. */
export const DEMO_AGENT_STATES: readonly UsStateCode[] = ['FL', 'GA', 'IL', 'TX'];
const DEMO_SETTINGS = {
  transferPhone: '5125550143',
  timeZone: 'America/Chicago' as AgentTimeZone,
  hours: WEEKDAYS.map((day): HoursRange => ({ day, from: '08:00', to: '20:00' })),
  dailyCap: 50,
  atOnce: 1,
};

export interface TransferAgentSeed {
  userId: string;
  /** What the vendor is told as agent_name. */
  displayName: string;
  transferPhone: string;
  states: readonly UsStateCode[];
  timeZone: AgentTimeZone;
  hours: readonly HoursRange[];
  dailyCap: number;
  atOnce: number;
  /** The transfers the agent starts with: a paid order, or an adjustment with its reason. */
  credit:
    | { source: 'order'; orderId: string; description: string; transfers: number; unitCents: number }
    | { source: 'adjustment'; causeId: string; reason: string; transfers: number; unitCents: number };
}

export interface TransferAgentSeedOutcome {
  /** False when this credit was given before. */
  credited: boolean;
  /** 'kept' when the agent has saved settings already (theirs win over the seed's). */
  settings: 'written' | 'kept';
  balance: number;
}

/** The demo agent (the gateway's demo.agent): a paid Premium package and settings that route now and then. */
export function demoTransferAgent(userId: string, displayName: string): TransferAgentSeed {
  return {
    userId,
    displayName,
    ...DEMO_SETTINGS,
    states: DEMO_AGENT_STATES,
    credit: {
      source: 'order',
      orderId: DEMO_ORDER_ID,
      description: DEMO_PACKAGE.description,
      transfers: DEMO_PACKAGE.count,
      unitCents: DEMO_PACKAGE.unitPriceCents,
    },
  };
}

/** Gives an agent delivery settings (unless they saved their own) and their starting credit, once. */
export async function seedTransferAgent(pool: Pool, agent: TransferAgentSeed, at: Date = new Date()): Promise<TransferAgentSeedOutcome> {
  return withTransaction(pool, async (db) => {
    await ensureAgent(db, agent.userId);
    await lockAgent(db, agent.userId);
    const { rowCount } = await db.query(
      `UPDATE agents SET display_name = $2, transfer_phone = $3, states = $4, time_zone = $5, hours = $6::jsonb,
              daily_cap = $7, at_once = $8, paused = false, settings_saved_at = $9, updated_at = $9
        WHERE user_id = $1 AND settings_saved_at IS NULL`,
      [agent.userId, agent.displayName, agent.transferPhone, [...agent.states], agent.timeZone, JSON.stringify(agent.hours), agent.dailyCap, agent.atOnce, at],
    );
    const { credit } = agent;
    const lot = await creditLot(db, {
      agentId: agent.userId,
      source: credit.source,
      orderId: credit.source === 'order' ? credit.orderId : null,
      description: credit.source === 'order' ? credit.description : credit.reason,
      unitCents: credit.unitCents,
      paidCents: credit.source === 'order' ? credit.transfers * credit.unitCents : 0,
      transfers: credit.transfers,
      at,
      kind: credit.source === 'order' ? 'order_credit' : 'adjustment',
      cause: credit.source === 'order' ? `Paid order: ${credit.description}` : credit.reason,
      causeId: credit.source === 'order' ? credit.orderId : credit.causeId,
    });
    const locked = await lockAgent(db, agent.userId);
    return { credited: lot !== null, settings: rowCount ? 'written' : 'kept', balance: locked?.balance ?? 0 };
  });
}

/** SHA-256 (hex) of a vendor key's text, as ingestion stores it and the mirror copies it. */
export function vendorKeyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * The demo vendor key in this service's mirror of ingestion's keys (vendor_key.mirror keeps it
 * in step for keys an admin makes; the seed writes both tables itself). A changed key text
 * replaces the old hash; a revoked demo key is live again.
 */
export async function seedVendorKeyMirror(pool: Pool, key: { id: string; name: string; key: string }, at: Date = new Date()): Promise<void> {
  await pool.query(
    `INSERT INTO vendor_keys (id, name, key_hash, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, key_hash = EXCLUDED.key_hash, revoked_at = NULL`,
    [key.id, key.name, vendorKeyHash(key.key), at],
  );
}
