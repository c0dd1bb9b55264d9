import { z } from 'zod';

/**
 * View-as (issue 12, docs/adr/0014-view-as.md): an admin opens an agent's dashboard in a new tab,
 * read only, through a grant that only that tab carries (header X-View-As). The admin's own
 * session and other tabs stay the admin's.
 */

export { VIEW_AS_ENDED_HEADER, VIEW_AS_HEADER, VIEW_AS_PARAM } from './view-as-names';

export const VIEW_AS_ENDED_MESSAGE = 'Viewing as this user has ended';
export const VIEW_AS_ADMIN_REFUSED = "Only an agent's dashboard can be viewed";

/** The answer to a write while viewing: the server refuses it, whatever the screen shows. */
export function readOnlyMessage(viewedName: string): string {
  return `Read only while viewing as ${viewedName}`;
}

/** POST /api/admin/view-as */
export const viewAsBody = z.object({
  userId: z.uuid({ error: 'userId must be a user id' }),
});

/** What POST /api/admin/view-as answers: the address the new tab opens, and when the grant ends. */
export interface ViewAsGrant {
  url: string;
  expiresAt: string;
}

/** On GET /api/current-user in a viewing tab, beside the viewed agent's fields. */
export interface ViewingAs {
  adminUsername: string;
  expiresAt: string;
}
