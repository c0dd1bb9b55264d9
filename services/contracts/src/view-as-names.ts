/**
 * The names of view-as on the wire (docs/adr/0014-view-as.md), without zod: the SPA's fetch
 * helper and token reader load with the landing page, which must not carry the schemas.
 */

/** The header a viewing tab sends on every API request: the grant's token. */
export const VIEW_AS_HEADER = 'x-view-as';
/** Set on an answer refused because the tab's grant has ended (expired, ended, or the admin logged out). */
export const VIEW_AS_ENDED_HEADER = 'x-view-as-ended';
/** The query parameter of the URL that opens the viewing tab; the SPA takes it once. */
export const VIEW_AS_PARAM = 'viewAs';
