import {
  TRANSFER_DISPUTE_DAYS,
  TRANSFER_STATUS_LABELS,
  TRANSFERS_PAGE_SIZE,
  DO_NOT_CALL_CSV_COLUMN,
  doNotCallCsvCell,
  unlessOptedOut,
  formatUsd,
  timeZoneName,
  type MyTransfersAnswer,
  type MyTransfersQuery,
  type TransferBalance,
  type TransferDay,
  type TransferView,
} from '@warmline/contracts';
import { CALL_CAP_WINDOW_HOURS, prospectCallingHours } from '@warmline/contracts/calling-hours';
import { toCsv } from '@warmline/platform/csv';
import { openLots } from '../db/ledger';
import { agentDay, listTransfers, type TransferRow } from '../db/my-transfers';
import { findAgentSettings, type AgentSettingsRow } from '../db/settings';
import type { TransfersContext } from './context';
import { localTime, nextHours, withinHours } from './hours';
import type { Agent } from './settings';
import { randomUUID } from 'node:crypto';
import { dncCheckOf } from '@warmline/contracts/dnc-registry';

/**
 * My Transfers (issue 23 §5): the agent's balance by price, today against their cap in their
 * own zone, and the log of their transfers only, newest first.
 */

const DAY_MS = 86_400_000;
/** The most rows one CSV export holds (the log is paged; a year of a busy agent fits). */
const CSV_ROWS_LIMIT = 20_000;

/** The agent's zone: their saved one, else the business's (before any settings). */
function zoneOf(ctx: TransfersContext, settings: AgentSettingsRow | null): string {
  return settings?.timeZone ?? ctx.businessTimeZone;
}

export function transferView(row: TransferRow, now: Date): TransferView {
  return {
    id: row.id,
    routedAt: row.routedAt.toISOString(),
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    state: row.state,
    leadType: row.leadType,
    durationSeconds: row.durationSeconds,
    status: row.status,
    chargedCents: row.status === 'charged' || row.status === 'disputed' || row.status === 'credited' ? row.chargedCents : null,
    transcript: row.transcript,
    recordingUrl: row.recordingUrl,
    disposition: row.disposition,
    dispute:
      row.disputeId && row.disputeReason && row.disputeStatus && row.openedAt
        ? {
            id: row.disputeId,
            reason: row.disputeReason,
            status: row.disputeStatus,
            decisionReason: row.decisionReason,
            openedAt: row.openedAt.toISOString(),
            decidedAt: row.decidedAt?.toISOString() ?? null,
          }
        : null,
    disputable: row.status === 'charged' && !row.disputeId && withinDisputeWindow(row.routedAt, now),
    optedOutAt: row.optedOutAt?.toISOString() ?? null,
    // Issue 24 §3: the prospect's clock now. The transfer itself was a call to them: within the
    // last 24 hours it counts once toward a state's cap (no agent is sent the same phone twice in 30 days).
    ...unlessOptedOut(
      prospectCallingHours(row.state, row.phone, now, now.getTime() - row.routedAt.getTime() < CALL_CAP_WINDOW_HOURS * 3_600_000 ? 1 : 0),
      row.optedOutAt,
    ),
  };
}

export function withinDisputeWindow(routedAt: Date, now: Date): boolean {
  return now.getTime() - routedAt.getTime() <= TRANSFER_DISPUTE_DAYS * DAY_MS;
}

/** 'Charged $37.00', 'Buffer protected — not charged', … */
function statusWords(row: Pick<TransferRow, 'status' | 'chargedCents'>): string {
  if (row.status === 'charged' && row.chargedCents !== null) return `Charged ${formatUsd(row.chargedCents)}`;
  return TRANSFER_STATUS_LABELS[row.status];
}

async function transferBalance(ctx: TransfersContext, agentId: string, inFlight: number, balance: number): Promise<TransferBalance> {
  const lots = await openLots(ctx.pool, agentId);
  return {
    transfers: balance,
    inFlight,
    lots: lots.map((l) => ({ unitCents: l.unitCents, transfersLeft: l.remaining, creditedAt: l.creditedAt.toISOString(), source: l.source })),
  };
}

