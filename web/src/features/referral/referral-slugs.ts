import { SALESPERSON_SLUG_PATTERN } from '@warmline/contracts/salespeople';
import { isReservedSlug } from '@warmline/contracts/spa-routes';
import { useSalesperson } from './api';

/**
 * Whether /{name} is a referral survey (spec §2): the gateway knows the salespeople
 * (GET /api/salespeople/{slug}). A name that cannot be a slug, or is reserved (spa-routes.ts),
 * is a 404 without asking.
 */
function referralSlugOf(name: string | undefined): string | null {
  const slug = name?.toLowerCase();
  return slug && SALESPERSON_SLUG_PATTERN.test(slug) && !isReservedSlug(slug) ? slug : null;
}

export type ReferralLookup =
  | { state: 'checking' }
  | { state: 'found'; slug: string; displayName: string }
  | { state: 'not-found' }
  | { state: 'error'; retry(): void };

export function useReferralSalesperson(name: string | undefined): ReferralLookup {
  const slug = referralSlugOf(name);
  const lookup = useSalesperson(slug);
  if (slug === null) return { state: 'not-found' };
  if (lookup.isPending) return { state: 'checking' };
  if (lookup.isError) return { state: 'error', retry: () => void lookup.refetch() };
  return lookup.data ? { state: 'found', ...lookup.data } : { state: 'not-found' };
}
