import type { SurveyResponseRecord } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform';

/* Survey responses as the admin and other services read them (spec §3). */

/**
 * What the user's latest survey says about delivering transfers (issue 23: the transfers service
 * suggests delivery settings from it): working states, time zone, and transfers or calls per day.
 */
export async function findLatestSurveyDeliveryAnswers(
  db: Queryable,
  userId: string,
): Promise<{ workingStates: string; timezone: string | null; transfersPerDay: number | null; callsPerDay: number | null } | null> {
  const { rows } = await db.query<{ workingStates: string; timezone: string | null; transfersPerDay: number | null; callsPerDay: number | null }>(
    `SELECT working_states AS "workingStates", timezone, transfers_per_day AS "transfersPerDay", calls_per_day AS "callsPerDay"
       FROM survey_responses WHERE user_id = $1
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    [userId],
  );
  return rows[0] ?? null;
}

/** Every answer of a response (both steps), as spec §3 "Test-campaign response" names them. */
const RESPONSE_COLUMNS = `id, first_name AS "firstName", last_name AS "lastName", agency_name AS "agencyName", role, phone,
            email, username, lead_type AS "leadType", working_states AS "workingStates",
            total_transfers AS "totalTransfers", transfers_per_day AS "transfersPerDay",
            calls_per_day AS "callsPerDay", transfer_hours AS "transferHours", timezone,
            total_callbacks AS "totalCallbacks", callback_preference AS "callbackPreference",
            age_range AS "ageRange", total_price AS "totalPrice", salesperson, created_at AS "createdAt"`;

/** One response with all its answers (issue 22: the customer search's popup shows step 2 too). */
export async function findSurveyResponse(db: Queryable, id: string): Promise<SurveyResponseRecord | null> {
  const { rows } = await db.query<Omit<SurveyResponseRecord, 'createdAt'> & { createdAt: Date }>(`SELECT ${RESPONSE_COLUMNS} FROM survey_responses WHERE id = $1`, [id]);
  const row = rows[0];
  return row ? { ...row, createdAt: row.createdAt.toISOString() } : null;
}

/** A salesperson's responses, newest first (spec §3 "Test-campaign response"). */
export async function listResponsesOfSalesperson(db: Queryable, salespersonId: string): Promise<SurveyResponseRecord[]> {
  const { rows } = await db.query<Omit<SurveyResponseRecord, 'createdAt'> & { createdAt: Date }>(
    `SELECT ${RESPONSE_COLUMNS}
       FROM survey_responses WHERE salesperson_id = $1
      ORDER BY created_at DESC, id DESC`,
    [salespersonId],
  );
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
