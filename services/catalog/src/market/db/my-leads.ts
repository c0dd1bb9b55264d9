import type { Queryable } from '@warmline/platform/db/index';
import type { AgedLeadAgeRange } from '@warmline/contracts';

/** A buyer's filter of their leads as the query takes it (domain/lead-filter.ts parses it from the search box). */
export interface LeadFilter {
  /** The terms as given (trimmed, upper-cased, empty ones dropped). */
  terms: string[];
  /** No terms: every lead. */
  all: boolean;
  /** State codes that contain at least one term. */
  states: string[];
  /** 3-character terms, compared with the phone's area code. */
  areaCodes: string[];
  /** 5-digit terms, compared with the lead's zip code. */
  zips: string[];
}

/** One buyer's purchased leads. Every query is bound to `sold_to_user_id`: no buyer reads another's. */

export interface PurchasedRow {
  id: string;
  name: string;
  phone: string;
  email: string | null;
  state: string;
  zip: string | null;
  formFillTime: Date;
  source: string;
  consent: Record<string, unknown>;
  consentCertificate: string | null;
  consentTime: Date | null;
  consentIp: string | null;
  ageRange: AgedLeadAgeRange;
  priceCents: number;
  soldAt: Date;
  orderId: string;
  /** When the phone went on the suppression list, or null (issue 24: the buyer must stop calling). */
  optedOutAt: Date | null;
}

const MATCHES = `($2::boolean OR state = ANY($3::text[]) OR area_code = ANY($4::text[]) OR zip = ANY($5::text[]))`;

/** Which of the buyer's leads (issue 24): not returned, returned, or all (the CSV export). */
export type PurchasedView = 'active' | 'returned' | 'all';
const VIEW: Record<PurchasedView, string> = { active: 'AND returned_at IS NULL', returned: 'AND returned_at IS NOT NULL', all: '' };

function filterParams(filter: LeadFilter): unknown[] {
  return [filter.all, filter.states, filter.areaCodes, filter.zips];
}

export async function countPurchasedLeads(db: Queryable, buyerUserId: string, filter: LeadFilter, view: PurchasedView = 'all'): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM aged_leads WHERE sold_to_user_id = $1 AND sold_at IS NOT NULL AND ${MATCHES} ${VIEW[view]}`,
    [buyerUserId, ...filterParams(filter)],
  );
  return rows[0]?.n ?? 0;
}

/** Newest purchase first; `page` omitted = all of them (the CSV export). */
export async function purchasedLeads(
  db: Queryable,
  buyerUserId: string,
  filter: LeadFilter,
  page?: { offset: number; limit: number },
  view: PurchasedView = 'all',
): Promise<PurchasedRow[]> {
  const params = [buyerUserId, ...filterParams(filter)];
  const paging = page ? `OFFSET $6 LIMIT $7` : '';
  if (page) params.push(page.offset, page.limit);
  const { rows } = await db.query<{
    id: string;
    name: string;
    phone: string;
    email: string | null;
    state: string;
    zip: string | null;
    form_fill_time: Date;
    source: string;
    consent: Record<string, unknown>;
    consent_certificate: string | null;
    consent_time: Date | null;
    consent_ip: string | null;
    sold_age_range: AgedLeadAgeRange;
    sold_price_cents: number;
    sold_at: Date;
    sold_order_id: string;
    opted_out_at: Date | null;
  }>(
    // host(): the address alone, without the /32 or /128 an inet's text would carry.
    `SELECT id, name, phone, email, state, zip, form_fill_time, source, consent, consent_certificate, consent_time,
            host(consent_ip) AS consent_ip, sold_age_range, sold_price_cents, sold_at, sold_order_id,
            (SELECT s.created_at FROM lead_suppressions s WHERE s.phone = aged_leads.phone) AS opted_out_at
       FROM aged_leads
      WHERE sold_to_user_id = $1 AND sold_at IS NOT NULL AND ${MATCHES} ${VIEW[view]}
      ORDER BY sold_at DESC, id DESC ${paging}`,
    params,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    phone: r.phone,
    email: r.email,
    state: r.state,
    zip: r.zip,
    formFillTime: r.form_fill_time,
    source: r.source,
    consent: r.consent,
    consentCertificate: r.consent_certificate,
    consentTime: r.consent_time,
    consentIp: r.consent_ip,
    ageRange: r.sold_age_range,
    priceCents: r.sold_price_cents,
    soldAt: r.sold_at,
    orderId: r.sold_order_id,
    optedOutAt: r.opted_out_at,
  }));
}
