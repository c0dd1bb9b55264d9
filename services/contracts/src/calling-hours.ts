import { z } from 'zod';
import { stateOfAreaCode } from './area-codes';
import { areaCodeOf } from './us-phone';
import { US_STATE_CODES, type UsStateCode } from './us-states';
import { CALLING_HOURS } from './live-transfers';
import type { ProspectCallingHours } from './prospect-calling-hours';

/**
 * Legal calling hours in the prospect's own local time (TCPA, 47 CFR 64.1200(c)(1): not before
 * 8 am nor after 9 pm at the called party's location). Routing (issue 23) only sends a prospect
 * to an agent inside them. The prospect's zone comes from their state, and for states split
 * between two zones from the phone's area code. An area code that itself spans two zones lists
 * both, and the call is allowed only when it is inside the hours in every one of them: routing
 * never guesses the earlier clock. Issue 24 adds the state rules (CALLING_HOURS_RULES below).
 *
 * Zone boundaries: 49 CFR Part 71 (§71.5 Eastern/Central, §71.7 Central/Mountain, §71.8
 * Mountain/Pacific, §71.9 Alaska/Hawaii-Aleutian); area code coverage: NANPA's area code maps.
 */

const ET = 'America/New_York';
const CT = 'America/Chicago';
const MT = 'America/Denver';
const PT = 'America/Los_Angeles';

/** Each state's zone (the zone of most of its people). */
const STATE_ZONE: Record<UsStateCode, string> = {
  AL: CT, AK: 'America/Anchorage', AZ: 'America/Phoenix', AR: CT, CA: PT, CO: MT, CT: ET, DE: ET, DC: ET,
  FL: ET, GA: ET, HI: 'Pacific/Honolulu', ID: MT, IL: CT, IN: ET, IA: CT, KS: CT, KY: ET, LA: CT, ME: ET,
  MD: ET, MA: ET, MI: ET, MN: CT, MS: CT, MO: CT, MT: MT, NE: CT, NV: PT, NH: ET, NJ: ET, NM: MT, NY: ET,
  NC: ET, ND: CT, OH: ET, OK: CT, OR: PT, PA: ET, PR: 'America/Puerto_Rico', RI: ET, SC: ET, SD: CT,
  TN: CT, TX: CT, UT: MT, VT: ET, VA: ET, WA: PT, WV: ET, WI: CT, WY: MT,
};

/**
 * Area codes of split states whose zones differ from the state's (each with its source). Keyed
 * by state then area code, so a phone ported to another state keeps that state's zone.
 */
const AREA_CODE_ZONES: Partial<Record<UsStateCode, Record<string, readonly string[]>>> = {
  // 49 CFR 71.5(c): the panhandle west of the Apalachicola River is Central; 850 also covers Tallahassee (Eastern).
  FL: { '850': [CT, ET] },
  // 49 CFR 71.5(d): East Tennessee (Knoxville 865, Chattanooga/Tri-Cities 423) is Eastern; 931 spans both.
  TN: { '423': [ET], '865': [ET], '931': [CT, ET] },
  // 49 CFR 71.5(d): western Kentucky is Central; 270/364 cover it and some Eastern counties.
  KY: { '270': [CT, ET], '364': [CT, ET] },
  // 49 CFR 71.5(b): NW Indiana (Gary, 219) and the SW corner (Evansville, in 812/930) are Central.
  IN: { '219': [CT], '812': [CT, ET], '930': [CT, ET] },
  // 49 CFR 71.5(a): four Upper Peninsula counties bordering Wisconsin are Central (906).
  MI: { '906': [CT, ET] },
  // 49 CFR 71.7(b): Sherman, Wallace (785), Greeley and Hamilton (620) counties are Mountain.
  KS: { '620': [CT, MT], '785': [CT, MT] },
  // 49 CFR 71.7(c): the Nebraska panhandle and west (308) is Mountain.
  NE: { '308': [CT, MT] },
  // 49 CFR 71.7(d): south-west North Dakota is Mountain; 701 is the whole state.
  ND: { '701': [CT, MT] },
  // 49 CFR 71.7(e): West River South Dakota is Mountain; 605 is the whole state.
  SD: { '605': [CT, MT] },
  // 49 CFR 71.7(f): El Paso (915) is Mountain; Hudspeth and Culberson counties (432) too.
  TX: { '915': [MT], '432': [CT, MT] },
  // 49 CFR 71.8: most of Malheur County (541/458) is Mountain.
  OR: { '541': [PT, MT], '458': [PT, MT] },
  // 49 CFR 71.8: the panhandle north of the Salmon River is Pacific; 208/986 are the whole state.
  ID: { '208': [MT, PT], '986': [MT, PT] },
  // 49 CFR 71.8: West Wendover (775) keeps Mountain time.
  NV: { '775': [PT, MT] },
  // 49 CFR 71.9: the Aleutians west of 169°30′ W keep Hawaii-Aleutian time; 907 is the whole state.
  AK: { '907': ['America/Anchorage', 'America/Adak'] },
  // The Navajo Nation (928) keeps daylight saving time, the rest of Arizona does not.
  AZ: { '928': ['America/Phoenix', MT] },
};

