import type { UserRole } from '@warmline/contracts';
import type { Pool } from '@warmline/platform';
import { isValidSalespersonSlug } from '@warmline/contracts';
import { insertSalespersonIfMissing } from './db/salespeople';
import { findUserByUsername, isUniqueViolation } from './db/users';
import { createAccount } from './domain/users';

export interface DemoAccount {
  username: string;
  password: string;
  email: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  agencyName?: string;
  role?: UserRole;
}

export type SeedOutcome = 'created' | 'exists';

/**
 * Creates the demo admin and demo agent when their usernames are missing; running it again
 * changes nothing (an existing account keeps its password). `pool` must use the gateway
 * schema (createPool(url, GATEWAY_SCHEMA)) and the gateway migrations must have run.
 */
export async function seedDemoAccounts(
  pool: Pool,
  accounts: { admin: DemoAccount; agent: DemoAccount },
): Promise<{ admin: SeedOutcome; agent: SeedOutcome }> {
  return {
    admin: await ensureAccount(pool, { firstName: 'Demo', lastName: 'Admin', ...accounts.admin }, true),
    agent: await ensureAccount(pool, { firstName: 'Demo', lastName: 'Agent', agencyName: 'Demo Agency', ...accounts.agent }, false),
  };
}

async function ensureAccount(pool: Pool, account: DemoAccount, isAdmin: boolean): Promise<SeedOutcome> {
  if (await findUserByUsername(pool, account.username)) return 'exists';
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
