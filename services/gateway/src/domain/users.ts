import type { PublicUser } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform';
import { findUserById, insertUser, type NewUser, type UserRecord } from '../db/users';
import { hashPassword } from './passwords';

export type { UserRecord };

/** The only shape in which a user leaves the gateway: no password, no hash. */
export function toPublicUser(user: Omit<UserRecord, 'passwordHash'>): PublicUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    agencyName: user.agencyName,
    role: user.role,
    isAdmin: user.isAdmin,
    liveTransferPrice: Number(user.liveTransferPrice).toFixed(2),
    createdAt: user.createdAt.toISOString(),
  };
}

/** A user to create, with the password itself; createAccount stores only its hash. */
export interface NewAccount extends Omit<NewUser, 'passwordHash'> {
  password: string;
}

/** Creates an account with its password hashed; the caller handles a taken username or e-mail. */
export async function createAccount(db: Queryable, account: NewAccount): Promise<UserRecord> {
  const { password, ...rest } = account;
  return insertUser(db, { ...rest, passwordHash: await hashPassword(password) });
}

/**
 * The account behind a session, a view-as grant or a pending sign-in, or null when it is gone:
 * the edge and the routes ask the account domain, never its tables.
 */
export async function findAccount(db: Queryable, userId: string): Promise<UserRecord | null> {
  return findUserById(db, userId);
}
