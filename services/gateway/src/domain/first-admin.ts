import type { Logger, Pool } from '@warmline/platform';
import { anyAdminExists, findUserByUsername, isUniqueViolation } from '../db/users';
import { createAccount } from './users';

export interface FirstAdminSettings {
  username?: string;
  password?: string;
  email?: string;
}

/**
 * The first admin comes from ADMIN_USERNAME / ADMIN_PASSWORD, only while no admin exists;
 * no account is ever hard-coded. An existing non-admin with that username is never promoted,
 * since whoever registered it could then take over the back office.
 */
export async function ensureFirstAdmin(pool: Pool, settings: FirstAdminSettings, log: Logger): Promise<void> {
  if (await anyAdminExists(pool)) return;
  const { username, password } = settings;
  if (!username || !password) {
    log.warn(
      'No admin account exists and ADMIN_USERNAME / ADMIN_PASSWORD are not set: nobody can use the admin pages. ' +
        'Set both and restart the gateway to create the first admin.',
    );
    return;
  }
  if (await findUserByUsername(pool, username)) {
    log.error({ username }, 'ADMIN_USERNAME names an existing non-admin account; no admin was created. Choose another ADMIN_USERNAME.');
    return;
  }
  const email = settings.email ?? `${username.toLowerCase()}@warmline.local`;
  try {
    await createAccount(pool, { username, email, password, firstName: 'Admin', isAdmin: true });
    log.info({ username }, 'created the first admin from ADMIN_USERNAME');
  } catch (err) {
    // Another gateway instance starting at the same moment created it first.
    if (!isUniqueViolation(err)) throw err;
    // Another gateway instance starting at the same moment created it first, or the e-mail
    // belongs to someone else.
    if (!(await anyAdminExists(pool))) {
      log.error({ email }, 'The first admin could not be created: its e-mail is used by another account. Set ADMIN_EMAIL.');
    }
  }
}
