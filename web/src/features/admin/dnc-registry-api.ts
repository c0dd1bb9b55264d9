import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { VIEW_AS_HEADER } from '@warmline/contracts/view-as-names';
import type { DncRegistryUploadPage, DncRegistryUploadView } from '@warmline/contracts/dnc-registry';
import { ApiError, apiRequest } from '../../lib/api';
import { viewAsToken } from '../../lib/view-as-token';

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

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * Sends the registry file as multipart (`file`) with XMLHttpRequest, as the lead import does:
 * fetch cannot report how much of a request body has gone. Carries the cookies, the CSRF header
 * and this tab's view-as grant; a refusal becomes an ApiError with the server's words.
 */
function uploadRegistryFile(file: File, onProgress: (progress: UploadProgress) => void): Promise<DncRegistryUploadView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/admin/dnc-registry');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    const viewing = viewAsToken();
    if (viewing) xhr.setRequestHeader(VIEW_AS_HEADER, viewing);
    xhr.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as DncRegistryUploadView);
        } catch {
          reject(new ApiError(xhr.status, '', 'The server answered something other than the upload'));
        }
      } else {
        reject(new ApiError(xhr.status, xhr.responseText, xhr.statusText));
      }
    };
    xhr.onerror = () => reject(new Error('The upload was interrupted: the connection to the server was lost'));
    const body = new FormData();
    body.append('file', file, file.name);
    xhr.send(body);
  });
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
