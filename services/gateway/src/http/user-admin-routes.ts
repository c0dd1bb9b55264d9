import { Router, type Request } from 'express';
import { changePasswordBody, liveTransferPriceBody, userListQuery } from '@warmline/contracts';
import { notFound, parseInput } from '@warmline/platform';
import type { AdminActor } from '../domain/audit-log';
import type { AccountsContext } from '../domain/context';
import {
  changeUserPassword,
  deleteUserAccount,
  listUsersPage,
  resetUserTwoFactor,
  setLiveTransferPrice,
  USER_NOT_FOUND,
} from '../domain/user-admin';
import { confirmCurrentPassword } from '../domain/own-password';
import { currentUser, requireAdmin } from '../edge/access';
import { originOf } from '../edge/request-origin';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a uuid names no user: 404, like an unknown one. */
function userIdOf(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !UUID.test(id)) throw notFound(USER_NOT_FOUND);
  return id.toLowerCase();
}

/** The admin acting, as the audit log names them. */
function actorOf(req: Request): AdminActor {
  const { id, username } = currentUser(req);
  return { id, username };
}

/** Admin user management (spec §7); every route checks the admin flag on the server. */
export function userAdminRoutes(ctx: AccountsContext): Router {
  const router = Router();
  router.use('/api/users', requireAdmin);

  // Still an array (spec §7); one page of 50, the total in X-Total-Count.
  router.get('/api/users', async (req, res) => {
    const query = parseInput(userListQuery, req.query);
    const { users, total } = await listUsersPage(ctx, query);
    res.setHeader('x-total-count', String(total));
    res.setHeader('cache-control', 'no-store');
    res.json(users);
  });

  router.delete('/api/users/:id', async (req, res) => {
    const userId = userIdOf(req);
    await deleteUserAccount(ctx, { actor: actorOf(req), userId }, originOf(req));
    res.json({ message: 'User deleted' });
  });

  router.post('/api/users/:id/change-password', async (req, res) => {
    const userId = userIdOf(req);
    const { newPassword, currentPassword } = parseInput(changePasswordBody, req.body);
    // Their own password, like the dashboard's form: an admin session left open is not the admin.
    if (userId === currentUser(req).id) await confirmCurrentPassword(ctx, userId, currentPassword);
    await changeUserPassword(ctx, {
      actor: actorOf(req),
      actorSessionId: req.sessionID,
      userId,
      newPassword,
      correlationId: req.id,
    });
    res.json({ message: 'Password changed' });
  });

  router.post('/api/users/:id/reset-two-factor', async (req, res) => {
    const userId = userIdOf(req);
    await resetUserTwoFactor(ctx, { actor: actorOf(req), userId, correlationId: req.id });
    res.json({ message: 'Two-factor authentication reset' });
  });

  router.patch('/api/users/:id/live-transfer-price', async (req, res) => {
    const userId = userIdOf(req);
    const { price } = parseInput(liveTransferPriceBody, req.body);
    res.json(await setLiveTransferPrice(ctx, { actor: actorOf(req), userId, price }, originOf(req)));
  });

  return router;
}
