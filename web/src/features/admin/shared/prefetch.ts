import type { QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { tabQueryClient } from '../../../lib/query-client';
import { authKeys, type CurrentUser } from '../../auth/api';
import { transferOrdersOptions } from '../../transfers/api';
import { adminStatsOptions } from './api';
import { allOrdersFilterFrom, allOrdersOptions } from '../orders/orders-api';
import { auditLogOptions, auditLogViewFrom } from '../audit-log/audit-log-api';
import { usersPageOptions } from '../users/users-api';

/**
 * Issue 22: a back-office page asked its session, then loaded its code, then its data — about a
 * second, one after another. The route calls this as soon as it matches, outside React (whose
 * loading boundaries would hold the requests back): the session and the page's first data are
 * asked at once, into the tab's cache, while the page's code loads. For someone who is not an
 * admin the server answers 401/403 and the guard sends them on: nothing is shown from it.
 */
export function prefetchAdminPage(pathname: string, search: string, client: QueryClient = tabQueryClient()): void {
  const params = new URLSearchParams(search);
  void client.prefetchQuery({
    queryKey: authKeys.currentUser(),
    queryFn: ({ signal }) => apiRequest<CurrentUser>('/api/current-user', { on401: 'returnNull', signal }),
  });
  if (pathname === '/admin-audit-log') {
    const { page, filter } = auditLogViewFrom(params);
    void client.prefetchQuery(auditLogOptions(page, filter));
  } else if (pathname === '/admin-all-orders') {
    void client.prefetchQuery(allOrdersOptions(allOrdersFilterFrom(params)));
  } else if (pathname === '/admin-orders') {
    void client.prefetchQuery(transferOrdersOptions());
  } else if (pathname === '/admin') {
    void client.prefetchQuery(adminStatsOptions());
    if ((params.get('tab') ?? 'user-management') === 'user-management') void client.prefetchQuery(usersPageOptions(params.get('users') ?? '', 1));
  }
}
