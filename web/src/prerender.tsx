import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppContent } from './app';
import { PrerenderTitleProvider } from './lib/page-title';
import { SiteConfigProvider, type SiteConfig } from './lib/site-config';

/**
 * The build's prerender (web/scripts/prerender.mjs builds this for Node and calls it): the
 * public pages rendered to HTML with the site settings' stand-ins, which the gateway replaces
 * with the configured values when it serves them. The browser then hydrates that markup.
 */

/**
 * The prerendered pages, and the module whose chunk (and stylesheet) each needs at once.
 * @public read by scripts/prerender.mjs from the built SSR bundle, where knip cannot follow.
 */
export const PRERENDERED_PAGES: ReadonlyArray<{ path: string; source: string }> = [
  { path: '/', source: 'src/features/landing/landing-page.tsx' },
  ...['/pricing', '/standard-pricing', '/special-pricing', '/premium-pricing', '/enterprise-pricing', '/ultimate-pricing'].map(
    (path) => ({ path, source: 'src/features/pricing/pricing-pages.tsx' }),
  ),
];

export interface RenderedPage {
  /** What goes into #root. */
  markup: string;
  /** The tab's title the page sets (usePageTitle), for the page's <title>; null if it sets none. */
  title: string | null;
}

/**
 * The app's markup at `path`, once every lazy page in it has loaded, and the title it sets.
 * @public read by scripts/prerender.mjs from the built SSR bundle.
 */
export async function renderPage(path: string, site: SiteConfig): Promise<RenderedPage> {
  let title: string | null = null;
  const setTitle = (text: string) => {
    title = text;
  };
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <PrerenderTitleProvider value={setTitle}>
        <SiteConfigProvider value={site}>
          <StaticRouter location={path}>
            <AppContent />
          </StaticRouter>
        </SiteConfigProvider>
      </PrerenderTitleProvider>
    </StrictMode>,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return { markup: Buffer.concat(chunks).toString('utf8'), title };
}
