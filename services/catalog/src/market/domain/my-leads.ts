import { DO_NOT_CALL_CSV_COLUMN, doNotCallCsvCell, unlessOptedOut } from '@warmline/contracts/do-not-call';
import { AGED_LEAD_PAGE_SIZE, type MyLeadsResponse, type MyLeadsView, type PurchasedLead } from '@warmline/contracts/catalog';
import { prospectCallingHours } from '@warmline/contracts/calling-hours';
import { countPurchasedLeads, purchasedLeads, type PurchasedRow } from '../db/my-leads';
import { inReadSnapshot } from '../../db/snapshot';
import type { CatalogContext } from '../../domain/context';
import { toCsv } from '@warmline/platform/csv';
import { canMatch, parseLeadFilter } from './lead-filter';
import { formatPhone } from './masking';
import { returnsOfLeads, type LeadReturnRow } from '../db/lead-returns';
import { myReturnView } from './lead-returns';
import { dncCheckOf } from '@warmline/contracts/dnc-registry';
import { registryChecksOf, type RegistryCheck } from '../../suppressions/db/read-models/registry-checks';
import { utcDay } from '../../db/utc-days';

/**
 * My Leads: the leads this buyer bought, with every detail, the purchase date and the price
 * paid, filtered with the market's filter rule. Only ever the caller's own.
 */
export async function listMyLeads(
  ctx: CatalogContext,
  buyerUserId: string,
  query: { page: number; filter: string; view?: MyLeadsView },
): Promise<MyLeadsResponse> {
  // Issue 24: a returned lead leaves the active list; view=returned lists those.
  const view = query.view ?? 'active';
  const filter = parseLeadFilter(query.filter);
  const now = ctx.clock();
  const answer = (leads: PurchasedLead[], total: number): MyLeadsResponse => ({
    // The prospect's clock now, per row (issue 24 §3); My Leads logs no calls, so no cap is counted here.
    leads: leads.map((lead) => ({ ...lead, ...unlessOptedOut(prospectCallingHours(lead.state, lead.phone, now), lead.optedOutAt) })),
    total,
    page: query.page,
    pageSize: AGED_LEAD_PAGE_SIZE,
  });
  if (!canMatch(filter)) return answer([], 0);
  return inReadSnapshot(ctx.pool, async (db) => {
    const total = await countPurchasedLeads(db, buyerUserId, filter, view);
    const rows = await purchasedLeads(db, buyerUserId, filter, { offset: (query.page - 1) * AGED_LEAD_PAGE_SIZE, limit: AGED_LEAD_PAGE_SIZE }, view);
    const returns = await returnsOfLeads(db, rows.map((r) => r.id));
    const checks = await registryChecksOf(db, rows.map((r) => r.phone));
    const today = utcDay(ctx.clock());
    return answer(
      rows.map((r) => ({ ...toPurchasedLead(r, returns.get(r.id)), dnc: dncCheckOf(checks.get(r.phone) ?? NOT_CHECKED, today) })),
      total,
    );
  });
}

const NOT_CHECKED = { checkedOn: null, onRegistry: false };

function toPurchasedLead(row: PurchasedRow, leadReturn: LeadReturnRow | undefined): Omit<PurchasedLead, 'dnc'> {
  return {
    id: row.id,
    name: row.name,
    phone: formatPhone(row.phone),
    email: row.email,
    state: row.state,
    formFillTime: row.formFillTime.toISOString(),
    source: row.source,
    consent: row.consent,
    consentCertificate: row.consentCertificate,
    consentTime: row.consentTime?.toISOString() ?? null,
    consentIp: row.consentIp,
    ageRangeAtPurchase: row.ageRange,
    pricePaid: row.priceCents / 100,
    priceCents: row.priceCents,
    purchasedAt: row.soldAt.toISOString(),
    orderId: row.orderId,
    optedOutAt: row.optedOutAt?.toISOString() ?? null,
    leadReturn: leadReturn ? myReturnView(leadReturn) : null,
  };
}

