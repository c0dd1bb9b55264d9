import { Suspense, type ReactNode } from 'react';
import { lazyPage } from '../../lib/lazy-page';
import { useViewAsState } from './api';
import { ViewAsEnded } from './view-as-ended';

// Lazy, with the query cache it asks the agent's name through: off every public page's JavaScript.
const ViewAsBanner = lazyPage(() => import('./view-as-banner'), 'ViewAsBanner');
const QueryScope = lazyPage(() => import('../../lib/query-scope'), 'QueryScope');

/** Wraps the app: a view-as tab shows the banner above every page, and only the ended notice once it is over. */
export function ViewAsGate({ children }: { children: ReactNode }) {
  const state = useViewAsState();
  if (state === 'ended') return <ViewAsEnded />;
  if (state === 'none') return <>{children}</>;
  return (
    <>
      <Suspense fallback={null}>
        <QueryScope>
          <ViewAsBanner />
        </QueryScope>
      </Suspense>
      {children}
    </>
  );
}
