import { useMutation, useQuery, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import type {
  ChangeOwnPasswordBody,
  LoginAnswer,
  PublicUser,
  SignedInUser,
  TwoFactorEnrolment,
  TwoFactorStatus,
} from '@warmline/contracts/accounts';
import type { ViewingAs } from '@warmline/contracts/view-as';
import { apiRequest } from '../../lib/api';
import { forgetStoredUser, storeUser } from '../../lib/stored-user';
import { viewAsToken } from '../../lib/view-as-token';
import { endViewing } from '../view-as/api';

/** Hooks of the account API (spec §7). Query keys come only from this factory. */
export const authKeys = {
  all: ['auth'] as const,
  currentUser: () => [...authKeys.all, 'current-user'] as const,
  resetToken: (token: string) => [...authKeys.all, 'reset-token', token] as const,
  twoFactor: () => [...authKeys.all, 'two-factor'] as const,
};

/** In a view-as tab (docs/adr/0014) the viewed agent, with who is viewing until when. */
export type CurrentUser = PublicUser & { viewingAs?: ViewingAs };

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

/** The login answered with a user: the session is open. */
export function isLoggedIn(answer: LoginAnswer): answer is SignedInUser {
  return 'id' in answer;
}

/** A user is logged in: nothing cached for whoever was here before survives. */
function useStartSession() {
  const queryClient = useQueryClient();
  return ({ firstLogin: _firstLogin, ...user }: CurrentUser & { firstLogin?: boolean }) => {
    // firstLogin is about this sign-in only (the welcome toast), not part of who is signed in.
    queryClient.clear();
    queryClient.setQueryData(authKeys.currentUser(), user);
    storeUser(user);
  };
}

/**
 * POST /api/login. The answer is the user, or the second step the login waits for (a code
 * from the authenticator app, or a first enrolment); only a user opens the session here.
 */
export function useLogin(options: MutationOptions<LoginAnswer, LoginInput> = {}) {
  const startSession = useStartSession();
  return useMutation({
    ...options,
    mutationFn: (body: LoginInput) => apiRequest<LoginAnswer>('/api/login', { method: 'POST', body }),
    onSuccess: async (...args) => {
      const [answer] = args;
      if (isLoggedIn(answer)) startSession(answer);
      await options.onSuccess?.(...args);
    },
  });
}

/** The login's second step: a code from the app or a recovery code. */
export function useVerifyLoginCode(options: MutationOptions<SignedInUser, { code: string }> = {}) {
  const startSession = useStartSession();
  return useMutation({
    ...options,
    mutationFn: (body: { code: string }) => apiRequest<SignedInUser>('/api/login/verify-code', { method: 'POST', body }),
    onSuccess: async (...args) => {
      startSession(args[0]);
      await options.onSuccess?.(...args);
    },
  });
}

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: authKeys.twoFactor(),
    queryFn: ({ signal }) => apiRequest<TwoFactorStatus>('/api/two-factor', { signal }),
  });
}

/** The current password is asked of a logged-in user; a login waiting for its first enrolment has none to give. */
export function useEnrolTwoFactor(options: MutationOptions<TwoFactorEnrolment, { currentPassword?: string }> = {}) {
  return useMutation({
    ...options,
    mutationFn: (body: { currentPassword?: string }) => apiRequest<TwoFactorEnrolment>('/api/two-factor/enrol', { method: 'POST', body }),
  });
}

/** Confirms an enrolment; when it was the last step of a login, the answer carries the user. */
export type TwoFactorConfirmed = TwoFactorStatus & { user?: SignedInUser };

export function useConfirmTwoFactor(options: MutationOptions<TwoFactorConfirmed, { code: string; currentPassword?: string }> = {}) {
  const queryClient = useQueryClient();
  const startSession = useStartSession();
  return useMutation({
    ...options,
    mutationFn: (body: { code: string; currentPassword?: string }) => apiRequest<TwoFactorConfirmed>('/api/two-factor/confirm', { method: 'POST', body }),
    onSuccess: async (...args) => {
      const [answer] = args;
      if (answer.user) startSession(answer.user);
      const { user: _user, ...status } = answer;
      queryClient.setQueryData(authKeys.twoFactor(), status);
      await options.onSuccess?.(...args);
    },
  });
}

export function useDisableTwoFactor(options: MutationOptions<TwoFactorStatus, { code: string; currentPassword: string }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: { code: string; currentPassword: string }) => apiRequest<TwoFactorStatus>('/api/two-factor/disable', { method: 'POST', body }),
    onSuccess: async (...args) => {
      queryClient.setQueryData(authKeys.twoFactor(), args[0]);
      await options.onSuccess?.(...args);
    },
  });
}

/** The logged-in user's own password (the current one is asked again). */
export function useChangeOwnPassword(options: MutationOptions<unknown, ChangeOwnPasswordBody> = {}) {
  return useMutation({
    ...options,
    mutationFn: (body: ChangeOwnPasswordBody) => apiRequest<unknown>('/api/change-password', { method: 'POST', body }),
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
  // A view-as tab's Logout ends the viewing only: the session is the admin's, used by other tabs.
  if (viewAsToken()) {
    void endViewing();
    return;
  }
  forgetStoredUser();
  window.location.assign('/api/logout');
}
