import type { Queryable } from '@warmline/platform';

export async function insertResetToken(
  db: Queryable,
  token: { tokenHash: string; userId: string; expiresAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO password_reset_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)',
    [token.tokenHash, token.userId, token.expiresAt],
  );
}

/**
 * The user a token may still reset (not used, not expired), or null. With `lock`, the row is
 * locked until the transaction ends so two concurrent resets cannot both use one token.
 */
export async function findUsableResetToken(
  db: Queryable,
  tokenHash: string,
  options: { lock?: boolean } = {},
): Promise<{ userId: string } | null> {
  const { rows } = await db.query<{ userId: string }>(
    `SELECT user_id AS "userId" FROM password_reset_tokens
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
     ${options.lock ? 'FOR UPDATE' : ''}`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function markResetTokenUsed(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('UPDATE password_reset_tokens SET used_at = now() WHERE token_hash = $1', [tokenHash]);
}

/** Once a reset succeeds, every other link sent to that user stops working. */
export async function deleteOtherResetTokens(db: Queryable, userId: string, keepTokenHash: string): Promise<void> {
  await db.query('DELETE FROM password_reset_tokens WHERE user_id = $1 AND token_hash <> $2', [userId, keepTokenHash]);
}

/** Every reset link of a user stops working (an admin set a new password, or a reset used one). */
export async function deleteResetTokensOfUser(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM password_reset_tokens WHERE user_id = $1', [userId]);
}
