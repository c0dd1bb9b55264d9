import {
  AGENT_TIME_ZONES,
  MAX_DAILY_CAP,
  SURVEY_ZONE_TO_IANA,
  diallableUsPhone,
  timeZoneName,
  US_STATE_CODES,
  WEEKDAYS,
  type AgentTimeZone,
  type HoursRange,
  type TransferSettings,
  type TransferSettingsView,
  type UsStateCode,
} from '@warmline/contracts';
import type { Identity } from '@warmline/platform/identity';
import type { AgentProfile } from '../clients/gateway-client';
import type { LatestTransferOrder } from '../clients/orders-client';
import { findAgentSettings, saveAgentSettings, setAgentPaused, type AgentSettingsRow } from '../db/settings';
import type { TransfersContext } from './context';

/**
 * The agent's delivery settings (issue 23 §2): saved ones as saved; before the first save, a
 * suggestion from the latest survey (gateway) and the latest transfer order (orders). Either
 * service being down only costs what it would have said (a warning is logged).
 */

/** An agent as the gateway signs them. */
export interface Agent {
  userId: string;
  username: string | null;
}

const DEFAULT_HOURS: HoursRange[] = WEEKDAYS.slice(0, 5).map((day) => ({ day, from: '09:00', to: '17:00' }));
/** Suggested when neither the survey nor an order says how many a day. */
const DEFAULT_DAILY_CAP = 20;

/** The zone most of a state's people live in (Central for Texas, Eastern for Florida, …). */
const STATE_ZONES: Partial<Record<UsStateCode, AgentTimeZone>> = {
  AK: 'America/Anchorage',
  HI: 'Pacific/Honolulu',
  PR: 'America/Puerto_Rico',
  AZ: 'America/Phoenix',
  CA: 'America/Los_Angeles', NV: 'America/Los_Angeles', OR: 'America/Los_Angeles', WA: 'America/Los_Angeles',
  CO: 'America/Denver', ID: 'America/Denver', MT: 'America/Denver', NM: 'America/Denver', UT: 'America/Denver', WY: 'America/Denver',
  AL: 'America/Chicago', AR: 'America/Chicago', IA: 'America/Chicago', IL: 'America/Chicago', KS: 'America/Chicago', LA: 'America/Chicago',
  MN: 'America/Chicago', MO: 'America/Chicago', MS: 'America/Chicago', ND: 'America/Chicago', NE: 'America/Chicago', OK: 'America/Chicago',
  SD: 'America/Chicago', TN: 'America/Chicago', TX: 'America/Chicago', WI: 'America/Chicago',
};

/** The zone of an agent's state ('America/New_York' for the Eastern states and any not listed). */
function zoneOfState(state: string): AgentTimeZone {
  return STATE_ZONES[state as UsStateCode] ?? 'America/New_York';
}

function settingsView(row: AgentSettingsRow): TransferSettingsView | null {
  if (!row.settingsSavedAt || !row.timeZone || row.dailyCap === null) return null;
  return {
    saved: true,
    transferPhone: row.transferPhone ?? '',
    states: row.states as UsStateCode[],
    timeZone: row.timeZone as AgentTimeZone,
    timeZoneName: timeZoneName(row.timeZone),
    hours: row.hours,
    dailyCap: row.dailyCap,
    atOnce: row.atOnce,
    paused: row.paused,
  };
}

export async function mySettings(ctx: TransfersContext, agent: Agent, correlationId: string): Promise<TransferSettingsView> {
  const row = await findAgentSettings(ctx.pool, agent.userId);
  const saved = row ? settingsView(row) : null;
  if (saved) return saved;
  const [profile, order] = await Promise.all([profileOf(ctx, agent, correlationId), latestOrderOf(ctx, agent, correlationId)]);
  return { ...suggestSettings(profile, order, ctx.businessTimeZone), paused: row?.paused ?? false };
}

/** PUT: stores every field, and the agent's name from the gateway for the vendor's agent_name. */
export async function saveMySettings(ctx: TransfersContext, agent: Agent, settings: TransferSettings, correlationId: string): Promise<TransferSettingsView> {
  const profile = await profileOf(ctx, agent, correlationId);
  const name = profile ? `${profile.firstName} ${profile.lastName}`.trim() : null;
  const row = await saveAgentSettings(ctx.pool, agent.userId, settings, name || null, ctx.clock());
  return settingsView(row)!;
}

