import type { UsStateCode } from './catalog';
import { CALLING_HOURS } from './live-transfers';

/**
 * Legal calling hours in the prospect's own local time (TCPA, 47 CFR 64.1200(c)(1): not before
 * 8 am nor after 9 pm at the called party's location). Routing (issue 23) only sends a prospect
 * to an agent inside them. The prospect's zone comes from their state, and for states split
 * between two zones from the phone's area code. An area code that itself spans two zones lists
 * both, and the call is allowed only when it is inside the hours in every one of them: routing
 * never guesses the earlier clock. Issue 24 extends this table with state-specific rules.
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

/** The zones the prospect may be in: the area code's for split states, else the state's. */
function prospectZones(state: UsStateCode, phone: string): readonly string[] {
  const areaCode = phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '').slice(0, 3);
  return AREA_CODE_ZONES[state]?.[areaCode] ?? [STATE_ZONE[state]];
}

const clocks = new Map<string, Intl.DateTimeFormat>();

function hhmmIn(zone: string, at: Date): string {
  let f = clocks.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' });
    clocks.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.hour}:${parts.minute}`;
}

/** Whether the prospect may be called now: inside 8:00–21:00 in every zone they may be in. */
export function withinCallingHours(state: UsStateCode, phone: string, at: Date): boolean {
  return prospectZones(state, phone).every((zone) => {
    const now = hhmmIn(zone, at);
    return CALLING_HOURS.from <= now && now < CALLING_HOURS.to;
  });
}
