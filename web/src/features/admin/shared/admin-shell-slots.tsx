import type { PublicUser } from '@warmline/contracts/accounts';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { openViewAsTab } from '../../view-as/api';
import { CampaignsTab } from '../campaigns/campaigns-tab';

/*
 * Where the admin shell meets the features built beside it in issue 12 (view-as, campaigns):
 * the one place that names them, so the shell and User Management stay about themselves.
 */

/**
 * Go to Dashboard (issue 12 §3): the agent's dashboard in a new tab, read only, through a grant
 * scoped to that tab. Called from the click itself (the tab must open before any await, or a
 * popup blocker stops it); a refusal comes back as a toast.
 */
export function goToDashboard(user: PublicUser): void {
  openViewAsTab(user.id).catch((error: unknown) =>
    toast({ title: 'Failed to open dashboard', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  );
}

/** The Test Campaigns tab (issue 12 §4). */
export function CampaignsTabSlot() {
  return <CampaignsTab />;
}