/* ------------------------------------------------------------------ the rules (issue 24) ---------- */

/** One calling-hours rule: the window in the prospect's own clock and, where the law sets one, a cap on calls. */
export interface CallingHoursRule {
  /** Who says so, as shown beside a refusal: 'Federal (TCPA)', 'Florida'. */
  name: string;
  /** 'HH:MM', 24-hour local time; a call at `from` is allowed, one at `to` is not. */
  from: string;
  to: string;
  /** Calls to one person per rolling 24 hours, or null when the law sets no cap. */
  maxCallsPer24h: number | null;
  /** The citation. */
  source: string;
  /** The law's words (as enacted, trimmed to the clause that applies). */
  sourceText: string;
}

/**
 * Every calling-hours rule WarmLine applies, in ONE table (issue 24 §3, docs/adr/0036): the
 * federal floor everywhere, and the states whose own telemarketing law is stricter. A state not
 * listed follows the federal rule. The state laws count calls "on the same subject matter … regardless
 * of the phone number used"; WarmLine counts what it can see of one prospect's phone.
 */
export const CALLING_HOURS_RULES = {
  federal: {
    name: 'Federal (TCPA)',
    from: CALLING_HOURS.from,
    to: CALLING_HOURS.to,
    maxCallsPer24h: null,
    source: '47 CFR 64.1200(c)(1)',
    sourceText:
      'No person or entity shall initiate any telephone solicitation to … any residential telephone subscriber before the hour of 8 a.m. or after 9 p.m. (local time at the called party\'s location).',
  },
  FL: {
    name: 'Florida',
    from: '08:00',
    to: '20:00',
    maxCallsPer24h: 3,
    // The brief named § 501.059(8); the hours and the cap are § 501.616(6), as amended by ch. 2021-150 (CS/SB 1120).
    source: 'Fla. Stat. § 501.616(6)(a)–(b)',
    sourceText:
      'A commercial telephone seller or salesperson may not make any of the following types of phone calls, including calls made through automated dialing or recorded messages: (a) A commercial telephone solicitation phone call before 8 a.m. or after 8 p.m. local time at the called person\'s location. (b) More than three commercial telephone solicitation phone calls from any number to a person over a 24-hour period on the same subject matter or issue, regardless of the phone number used to make the call.',
  },
  OK: {
    name: 'Oklahoma',
    from: '08:00',
    to: '20:00',
    maxCallsPer24h: 3,
    source: 'Okla. Stat. tit. 15, § 775C.4 (Telephone Solicitation Act of 2022, HB 3168)',
    sourceText:
      'A commercial telephone seller or salesperson shall not make … (1) a commercial telephone solicitation phone call before 8:00 a.m. or after 8:00 p.m. local time at the called party\'s location, or (2) more than three commercial telephone solicitation phone calls from any number to a person over a twenty-four-hour period on the same subject matter or issue, regardless of the phone number used to make the call.',
  },
  MD: {
    name: 'Maryland',
    from: '08:00',
    to: '20:00',
    maxCallsPer24h: 3,
    // Subtitle 45 (§ 14-4501 ff., the Stop the Spam Calls Act of 2023, SB 90, in force 1 January 2024) is
    // confirmed; the section holding the hours and the cap is the issue brief's and was not checked against the code.
    source: 'Md. Code, Com. Law § 14-4503 (Stop the Spam Calls Act of 2023)',
    sourceText:
      'A person may not make or cause to be made a telephone solicitation … before 8 a.m. or after 8 p.m. at the called party\'s location, or more than three times in a 24-hour period to the same called party on the same subject matter, regardless of the telephone number used to make the call.',
  },
} as const satisfies Record<string, CallingHoursRule>;

