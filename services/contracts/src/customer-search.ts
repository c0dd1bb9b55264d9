import { z } from 'zod';

/**
 * The admin's customer search (spec §3 "Customer search result", issue 12): one box over users,
 * survey answers, paying customers of the public checkouts and partner applications.
 */

export const SEARCH_TEXT_REQUIRED = 'Search text is required';
/** At most this many results in all, the exact matches first. */
export const MAX_SEARCH_RESULTS = 50;

export const customerSearchQuery = z.object({
  q: z
    .string({ error: SEARCH_TEXT_REQUIRED })
    .trim()
    .min(1, SEARCH_TEXT_REQUIRED)
    .max(200, 'Search text must be at most 200 characters'),
});

export const CUSTOMER_SEARCH_TYPES = ['survey', 'user', 'partner', 'customer'] as const;
export type CustomerSearchType = (typeof CUSTOMER_SEARCH_TYPES)[number];

/**
 * One result. Which fields a type fills: user — firstName, lastName, name, agencyName, email,
 * phone, role, username; survey — the same plus leadType and salesperson (the campaign);
 * customer — name, email, phone (billing details of a checkout); partner — businessName,
 * mainContact, contactEmail, contactPhone. The rest are null.
 */
export interface CustomerSearchResult {
  type: CustomerSearchType;
  id: string;
  firstName: string | null;
  lastName: string | null;
  name: string | null;
  mainContact: string | null;
  agencyName: string | null;
  businessName: string | null;
  salesperson: string | null;
  email: string | null;
  contactEmail: string | null;
  phone: string | null;
  contactPhone: string | null;
  leadType: string | null;
  role: string | null;
  username: string | null;
  createdAt: string;
  /** True when the e-mail, phone digits or username equal the search text (these come first). */
  exact: boolean;
}
