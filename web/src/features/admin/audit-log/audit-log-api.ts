import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditLogPage } from '@warmline/contracts/admin-accounts';
import { apiRequest } from '../../../lib/api';
import { adminKeys } from '../shared/api';

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
