import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DncRegistryUploadPage, DncRegistryUploadView } from '@warmline/contracts/dnc-registry';
import { apiRequest } from '../../../lib/api';
import { uploadFile, type UploadProgress } from '../../../lib/file-upload';

/**
 * Hooks of the Compliance tab (issue 24): the national DNC registry's uploads and their
 * progress. Keys live under ['admin'] like the rest of the back office; only this factory makes them.
 */
const registryKeys = {
  all: ['admin', 'dnc-registry'] as const,
  list: (page: number) => [...registryKeys.all, 'list', page] as const,
  one: (id: string) => [...registryKeys.all, 'one', id] as const,
};

/** How often an upload still loading is read again. */
const POLL_MS = 1_000;

export const isLoading = (status: DncRegistryUploadView['status']) => status === 'queued' || status === 'running';

/** One upload, read again every second while the importer may still move it. */
export function useRegistryUpload(id: string | null) {
  return useQuery({
    queryKey: registryKeys.one(id ?? ''),
    enabled: id !== null,
    queryFn: ({ signal }) => apiRequest<DncRegistryUploadView>(`/api/admin/dnc-registry/${encodeURIComponent(id!)}`, { signal }),
    refetchInterval: (query) => (query.state.data && !isLoading(query.state.data.status) ? false : POLL_MS),
    refetchIntervalInBackground: true,
  });
}

/** Uploads, newest first, 20 a page; read again while one of them is still loading. */
export function useRegistryUploads(page: number) {
  return useQuery({
    queryKey: registryKeys.list(page),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => apiRequest<DncRegistryUploadPage>(`/api/admin/dnc-registry?page=${page}`, { signal }),
    refetchInterval: (query) => (query.state.data?.uploads.some((u) => isLoading(u.status)) ? POLL_MS * 2 : false),
  });
}

export type { UploadProgress } from '../../../lib/file-upload';

/** The registry file, sent with its progress, as the lead import sends its CSV. */
function uploadRegistryFile(file: File, onProgress: (progress: UploadProgress) => void): Promise<DncRegistryUploadView> {
  return uploadFile<DncRegistryUploadView>('/api/admin/dnc-registry', file, { onProgress, unreadable: 'The server answered something other than the upload' });
}

export function useUploadRegistryFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (progress: UploadProgress) => void }) => uploadRegistryFile(file, onProgress),
    onSuccess: (view) => {
      queryClient.setQueryData(registryKeys.one(view.id), view);
      return queryClient.invalidateQueries({ queryKey: registryKeys.all, predicate: (q) => q.queryKey[2] === 'list' });
    },
  });
}
