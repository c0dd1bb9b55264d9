import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LeadImportCreated, LeadImportPage, LeadImportView } from '@warmline/contracts/lead-imports';
import { apiRequest } from '../../../lib/api';
import { uploadFile, type UploadProgress } from '../../../lib/file-upload';
import { isUnfinished } from './lead-import-progress';

/**
 * Hooks of the Upload Aged Leads tab (issue 13): the imports and their progress; the suppression
 * list the tab also shows has its own (compliance/suppressions-api.ts). Keys live under ['admin']
 * so a change anywhere in the back office reads them again; query keys come only from this factory.
 */
const leadImportKeys = {
  all: ['admin', 'lead-imports'] as const,
  list: (page: number) => [...leadImportKeys.all, 'list', page] as const,
  one: (id: string) => [...leadImportKeys.all, 'one', id] as const,
};

/** How often a queued or running import is read again: the bar moves about once a second. */
const IMPORT_POLL_MS = 1_000;

const importUrl = (id: string) => `/api/admin/lead-imports/${encodeURIComponent(id)}`;

/** Where the template downloads (the header row and one example row). */
export const LEAD_IMPORT_TEMPLATE_URL = '/api/admin/lead-imports/template.csv';

/** Where an import's refused rows download (Row, Column, Message). */
export function errorReportUrl(importId: string): string {
  return `${importUrl(importId)}/errors.csv`;
}

/** One import, read again every second while the importer may still move it. */
export function useLeadImport(id: string | null) {
  return useQuery({
    queryKey: leadImportKeys.one(id ?? ''),
    enabled: id !== null,
    queryFn: ({ signal }) => apiRequest<LeadImportView>(importUrl(id!), { signal }),
    refetchInterval: (query) => (query.state.data && !isUnfinished(query.state.data.status) ? false : IMPORT_POLL_MS),
    // The bar keeps moving in a background tab: an admin who looks away comes back to the truth.
    refetchIntervalInBackground: true,
  });
}

/** Past imports, newest first, 20 a page. */
export function useLeadImportsPage(page: number) {
  return useQuery({
    queryKey: leadImportKeys.list(page),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => apiRequest<LeadImportPage>(`/api/admin/lead-imports?page=${page}`, { signal }),
  });
}

export { UploadAborted, type UploadProgress } from '../../../lib/file-upload';

/** The CSV, sent with its progress (the file may be hundreds of MB). */
function uploadLeadImport(file: File, onProgress: (progress: UploadProgress) => void, signal?: AbortSignal): Promise<LeadImportCreated> {
  return uploadFile<LeadImportCreated>('/api/admin/lead-imports', file, { onProgress, signal, unreadable: 'The server answered something other than the new import' });
}

/**
 * After an import changes (started, cancelled, undone): its answer is the new truth for its own
 * key, and the list and the back office's counts are read again.
 */
function useImportChanged() {
  const queryClient = useQueryClient();
  return (view: LeadImportView | null) => {
    if (view) queryClient.setQueryData(leadImportKeys.one(view.id), view);
    return queryClient.invalidateQueries({ queryKey: leadImportKeys.all, predicate: (q) => q.queryKey[2] === 'list' });
  };
}

/** Reads the past imports again (an import the tab watches has just ended). */
export function useRefreshImportList() {
  const changed = useImportChanged();
  return () => changed(null);
}

export function useUploadLeadImport() {
  const changed = useImportChanged();
  return useMutation({
    mutationFn: ({ file, onProgress, signal }: { file: File; onProgress: (progress: UploadProgress) => void; signal?: AbortSignal }) =>
      uploadLeadImport(file, onProgress, signal),
    onSuccess: () => changed(null),
  });
}

export function useCancelLeadImport() {
  const changed = useImportChanged();
  return useMutation({
    mutationFn: (id: string) => apiRequest<LeadImportView>(`${importUrl(id)}/cancel`, { method: 'POST' }),
    onSuccess: changed,
  });
}

export function useUndoLeadImport() {
  const changed = useImportChanged();
  return useMutation({
    mutationFn: (id: string) => apiRequest<LeadImportView>(`${importUrl(id)}/undo`, { method: 'POST' }),
    onSuccess: changed,
  });
}
