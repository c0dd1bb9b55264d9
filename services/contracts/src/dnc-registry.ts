import { z } from 'zod';

/**
 * The national do-not-call registry (issue 24 item 2, docs/adr/0033): the files admins upload,
 * and the check every lead, call-back and transfer shows.
 */

/** The largest registry file accepted (the FTC's largest area codes hold a few million numbers). */
export const DNC_REGISTRY_MAX_BYTES = 500 * 1024 * 1024;
/** A check older than this many days is out of date (the TCPA's 31-day registry refresh). */
const DNC_CHECK_MAX_AGE_DAYS = 31;
/** Uploads listed per page. */
export const DNC_REGISTRY_PAGE_SIZE = 20;
/** Phones one internal check may ask about. */
const DNC_CHECK_MAX_PHONES = 100;

const DNC_REGISTRY_VALID_LINE =
  'one ten-digit US phone number a line, as the registry delivers it (e.g. 5125550143; a leading 1, spaces, dashes, dots or parentheses are ignored)';
export const DNC_REGISTRY_NO_NUMBER_MESSAGE = `The file has no valid phone number: each line must hold ${DNC_REGISTRY_VALID_LINE}`;
/** A purchase refused because a lead is on the registry without the consent certificate that exempts it. */
export const DNC_REGISTRY_NOT_SOLD_MESSAGE =
  'Some leads are on the national do-not-call registry without a consent certificate, so they cannot be sold';

type DncRegistryUploadStatus = 'queued' | 'running' | 'done' | 'failed';

export interface DncRegistryUploadView {
  id: string;
  fileName: string;
  /** The registry's date ('YYYY-MM-DD'): what "DNC checked {date}" shows for its area codes. */
  registryDate: string;
  status: DncRegistryUploadStatus;
  linesRead: number;
  numbersLoaded: number;
  invalidLines: number;
  /** The area codes whose registry this upload is (filled in as the file is read). */
  areaCodes: string[];
  fileBytes: number;
  bytesRead: number;
  /** 0–100, from the bytes read. */
  progressPercent: number;
  error: string | null;
  uploadedBy: { userId: string; name: string };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface DncRegistryUploadPage {
  uploads: DncRegistryUploadView[];
  total: number;
  page: number;
  pageSize: number;
}

/** The registry check of one phone, as every row that shows a phone carries it. */
export interface DncCheck {
  /** The date of the registry covering the phone's area code ('YYYY-MM-DD'); null: never checked. */
  checkedOn: string | null;
  onRegistry: boolean;
  /** No check, or one older than DNC_CHECK_MAX_AGE_DAYS. */
  outOfDate: boolean;
}

/** DncCheck as a schema, for answers described with zod. */
export const dncCheckSchema = z.object({ checkedOn: z.string().nullable(), onRegistry: z.boolean(), outOfDate: z.boolean() });

/** What the catalog's internal check answers for each phone (the transfers service adds outOfDate). */
export interface DncRegistryCheckAnswer {
  checks: Record<string, { checkedOn: string | null; onRegistry: boolean }>;
}

const pageParam = z.coerce.number({ error: 'page must be a number' }).int('page must be a whole number').min(1, 'page must be at least 1').max(10_000, 'page must be at most 10000');

export const dncRegistryListQuery = z.object({ page: pageParam.optional().default(1) });

export const dncRegistryUploadQuery = z.object({
  fileName: z.string().trim().min(1).max(200, 'File name must be at most 200 characters').optional(),
});

/** `POST /api/internal/dnc-registry/checks`. */
export const dncRegistryChecksBody = z.object({
  phones: z
    .array(z.string().regex(/^[0-9]{10}$/, 'phones must be ten digits each'), { error: 'phones must be a list of ten-digit phone numbers' })
    .max(DNC_CHECK_MAX_PHONES, `phones must hold at most ${DNC_CHECK_MAX_PHONES} numbers`),
});

/** `?hideDncMatches=true` on the market's list routes. */
export const hideDncMatchesParam = z
  .enum(['true', 'false'], { error: 'hideDncMatches must be true or false' })
  .optional()
  .transform((v) => v === 'true');

/** The check as shown: out of date when never checked or older than 31 days on `today` ('YYYY-MM-DD'). */
export function dncCheckOf(check: { checkedOn: string | null; onRegistry: boolean }, today: string): DncCheck {
  if (!check.checkedOn) return { checkedOn: null, onRegistry: false, outOfDate: true };
  const ageDays = (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${check.checkedOn}T00:00:00Z`)) / 86_400_000;
  return { checkedOn: check.checkedOn, onRegistry: check.onRegistry, outOfDate: ageDays > DNC_CHECK_MAX_AGE_DAYS };
}

