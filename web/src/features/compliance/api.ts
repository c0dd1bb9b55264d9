import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallAttemptAnswer, CallAttemptBody } from '@warmline/contracts/calling-hours';
import { apiRequest } from '../../lib/api';
import { myCallbackKeys } from '../callbacks/api';

/** Logs a call on one of my call-backs; My Call-backs is read again (its count and "callable now" move). */
export function useLogCallAttempt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ callbackId, ...body }: CallAttemptBody & { callbackId: string }) =>
      apiRequest<CallAttemptAnswer>(`/api/my-callbacks/${encodeURIComponent(callbackId)}/attempts`, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myCallbackKeys.all }),
  });
}
