import type { PartnerApplication, PartnerApplicationCreated } from '@warmline/contracts/partners';
import { ApiError } from '../../lib/api';

/** How far the application (its text and documents) has gone up to the server. */
export interface SendProgress {
  loaded: number;
  total: number;
}

/** The connection dropped before the server answered (no status to show). */
export class SendInterrupted extends Error {
  override name = 'SendInterrupted';
}

/** Spec §7: the multipart body — text fields, servicesInterested as JSON text, agreeToTerms 'true', documents file_0…file_4. */
function applicationFormData(application: PartnerApplication, documents: readonly File[]): FormData {
  const body = new FormData();
  body.append('businessName', application.businessName);
  body.append('contactName', application.contactName);
  body.append('email', application.email);
  body.append('phone', application.phone);
  body.append('website', application.website);
  body.append('businessType', application.businessType);
  body.append('experienceYears', application.experienceYears);
  body.append('monthlyVolume', application.monthlyVolume);
  body.append('servicesInterested', JSON.stringify(application.servicesInterested));
  body.append('targetMarkets', application.targetMarkets);
  body.append('businessDescription', application.businessDescription);
  body.append('whyPartner', application.whyPartner);
  body.append('agreeToTerms', 'true');
  documents.forEach((file, i) => body.append(`file_${i}`, file, file.name));
  return body;
}

/**
 * POST /api/affnetwork-signup with XMLHttpRequest, not fetch: fetch cannot say how much of a
 * request body has gone, and five documents of 10 MB need a bar. Sends cookies and the CSRF
 * header as apiRequest does; a refusal becomes an ApiError with the server's words.
 */
export function submitPartnerApplication(
  application: PartnerApplication,
  documents: readonly File[],
  onProgress: (progress: SendProgress) => void,
  signal?: AbortSignal,
): Promise<PartnerApplicationCreated> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/affnetwork-signup');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as PartnerApplicationCreated);
        } catch {
          reject(new ApiError(xhr.status, '', 'The server answered something other than the application'));
        }
      } else {
        reject(new ApiError(xhr.status, xhr.responseText, xhr.statusText));
      }
    };
    xhr.onerror = () => reject(new SendInterrupted('The connection to the server was lost before it answered'));
    xhr.onabort = () => reject(new SendInterrupted('Sending was stopped'));
    if (signal) {
      if (signal.aborted) {
        reject(new SendInterrupted('Sending was stopped'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(applicationFormData(application, documents));
  });
}

/** A refusal's problems by field (`issues[].path`, e.g. 'email' or 'servicesInterested.0'), first message each. */
export function issuesByField(error: ApiError): Record<string, string> {
  const byField: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(error.bodyText);
    const issues = parsed && typeof parsed === 'object' && 'issues' in parsed && Array.isArray(parsed.issues) ? (parsed.issues as unknown[]) : [];
    for (const issue of issues) {
      if (!issue || typeof issue !== 'object') continue;
      const { path, message } = issue as { path?: unknown; message?: unknown };
      if (typeof message !== 'string') continue;
      const field = (Array.isArray(path) ? String(path[0] ?? '') : String(path ?? '')).split('.')[0] ?? '';
      if (field && !(field in byField)) byField[field] = message;
    }
  } catch {
    // Not JSON: the message alone says it.
  }
  return byField;
}
