import { formatUsd } from '@warmline/contracts/pricing';
import type { SurveyResponseRecord } from '@warmline/contracts/surveys';
import { usDate } from '../../transfers/order-format';

/**
 * How a survey response's answers read in the back office (spec §3 "Test-campaign response"):
 * the Test Campaigns tables and the customer search's popup (issue 22) show the same fields.
 */

/** The columns every section shows, then those of its lead type (spec §3 "Test-campaign response"). */
type Column = { label: string; value: (r: SurveyResponseRecord) => string };
const dash = (value: string | number | null) => (value === null || value === '' ? '—' : String(value));
export const COMMON_COLUMNS: Column[] = [
  { label: 'Date', value: (r) => usDate(r.createdAt) },
  { label: 'Name', value: (r) => `${r.firstName} ${r.lastName}`.trim() },
  { label: 'Agency', value: (r) => r.agencyName },
  { label: 'Role', value: (r) => r.role },
  { label: 'Phone', value: (r) => r.phone },
  { label: 'Email', value: (r) => r.email },
  { label: 'Username', value: (r) => r.username },
  { label: 'States', value: (r) => r.workingStates },
  { label: 'Timezone', value: (r) => dash(r.timezone) },
];
export const LEAD_TYPE_COLUMNS: Record<string, Column[]> = {
  'Live Transfers': [
    { label: 'Total Transfers', value: (r) => dash(r.totalTransfers) },
    { label: 'Transfers / Day', value: (r) => dash(r.transfersPerDay) },
    { label: 'Calls / Day', value: (r) => dash(r.callsPerDay) },
    { label: 'Transfer Hours', value: (r) => dash(r.transferHours) },
  ],
  'Call-Backs': [
    { label: 'Total Callbacks', value: (r) => dash(r.totalCallbacks) },
    { label: 'Callback Preference', value: (r) => dash(r.callbackPreference) },
  ],
  'Aged Leads': [{ label: 'Age Range', value: (r) => (r.ageRange ? `${r.ageRange} days` : '—') }],
};
export const TAIL_COLUMNS: Column[] = [
  { label: 'Total Price', value: (r) => (r.totalPrice === null ? '—' : formatUsd(r.totalPrice)) },
  { label: 'Salesperson', value: (r) => r.salesperson },
  { label: 'ID', value: (r) => r.id },
];

/** Every answer of a response in order: step 1, then the step-2 answers of its lead type, then price and campaign. */
export function surveyResponseFields(r: SurveyResponseRecord): Array<[string, string]> {
  const leadType: Column = { label: 'Lead Type', value: (x) => x.leadType };
  return [...COMMON_COLUMNS, leadType, ...(LEAD_TYPE_COLUMNS[r.leadType] ?? []), ...TAIL_COLUMNS].map((c) => [c.label, c.value(r)]);
}
