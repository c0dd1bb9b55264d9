import type { Queryable } from '@warmline/platform';
import type { UserRole } from '@warmline/contracts';

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
  const { rows } = await db.query<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function findUserByUsername(db: Queryable, username: string): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(
    `SELECT ${COLUMNS} FROM users WHERE lower(username) = lower($1)`,
    [username],
  );
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(
    `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`,
    [email],
  );
  return rows[0] ?? null;
}

/** Every user, newest first. */
export async function listUsers(db: Queryable): Promise<UserRecord[]> {
  const { rows } = await db.query<UserRecord>(`SELECT ${COLUMNS} FROM users ORDER BY created_at DESC, id`);
  return rows;
}

export async function anyAdminExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>('SELECT EXISTS (SELECT 1 FROM users WHERE is_admin) AS "exists"');
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

/** True when a row was deleted. Reset tokens go with it (ON DELETE CASCADE). */
export async function deleteUser(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM users WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

export async function updatePasswordHash(db: Queryable, id: string, passwordHash: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
  return (rowCount ?? 0) > 0;
}

export async function updateLiveTransferPrice(db: Queryable, id: string, price: string): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(
    `UPDATE users SET live_transfer_price = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, price],
  );
  return rows[0] ?? null;
}

/** Postgres' unique_violation, e.g. a username or e-mail taken by a concurrent insert. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}
