import { createContext, useContext, useEffect } from 'react';

/** What the browser tab says for a screen titled `title`. */
function tabTitle(title: string): string {
  return `${title} · WarmLine`;
}

/** Given only by the build's prerender (src/prerender.tsx): it writes the page's <title> from it. */
const PrerenderTitle = createContext<((title: string) => void) | null>(null);
export const PrerenderTitleProvider = PrerenderTitle.Provider;

/** Names the browser tab after the screen, so history and screen readers say where you are. */
export function usePageTitle(title: string): void {
  // In the prerender (no effects run there), told during render so the page's HTML carries it.
  useContext(PrerenderTitle)?.(tabTitle(title));
  useEffect(() => {
    document.title = tabTitle(title);
  }, [title]);
}
