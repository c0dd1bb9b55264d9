/**
 * Salespeople and their referral surveys at /{slug} (spec §2). Kept apart from the survey
 * schemas so the SPA's route table can check a slug without loading zod.
 */
import { RESERVED_SLUGS } from './spa-routes';

/** `GET /api/salespeople/{slug}`: a salesperson whose referral survey is open. */
export interface PublicSalesperson {
  slug: string;
  displayName: string;
}

/** A salesperson's slug: lower-case words joined by '-', as it appears in /{slug}. */
export const SALESPERSON_SLUG_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

export function isValidSalespersonSlug(slug: string): boolean {
  return SALESPERSON_SLUG_PATTERN.test(slug) && slug.length <= 60 && !RESERVED_SLUGS.has(slug);
}
