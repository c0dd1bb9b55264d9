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

/** Weekly hours in words, a day a line: 'Mon 9:00 AM – 5:00 PM'. */
export function hoursLines(hours: ReadonlyArray<{ day: Weekday; from: string; to: string }>): string[] {
  return WEEKDAYS.flatMap((day) =>
    hours
      .filter((h) => h.day === day)
      .sort((a, b) => a.from.localeCompare(b.from))
      .map((h) => `${WEEKDAY_NAMES[day].slice(0, 3)} ${clockText(h.from)} – ${clockText(h.to)}`),
  );
}
