import { describe, expect, it } from 'vitest';
import type { HoursRange } from '@warmline/contracts';
import { clock12, localTime, nextHours, withinHours } from '../src/domain/hours';

/** Weekly hours in the agent's own zone (issue 23 §2): wall-clock times that move with DST, and how My Transfers words them. */
const WEEKDAYS_9_TO_5: HoursRange[] = (['mon', 'tue', 'wed', 'thu', 'fri'] as const).map((day) => ({ day, from: '09:00', to: '17:00' }));

describe('weekly hours in a zone', () => {
  it('when DST starts in Chicago (Sunday 2026-03-08), then 1:30 is CST and an hour later 3:30 is CDT', () => {
    expect(localTime(new Date('2026-03-08T07:30:00Z'), 'America/Chicago')).toEqual({ date: '2026-03-08', weekday: 'sun', hhmm: '01:30' });
    expect(localTime(new Date('2026-03-08T08:30:00Z'), 'America/Chicago')).toEqual({ date: '2026-03-08', weekday: 'sun', hhmm: '03:30' });
  });

  it('when it is 9:00 local on a Monday in winter and in summer, then both are inside 09:00–17:00 (from inclusive, to exclusive)', () => {
    expect(withinHours(WEEKDAYS_9_TO_5, 'America/Chicago', new Date('2026-01-05T15:00:00Z'))).toBe(true);
    expect(withinHours(WEEKDAYS_9_TO_5, 'America/Chicago', new Date('2026-07-06T14:00:00Z'))).toBe(true);
    expect(withinHours(WEEKDAYS_9_TO_5, 'America/Chicago', new Date('2026-07-06T22:00:00Z'))).toBe(false);
    expect(withinHours(WEEKDAYS_9_TO_5, 'America/Chicago', new Date('2026-07-05T15:00:00Z'))).toBe(false);
  });

  it('when the next hours are asked on a Friday evening, then they are Monday’s, in words with the zone’s name', () => {
    expect(nextHours(WEEKDAYS_9_TO_5, 'America/Chicago', new Date('2026-11-27T23:30:00Z'))).toBe('Mon 9:00 AM – 5:00 PM Central Time');
    expect(nextHours([], 'America/Chicago', new Date('2026-11-27T23:30:00Z'))).toBeNull();
  });

  it('when a day runs 00:00–24:00, then it reads "all day", and 24:00 alone reads midnight', () => {
    const allDay: HoursRange[] = [{ day: 'fri', from: '00:00', to: '24:00' }];
    expect(nextHours(allDay, 'America/Chicago', new Date('2026-11-27T18:00:00Z'))).toBe('Fri all day Central Time');
    expect(clock12('18:00')).toBe('6:00 PM');
    expect(clock12('00:30')).toBe('12:30 AM');
    expect(clock12('24:00')).toBe('midnight');
  });
});
