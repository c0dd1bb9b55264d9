import type { CallbackOpportunityStatus, CallbackSource } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';
import { registryCheckAtSale } from '../../suppressions/db/dnc-registry';

/** Callback opportunities (issue 15), as stored. */
export interface CallbackOpportunityRow {
  id: string;
  callbackId: string | null;
  vendorKeyId: string | null;
  vendorName: string | null;
  source: CallbackSource;
  firstName: string;
  lastName: string;
  phone: string;
  state: string | null;
  priceCents: number;
  transcript: string | null;
  callbackTime: Date | null;
  callOutcome: string | null;
  agentId: string | null;
  leadQuality: string | null;
  interestLevel: string | null;
  status: CallbackOpportunityStatus;
  assignedUserId: string | null;
  assignedAt: Date | null;
  assignedBy: 'automatic' | 'admin' | null;
  contactedAt: Date | null;
  /** Issue 22: when it left the market because its phone is on the suppression list. */
  suppressedAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
}

/** A new opportunity is available, or (suppressedAt given) the record of a call for a suppressed phone. */
export type NewCallbackOpportunity = Omit<CallbackOpportunityRow, 'status' | 'assignedUserId' | 'assignedAt' | 'assignedBy' | 'contactedAt' | 'suppressedAt'> & {
  suppressedAt?: Date | null;
};

const COLUMNS = `id, callback_id AS "callbackId", vendor_key_id AS "vendorKeyId", vendor_name AS "vendorName", source,
  first_name AS "firstName", last_name AS "lastName", phone, state, price_cents AS "priceCents", transcript,
  callback_time AS "callbackTime", call_outcome AS "callOutcome", agent_id AS "agentId", lead_quality AS "leadQuality",
  interest_level AS "interestLevel", status, assigned_user_id AS "assignedUserId", assigned_at AS "assignedAt",
  assigned_by AS "assignedBy", contacted_at AS "contactedAt", suppressed_at AS "suppressedAt", expires_at AS "expiresAt", created_at AS "createdAt"`;

const INSERT_FIELDS = [
  'id', 'callback_id', 'vendor_key_id', 'vendor_name', 'source', 'first_name', 'last_name', 'phone', 'state', 'price_cents',
  'transcript', 'callback_time', 'call_outcome', 'agent_id', 'lead_quality', 'interest_level', 'expires_at', 'created_at',
  'status', 'suppressed_at',
] as const;

function values(o: NewCallbackOpportunity): unknown[] {
  return [
    o.id, o.callbackId, o.vendorKeyId, o.vendorName, o.source, o.firstName, o.lastName, o.phone, o.state, o.priceCents,
    o.transcript, o.callbackTime, o.callOutcome, o.agentId, o.leadQuality, o.interestLevel, o.expiresAt, o.createdAt,
    o.suppressedAt ? 'suppressed' : 'available', o.suppressedAt ?? null,
  ];
}

/**
 * Inserts the opportunities (one statement); those whose callback_id or id already exists are
 * skipped (a redelivered command, a re-run seed). Returns the ones inserted.
 */
export async function insertCallbackOpportunities(db: Queryable, list: NewCallbackOpportunity[]): Promise<CallbackOpportunityRow[]> {
  const inserted: CallbackOpportunityRow[] = [];
  // PostgreSQL takes at most 65,535 parameters a statement: 20 a row, 1,000 rows at a time.
  for (let i = 0; i < list.length; i += 1000) inserted.push(...(await insertChunk(db, list.slice(i, i + 1000))));
  return inserted;
}

