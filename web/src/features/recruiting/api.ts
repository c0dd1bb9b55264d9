import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import type { RecruitingRequestInput, RecruitingRequestResponse } from '@warmline/contracts/transfers';
import { apiRequest } from '../../lib/api';

type MutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

/** 'Contact Recruiting Team': the request is stored and e-mailed to the recruiting team. */
export function useSendRecruitingRequest(options: MutationOptions<RecruitingRequestResponse, RecruitingRequestInput> = {}) {
  return useMutation({
    ...options,
    mutationFn: (body: RecruitingRequestInput) =>
      apiRequest<RecruitingRequestResponse>('/api/recruiting-requests', { method: 'POST', body }),
  });
}
