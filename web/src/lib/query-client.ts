import { QueryClient } from '@tanstack/react-query';

/**
 * Spec §7 defaults: data never goes stale by itself, nothing refetches on focus or on a timer,
 * and nothing is retried. Data changes when a mutation invalidates its keys.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

let tabClient: QueryClient | undefined;

/** The tab's one cache, shared by every screen that loads data, so what one fetched the next finds. */
export function tabQueryClient(): QueryClient {
  tabClient ??= createQueryClient();
  return tabClient;
}
