import type { PublicUser } from '@warmline/contracts/accounts';
import { toast } from '../../components/toast-store';
import { CampaignsTab } from './campaigns-tab';

/*
 * Where the admin shell meets features built beside it in issue 12. Each slot is the one place
 * to change when its feature lands, so the shell itself never waits on them.
 */

/**
 * Go to Dashboard (issue 12 §3): opens the agent's dashboard in a new tab, read only, through a
 * grant scoped to that tab.
 *
 * VIEW-AS CALL SITE: replace the body with `openViewAsTab(user.id)` from
 * `../view-as/` once that feature exists. Opening `/dashboard` here would show the ADMIN's own
 * dashboard, so until then the button says plainly that it is not available.
 */
export function goToDashboard(user: PublicUser): void {
  toast({
    title: 'Go to Dashboard is not available yet',
    description: `Viewing ${user.firstName} ${user.lastName}'s dashboard as they see it is coming soon.`.replace(/\s+/g, ' '),
  });
}

/** The Test Campaigns tab (issue 12 §4): salespeople's referral pages and their responses. */
export function CampaignsTabSlot() {
  return <CampaignsTab />;
}
