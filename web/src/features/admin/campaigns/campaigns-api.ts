import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Campaign, CreateCampaign } from '@warmline/contracts/campaigns';
import type { SurveyResponseRecord } from '@warmline/contracts/surveys';
import { apiRequest } from '../../../lib/api';
import { salespeopleKeys } from '../../referral/api';

/**
 * Hooks of the Test Campaigns tab (issue 12). Keys live under ['admin'] so a change anywhere in
 * the back office reads them again; query keys come only from this factory.
 */
const campaignKeys = {
  all: ['admin', 'campaigns'] as const,
  list: () => [...campaignKeys.all, 'list'] as const,
  responses: (slug: string) => [...campaignKeys.all, 'responses', slug] as const,
};

export function useCampaigns() {
  return useQuery({
    queryKey: campaignKeys.list(),
    queryFn: ({ signal }) => apiRequest<Campaign[]>('/api/admin/campaigns', { signal }),
  });
}

/** A campaign's responses (spec §7 GET /api/{slug}-responses), newest first. */
export function useCampaignResponses(slug: string | null) {
  return useQuery({
    queryKey: campaignKeys.responses(slug ?? ''),
    enabled: slug !== null,
    queryFn: ({ signal }) => apiRequest<SurveyResponseRecord[]>(`/api/${encodeURIComponent(slug!)}-responses`, { signal }),
  });
}

/** Where a campaign's responses download as CSV. */
export function campaignCsvUrl(campaignId: string): string {
  return `/api/admin/campaigns/${encodeURIComponent(campaignId)}/responses.csv`;
}

/**
 * After a campaign changes: the back office (list, counts, audit log) and the referral pages this
 * tab may have looked up (kept forever otherwise, spec §7) are read again.
 */
function useInvalidateCampaigns() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['admin'] }),
      queryClient.invalidateQueries({ queryKey: salespeopleKeys.all }),
    ]);
}

export function useCreateCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: (body: CreateCampaign) => apiRequest<Campaign>('/api/admin/campaigns', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useSetCampaignActive() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      apiRequest<Campaign>(`/api/admin/campaigns/${encodeURIComponent(id)}`, { method: 'PATCH', body: { active } }),
    onSuccess: invalidate,
  });
}
