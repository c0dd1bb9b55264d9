import type { Queryable } from '@warmline/platform/db/index';

/**
 * The national do-not-call registry's answer for phones (issue 24, migration 1769600000001): the
 * date of the registry covering its area code, and whether the phone is on it.
 */

export interface RegistryCheck {
  /** The covering upload's date ('YYYY-MM-DD'); null when no upload has covered the area code. */
  checkedOn: string | null;
  /** On the registry as of checkedOn (false when not checked). */
  onRegistry: boolean;
}

/** The registry's answer for each of `phones` (ten digits each), in one query. */
export async function registryChecksOf(db: Queryable, phones: readonly string[]): Promise<Map<string, RegistryCheck>> {
  const unique = [...new Set(phones)];
  const checks = new Map<string, RegistryCheck>();
  if (unique.length === 0) return checks;
  const { rows } = await db.query<{ phone: string; checked_on: string | null; on_registry: boolean }>(
    `SELECT p.phone, to_char(a.registry_date, 'YYYY-MM-DD') AS checked_on, (n.phone IS NOT NULL) AS on_registry
       FROM unnest($1::text[]) AS p (phone)
       LEFT JOIN dnc_registry_area_codes a ON a.area_code = left(p.phone, 3)
       LEFT JOIN dnc_registry_numbers n ON n.phone = p.phone`,
    [unique],
  );
  for (const r of rows) checks.set(r.phone, { checkedOn: r.checked_on, onRegistry: r.checked_on !== null && r.on_registry });
  return checks;
}
