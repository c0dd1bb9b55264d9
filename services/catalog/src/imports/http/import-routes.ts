import type { Request, Router } from 'express';
import { LEAD_IMPORT_COLUMNS } from '@warmline/contracts';
import { AppError } from '@warmline/platform/errors';
import { forwardedAsker } from '@warmline/platform/http/identity';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { toCsv } from '@warmline/platform/csv';
import type { LeadImportContext } from '../../domain/context';
import { addAgedLead, addAgedLeads } from '../domain/admin-leads';
import {
  cancelLeadImport,
  getLeadImport,
  leadImportErrorReport,
  listPastLeadImports,
  newLeadImportFile,
  startLeadImport,
  undoLeadImport,
} from '../domain/lead-imports';
import { receiveFile } from '../../http/receive-file';

/**
 * The admin's aged-lead import routes and the spec's JSON lead routes (issue 13), mounted from
 * the route manifest: the gateway lets only admins through, and the kit checks the role again.
 */

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
  return manifestRoutes('catalog', forwardedAsker)
    .on('GET /api/admin/lead-imports/template.csv', ({ res }) => {
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', 'attachment; filename="warmline-aged-leads-template.csv"');
      res.send(toCsv([...LEAD_IMPORT_COLUMNS], [TEMPLATE_EXAMPLE]));
    })
    // No body schema: the file streams from the request into the store.
    .on('POST /api/admin/lead-imports', async ({ caller, query, req, res, correlationId }) => {
      if (!UPLOAD_TYPES.has(mediaType(req))) {
        throw new AppError('UnsupportedMediaType', 'Send the CSV file as text/csv or as multipart/form-data', 415);
      }
      const file = newLeadImportFile();
      const upload = await receiveFile(ctx, req, file);
      const started = await startLeadImport(ctx, caller, file, upload, query.fileName, correlationId);
      res.status(202);
      return started;
    })
    .on('GET /api/admin/lead-imports', ({ query }) => listPastLeadImports(ctx, query.page))
    .on('GET /api/admin/lead-imports/{id}', ({ params }) => getLeadImport(ctx, params.id))
    .on('GET /api/admin/lead-imports/{id}/errors.csv', async ({ params, res }) => {
      const { id } = params;
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
    })
    .on('POST /api/admin/lead-imports/{id}/cancel', ({ caller, params, correlationId }) => cancelLeadImport(ctx, caller, params.id, correlationId))
    .on('POST /api/admin/lead-imports/{id}/undo', ({ caller, params, correlationId }) => undoLeadImport(ctx, caller, params.id, correlationId))
    .on('POST /api/admin/aged-leads', async ({ caller, body, res, correlationId }) => {
      const created = await addAgedLead(ctx, caller, body, correlationId);
      res.status(201);
      return created;
    })
    .on('POST /api/admin/bulk-aged-leads', async ({ caller, body, res, correlationId }) => {
      const added = await addAgedLeads(ctx, caller, body.leads, correlationId);
      res.status(201);
      return added;
    }).router;
}

/**
 * What a CSV upload may arrive as: browsers label .csv files text/csv, or on Windows with Excel
 * application/vnd.ms-excel; scripts often send text/plain or octet-stream.
 */
const UPLOAD_TYPES = new Set(['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream', 'multipart/form-data']);

function mediaType(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}
