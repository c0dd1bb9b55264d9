import { z } from 'zod';

/**
 * Aged-lead imports and the suppression list (issue 13): what the catalog's import routes answer
 * and accept. The rules for each row are in lead-import.ts.
 */

/** The largest import file (LEAD_IMPORT_MAX_BYTES may lower it). */
export const LEAD_IMPORT_MAX_BYTES = 500 * 1024 * 1024;
/** An import's file is deleted this long after the import ends; the job and its report stay. */
export const LEAD_IMPORT_FILE_RETENTION_DAYS = 30;
/** Past imports and suppressions per page. */
export const LEAD_IMPORT_PAGE_SIZE = 20;
export const SUPPRESSION_PAGE_SIZE = 50;

const LEAD_IMPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type LeadImportStatus = (typeof LEAD_IMPORT_STATUSES)[number];

/** `GET /api/admin/lead-imports/{id}`; the first eleven fields are the contract. */
export interface LeadImportView {
  id: string;
  status: LeadImportStatus;
  fileName: string;
  rowsRead: number;
  rowsImported: number;
  rowsRejected: number;
  rowsDuplicate: number;
  startedAt: string | null;
  finishedAt: string | null;
  /** Why a failed import stopped (the file could not be read, the worker gave up). */
  error: string | null;
  /** Data lines counted at upload (for the progress bar and time left). */
  rowsTotal: number;
  fileBytes: number;
  bytesRead: number;
  createdAt: string;
  startedBy: { userId: string; name: string };
  /** Said once at upload, e.g. that Age Range and Price columns are ignored. */
  notice: string | null;
  cancelRequested: boolean;
  undoneAt: string | null;
  /** Leads taken off sale by Undo. */
  rowsWithdrawn: number | null;
}

export interface LeadImportPage {
  imports: LeadImportView[];
  total: number;
  page: number;
  pageSize: number;
}

const pageParam = z
  .string()
  .max(6, 'Page must be a whole number of 1 or more')
  .regex(/^\d{1,6}$/, 'Page must be a whole number of 1 or more')
  .transform(Number)
  .refine((n) => n >= 1, 'Page must be a whole number of 1 or more');

/** `GET /api/admin/lead-imports?page=`. */
export const leadImportListQuery = z.object({ page: pageParam.optional().default(1) });

/** `POST /api/admin/lead-imports?fileName=` when the CSV is the raw body. */
export const leadImportUploadQuery = z.object({
  fileName: z.string().trim().min(1).max(200, 'File name must be at most 200 characters').optional(),
});

/** `POST /api/admin/lead-imports` answers 202 with the new import's id. */
export interface LeadImportCreated {
  id: string;
  notice: string | null;
}

/** `POST /api/admin/suppressions`: a phone that opted out, and why. */
export const suppressionBody = z.object({
  phone: z.string({ error: 'Phone is required' }).trim().min(1, 'Phone is required').max(40, 'Phone must be at most 40 characters'),
  reason: z
    .string({ error: 'Reason is required' })
    .trim()
    .min(1, 'Reason is required')
    .max(500, 'Reason must be at most 500 characters'),
});

/** `GET /api/admin/suppressions?q=&page=`. */
export const suppressionListQuery = z.object({
  q: z.string().trim().max(40, 'Search must be at most 40 characters').optional().default(''),
  page: pageParam.optional().default(1),
});

export interface SuppressionView {
  /** Ten digits. */
  phone: string;
  reason: string;
  createdAt: string;
  createdByUserId: string;
}

export interface SuppressionPage {
  suppressions: SuppressionView[];
  total: number;
  page: number;
  pageSize: number;
}

/** What `POST /api/admin/suppressions` did at once. */
export interface SuppressionCreated extends SuppressionView {
  /** Unsold leads with the phone taken off sale. */
  leadsWithdrawn: number;
  /** Buyers told to stop contacting the phone. */
  buyersNotified: number;
}