type StateRuleCode = Exclude<keyof typeof CALLING_HOURS_RULES, 'federal'>;

const STATE_CODES: ReadonlySet<string> = new Set(US_STATE_CODES);

/** The rule that applies in this state: its own where it has a stricter one, else the federal one. */
export function callingHoursRuleOf(state: UsStateCode): CallingHoursRule {
  return (CALLING_HOURS_RULES as Record<string, CallingHoursRule>)[state as StateRuleCode] ?? CALLING_HOURS_RULES.federal;
}

/** The rolling window the call caps count in. */
export const CALL_CAP_WINDOW_HOURS = 24;

/* ------------------------------------------------------------------ the clock ---------- */

/** The zones the prospect may be in: the area code's for split states, else the state's. */
function prospectZones(state: UsStateCode, phone: string): readonly string[] {
  return AREA_CODE_ZONES[state]?.[areaCodeOf(phone)] ?? [STATE_ZONE[state]];
}

const clocks = new Map<string, Intl.DateTimeFormat>();
const shownClocks = new Map<string, Intl.DateTimeFormat>();

/** 'HH:MM' on a 24-hour clock in the zone (DST by the zone's own rules). */
function hhmmIn(zone: string, at: Date): string {
  let f = clocks.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' });
    clocks.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.hour}:${parts.minute}`;
}

/** '3:45 PM CST': the clock as a person reads it, with the zone's abbreviation of that moment (CST or CDT). */
function shownTimeIn(zone: string, at: Date): string {
  let f = shownClocks.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit', hour12: true, timeZoneName: 'short' });
    shownClocks.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.hour}:${parts.minute} ${(parts.dayPeriod ?? '').toUpperCase()} ${parts.timeZoneName}`;
}

