import type { CustomerSearchTerms } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/**
 * The partners service's part of the customer search (issue 12): partner applications found by
 * business name, contact name, e-mail or phone digits. `exact`: the e-mail or the phone digits
 * equal the text.
 *
 * SEARCH_TEXT is the expression of migrations/1767000000000_partner-applications.sql's trigram
 * index (PostgreSQL uses an expression index only for the same expression); phone_digits is a
 * stored column with its own indexes.
 */
const SEARCH_TEXT = `(business_name || E'\\n' || contact_name || E'\\n' || email)`;

export interface PartnerApplicationMatch {
  id: string;
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  createdAt: Date;
  exact: boolean;
}

/** Exact matches first, then the rest; each newest first; at most `limit` in all. */
export async function searchPartnerApplications(db: Queryable, terms: CustomerSearchTerms, limit: number): Promise<PartnerApplicationMatch[]> {
  const values: unknown[] = [terms.lowered, terms.containsPattern, limit];
  let exact = `lower(email) = $1`;
  let contains = `${SEARCH_TEXT} ILIKE $2 ESCAPE '\\'`;
  if (terms.phoneDigits) {
    values.push(terms.phoneDigits, `%${terms.phoneDigits}%`);
    exact += ` OR phone_digits = $4`;
    contains += ` OR phone_digits LIKE $5`;
  }
  const columns = `id, business_name AS "businessName", contact_name AS "contactName", email, phone, created_at AS "createdAt"`;
  const { rows } = await db.query<PartnerApplicationMatch>(
    `(SELECT ${columns}, true AS exact FROM partner_applications WHERE ${exact} ORDER BY created_at DESC, id DESC LIMIT $3)
     UNION ALL
     (SELECT ${columns}, false AS exact FROM partner_applications WHERE (${contains}) AND NOT (${exact}) ORDER BY created_at DESC, id DESC LIMIT $3)`,
    values,
  );
  // Exact first (the first half comes first in a UNION ALL of parenthesised parts in practice, but not by rule).
  return [...rows.filter((r) => r.exact), ...rows.filter((r) => !r.exact)].slice(0, limit);
}
