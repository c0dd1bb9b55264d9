import type { CallbackOpportunityStatus } from '@warmline/contracts/callbacks';

export const STATUS_LABEL: Record<CallbackOpportunityStatus, string> = {
  available: 'Available',
  assigned: 'Assigned',
  contacted: 'Contacted',
  expired: 'Expired',
  suppressed: 'Suppressed',
};
