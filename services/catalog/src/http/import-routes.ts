import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  LEAD_IMPORT_COLUMNS,
  agedLeadInput,
  bulkAgedLeadsBody,
  leadImportListQuery,
  leadImportUploadQuery,
} from '@warmline/contracts';
import { AppError, badRequest, unauthorized } from '@warmline/platform/errors';
import { requireAdminIdentity } from '@warmline/platform/http/identity';
import { parseInput } from '@warmline/platform/validation';
import { toCsv } from '@warmline/platform/csv';
import type { LeadImportContext } from '../domain/context';
import { addAgedLead, addAgedLeads } from '../domain/admin-leads';
import {
  cancelLeadImport,
  getLeadImport,
  leadImportErrorReport,
  listPastLeadImports,
  newLeadImportFile,
  startLeadImport,
  undoLeadImport,
  type Admin,
} from '../domain/lead-imports';
import { receiveFile } from './receive-file';

/**
 * The admin's aged-lead import routes and the spec's JSON lead routes (issue 13). The gateway
 * lets only admins through; the role is checked here again.
 */
const importId = z.uuid({ error: 'Import id must be a UUID' });

/** The template's example row: what each column looks like. */
const TEMPLATE_EXAMPLE = [
  'Jane Smith',
  '(512) 555-0143',
  'jane.smith@example.com',
  'TX',
  '78701',
  '7/1/2026 2:30 PM',
  'Facebook final expense form',
  'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
  '7/1/2026 2:30 PM',
  '203.0.113.7',
];

export function importRoutes(ctx: LeadImportContext): Router {
  const router = Router();
  router.use(['/api/admin/lead-imports', '/api/admin/aged-leads', '/api/admin/bulk-aged-leads'], requireAdminIdentity);

  router.get('/api/admin/lead-imports/template.csv', (_req, res) => {
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="warmline-aged-leads-template.csv"');
    res.send(toCsv([...LEAD_IMPORT_COLUMNS], [TEMPLATE_EXAMPLE]));
  });

  router.post('/api/admin/lead-imports', async (req, res) => {
    const { fileName } = parseInput(leadImportUploadQuery, req.query);
    if (!UPLOAD_TYPES.has(mediaType(req))) {
      throw new AppError('UnsupportedMediaType', 'Send the CSV file as text/csv or as multipart/form-data', 415);
    }
    const file = newLeadImportFile();
    const upload = await receiveFile(ctx, req, file);
    res.status(202).json(await startLeadImport(ctx, adminOf(req), file, upload, fileName, req.id));
  });

  router.get('/api/admin/lead-imports', async (req, res) => {
    const { page } = parseInput(leadImportListQuery, req.query);
    res.json(await listPastLeadImports(ctx, page));
  });

  router.get('/api/admin/lead-imports/:id', async (req, res) => {
    res.json(await getLeadImport(ctx, idOf(req)));
  });

  router.get('/api/admin/lead-imports/:id/errors.csv', async (req, res) => {
    const id = idOf(req);
    const report = leadImportErrorReport(ctx, id);
    // The first piece is read before the headers go out, so an unknown import is still a 404.
    const first = await report.next();
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="lead-import-${id}-rejected-rows.csv"`);
    res.setHeader('Cache-Control', 'private, no-store');
    if (!first.done) res.write(first.value);
    for await (const piece of report) {
      if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  });

  router.post('/api/admin/lead-imports/:id/cancel', async (req, res) => {
    res.json(await cancelLeadImport(ctx, adminOf(req), idOf(req), req.id));
  });

  router.post('/api/admin/lead-imports/:id/undo', async (req, res) => {
    res.json(await undoLeadImport(ctx, adminOf(req), idOf(req), req.id));
  });

  router.post('/api/admin/aged-leads', async (req, res) => {
    const lead = parseInput(agedLeadInput, req.body);
    res.status(201).json(await addAgedLead(ctx, adminOf(req), lead, req.id));
  });

  router.post('/api/admin/bulk-aged-leads', async (req, res) => {
    const { leads } = parseInput(bulkAgedLeadsBody, req.body);
    res.status(201).json(await addAgedLeads(ctx, adminOf(req), leads, req.id));
  });

  return router;
}

/**
 * What a CSV upload may arrive as: browsers label .csv files text/csv, or on Windows with Excel
 * application/vnd.ms-excel; scripts often send text/plain or octet-stream.
 */
const UPLOAD_TYPES = new Set(['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream', 'multipart/form-data']);

function mediaType(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

function idOf(req: Request): string {
  const id = importId.safeParse(req.params.id);
  if (!id.success) throw badRequest('Import id must be a UUID');
  return id.data.toLowerCase();
}

function adminOf(req: Request): Admin {
  const identity = req.identity;
  if (!identity?.userId) throw unauthorized();
  return { userId: identity.userId, username: identity.username ?? identity.userId };
}
