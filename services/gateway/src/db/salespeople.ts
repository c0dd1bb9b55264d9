import type { Queryable } from '@warmline/platform';

export interface SalespersonRecord {
  id: string;
  slug: string;
  displayName: string;
  active: boolean;
  createdAt: Date;
}

const COLUMNS = `id, slug, display_name AS "displayName", active, created_at AS "createdAt"`;

/** The salesperson with this slug, active or not (slugs are stored lower-case). */
export async function findSalespersonBySlug(db: Queryable, slug: string): Promise<SalespersonRecord | null> {
  const { rows } = await db.query<SalespersonRecord>(`SELECT ${COLUMNS} FROM salespeople WHERE slug = lower($1)`, [slug]);
  return rows[0] ?? null;
}

/** Inserts the salesperson unless the slug exists; true when a row was created. */
export async function insertSalespersonIfMissing(
  db: Queryable,
  salesperson: { slug: string; displayName: string; active?: boolean },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO salespeople (slug, display_name, active) VALUES ($1, $2, $3) ON CONFLICT (slug) DO NOTHING`,
    [salesperson.slug, salesperson.displayName, salesperson.active ?? true],
  );
  return (rowCount ?? 0) > 0;
}
