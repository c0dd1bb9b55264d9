import {
  CAMPAIGN_NOT_FOUND,
  campaignSlugReservedMessage,
  campaignSlugTakenMessage,
  isReservedSlug,
  type Campaign,
  type CreateCampaign,
} from '@warmline/contracts';
import { conflict, notFound, withTransaction } from '@warmline/platform';
import { toCsv } from '@warmline/platform/csv';
import {
  findCampaignById,
  findSalespersonById,
  findSalespersonBySlug,
  insertSalesperson,
  listCampaigns,
  updateSalespersonActive,
  type CampaignRecord,
  type SalespersonRecord,
} from '../db/salespeople';
import { listResponsesOfSalesperson } from '../db/read-models/survey-responses';
import { isUniqueViolation } from '../db/users';
import type { ActingAdmin } from '@warmline/platform/identity';
import { recordAdminAction } from './audit-log';
import type { AccountsContext } from './context';

/**
 * Test Campaigns (issue 12): a campaign is a salesperson's referral page. Its page /{slug} and
 * survey POST /api/{slug}-survey read the salespeople table on every request (nothing cached),
 * so a new campaign works at once and a deactivated one answers 404 at once. The HTTP layer has
 * checked the admin flag; each change is audited in its own transaction.
 */

function toCampaign(record: CampaignRecord): Campaign {
  return {
    id: record.id,
    name: record.displayName,
    slug: record.slug,
    active: record.active,
    responseCount: record.responseCount,
    createdAt: record.createdAt.toISOString(),
  };
}

function campaignLabel(salesperson: Pick<SalespersonRecord, 'displayName' | 'slug'>): string {
  return `${salesperson.displayName} (/${salesperson.slug})`;
}

export async function createCampaign(ctx: AccountsContext, input: { actor: ActingAdmin } & CreateCampaign): Promise<Campaign> {
  // A slug named like a page of the site could never be reached at /{slug}.
  if (isReservedSlug(input.slug)) throw conflict(campaignSlugReservedMessage(input.slug), { field: 'slug' });
  // Asked first for a clear answer; the unique index still decides a race.
  if (await findSalespersonBySlug(ctx.pool, input.slug)) throw conflict(campaignSlugTakenMessage(input.slug), { field: 'slug' });
  try {
    return await withTransaction(ctx.pool, async (db) => {
      const created = await insertSalesperson(db, { slug: input.slug, displayName: input.name, createdBy: input.actor.userId });
      await recordAdminAction(db, {
        actor: input.actor,
        action: 'campaign.created',
        subjectType: 'campaign',
        subjectId: created.id,
        subjectLabel: campaignLabel(created),
        before: null,
        after: { name: created.displayName, slug: created.slug, active: created.active },
      });
      return toCampaign({ ...created, responseCount: 0 });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(campaignSlugTakenMessage(input.slug), { field: 'slug' });
    throw err;
  }
}

export async function campaigns(ctx: AccountsContext): Promise<Campaign[]> {
  return (await listCampaigns(ctx.pool)).map(toCampaign);
}

/** Switches a campaign on or off; setting what it already is changes (and audits) nothing. */
export async function setCampaignActive(
  ctx: AccountsContext,
  input: { actor: ActingAdmin; campaignId: string; active: boolean },
): Promise<Campaign> {
  await withTransaction(ctx.pool, async (db) => {
    const before = await findSalespersonById(db, input.campaignId, { forUpdate: true });
    if (!before) throw notFound(CAMPAIGN_NOT_FOUND);
    if (before.active === input.active) return;
    const after = (await updateSalespersonActive(db, input.campaignId, input.active))!;
    await recordAdminAction(db, {
      actor: input.actor,
      action: input.active ? 'campaign.activated' : 'campaign.deactivated',
      subjectType: 'campaign',
      subjectId: after.id,
      subjectLabel: campaignLabel(after),
      before: { active: before.active },
      after: { active: after.active },
    });
  });
  const campaign = await findCampaignById(ctx.pool, input.campaignId);
  if (!campaign) throw notFound(CAMPAIGN_NOT_FOUND);
  return toCampaign(campaign);
}

/** The CSV export's columns: spec §3 "Test-campaign response"; the price in dollars for a spreadsheet. */
const CSV_HEADER = [
  'id', 'firstName', 'lastName', 'agencyName', 'role', 'phone', 'email', 'username', 'leadType', 'workingStates',
  'totalTransfers', 'transfersPerDay', 'callsPerDay', 'transferHours', 'timezone', 'totalCallbacks',
  'callbackPreference', 'ageRange', 'totalPrice (USD)', 'salesperson', 'createdAt',
];

/** A campaign's responses as CSV, newest first, with the file name it is downloaded under. */
export async function campaignResponsesCsv(ctx: AccountsContext, campaignId: string): Promise<{ fileName: string; csv: string }> {
  const salesperson = await findSalespersonById(ctx.pool, campaignId);
  if (!salesperson) throw notFound(CAMPAIGN_NOT_FOUND);
  const responses = await listResponsesOfSalesperson(ctx.pool, salesperson.id);
  const csv = toCsv(
    CSV_HEADER,
    responses.map((r) => [
      r.id, r.firstName, r.lastName, r.agencyName, r.role, r.phone, r.email, r.username, r.leadType, r.workingStates,
      r.totalTransfers, r.transfersPerDay, r.callsPerDay, r.transferHours, r.timezone, r.totalCallbacks,
      r.callbackPreference, r.ageRange, r.totalPrice === null ? null : (r.totalPrice / 100).toFixed(2), r.salesperson, r.createdAt,
    ]),
  );
  return { fileName: `${salesperson.slug}-responses.csv`, csv };
}
