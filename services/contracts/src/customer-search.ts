import { z } from 'zod';

/**
 * The admin's customer search (spec §3 "Customer search result", issue 12): one box over users,
 * survey answers, paying customers of the public checkouts and partner applications. The
 * gateway asks each owner's `GET /internal/search?q=` in parallel; every owner answers an array
 * of results in this shape, and so does `GET /api/search-customers`.
 */

export const SEARCH_TEXT_REQUIRED = 'Search text is required';
/** At most this many results in all, the exact matches first. */
export const MAX_SEARCH_RESULTS = 50;
/** The most a search may ask for (`limit`): the screen's "Show more" asks for 50 more each time (issue 22). */
export const MAX_SEARCH_LIMIT = 500;
/** Names of the sources left out of an answer (slow or failing), comma-separated. */
export const SEARCH_PARTIAL_HEADER = 'x-search-partial';
/** 'true' when more people match than the answer holds (issue 22: the screen offers "Show more"). */
export const SEARCH_MORE_HEADER = 'x-search-more';

const SEARCH_LIMIT_MESSAGE = `Limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`;

export const customerSearchQuery = z.object({
  q: z
    .string({ error: SEARCH_TEXT_REQUIRED })
    .trim()
    .min(1, SEARCH_TEXT_REQUIRED)
    .max(200, 'Search text must be at most 200 characters'),
  /** How many results at most (50 when absent). */
  limit: z
    .string({ error: SEARCH_LIMIT_MESSAGE })
    .max(4, SEARCH_LIMIT_MESSAGE)
    .regex(/^\d{1,4}$/, SEARCH_LIMIT_MESSAGE)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_SEARCH_LIMIT, SEARCH_LIMIT_MESSAGE)
    .optional(),
});

const CUSTOMER_SEARCH_TYPES = ['survey', 'user', 'partner', 'customer'] as const;

const text = z.string().max(1_000).nullable();

/**
 * One result. Every field is present; those that do not apply to its type are null:
 * - user: firstName, lastName, name, agencyName, email, phone, role, username (no salesperson,
 *   leadType, businessName, mainContact, contactEmail, contactPhone);
 * - survey: the same as user plus leadType and salesperson (the campaign that took it);
 * - customer (a paying customer of a public checkout, who may have no account; one per e-mail):
 *   name, email, phone as billed; for the second brand's checkout also salesperson 'RingCloud'
 *   and leadType (its product); id is their newest paid order;
 * - partner: businessName, mainContact, contactEmail, contactPhone.
 * `exact`: the e-mail, the phone digits or the username equal the search text (these come first).
 */
const customerSearchResultSchema = z.object({
  type: z.enum(CUSTOMER_SEARCH_TYPES),
  id: z.string().min(1).max(100),
  firstName: text,
  lastName: text,
  name: text,
  mainContact: text,
  agencyName: text,
  businessName: text,
  salesperson: text,
  email: text,
  contactEmail: text,
  phone: text,
  contactPhone: text,
  leadType: text,
  role: text,
  username: text,
  createdAt: z.iso.datetime({ offset: true }),
  exact: z.boolean(),
});
export type CustomerSearchResult = z.infer<typeof customerSearchResultSchema>;

/** What `GET /internal/search` answers (one owner's part) and `GET /api/search-customers` (all). */
export const customerSearchAnswerSchema = z.array(customerSearchResultSchema).max(MAX_SEARCH_LIMIT);

/** What every owner's search looks for, read the same way by each (gateway, orders, partners). */
export interface CustomerSearchTerms {
  /** The text in lower case, for exact e-mail and username matches. */
  lowered: string;
  /** `%text%` for ILIKE … ESCAPE '\', its own %, _ and \ taken literally. */
  containsPattern: string;
  /**
   * The digits when the text reads as a phone number — only digits and ( ) + - . spaces, at
   * least 3 digits — so '(555) 123' finds 555123…; a leading US 1 of 11 digits is dropped.
   * Null otherwise: 'agent 42' does not look for phones containing 42.
   */
  phoneDigits: string | null;
}

export function customerSearchTerms(text: string): CustomerSearchTerms {
  const trimmed = text.trim();
  let digits = trimmed.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  return {
    lowered: trimmed.toLowerCase(),
    containsPattern: `%${trimmed.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    phoneDigits: /^[\d\s()+.-]+$/.test(trimmed) && digits.length >= 3 ? digits : null,
  };
}
