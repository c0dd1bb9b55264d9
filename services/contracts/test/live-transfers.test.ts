import { describe, expect, it } from 'vitest';
import { adminTransfersQuery, myTransfersQuery, transferOutcomeBody } from '../src/live-transfers';

/** Dates and times of the transfer routes are refused in words when PostgreSQL could not hold them (the route fuzzer found year 0000). */
describe('dates and times of live transfers', () => {
  it('when My Transfers or the admin list is asked for year 0000 or 3000, then the query is refused, naming the format and the years', () => {
    for (const query of [{ to: '0000-02-29' }, { from: '3000-01-01' }]) {
      const parsed = myTransfersQuery.safeParse(query);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('Dates must be YYYY-MM-DD between the years 1900 and 2999');
    }
    expect(adminTransfersQuery.safeParse({ date: '0000-01-01' }).success).toBe(false);
    expect(myTransfersQuery.parse({ from: '2026-11-01', to: '2026-11-30' })).toMatchObject({ from: '2026-11-01', to: '2026-11-30', page: 1 });
  });

  it('when the vendor reports answered_at or ended_at in year 0000, then the outcome is refused naming the field', () => {
    const answered = transferOutcomeBody.safeParse({ connected: true, duration_seconds: 130, answered_at: '0000-01-01T00:00:00Z' });
    expect(answered.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['answered_at', 'answered_at must be a time between the years 1900 and 2999']]);
    const ended = transferOutcomeBody.safeParse({ connected: true, duration_seconds: 130, ended_at: '0000-01-01T00:02:10Z' });
    expect(ended.error?.issues[0]?.path).toEqual(['ended_at']);
    expect(transferOutcomeBody.safeParse({ connected: true, duration_seconds: 130, answered_at: '2026-11-27T15:04:05Z' }).success).toBe(true);
  });
});
