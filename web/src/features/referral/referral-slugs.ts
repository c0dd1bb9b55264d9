/**
 * Salespeople whose referral survey lives at /{name} (spec §2). Empty until the referral
 * issue adds its lookup: until then every unknown one-segment path is a 404, never a survey.
 */
export const REFERRAL_SLUGS: readonly string[] = [];

export function isReferralSlug(name: string | undefined): boolean {
  return name !== undefined && REFERRAL_SLUGS.includes(name.toLowerCase());
}
