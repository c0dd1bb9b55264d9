import { useQuery } from '@tanstack/react-query';
import type { DashboardConfigResponse } from '@warmline/contracts/catalog';
import { apiRequest } from '../../lib/api';

/** Hooks of the dashboard's own configuration (gateway). Query keys come only from this factory. */
const dashboardKeys = {
  all: ['dashboard'] as const,
  config: () => [...dashboardKeys.all, 'config'] as const,
};

/** The training videos to embed. */
export function useDashboardConfig() {
  return useQuery({
    queryKey: dashboardKeys.config(),
    queryFn: ({ signal }) => apiRequest<DashboardConfigResponse>('/api/dashboard-config', { signal }),
  });
}
