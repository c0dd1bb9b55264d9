import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import type { PublicUser } from '@warmline/contracts/accounts';
import type { AdminStats, AuditLogPage } from '@warmline/contracts/admin-accounts';
import { MAX_SEARCH_RESULTS, SEARCH_MORE_HEADER, SEARCH_PARTIAL_HEADER, type CustomerSearchResult } from '@warmline/contracts/customer-search';
import type { AdminRefund, AllOrdersAnswer, RefundAnswer, RevenueAnswer, TransferStatusChange } from '@warmline/contracts/admin-orders';
import type { SurveyResponseRecord } from '@warmline/contracts/surveys';
import { ApiError, apiRequest } from '../../../lib/api';

/** Hooks of the back office (issue 12). Query keys come only from this factory. */
export const adminKeys = {
  all: ['admin'] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  usersPage: (q: string, page: number) => [...adminKeys.users(), { q, page }] as const,
  auditLog: (page: number, filter: AuditLogFilter) => [...adminKeys.all, 'audit-log', page, filter] as const,
  surveyResponse: (id: string) => [...adminKeys.all, 'survey-response', id] as const,
  search: (q: string, limit: number) => [...adminKeys.all, 'search', q, limit] as const,
};

type MutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

/*
 * Each screen's first query as options of its own (issue 22): the hook uses them, and the route
 * prefetches them while the session is checked and the screen's code loads (prefetch.tsx).
 */
export const adminStatsOptions = () =>
  queryOptions({ queryKey: adminKeys.stats(), queryFn: ({ signal }) => apiRequest<AdminStats>('/api/admin/stats', { signal }) });

export function useAdminStats() {
  return useQuery(adminStatsOptions());
}

export interface UsersPage {
  users: PublicUser[];
  total: number;
}

/** A GET whose answer also has something to say in its headers (a total, a partial search). */
export async function getWithHeaders<T>(url: string, signal: AbortSignal): Promise<{ body: T; headers: Headers }> {
  const response = await fetch(url, {
    headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    credentials: 'include',
    signal,
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text, response.statusText);
  return { body: JSON.parse(text) as T, headers: response.headers };
}

/** One page of users (50) filtered on the server; the total comes in X-Total-Count. */
export const usersPageOptions = (q: string, page: number) =>
  queryOptions({
    queryKey: adminKeys.usersPage(q, page),
    queryFn: async ({ signal }): Promise<UsersPage> => {
      const params = new URLSearchParams({ page: String(page) });
      if (q.trim()) params.set('q', q.trim());
      const { body, headers } = await getWithHeaders<PublicUser[]>(`/api/users?${params}`, signal);
      return { users: body, total: Number(headers.get('x-total-count') ?? 0) };
    },
  });

export function useUsersPage(q: string, page: number) {
  return useQuery({ ...usersPageOptions(q, page), placeholderData: keepPreviousData });
}

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

/** The audit log's filters (issue 22), as the URL and the API name them; empty means any. */
export interface AuditLogFilter {
  admin: string;
  action: string;
  subject: string;
  from: string;
  to: string;
}
export const AUDIT_LOG_FILTERS = ['admin', 'action', 'subject', 'from', 'to'] as const;

function auditLogParams(filter: AuditLogFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of AUDIT_LOG_FILTERS) if (filter[key].trim()) params.set(key, filter[key].trim());
  return params;
}

/** The audit log's page and filters as the URL holds them. */
export function auditLogViewFrom(params: URLSearchParams): { page: number; filter: AuditLogFilter } {
  const asked = Number.parseInt(params.get('page') ?? '1', 10);
  const filter: AuditLogFilter = { admin: '', action: '', subject: '', from: '', to: '' };
  for (const key of AUDIT_LOG_FILTERS) filter[key] = params.get(key) ?? '';
  return { page: Number.isFinite(asked) && asked >= 1 ? asked : 1, filter };
}

