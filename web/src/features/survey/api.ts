import { useMutation, useQuery, type UseMutationOptions } from '@tanstack/react-query';
import type {
  SavedSurvey,
  SurveyConflictAnswer,
  SurveySubmission,
  SurveySubmittedAnswer,
} from '@warmline/contracts/surveys';
import { ApiError, apiRequest } from '../../lib/api';

/** Hooks of the survey API (spec §7). Query keys come only from this factory. */
const surveyKeys = {
  all: ['surveys'] as const,
  /** The logged-in user's saved survey (GET /api/user-survey). */
  userSurvey: () => [...surveyKeys.all, 'user-survey'] as const,
};

type MutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

/**
 * Where each funnel posts: /api/survey, /api/ringcloud-survey, /api/{slug}-survey. The body is
 * the answers plus the funnel's marker (spec §7); the server stores its own marker regardless.
 */
export type SurveyEndpoint = { funnel: 'main' } | { funnel: 'ringcloud' } | { funnel: 'referral'; slug: string };

function surveyUrl(endpoint: SurveyEndpoint): string {
  if (endpoint.funnel === 'main') return '/api/survey';
  if (endpoint.funnel === 'ringcloud') return '/api/ringcloud-survey';
  return `/api/${encodeURIComponent(endpoint.slug)}-survey`;
}

export function useSubmitSurvey(
  endpoint: SurveyEndpoint,
  salesperson: string,
  options: MutationOptions<SurveySubmittedAnswer, SurveySubmission> = {},
) {
  return useMutation({
    ...options,
    mutationFn: (answers: SurveySubmission) =>
      apiRequest<SurveySubmittedAnswer>(surveyUrl(endpoint), { method: 'POST', body: { ...answers, salesperson } }),
  });
}

/** The logged-in user's latest survey; null when they never filled one in. */
export function useUserSurvey(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: surveyKeys.userSurvey(),
    queryFn: ({ signal }) => apiRequest<SavedSurvey | null>('/api/user-survey', { signal }),
    ...options,
  });
}

/** A 409 of a survey endpoint names the taken field (username or email); anything else is null. */
export function surveyConflictOf(error: unknown): SurveyConflictAnswer | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    const body = JSON.parse(error.bodyText) as Partial<SurveyConflictAnswer>;
    if ((body.field === 'username' || body.field === 'email') && typeof body.error === 'string') {
      return { field: body.field, error: body.error };
    }
  } catch {
    // not JSON: treated as any other failure
  }
  return null;
}
