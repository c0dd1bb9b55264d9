import type { Readable } from 'node:stream';
import {
  PARTNER_APPLICATION_PAGE_SIZE,
  PARTNER_SUBMITTED_MESSAGE,
  partnerApplicationFormFields,
  type PartnerApplicationCreated,
  type PartnerApplicationStatus,
  type PartnerApplicationView,
} from '@warmline/contracts';
import { enqueue } from '@warmline/platform/bus/index';
import { withTransaction } from '@warmline/platform/db/index';
import { AppError, notFound } from '@warmline/platform/errors';
import { parseInput, unstorableText } from '@warmline/platform/validation';
import {
  deleteApplication as deleteApplicationRow,
  documentsOf,
  findApplication,
  findDocument,
  insertApplication,
  insertDocuments,
  listApplications,
  updateStatus,
  type ApplicationRow,
  type DocumentRow,
} from '../db/applications';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import type { ActingAdmin } from '@warmline/platform/identity';
import { SOURCE, type PartnersContext } from './context';
import { documentUrl } from './documents';


/**
 * Partner applications (issue 14, docs/adr/0018): an applicant's form with its documents,
 * stored all or nothing; the admins' list, status changes, deletions and downloads.
 */

/** A document already streamed into the BlobStore (and checked by its bytes) for an application. */
export interface StoredDocument {
  /** 1 for the first file sent. */
  position: number;
  /** 'doc-1.pdf'. */
  filename: string;
  originalName: string;
  size: number;
  /** Detected from the bytes. */
  contentType: string;
  blobKey: string;
}

export interface Submission {
  /** Chosen before the files were received: their keys carry it. */
  id: string;
  /** The multipart text fields, as sent. */
  fields: Record<string, unknown>;
  documents: StoredDocument[];
  applicantIp: string | null;
}

/**
 * Checks the form's answers and stores the application, its documents' records, partner.applied
 * and both e-mail commands in one transaction. Any failure — an answer refused (400 with every
 * issue), the database — deletes the submission's files from the store: nothing of a refused
 * application is kept.
 */
export async function submitApplication(ctx: PartnersContext, submission: Submission, correlationId: string): Promise<PartnerApplicationCreated> {
  try {
    refuseUnstorableFields(submission.fields);
    const answers = parseInput(partnerApplicationFormFields, submission.fields);
    const at = ctx.clock();
    await withTransaction(ctx.pool, async (db) => {
      await insertApplication(db, { id: submission.id, answers, applicantIp: submission.applicantIp, at });
      await insertDocuments(db, submission.documents.map((d) => ({ ...d, applicationId: submission.id })));
      await enqueue(db, {
        type: 'partner.applied',
        source: SOURCE,
        correlationId,
        data: {
          applicationId: submission.id,
          businessType: answers.businessType,
          servicesInterested: answers.servicesInterested,
          documentCount: submission.documents.length,
          appliedAt: at.toISOString(),
        },
      });
      await enqueue(db, {
        type: 'email.partner_application_received',
        source: SOURCE,
        correlationId,
        data: {
          to: answers.email,
          contactName: answers.contactName,
          businessName: answers.businessName,
          applicationId: submission.id,
          appliedAt: at.toISOString(),
        },
      });
      await enqueue(db, {
        type: 'email.partner_application_notice',
        source: SOURCE,
        correlationId,
        data: {
          applicationId: submission.id,
          answers: {
            businessName: answers.businessName,
            contactName: answers.contactName,
            email: answers.email,
            phone: answers.phone,
            // The form allows 500 characters as typed; 'https://' may have been put before them.
            website: answers.website.slice(0, 500),
            businessType: answers.businessType,
            experienceYears: answers.experienceYears,
            monthlyVolume: answers.monthlyVolume,
            servicesInterested: answers.servicesInterested,
            targetMarkets: answers.targetMarkets,
            businessDescription: answers.businessDescription,
            whyPartner: answers.whyPartner,
          },
          documents: submission.documents.map((d) => ({ originalName: d.originalName, size: d.size, contentType: d.contentType })),
          appliedAt: at.toISOString(),
        },
      });
    });
  } catch (err) {
    await removeDocuments(ctx, submission.documents.map((d) => d.blobKey));
    throw err;
  }
  ctx.log.info({ applicationId: submission.id, documents: submission.documents.length }, 'partner application received');
  return { message: PARTNER_SUBMITTED_MESSAGE, id: submission.id };
}

/**
 * Multipart fields do not pass the HTTP kit's JSON check: text PostgreSQL cannot hold (NUL, a
 * lone surrogate) is refused here the same way, as a 400 rather than a database error.
 */
function refuseUnstorableFields(fields: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(fields)) {
    const problem = unstorableText([name, value]);
    if (problem) throw new AppError('ValidationFailed', problem, 400, { issues: [{ path: name, message: problem }] });
  }
}

/** Deletes blobs, each on its own; one that stays behind is logged for the operators, not thrown. */
async function removeDocuments(ctx: PartnersContext, keys: string[]): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      ctx.blobs.delete(key).catch((err: unknown) => ctx.log.warn({ err, key }, 'a partner document could not be removed from the store')),
    ),
  );
}

