// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { PRERENDERED_PAGES, renderPage } from '../src/prerender';
import type { SiteConfig } from '../src/lib/site-config';

/** The build's prerender (src/prerender.tsx): each public page's markup and its own title, without a browser. */

const SITE: SiteConfig = {
  supportPhone: '(555) 010-0199',
  supportEmail: 'support@warmline.local',
  ringcloudSupportEmail: 'support@ringcloud.local',
  testimonial: { name: 'Sarah Mitchell', title: 'Agency Owner', quote: 'Great transfers.' },
  bookingUrl: null,
};

describe('the prerender', () => {
  it('when the landing page is prerendered, then it carries its headline, the given phone and its own title', async () => {
    const page = await renderPage('/', SITE);
    expect(page.title).toBe('Live Transfers and Leads for Insurance Agents · WarmLine');
    expect(page.markup).toContain('Qualified prospects, transferred to your agents live');
    expect(page.markup).toContain('(555) 010-0199');
  });

  it('when a tier page is prerendered, then its title names the tier', async () => {
    const page = await renderPage('/premium-pricing', SITE);
    expect(page.title).toBe('Premium Pricing · WarmLine');
  });

  it('when every public page is prerendered, then each sets a title of its own', async () => {
    const titles = new Set<string>();
    for (const { path } of PRERENDERED_PAGES) {
      const { title } = await renderPage(path, SITE);
      expect(title, path).toMatch(/ · WarmLine$/);
      titles.add(title ?? '');
    }
    expect(titles.size).toBe(PRERENDERED_PAGES.length);
  });
});