/** PATCH pause: only `paused` changes; the next routing decision reads it. */
export async function pauseMyTransfers(ctx: TransfersContext, agent: Agent, paused: boolean, correlationId: string): Promise<TransferSettingsView> {
  await setAgentPaused(ctx.pool, agent.userId, paused, ctx.clock());
  return mySettings(ctx, agent, correlationId);
}

async function profileOf(ctx: TransfersContext, agent: Agent, correlationId: string): Promise<AgentProfile | null> {
  try {
    return await ctx.gateway.agentProfile(agent.userId, correlationId);
  } catch (err) {
    ctx.log.warn({ err, userId: agent.userId }, "the gateway did not say the agent's profile; settings are suggested without the survey");
    return null;
  }
}

async function latestOrderOf(ctx: TransfersContext, agent: Agent, correlationId: string): Promise<LatestTransferOrder | null> {
  try {
    return await ctx.orders.latestTransferOrder(identityOf(agent), correlationId);
  } catch (err) {
    ctx.log.warn({ err, userId: agent.userId }, "orders did not say the agent's latest transfer order; settings are suggested without it");
    return null;
  }
}

function identityOf(agent: Agent): Identity {
  return { userId: agent.userId, username: agent.username, isAdmin: false };
}

const IS_STATE = new Set<string>(US_STATE_CODES);
const AGENT_ZONES = new Set<string>(AGENT_TIME_ZONES.map((z) => z.zone));

/**
 * What the survey and the latest transfer order suggest: the survey's states, else the order's;
 * the order's transfer number, else the account's phone; the survey's zone, else the one the
 * order's hours name, else the first state's; the order's hours when they read as a range,
 * else Mon–Fri 9–5; the survey's (else the order's) calls per day as the cap; one at once.
 */
function suggestSettings(
  profile: AgentProfile | null,
  order: LatestTransferOrder | null,
  businessTimeZone: string,
): Omit<TransferSettingsView, 'paused'> {
  const surveyStates = (profile?.workingStates ?? []).filter((s) => IS_STATE.has(s));
  const states = (surveyStates.length > 0 ? surveyStates : (order?.states ?? []).filter((s) => IS_STATE.has(s))) as UsStateCode[];
  const sortedStates = [...new Set(states)].sort();
  const transferPhone = (order && diallableUsPhone(order.transferPhone)) ?? (profile && diallableUsPhone(profile.phone)) ?? '';
  const zone: AgentTimeZone =
    (profile?.surveyTimeZone ? SURVEY_ZONE_TO_IANA[profile.surveyTimeZone] : undefined) ??
    zoneNamedIn(order?.transferHours) ??
    (sortedStates[0] ? zoneOfState(states[0]!) : undefined) ??
    (AGENT_ZONES.has(businessTimeZone) ? (businessTimeZone as AgentTimeZone) : 'America/New_York');
  const callsPerDay = profile?.callsPerDay ?? order?.callsPerDay ?? DEFAULT_DAILY_CAP;
  return {
    saved: false,
    transferPhone,
    states: sortedStates,
    timeZone: zone,
    timeZoneName: timeZoneName(zone),
    hours: hoursNamedIn(order?.transferHours) ?? DEFAULT_HOURS,
    dailyCap: Math.min(MAX_DAILY_CAP, Math.max(1, callsPerDay)),
    atOnce: 1,
  };
}

/** 'PST', 'MST', 'CST', 'EST' (or their daylight forms) in the order's hours text. */
function zoneNamedIn(text: string | undefined): AgentTimeZone | undefined {
  const match = text?.toUpperCase().match(/\b([PMCE])[SD]T\b/);
  if (!match) return undefined;
  return SURVEY_ZONE_TO_IANA[`${match[1]}ST` as keyof typeof SURVEY_ZONE_TO_IANA];
}

/** '9am-5pm CST', '9:30 AM – 6 PM', '09:00-17:00' → Mon–Fri in that range; undefined otherwise. */
function hoursNamedIn(text: string | undefined): HoursRange[] | undefined {
  const match = text?.match(/(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\s*(?:-|–|to)\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm)?/i);
  if (!match) return undefined;
  const from = hhmm(Number(match[1]), Number(match[2] ?? 0), match[3]);
  const to = hhmm(Number(match[4]), Number(match[5] ?? 0), match[6]);
  if (!from || !to || from >= to) return undefined;
  return WEEKDAYS.slice(0, 5).map((day) => ({ day, from, to }));
}

function hhmm(hour: number, minute: number, meridiem: string | undefined): string | null {
  if (minute > 59) return null;
  let h = hour;
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    h = (hour % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  }
  if (h > 23) return null;
  return `${String(h).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}