export const auditLogOptions = (page: number, filter: AuditLogFilter) =>
  queryOptions({
    queryKey: adminKeys.auditLog(page, filter),
    queryFn: ({ signal }) => {
      const params = auditLogParams(filter);
      params.set('page', String(page));
      return apiRequest<AuditLogPage>(`/api/admin/audit-log?${params}`, { signal });
    },
  });

export function useAuditLog(page: number, filter: AuditLogFilter) {
  return useQuery({ ...auditLogOptions(page, filter), placeholderData: keepPreviousData });
}

/** The entries the filter keeps, as a CSV download (issue 22). */
export function auditLogCsvUrl(filter: AuditLogFilter): string {
  const params = auditLogParams(filter).toString();
  return `/api/admin/audit-log.csv${params ? `?${params}` : ''}`;
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

/* ------------------------------------------------------------------ orders ---------- */

export interface AllOrdersFilter {
  product: string;
  status: string;
  from: string;
  to: string;
  /** A buyer's e-mail or name: one customer's orders (the customer search opens them so). */
  q: string;
  page: number;
}

const orderKeys = {
  all: ['admin-orders'] as const,
  list: (filter: AllOrdersFilter) => [...orderKeys.all, 'list', filter] as const,
  revenue: (days: 30 | 90) => [...orderKeys.all, 'revenue', days] as const,
};

function allOrdersParams(filter: Omit<AllOrdersFilter, 'page'>): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['product', 'status', 'from', 'to', 'q'] as const) if (filter[key]) params.set(key, filter[key]);
  return params;
}

/** All Orders' filter as the URL holds it. */
export function allOrdersFilterFrom(params: URLSearchParams): AllOrdersFilter {
  return {
    product: params.get('product') ?? '',
    status: params.get('status') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    q: params.get('q') ?? '',
    page: Math.max(1, Number(params.get('page')) || 1),
  };
}

export const allOrdersOptions = (filter: AllOrdersFilter) =>
  queryOptions({
    queryKey: orderKeys.list(filter),
    queryFn: ({ signal }) => {
      const params = allOrdersParams(filter);
      params.set('page', String(filter.page));
      return apiRequest<AllOrdersAnswer>(`/api/admin/orders?${params}`, { signal });
    },
  });

export function useAllOrders(filter: AllOrdersFilter) {
  return useQuery({ ...allOrdersOptions(filter), placeholderData: keepPreviousData });
}

/** Every order the filter keeps, as a CSV download (issue 22). */
export function allOrdersCsvUrl(filter: Omit<AllOrdersFilter, 'page'>): string {
  const params = allOrdersParams(filter).toString();
  return `/api/admin/orders.csv${params ? `?${params}` : ''}`;
}

export function useRevenue(days: 30 | 90) {
  return useQuery({
    queryKey: orderKeys.revenue(days),
    queryFn: ({ signal }) => apiRequest<RevenueAnswer>(`/api/admin/revenue?days=${days}`, { signal }),
  });
}

/** After an order changes: every order list, the transfer orders page and the cards are read again. */
function useOrderMutation<TData, TVariables>(request: (v: TVariables) => Promise<TData>, options: MutationOptions<TData, TVariables>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: request,
    onSuccess: async (...args) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: orderKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['transfer-orders'] }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
      ]);
      await options.onSuccess?.(...args);
    },
  });
}

export function useMoveTransferOrder(options: MutationOptions<unknown, { orderId: string; change: TransferStatusChange }> = {}) {
  return useOrderMutation(
    ({ orderId, change }) => apiRequest(`/api/transfer-orders/${orderId}/status`, { method: 'PATCH', body: change }),
    options,
  );
}

/** One refund per dialog: the key is made when the dialog opens, so a double click refunds once. */
export function useRefundOrder(options: MutationOptions<RefundAnswer, { orderId: string; refund: AdminRefund; idempotencyKey: string }> = {}) {
  return useOrderMutation(
    ({ orderId, refund, idempotencyKey }) =>
      apiRequest<RefundAnswer>(`/api/admin/orders/${orderId}/refund`, { method: 'POST', body: refund, headers: { 'Idempotency-Key': idempotencyKey } }),
    options,
  );
}
