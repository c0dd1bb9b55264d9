import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MAX_SEARCH_RESULTS, SEARCH_MORE_HEADER, SEARCH_PARTIAL_HEADER, type CustomerSearchResult } from '@warmline/contracts/customer-search';
import type { SurveyResponseRecord } from '@warmline/contracts/surveys';
import { apiRequest } from '../../../lib/api';
import { adminKeys, getWithHeaders } from '../shared/api';

/* The customer search's hooks (issue 22). */

export interface CustomerSearchAnswer {
  results: CustomerSearchResult[];
  /** Sources that did not answer in time (X-Search-Partial): the list may be missing their matches. */
  missingSources: string[];
  /** More people match than the list holds (X-Search-More): the screen offers "Show more". */
  more: boolean;
}

/** The customer search (users, survey answers, paying customers, partners). Blank text is not asked. */
/** The first `limit` people matching `q` (50 at first; "Show more" asks for 50 more, up to MAX_SEARCH_LIMIT). */
export function useCustomerSearch(q: string, limit: number = MAX_SEARCH_RESULTS) {
  return useQuery({
    queryKey: adminKeys.search(q, limit),
    enabled: q.trim().length > 0,
    // The list stays while the next 50 load.
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }): Promise<CustomerSearchAnswer> => {
      const query = new URLSearchParams({ q: q.trim(), ...(limit !== MAX_SEARCH_RESULTS ? { limit: String(limit) } : {}) });
      const { body, headers } = await getWithHeaders<CustomerSearchResult[]>(`/api/search-customers?${query}`, signal);
      const partial = headers.get(SEARCH_PARTIAL_HEADER);
      return {
        results: body,
        missingSources: partial ? partial.split(',').map((s) => s.trim()).filter(Boolean) : [],
        more: headers.get(SEARCH_MORE_HEADER) === 'true',
      };
    },
  });
}

/** One survey response with every answer of both steps (the customer search's popup, issue 22). */
export function useSurveyResponse(id: string) {
  return useQuery({
    queryKey: adminKeys.surveyResponse(id),
    queryFn: ({ signal }) => apiRequest<SurveyResponseRecord>(`/api/admin/survey-responses/${encodeURIComponent(id)}`, { signal }),
  });
}
