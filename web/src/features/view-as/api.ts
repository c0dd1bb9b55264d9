import { useSyncExternalStore } from 'react';
import type { ViewAsGrant } from '@warmline/contracts/view-as';
import { apiRequest } from '../../lib/api';
import { forgetViewAs, subscribeViewAs, viewAsState, viewAsToken, type ViewAsState } from '../../lib/view-as-token';

/**
 * View-as in the SPA (issue 12, docs/adr/0014-view-as.md): the admin's "Go to Dashboard" opens an
 * agent's dashboard in a new tab, read only; that tab's banner ends it.
 */

/**
 * "Go to Dashboard" of the admin's User Management: opens the agent's dashboard, as the agent
 * sees it, in a new tab. Call it from the click itself: the tab is opened at once (a tab opened
 * after waiting for the server is what popup blockers stop) and sent to the grant's address when
 * the server answers. Rejects with the server's error (the empty tab is closed again).
 */
export async function openViewAsTab(userId: string): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const grant = await apiRequest<ViewAsGrant>('/api/admin/view-as', { method: 'POST', body: { userId } });
    if (!tab) {
      // Blocked after all: this tab's click still opens it (same grant, same session).
      window.open(grant.url, '_blank');
      return;
    }
    // The new tab needs no way back into this one.
    tab.opener = null;
    tab.location.replace(grant.url);
  } catch (error) {
    tab?.close();
    throw error;
  }
}

/** Whether this tab is viewing as someone, has stopped being able to, or neither. */
export function useViewAsState(): ViewAsState {
  return useSyncExternalStore(subscribeViewAs, viewAsState, () => 'none');
}

/**
 * Ends this tab's viewing (DELETE /api/admin/view-as with its header), then closes the tab — it
 * was opened for this — or, when the browser keeps it open, takes it back to the admin area.
 */
export async function endViewing(): Promise<void> {
  if (viewAsToken()) {
    try {
      await apiRequest<unknown>('/api/admin/view-as', { method: 'DELETE' });
    } catch {
      // Already ended (expired, logged out): nothing left to end.
    }
  }
  leaveViewing();
}

/** Forgets this tab's grant and closes the tab, or sends it to the admin area. */
export function leaveViewing(): void {
  forgetViewAs();
  window.close();
  // Still here (a tab the script may not close): the admin's own screen, as the admin.
  window.location.replace('/admin');
}