async function insertChunk(db: Queryable, list: NewCallbackOpportunity[]): Promise<CallbackOpportunityRow[]> {
  if (list.length === 0) return [];
  const params: unknown[] = [];
  const tuples = list.map((o) => {
    const start = params.length;
    params.push(...values(o));
    return `(${INSERT_FIELDS.map((_, i) => `$${start + i + 1}`).join(', ')})`;
  });
  const { rows } = await db.query<CallbackOpportunityRow>(
    `INSERT INTO callback_opportunities (${INSERT_FIELDS.join(', ')}) VALUES ${tuples.join(', ')}
     ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    params,
  );
  return rows;
}

export async function findCallbackOpportunity(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<CallbackOpportunityRow | null> {
  const { rows } = await db.query<CallbackOpportunityRow>(
    `SELECT ${COLUMNS} FROM callback_opportunities WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

interface CallbackOpportunityFilter {
  status?: CallbackOpportunityStatus;
  /** A 2-letter code, or 'NONE' for the ones waiting for a state. */
  state?: string;
  source?: CallbackSource;
}

/** Newest first, one page, and how many match in all. */
export async function listCallbackOpportunities(
  db: Queryable,
  filter: CallbackOpportunityFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: CallbackOpportunityRow[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.status) where.push(`status = $${params.push(filter.status)}`);
  if (filter.state === 'NONE') where.push('state IS NULL');
  else if (filter.state) where.push(`state = $${params.push(filter.state)}`);
  if (filter.source) where.push(`source = $${params.push(filter.source)}`);
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [{ rows }, counted] = await Promise.all([
    db.query<CallbackOpportunityRow>(
      `SELECT ${COLUMNS} FROM callback_opportunities ${clause}
        ORDER BY created_at DESC, id DESC OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
      [...params, page.offset, page.limit],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM callback_opportunities ${clause}`, params),
  ]);
  return { rows, total: counted.rows[0]?.total ?? 0 };
}

/** Gives a waiting (or any still available) opportunity its state; null when it is not available any more. */
export async function setCallbackState(db: Queryable, id: string, state: string): Promise<CallbackOpportunityRow | null> {
  const { rows } = await db.query<CallbackOpportunityRow>(
    `UPDATE callback_opportunities SET state = $2 WHERE id = $1 AND status = 'available' RETURNING ${COLUMNS}`,
    [id, state],
  );
  return rows[0] ?? null;
}

/**
 * The available opportunities with a state, time left and some agent with a balance in that
 * state, oldest first, locked (one an admin is changing right now is skipped; the admin's change
 * runs the assignment again when it commits).
 */
export async function lockAssignableOpportunities(db: Queryable, now: Date, limit: number): Promise<CallbackOpportunityRow[]> {
  const { rows } = await db.query<CallbackOpportunityRow>(
    `SELECT ${COLUMNS} FROM callback_opportunities
      WHERE status = 'available' AND state IS NOT NULL AND expires_at > $1
        AND EXISTS (SELECT 1 FROM callback_balances b WHERE b.balance > 0 AND callback_opportunities.state = ANY (b.states))
        -- Issue 22: checked again at assignment, whatever let it in.
        AND NOT EXISTS (SELECT 1 FROM lead_suppressions s WHERE s.phone = callback_opportunities.phone)
      ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [now, limit],
  );
  return rows;
}

/** available → assigned; null when it was not available (the caller holds its row lock). */
export async function markAssigned(
  db: Queryable,
  id: string,
  to: { userId: string; at: Date; by: 'automatic' | 'admin' },
): Promise<CallbackOpportunityRow | null> {
  const { rows } = await db.query<CallbackOpportunityRow>(
    `UPDATE callback_opportunities SET status = 'assigned', assigned_user_id = $2, assigned_at = $3, assigned_by = $4,
            ${registryCheckAtSale('callback_opportunities')}
      WHERE id = $1 AND status = 'available' AND state IS NOT NULL RETURNING ${COLUMNS}`,
    [id, to.userId, to.at, to.by],
  );
  return rows[0] ?? null;
}

/** Available ones past their 72 hours become expired; how many. */
export async function expireCallbackOpportunities(db: Queryable, now: Date): Promise<number> {
  const { rowCount } = await db.query(
    "UPDATE callback_opportunities SET status = 'expired' WHERE status = 'available' AND expires_at <= $1",
    [now],
  );
  return rowCount ?? 0;
}

/** An agent's call-backs, the latest delivered first. */
/** A call-back as its agent sees it: with when its phone opted out since (issue 24), or null. */
export interface AgentCallbackRow extends CallbackOpportunityRow {
  optedOutAt: Date | null;
}

const OPTED_OUT_AT = `(SELECT s.created_at FROM lead_suppressions s WHERE s.phone = callback_opportunities.phone) AS "optedOutAt"`;

export async function callbacksOfAgent(db: Queryable, userId: string): Promise<AgentCallbackRow[]> {
  const { rows } = await db.query<AgentCallbackRow>(
    `SELECT ${COLUMNS}, ${OPTED_OUT_AT} FROM callback_opportunities
      WHERE assigned_user_id = $1 AND status IN ('assigned', 'contacted')
      ORDER BY assigned_at DESC, id DESC LIMIT 1000`,
    [userId],
  );
  return rows;
}

/** The agent marks one of their own call-backs contacted; null when it is not theirs. */
export async function markContacted(db: Queryable, id: string, userId: string, at: Date): Promise<AgentCallbackRow | null> {
  const { rows } = await db.query<AgentCallbackRow>(
    `UPDATE callback_opportunities SET status = 'contacted', contacted_at = COALESCE(contacted_at, $3)
      WHERE id = $1 AND assigned_user_id = $2 AND status IN ('assigned', 'contacted') RETURNING ${COLUMNS}, ${OPTED_OUT_AT}`,
    [id, userId, at],
  );
  return rows[0] ?? null;
}

// ------------------------------------------------------------------ issue 22: one prospect, one sale

/**
 * Open: available, or assigned (or contacted) within the last `since`. A phone has at most one;
 * the newest, locked. The caller holds the intake lock (lockCallbackIntake below).
 */
export async function lockOpenOpportunityOfPhone(db: Queryable, phone: string, since: Date): Promise<CallbackOpportunityRow | null> {
  const { rows } = await db.query<CallbackOpportunityRow>(
    `SELECT ${COLUMNS} FROM callback_opportunities
      WHERE phone = $1 AND (status = 'available' OR (status IN ('assigned', 'contacted') AND assigned_at > $2))
      ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
    [phone, since],
  );
  return rows[0] ?? null;
}

/** Which of `phones` have an open opportunity (as lockOpenOpportunityOfPhone). */
export async function phonesWithOpenOpportunity(db: Queryable, phones: string[], since: Date): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const { rows } = await db.query<{ phone: string }>(
    `SELECT DISTINCT phone FROM callback_opportunities
      WHERE phone = ANY ($1::text[]) AND (status = 'available' OR (status IN ('assigned', 'contacted') AND assigned_at > $2))`,
    [[...new Set(phones)], since],
  );
  return new Set(rows.map((r) => r.phone));
}

/**
 * A later call for the phone updates its open opportunity: the newer callback time, transcript
 * and ratings (what the call left blank stays), a state when it had none, and an available one's
 * expiry from the new call.
 */
export async function updateFromLaterCall(
  db: Queryable,
  id: string,
  call: {
    transcript: string | null;
    callbackTime: Date | null;
    callOutcome: string | null;
    agentId: string | null;
    leadQuality: string | null;
    interestLevel: string | null;
    state: string | null;
    expiresAt: Date;
  },
): Promise<CallbackOpportunityRow | null> {
  const { rows } = await db.query<CallbackOpportunityRow>(
    `UPDATE callback_opportunities
        SET transcript = COALESCE($2, transcript), callback_time = COALESCE($3, callback_time),
            call_outcome = COALESCE($4, call_outcome), agent_id = COALESCE($5, agent_id),
            lead_quality = COALESCE($6, lead_quality), interest_level = COALESCE($7, interest_level),
            state = CASE WHEN status = 'available' THEN COALESCE(state, $8) ELSE state END,
            expires_at = CASE WHEN status = 'available' THEN GREATEST(expires_at, $9) ELSE expires_at END
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, call.transcript, call.callbackTime, call.callOutcome, call.agentId, call.leadQuality, call.interestLevel, call.state, call.expiresAt],
  );
  return rows[0] ?? null;
}

/** The phone went on the suppression list: its available opportunities leave the market. How many. */
export async function withdrawOpportunitiesOfPhone(db: Queryable, phone: string, at: Date): Promise<number> {
  const { rowCount } = await db.query(
    "UPDATE callback_opportunities SET status = 'suppressed', suppressed_at = $2 WHERE phone = $1 AND status = 'available'",
    [phone, at],
  );
  return rowCount ?? 0;
}

/** Whether the agent received this phone (assigned to them) since then. */
export async function agentReceivedPhoneSince(db: Queryable, userId: string, phone: string, since: Date): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM callback_opportunities WHERE phone = $1 AND assigned_user_id = $2 AND assigned_at > $3 LIMIT 1',
    [phone, userId, since],
  );
  return rows.length > 0;
}

/**
 * Every path that makes an opportunity (a vendor call, the form, a CSV), an admin's assignment by
 * hand and a suppression take this lock for their transaction, one after another: two calls for
 * one phone cannot both find no open opportunity, and a suppression cannot miss one being made.
 * Taken before the assignment's lock, never after it.
 */
export async function lockCallbackIntake(db: Queryable): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtextextended('catalog:callback-intake', 0))");
}

/** Agents with a call-back of this phone delivered to them (issue 22: told to stop when it opts out), each once. */
export async function agentsWithCallbackOfPhone(db: Queryable, phone: string): Promise<string[]> {
  const { rows } = await db.query<{ agent: string }>(
    "SELECT DISTINCT assigned_user_id AS agent FROM callback_opportunities WHERE phone = $1 AND status IN ('assigned', 'contacted') ORDER BY 1",
    [phone],
  );
  return rows.map((r) => r.agent);
}

/** One agent's delivered call-backs with this phone, in the order delivered. */
export async function callbacksDeliveredWithPhone(db: Queryable, userId: string, phone: string): Promise<CallbackOpportunityRow[]> {
  const { rows } = await db.query<CallbackOpportunityRow>(
    `SELECT ${COLUMNS} FROM callback_opportunities
      WHERE assigned_user_id = $1 AND phone = $2 AND status IN ('assigned', 'contacted')
      ORDER BY assigned_at, id LIMIT 100`,
    [userId, phone],
  );
  return rows;
}

/**
 * The call-back assignment's one lock, for the rest of the caller's transaction: runs happen one
 * after another, each seeing what the ones before committed (docs/adr/0020).
 */
export async function lockForAssignment(db: Queryable): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtextextended('catalog:callback-assignment', 0))");
}
