import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import type { PublicUser } from '@warmline/contracts/accounts';
import type { AdminStats, AuditLogPage } from '@warmline/contracts/admin-accounts';
import type { CustomerSearchResult } from '@warmline/contracts/customer-search';
import { ApiError, apiRequest } from '../../lib/api';

/** Hooks of the back office (issue 12). Query keys come only from this factory. */
export const adminKeys = {
  all: ['admin'] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  usersPage: (q: string, page: number) => [...adminKeys.users(), { q, page }] as const,
  auditLog: (page: number) => [...adminKeys.all, 'audit-log', page] as const,
  search: (q: string) => [...adminKeys.all, 'search', q] as const,
};

type MutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

export function useAdminStats() {
  return useQuery({
    queryKey: adminKeys.stats(),
    queryFn: ({ signal }) => apiRequest<AdminStats>('/api/admin/stats', { signal }),
  });
}

export interface UsersPage {
  users: PublicUser[];
  total: number;
}

/** One page of users (50) filtered on the server; the total comes in X-Total-Count. */
export function useUsersPage(q: string, page: number) {
  return useQuery({
    queryKey: adminKeys.usersPage(q, page),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }): Promise<UsersPage> => {
      const params = new URLSearchParams({ page: String(page) });
      if (q.trim()) params.set('q', q.trim());
      const response = await fetch(`/api/users?${params}`, {
        headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        credentials: 'include',
        signal,
      });
      const text = await response.text();
      if (!response.ok) throw new ApiError(response.status, text, response.statusText);
      return { users: JSON.parse(text) as PublicUser[], total: Number(response.headers.get('x-total-count') ?? 0) };
    },
  });
}

/** The customer search (users, survey answers, paying customers, partners). Blank text is not asked. */
export function useCustomerSearch(q: string) {
  return useQuery({
    queryKey: adminKeys.search(q),
    enabled: q.trim().length > 0,
    queryFn: ({ signal }) => apiRequest<CustomerSearchResult[]>(`/api/search-customers?q=${encodeURIComponent(q.trim())}`, { signal }),
  });
}

export function useAuditLog(page: number) {
  return useQuery({
    queryKey: adminKeys.auditLog(page),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => apiRequest<AuditLogPage>(`/api/admin/audit-log?page=${page}`, { signal }),
  });
}

/** After any change to a user: the lists, the cards and the audit log are read again. */
function useUserMutation<TVariables>(
  request: (v: TVariables) => Promise<unknown>,
  options: MutationOptions<unknown, TVariables>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: request,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      await options.onSuccess?.(...args);
    },
  });
}

export function useSetLiveTransferPrice(options: MutationOptions<unknown, { userId: string; price: string }> = {}) {
  return useUserMutation(
    ({ userId, price }) => apiRequest(`/api/users/${userId}/live-transfer-price`, { method: 'PATCH', body: { price } }),
    options,
  );
}

export function useChangeUserPassword(options: MutationOptions<unknown, { userId: string; newPassword: string }> = {}) {
  return useUserMutation(
    ({ userId, newPassword }) => apiRequest(`/api/users/${userId}/change-password`, { method: 'POST', body: { newPassword } }),
    options,
  );
}

export function useDeleteUser(options: MutationOptions<unknown, { userId: string }> = {}) {
  return useUserMutation(({ userId }) => apiRequest(`/api/users/${userId}`, { method: 'DELETE' }), options);
}
