/**
 * The SPA's route table (spec §2) as data: every `<Route path>` of web/src/routes.tsx except the
 * catch-alls `/:name` (a salesperson's referral page) and `*`. The gateway reserves these as
 * campaign slugs — a campaign at /{slug} named like a page could never be reached — and
 * web/test/spa-routes.test.ts fails when routes.tsx declares a path missing here.
 *
 * A new page: add its path here AND in routes.tsx. No zod, so the SPA's entry chunk can import it.
 */
export const SPA_ROUTES = [
  '/',
  '/pricing',
  '/standard-pricing',
  '/special-pricing',
  '/premium-pricing',
  '/enterprise-pricing',
  '/ultimate-pricing',
  '/checkout',
  '/checkout-premium',
  '/checkout-enterprise',
  '/checkout-ultimate',
  '/checkout-high-volume',
  '/onboarding-success',
  '/survey',
  '/survey-success',
  '/get-started',
  '/ringcloud',
  '/ringcloud-checkout',
  '/thank-you',
  '/login',
  '/forgot-password',
  '/reset-password',
  '/dashboard',
  '/transfer-checkout',
  '/admin',
  '/admin-orders',
  '/admin-all-orders',
  '/admin-audit-log',
  '/account-security',
  '/affnetwork',
  '/brightcalldocs',
] as const;

/**
 * First path segments the server keeps for itself (the API, ops endpoints, the SPA's assets)
 * or that read like one: never a campaign's page.
 */
const SERVER_RESERVED_SEGMENTS: readonly string[] = [
  'api', 'internal', 'assets', 'static', 'readyz', 'healthz', 'health', 'metrics', 'logout', 'user', 'users',
  'admin-campaigns', 'campaigns', 'salespeople', 'index', 'favicon', 'robots', 'www',
];

/** Every first path segment a campaign slug may not take: the SPA's pages and the server's words. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  ...SPA_ROUTES.map((path) => path.slice(1).split('/')[0]!).filter((segment) => segment !== ''),
  ...SERVER_RESERVED_SEGMENTS,
]);

export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.has(slug.toLowerCase());
}
