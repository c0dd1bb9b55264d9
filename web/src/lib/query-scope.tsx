import { useContext, type ReactNode } from 'react';
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { tabQueryClient } from './query-client';

/**
 * Gives what it wraps the tab's query cache. Loaded lazily (src/routes.tsx, the view-as banner):
 * the public pages use no query, so react-query stays off the landing route's JavaScript.
 * Inside a cache already given (a test's), it adds none.
 */
export function QueryScope({ children }: { children: ReactNode }) {
  const given = useContext(QueryClientContext);
  if (given) return <>{children}</>;
  return <QueryClientProvider client={tabQueryClient()}>{children}</QueryClientProvider>;
}