export const MY_LEADS_CSV_HEADER = [
  // The importer's first five columns, in its order (issue 22 adds Zip).
  'Name',
  'Phone',
  'Email',
  'State',
  'Zip',
  // The name split as CRMs import it (issue 22), beside the name as the lead gave it.
  'First Name',
  'Last Name',
  'Form Fill Time (UTC)',
  'Age Range (days)',
  'Source',
  'Price Paid (USD)',
  'Purchased At (UTC)',
  'Order ID',
  'Lead ID',
  // The consent evidence in readable columns (issue 17 item 8), as My Leads shows it: no JSON.
  'Consent Certificate',
  'Consent Time (UTC)',
  'Consent IP',
  // Issue 24: 'Do not call — opted out on 2026-11-27' when the phone opted out since.
  DO_NOT_CALL_CSV_COLUMN,
  // Issue 24: the national DNC registry's check of the phone now.
  'DNC Registry',
  'DNC Checked On',
];

/**
 * The buyer's leads (all of them, or those the filter matches) as CSV, newest purchase first.
 * Times are ISO 8601 in UTC so spreadsheets and CRMs read them without guessing a format; the
 * consent record (the buyer's TCPA evidence) comes as three columns: certificate, time, address.
 */
export async function exportMyLeadsCsv(ctx: CatalogContext, buyerUserId: string, filterText: string): Promise<string> {
  const filter = parseLeadFilter(filterText);
  const rows = canMatch(filter) ? await purchasedLeads(ctx.pool, buyerUserId, filter) : [];
  const checks = await registryChecksOf(ctx.pool, rows.map((r) => r.phone));
  return toCsv(
    MY_LEADS_CSV_HEADER,
    rows.map((r) => [
      r.name,
      formatPhone(r.phone),
      r.email,
      r.state,
      r.zip,
      ...splitName(r.name),
      r.formFillTime.toISOString(),
      r.ageRange,
      r.source,
      (r.priceCents / 100).toFixed(2),
      r.soldAt.toISOString(),
      r.orderId,
      r.id,
      r.consentCertificate,
      r.consentTime?.toISOString() ?? null,
      r.consentIp,
      doNotCallCsvCell(r.optedOutAt),
      ...dncCsvCells(checks.get(r.phone)),
    ]),
  );
}

/** 'On the registry' / 'Not on the registry' / 'Not checked', and the registry's date. */
function dncCsvCells(check: RegistryCheck | undefined): [string, string | null] {
  if (!check?.checkedOn) return ['Not checked', null];
  return [check.onRegistry ? 'On the registry' : 'Not on the registry', check.checkedOn];
}

/** Words that begin a family name: 'Juan de la Cruz' → 'de la Cruz', 'Anna Van Buren' → 'Van Buren'. */
const NAME_PARTICLES = new Set(['da', 'das', 'de', 'del', 'della', 'den', 'der', 'di', 'do', 'dos', 'du', 'la', 'le', 'st', 'st.', 'van', 'von']);
/** Words that end a name after the family name: 'Smith, Jr.', 'King III'. */
const NAME_SUFFIX = /^(jr|sr|ii|iii|iv|md|phd|esq)\.?,?$/i;

/**
 * A full name as [first name, last name] for a CRM's two columns (issue 22). The last name is the
 * last word, with the particles before it ('de la Cruz') and the suffixes after it ('Smith, Jr.');
 * the first name is the rest, middle names included ('Mary Ann'). One word is a first name.
 */
export function splitName(fullName: string): [first: string, last: string] {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return [words[0] ?? '', ''];
  let start = words.length - 1;
  while (start > 1 && NAME_SUFFIX.test(words[start] as string)) start -= 1;
  while (start > 1 && NAME_PARTICLES.has((words[start - 1] as string).toLowerCase())) start -= 1;
  return [words.slice(0, start).join(' ').replace(/,$/, ''), words.slice(start).join(' ')];
}
