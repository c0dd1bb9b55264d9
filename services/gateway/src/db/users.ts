import type { Queryable } from '@warmline/platform';
import type { UserRole } from '@warmline/contracts';
import { containsPattern } from '@warmline/platform/db/sql-conditions';

/** A user as stored, password hash included: never leaves the gateway (see toPublicUser). */
export interface UserRecord {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  agencyName: string;
  role: UserRole;
  isAdmin: boolean;
  /** numeric(10,2) read as text, e.g. '35.00'. */
  liveTransferPrice: string;
  passwordHash: string;
  createdAt: Date;
}

export interface NewUser {
  username: string;
  email: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  agencyName?: string;
  role?: UserRole;
  isAdmin?: boolean;
  passwordHash: string;
}

const COLUMNS = `id, username, email, first_name AS "firstName", last_name AS "lastName", phone,
  agency_name AS "agencyName", role, is_admin AS "isAdmin",
  live_transfer_price::text AS "liveTransferPrice", password_hash AS "passwordHash",
  created_at AS "createdAt"`;

export async function findUserById(db: Queryable, id: string): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE id = $1 AND deleted_at IS NULL`, [id]);
  return rows[0] ?? null;
}

export async function findUserByUsername(db: Queryable, username: string): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(
    `SELECT ${COLUMNS} FROM users WHERE lower(username) = lower($1) AND deleted_at IS NULL`,
    [username],
  );
  return rows[0] ?? null;
}

/**
 * The live user a login names, by username or e-mail address (any case). A username that
 * happens to equal someone's e-mail address is the username's: it is matched first.
 */
export async function findUserByUsernameOrEmail(db: Queryable, text: string): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(
    `SELECT ${COLUMNS} FROM users
      WHERE (lower(username) = lower($1) OR lower(email) = lower($1)) AND deleted_at IS NULL
      ORDER BY lower(username) = lower($1) DESC
      LIMIT 1`,
    [text],
  );
  return rows[0] ?? null;
}

/**
 * Marks a completed sign-in now; whether it is the user's first (no sign-in recorded before).
 * One statement, so two sign-ins at once cannot both be the first.
 */
export async function recordSignIn(db: Queryable, id: string): Promise<{ firstLogin: boolean }> {
  const { rows } = await db.query<{ firstLogin: boolean }>(
    `UPDATE users AS u SET last_login_at = now()
       FROM (SELECT id, last_login_at FROM users WHERE id = $1 FOR UPDATE) AS before
      WHERE u.id = before.id
      RETURNING before.last_login_at IS NULL AS "firstLogin"`,
    [id],
  );
  return { firstLogin: rows[0]?.firstLogin ?? false };
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(
    `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1) AND deleted_at IS NULL`,
    [email],
  );
  return rows[0] ?? null;
}

/**
 * One page of live users, newest first, whose name, agency, e-mail or username contains `q`
 * (any case), or whose phone digits contain the digits of `q`; and how many match in all.
 */
export async function findUsersPage(
  db: Queryable,
  filter: { q?: string; limit: number; offset: number },
): Promise<{ users: UserRecord[]; total: number }> {
  const text = filter.q?.trim() ?? '';
  const digits = text.replace(/\D/g, '');
  const where = text
    ? `deleted_at IS NULL AND (
         (first_name || ' ' || last_name) ILIKE $1 ESCAPE '\\' OR agency_name ILIKE $1 ESCAPE '\\'
         OR email ILIKE $1 ESCAPE '\\' OR username ILIKE $1 ESCAPE '\\'
         OR ($2 <> '' AND regexp_replace(phone, '\\D', '', 'g') LIKE '%' || $2 || '%'))`
    : 'deleted_at IS NULL';
  const params = text ? [containsPattern(text), digits.length >= 3 ? digits : ''] : [];
  const [{ rows }, count] = await Promise.all([
    db.query<UserRecord>(
      `SELECT ${COLUMNS} FROM users WHERE ${where} ORDER BY created_at DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    ),
    db.query<{ total: string }>(`SELECT count(*) AS total FROM users WHERE ${where}`, params),
  ]);
  return { users: rows, total: Number(count.rows[0]?.total ?? 0) };
}

/**
 * Live users, and those who signed up in the last 7 days: today and the 6 days before it, days
 * counted in `timeZone` (the business's clock, not the server's).
 */
export async function countUsers(db: Queryable, timeZone: string): Promise<{ total: number; lastSevenDays: number }> {
  const { rows } = await db.query<{ total: string; recent: string }>(
    `SELECT count(*) AS total,
            count(*) FILTER (WHERE created_at >= (date_trunc('day', now() AT TIME ZONE $1) - interval '6 days') AT TIME ZONE $1) AS recent
       FROM users WHERE deleted_at IS NULL`,
    [timeZone],
  );
  return { total: Number(rows[0]?.total ?? 0), lastSevenDays: Number(rows[0]?.recent ?? 0) };
}

export async function anyAdminExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>('SELECT EXISTS (SELECT 1 FROM users WHERE is_admin AND deleted_at IS NULL) AS "exists"');
  return rows[0]?.exists ?? false;
}

export async function insertUser(db: Queryable, user: NewUser): Promise<UserRecord> {
  const { rows } = await db.query<UserRecord>(
    `INSERT INTO users (username, email, first_name, last_name, phone, agency_name, role, is_admin, password_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     RETURNING ${COLUMNS}`,
    [
      user.username,
      user.email,
      user.firstName ?? '',
      user.lastName ?? '',
      user.phone ?? '',
      user.agencyName ?? '',
      user.role ?? 'Insurance Agent',
      user.isAdmin ?? false,
      user.passwordHash,
    ],
  );
  return rows[0]!;
}

/**
 * Disables a live account (soft delete): it can no longer log in and leaves every list; its
 * username and e-mail are free again. Its password is made unusable. The record it was, or null.
 */
export async function softDeleteUser(db: Queryable, id: string): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(
    `UPDATE users SET deleted_at = now(), password_hash = '!' WHERE id = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function updatePasswordHash(db: Queryable, id: string, passwordHash: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE users SET password_hash = $2 WHERE id = $1 AND deleted_at IS NULL', [id, passwordHash]);
  return (rowCount ?? 0) > 0;
}

export async function updateLiveTransferPrice(db: Queryable, id: string, price: string): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(
    `UPDATE users SET live_transfer_price = $2 WHERE id = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
    [id, price],
  );
  return rows[0] ?? null;
}

/** Postgres' unique_violation, e.g. a username or e-mail taken by a concurrent insert. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}