/** `GET /api/affnetwork-signups`: one page, newest first, and the total (X-Total-Count). */
export async function listApplicationPage(
  ctx: PartnersContext,
  query: { status?: PartnerApplicationStatus | undefined; page: number },
): Promise<{ applications: PartnerApplicationView[]; total: number }> {
  const { rows, total } = await listApplications(ctx.pool, {
    status: query.status,
    offset: (query.page - 1) * PARTNER_APPLICATION_PAGE_SIZE,
    limit: PARTNER_APPLICATION_PAGE_SIZE,
  });
  const documents = await documentsOf(ctx.pool, rows.map((r) => r.id));
  return { applications: rows.map((row) => applicationView(row, documents)), total };
}

/**
 * Sets an application's status. A change is published (partner.status_changed) and audited;
 * the applicant is e-mailed when it became approved or rejected. The same status again changes
 * nothing and says nothing.
 */
export async function changeApplicationStatus(
  ctx: PartnersContext,
  admin: ActingAdmin,
  id: string,
  status: PartnerApplicationStatus,
  correlationId: string,
  /** The admin's note to the applicant (issue 22): in the decision e-mail and the audit log. */
  note?: string,
): Promise<PartnerApplicationView> {
  const view = await withTransaction(ctx.pool, async (db) => {
    const current = await findApplication(db, id, { forUpdate: true });
    if (!current) throw notFound(APPLICATION_NOT_FOUND);
    if (current.status === status) return applicationView(current, await documentsOf(db, [id]));
    const at = ctx.clock();
    const updated = await updateStatus(db, id, status, at);
    await enqueue(db, {
      type: 'partner.status_changed',
      source: SOURCE,
      correlationId,
      data: { applicationId: id, from: current.status, to: status, changedByUserId: admin.userId, changedAt: at.toISOString() },
    });
    if (status === 'approved' || status === 'rejected') {
      await enqueue(db, {
        type: 'email.partner_status_changed',
        source: SOURCE,
        correlationId,
        data: {
          to: updated.email,
          contactName: updated.contactName,
          businessName: updated.businessName,
          applicationId: id,
          status,
          ...(note ? { note } : {}),
          changedAt: at.toISOString(),
        },
      });
    }
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      correlationId,
      subjectType: 'partner_application',
      action: 'partner_application.status_changed',
      subjectId: id,
      subjectLabel: subjectLabel(updated),
      before: { status: current.status },
      after: { status },
      ...(note ? { reason: note } : {}),
      at,
    });
    return applicationView(updated, await documentsOf(db, [id]));
  });
  ctx.log.info({ applicationId: id, status }, 'partner application status set');
  return view;
}

/** Deletes the application's rows (audited), then its documents from the store. */
export async function deleteApplication(ctx: PartnersContext, admin: ActingAdmin, id: string, correlationId: string): Promise<void> {
  const documents = await withTransaction(ctx.pool, async (db) => {
    const current = await findApplication(db, id, { forUpdate: true });
    if (!current) throw notFound(APPLICATION_NOT_FOUND);
    const documents = await documentsOf(db, [id]);
    await deleteApplicationRow(db, id);
    await recordAdminAction(db, {
      source: SOURCE,
      actor: admin,
      correlationId,
      subjectType: 'partner_application',
      action: 'partner_application.deleted',
      subjectId: id,
      subjectLabel: subjectLabel(current),
      before: { status: current.status, businessType: current.businessType, documents: documents.length, appliedAt: current.createdAt.toISOString() },
      after: null,
      at: ctx.clock(),
    });
    return documents;
  });
  // After the commit: a failed delete leaves the files (logged), never rows pointing nowhere.
  await removeDocuments(ctx, documents.map((d) => d.blobKey));
  ctx.log.info({ applicationId: id, documents: documents.length }, 'partner application deleted');
}

/** A document's record and its bytes, for the admin's download; 404 for an unknown one. */
export async function openDocument(ctx: PartnersContext, id: string, filename: string): Promise<{ document: DocumentRow; body: Readable }> {
  const document = await findDocument(ctx.pool, id, filename);
  if (!document) throw notFound(DOCUMENT_NOT_FOUND);
  try {
    return { document, body: await ctx.blobs.get(document.blobKey) };
  } catch (err) {
    if (err instanceof AppError && err.status === 404) {
      ctx.log.error({ applicationId: id, key: document.blobKey }, 'a partner document is recorded but missing from the store');
      throw notFound(DOCUMENT_NOT_FOUND);
    }
    throw err;
  }
}

const APPLICATION_NOT_FOUND = 'Application not found';
export const DOCUMENT_NOT_FOUND = 'Document not found';

/** 'Acme Leads (Dana Cole)': who the audit log says it was. */
function subjectLabel(row: ApplicationRow): string {
  return `${row.businessName} (${row.contactName})`;
}

function applicationView(row: ApplicationRow, documents: DocumentRow[]): PartnerApplicationView {
  return {
    id: row.id,
    businessName: row.businessName,
    contactName: row.contactName,
    email: row.email,
    phone: row.phone,
    website: row.website,
    experience: row.experienceYears,
    leadsPerMonth: row.monthlyVolume,
    monthlyBudget: null,
    status: row.status,
    documents: documents
      .filter((d) => d.applicationId === row.id)
      .map((d) => ({
        filename: d.filename,
        originalName: d.originalName,
        size: d.size,
        contentType: d.contentType,
        url: documentUrl(row.id, d.filename),
      })),
    businessType: row.businessType,
    servicesInterested: row.servicesInterested,
    targetMarkets: row.targetMarkets,
    businessDescription: row.businessDescription,
    whyPartner: row.whyPartner,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
