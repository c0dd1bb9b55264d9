import type { HoursRange, TransferSettings } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/** An agent's delivery settings as stored on their row (issue 23 §2). */
export interface AgentSettingsRow {
  userId: string;
  displayName: string;
  transferPhone: string | null;
  states: string[];
  timeZone: string | null;
  hours: HoursRange[];
  dailyCap: number | null;
  atOnce: number;
  paused: boolean;
  settingsSavedAt: Date | null;
  deletedAt: Date | null;
}

const SETTINGS_COLUMNS = `user_id AS "userId", display_name AS "displayName", transfer_phone AS "transferPhone", states,
  time_zone AS "timeZone", hours, daily_cap AS "dailyCap", at_once AS "atOnce", paused, settings_saved_at AS "settingsSavedAt",
  deleted_at AS "deletedAt"`;

export async function findAgentSettings(db: Queryable, agentId: string): Promise<AgentSettingsRow | null> {
  const { rows } = await db.query<AgentSettingsRow>(`SELECT ${SETTINGS_COLUMNS} FROM agents WHERE user_id = $1`, [agentId]);
  return rows[0] ?? null;
}

/** Saves every setting (and the name the vendor is told), making the agent's row if it is new. */
export async function saveAgentSettings(db: Queryable, agentId: string, settings: TransferSettings, displayName: string | null, at: Date): Promise<AgentSettingsRow> {
  const { rows } = await db.query<AgentSettingsRow>(
    `INSERT INTO agents (user_id, display_name, transfer_phone, states, time_zone, hours, daily_cap, at_once, paused, settings_saved_at, updated_at)
     VALUES ($1, COALESCE($2, ''), $3, $4, $5, $6, $7, $8, $9, $10, $10)
     ON CONFLICT (user_id) DO UPDATE SET display_name = COALESCE($2, agents.display_name), transfer_phone = $3, states = $4,
       time_zone = $5, hours = $6, daily_cap = $7, at_once = $8, paused = $9, settings_saved_at = $10, updated_at = $10
     RETURNING ${SETTINGS_COLUMNS}`,
    [agentId, displayName, settings.transferPhone, settings.states, settings.timeZone, JSON.stringify(settings.hours), settings.dailyCap, settings.atOnce, settings.paused, at],
  );
  return rows[0]!;
}

/** Pause / Resume: the next routing decision reads it. */
export async function setAgentPaused(db: Queryable, agentId: string, paused: boolean, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO agents (user_id, paused, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET paused = $2, updated_at = $3`,
    [agentId, paused, at],
  );
}
