import type { Router } from 'express';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { AccountsContext } from '../domain/context';
import {
  changeUserPassword,
  deleteUserAccount,
  listUsersPage,
  resetUserTwoFactor,
  setLiveTransferPrice,
} from '../domain/user-admin';
import { confirmCurrentPassword } from '../domain/own-password';
import { sessionAsker } from '../edge/access';
import { originOf } from '../edge/request-origin';

/**
 * Admin user management (spec §7), mounted from the route manifest: the admin check, the user
 * id (one that is no uuid names no user: 404) and the bodies are checked there.
 */
export function userAdminRoutes(ctx: AccountsContext): Router {
  return (
    manifestRoutes('gateway', sessionAsker)
      // Still an array (spec §7); one page of 50, the total in X-Total-Count.
      .on('GET /api/users', async ({ query, res }) => {
        const { users, total } = await listUsersPage(ctx, query);
        res.setHeader('x-total-count', String(total));
        res.setHeader('cache-control', 'no-store');
        return users;
      })
      .on('DELETE /api/users/{id}', async ({ caller, params, req }) => {
        await deleteUserAccount(ctx, { actor: caller, userId: params.id }, originOf(req));
        return { message: 'User deleted' };
      })
      .on('POST /api/users/{id}/change-password', async ({ caller, params, body, req, correlationId }) => {
        const userId = params.id;
        // Their own password, like the dashboard's form: an admin session left open is not the admin.
        if (userId === caller.userId) await confirmCurrentPassword(ctx, userId, body.currentPassword);
        await changeUserPassword(ctx, { actor: caller, actorSessionId: req.sessionID, userId, newPassword: body.newPassword, correlationId });
        return { message: 'Password changed' };
      })
      .on('POST /api/users/{id}/reset-two-factor', async ({ caller, params, correlationId }) => {
        await resetUserTwoFactor(ctx, { actor: caller, userId: params.id, correlationId });
        return { message: 'Two-factor authentication reset' };
      })
      .on('PATCH /api/users/{id}/live-transfer-price', async ({ caller, params, body, req }) =>
        setLiveTransferPrice(ctx, { actor: caller, userId: params.id, price: body.price }, originOf(req)),
      ).router
  );
}