/** '08:00' → '8:00 AM', '20:00' → '8:00 PM'. */
function shownHhmm(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** Whether the prospect may be called now as far as the hours go: inside their state's window in every zone they may be in. */
export function withinCallingHours(state: UsStateCode, phone: string, at: Date): boolean {
  const rule = callingHoursRuleOf(state);
  return prospectZones(state, phone).every((zone) => {
    const now = hhmmIn(zone, at);
    return rule.from <= now && now < rule.to;
  });
}

export type { ProspectCallingHours } from './prospect-calling-hours';

/**
 * The prospect's calling hours at `at`. The state is the one on file, else the phone's area
 * code's. With neither the prospect's zone is unknown, and the answer is "not callable": the
 * caller carries the burden of proving the call was inside the hours, and without a zone nobody
 * can (docs/adr/0036). `attemptsInLast24h` counts the calls WarmLine knows of in the last
 * CALL_CAP_WINDOW_HOURS; it only matters where the state caps calls.
 */
export function prospectCallingHours(state: string | null, phone: string, at: Date, attemptsInLast24h = 0): ProspectCallingHours {
  const known = state && STATE_CODES.has(state.toUpperCase()) ? (state.toUpperCase() as UsStateCode) : stateOfAreaCode(phone);
  if (!known) return { localTime: 'Unknown', callableNow: false, callingHoursNote: 'Local time unknown (no state or area code)' };
  const rule = callingHoursRuleOf(known);
  const zones = prospectZones(known, phone);
  const localTime = zones.map((zone) => shownTimeIn(zone, at)).join(' / ');
  const clocksNow = zones.map((zone) => ({ zone, hhmm: hhmmIn(zone, at) }));
  const capReached = rule.maxCallsPer24h !== null && attemptsInLast24h >= rule.maxCallsPer24h;
  if (capReached) {
    return { localTime, callableNow: false, callingHoursNote: `${rule.maxCallsPer24h} calls in ${CALL_CAP_WINDOW_HOURS} hours reached (${rule.name})` };
  }
  if (clocksNow.every((c) => rule.from <= c.hhmm && c.hhmm < rule.to)) {
    const left = rule.maxCallsPer24h !== null && attemptsInLast24h > 0 ? `${attemptsInLast24h} of ${rule.maxCallsPer24h} calls in ${CALL_CAP_WINDOW_HOURS} hours (${rule.name})` : null;
    return { localTime, callableNow: true, callingHoursNote: left };
  }
  // The joint window opens when the westernmost zone (the earliest clock) reaches `from`.
  const earliest = clocksNow.reduce((a, b) => (zoneOffsetMinutes(b.zone, at) < zoneOffsetMinutes(a.zone, at) ? b : a));
  const opens = `Opens ${shownHhmm(rule.from)}${zones.length > 1 ? ` ${shownTimeIn(earliest.zone, at).split(' ').pop()}` : ''}`;
  const closedBy = rule === CALLING_HOURS_RULES.federal ? '' : ` (${rule.name}: ${shownHhmm(rule.from)}–${shownHhmm(rule.to)})`;
  return { localTime, callableNow: false, callingHoursNote: `${opens}${closedBy}` };
}

/** The zone's offset from UTC at `at`, in minutes (negative west of Greenwich). */
function zoneOffsetMinutes(zone: string, at: Date): number {
  const [h, m] = hhmmIn(zone, at).split(':').map(Number) as [number, number];
  let diff = h * 60 + m - (at.getUTCHours() * 60 + at.getUTCMinutes());
  if (diff > 14 * 60) diff -= 24 * 60;
  if (diff < -14 * 60) diff += 24 * 60;
  return diff;
}

/**
 * Whether a moment falls outside the prospect's calling hours (the cap aside): true or false, or
 * null when neither the state nor the area code names their zone. The admin's call-backs list
 * flags a callback time for which this is true (issue 24 §3).
 */
export function outsideCallingHours(state: string | null, phone: string, at: Date): boolean | null {
  const known = state && STATE_CODES.has(state.toUpperCase()) ? (state.toUpperCase() as UsStateCode) : stateOfAreaCode(phone);
  return known ? !withinCallingHours(known, phone, at) : null;
}

/** The API's calling-hours fields, for the zod schemas of the rows that carry them. */
export const prospectCallingHoursShape = {
  localTime: z.string(),
  callableNow: z.boolean(),
  callingHoursNote: z.string().nullable(),
};

/* ------------------------------------------------------------------ call attempts (My Call-backs) ---------- */

export const CALL_ATTEMPT_OUTCOMES = ['no_answer', 'voicemail', 'reached', 'busy'] as const;
export type CallAttemptOutcome = (typeof CALL_ATTEMPT_OUTCOMES)[number];
export const CALL_ATTEMPT_OUTCOME_LABELS: Record<CallAttemptOutcome, string> = {
  no_answer: 'No answer',
  voicemail: 'Left a voicemail',
  reached: 'Reached the prospect',
  busy: 'Busy',
};
const CALL_ATTEMPT_NOTE_MAX_LENGTH = 500;

/** `POST /api/my-callbacks/{id}/attempts`: the agent called the prospect (now). */
export const callAttemptBody = z
  .object({
    outcome: z.enum(CALL_ATTEMPT_OUTCOMES, { error: `Outcome must be one of ${CALL_ATTEMPT_OUTCOMES.join(', ')}` }).optional(),
    note: z
      .string({ error: 'Note must be text' })
      .trim()
      .max(CALL_ATTEMPT_NOTE_MAX_LENGTH, `Note must be at most ${CALL_ATTEMPT_NOTE_MAX_LENGTH} characters`)
      .optional(),
  })
  .strict();
export type CallAttemptBody = z.infer<typeof callAttemptBody>;

export const callAttemptAnswer = z.object({
  attempt: z.object({
    id: z.uuid(),
    callbackId: z.uuid(),
    outcome: z.enum(CALL_ATTEMPT_OUTCOMES).nullable(),
    note: z.string().nullable(),
    at: z.iso.datetime({ offset: true }),
  }),
  /**
   * Whether the call was allowed when it was made: inside the prospect's hours and under their
   * state's cap (counting the attempts before it). A call outside them is recorded all the same:
   * the log says what happened.
   */
  allowedWhenMade: z.boolean(),
  outsideCallingHours: z.boolean(),
  /** 'Recorded.' or what was wrong: 'Recorded — this call was outside calling hours (Opens 8:00 AM).' */
  message: z.string(),
  /** Attempts in the last 24 hours, this one included. */
  attemptsLast24h: z.number().int().nonnegative(),
  /** The prospect's hours now, counting this attempt. */
  ...prospectCallingHoursShape,
});
export type CallAttemptAnswer = z.infer<typeof callAttemptAnswer>;
