import { useQuery } from '@tanstack/react-query';
import type { PublicSalesperson } from '@warmline/contracts/salespeople';
import { ApiError, apiRequest } from '../../lib/api';

/** Hooks of the salespeople API (spec §2 /{name}). Query keys come only from this factory. */
export const salespeopleKeys = {
  all: ['salespeople'] as const,
  bySlug: (slug: string) => [...salespeopleKeys.all, slug] as const,
};

/** The salesperson whose referral survey is open at /{slug}; null when there is none (404). */
export function useSalesperson(slug: string | null) {
  return useQuery({
    queryKey: salespeopleKeys.bySlug(slug ?? ''),
    queryFn: async ({ signal }) => {
      try {
        return await apiRequest<PublicSalesperson>(`/api/salespeople/${encodeURIComponent(slug!)}`, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    enabled: slug !== null,
  });
}