export async function myTransfers(ctx: TransfersContext, agent: Agent, query: MyTransfersQuery): Promise<MyTransfersAnswer> {
  const now = ctx.clock();
  const settings = await findAgentSettings(ctx.pool, agent.userId);
  const zone = zoneOf(ctx, settings);
  const date = localTime(now, zone).date;
  const [day, page] = await Promise.all([
    agentDay(ctx.pool, agent.userId, date, now),
    listTransfers(
      ctx.pool,
      { agentId: agent.userId, timeZone: zone, ...(query.status ? { status: query.status } : {}), ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}) },
      { limit: TRANSFERS_PAGE_SIZE, offset: (query.page - 1) * TRANSFERS_PAGE_SIZE },
    ),
  ]);
  const hours = settings?.hours ?? [];
  const today: TransferDay = {
    date,
    timeZone: zone,
    timeZoneName: timeZoneName(zone),
    count: day.today,
    cap: settings?.dailyCap ?? null,
    paused: settings?.paused ?? false,
    withinHours: withinHours(hours, zone, now),
    nextHours: nextHours(hours, zone, now),
  };
  return {
    balance: await transferBalance(ctx, agent.userId, day.inFlight, day.balance),
    today,
    transfers: await withRegistryChecks(ctx, agent, page.rows.map((r) => transferView(r, now)), now),
    total: page.total,
    page: query.page,
    pageSize: TRANSFERS_PAGE_SIZE,
  };
}

/** The filtered log as CSV, times in the agent's zone (named in the header). */
export async function myTransfersCsv(ctx: TransfersContext, agent: Agent, query: MyTransfersQuery): Promise<{ csv: string; total: number; rows: number }> {
  const settings = await findAgentSettings(ctx.pool, agent.userId);
  const zone = zoneOf(ctx, settings);
  const { rows, total } = await listTransfers(
    ctx.pool,
    { agentId: agent.userId, timeZone: zone, ...(query.status ? { status: query.status } : {}), ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}) },
    { limit: CSV_ROWS_LIMIT, offset: 0 },
  );
  const header = [`Time (${timeZoneName(zone)})`, 'Transfer ID', 'First name', 'Last name', 'Phone', 'State', 'Lead type', 'Duration (seconds)', 'Status', 'Charged', 'Disposition', 'Recording', DO_NOT_CALL_CSV_COLUMN];
  const csv = toCsv(
    header,
    rows.map((r) => {
      const local = localTime(r.routedAt, zone);
      return [
        `${local.date} ${local.hhmm}`,
        r.id,
        r.firstName,
        r.lastName,
        r.phone,
        r.state,
        r.leadType,
        r.durationSeconds,
        statusWords(r),
        r.chargedCents !== null && r.status !== 'credited' ? formatUsd(r.chargedCents) : '',
        r.disposition,
        r.recordingUrl,
        doNotCallCsvCell(r.optedOutAt),
      ];
    }),
  );
  return { csv, total, rows: rows.length };
}

/**
 * Issue 24: each transfer with the national DNC registry's check of its phone, asked of the
 * catalog (it owns the registry). When the catalog does not answer, `dnc` is null and the page
 * still loads ("DNC check unavailable").
 */
async function withRegistryChecks(ctx: TransfersContext, agent: Agent, rows: TransferView[], now: Date): Promise<TransferView[]> {
  const phones = [...new Set(rows.map((r) => tenDigits(r.phone)).filter((p): p is string => p !== null))];
  let checks: Map<string, { checkedOn: string | null; onRegistry: boolean }> | null = null;
  try {
    checks = ctx.catalog ? await ctx.catalog.registryChecks({ userId: agent.userId, username: agent.username, isAdmin: false }, phones, randomUUID()) : null;
  } catch (err) {
    ctx.log.warn({ err }, 'the catalog did not answer the DNC registry checks; My Transfers shows them as unavailable');
  }
  const today = now.toISOString().slice(0, 10);
  return rows.map((r) => {
    const phone = tenDigits(r.phone);
    const check = checks && phone ? (checks.get(phone) ?? { checkedOn: null, onRegistry: false }) : null;
    return { ...r, dnc: check ? dncCheckOf(check, today) : null };
  });
}

function tenDigits(phone: string): string | null {
  const digits = phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
  return /^[2-9]\d{9}$/.test(digits) ? digits : null;
}
