import type { Queryable } from '@warmline/platform/db/index';

/**
 * The orders service's part of the customer search (issue 12): paying customers of the public
 * checkouts (package and second-brand orders; they may have no account), one per e-mail, their
 * latest billing details. `exact`: e-mail or phone digits equal to the text.
 */
export interface CheckoutCustomerMatch {
  orderId: string;
  name: string | null;
  email: string;
  phone: string | null;
  tier: string;
  createdAt: Date;
  exact: boolean;
}

export async function searchCheckoutCustomers(db: Queryable, text: string, limit: number): Promise<CheckoutCustomerMatch[]> {
  const digits = text.replace(/\D/g, '');
  const { rows } = await db.query<CheckoutCustomerMatch>(
    `SELECT * FROM (
       SELECT DISTINCT ON (lower(billing_email))
              id AS "orderId", billing_name AS name, billing_email AS email, billing_phone AS phone, tier, created_at AS "createdAt",
              (lower(billing_email) = $2 OR ($3 <> '' AND regexp_replace(coalesce(billing_phone, ''), '\\D', '', 'g') = $3)) AS exact
         FROM package_orders
        WHERE kind = 'package' AND status = 'paid' AND billing_email IS NOT NULL
          AND (billing_name ILIKE $1 ESCAPE '\\' OR billing_email ILIKE $1 ESCAPE '\\'
               OR ($3 <> '' AND regexp_replace(coalesce(billing_phone, ''), '\\D', '', 'g') LIKE '%' || $3 || '%'))
        ORDER BY lower(billing_email), created_at DESC
     ) latest
     ORDER BY exact DESC, "createdAt" DESC LIMIT $4`,
    [`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, text.toLowerCase(), digits.length >= 3 ? digits : '', limit],
  );
  return rows;
}
