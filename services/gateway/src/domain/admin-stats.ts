import type { AdminStats, OrderStats } from '@warmline/contracts';
import type { Logger, Pool } from '@warmline/platform';
import { countUsers } from '../db/users';

/**
 * The four cards of /admin (issue 12). Users are the gateway's; revenue and open transfer
 * orders are the orders service's, asked for in parallel. When orders cannot answer in time the
 * cards still show the user numbers and say the others are unavailable, rather than failing.
 */
export async function adminStats(deps: {
  pool: Pool;
  log: Logger;
  timeZone: string;
  orderStats: () => Promise<OrderStats>;
}): Promise<AdminStats> {
  const [users, orders] = await Promise.all([
    countUsers(deps.pool, deps.timeZone),
    deps.orderStats().catch((err: unknown) => {
      deps.log.warn({ err }, 'the orders service did not give its admin numbers; the cards show them as unavailable');
      return null;
    }),
  ]);
  return {
    totalUsers: users.total,
    newSignUps: users.lastSevenDays,
    revenueThisMonthCents: orders?.revenueThisMonthCents ?? null,
    openTransferOrders: orders?.openTransferOrders ?? null,
  };
}
