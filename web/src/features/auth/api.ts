import { useMutation, useQuery, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import type { PublicUser } from '@warmline/contracts/accounts';
import { apiRequest } from '../../lib/api';
import { forgetStoredUser, storeUser } from '../../lib/stored-user';

/** Hooks of the account API (spec §7). Query keys come only from this factory. */
export const authKeys = {
  all: ['auth'] as const,
  currentUser: () => [...authKeys.all, 'current-user'] as const,
  resetToken: (token: string) => [...authKeys.all, 'reset-token', token] as const,
};

export type CurrentUser = PublicUser;

/** Caller options of a mutation; the hook's own callbacks always run before the caller's. */
type MutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

/** Who is logged in: the user, or null when there is no session (401). */
export function useCurrentUser() {
  return useQuery({
    queryKey: authKeys.currentUser(),
    queryFn: ({ signal }) => apiRequest<CurrentUser>('/api/current-user', { on401: 'returnNull', signal }),
  });
}

export interface LoginInput {
  username: string;
  password: string;
}

export function useLogin(options: MutationOptions<CurrentUser, LoginInput> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: LoginInput) => apiRequest<CurrentUser>('/api/login', { method: 'POST', body }),
    onSuccess: async (...args) => {
      const [user] = args;
      // A new session: nothing cached for whoever was here before survives.
      queryClient.clear();
      queryClient.setQueryData(authKeys.currentUser(), user);
      storeUser(user);
      await options.onSuccess?.(...args);
    },
  });
}

export function useForgotPassword(options: MutationOptions<unknown, { email: string }> = {}) {
  return useMutation({
    ...options,
    mutationFn: (body: { email: string }) => apiRequest<unknown>('/api/forgot-password', { method: 'POST', body }),
  });
}

/** Whether a reset token can still be used; asked once per token. */
export function useResetTokenCheck(token: string | null) {
  return useQuery({
    queryKey: authKeys.resetToken(token ?? ''),
    queryFn: ({ signal }) =>
      apiRequest<{ valid: boolean }>('/api/validate-reset-token', { method: 'POST', body: { token }, signal }),
    enabled: Boolean(token),
  });
}

export function useResetPassword(options: MutationOptions<unknown, { token: string; password: string }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: { token: string; password: string }) =>
      apiRequest<unknown>('/api/reset-password', { method: 'POST', body }),
    onSuccess: async (...args) => {
      // A reset ends every session of that user and uses up the token.
      await queryClient.invalidateQueries({ queryKey: authKeys.all });
      await options.onSuccess?.(...args);
    },
  });
}

/**
 * Logging out is a browser navigation to GET /api/logout, which ends the session and
 * redirects to /login (spec §2); the stored user goes first.
 */
export function logout(): void {
  forgetStoredUser();
  window.location.assign('/api/logout');
}
