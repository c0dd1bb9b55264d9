import { queryOptions, useQuery, type UseMutationOptions } from '@tanstack/react-query';
import type { AdminStats } from '@warmline/contracts/admin-accounts';
import { ApiError, apiRequest } from '../../../lib/api';
// A type only (erased at build): the audit log's key holds its filter.
import type { AuditLogFilter } from '../audit-log/audit-log-api';

/**
 * What every screen of the back office (issue 12) shares: the query keys, which come only from
 * this factory, and the cards' figures. Each resource's hooks live in its own folder (users/,
 * customers/, audit-log/, orders/, …).
 */
export const adminKeys = {
  all: ['admin'] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  usersPage: (q: string, page: number) => [...adminKeys.users(), { q, page }] as const,
  auditLog: (page: number, filter: AuditLogFilter) => [...adminKeys.all, 'audit-log', page, filter] as const,
  surveyResponse: (id: string) => [...adminKeys.all, 'survey-response', id] as const,
  search: (q: string, limit: number) => [...adminKeys.all, 'search', q, limit] as const,
};

export type MutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

/*
 * Each screen's first query as options of its own (issue 22): the hook uses them, and the route
 * prefetches them while the session is checked and the screen's code loads (prefetch.tsx).
 */
export const adminStatsOptions = () =>
  queryOptions({ queryKey: adminKeys.stats(), queryFn: ({ signal }) => apiRequest<AdminStats>('/api/admin/stats', { signal }) });

export function useAdminStats() {
  return useQuery(adminStatsOptions());
}

/** A GET whose answer also has something to say in its headers (a total, a partial search). */
export async function getWithHeaders<T>(url: string, signal: AbortSignal): Promise<{ body: T; headers: Headers }> {
  const response = await fetch(url, {
    headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    credentials: 'include',
    signal,
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text, response.statusText);
  return { body: JSON.parse(text) as T, headers: response.headers };
}
