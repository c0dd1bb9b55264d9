import type { Queryable } from '@warmline/platform';

export interface TwoFactorRecord {
  userId: string;
  secretEncrypted: string;
  confirmedAt: Date | null;
  lastUsedStep: number | null;
}

export async function findTwoFactor(db: Queryable, userId: string): Promise<TwoFactorRecord | null> {
  const { rows } = await db.query<TwoFactorRecord>(
    `SELECT user_id AS "userId", secret_encrypted AS "secretEncrypted", confirmed_at AS "confirmedAt",
       last_used_step AS "lastUsedStep"
     FROM two_factor_secrets WHERE user_id = $1`,
    [userId],
  );
  return rows[0] ?? null;
}

/** A new pending enrolment with its recovery codes, replacing any earlier one of the user. */
export async function replaceTwoFactor(
  db: Queryable,
  input: { userId: string; secretEncrypted: string; recoveryCodeHashes: string[] },
): Promise<void> {
  await db.query('DELETE FROM two_factor_recovery_codes WHERE user_id = $1', [input.userId]);
  await db.query(
    `INSERT INTO two_factor_secrets (user_id, secret_encrypted) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret_encrypted = EXCLUDED.secret_encrypted,
       confirmed_at = NULL, last_used_step = NULL, created_at = now()`,
    [input.userId, input.secretEncrypted],
  );
  await db.query(
    'INSERT INTO two_factor_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])',
    [input.userId, input.recoveryCodeHashes],
  );
}

/**
 * Records that the code of `step` was used, only if no later or equal step was: true when
 * this call won (two requests with one code cannot both pass). With `confirm`, also marks
 * the enrolment confirmed.
 */
export async function useTotpStep(db: Queryable, userId: string, step: number, options: { confirm?: boolean } = {}): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE two_factor_secrets SET last_used_step = $2${options.confirm ? ', confirmed_at = now()' : ''}
     WHERE user_id = $1 AND (last_used_step IS NULL OR last_used_step < $2)`,
    [userId, step],
  );
  return (rowCount ?? 0) > 0;
}

/** Uses up one recovery code: true when it existed and had not been used. */
export async function useRecoveryCode(db: Queryable, userId: string, codeHash: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE two_factor_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL',
    [userId, codeHash],
  );
  return (rowCount ?? 0) > 0;
}

export async function countUnusedRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM two_factor_recovery_codes WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  );
  return rows[0]?.n ?? 0;
}

export async function deleteTwoFactor(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM two_factor_recovery_codes WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM two_factor_secrets WHERE user_id = $1', [userId]);
}

/** Which of `userIds` have a second factor: 'on' once confirmed, 'pending' while enrolling; absent: none. */
export async function twoFactorStates(db: Queryable, userIds: string[]): Promise<Map<string, 'on' | 'pending'>> {
  const { rows } = await db.query<{ userId: string; confirmed: boolean }>(
    'SELECT user_id AS "userId", confirmed_at IS NOT NULL AS confirmed FROM two_factor_secrets WHERE user_id = ANY($1::uuid[])',
    [userIds],
  );
  return new Map(rows.map((r) => [r.userId, r.confirmed ? 'on' : 'pending']));
}
