import type { OptOutSource } from './do-not-call';
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

/** The most phones one opt-out list upload adds (a longer list goes in several files). */
export const SUPPRESSION_IMPORT_MAX_PHONES = 1000;

/**
 * `POST /api/admin/suppressions/import` (issue 24): a list of phones that opted out, as an admin
 * receives it from a lead vendor or a complaint desk; the browser reads the file (one phone a
 * line, or a CSV whose first column is the phone) and sends each line as it was.
 */
export const suppressionImportBody = z.object({
  fileName: z.string({ error: 'File name is required' }).trim().min(1, 'File name is required').max(255, 'File name must be at most 255 characters'),
  lines: z
    .array(z.string().max(200, 'Each line must be at most 200 characters'), { error: 'Choose a file with one phone number a line' })
    .min(1, 'The file has no phone numbers')
    .max(SUPPRESSION_IMPORT_MAX_PHONES, `At most ${SUPPRESSION_IMPORT_MAX_PHONES.toLocaleString('en-US')} phone numbers per file`),
  reason: z
    .string({ error: 'Reason is required' })
    .trim()
    .min(1, 'Reason is required')
    .max(500, 'Reason must be at most 500 characters'),
});

/** What an opt-out list upload did: each line that is not a phone says why, by its line number (1 = the first). */
export interface SuppressionImportResult {
  added: number;
  alreadyListed: number;
  invalid: Array<{ line: number; message: string }>;
}

/** `GET /api/admin/suppressions?q=&page=`. */
export const suppressionListQuery = z.object({
  q: z.string().trim().max(40, 'Search must be at most 40 characters').optional().default(''),
  page: pageParam.optional().default(1),
});

export interface SuppressionView {
  /** Ten digits. */
  phone: string;
  reason: string;
  /** Where the opt-out came from (issue 24). */
  source: OptOutSource;
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
