import { z } from 'zod';
import type { DncCheck } from './dnc-registry';
import { diallableUsPhone } from './us-phone';
import { US_STATE_CODES, type UsStateCode } from './us-states';
import { BUFFER_SECONDS } from './pricing';
import type { ProspectCallingHours } from './prospect-calling-hours';

/**
 * Live transfers delivered and billed (issue 23): the voice-AI vendor asks where to send each
 * qualified prospect (routing), reports how the call went (outcome), and the transfers service
 * keeps each agent's ledger of prepaid transfers. One set of schemas for the service, the SPA,
 * /brightcalldocs and the tests, so all say the same words.
 */

/* ------------------------------------------------------------------ the rules ---------- */

/** A connected call of at most this many seconds is buffer-protected: never charged (spec §1, §9). */
export const TRANSFER_BUFFER_SECONDS = BUFFER_SECONDS;
/** How long a routing decision holds the agent's slot before the vendor must have connected. */
export const TRANSFER_RESERVATION_SECONDS = 60;
/** No agent is sent the same phone twice within this many days. */
export const TRANSFER_REPEAT_PHONE_DAYS = 30;
/** How long after a charged transfer its agent may dispute it. */
export const TRANSFER_DISPUTE_DAYS = 7;
/** My Transfers and the admin's list: transfers per page. */
export const TRANSFERS_PAGE_SIZE = 50;
/** Legal calling hours in the prospect's own local time (TCPA: 8 am–9 pm). */
export const CALLING_HOURS = { from: '08:00', to: '21:00' } as const;

/** Why the vendor was told not to transfer a prospect. */
export const ROUTE_REFUSAL_REASONS = ['no_agent_available', 'outside_calling_hours', 'suppressed'] as const;
export type RouteRefusalReason = (typeof ROUTE_REFUSAL_REASONS)[number];

/**
 * A transfer's status:
 * - routed: an agent was chosen and their slot reserved; the vendor has not reported yet,
 * - not_connected: the vendor reported no connection (never charged),
 * - buffer_protected: connected for at most TRANSFER_BUFFER_SECONDS (never charged),
 * - charged: connected longer; one transfer of the agent's balance, at its credit's price,
 * - unbilled: connected longer, but the agent had no transfer left to charge (never negative),
 * - disputed: charged, and the agent's dispute waits for a decision,
 * - credited: charged, and a dispute gave the transfer back.
 */
