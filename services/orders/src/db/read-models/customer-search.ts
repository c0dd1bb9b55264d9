import type { CustomerSearchTerms } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/**
 * The orders service's part of the customer search (issue 12): paying customers of the public
 * checkouts — package and second-brand orders (kind 'package'), paid — who may have no account,
 * found by billing name, e-mail or phone digits. `exact`: the e-mail or the phone digits equal
 * the text.
 *
 * SEARCHED and the two expressions are those of migrations/1766000000100_customer-search-indexes.sql
 * (partial indexes: PostgreSQL uses them only for the same predicate and expressions).
 */
const SEARCHED = `kind = 'package' AND status = 'paid' AND billing_email IS NOT NULL`;
const SEARCH_TEXT = `(coalesce(billing_name, '') || E'\\n' || billing_email)`;
const PHONE_DIGITS = `regexp_replace(coalesce(billing_phone, ''), '\\D', '', 'g')`;

export interface CheckoutCustomerMatch {
  orderId: string;
  name: string | null;
  email: string;
  phone: string | null;
  tier: string;
  /** The second brand's product (Live Transfers, Call-Backs, Aged Leads); null for the main checkouts. */
  leadType: string | null;
  createdAt: Date;
  exact: boolean;
}

/**
 * One customer per e-mail (their newest paid order), exact matches first, then the newest. Each
 * half reads at most `limit` × 2 orders, newest first, so a common word costs about as much as a
 * rare one; a customer with several orders among them counts once (and a list of 50 can then
 * come a little short when most of the newest matches are the same few people's repeat orders).
 */
export async function searchCheckoutCustomers(db: Queryable, terms: CustomerSearchTerms, limit: number): Promise<CheckoutCustomerMatch[]> {
  const values: unknown[] = [terms.lowered, terms.containsPattern, limit * 2];
  let exact = `lower(billing_email) = $1`;
  let contains = `${SEARCH_TEXT} ILIKE $2 ESCAPE '\\'`;
  if (terms.phoneDigits) {
    values.push(terms.phoneDigits, `%${terms.phoneDigits}%`);
    exact += ` OR ${PHONE_DIGITS} = $4`;
    contains += ` OR ${PHONE_DIGITS} LIKE $5`;
  }
  const columns = `id AS "orderId", billing_name AS name, billing_email AS email, billing_phone AS phone, tier, lead_type AS "leadType", created_at AS "createdAt"`;
  const { rows } = await db.query<CheckoutCustomerMatch>(
    `(SELECT ${columns}, true AS exact FROM package_orders WHERE ${SEARCHED} AND (${exact}) ORDER BY created_at DESC LIMIT $3)
     UNION ALL
     (SELECT ${columns}, false AS exact FROM package_orders WHERE ${SEARCHED} AND (${contains}) AND NOT (${exact}) ORDER BY created_at DESC LIMIT $3)`,
    values,
  );
  // Rows come exact first, each half newest first: the first row of an e-mail is the one to keep.
  const seen = new Set<string>();
  const customers: CheckoutCustomerMatch[] = [];
  for (const row of rows) {
    const key = row.email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    customers.push(row);
    if (customers.length === limit) break;
  }
  return customers;
}
