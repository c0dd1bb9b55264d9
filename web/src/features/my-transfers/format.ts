import { TRANSFER_STATUS_LABELS, WEEKDAYS, type TransferView, type Weekday } from '@warmline/contracts/live-transfers';
import { formatUsd } from '@warmline/contracts/pricing';

/** How transfers read on My Transfers and in the admin's Transfers tab (issue 23): the same words in both. */

/** 'Charged $37.00' (the price of the credit it was charged to), else the status in words. */
export function transferStatusText(t: Pick<TransferView, 'status' | 'chargedCents'>): string {
  if (t.status === 'charged' && t.chargedCents !== null) return `${TRANSFER_STATUS_LABELS.charged} ${formatUsd(t.chargedCents)}`;
  return TRANSFER_STATUS_LABELS[t.status];
}

/** 95 → '1:35'; unknown (not reported yet) → '—'. */
export function durationText(seconds: number | null): string {
  if (seconds === null) return '—';
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** '09:30' → '9:30 AM'; '24:00' (a day's end) → '12:00 AM (midnight)'. */
export function clockText(hhmm: string): string {
  if (hhmm === '24:00') return '12:00 AM (midnight)';
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

const SHORT_DAY = (day: Weekday) => WEEKDAY_NAMES[day].slice(0, 3);

/** One day's ranges in words: '9:00 AM – 5:00 PM', 'all day', several joined with ', '. */
function rangesText(ranges: ReadonlyArray<{ from: string; to: string }>): string {
  return ranges.map((r) => (r.from === '00:00' && r.to === '24:00' ? 'all day' : `${clockText(r.from)} – ${clockText(r.to)}`)).join(', ');
}

/** Weekly hours in words, days in a row with the same hours together: ['Mon–Fri 9:00 AM – 5:00 PM', 'Sat all day']. */
export function hoursLines(hours: ReadonlyArray<{ day: Weekday; from: string; to: string }>): string[] {
  const byDay = WEEKDAYS.map((day) => ({
    day,
    text: rangesText(hours.filter((h) => h.day === day).sort((a, b) => a.from.localeCompare(b.from))),
  }));
  const lines: string[] = [];
  for (let i = 0; i < byDay.length; ) {
    let j = i;
    while (j + 1 < byDay.length && byDay[j + 1]!.text === byDay[i]!.text) j += 1;
    const { day, text } = byDay[i]!;
    if (text) lines.push(`${j > i ? `${SHORT_DAY(day)}–${SHORT_DAY(byDay[j]!.day)}` : SHORT_DAY(day)} ${text}`);
    i = j + 1;
  }
  return lines;
}
