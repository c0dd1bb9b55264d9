import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MyCallback, MyCallbacks } from '@warmline/contracts/callbacks';
import { apiRequest } from '../../lib/api';

/** Hooks of the agent's call-backs (issue 15, catalog). Query keys come only from this factory. */
export const myCallbackKeys = {
  all: ['my-callbacks'] as const,
};

/** While a paid order is on its way to the balance, asked again this often (issue 22)... */
export const PENDING_POLL_MS = 2_000;
/** ...and, once it has been on its way this long (a delay worth a support question), less often. */
const PENDING_SLOW_AFTER_MS = 120_000;
const PENDING_SLOW_POLL_MS = 30_000;

/**
 * How soon to ask again: never while nothing is on its way (spec §7: nothing refetches on a
 * timer), every 2 seconds while a paid order waits for its credit, every 30 once it has waited
 * two minutes. The answer that shows it credited stops it.
 */
export function pendingPollInterval(data: MyCallbacks | undefined, now = Date.now()): number | false {
  if (!data || data.pending.length === 0) return false;
  const oldest = Math.min(...data.pending.map((o) => Date.parse(o.paidAt)));
  return now - oldest > PENDING_SLOW_AFTER_MS ? PENDING_SLOW_POLL_MS : PENDING_POLL_MS;
}

/** My call-backs, my balance (with the paid orders on their way to it) and the states I take them in. */
export function useMyCallbacks() {
  return useQuery({
    queryKey: myCallbackKeys.all,
    queryFn: ({ signal }) => apiRequest<MyCallbacks>('/api/my-callbacks', { signal }),
    refetchInterval: (query) => pendingPollInterval(query.state.data),
  });
}

/** After a change the whole answer is read again (balance, states and list move together). */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: myCallbackKeys.all });
}

export function useMarkContacted() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => apiRequest<MyCallback>(`/api/my-callbacks/${encodeURIComponent(id)}`, { method: 'PATCH', body: { status: 'contacted' } }),
    onSuccess: refresh,
  });
}

export function useSetMyCallbackStates() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (states: string[]) => apiRequest<unknown>('/api/my-callbacks-states', { method: 'PUT', body: { states } }),
    onSuccess: refresh,
  });
}
