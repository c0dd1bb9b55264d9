import { keepPreviousData, useMutation, useQuery, type UseMutationOptions } from '@tanstack/react-query';
import {
  AVAILABLE_LEADS_MAX_IDS,
  type AvailableLeadsResponse,
  type MatchingLeadsResponse,
  type BulkPurchaseResponse,
  type BulkPurchaseStatusResponse,
  type MarketLeadsResponse,
  type MyLeadsResponse,
  type MyLeadsView,
} from '@warmline/contracts/catalog';
import { apiRequest } from '../../lib/api';

/** Hooks of the aged-lead market's API (catalog service through the gateway). Query keys come only from this factory. */
export const agedLeadKeys = {
  all: ['aged-leads'] as const,
  market: () => [...agedLeadKeys.all, 'market'] as const,
  marketPage: (page: number, filter: string, hideDncMatches = false) => [...agedLeadKeys.market(), page, filter, hideDncMatches] as const,
  mine: () => [...agedLeadKeys.all, 'mine'] as const,
  minePage: (page: number, filter: string, view: MyLeadsView = 'active') => [...agedLeadKeys.mine(), page, filter, view] as const,
  receipt: (orderId: string) => [...agedLeadKeys.all, 'receipt', orderId] as const,
};

type MutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

const listUrl = (path: string, page: number, filter: string) =>
  `${path}?${new URLSearchParams({ page: String(page), filter }).toString()}`;

/** One page of the market, masked; the previous page stays on screen while the next loads. */
export function useMarketLeads(page: number, filter: string, hideDncMatches = false) {
  return useQuery({
    queryKey: agedLeadKeys.marketPage(page, filter, hideDncMatches),
    // Issue 24: hideDncMatches leaves out every national DNC registry match.
    queryFn: ({ signal }) => apiRequest<MarketLeadsResponse>(`${listUrl('/api/aged-leads', page, filter)}${hideDncMatches ? '&hideDncMatches=true' : ''}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** 'Select all N matching this filter': the newest available leads of the filter, up to the purchase limit. */
export function fetchMatchingLeads(filter: string, hideDncMatches = false): Promise<MatchingLeadsResponse> {
  return apiRequest<MatchingLeadsResponse>(`/api/aged-leads/matching?${new URLSearchParams({ filter, ...(hideDncMatches ? { hideDncMatches: 'true' } : {}) }).toString()}`);
}

/** Which of these leads are still for sale, at today's prices; asked in groups the query string can carry. */
export async function fetchAvailableLeads(ids: readonly string[]): Promise<AvailableLeadsResponse> {
  const answer: AvailableLeadsResponse = { leads: [], unavailableLeadIds: [] };
  for (let i = 0; i < ids.length; i += AVAILABLE_LEADS_MAX_IDS) {
    const batch = ids.slice(i, i + AVAILABLE_LEADS_MAX_IDS);
    const part = await apiRequest<AvailableLeadsResponse>(`/api/aged-leads/available?${new URLSearchParams({ ids: batch.join(',') }).toString()}`);
    answer.leads.push(...part.leads);
    answer.unavailableLeadIds.push(...part.unavailableLeadIds);
  }
  return answer;
}

/** Reserves the leads and opens their payment; the server prices them. */
export function useBulkPurchase(options: MutationOptions<BulkPurchaseResponse, { leadIds: string[] }> = {}) {
  return useMutation({
    ...options,
    mutationFn: (body: { leadIds: string[] }) =>
      apiRequest<BulkPurchaseResponse>('/api/bulk-purchase-leads', { method: 'POST', body }),
  });
}

function fetchPurchaseStatus(orderId: string): Promise<BulkPurchaseStatusResponse> {
  return apiRequest<BulkPurchaseStatusResponse>(`/api/bulk-purchase-leads/${encodeURIComponent(orderId)}`);
}

/**
 * After the card form succeeds, the leads are sold as soon as the payment's news reaches the
 * catalog (a moment later). Waits for that, asking every half second for up to `timeoutMs`;
 * resolves with the last answer (which may still be 'held' if it took longer).
 */
export async function waitUntilSold(orderId: string, timeoutMs = 15_000): Promise<BulkPurchaseStatusResponse | null> {
  const deadline = Date.now() + timeoutMs;
  let last: BulkPurchaseStatusResponse | null = null;
  for (;;) {
    try {
      last = await fetchPurchaseStatus(orderId);
      if (last.status !== 'held') return last;
    } catch {
      // A hiccup while asking: the payment itself went through; keep asking until the deadline.
    }
    if (Date.now() > deadline) return last;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** While the payment's news is on its way the purchase is still 'held': ask again this often, this many times. */
const RECEIPT_POLL_MS = 1000;
const RECEIPT_POLLS = 30;

/**
 * The receipt screen's purchase, read from the server (so a reload shows the same, and an id
 * that is not this buyer's, or made up, is a 404, never 'paid'). Asks again while it is held.
 */
export function usePurchaseReceipt(orderId: string | null) {
  return useQuery({
    queryKey: agedLeadKeys.receipt(orderId ?? ''),
    queryFn: () => fetchPurchaseStatus(orderId ?? ''),
    enabled: orderId !== null,
    retry: false,
    refetchInterval: (query) =>
      query.state.data?.status === 'held' && query.state.dataUpdateCount < RECEIPT_POLLS ? RECEIPT_POLL_MS : false,
  });
}

/** One page of the buyer's purchased leads: the active ones, or (issue 24) those returned. */
export function useMyLeads(page: number, filter: string, view: MyLeadsView = 'active') {
  return useQuery({
    queryKey: agedLeadKeys.minePage(page, filter, view),
    queryFn: ({ signal }) =>
      apiRequest<MyLeadsResponse>(view === 'active' ? listUrl('/api/my-leads', page, filter) : `${listUrl('/api/my-leads', page, filter)}&view=returned`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Where the browser downloads the buyer's leads (a plain link: the session cookie goes along). */
export function myLeadsCsvUrl(filter: string): string {
  return filter.trim() ? `/api/my-leads/export.csv?${new URLSearchParams({ filter }).toString()}` : '/api/my-leads/export.csv';
}
