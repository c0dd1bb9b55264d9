import { describe, expect, it } from 'vitest';
import { CALLING_HOURS_RULES, prospectCallingHours, withinCallingHours } from '../src/calling-hours';

/** Issue 24 §3: the prospect's clock and whether a call is allowed, at the edges. */
const at = (iso: string) => new Date(iso);

describe('calling hours at the edges of each zone (federal 8 am–9 pm)', () => {
  // January: standard time everywhere. Local = UTC − offset.
  const zones: Array<{ state: string; phone: string; offsetHours: number; abbr: string }> = [
    { state: 'NY', phone: '2125550101', offsetHours: 5, abbr: 'EST' },
    { state: 'TX', phone: '5125550101', offsetHours: 6, abbr: 'CST' },
    { state: 'CO', phone: '3035550101', offsetHours: 7, abbr: 'MST' },
    { state: 'CA', phone: '4155550101', offsetHours: 8, abbr: 'PST' },
    { state: 'AK', phone: '9075550101', offsetHours: 9, abbr: 'AKST' },
    { state: 'HI', phone: '8085550101', offsetHours: 10, abbr: 'HST' },
  ];
  const utc = (localHh: number, mm: number, offset: number) => new Date(Date.UTC(2026, 0, 15, localHh + offset, mm));

  for (const z of zones.filter((z) => z.state !== 'AK')) {
    it(`${z.state}: 8:59 pm yes, 9:00 pm no; 7:59 am no, 8:00 am yes`, () => {
      expect(prospectCallingHours(z.state, z.phone, utc(20, 59, z.offsetHours))).toEqual({ localTime: `8:59 PM ${z.abbr}`, callableNow: true, callingHoursNote: null });
      expect(prospectCallingHours(z.state, z.phone, utc(21, 0, z.offsetHours))).toMatchObject({ localTime: `9:00 PM ${z.abbr}`, callableNow: false, callingHoursNote: 'Opens 8:00 AM' });
      expect(prospectCallingHours(z.state, z.phone, utc(7, 59, z.offsetHours))).toMatchObject({ localTime: `7:59 AM ${z.abbr}`, callableNow: false });
      expect(prospectCallingHours(z.state, z.phone, utc(8, 0, z.offsetHours))).toMatchObject({ localTime: `8:00 AM ${z.abbr}`, callableNow: true });
    });
  }

  it('Alaska (907 spans Alaska and Hawaii-Aleutian time): both clocks shown, allowed only when both are inside', () => {
    // 8:59 pm AKST is 7:59 pm HAST: callable; 9:00 pm AKST is not.
    expect(prospectCallingHours('AK', '9075550101', utc(20, 59, 9))).toMatchObject({ localTime: '8:59 PM AKST / 7:59 PM HAST', callableNow: true });
    expect(prospectCallingHours('AK', '9075550101', utc(21, 0, 9)).callableNow).toBe(false);
    // 8:30 am AKST is 7:30 am HAST: the Aleutians are not open yet.
    expect(prospectCallingHours('AK', '9075550101', utc(8, 30, 9))).toMatchObject({ callableNow: false, callingHoursNote: 'Opens 8:00 AM HAST' });
  });
});

describe('a two-zone state by area code', () => {
  it('Tennessee: Knoxville (865) keeps Eastern time, Nashville (615) Central', () => {
    const t = at('2026-01-16T01:30:00Z'); // 8:30 pm EST = 7:30 pm CST
    expect(prospectCallingHours('TN', '8655550101', t)).toMatchObject({ localTime: '8:30 PM EST', callableNow: true });
    const late = at('2026-01-16T02:30:00Z'); // 9:30 pm EST = 8:30 pm CST
    expect(prospectCallingHours('TN', '8655550101', late)).toMatchObject({ localTime: '9:30 PM EST', callableNow: false });
    expect(prospectCallingHours('TN', '6155550101', late)).toMatchObject({ localTime: '8:30 PM CST', callableNow: true });
  });

  it('an area code that spans both zones (TN 931) shows both clocks and is callable only inside both', () => {
    const t = at('2026-01-16T02:30:00Z');
    expect(prospectCallingHours('TN', '9315550101', t)).toMatchObject({ localTime: '8:30 PM CST / 9:30 PM EST', callableNow: false });
    expect(withinCallingHours('TN', '9315550101', t)).toBe(false);
  });

  it('no state on file: the area code gives it; no state nor geographic area code: unknown, not callable', () => {
    expect(prospectCallingHours(null, '9155550101', at('2026-01-16T03:30:00Z'))).toMatchObject({ localTime: '8:30 PM MST', callableNow: true });
    expect(prospectCallingHours(null, '8005550101', at('2026-01-15T18:00:00Z'))).toEqual({
      localTime: 'Unknown',
      callableNow: false,
      callingHoursNote: 'Local time unknown (no state or area code)',
    });
  });
});

