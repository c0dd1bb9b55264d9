import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { timeOrderedUuid } from '../src/ids';

describe('time-ordered UUIDs', () => {
  it('are valid version-7 UUIDs that sort by the time they were made', () => {
    const earlier = timeOrderedUuid(Date.UTC(2026, 10, 25, 10, 0, 0));
    const later = timeOrderedUuid(Date.UTC(2026, 10, 25, 10, 0, 1));
    for (const id of [earlier, later]) {
      expect(z.uuid().safeParse(id).success).toBe(true);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
    expect(earlier < later).toBe(true);
    expect(parseInt(earlier.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 25, 10, 0, 0));
  });

  it('differ within the same millisecond', () => {
    const at = Date.now();
    const ids = new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(at)));
    expect(ids.size).toBe(1000);
  });
});
