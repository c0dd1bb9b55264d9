import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MyCallback, MyCallbacks } from '@warmline/contracts/callbacks';
import { apiRequest } from '../../lib/api';

/** Hooks of the agent's call-backs (issue 15, catalog). Query keys come only from this factory. */
export const myCallbackKeys = {
  all: ['my-callbacks'] as const,
};

/** My call-backs, my balance and the states I take them in. */
export function useMyCallbacks() {
  return useQuery({
    queryKey: myCallbackKeys.all,
    queryFn: ({ signal }) => apiRequest<MyCallbacks>('/api/my-callbacks', { signal }),
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
