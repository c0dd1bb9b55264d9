import { describe, expect, it } from 'vitest';
import { createCampaignBody, isReservedSlug, publicRoutes, suggestCampaignSlug } from '../src/index';

describe('campaign slugs', () => {
  it('when a slug is suggested from a name, then it is lower-case words joined by hyphens that the schema accepts', () => {
    const cases: Array<[string, string]> = [
      ['Jane Doe', 'jane-doe'],
      ['  Spring Promo 2026! ', 'spring-promo-2026'],
      ['José Núñez', 'jose-nunez'],
      ['2026 Kickoff', 'c-2026-kickoff'],
      ['a'.repeat(80), 'a'.repeat(60)],
    ];
    for (const [name, slug] of cases) {
      expect(suggestCampaignSlug(name), name).toBe(slug);
      expect(createCampaignBody.safeParse({ name, slug }).success, name).toBe(true);
    }
    expect(suggestCampaignSlug('!!!')).toBe('');
  });

  it('when a fixed API route ends like a campaign survey or responses route, then its stem is reserved (it would shadow /api/{slug}-survey)', () => {
    const stems = publicRoutes
      .map((route) => /^\/api\/([a-z0-9-]+)-(?:survey|responses)$/.exec(route.path)?.[1])
      .filter((stem): stem is string => stem !== undefined);
    expect(stems.length).toBeGreaterThan(0);
    for (const stem of stems) expect(isReservedSlug(stem), stem).toBe(true);
  });
});
