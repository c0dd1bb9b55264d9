import type { PartnerApplication, PartnerApplicationStatus } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/** Queries of the partners schema: applications and their documents' records. */

export interface ApplicationRow {
  id: string;
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  website: string;
  businessType: string;
  experienceYears: string;
  monthlyVolume: string;
  servicesInterested: string[];
  targetMarkets: string;
  businessDescription: string;
  whyPartner: string;
  status: PartnerApplicationStatus;
  applicantIp: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface DocumentRow {
  applicationId: string;
  position: number;
  filename: string;
  originalName: string;
  size: number;
  contentType: string;
  blobKey: string;
}

const APPLICATION_COLUMNS = `
  id, business_name AS "businessName", contact_name AS "contactName", email, phone, website,
  business_type AS "businessType", experience_years AS "experienceYears", monthly_volume AS "monthlyVolume",
  services_interested AS "servicesInterested", target_markets AS "targetMarkets",
  business_description AS "businessDescription", why_partner AS "whyPartner", status,
  applicant_ip AS "applicantIp", created_at AS "createdAt", updated_at AS "updatedAt"`;

const DOCUMENT_COLUMNS = `
  application_id AS "applicationId", position, filename, original_name AS "originalName",
  size::float8 AS size, content_type AS "contentType", blob_key AS "blobKey"`;

export async function insertApplication(
  db: Queryable,
  row: { id: string; answers: PartnerApplication; applicantIp: string | null; at: Date },
): Promise<ApplicationRow> {
  const a = row.answers;
  const { rows } = await db.query<ApplicationRow>(
    `INSERT INTO partner_applications
       (id, business_name, contact_name, email, phone, website, business_type, experience_years, monthly_volume,
        services_interested, target_markets, business_description, why_partner, agreed_to_terms, applicant_ip,
        created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)
     RETURNING ${APPLICATION_COLUMNS}`,
    [
      row.id,
      a.businessName,
      a.contactName,
      a.email,
      a.phone,
      a.website,
      a.businessType,
      a.experienceYears,
      a.monthlyVolume,
      a.servicesInterested,
      a.targetMarkets,
      a.businessDescription,
      a.whyPartner,
      a.agreeToTerms,
      row.applicantIp,
      row.at,
    ],
  );
  return rows[0]!;
}

export async function insertDocuments(db: Queryable, documents: DocumentRow[]): Promise<void> {
  if (documents.length === 0) return;
  await db.query(
    `INSERT INTO partner_documents (application_id, position, filename, original_name, size, content_type, blob_key)
     SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[])`,
    [
      documents.map((d) => d.applicationId),
      documents.map((d) => d.position),
      documents.map((d) => d.filename),
      documents.map((d) => d.originalName),
      documents.map((d) => d.size),
      documents.map((d) => d.contentType),
      documents.map((d) => d.blobKey),
    ],
  );
}

export async function findApplication(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<ApplicationRow | null> {
  const { rows } = await db.query<ApplicationRow>(
    `SELECT ${APPLICATION_COLUMNS} FROM partner_applications WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** One page, newest first, and how many there are in all (of the status, when given). */
export async function listApplications(
  db: Queryable,
  filter: { status?: PartnerApplicationStatus | undefined; offset: number; limit: number },
): Promise<{ rows: ApplicationRow[]; total: number }> {
  const status = filter.status ?? null;
  const [page, count] = await Promise.all([
    db.query<ApplicationRow>(
      `SELECT ${APPLICATION_COLUMNS} FROM partner_applications
        WHERE ($1::text IS NULL OR status = $1)
        ORDER BY created_at DESC, id DESC
        OFFSET $2 LIMIT $3`,
      [status, filter.offset, filter.limit],
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM partner_applications WHERE ($1::text IS NULL OR status = $1)`,
      [status],
    ),
  ]);
  return { rows: page.rows, total: count.rows[0]?.total ?? 0 };
}

export async function documentsOf(db: Queryable, applicationIds: string[]): Promise<DocumentRow[]> {
  if (applicationIds.length === 0) return [];
  const { rows } = await db.query<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM partner_documents WHERE application_id = ANY($1::uuid[]) ORDER BY application_id, position`,
    [applicationIds],
  );
  return rows;
}

export async function findDocument(db: Queryable, applicationId: string, filename: string): Promise<DocumentRow | null> {
  const { rows } = await db.query<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM partner_documents WHERE application_id = $1 AND filename = $2`,
    [applicationId, filename],
  );
  return rows[0] ?? null;
}

export async function updateStatus(db: Queryable, id: string, status: PartnerApplicationStatus, at: Date): Promise<ApplicationRow> {
  const { rows } = await db.query<ApplicationRow>(
    `UPDATE partner_applications SET status = $2, updated_at = $3 WHERE id = $1 RETURNING ${APPLICATION_COLUMNS}`,
    [id, status, at],
  );
  return rows[0]!;
}

/** Deletes the application; its documents' rows go with it (ON DELETE CASCADE). */
export async function deleteApplication(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM partner_applications WHERE id = $1', [id]);
}
