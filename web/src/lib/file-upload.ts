import { VIEW_AS_HEADER } from '@warmline/contracts/view-as-names';
import { ApiError } from './api';
import { viewAsToken } from './view-as-token';

/** How far the file itself has gone up to the server. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** The upload was stopped (Stop upload) before the server had the whole file. */
export class UploadAborted extends Error {
  override name = 'UploadAborted';
}

/**
 * POSTs one file as multipart (`file`) with XMLHttpRequest, not fetch: fetch cannot report how
 * much of a request body has gone, and a file of hundreds of MB needs a bar of its own. Carries
 * what apiRequest carries (cookies, the CSRF header, this tab's view-as grant); a refusal becomes
 * an ApiError with the server's words, as apiRequest's do. `unreadable` is the words when the
 * server's 2xx answer is not JSON.
 */
export function uploadFile<T>(
  path: string,
  file: File,
  options: { onProgress: (progress: UploadProgress) => void; unreadable: string; signal?: AbortSignal | undefined },
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    const viewing = viewAsToken();
    if (viewing) xhr.setRequestHeader(VIEW_AS_HEADER, viewing);
    xhr.upload.onprogress = (event) => options.onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as T);
        } catch {
          reject(new ApiError(xhr.status, '', options.unreadable));
        }
      } else {
        reject(new ApiError(xhr.status, xhr.responseText, xhr.statusText));
      }
    };
    xhr.onerror = () => reject(new Error('The upload was interrupted: the connection to the server was lost'));
    xhr.onabort = () => reject(new UploadAborted('Upload stopped'));
    const { signal } = options;
    if (signal) {
      if (signal.aborted) {
        reject(new UploadAborted('Upload stopped'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    const body = new FormData();
    body.append('file', file, file.name);
    xhr.send(body);
  });
}