describe("Florida's 8 pm and 3 calls in 24 hours (also Oklahoma and Maryland)", () => {
  it('Florida closes at 8:00 pm: 7:59 pm yes, 8:00 pm no (a New York prospect at 8:00 pm is still callable)', () => {
    expect(prospectCallingHours('FL', '3055550101', at('2026-01-16T00:59:00Z'))).toMatchObject({ localTime: '7:59 PM EST', callableNow: true });
    expect(prospectCallingHours('FL', '3055550101', at('2026-01-16T01:00:00Z'))).toEqual({
      localTime: '8:00 PM EST',
      callableNow: false,
      callingHoursNote: 'Opens 8:00 AM (Florida: 8:00 AM–8:00 PM)',
    });
    expect(prospectCallingHours('NY', '2125550101', at('2026-01-16T01:00:00Z')).callableNow).toBe(true);
    expect(withinCallingHours('FL', '3055550101', at('2026-01-16T01:30:00Z'))).toBe(false);
  });

  it('Oklahoma and Maryland close at 8:00 pm too', () => {
    expect(prospectCallingHours('OK', '4055550101', at('2026-01-16T02:00:00Z'))).toMatchObject({ localTime: '8:00 PM CST', callableNow: false });
    expect(prospectCallingHours('MD', '4105550101', at('2026-01-16T01:00:00Z'))).toMatchObject({ localTime: '8:00 PM EST', callableNow: false });
    expect(prospectCallingHours('MD', '4105550101', at('2026-01-16T00:59:00Z')).callableNow).toBe(true);
  });

  it('the third call in 24 hours closes the prospect for the day, saying why; states without a cap ignore the count', () => {
    const noon = at('2026-01-15T17:00:00Z');
    expect(prospectCallingHours('FL', '3055550101', noon, 2)).toEqual({ localTime: '12:00 PM EST', callableNow: true, callingHoursNote: '2 of 3 calls in 24 hours (Florida)' });
    expect(prospectCallingHours('FL', '3055550101', noon, 3)).toEqual({ localTime: '12:00 PM EST', callableNow: false, callingHoursNote: '3 calls in 24 hours reached (Florida)' });
    expect(prospectCallingHours('OK', '9185550101', noon, 3).callingHoursNote).toBe('3 calls in 24 hours reached (Oklahoma)');
    expect(prospectCallingHours('NY', '2125550101', noon, 10)).toMatchObject({ callableNow: true, callingHoursNote: null });
  });

  it('the rules table names its source for every rule', () => {
    for (const rule of Object.values(CALLING_HOURS_RULES)) {
      expect(rule.source).not.toBe('');
      expect(rule.sourceText.length).toBeGreaterThan(40);
    }
    expect(CALLING_HOURS_RULES.FL).toMatchObject({ to: '20:00', maxCallsPer24h: 3 });
  });
});

describe('across a DST change', () => {
  it('spring forward (8 March 2026): the same UTC moment is 7:59 am EST the day before and 8:59 am EDT after', () => {
    expect(prospectCallingHours('NY', '2125550101', at('2026-03-07T12:59:00Z'))).toMatchObject({ localTime: '7:59 AM EST', callableNow: false });
    expect(prospectCallingHours('NY', '2125550101', at('2026-03-08T12:59:00Z'))).toMatchObject({ localTime: '8:59 AM EDT', callableNow: true });
    // The evening edge moves an hour earlier in UTC: 9:00 pm EDT is 01:00 UTC.
    expect(prospectCallingHours('NY', '2125550101', at('2026-03-09T00:59:00Z'))).toMatchObject({ localTime: '8:59 PM EDT', callableNow: true });
    expect(prospectCallingHours('NY', '2125550101', at('2026-03-09T01:00:00Z'))).toMatchObject({ localTime: '9:00 PM EDT', callableNow: false });
  });

  it('fall back (1 November 2026): Florida 8:00 pm is 00:00 UTC before and 01:00 UTC after', () => {
    expect(prospectCallingHours('FL', '3055550101', at('2026-10-31T23:59:00Z'))).toMatchObject({ localTime: '7:59 PM EDT', callableNow: true });
    expect(prospectCallingHours('FL', '3055550101', at('2026-11-01T00:00:00Z'))).toMatchObject({ localTime: '8:00 PM EDT', callableNow: false });
    expect(prospectCallingHours('FL', '3055550101', at('2026-11-02T00:30:00Z'))).toMatchObject({ localTime: '7:30 PM EST', callableNow: true });
    expect(prospectCallingHours('FL', '3055550101', at('2026-11-02T01:00:00Z'))).toMatchObject({ localTime: '8:00 PM EST', callableNow: false });
  });

  it('Arizona keeps standard time all year, the Navajo Nation (928) does not: both clocks, the stricter decides', () => {
    // 21 July, 03:30 UTC: 8:30 pm MST in Phoenix, 9:30 pm MDT on the Navajo Nation.
    expect(prospectCallingHours('AZ', '6025550101', at('2026-07-21T03:30:00Z'))).toMatchObject({ localTime: '8:30 PM MST', callableNow: true });
    expect(prospectCallingHours('AZ', '9285550101', at('2026-07-21T03:30:00Z'))).toMatchObject({ localTime: '8:30 PM MST / 9:30 PM MDT', callableNow: false });
  });
});
