import { customerSearchTerms, MAX_SEARCH_LIMIT, type CustomerSearchResult } from '@warmline/contracts';
import type { Logger, Pool } from '@warmline/platform';
import { searchSurveyResponses, searchUsers, type SurveyMatch, type UserMatch } from '../db/customer-search';

/**
 * The admin's customer search (issue 12): every owner of people asked in parallel — the
 * gateway's users and survey responses, the orders service's paying customers and the partners
 * service's applications — each with its own time limit, so one slow source never holds the answer.
 * Exact matches (e-mail, phone, username) first, then the newest; at most `limit` in all (50
 * unless asked), and whether more match (issue 22: the screen then offers "Show more").
 */

export interface SearchSource {
  /** Named in X-Search-Partial when it is left out. */
  name: string;
  /** At most `limit` results, the most relevant. */
  search(text: string, signal: AbortSignal, limit: number): Promise<CustomerSearchResult[]>;
}

export interface SearchAnswer {
  results: CustomerSearchResult[];
  /** Sources that did not answer in time or failed: their people are missing from this answer. */
  partial: string[];
  /** More people match than `results` holds. */
  more: boolean;
}

const NONE = {
  firstName: null,
  lastName: null,
  name: null,
  mainContact: null,
  agencyName: null,
  businessName: null,
  salesperson: null,
  email: null,
  contactEmail: null,
  phone: null,
  contactPhone: null,
  leadType: null,
  role: null,
  username: null,
} satisfies Omit<CustomerSearchResult, 'type' | 'id' | 'createdAt' | 'exact'>;

function personResult(type: 'user' | 'survey', m: UserMatch | SurveyMatch): CustomerSearchResult {
  return {
    ...NONE,
    type,
    id: m.id,
    firstName: m.firstName,
    lastName: m.lastName,
    name: `${m.firstName} ${m.lastName}`.trim() || m.username,
    agencyName: m.agencyName || null,
    email: m.email,
    phone: m.phone || null,
    role: m.role,
    username: m.username,
    leadType: 'leadType' in m ? m.leadType : null,
    salesperson: 'salesperson' in m ? m.salesperson : null,
    createdAt: m.createdAt.toISOString(),
    exact: m.exact,
  };
}

/** The gateway's own people: live users and survey responses. */
export function accountsSource(pool: Pool): SearchSource {
  return {
    name: 'accounts',
    async search(text, _signal, limit) {
      const terms = customerSearchTerms(text);
      const [users, surveys] = await Promise.all([searchUsers(pool, terms, limit), searchSurveyResponses(pool, terms, limit)]);
      return [...users.map((u) => personResult('user', u)), ...surveys.map((s) => personResult('survey', s))];
    },
  };
}

/** A source's answer, or a rejection once `ms` have passed (its request is aborted then). */
async function withinTime(source: SearchSource, text: string, limit: number, ms: number): Promise<CustomerSearchResult[]> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`${source.name} did not answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([source.search(text, controller.signal, limit), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Exact matches first, then the newest; ties by type and id so the order is stable. */
function byRelevance(a: CustomerSearchResult, b: CustomerSearchResult): number {
  return Number(b.exact) - Number(a.exact) || b.createdAt.localeCompare(a.createdAt) || a.type.localeCompare(b.type) || a.id.localeCompare(b.id);
}

export async function searchCustomers(
  deps: { sources: readonly SearchSource[]; timeoutMs: number; log: Logger },
  text: string,
  limit: number,
): Promise<SearchAnswer> {
  // One more than asked from each source tells whether more match (at the cap, a full answer counts as more).
  const asked = Math.min(limit + 1, MAX_SEARCH_LIMIT);
  const settled = await Promise.allSettled(deps.sources.map((source) => withinTime(source, text, asked, deps.timeoutMs)));
  const partial: string[] = [];
  const results: CustomerSearchResult[] = [];
  settled.forEach((outcome, i) => {
    const source = deps.sources[i]!;
    if (outcome.status === 'fulfilled') results.push(...outcome.value);
    else {
      partial.push(source.name);
      deps.log.warn({ source: source.name, err: outcome.reason }, 'a customer search source did not answer; its results are left out');
    }
  });
  results.sort(byRelevance);
  return { results: results.slice(0, limit), partial, more: results.length > limit || (limit === MAX_SEARCH_LIMIT && results.length >= limit) };
}
