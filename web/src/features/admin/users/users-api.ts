import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUserListEntry } from '@warmline/contracts/admin-accounts';
import { apiRequest } from '../../../lib/api';
import { adminKeys, getWithHeaders, type MutationOptions } from '../shared/api';

/* User Management's hooks (issue 12): a page of users and the changes an admin makes to one. */

export interface UsersPage {
  users: AdminUserListEntry[];
  total: number;
}

/** One page of users (50) filtered on the server; the total comes in X-Total-Count. */
export const usersPageOptions = (q: string, page: number) =>
  queryOptions({
    queryKey: adminKeys.usersPage(q, page),
    queryFn: async ({ signal }): Promise<UsersPage> => {
      const params = new URLSearchParams({ page: String(page) });
      if (q.trim()) params.set('q', q.trim());
      const { body, headers } = await getWithHeaders<AdminUserListEntry[]>(`/api/users?${params}`, signal);
      return { users: body, total: Number(headers.get('x-total-count') ?? 0) };
    },
  });

export function useUsersPage(q: string, page: number) {
  return useQuery({ ...usersPageOptions(q, page), placeholderData: keepPreviousData });
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

export function useChangeUserPassword(options: MutationOptions<unknown, { userId: string; newPassword: string; currentPassword?: string }> = {}) {
  return useUserMutation(
    ({ userId, ...body }) => apiRequest(`/api/users/${userId}/change-password`, { method: 'POST', body }),
    options,
  );
}

/** Turns off a user's second factor for them (a lost phone); the server e-mails them. */
export function useResetTwoFactor(options: MutationOptions<unknown, { userId: string }> = {}) {
  return useUserMutation(({ userId }) => apiRequest(`/api/users/${userId}/reset-two-factor`, { method: 'POST', body: {} }), options);
}

export function useDeleteUser(options: MutationOptions<unknown, { userId: string }> = {}) {
  return useUserMutation(({ userId }) => apiRequest(`/api/users/${userId}`, { method: 'DELETE' }), options);
}
