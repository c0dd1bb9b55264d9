import { useEffect, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { TooltipProvider } from '@radix-ui/react-tooltip';
import { BrowserRouter, useLocation } from 'react-router-dom';
import { Toaster } from './components/toaster';
import { createQueryClient } from './lib/query-client';
import { AppRoutes } from './routes';
import { ViewAsGate } from './features/view-as/view-as-gate';

/** Spec §7: tooltips open after 700 ms; moving between them within 300 ms skips the delay. */
const TOOLTIP_DELAY_MS = 700;
const TOOLTIP_SKIP_DELAY_MS = 300;

function ScrollToTopOnNavigate() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
        <BrowserRouter>
          <a className="skip-link" href="#main">
            Skip to content
          </a>
          <ScrollToTopOnNavigate />
          <ViewAsGate>
            <AppRoutes />
          </ViewAsGate>
          <Toaster />
        </BrowserRouter>
      </TooltipProvider>
    </QueryClientProvider>
  );
}
