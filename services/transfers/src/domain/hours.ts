import { timeZoneName, WEEKDAYS, type HoursRange, type Weekday } from '@warmline/contracts';

/**
 * Weekly hours in a time zone (issue 23 §2): an agent's hours are wall-clock times in their own
 * zone, so a DST change moves them with the clock, as the agent expects. Pure functions of an
 * instant and a zone; Intl does the zone arithmetic.
 */

export interface LocalTime {
  /** YYYY-MM-DD in the zone. */
  date: string;
  weekday: Weekday;
  /** HH:MM in the zone (24-hour). */
  hhmm: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    formatters.set(zone, f);
  }
  return f;
}

/** The date, weekday and time of day an instant is in a zone. */
export function localTime(at: Date, zone: string): LocalTime {
  const parts = Object.fromEntries(formatterFor(zone).formatToParts(at).map((p) => [p.type, p.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: String(parts.weekday).toLowerCase().slice(0, 3) as Weekday,
    hhmm: `${parts.hour}:${parts.minute}`,
  };
}

/** Whether an instant falls inside one of the weekly hours (from inclusive, to exclusive) in the zone. */
export function withinHours(hours: readonly HoursRange[], zone: string, at: Date): boolean {
  const now = localTime(at, zone);
  return hours.some((h) => h.day === now.weekday && h.from <= now.hhmm && now.hhmm < h.to);
}

/**
 * The hours now running or next to start, as words ('Mon 9:00 AM – 5:00 PM Central Time',
 * 'Fri all day Central Time'),
 * looking a week ahead; null when there are no hours.
 */
export function nextHours(hours: readonly HoursRange[], zone: string, at: Date): string | null {
  if (hours.length === 0) return null;
  const now = localTime(at, zone);
  const today = WEEKDAYS.indexOf(now.weekday);
  for (let offset = 0; offset <= 7; offset++) {
    const day = WEEKDAYS[(today + offset) % 7]!;
    const candidates = hours
      .filter((h) => h.day === day && (offset > 0 || h.to > now.hhmm))
      .sort((a, b) => a.from.localeCompare(b.from));
    const next = candidates[0];
    if (!next) continue;
    const span = next.from === '00:00' && next.to === '24:00' ? 'all day' : `${clock12(next.from)} – ${clock12(next.to)}`;
    return `${capitalise(day)} ${span} ${timeZoneName(zone)}`;
  }
  return null;
}

/** '09:00' → '9:00 AM', '24:00' (the end of a day) → 'midnight'. */
export function clock12(hhmm: string): string {
  if (hhmm === '24:00') return 'midnight';
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, '0')} ${h % 24 < 12 ? 'AM' : 'PM'}`;
}

function capitalise(day: string): string {
  return day.charAt(0).toUpperCase() + day.slice(1);
}
