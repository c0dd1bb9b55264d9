import { z } from 'zod';

/**
 * View-as (issue 12, docs/adr/0014-view-as.md): an admin opens an agent's dashboard in a new tab,
 * read only, through a grant that only that tab carries (header X-View-As). The admin's own
 * session and other tabs stay the admin's.
 */

/** The header a viewing tab sends on every API request: the grant's token. */
export const VIEW_AS_HEADER = 'x-view-as';
/** Set on an answer refused because the tab's grant has ended (expired, ended, or the admin logged out). */
export const VIEW_AS_ENDED_HEADER = 'x-view-as-ended';
/** The query parameter of the URL that opens the viewing tab; the SPA takes it once. */
export const VIEW_AS_PARAM = 'viewAs';

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
export type ViewAsBody = z.infer<typeof viewAsBody>;

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
