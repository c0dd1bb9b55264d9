/**
 * Do-not-call marks (issue 24): when a phone opts out, every agent who holds it — a bought
 * lead, a delivered call-back, a transfer — sees it marked in their lists and CSV exports, and
 * the suppression list keeps where the opt-out came from.
 */

/**
 * Where an opt-out came from: an admin's entry, the vendor's call (a call-back webhook's or a
 * transfer outcome's `dnc`), or an admin's upload of a list of opted-out phones.
 */
const OPT_OUT_SOURCES = ['admin', 'vendor', 'import'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

export const OPT_OUT_SOURCE_LABELS: Record<OptOutSource, string> = {
  admin: 'Admin',
  vendor: 'Vendor call',
  import: 'Imported list',
};

/** 'Do not call — opted out on 11/27/2026': `date` as the reader's screen or file shows dates. */
export function doNotCallMark(date: string): string {
  return `Do not call — opted out on ${date}`;
}

/** Why an opted-out phone is not callable at any hour (the calling-hours verdict beside its clock). */
const OPTED_OUT_CALLING_NOTE = 'Opted out';

/**
 * A held phone's calling hours (issue 24): once it opted out it may not be called at any hour,
 * whatever its clock says; its local time still shows.
 */
export function unlessOptedOut<T extends { callableNow: boolean; callingHoursNote: string | null }>(hours: T, optedOutAt: Date | string | null): T {
  return optedOutAt ? { ...hours, callableNow: false, callingHoursNote: OPTED_OUT_CALLING_NOTE } : hours;
}

/** The CSV column of My Leads, My Call-backs and My Transfers exports; empty when the phone may be called. */
export const DO_NOT_CALL_CSV_COLUMN = 'Do Not Call';

/** The CSV cell: the mark with the opt-out's UTC date (CSV times are UTC, ISO 8601). */
export function doNotCallCsvCell(optedOutAt: Date | null): string {
  return optedOutAt ? doNotCallMark(optedOutAt.toISOString().slice(0, 10)) : '';
}
