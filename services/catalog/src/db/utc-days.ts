/* The database buckets the market by UTC day; these name and bound those days. */

/** '2026-05-01' from a date, in UTC like the database's day buckets. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Midnight UTC starting the day after `day`. */
export function endOfUtcDay(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000);
}

export function startOfUtcDay(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00.000Z`));
}

/** The start of the UTC hour `at` is in, as the database's hourly stock buckets it. */
export function startOfUtcHour(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
}

export const HOUR_MS = 3_600_000;
