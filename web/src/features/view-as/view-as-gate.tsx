import type { ReactNode } from 'react';
import { useViewAsState } from './api';
import { ViewAsBanner } from './view-as-banner';
import { ViewAsEnded } from './view-as-ended';

/** Wraps the app: a view-as tab shows the banner above every page, and only the ended notice once it is over. */
export function ViewAsGate({ children }: { children: ReactNode }) {
  const state = useViewAsState();
  if (state === 'ended') return <ViewAsEnded />;
  if (state === 'none') return <>{children}</>;
  return (
    <>
      <ViewAsBanner />
      {children}
    </>
  );
}
