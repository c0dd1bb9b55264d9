import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MyTransfersAnswer,
  TransferDisputeInput,
  TransferSettingsInput,
  TransferSettingsView,
  TransferStatus,
} from '@warmline/contracts/live-transfers';
import { apiRequest } from '../../lib/api';

/** Hooks of My Transfers (issue 23, the transfers service). Query keys come only from this factory. */
const myTransferKeys = {
  all: ['my-transfers'] as const,
  log: (filters: TransferFilters, page: number) => [...myTransferKeys.all, 'log', { ...filters, page }] as const,
  balance: () => [...myTransferKeys.all, 'balance'] as const,
  settings: () => [...myTransferKeys.all, 'settings'] as const,
};

/** The log's filters, as the query string takes them ('' = not filtered). */
export interface TransferFilters {
  status: TransferStatus | '';
  from: string;
  to: string;
}

/**
 * How often the open log asks again (issue 23 §4: a new transfer shows within seconds of its
 * outcome). React Query pauses it while the tab is hidden, so only a page someone looks at asks.
 */
const LOG_POLL_MS = 5_000;

/** The filters as a query string, e.g. 'status=charged&from=2026-11-01' ('' when none). */
function filterQuery(filters: TransferFilters, page?: number): string {
  const params = new URLSearchParams();
  if (page !== undefined) params.set('page', String(page));
  if (filters.status) params.set('status', filters.status);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  return params.toString();
}

/** The CSV of the filtered log (a plain link: the browser downloads it with the session cookie). */
export function exportUrl(filters: TransferFilters): string {
  const query = filterQuery(filters);
  return `/api/my-transfers/export.csv${query ? `?${query}` : ''}`;
}

/** My balance, today and one page of my transfers, newest first; asked again every few seconds while shown. */
export function useMyTransfers(filters: TransferFilters, page: number) {
  return useQuery({
    queryKey: myTransferKeys.log(filters, page),
    queryFn: ({ signal }) => apiRequest<MyTransfersAnswer>(`/api/my-transfers?${filterQuery(filters, page)}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: LOG_POLL_MS,
  });
}

/** Just the balance, for the Buy Call Transfers intro (the first page of the same answer). */
export function useTransferBalance() {
  return useQuery({
    queryKey: myTransferKeys.balance(),
    queryFn: ({ signal }) => apiRequest<MyTransfersAnswer>('/api/my-transfers?page=1', { signal }),
    select: (answer) => answer.balance,
  });
}

export function useTransferSettings() {
  return useQuery({
    queryKey: myTransferKeys.settings(),
    queryFn: ({ signal }) => apiRequest<TransferSettingsView>('/api/my-transfers/settings', { signal }),
  });
}

/** After a change, everything of My Transfers is read again (today's pause, the settings, the log). */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: myTransferKeys.all });
}

export function useSaveTransferSettings() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: TransferSettingsInput) => apiRequest<TransferSettingsView>('/api/my-transfers/settings', { method: 'PUT', body }),
    onSuccess: refresh,
  });
}

export function usePauseTransfers() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (paused: boolean) => apiRequest<unknown>('/api/my-transfers/pause', { method: 'PATCH', body: { paused } }),
    onSuccess: refresh,
  });
}

export function useDisputeTransfer() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TransferDisputeInput }) =>
      apiRequest<unknown>(`/api/my-transfers/${encodeURIComponent(id)}/dispute`, { method: 'POST', body }),
    onSuccess: refresh,
  });
}
