import { z } from 'zod';
import { SALESPERSON_SLUG_PATTERN } from './salespeople';

/**
 * Test Campaigns (spec §2 Admin, issue 12): a campaign is a salesperson's referral page at
 * /{slug} with its survey at POST /api/{slug}-survey; admins create them, switch them on and
 * off, and read their responses (GET /api/{slug}-responses, or as CSV).
 */

const CAMPAIGN_SLUG_MAX_LENGTH = 60;

const CAMPAIGN_SLUG_FORMAT_MESSAGE =
  'Slug must be lower-case letters, digits and single hyphens, starting with a letter (e.g. spring-promo)';
export const CAMPAIGN_NOT_FOUND = 'Campaign not found';
export const campaignSlugTakenMessage = (slug: string) => `The slug '${slug}' is already taken by another campaign`;
export const campaignSlugReservedMessage = (slug: string) => `The slug '${slug}' is a page of the site; choose another`;

const campaignSlug = z
  .string({ message: 'Slug is required' })
  .min(1, 'Slug is required')
  .max(CAMPAIGN_SLUG_MAX_LENGTH, `Slug must be at most ${CAMPAIGN_SLUG_MAX_LENGTH} characters`)
  .regex(SALESPERSON_SLUG_PATTERN, CAMPAIGN_SLUG_FORMAT_MESSAGE);

/** POST /api/admin/campaigns */
export const createCampaignBody = z.object({
  /** The salesperson's name as the referral page shows it. */
  name: z
    .string({ message: 'Campaign name is required' })
    .trim()
    .min(1, 'Campaign name is required')
    .max(200, 'Campaign name must be at most 200 characters'),
  slug: campaignSlug,
});
export type CreateCampaign = z.infer<typeof createCampaignBody>;

/** PATCH /api/admin/campaigns/{id}: an inactive campaign's page and survey answer 404. */
export const campaignActiveBody = z.object({
  active: z.boolean({ message: 'active must be true or false' }),
});

const campaign = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  active: z.boolean(),
  responseCount: z.number().int().nonnegative(),
  createdAt: z.iso.datetime(),
});
export type Campaign = z.infer<typeof campaign>;

/**
 * A slug suggested from a campaign's name: 'Spring Promo 2025!' → 'spring-promo-2025'. Accents
 * dropped, anything else a hyphen; a leading digit gets a 'c-' so the slug starts with a letter.
 */
export function suggestCampaignSlug(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const slug = /^[0-9]/.test(words) ? `c-${words}` : words;
  return slug.slice(0, CAMPAIGN_SLUG_MAX_LENGTH).replace(/-+$/, '');
}
