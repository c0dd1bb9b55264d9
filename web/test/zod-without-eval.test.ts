import { describe, expect, it } from 'vitest';

describe('zod without eval', () => {
  it('zod reads the jitless setting made before it loads, and keeps it after its own locale set-up', async () => {
    await import('../src/lib/zod-without-eval');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    // An object schema still parses (the jitless path) and rejects bad input.
    const schema = z.object({ name: z.string() });
    expect(schema.parse({ name: 'Ann' })).toEqual({ name: 'Ann' });
    expect(schema.safeParse({ name: 1 }).success).toBe(false);
  });
});
