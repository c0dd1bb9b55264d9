import { Suspense, useEffect, useState } from 'react';
import { BrowserRouter, useLocation } from 'react-router-dom';
import { useToasts } from './components/toast-store';
import { lazyPage } from './lib/lazy-page';
import { useHydrated } from './lib/use-hydrated';
import { AppRoutes } from './routes';
import { ViewAsGate } from './features/view-as/view-as-gate';

/**
 * The toasts (Radix) load when the first toast is raised: no public page raises one on load, and
 * the toast store keeps it meanwhile. Keeps Radix off the landing route's JavaScript and off its
 * main thread while it loads (Lighthouse's blocking time), and out of the prerendered pages (its
 * region carries a style attribute the CSP refuses).
 */
const Toaster = lazyPage(() => import('./components/toaster'), 'Toaster');

function LiveToaster() {
  const hydrated = useHydrated();
  const raised = useToasts().length > 0;
  // Once loaded it stays, so a toast's closing animation and the next toast need no reload.
  const [needed, setNeeded] = useState(false);
  if (raised && !needed) setNeeded(true);
  if (!hydrated || !needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

function ScrollToTopOnNavigate() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/** Everything inside the router: the same in the browser and in the build's prerender (src/prerender.tsx). */
export function AppContent() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ScrollToTopOnNavigate />
      <ViewAsGate>
        <AppRoutes />
      </ViewAsGate>
      <LiveToaster />
    </>
  );
}

/** No query cache here: the screens that load data bring it with them (src/routes.tsx). */
export function App() {
  return (
    <BrowserRouter>
      <AppContent />
    </BrowserRouter>
  );
}
