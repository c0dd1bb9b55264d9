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

/** A salesperson as the admin's Test Campaigns list shows it, with its response count. */
export interface CampaignRecord extends SalespersonRecord {
  responseCount: number;
}

const CAMPAIGN_COLUMNS = `s.id, s.slug, s.display_name AS "displayName", s.active, s.created_at AS "createdAt",
  (SELECT count(*)::int FROM survey_responses r WHERE r.salesperson_id = s.id) AS "responseCount"`;

export async function findSalespersonById(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<SalespersonRecord | null> {
  const { rows } = await db.query<SalespersonRecord>(
    `SELECT ${COLUMNS} FROM salespeople WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** Inserts a salesperson; a taken slug throws the unique violation (the caller answers 409). */
export async function insertSalesperson(
  db: Queryable,
  salesperson: { slug: string; displayName: string; createdBy: string },
): Promise<SalespersonRecord> {
  const { rows } = await db.query<SalespersonRecord>(
    `INSERT INTO salespeople (slug, display_name, active, created_by) VALUES ($1, $2, true, $3) RETURNING ${COLUMNS}`,
    [salesperson.slug, salesperson.displayName, salesperson.createdBy],
  );
  return rows[0]!;
}

export async function updateSalespersonActive(db: Queryable, id: string, active: boolean): Promise<SalespersonRecord | null> {
  const { rows } = await db.query<SalespersonRecord>(`UPDATE salespeople SET active = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, active]);
  return rows[0] ?? null;
}

/** Every salesperson, newest first, with how many surveys came through their page. */
export async function listCampaigns(db: Queryable): Promise<CampaignRecord[]> {
  const { rows } = await db.query<CampaignRecord>(`SELECT ${CAMPAIGN_COLUMNS} FROM salespeople s ORDER BY s.created_at DESC, s.slug`);
  return rows;
}

export async function findCampaignById(db: Queryable, id: string): Promise<CampaignRecord | null> {
  const { rows } = await db.query<CampaignRecord>(`SELECT ${CAMPAIGN_COLUMNS} FROM salespeople s WHERE s.id = $1`, [id]);
  return rows[0] ?? null;
}
