import type { SavedSurvey, SurveyFunnelId, SurveySubmission } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform';

/** What is stored of a survey: the answers without the password, and where it came from. */
export interface NewSurveyResponse {
  userId: string;
  funnel: SurveyFunnelId;
  brand: string;
  salesperson: string;
  salespersonId: string | null;
  answers: Omit<SurveySubmission, 'password'>;
  totalPriceCents: number | null;
}

export async function insertSurveyResponse(db: Queryable, response: NewSurveyResponse): Promise<{ id: string; createdAt: Date }> {
  const a = response.answers;
  const { rows } = await db.query<{ id: string; createdAt: Date }>(
    `INSERT INTO survey_responses (
       user_id, funnel, brand, salesperson, salesperson_id,
       first_name, last_name, agency_name, role, phone, email, username,
       lead_type, working_states, total_transfers, transfers_per_day, calls_per_day, transfer_hours,
       timezone, total_callbacks, callback_preference, age_range, total_price)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)
     RETURNING id, created_at AS "createdAt"`,
    [
      response.userId,
      response.funnel,
      response.brand,
      response.salesperson,
      response.salespersonId,
      a.firstName,
      a.lastName,
      a.agencyName,
      a.role,
      a.phone,
      a.email,
      a.username,
      a.leadType,
      a.workingStates,
      a.totalTransfers ?? null,
      a.transfersPerDay ?? null,
      a.callsPerDay ?? null,
      a.transferHours ?? null,
      a.timezone ?? null,
      a.totalCallbacks ?? null,
      a.callbackPreference ?? null,
      a.ageRange ?? null,
      response.totalPriceCents,
    ],
  );
  return rows[0]!;
}

/** The user's most recent survey, in the shape of spec §3 "Saved survey". */
export async function findLatestSurveyOfUser(db: Queryable, userId: string): Promise<SavedSurvey | null> {
  const { rows } = await db.query<Omit<SavedSurvey, 'createdAt'> & { createdAt: Date }>(
    `SELECT lead_type AS "leadType", total_transfers AS "totalTransfers", transfers_per_day AS "transfersPerDay",
            calls_per_day AS "callsPerDay", transfer_hours AS "transferHours", working_states AS "workingStates",
            created_at AS "createdAt"
       FROM survey_responses WHERE user_id = $1
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    [userId],
  );
  const row = rows[0];
  return row ? { ...row, createdAt: row.createdAt.toISOString() } : null;
}

