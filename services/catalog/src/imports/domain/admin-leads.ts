import { LEAD_SUPPRESSED_MESSAGE, leadRowRules, rowProblems, type ImportedLead } from '@warmline/contracts';
import { withTransaction } from '@warmline/platform/db/index';
import { AppError, badRequest, conflict } from '@warmline/platform/errors';
import { loadLeadBatch } from '../db/lead-batch-load';
import { SOURCE, type LeadImportContext } from '../../domain/context';
import { recordAdminAction } from '@warmline/platform/bus/admin-audit';
import type { ActingAdmin } from '@warmline/platform/identity';

/**
 * The spec's JSON routes for API clients (issue 13 item 4): `POST /api/admin/aged-leads` adds one
 * lead, `POST /api/admin/bulk-aged-leads` up to 5,000 — all or nothing. Each lead passes the same
 * rules as an import row and loads through the same path (suppression list, duplicate rule).
 */

/** Where a lead added through the API came from, when it does not say. */
const API_SOURCE = 'api:admin';

interface LeadRowError {
  /** Position in `leads` (0-based). */
  index: number;
  column: string;
  message: string;
}

export async function addAgedLead(ctx: LeadImportContext, admin: ActingAdmin, input: Record<string, unknown>, correlationId: string): Promise<{ id: string }> {
  const lead = validate(ctx, [input]);
  const outcome = await load(ctx, admin, lead, correlationId);
  if (outcome.suppressed > 0) throw badRequest(LEAD_SUPPRESSED_MESSAGE, { column: 'Phone' });
  if (outcome.ids.length === 0) throw conflict('A lead with this phone and form-fill day is already in stock');
  return { id: outcome.ids[0]! };
}

/** All leads valid and none suppressed, or nothing is added; duplicates are skipped and counted. */
export async function addAgedLeads(ctx: LeadImportContext, admin: ActingAdmin, inputs: Array<Record<string, unknown>>, correlationId: string): Promise<{ added: number; duplicates: number; ids: string[] }> {
  const leads = validate(ctx, inputs);
  const outcome = await load(ctx, admin, leads, correlationId);
  return { added: outcome.ids.length, duplicates: outcome.duplicates, ids: outcome.ids };
}

function validate(ctx: LeadImportContext, inputs: Array<Record<string, unknown>>): ImportedLead[] {
  const rules = leadRowRules({ now: ctx.clock(), timeZone: ctx.timeZone, defaultSource: API_SOURCE });
  const leads: ImportedLead[] = [];
  const errors: LeadRowError[] = [];
  inputs.forEach((input, index) => {
    const parsed = rules.safeParse(input);
    if (parsed.success) leads.push(parsed.data);
    else for (const p of rowProblems(parsed.error)) errors.push({ index, column: p.column, message: p.message });
  });
  if (errors.length > 0) {
    const first = errors[0]!;
    const message = inputs.length === 1 ? first.message : `${new Set(errors.map((e) => e.index)).size} of ${inputs.length} leads have errors; nothing was added`;
    throw new AppError('ValidationFailed', message, 400, { rowErrors: errors });
  }
  return leads;
}

async function load(ctx: LeadImportContext, admin: ActingAdmin, leads: ImportedLead[], correlationId: string): Promise<{ ids: string[]; duplicates: number; suppressed: number }> {
  return withTransaction(ctx.pool, async (client) => {
    const outcome = await loadLeadBatch(
      client,
      leads.map((lead, i) => ({ rowNumber: i + 1, lead })),
      { importId: null, timeZone: ctx.timeZone },
    );
    if (outcome.suppressedRows.length > 0 && leads.length > 1) {
      const rowErrors = outcome.suppressedRows.map((row) => ({ index: row - 1, column: 'Phone', message: LEAD_SUPPRESSED_MESSAGE }));
      // Thrown inside the transaction: the leads loaded beside them are rolled back.
      throw new AppError('ValidationFailed', `${rowErrors.length} of ${leads.length} leads have errors; nothing was added`, 400, { rowErrors });
    }
    const ids = outcome.insertedIds;
    if (outcome.insertedRows.length > 0) {
      await recordAdminAction(client, {
        source: SOURCE,
        actor: admin,
        correlationId,
        action: 'aged_leads.added',
        subjectType: 'aged_leads',
        subjectId: ids[0]!,
        subjectLabel: `${outcome.insertedRows.length} aged lead(s) added through the API`,
        before: null,
        after: { added: outcome.insertedRows.length, duplicates: outcome.duplicateRows.length },
        at: ctx.clock(),
      });
    }
    return { ids, duplicates: outcome.duplicateRows.length, suppressed: outcome.suppressedRows.length };
  });
}