export const TRANSFER_STATUSES = ['routed', 'not_connected', 'buffer_protected', 'charged', 'unbilled', 'disputed', 'credited'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** What My Transfers and the admin's tab show for a status ("Charged $37.00" is built with the price). */
export const TRANSFER_STATUS_LABELS: Record<TransferStatus, string> = {
  routed: 'Awaiting outcome',
  not_connected: 'Not connected',
  buffer_protected: 'Buffer protected — not charged',
  charged: 'Charged',
  unbilled: 'Delivered — no transfers left, not charged',
  disputed: 'Disputed',
  credited: 'Credited',
};

export const DISPUTE_REASONS = ['wrong_state', 'out_of_hours', 'duplicate', 'wrong_number', 'not_shopping', 'call_dropped'] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** The reasons in the agent's words (issue 23 §6). */
export const DISPUTE_REASON_LABELS: Record<DisputeReason, string> = {
  wrong_state: 'Wrong state',
  out_of_hours: 'Out of my hours',
  duplicate: 'Duplicate of an earlier transfer',
  wrong_number: 'Not the prospect / wrong number',
  not_shopping: 'Prospect not shopping for insurance',
  call_dropped: 'Call dropped',
};

/** Decided at once from the records; the others wait for an admin. */
export const AUTOMATIC_DISPUTE_REASONS: readonly DisputeReason[] = ['wrong_state', 'out_of_hours', 'duplicate'];

const DISPUTE_STATUSES = ['pending', 'accepted', 'refused'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/* ------------------------------------------------------------------ delivery settings ---------- */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The zones an agent can work in, with the name shown beside them. */
export const AGENT_TIME_ZONES = [
  { zone: 'America/New_York', name: 'Eastern Time' },
  { zone: 'America/Chicago', name: 'Central Time' },
  { zone: 'America/Denver', name: 'Mountain Time' },
  { zone: 'America/Phoenix', name: 'Mountain Time (Arizona, no daylight saving)' },
  { zone: 'America/Los_Angeles', name: 'Pacific Time' },
  { zone: 'America/Anchorage', name: 'Alaska Time' },
  { zone: 'Pacific/Honolulu', name: 'Hawaii Time' },
  { zone: 'America/Puerto_Rico', name: 'Atlantic Time (Puerto Rico)' },
] as const;
export type AgentTimeZone = (typeof AGENT_TIME_ZONES)[number]['zone'];

/** The survey's time zone answer as a zone. */
export const SURVEY_ZONE_TO_IANA: Record<'PST' | 'MST' | 'CST' | 'EST', AgentTimeZone> = {
  PST: 'America/Los_Angeles',
  MST: 'America/Denver',
  CST: 'America/Chicago',
  EST: 'America/New_York',
};

export function timeZoneName(zone: string): string {
  return AGENT_TIME_ZONES.find((z) => z.zone === zone)?.name ?? zone;
}

export const MAX_DAILY_CAP = 1000;
const MAX_AT_ONCE = 20;

export const TRANSFER_SETTINGS_MESSAGES = {
  transferPhone: 'Transfer phone must be 10 digits with the area code, e.g. (512) 555-0143',
  states: 'Choose at least one working state (2-letter codes like TX, FL)',
  timeZone: `Time zone must be one of ${AGENT_TIME_ZONES.map((z) => z.zone).join(', ')}`,
  hours: 'Hours need a day (mon–sun) and a from and to time as HH:MM, from before to',
  hoursOverlap: 'Hours of one day must not overlap',
  dailyCap: `Daily cap must be a whole number of transfers from 1 to ${MAX_DAILY_CAP}`,
  atOnce: `Transfers at once must be a whole number from 1 to ${MAX_AT_ONCE}`,
  paused: 'Paused must be true or false',
} as const;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * A date or time whose year PostgreSQL can hold and a person could mean: the ISO formats accept
 * year 0000, which PostgreSQL refuses (a 500 instead of a 400, found by the route fuzzer).
 */
const saneYear = (text: string) => {
  // Text that is no date at all has its format error already; one message is enough.
  if (!/^\d{4}-/.test(text)) return true;
  const year = Number(text.slice(0, 4));
  return year >= 1900 && year <= 2999;
};
const IS_STATE = new Set<string>(US_STATE_CODES);

const hoursRange = z
  .object({
    day: z.enum(WEEKDAYS, { error: TRANSFER_SETTINGS_MESSAGES.hours }),
    from: z.string({ error: TRANSFER_SETTINGS_MESSAGES.hours }).max(5, TRANSFER_SETTINGS_MESSAGES.hours).regex(HH_MM, TRANSFER_SETTINGS_MESSAGES.hours),
    // '24:00' is allowed as the end of a day.
    to: z.string({ error: TRANSFER_SETTINGS_MESSAGES.hours }).max(5, TRANSFER_SETTINGS_MESSAGES.hours).regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, TRANSFER_SETTINGS_MESSAGES.hours),
  })
  .refine((h) => h.from < h.to, { message: TRANSFER_SETTINGS_MESSAGES.hours, path: ['to'] });
export type HoursRange = z.infer<typeof hoursRange>;

/** `PUT /api/my-transfers/settings`: the agent's delivery settings, every field named in its error. */
export const transferSettingsBody = z
  .object({
    transferPhone: z
      .string({ error: TRANSFER_SETTINGS_MESSAGES.transferPhone })
      .max(30, TRANSFER_SETTINGS_MESSAGES.transferPhone)
      .transform((text, ctx) => {
        const phone = diallableUsPhone(text);
        if (!phone) ctx.addIssue({ code: 'custom', message: TRANSFER_SETTINGS_MESSAGES.transferPhone });
        return phone ?? '';
      }),
    states: z
      .array(z.string({ error: TRANSFER_SETTINGS_MESSAGES.states }).max(30, TRANSFER_SETTINGS_MESSAGES.states).transform((s) => s.trim().toUpperCase()), { error: TRANSFER_SETTINGS_MESSAGES.states })
      .min(1, TRANSFER_SETTINGS_MESSAGES.states)
      .max(60, TRANSFER_SETTINGS_MESSAGES.states)
      .refine((states) => states.every((s) => IS_STATE.has(s)), TRANSFER_SETTINGS_MESSAGES.states)
      .transform((states) => [...new Set(states)].sort() as UsStateCode[]),
    timeZone: z.enum(AGENT_TIME_ZONES.map((z) => z.zone) as [AgentTimeZone, ...AgentTimeZone[]], { error: TRANSFER_SETTINGS_MESSAGES.timeZone }),
    hours: z
      .array(hoursRange, { error: TRANSFER_SETTINGS_MESSAGES.hours })
      .max(50, TRANSFER_SETTINGS_MESSAGES.hours)
      .refine((ranges) => !overlaps(ranges), TRANSFER_SETTINGS_MESSAGES.hoursOverlap),
    dailyCap: z.number({ error: TRANSFER_SETTINGS_MESSAGES.dailyCap }).int(TRANSFER_SETTINGS_MESSAGES.dailyCap).min(1, TRANSFER_SETTINGS_MESSAGES.dailyCap).max(MAX_DAILY_CAP, TRANSFER_SETTINGS_MESSAGES.dailyCap),
    atOnce: z.number({ error: TRANSFER_SETTINGS_MESSAGES.atOnce }).int(TRANSFER_SETTINGS_MESSAGES.atOnce).min(1, TRANSFER_SETTINGS_MESSAGES.atOnce).max(MAX_AT_ONCE, TRANSFER_SETTINGS_MESSAGES.atOnce).default(1),
    paused: z.boolean({ error: TRANSFER_SETTINGS_MESSAGES.paused }).default(false),
  })
  .strict();
export type TransferSettingsInput = z.input<typeof transferSettingsBody>;
export type TransferSettings = z.output<typeof transferSettingsBody>;

function overlaps(ranges: readonly HoursRange[]): boolean {
  for (const day of WEEKDAYS) {
    const of = ranges.filter((r) => r.day === day).sort((a, b) => a.from.localeCompare(b.from));
    for (let i = 1; i < of.length; i++) if (of[i]!.from < of[i - 1]!.to) return true;
  }
  return false;
}

/** `GET /api/my-transfers/settings`: the saved settings, or (saved: false) what the survey and the latest transfer order suggest. */
export interface TransferSettingsView extends TransferSettings {
  saved: boolean;
  timeZoneName: string;
}

/** `PATCH /api/my-transfers/pause`: Pause / Resume without sending the rest. */
export const transferPauseBody = z.object({ paused: z.boolean({ error: TRANSFER_SETTINGS_MESSAGES.paused }) }).strict();

/* ------------------------------------------------------------------ the vendor's calls ---------- */

export const TRANSFER_ROUTE_PATH = '/api/transfers/route';
export const transferOutcomePath = (transferId: string) => `/api/transfers/${transferId}/outcome`;

const vendorText = (field: string, max: number) =>
  z.string({ error: `${field} is required` }).trim().min(1, `${field} is required`).max(max, `${field} must be at most ${max} characters`);

/** `POST /api/transfers/route`: where should this prospect go? */
export const transferRouteBody = z.object({
  call_id: vendorText('call_id', 200),
  first_name: vendorText('first_name', 100),
  last_name: vendorText('last_name', 100),
  phone_number: z
    .string({ error: 'phone_number is required' })
    .max(30, 'phone_number must be a 10-digit US phone number')
    .transform((text, ctx) => {
      const phone = diallableUsPhone(text);
      if (!phone) ctx.addIssue({ code: 'custom', message: 'phone_number must be a 10-digit US phone number' });
      return phone ?? '';
    }),
  /** 2-letter code; from the phone's area code when absent. */
  state: z
    .string()
    .trim()
    .max(30)
    .transform((s, ctx) => {
      const code = s.toUpperCase();
      if (!IS_STATE.has(code)) ctx.addIssue({ code: 'custom', message: 'state must be a 2-letter US state code, e.g. TX' });
      return code as UsStateCode;
    })
    .optional(),
  lead_type: z.string().trim().max(100, 'lead_type must be at most 100 characters').optional(),
});
export type TransferRouteInput = z.input<typeof transferRouteBody>;
export type TransferRouteRequest = z.output<typeof transferRouteBody>;

export type TransferRouteAnswer =
  | { success: true; routed: true; transfer_id: string; transfer_phone: string; agent_name: string; expires_at: string }
  | { success: true; routed: false; reason: RouteRefusalReason };

/** `POST /api/transfers/{transfer_id}/outcome`: how the transfer went. */
export const transferOutcomeBody = z
  .object({
    connected: z.boolean({ error: 'connected must be true or false' }),
    duration_seconds: z
      .number({ error: 'duration_seconds must be a whole number of seconds' })
      .int('duration_seconds must be a whole number of seconds')
      .min(0, 'duration_seconds must be a whole number of seconds')
      .max(86_400, 'duration_seconds must be at most 86400 (one day)'),
    answered_at: z.iso
      .datetime({ offset: true, error: 'answered_at must be an ISO 8601 time, e.g. 2026-11-27T15:04:05Z' })
      .max(40, 'answered_at must be an ISO 8601 time')
      .refine(saneYear, 'answered_at must be a time between the years 1900 and 2999')
      .optional(),
    ended_at: z.iso
      .datetime({ offset: true, error: 'ended_at must be an ISO 8601 time, e.g. 2026-11-27T15:06:05Z' })
      .max(40, 'ended_at must be an ISO 8601 time')
      .refine(saneYear, 'ended_at must be a time between the years 1900 and 2999')
      .optional(),
    recording_url: z.url({ protocol: /^https?$/, error: 'recording_url must be an http(s) URL' }).max(2000, 'recording_url must be at most 2000 characters').optional(),
    transcript: z.string().max(100_000, 'transcript must be at most 100000 characters').optional(),
    disposition: z.string().trim().max(100, 'disposition must be at most 100 characters').optional(),
  })
  .strict();
export type TransferOutcomeInput = z.input<typeof transferOutcomeBody>;
export type TransferOutcome = z.output<typeof transferOutcomeBody>;

export interface TransferOutcomeAnswer {
  success: true;
  transfer_id: string;
  status: TransferStatus;
  charged: boolean;
  charged_cents: number;
}

/** The answer when a transfer already settled gets a different outcome. */
export const TRANSFER_OUTCOME_CONFLICT_MESSAGE = 'This transfer already has a different outcome';
export const TRANSFER_NOT_FOUND_MESSAGE = 'Transfer not found';

/* ------------------------------------------------------------------ My Transfers ---------- */

const dateText = z.iso
  .date({ error: 'Dates must be YYYY-MM-DD' })
  .max(10, 'Dates must be YYYY-MM-DD')
  .refine(saneYear, 'Dates must be YYYY-MM-DD between the years 1900 and 2999');

/** `GET /api/my-transfers?page=&status=&from=&to=` (and its CSV). */
export const myTransfersQuery = z.object({
  page: z.coerce.number({ error: 'page must be a whole number from 1' }).int('page must be a whole number from 1').min(1, 'page must be a whole number from 1').max(100_000).default(1),
  status: z.enum(TRANSFER_STATUSES, { error: `status must be one of ${TRANSFER_STATUSES.join(', ')}` }).optional(),
  from: dateText.optional(),
  to: dateText.optional(),
});
export type MyTransfersQuery = z.output<typeof myTransfersQuery>;

/** One transfer as its agent sees it: the agent took the call, so nothing is masked. */
export interface TransferView extends ProspectCallingHours {
  /** The vendor's transfer_id. */
  id: string;
  routedAt: string;
  firstName: string;
  lastName: string;
  phone: string;
  state: string;
  leadType: string | null;
  durationSeconds: number | null;
  status: TransferStatus;
  /** What the transfer cost (its credit's unit price); null when not charged. */
  chargedCents: number | null;
  transcript: string | null;
  recordingUrl: string | null;
  disposition: string | null;
  dispute: { id: string; reason: DisputeReason; status: DisputeStatus; decisionReason: string | null; openedAt: string; decidedAt: string | null } | null;
  /** Whether the agent can dispute it now (charged, within TRANSFER_DISPUTE_DAYS, none yet). */
  disputable: boolean;
  /** When the prospect opted out, or null: 'Do not call — opted out on …' (issue 24). */
  optedOutAt: string | null;
  /**
   * Issue 24, My Transfers: the national DNC registry's check of the phone; null when the catalog
   * did not answer ("DNC check unavailable").
   */
  dnc?: DncCheck | null;
}

/** The transfers an agent has left, by the price they were bought at (oldest first: the next charged). */
export interface TransferBalance {
  transfers: number;
  /** Reserved by routing decisions not yet settled. */
  inFlight: number;
  lots: Array<{ unitCents: number; transfersLeft: number; creditedAt: string; source: 'order' | 'dispute' | 'adjustment' }>;
}

export interface TransferDay {
  /** The agent's date (YYYY-MM-DD) in their zone. */
  date: string;
  timeZone: string;
  timeZoneName: string;
  count: number;
  cap: number | null;
  paused: boolean;
  /** Whether now is inside the agent's hours. */
  withinHours: boolean;
  /** The next hours as words, e.g. 'Mon 9:00 AM – 5:00 PM Central Time'; null without hours. */
  nextHours: string | null;
}

export interface MyTransfersAnswer {
  balance: TransferBalance;
  today: TransferDay;
  transfers: TransferView[];
  total: number;
  page: number;
  pageSize: number;
}

/** `POST /api/my-transfers/{id}/dispute`. */
export const transferDisputeBody = z
  .object({
    reason: z.enum(DISPUTE_REASONS, { error: `reason must be one of ${DISPUTE_REASONS.join(', ')}` }),
    note: z.string().trim().max(2000, 'note must be at most 2000 characters').optional(),
  })
  .strict();
export type TransferDisputeInput = z.input<typeof transferDisputeBody>;

export const DISPUTE_MESSAGES = {
  notCharged: 'Only a charged transfer can be disputed',
  already: 'This transfer has been disputed already',
  tooLate: `Disputes are accepted within ${TRANSFER_DISPUTE_DAYS} days of the transfer`,
  notFound: 'Dispute not found',
  decided: 'This dispute has been decided already',
  refuseReason: 'Say why the dispute is refused',
} as const;

/* ------------------------------------------------------------------ admin ---------- */

export const transferDisputeListQuery = z.object({
  status: z.enum(DISPUTE_STATUSES, { error: `status must be one of ${DISPUTE_STATUSES.join(', ')}` }).optional(),
});

/** `POST /api/admin/transfer-disputes/{id}`. */
export const transferDisputeDecisionBody = z
  .object({
    decision: z.enum(['accept', 'refuse'], { error: "decision must be 'accept' or 'refuse'" }),
    reason: z.string().trim().max(500, 'reason must be at most 500 characters').optional(),
  })
  .strict()
  .refine((d) => d.decision === 'accept' || (d.reason !== undefined && d.reason.length > 0), { message: DISPUTE_MESSAGES.refuseReason, path: ['reason'] });

/** `POST /api/admin/users/{id}/transfer-credits`: negative takes back (never below zero). */
export const transferCreditAdjustmentBody = z
  .object({
    transfers: z
      .number({ error: 'transfers must be a whole number, negative to take back' })
      .int('transfers must be a whole number, negative to take back')
      .min(-10_000, 'transfers must be between -10000 and 10000')
      .max(10_000, 'transfers must be between -10000 and 10000')
      .refine((n) => n !== 0, 'transfers must not be 0'),
    reason: z.string({ error: 'Give a reason for the adjustment' }).trim().min(1, 'Give a reason for the adjustment').max(500, 'reason must be at most 500 characters'),
    /** The price the credited transfers count at; the agent's default when absent. */
    unitCents: z.number().int().min(0).max(1_000_000).optional(),
  })
  .strict();

export const ADJUSTMENT_BELOW_ZERO_MESSAGE = 'The agent has fewer unused transfers than that; the balance never goes below zero';

/** `GET /api/admin/transfers?date=&status=&page=`. */
export const adminTransfersQuery = z.object({
  date: dateText.optional(),
  status: z.enum(TRANSFER_STATUSES, { error: `status must be one of ${TRANSFER_STATUSES.join(', ')}` }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export interface AdminTransferView extends TransferView {
  agent: { id: string; name: string };
}

/** Why an agent with transfers left can take none now (the admin's tab). */
const IDLE_REASONS = ['paused', 'outside_hours', 'no_states', 'cap_reached', 'no_settings', 'at_once_limit', 'no_balance'] as const;
export type IdleReason = (typeof IDLE_REASONS)[number];
export const IDLE_REASON_LABELS: Record<IdleReason, string> = {
  paused: 'Paused',
  outside_hours: 'Outside their hours',
  no_states: 'No working states',
  cap_reached: "Today's cap reached",
  no_settings: 'No delivery settings',
  at_once_limit: 'On as many transfers as they take at once',
  no_balance: 'No transfers left',
};

export interface AdminTransferAgent {
  id: string;
  name: string;
  balance: number;
  inFlight: number;
  today: number;
  dailyCap: number | null;
  atOnce: number;
  timeZone: string | null;
  states: string[];
  hours: HoursRange[];
  paused: boolean;
  /** Empty when the agent could take a transfer now. */
  idleReasons: IdleReason[];
  lastTransferAt: string | null;
}

/* ------------------------------------------------------------------ admin answers (issue 23 §6, §7) ---------- */

/** `GET /api/admin/transfers`: the business day's transfers (BUSINESS_TIMEZONE), newest first. */
export interface AdminTransfersAnswer {
  /** The business day shown (today when none was asked). */
  date: string;
  transfers: AdminTransferView[];
  total: number;
  page: number;
  pageSize: number;
}

/** `GET /api/admin/transfer-agents`. */
export interface AdminTransferAgentsAnswer {
  agents: AdminTransferAgent[];
}

/** One dispute in the admin's queue, with its transfer and agent. */
export interface AdminTransferDispute {
  id: string;
  reason: DisputeReason;
  reasonLabel: string;
  note: string | null;
  status: DisputeStatus;
  openedAt: string;
  decidedAt: string | null;
  decisionReason: string | null;
  transfer: TransferView;
  agent: { id: string; name: string };
}

/** `GET /api/admin/transfer-disputes?status=`: pending ones oldest first. */
export interface AdminTransferDisputesAnswer {
  disputes: AdminTransferDispute[];
}

/**
 * One business day of `GET /api/admin/transfer-revenue` (docs/adr/0032): earned is what the
 * transfers charged that day were bought at, less those credited back by a dispute decided that
 * day; cash is what was paid for the order lots credited that day, less what refunds of them
 * gave back that day.
 */
interface AdminTransferRevenueDay {
  date: string;
  chargedTransfers: number;
  earnedCents: number;
  cashCents: number;
  refundedCents: number;
}

export interface AdminTransferRevenueAnswer {
  timeZone: string;
  days: AdminTransferRevenueDay[];
  totals: { earnedCents: number; cashCents: number; refundedCents: number };
}

/** `POST /api/admin/users/{id}/transfer-credits`: the agent's balance after the adjustment. */
export interface TransferCreditAdjustmentAnswer {
  agentId: string;
  transfers: number;
  balance: number;
}
