import { Router, type Request } from 'express';
import { changePasswordBody, liveTransferPriceBody } from '@warmline/contracts';
import { notFound, parseInput } from '@warmline/platform';
import type { AccountsContext } from '../domain/context';
import {
  changeUserPassword,
  deleteUserAccount,
  listAllUsers,
  setLiveTransferPrice,
  USER_NOT_FOUND,
} from '../domain/user-admin';
import { currentUser, requireAdmin } from '../edge/access';
import { originOf } from '../edge/request-origin';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a uuid names no user: 404, like an unknown one. */
function userIdOf(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !UUID.test(id)) throw notFound(USER_NOT_FOUND);
  return id.toLowerCase();
}

/** Admin user management (spec §7); every route checks the admin flag on the server. */
export function userAdminRoutes(ctx: AccountsContext): Router {
  const router = Router();
  router.use('/api/users', requireAdmin);

  router.get('/api/users', async (_req, res) => {
    res.json(await listAllUsers(ctx));
  });

  router.delete('/api/users/:id', async (req, res) => {
    const userId = userIdOf(req);
    await deleteUserAccount(ctx, { actorId: currentUser(req).id, userId }, originOf(req));
    res.json({ message: 'User deleted' });
  });

  router.post('/api/users/:id/change-password', async (req, res) => {
    const userId = userIdOf(req);
    const { newPassword } = parseInput(changePasswordBody, req.body);
    await changeUserPassword(ctx, {
      actorId: currentUser(req).id,
      actorSessionId: req.sessionID,
      userId,
      newPassword,
    });
    res.json({ message: 'Password changed' });
  });

  router.patch('/api/users/:id/live-transfer-price', async (req, res) => {
    const userId = userIdOf(req);
    const { price } = parseInput(liveTransferPriceBody, req.body);
    res.json(await setLiveTransferPrice(ctx, { actorId: currentUser(req).id, userId, price }, originOf(req)));
  });

  return router;
}
