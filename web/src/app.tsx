import { Suspense, useEffect } from 'react';
import { BrowserRouter, useLocation } from 'react-router-dom';
import { lazyPage } from './lib/lazy-page';
import { useHydrated } from './lib/use-hydrated';
import { AppRoutes } from './routes';
import { ViewAsGate } from './features/view-as/view-as-gate';

/**
 * The toasts (Radix) load after the page: no public page raises one on load, and the toast
 * store keeps any raised meanwhile. Keeps Radix off the landing route's critical JavaScript,
 * and out of the prerendered pages (its region carries a style attribute the CSP refuses).
 */
const Toaster = lazyPage(() => import('./components/toaster'), 'Toaster');

function LiveToaster() {
  const hydrated = useHydrated();
  if (!hydrated) return null;
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
