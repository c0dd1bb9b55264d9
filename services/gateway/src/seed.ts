import type { Pool } from '@warmline/platform';
import { isValidSalespersonSlug } from '@warmline/contracts';
import { insertSalespersonIfMissing } from './db/salespeople';
import { findUserByUsername, isUniqueViolation, updatePasswordHash } from './db/users';
import { hashPassword, verifyPassword } from './domain/passwords';
import { createAccount, type NewAccount } from './domain/users';

/** A demo login from the environment; whether it is the admin is the seed's choice. */
export type DemoAccount = Omit<NewAccount, 'isAdmin'>;

export type SeedOutcome = 'created' | 'exists';
export type DemoAccountOutcome = 'created' | 'reset' | 'unchanged';

/**
 * Creates the demo admin and demo agent when their usernames are missing. An existing demo
 * account gets the configured password again ('reset'), so the logins `make start` prints
 * always work, even after var/local.env was regenerated. `pool` must use the gateway schema
 * (createPool(url, GATEWAY_SCHEMA)) and the gateway migrations must have run.
 */
export async function seedDemoAccounts(
  pool: Pool,
  accounts: { admin: DemoAccount; agent: DemoAccount },
): Promise<{ admin: DemoAccountOutcome; agent: DemoAccountOutcome }> {
  return {
    admin: await ensureAccount(pool, { firstName: 'Demo', lastName: 'Admin', ...accounts.admin }, true),
    agent: await ensureAccount(pool, { firstName: 'Demo', lastName: 'Agent', agencyName: 'Demo Agency', ...accounts.agent }, false),
  };
}

async function ensureAccount(pool: Pool, account: DemoAccount, isAdmin: boolean): Promise<DemoAccountOutcome> {
  const existing = await findUserByUsername(pool, account.username);
  if (existing) {
    if (existing.isAdmin !== isAdmin) {
      throw new Error(`Cannot seed '${account.username}': an account with that username exists with another role`);
    }
    if (await verifyPassword(existing.passwordHash, account.password)) return 'unchanged';
    await updatePasswordHash(pool, existing.id, await hashPassword(account.password));
    return 'reset';
  }
  try {
    await createAccount(pool, { ...account, isAdmin });
    return 'created';
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new Error(`Cannot seed '${account.username}': the e-mail ${account.email} belongs to another account`);
    }
    throw err;
  }
}

/** The demo salesperson: the referral survey at /john (spec §2 /{name}). */
export const DEMO_SALESPERSON = { slug: 'john', displayName: 'John Smith' } as const;

/**
 * Creates the demo salesperson when the slug is missing; running it again changes nothing.
 * Same pool requirements as seedDemoAccounts.
 */
export async function seedDemoSalespeople(
  pool: Pool,
  salespeople: ReadonlyArray<{ slug: string; displayName: string }> = [DEMO_SALESPERSON],
): Promise<SeedOutcome[]> {
  const outcomes: SeedOutcome[] = [];
  for (const salesperson of salespeople) {
    if (!isValidSalespersonSlug(salesperson.slug)) {
      throw new Error(`Cannot seed salesperson '${salesperson.slug}': a slug is lower-case words joined by '-' and not a route name`);
    }
    outcomes.push((await insertSalespersonIfMissing(pool, salesperson)) ? 'created' : 'exists');
  }
  return outcomes;
}
